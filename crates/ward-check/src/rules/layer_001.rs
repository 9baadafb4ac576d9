//! WARD-LAYER-001: Remote state read from the same or a higher layer.

use super::prelude::*;

/// WARD-LAYER-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Layer001,
    name: "remote-state-upward",
    title: "Remote state read from the same or a higher layer",
    severity: Severity::Error,
    category: Category::Layers,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(15),
    doc: "Layers are declared in `ward.hcl` (`layer \"name\" { level = N }` and `root { layer = ... }`). A root may read the outputs of roots in lower layers only: reading a root of the same or a higher layer through `terraform_remote_state` couples the two invisibly, breaks the apply order (forward) and the destroy order (reverse), and lets a change in an upper layer break the one below.",
    fix: "Read only roots of lower layers: move the output to the layer below, or re-declare the layers.",
    waive: "",
    fails: &[
        Example {
            path: "apps/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-001/fail/apps/main.tf"),
        },
        Example {
            path: "base/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-001/fail/base/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "apps/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-001/pass/apps/main.tf"),
        },
        Example {
            path: "base/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-001/pass/base/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A root reading a root of the same or a higher layer.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for r in crate::rules::shared::layer_reads(cx.repo, cx.config) {
        if r.theirs.level < r.mine.level {
            continue;
        }
        cx.out.push(
            at(
                RuleId::Layer001,
                r.loc,
                format!(
                    "{who} \"{}\" (layer {}, level {}) reads {what} of \"{}\" (layer {}, level {}){}; a {who} may read only lower layers",
                    r.dir, r.mine.name, r.mine.level, r.target, r.theirs.name, r.theirs.level, r.via,
                    who = r.who,
                    what = r.what,
                ),
            )
            .in_dir(r.dir),
        );
    }
    Ok(())
}
