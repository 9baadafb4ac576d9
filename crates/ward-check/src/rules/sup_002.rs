//! WARD-SUP-002: Suppression expired.

use super::prelude::*;

/// WARD-SUP-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Sup002,
    name: "suppression-expired",
    title: "Suppression expired",
    severity: Severity::Error,
    category: Category::Suppressions,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(8),
    doc: "A `ward:ignore` comment's `until=YYYY-MM-DD` date has passed (dates are UTC). An exception that was meant to be temporary is no longer applied: fix the finding or renew the suppression with a new reason.",
    fix: "Fix the finding, or renew the suppression with a new `until` and reason.",
    waive: "It cannot be suppressed: it is about a suppression.",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-SUP-002/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-SUP-002/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Keep, "about ward's own suppression comments"),
    check: Check::Pass("the suppression pass of `check()` (lib.rs), after every other rule: it judges the comments against their findings"),
};
