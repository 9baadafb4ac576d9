//! WARD-RENDER-003: Render command failed.

use super::prelude::*;

/// WARD-RENDER-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Render003,
    name: "render-failed",
    title: "Render command failed",
    severity: Severity::Error,
    category: Category::Render,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(5),
    doc: "The command of a `render` block could not be run, failed, timed out (`timeout`, default 300s), or succeeded without writing anything at `output`, so the rendered files could not be compared. A render that cannot run is a gate that checks nothing; the finding says what happened and how to fix it.",
    fix: "Fix the command (or its `timeout`) until it runs and writes at `output`.",
    waive: "",
    fails: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-003/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-003/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Pass("`crate::render::run`: each `render` block run in a scratch copy (twice with `determinism`), one run raising all three rules"),
};
