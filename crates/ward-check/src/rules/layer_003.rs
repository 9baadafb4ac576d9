//! WARD-LAYER-003: Remote state read across a skipped layer.

use super::prelude::*;

/// WARD-LAYER-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Layer003,
    name: "remote-state-skips-layer",
    title: "Remote state read across a skipped layer",
    severity: Severity::Warning,
    category: Category::Layers,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(15),
    doc: "A root reads, through `terraform_remote_state`, the state of a root two or more layers below its own. Each layer should read only the layer directly below and re-export what the upper layers need: a read that skips layers ties the top of the stack to the internals of the bottom, so a change there breaks roots nobody thought to re-plan.",
    fix: "Read the layer directly below, which re-exports what the upper layers need.",
    waive: "",
    fails: &[
        Example {
            path: "apps/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-003/fail/apps/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "apps/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-003/pass/apps/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A root reading a root two or more layers below.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for r in crate::rules::shared::layer_reads(cx.repo, cx.config) {
        if r.mine.level - r.theirs.level <= 1 {
            continue;
        }
        cx.out.push(
            at(
                RuleId::Layer003,
                r.loc,
                format!(
                    "{} \"{}\" (layer {}, level {}) reads {} of \"{}\" (layer {}, level {}){}, skipping the layers between; read only the layer directly below",
                    r.who, r.dir, r.mine.name, r.mine.level, r.what, r.target, r.theirs.name, r.theirs.level, r.via_skip
                ),
            )
            .in_dir(r.dir),
        );
    }
    Ok(())
}
