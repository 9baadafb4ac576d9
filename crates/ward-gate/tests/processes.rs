//! Guards and `ward verify` as processes: what a guard inherits, what its output costs, and a
//! `show -json` that hangs. (Its own test binary: it sets variables in the process environment.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use ward_gate::run::{self, GateOptions, Inputs, VerifyOptions};
use ward_report::Format;

mod common;
use common::example;

/// `ward gate` on `replace.json` (two instances replaced, nothing needing approval) with one
/// guard on instances running `script`; the JSON report.
fn gate_with_guard(dir: &Path, script: &str, record: Option<PathBuf>) -> common::Out {
    gate_with_guard_timeout(dir, script, "20s", record)
}

fn gate_with_guard_timeout(
    dir: &Path,
    script: &str,
    timeout: &str,
    record: Option<PathBuf>,
) -> common::Out {
    let hcl = format!(
        "guard \"builds-idle\" {{\n  types   = [\"fakecloud_instance\"]\n  command = [\"sh\", \"-c\", {script:?}]\n  timeout = {timeout:?}\n}}\n"
    );
    std::fs::write(dir.join("ward.hcl"), ward_rig::rules::ward_hcl(&hcl)).unwrap();
    let env = |k: &str| match k {
        "WARD_NOW" => Some("2026-11-29T18:00:00Z".to_string()),
        _ => None,
    };
    common::gate(
        common::run_gate(
            &GateOptions {
                inputs: Inputs {
                    plan: example("replace.json"),
                    config: Some(dir.join("ward.hcl")),
                    approvals: None,
                    root: None,
                    allow_unclassified: false,
                    history: None,
                },
                record,
                no_record_protection: true,
                audit: None,
                binding: Default::default(),
            },
            &env,
        )
        .unwrap(),
        Format::Json,
    )
}

#[test]
fn a_guard_never_inherits_the_approval_key() {
    let d = tempfile::tempdir().unwrap();
    // The key in ward's own environment, where a CI job puts it.
    std::env::set_var("WARD_APPROVAL_KEY", "s3cret-approval-key");
    std::env::set_var("WARD_TEST_OTHER_SECRET", "other-s3cret");
    let out = gate_with_guard(
        d.path(),
        "echo \"key=$WARD_APPROVAL_KEY other=$WARD_TEST_OTHER_SECRET addr=$WARD_ADDRESS\"; test -n \"$PATH\"",
        None,
    );
    assert_eq!(out.exit.code(), 0, "{}", out.stdout);
    assert!(!out.stdout.contains("s3cret"), "{}", out.stdout);
    assert!(!out.stderr.contains("s3cret"));
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let first = &r["guards"][0];
    assert_eq!(first["status"], "passed");
    assert_eq!(
        first["stdout"],
        "key= other= addr=fakecloud_instance.web[0]"
    );
}

#[test]
fn a_guard_printing_without_end_is_cut_at_the_cap_and_reported() {
    let d = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    // `yes` prints forever; it ends only when its timeout kills it.
    let out = gate_with_guard_timeout(d.path(), "yes ward-guard-output", "1s", None);
    assert_eq!(out.exit.code(), 6, "a guard that timed out refuses");
    assert!(t0.elapsed() < Duration::from_secs(30));
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let g = &r["guards"][0];
    assert_eq!(g["status"], "timed-out");
    let kept = g["stdout"].as_str().unwrap();
    assert!(kept.len() <= ward_gate::guard::MAX_OUTPUT, "{}", kept.len());
    assert!(kept.starts_with("ward-guard-output\nward-guard-output"));
    assert!(
        g["output_cut"].as_u64().unwrap() > 100_000,
        "a second of `yes` is far more than the cap: {g}"
    );
    // Streamed, not buffered: a second of `yes` (hundreds of MB) never sat in memory.
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let peak_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        let cut_kb = g["output_cut"].as_u64().unwrap() / 1024;
        assert!(
            peak_kb < 200 * 1024 || peak_kb < cut_kb / 2,
            "peak memory {peak_kb} kB for {cut_kb} kB of guard output"
        );
    }
}

#[test]
fn verify_ends_at_its_timeout_when_show_hangs() {
    let d = tempfile::tempdir().unwrap();
    let record = d.path().join("gate.json");
    let out = gate_with_guard(d.path(), "true", Some(record.clone()));
    assert_eq!(out.exit.code(), 0, "{}", out.stdout);
    std::fs::write(d.path().join("tfplan"), "binary plan").unwrap();
    let fake = d.path().join("terraform");
    std::fs::write(&fake, "#!/bin/sh\nsleep 60\n").unwrap();
    let mut perm = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&fake, perm).unwrap();
    let t0 = Instant::now();
    let e = run::verify_with_env(
        &VerifyOptions {
            planfile: d.path().join("tfplan"),
            record,
            binary: Some(fake.display().to_string()),
            chdir: Some(d.path().to_path_buf()),
            timeout: Some(Duration::from_secs(1)),
            ..VerifyOptions::default()
        },
        &|_: &str| None,
    )
    .unwrap_err();
    assert!(t0.elapsed() < Duration::from_secs(15), "{:?}", t0.elapsed());
    let msg = e.to_string();
    assert!(msg.contains("timed out after 1 s"), "{msg}");
    assert!(msg.contains("show -json"), "{msg}");
    assert!(msg.contains("--timeout SECONDS"), "{msg}");
}
