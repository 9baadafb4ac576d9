//! `ward stack`'s refusals, each with its fixture: they fail before any Terraform runs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

const LAYERS: &str = "layer \"substrate\" {\n  level = 0\n}\nlayer \"nodes\" {\n  level = 1\n}\nlayer \"resources\" {\n  level = 2\n}\n";

/// A checkout (`.git`) holding `ward.hcl` = the layers, then `body`.
fn repo(body: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path().join("repo");
    std::fs::create_dir_all(r.join(".git")).unwrap();
    for d in ["net", "inst", "vol"] {
        std::fs::create_dir_all(r.join(d)).unwrap();
        std::fs::write(r.join(d).join("main.tf"), "terraform {}\n").unwrap();
    }
    std::fs::write(r.join("ward.hcl"), format!("{LAYERS}{body}")).unwrap();
    t
}

fn ward(t: &Path, args: &[&str]) -> Output {
    let cfg = t.join("repo/ward.hcl");
    let db = t.join("history.sqlite");
    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    a.extend([
        "--config".into(),
        cfg.display().to_string(),
        "--db".into(),
        db.display().to_string(),
    ]);
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(&a)
        .env("PATH", "/nonexistent")
        .output()
        .unwrap()
}

fn refused(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(what), "expected {what:?} in:\n{err}");
}

const ROOTS: &str = "root \"network\" {\n  path = \"net\"\n  layer = \"substrate\"\n  site \"dc0\" {}\n}\nroot \"instances\" {\n  path = \"inst\"\n  layer = \"nodes\"\n  reads = [\"network\"]\n  site \"dc0\" {}\n}\n";

#[test]
fn backup_dir_inside_the_checkout_is_refused() {
    let t = repo(&format!(
        "stack {{\n  backup_dir = \"backups\"\n}}\n{ROOTS}"
    ));
    refused(&ward(t.path(), &["stack", "apply"]), "inside the checkout");
    refused(
        &ward(t.path(), &["stack", "teardown"]),
        "inside the checkout",
    );
    // Outside it, the same stack gets past that check (and fails later, on no terraform).
    let t = repo(&format!(
        "stack {{\n  backup_dir = \"../backups\"\n}}\n{ROOTS}"
    ));
    let out = ward(t.path(), &["stack", "apply"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("inside the checkout"));
    // Unset: refused too, for apply and teardown.
    let t = repo(ROOTS);
    refused(
        &ward(t.path(), &["stack", "teardown"]),
        "backup_dir = ... }` is not set",
    );
}

#[test]
fn a_root_reading_upward_is_refused() {
    let t = repo("root \"network\" {\n  path = \"net\"\n  layer = \"substrate\"\n  reads = [\"instances\"]\n}\nroot \"instances\" {\n  path = \"inst\"\n  layer = \"nodes\"\n}\n");
    refused(
        &ward(t.path(), &["stack", "plan"]),
        "never its own or a higher one",
    );
}

#[test]
fn a_read_across_a_skipped_layer_is_refused() {
    let t = repo("root \"network\" {\n  path = \"net\"\n  layer = \"substrate\"\n}\nroot \"volumes\" {\n  path = \"vol\"\n  layer = \"resources\"\n  reads = [\"network\"]\n}\n");
    refused(
        &ward(t.path(), &["stack", "plan"]),
        "skipping the layers between",
    );
}

#[test]
fn an_unknown_site_is_refused() {
    let t = repo(&format!(
        "stack {{\n  backup_dir = \"../backups\"\n}}\n{ROOTS}"
    ));
    let out = ward(t.path(), &["stack", "plan", "--site", "dc1"]);
    refused(&out, "unknown site \"dc1\"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean \"dc0\""));
    refused(
        &ward(t.path(), &["stack", "apply", "--site", "dcx"]),
        "unknown site",
    );
}

#[test]
fn nothing_to_resume_or_approve() {
    let t = repo(&format!(
        "stack {{\n  backup_dir = \"../backups\"\n}}\n{ROOTS}"
    ));
    refused(&ward(t.path(), &["stack", "resume"]), "nothing to resume");
    refused(
        &ward(t.path(), &["stack", "status"]),
        "no ward stack run recorded",
    );
    refused(
        &ward(
            t.path(),
            &[
                "stack",
                "approve",
                "--root",
                "network",
                "--address",
                "x.y",
                "--reason",
                "r",
            ],
        ),
        "waits for no approval",
    );
    refused(
        &ward(
            t.path(),
            &[
                "stack",
                "approve",
                "--root",
                "netwrk",
                "--address",
                "x.y",
                "--reason",
                "r",
            ],
        ),
        "no root of the stack has that name",
    );
    // --all approves a teardown's destroys: with nothing waiting, it says so; beside --address,
    // or with neither, the command line is refused.
    let approve = |extra: &[&str]| {
        let mut a = vec!["stack", "approve", "--root", "network", "--reason", "r"];
        a.extend(extra);
        ward(t.path(), &a)
    };
    refused(&approve(&["--all"]), "waits for no approval");
    refused(
        &approve(&["--all", "--address", "x.y"]),
        "cannot be used with",
    );
    refused(&approve(&[]), "--address");
}

/// `--db` takes a PostgreSQL URL as every command does (it used to be taken as a file path:
/// directories named after the URL were created and the stack kept a history of its own).
#[test]
fn the_history_may_be_postgresql() {
    let Some(url) = std::env::var("WARD_TEST_PG").ok().filter(|v| !v.is_empty()) else {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "WARD_TEST_PG is not set under CI=true: scripts/test sets it"
        );
        eprintln!("skipped: WARD_TEST_PG is not set (scripts/test sets it)");
        return;
    };
    let t = repo(&format!(
        "stack {{\n  backup_dir = \"../backups\"\n}}\n{ROOTS}"
    ));
    let out = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args([
            "stack", "approve", "--root", "network", "--all", "--reason", "r",
        ])
        .args([
            "--config",
            &t.path().join("repo/ward.hcl").display().to_string(),
        ])
        .args(["--db", &url])
        .current_dir(t.path())
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    refused(&out, "network/dc0 waits for no approval");
    let entries: Vec<_> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, ["repo"], "nothing beside the checkout");
}

#[test]
fn help_lists_the_stack_exit_codes() {
    let out = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(["stack", "--help"])
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(
        s.contains("9 ") && s.contains("10 ") && s.contains("4 "),
        "{s}"
    );
}
