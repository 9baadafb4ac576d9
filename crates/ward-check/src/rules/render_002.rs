//! WARD-RENDER-002: Two renders of the same tree differ.

use super::prelude::*;

/// WARD-RENDER-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Render002,
    name: "render-nondeterministic",
    title: "Two renders of the same tree differ",
    severity: Severity::Error,
    category: Category::Render,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(17),
    doc: "`render \"NAME\" { determinism = true }` renders twice, each time in a fresh copy, and the two must be byte-identical: when a render draws on randomness, the clock or unordered maps, every revision shows a diff and a real change hides among the noise. The finding names the first file and byte (with line and column for text) where the renders differ. Pin the seed, the timestamp or the order.",
    fix: "Make the render deterministic: pin its randomness, clock and map order.",
    waive: "",
    fails: &[
        Example {
            path: "generated/settings.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-002/fail/generated/settings.hcl"),
        },
        Example {
            path: "render.sh",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-002/fail/render.sh"),
        },
    ],
    passes: &[
        Example {
            path: "generated/settings.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-002/pass/generated/settings.hcl"),
        },
        Example {
            path: "render.sh",
            text: include_str!("../../tests/fixtures/rules/WARD-RENDER-002/pass/render.sh"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Pass("`crate::render::run`: each `render` block run in a scratch copy (twice with `determinism`), one run raising all three rules"),
};
