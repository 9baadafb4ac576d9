//! `ward gate` and `ward approve` record in the history they are given (`--db`, or
//! `history { url }` in ward.hcl) each decision and each approval (#33 item 8); without one
//! they record nothing and create no history.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use ward_store::{AuditQuery, Location, Store};

fn plan() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/plans/data-loss.json")
        .display()
        .to_string()
}

/// `ward ARGS` in `dir`, with a HOME of its own and no approver in the environment.
fn ward(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir.join("home"))
        .output()
        .unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// Gates data-loss.json, approves each change it waits for, gates again; returns the
/// addresses approved.
fn gate_approve_gate(dir: &Path, extra: &[&str]) -> Vec<String> {
    let p = plan();
    let gate = |more: &[&str]| {
        let mut a = vec!["gate", p.as_str(), "--format", "json"];
        a.extend(extra);
        a.extend(more);
        ward(dir, &a)
    };
    let out = gate(&[]);
    assert_eq!(code(&out), 4, "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let waiting: Vec<String> = report["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["address"].as_str().unwrap().to_string())
        .collect();
    for a in &waiting {
        let mut args = vec![
            "approve",
            p.as_str(),
            "--address",
            a.as_str(),
            "--reason",
            "snapshot taken",
        ];
        args.extend(extra);
        // No approver in the environment: refused, saying what to set.
        let out = ward(dir, &args);
        assert_eq!(code(&out), 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--by NAME") && err.contains("WARD_APPROVER"),
            "{err}"
        );
        args.extend(["--by", "alice"]);
        let out = ward(dir, &args);
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = gate(&[]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    waiting
}

fn setup(history: Option<&Path>) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let body = match history {
        Some(h) => format!("history {{\n  url = \"{}\"\n}}\n", h.display()),
        None => String::new(),
    };
    std::fs::write(t.path().join("ward.hcl"), ward_rig::rules::ward_hcl(&body)).unwrap();
    let dir = t.path().to_path_buf();
    (t, dir)
}

fn check_recorded(db: &Path, waiting: &[String]) {
    let store = Store::open_existing(&Location::Sqlite(db.to_path_buf())).unwrap();
    let approvals = store.approvals(&AuditQuery::default()).unwrap();
    let mut got: Vec<&str> = approvals
        .iter()
        .map(|r| r.approval.address.as_str())
        .collect();
    got.sort();
    let mut want: Vec<&str> = waiting.iter().map(String::as_str).collect();
    want.sort();
    assert_eq!(got, want);
    assert!(approvals.iter().all(|r| r.approval.by == "alice"
        && r.approval.digest.starts_with("sha256:")
        && r.approval.expires_at.is_some()));
    let gates = store.gate_outcomes(&AuditQuery::default()).unwrap();
    let outcomes: Vec<(&str, i64)> = gates
        .iter()
        .map(|g| (g.outcome.outcome.as_str(), g.outcome.exit_code))
        .collect();
    assert_eq!(outcomes, [("pass", 0), ("approval-required", 4)]);
}

#[test]
fn gate_and_approve_record_in_the_history_given_with_db() {
    let (_t, dir) = setup(None);
    let db = dir.join("audit/h.sqlite");
    let waiting = gate_approve_gate(&dir, &["--db", db.to_str().unwrap()]);
    check_recorded(&db, &waiting);
}

#[test]
fn gate_and_approve_record_in_ward_hcls_history() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("team/h.sqlite");
    let (_t, dir) = setup(Some(&db));
    let waiting = gate_approve_gate(&dir, &[]);
    check_recorded(&db, &waiting);
}

#[test]
fn without_a_history_given_nothing_is_recorded_or_created() {
    let (_t, dir) = setup(None);
    gate_approve_gate(&dir, &[]);
    // The default history (under HOME) is read for adoptions, never created.
    assert!(!dir.join("home/.local/state/ward/drift.sqlite").exists());
    assert!(!dir.join("home/.local/state").exists());
}
