//! Rule-specific settings in `check { rule "ID" { } }` are validated against the catalog: a
//! setting given to a rule that does not take it is an error naming the place and the rule that
//! does.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_check::knowledge::NoKnowledge;
use ward_check::{check, CheckOptions};

fn run(hcl: &str) -> Result<ward_check::finding::Report, ward_check::CheckError> {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("ward.hcl"), hcl).unwrap();
    std::fs::write(tmp.path().join("main.tf"), "terraform {}\n").unwrap();
    let config = ward_config::discover(None, tmp.path())
        .unwrap()
        .map(|f| ward_config::Config::load_found(&f).unwrap());
    let repo = ward_repo::discover(
        tmp.path(),
        &ward_config::repo_options(config.as_ref(), Vec::new()),
    )
    .unwrap();
    check(
        &repo,
        CheckOptions {
            config: config.as_ref(),
            resolver: None,
            knowledge: &NoKnowledge,
            today: ward_check::scan::parse_date("2026-06-01").unwrap(),
            fail_on: None,
            exec: None,
        },
    )
}

#[test]
fn a_setting_of_another_rule_is_refused() {
    let e = run("check {\n  rule \"WARD-MOD-001\" {\n    max_timeout = 30\n  }\n}\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "ward.hcl:3: check { rule \"WARD-MOD-001\" } takes no `max_timeout`; `max_timeout` is a setting of WARD-ANS-003; WARD-MOD-001 takes only `severity` and `enabled`"
    );
    let e =
        run("check {\n  rule \"WARD-ANS-003\" {\n    guard_roles = [\"x\"]\n  }\n}\n").unwrap_err();
    assert!(
        e.to_string().contains("`guard_roles` is a setting of WARD-ANS-004; WARD-ANS-003 takes `severity`, `enabled`, `max_timeout`, `min_retries`, `min_delay`"),
        "{e}"
    );
    assert!(run("check {\n  rule \"WARD-ANS-003\" {\n    max_timeout = 30\n  }\n}\n").is_ok());
}
