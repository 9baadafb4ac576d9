//! The command end to end: every output format over a sample repository (snapshots), and the
//! exit codes (0 pass, 1 failing findings, 2 usage/input error).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use clap::Parser;
use ward_check::cli::{execute, CheckArgs};
use ward_report::check::render;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: CheckArgs,
}

/// Runs with arguments (relative to the crate directory); returns (code, stdout, stderr).
fn run(args: &[&str]) -> (u8, String, String) {
    let cli =
        Cli::try_parse_from(std::iter::once("ward-check").chain(args.iter().copied())).unwrap();
    // What ward-cli wires: run, then render through ward_report::check.
    let mut err = Vec::new();
    let (code, out) = match execute(&cli.args, &mut err) {
        Ok(out) => (
            out.exit().code(),
            render(&out, cli.args.format, cli.args.verbose),
        ),
        Err(exit) => (exit.code(), String::new()),
    };
    (code, out, String::from_utf8(err).unwrap())
}

const SAMPLE: &str = "tests/fixtures/sample";

#[test]
fn terminal_report() {
    let (code, out, err) = run(&[SAMPLE, "--today", "2026-06-01", "--verbose"]);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("terminal", out);
}

#[test]
fn json_report() {
    let (code, out, _) = run(&[SAMPLE, "--today", "2026-06-01", "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["suppressed"], 1);
    assert_eq!(v["summary"]["directories"], 3);
    insta::assert_snapshot!("json", out);
}

#[test]
fn sarif_report() {
    let (code, out, _) = run(&[SAMPLE, "--today", "2026-06-01", "--format", "sarif"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["suppressions"].is_array()));
    insta::assert_snapshot!("sarif", out);
}

#[test]
fn junit_report() {
    let (code, out, _) = run(&[SAMPLE, "--today", "2026-06-01", "--format", "junit"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("<skipped message=\"suppressed: upstream publishes no tags yet (OPS-42)\"/>")
    );
    insta::assert_snapshot!("junit", out);
}

#[test]
fn same_input_same_bytes() {
    let a = run(&[SAMPLE, "--today", "2026-06-01", "--format", "json"]).1;
    let b = run(&[SAMPLE, "--today", "2026-06-01", "--format", "json"]).1;
    assert_eq!(a, b);
}

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
fn user_rules_in_ward_hcl_decide_what_holds_data() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, c: &str| {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, c).unwrap();
    };
    w(
        "main.tf",
        "module \"ledger\" {\n  source = \"./modules/store\"\n}\n\nresource \"acme_store\" \"cache\" {}\n",
    );
    w(
        "modules/store/main.tf",
        "resource \"acme_store\" \"this\" {}\n",
    );
    w(
        "ward.hcl",
        "resource \"acme_store\" {\n  address    = \"module.ledger.*\"\n  holds_data = true\n}\n",
    );
    let (_, out, err) = run(&[dir.path().to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let data: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "WARD-DATA-001")
        .map(|f| format!("{}:{}", f["file"].as_str().unwrap(), f["line"]))
        .collect();
    assert_eq!(data, ["modules/store/main.tf:1"]);
}

/// A directory name that tries everything on a terminal: newlines, a cursor-up/erase sequence
/// printing a fake result, a right-to-left override, a line separator, and Markdown syntax.
#[cfg(unix)]
const HOSTILE: &str =
    "x`` | <b>y</b> <!-- \n# heading\n\u{1b}[1A\u{1b}[2K0 error(s), passed\u{202e}\u{2028}z";

/// The terminal report of a repository whose root directory is called `name`, holding an
/// unpinned module source (a finding that names the directory).
#[cfg(unix)]
fn check_dir_named(name: &str) -> (u8, String) {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path().join("live").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        "module \"dns\" {\n  source = \"git::https://example.com/acme/dns.git?ref=main\"\n}\n\nterraform {\n  backend \"s3\" {}\n}\n",
    )
    .unwrap();
    let (code, out, err) = run(&[
        repo.path().to_str().unwrap(),
        "--today",
        "2026-06-01",
        "--verbose",
    ]);
    assert!(err.is_empty(), "{err}");
    (code, out.replace(repo.path().to_str().unwrap(), "REPO"))
}

/// `ward check`: a hostile directory name is shown escaped; the report keeps its lines.
#[cfg(unix)]
#[test]
fn terminal_report_escapes_a_hostile_directory_name() {
    let (code, bad) = check_dir_named(HOSTILE);
    let (_, good) = check_dir_named("x");
    assert_eq!(code, 1, "{bad}");
    assert!(bad.contains("\\u{1b}[1A"), "{bad}");
    assert!(
        !bad.chars()
            .any(|c| ward_report::escape::is_unsafe(c) && c != '\n'),
        "{bad}"
    );
    assert_eq!(bad.lines().count(), good.lines().count(), "{bad}");
}
