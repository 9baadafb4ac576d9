//! The checks end to end: every output format over a sample repository (snapshots), run as
//! `ward check` runs them (the command itself, its flags and exit codes, is tested in ward-cli's
//! tests/check_cli.rs).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use ward_check::catalog::Severity;
use ward_check::knowledge::RulesKnowledge;
use ward_check::output::Output;
use ward_report::check::render;
use ward_report::Format;

/// Runs the checks as `ward check` runs them with `args` (PATH, `--today`, `--format`,
/// `--verbose`, `--config`, `--fail-on`; the flags themselves are ward-cli's, tested in its
/// tests/check_cli.rs), renders through `ward_report::check`; returns (code, stdout, stderr).
fn run(args: &[&str]) -> (u8, String, String) {
    let (mut path, mut today, mut format, mut verbose, mut config, mut fail_on) =
        (".", None, Format::Terminal, false, None, None);
    let mut it = args.iter().copied();
    while let Some(a) = it.next() {
        match a {
            "--today" => today = it.next(),
            "--format" => {
                format = match it.next().unwrap() {
                    "json" => Format::Json,
                    "sarif" => Format::Sarif,
                    "junit" => Format::Junit,
                    _ => Format::Terminal,
                }
            }
            "--verbose" => verbose = true,
            "--config" => config = it.next(),
            "--fail-on" => fail_on = it.next().map(|s| s.parse::<Severity>().unwrap()),
            p => path = p,
        }
    }
    let top = Path::new(path);
    let config = ward_config::discover(config.map(Path::new), top)
        .unwrap()
        .map(|f| ward_config::Config::load_found(&f).unwrap());
    let knowledge = RulesKnowledge(ward_config::knowledge(config.as_ref()).unwrap());
    let exclude = config
        .iter()
        .flat_map(|c| c.check.excludes.iter().cloned())
        .collect();
    let repo =
        ward_repo::discover(top, &ward_config::repo_options(config.as_ref(), exclude)).unwrap();
    let opts = ward_check::CheckOptions {
        config: config.as_ref(),
        resolver: None,
        knowledge: &knowledge,
        today: ward_check::scan::parse_date(today.unwrap_or("2026-06-01")).unwrap(),
        fail_on,
        exec: None,
    };
    match ward_check::check(&repo, opts) {
        Ok(r) => {
            let out = Output::Report(Box::new(r));
            (
                out.exit().code(),
                render(&out, format, verbose).unwrap(),
                String::new(),
            )
        }
        Err(e) => (2, String::new(), format!("error: {e}\n")),
    }
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

// The exit codes, usage errors, an unknown rule in ward.hcl and --list-rules are the command's:
// ward-cli's tests/check_cli.rs.

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
