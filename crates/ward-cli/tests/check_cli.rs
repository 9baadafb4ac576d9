//! `ward check` the command: exit codes (0 pass, 1 failing findings, 2 usage or input error),
//! usage errors written to standard error, an unknown rule in `ward.hcl` named with the closest
//! one, `--list-rules`, and `--exclude` refused outside the repository. (Moved here with the
//! command from ward-check, #34 item 1; the checks' reports are ward-check's tests/cli.rs.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Stdio};

/// ward-check's crate directory: the fixtures' paths below are relative to it.
fn ward_check_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../ward-check"))
}

/// Runs `ward check ARGS` in ward-check's crate directory; returns (code, stdout, stderr).
fn run(args: &[&str]) -> (u8, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ward"))
        .arg("check")
        .args(args)
        .current_dir(ward_check_dir())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(255) as u8,
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const SAMPLE: &str = "tests/fixtures/sample";

#[test]
fn exit_codes() {
    // Clean repository: 0.
    let (code, out, err) = run(&[
        "tests/fixtures/rules/WARD-VER-004/pass",
        "--today",
        "2026-06-01",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    // Warnings fail only with --fail-on warning.
    let (code, _, _) = run(&[
        "tests/fixtures/rules/WARD-MOD-004/fail",
        "--today",
        "2026-06-01",
    ]);
    assert_eq!(code, 0);
    let (code, _, _) = run(&[
        "tests/fixtures/rules/WARD-MOD-004/fail",
        "--today",
        "2026-06-01",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(code, 1);
    // Usage/input errors: 2, with a message.
    let (code, _, err) = run(&["tests/fixtures/does-not-exist"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a readable directory"), "{err}");
    let (code, _, err) = run(&[SAMPLE, "--today", "tomorrow"]);
    assert_eq!(code, 2);
    assert!(err.contains("YYYY-MM-DD"), "{err}");
    // A day that does not exist is not a date.
    let (code, _, err) = run(&[SAMPLE, "--today", "2026-02-31"]);
    assert_eq!(code, 2);
    assert!(err.contains("2026-02-31"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {}\n").unwrap();
    std::fs::write(
        dir.path().join("ward.hcl"),
        "check {\n  fail_on = \"sometimes\"\n}\n",
    )
    .unwrap();
    let (code, _, err) = run(&[dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("ward.hcl:2"), "{err}");
    let (code, _, err) = run(&[
        SAMPLE,
        "--config",
        "tests/fixtures/rules/WARD-VER-002/fail/ward.hcl",
        "--today",
        "2026-06-01",
    ]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn unknown_rule_in_config_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {}\n").unwrap();
    std::fs::write(
        dir.path().join("ward.hcl"),
        "check {\n  rule \"WARD-NOPE-001\" {\n    enabled = false\n  }\n}\n",
    )
    .unwrap();
    let (code, _, err) = run(&[dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("WARD-NOPE-001"), "{err}");
}

#[test]
fn list_rules() {
    let (code, out, _) = run(&["--list-rules"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), ward_check::catalog::RULES.len());
}

#[test]
fn an_unknown_rule_in_ward_hcl_names_the_closest() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {}\n").unwrap();
    std::fs::write(
        dir.path().join("ward.hcl"),
        "check {\n  rule \"WARD-MOD-05\" {\n    enabled = false\n  }\n}\n",
    )
    .unwrap();
    let (code, _, err) = run(&[dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ward.hcl:2"), "{err}");
    assert!(err.contains("did you mean WARD-MOD-005?"), "{err}");
}

#[test]
fn exclude_outside_the_repository_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&[tmp.path().to_str().unwrap(), "--exclude", "../elsewhere"]);
    assert_eq!(code, 2);
    assert!(err.contains("--exclude ../elsewhere"), "{err}");
}
