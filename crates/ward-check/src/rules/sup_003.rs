//! WARD-SUP-003: Suppression matches no finding.

use super::prelude::*;

/// WARD-SUP-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Sup003,
    name: "suppression-unused",
    title: "Suppression matches no finding",
    severity: Severity::Info,
    category: Category::Suppressions,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(8),
    doc: "A `ward:ignore` comment hides nothing: the finding was fixed, or the comment drifted away from the line it meant. A stale suppression hides the next real finding at that place; remove it.",
    fix: "Remove the comment.",
    waive: "It cannot be suppressed: it is about a suppression.",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-SUP-003/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-SUP-003/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Keep, "about ward's own suppression comments"),
    check: Check::Pass("the suppression pass of `check()` (lib.rs), after every other rule: it judges the comments against their findings"),
};
