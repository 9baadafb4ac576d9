//! WARD-LAYER-002: Provider configured from a resource of the same root.

use super::prelude::*;

/// WARD-LAYER-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Layer002,
    name: "provider-from-own-resource",
    title: "Provider configured from a resource of the same root",
    severity: Severity::Warning,
    category: Category::Layers,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(15),
    doc: "A provider block whose arguments come from a resource managed in the same root (e.g. a Kubernetes provider configured from the cluster it creates, or a provider dialling into a VM created by the same apply) cannot be planned when that resource is replaced or not yet created, and destroy ordering breaks. Split the root: the resource belongs to the layer below, and this layer reads its outputs.",
    fix: "Split the root: the resource moves to the layer below, and this layer reads its outputs.",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-002/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-LAYER-002/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A provider configured from a resource of the same root.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use crate::rules::shared::NON_RESOURCE_ROOTS;
    for m in cx.repo.roots() {
        for p in &m.provider_configs {
            for r in &p.refs {
                let Some((root, name)) = r.split_once('.') else {
                    continue;
                };
                if NON_RESOURCE_ROOTS.contains(&root) {
                    continue;
                }
                if m.resources
                    .iter()
                    .any(|x| x.mode == "managed" && x.type_name == root && x.name == name)
                {
                    cx.out.push(
                        at(
                            RuleId::Layer002,
                            &p.loc,
                            format!(
                                "provider \"{}\"{} is configured from {r}, a resource of the same root \"{}\"",
                                p.name,
                                p.alias.as_ref().map(|a| format!(" (alias {a})")).unwrap_or_default(),
                                m.dir
                            ),
                        )
                        .in_dir(&m.dir),
                    );
                    break;
                }
            }
        }
    }
    Ok(())
}
