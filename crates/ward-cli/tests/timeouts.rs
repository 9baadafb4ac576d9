//! Every external process ward starts has a timeout: `ward check --exec` and `ward verify` with a
//! Terraform that hangs end at their timeout, with a clear error and their documented exit code.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ward_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A "terraform" that never answers.
fn hanging_terraform(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("terraform");
    std::fs::write(&p, "#!/bin/sh\nsleep 120\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn check_exec_ends_at_its_timeout() {
    let d = tempfile::tempdir().unwrap();
    let repo = d.path().join("repo");
    std::fs::create_dir_all(repo.join("modules/a")).unwrap();
    std::fs::write(repo.join("main.tf"), "locals {\n  a = 1\n}\n").unwrap();
    std::fs::write(repo.join("modules/a/main.tf"), "locals {\n  b = 1\n}\n").unwrap();
    let tf = hanging_terraform(d.path());
    let t0 = Instant::now();
    let o = ward_in(
        d.path(),
        &[
            "check",
            repo.to_str().unwrap(),
            "--exec",
            "--binary",
            tf.to_str().unwrap(),
            "--exec-timeout",
            "1",
            "--format",
            "json",
        ],
    );
    // One command timed out and nothing more was started: not 2 × 3 commands × 1 s.
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("fmt -check -list=true -no-color` timed out after 1 s"),
        "{out}"
    );
    assert!(out.contains("--exec-timeout SECONDS"), "{out}");
    assert!(
        out.contains("the remaining --exec checks were not run"),
        "{out}"
    );
    assert_eq!(out.matches("timed out").count(), 1, "{out}");
}

#[test]
fn verify_ends_at_its_timeout() {
    let d = tempfile::tempdir().unwrap();
    let plans = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans");
    let record = d.path().join("gate.json");
    let o = ward_in(
        d.path(),
        &[
            "gate",
            plans.join("tags-only.json").to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
            "--no-record-protection",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    std::fs::write(d.path().join("tfplan"), "binary plan").unwrap();
    let tf = hanging_terraform(d.path());
    let t0 = Instant::now();
    let o = ward_in(
        d.path(),
        &[
            "verify",
            "tfplan",
            "--record",
            record.to_str().unwrap(),
            "--binary",
            tf.to_str().unwrap(),
            "--timeout",
            "1",
        ],
    );
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("show -json"), "{err}");
    assert!(err.contains("timed out after 1 s"), "{err}");
    assert!(err.contains("--timeout SECONDS"), "{err}");
}
