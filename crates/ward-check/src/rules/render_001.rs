//! WARD-RENDER-001: Committed files differ from what their generator renders.

use super::prelude::*;

/// WARD-RENDER-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Render001,
    name: "render-differs",
    title: "Committed files differ from what their generator renders",
    severity: Severity::Error,
    category: Category::Render,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(17),
    doc: "A `render \"NAME\"` block of `ward.hcl` names a command that renders files (HCL roots, policies, configuration) and the committed files it must equal. ward runs the command in a scratch copy of the repository (owner-only, removed on every exit; a timeout; bounded output; only PATH, HOME, USER, LOGNAME, SHELL, LANG, LC_*, TMPDIR and TERM of the environment) and compares what it wrote with the committed `compare` path, file by file. A hand edit beside a generator is a second source of truth: a module once carried a hand-written IAM grant next to the generator that renders it, and nothing noticed until the two disagreed in production. The finding carries a unified diff (at most 200 lines; when cut, it says how many lines were left out and how to see all of them) and the command that regenerates the files.",
    fix: "Run the render command and commit what it writes.",
    waive: "",
    fails: &[
        Example {
            path: "generated/policy.json",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-001/fail/generated/policy.json"),
        },
    ],
    passes: &[
        Example {
            path: "generated/policy.json",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-001/pass/generated/policy.json"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Pass("`crate::render::run`: each `render` block run in a scratch copy (twice with `determinism`), one run raising all three rules"),
};
