//! WARD-IMP-001: ignore_changes without a waiver.

use super::prelude::*;

/// WARD-IMP-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Imp001,
    name: "ignore-changes-unwaived",
    title: "ignore_changes without a waiver",
    severity: Severity::Warning,
    category: Category::Import,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(16),
    doc: "A resource keeps `lifecycle { ignore_changes = [...] }` entries that no `waiver` block of `ward.hcl` names. `ignore_changes` is the usual workaround when an import plans a change the provider cannot read back, and then it hides real drift on that attribute forever. In a root being adopted (one holding `import` blocks, as `ward import plan` writes them, and the local modules it calls) the finding is an error; in another root a warning; in a module or an example outside adoption it is not raised (an `ignore_changes` there is the module's design, for an attribute something else owns: the roots that call it decide; counted under `not_raised`). Entries a provider documents as the way to use a resource are known, each with its source (crates/ward-check/src/waivers.rs): aws_ecs_service `desired_count` and `task_definition`, aws_eks_node_group `scaling_config[0].desired_size`, aws_autoscaling_group `desired_capacity`, `load_balancers`, `target_group_arns`, aws_default_network_acl `subnet_ids`, google_container_cluster `node_pool` and `initial_node_count`, google_container_node_pool `initial_node_count`, google_compute_instance `attached_disk`, aws_route53_zone `vpc`, aws_organizations_account `role_name` and `iam_user_access_to_billing`, azurerm_kubernetes_cluster `default_node_pool[0].node_count`, azurerm_kubernetes_cluster_node_pool `node_count`, azurerm_key_vault_key `expiration_date`, azapi_update_resource `all`: outside roots being adopted they need no waiver (counted under `not_raised`); in a root being adopted they still do. Name every other entry in a `waiver { address, attributes, reason, owner, expires }` (see docs/import.md), or model the attribute and remove the entry.",
    fix: "Model the attribute and remove the `ignore_changes` entry, or name it in a `waiver { address, attributes, reason, owner, expires }` of `ward.hcl` (docs/import.md).",
    waive: "A `waiver` block is this rule's own waiver: it names the entries, the reason, the owner and an expiry.",
    fails: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-IMP-001/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-IMP-001/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// An `ignore_changes` entry no waiver names: an error in a root being adopted, a warning
/// elsewhere; provider-documented entries outside adoption are counted, not raised.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use crate::waivers::{adopted, cover, documented, Cover};
    use ward_repo::ModuleKind;
    let adopting = adopted(cx.repo);
    for m in &cx.repo.modules {
        let being_adopted = adopting.contains(&m.dir);
        for r in m.resources.iter().filter(|r| r.mode == "managed") {
            let address = format!("{}.{}", r.type_name, r.name);
            let mut missing = Vec::new();
            for a in &r.ignore_changes {
                // Waived, or an expired waiver (WARD-IMP-002's).
                if !matches!(cover(cx.config, &address, a, cx.today), Cover::Unwaived) {
                    continue;
                }
                match documented(&r.type_name, a) {
                    Some(_) if !being_adopted => {
                        skip(&mut cx.skipped, 
                            RuleId::Imp001,
                            "ignore_changes entries the provider documents (e.g. an autoscaled count), outside roots being adopted",
                        );
                    }
                    _ => missing.push(a.clone()),
                }
            }
            if missing.is_empty() {
                continue;
            }
            // Outside adoption, a module's (or an example's) ignore_changes is its design: the
            // attribute is owned by something else (an autoscaler, an upgrade channel, another
            // resource), and the roots that call it decide. Only a root's is worth a warning.
            if !being_adopted && m.kind != ModuleKind::Root {
                skip(
                    &mut cx.skipped,
                    RuleId::Imp001,
                    "ignore_changes in modules and examples outside adoption (the module's design; the roots that call it decide)",
                );
                continue;
            }
            let f = Finding::new(
                RuleId::Imp001,
                &r.loc.file,
                r.loc.line,
                if being_adopted {
                    format!(
                        "`{address}` ignores changes to {} without a waiver in ward.hcl, in \"{}\", {}: an ignore_changes added to make the import plan empty hides real drift on those attributes for good",
                        missing.join(", "),
                        m.dir,
                        if m.imports.is_empty() {
                            "a module that a root being adopted calls"
                        } else {
                            "a root being adopted (it holds import blocks)"
                        }
                    )
                } else {
                    format!(
                        "`{address}` ignores changes to {} without a waiver in ward.hcl: drift on {} is never planned; name {} in a waiver (reason, owner, expiry), or model {}",
                        missing.join(", "),
                        if missing.len() == 1 { "it" } else { "them" },
                        if missing.len() == 1 { "it" } else { "them" },
                        if missing.len() == 1 { "it" } else { "them" }
                    )
                },
            )
            .in_dir(&m.dir);
            // Warning by default (the catalog's); an error where the root is being adopted.
            let f = if being_adopted {
                Finding {
                    severity: Severity::Error,
                    ..f
                }
            } else {
                f
            };
            let documented_here: Vec<String> = missing
                .iter()
                .filter_map(|a| documented(&r.type_name, a))
                .map(|d| format!("{} is documented ({}): {}", d.attribute, d.why, d.source))
                .collect();
            cx.out.push(f.with_detail(documented_here));
        }
    }
    Ok(())
}
