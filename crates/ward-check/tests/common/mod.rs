//! What the tests share: checking a repository as `ward check` does.

#![allow(dead_code)]

use std::path::Path;
use ward_check::finding::Report;
use ward_check::knowledge::RulesKnowledge;

/// What `ward check` does before checking (ward-cli's `check` command): `ward.hcl` found and
/// loaded, ward's knowledge built, the repository discovered (with `excludes` as `--exclude`),
/// then checked on the fixtures' date.
pub fn run_check(top: &Path, excludes: &[&str]) -> Report {
    let config = ward_config::discover(None, top)
        .unwrap()
        .map(|f| ward_config::Config::load_found(&f).unwrap());
    let knowledge = RulesKnowledge(ward_config::knowledge(config.as_ref()).unwrap());
    let mut exclude: Vec<ward_config::Exclude> = config
        .iter()
        .flat_map(|c| c.check.excludes.iter().cloned())
        .collect();
    for e in excludes {
        exclude.push(ward_config::Exclude {
            pattern: e.trim_start_matches("./").trim_end_matches('/').to_string(),
            reason: "--exclude on the command line".to_string(),
            line: 0,
        });
    }
    let repo =
        ward_repo::discover(top, &ward_config::repo_options(config.as_ref(), exclude)).unwrap();
    ward_check::check(
        &repo,
        ward_check::CheckOptions {
            config: config.as_ref(),
            resolver: None,
            knowledge: &knowledge,
            today: ward_check::scan::parse_date("2026-12-01").unwrap(),
            fail_on: None,
            exec: None,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}
