//! File safety of the real binary: atomic writes that never follow a symlink, and parallel
//! `ward approve` runs that all keep their approval.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

/// A plan deleting `n` volumes `fakecloud_volume.v<i>` (data loss: each needs approval).
fn plan_deleting(n: usize) -> String {
    let changes: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "address": format!("fakecloud_volume.v{i}"),
                "mode": "managed",
                "type": "fakecloud_volume",
                "name": format!("v{i}"),
                "provider_name": "registry.terraform.io/ward/fakecloud",
                "change": {
                    "actions": ["delete"],
                    "before": {"id": format!("vol-{i}"), "size_gb": 10},
                    "after": null,
                    "after_unknown": {},
                    "before_sensitive": {},
                    "after_sensitive": false
                }
            })
        })
        .collect();
    serde_json::json!({
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "resource_changes": changes
    })
    .to_string()
}

fn ward_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .env_remove("WARD_APPROVAL_KEY")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn setup(n: usize) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join(".git")).unwrap();
    std::fs::write(d.path().join("ward.hcl"), ward_rig::rules::ward_hcl("")).unwrap();
    std::fs::write(d.path().join("plan.json"), plan_deleting(n)).unwrap();
    d
}

fn approve(dir: &Path, address: &str) -> Output {
    ward_in(
        dir,
        &[
            "approve",
            "plan.json",
            "--address",
            address,
            "--reason",
            "scratch",
            "--by",
            "alice",
        ],
    )
}

#[test]
fn a_planted_temporary_symlink_is_never_written_through() {
    let d = setup(1);
    let victim = d.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::create_dir(d.path().join(".ward")).unwrap();
    std::os::unix::fs::symlink(&victim, d.path().join(".ward/approvals.json.tmp")).unwrap();
    let o = approve(d.path(), "fakecloud_volume.v0");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let text = std::fs::read_to_string(d.path().join(".ward/approvals.json")).unwrap();
    assert!(text.contains("fakecloud_volume.v0"));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(d.path().join(".ward/approvals.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn a_symlinked_approvals_file_or_record_is_refused() {
    let d = setup(1);
    let victim = d.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::create_dir(d.path().join(".ward")).unwrap();
    std::os::unix::fs::symlink(&victim, d.path().join(".ward/approvals.json")).unwrap();
    let o = approve(d.path(), "fakecloud_volume.v0");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    std::fs::remove_file(d.path().join(".ward/approvals.json")).unwrap();
    std::os::unix::fs::symlink(&victim, d.path().join("record.json")).unwrap();
    let o = ward_in(d.path(), &["gate", "plan.json", "--record", "record.json"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("symbolic link"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

#[test]
fn a_report_output_symlink_is_refused() {
    let d = setup(1);
    let victim = d.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, d.path().join("out.txt")).unwrap();
    let o = ward_in(d.path(), &["plan", "plan.json", "--output", "out.txt"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

#[test]
fn fifty_parallel_approvals_are_all_kept() {
    let n = 50;
    let d = setup(n);
    let children: Vec<_> = (0..n)
        .map(|i| {
            Command::new(env!("CARGO_BIN_EXE_ward"))
                .args([
                    "approve",
                    "plan.json",
                    "--address",
                    &format!("fakecloud_volume.v{i}"),
                    "--reason",
                    "scratch",
                    "--by",
                    "alice",
                ])
                .current_dir(d.path())
                .env_remove("WARD_APPROVAL_KEY")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let text = std::fs::read_to_string(d.path().join(".ward/approvals.json")).unwrap();
    let f: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut got: Vec<String> = f["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["address"].as_str().unwrap().to_string())
        .collect();
    got.sort();
    let mut want: Vec<String> = (0..n).map(|i| format!("fakecloud_volume.v{i}")).collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn approvals_expire_by_default_and_the_policy_sets_how_long() {
    let read = |d: &Path| -> serde_json::Value {
        let text = std::fs::read_to_string(d.join(".ward/approvals.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let d = setup(1);
    let o = approve(d.path(), "fakecloud_volume.v0");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a = &read(d.path())["approvals"][0];
    let at = ward_time::parse_timestamp(a["approved_at"].as_str().unwrap()).unwrap();
    let until = ward_time::parse_timestamp(a["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(until.duration_since(at).as_secs(), 7 * 86_400);

    let d = setup(1);
    std::fs::write(
        d.path().join("ward.hcl"),
        ward_rig::rules::ward_hcl("policy {\n  approval_expiry = \"never\"\n}\n"),
    )
    .unwrap();
    let o = approve(d.path(), "fakecloud_volume.v0");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(read(d.path())["approvals"][0].get("expires_at").is_none());

    std::fs::write(
        d.path().join("ward.hcl"),
        ward_rig::rules::ward_hcl("policy {\n  approval_expiry = \"soon\"\n}\n"),
    )
    .unwrap();
    let o = approve(d.path(), "fakecloud_volume.v0");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("approval_expiry"));
}

/// `WARD_NOW` in the real binary's environment moves no clock: an expired approval stays
/// expired (the review revived one by setting it to a time before the expiry).
#[test]
fn ward_now_in_the_environment_revives_no_approval() {
    let d = setup(1);
    let o = approve(d.path(), "fakecloud_volume.v0");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = d.path().join(".ward/approvals.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v["approvals"][0]["approved_at"] = "2020-01-01T00:00:00Z".into();
    v["approvals"][0]["expires_at"] = "2020-01-08T00:00:00Z".into();
    std::fs::write(&file, v.to_string()).unwrap();
    let gate = |now: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ward"));
        c.args(["gate", "plan.json"])
            .current_dir(d.path())
            .env_remove("WARD_APPROVAL_KEY")
            .env_remove("WARD_NOW")
            .env("NO_COLOR", "1");
        if let Some(now) = now {
            c.env("WARD_NOW", now);
        }
        c.output().unwrap()
    };
    for now in [None, Some("2020-01-02T00:00:00Z")] {
        let o = gate(now);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(4), "{now:?}: {out}");
        assert!(out.contains("expired"), "{now:?}: {out}");
    }
}
