//! WARD-SUP-001: Suppression without a reason.

use super::prelude::*;

/// WARD-SUP-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Sup001,
    name: "suppression-without-reason",
    title: "Suppression without a reason",
    severity: Severity::Error,
    category: Category::Suppressions,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(8),
    doc: "A `ward:ignore` comment must say why (`reason=\"...\"`). A suppression without a reason cannot be reviewed or retired; it is not applied, and the finding it meant to hide is reported too.",
    fix: "Give the comment a `reason=\"...\"` and known rule IDs.",
    waive: "It cannot be suppressed: it is about a suppression.",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-SUP-001/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-SUP-001/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Keep, "about ward's own suppression comments"),
    check: Check::Pass("the suppression pass of `check()` (lib.rs), after every other rule: it judges the comments against their findings"),
};
