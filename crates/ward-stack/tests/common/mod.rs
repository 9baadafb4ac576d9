//! Journal records for the tests that read a journal without Terraform.
#![allow(dead_code)] // each test binary uses some of them

use std::path::Path;
use ward_stack::journal::{RunRecord, StepRecord};
use ward_stack::report::{Command, RootOutcome, RootReport};
use ward_stack::Options;

/// A `stack-run` record of `command` over `order`, no process recorded.
pub fn run(id: &str, command: Command, status: &str, exit_code: Option<u8>) -> RunRecord {
    RunRecord {
        run: id.into(),
        command,
        site: None,
        root: None,
        status: status.into(),
        exit_code,
        resumes: None,
        order: vec!["network/dc0".into(), "network/dc1".into()],
        process: None,
    }
}

/// A root instance's report in layer `substrate`, as the journal reads one back (every
/// optional field unset).
pub fn report(root: &str, site: &str, outcome: RootOutcome) -> RootReport {
    serde_json::from_value(serde_json::json!({
        "root": root, "site": site, "layer": "substrate", "level": 0, "path": root,
        "outcome": outcome,
    }))
    .unwrap()
}

/// A `stack-step` record of `run`.
pub fn step(run: &str, root: &str, site: &str, outcome: RootOutcome) -> StepRecord {
    StepRecord {
        run: run.into(),
        report: report(root, site, outcome),
        pending_plan: None,
        context: None,
        every_change: false,
    }
}

/// A stack of two layers: `network` at sites `dc0` and `dc1`, `dns` at none (site `default`),
/// and `app` above, reading both.
pub const HCL: &str = r#"
layer "substrate" {
  level = 0
}
layer "apps" {
  level = 1
}
root "network" {
  path = "network"
  layer = "substrate"
  site "dc0" {}
  site "dc1" {}
}
root "dns" {
  path = "dns"
  layer = "substrate"
}
root "app" {
  path = "app"
  layer = "apps"
  reads = ["network", "dns"]
  site "dc0" {}
  site "dc1" {}
}
"#;

/// Options over [`HCL`] in `dir/repo`, the history `dir/h.sqlite`, no Terraform binary.
pub fn options(dir: &Path) -> Options {
    options_with(dir, HCL)
}

/// Options over `hcl` in `dir/repo`, the history `dir/h.sqlite`, no Terraform binary.
pub fn options_with(dir: &Path, hcl: &str) -> Options {
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let config = ward_config::Config::parse(hcl, "ward.hcl", &repo).unwrap();
    Options {
        config,
        knowledge: ward_rules::Knowledge::default(),
        approver: None,
        repo,
        site: None,
        root: None,
        binaries: vec![],
        db: ward_store::Location::Sqlite(dir.join("h.sqlite")),
        clock: ward_time::Clock::System,
        progress: None,
        env: vec![],
        path: std::env::var_os("PATH"),
    }
}
