//! Journal records for the tests that read a journal without Terraform.
#![allow(dead_code)] // each test binary uses some of them

use ward_stack::journal::{RunRecord, StepRecord};
use ward_stack::report::{Command, RootOutcome, RootReport};

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
