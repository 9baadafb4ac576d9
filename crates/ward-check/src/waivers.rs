//! WARD-IMP-001 and WARD-IMP-002: every `lifecycle { ignore_changes }` entry is named in a
//! `waiver` of `ward.hcl` (address, attributes, reason, owner, expiry) that has not expired.
//! An `ignore_changes` added to make an import plan empty otherwise hides real drift on that
//! attribute forever (FIELD-NOTES 16, issue 16).
//!
//! The discipline serves adoption: in a root being adopted (one holding `import` blocks, and the
//! local modules it calls) an entry without a waiver is an error; elsewhere it is a warning. An
//! entry a provider documents as the way to use a resource ([`DOCUMENTED_IGNORES`]) needs no
//! waiver: it is not a workaround, and it hides nothing the provider does not mean to hide.

use crate::catalog::Severity;
use crate::finding::Finding;
use crate::rules::Skipped;
use std::collections::BTreeSet;
use ward_repo::{ModuleKind, Repo};
use ward_time::Date;

/// An `ignore_changes` entry a provider (or the tool that manages the attribute) documents as
/// part of using the resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentedIgnore {
    /// The resource type.
    pub resource_type: &'static str,
    /// The entry as written (spaces removed): `node_pool`, `scaling_config[0].desired_size`.
    pub attribute: &'static str,
    /// Why the attribute changes outside Terraform, in words.
    pub why: &'static str,
    /// Where it is documented.
    pub source: &'static str,
}

const AWS_ECS_SERVICE: &str = "terraform-provider-aws website/docs/r/ecs_service.html.markdown, \"Ignoring Changes to Desired Count\"";
const AWS_EKS_NODE_GROUP: &str = "terraform-provider-aws website/docs/r/eks_node_group.html.markdown, \"Ignoring Changes to Desired Size\"";
const AWS_ASG: &str = "HashiCorp tutorial \"Manage AWS Auto Scaling Groups\" (lifecycle ignore_changes on desired_capacity and target_group_arns with scaling policies and attachments); terraform-provider-aws website/docs/r/autoscaling_attachment.html.markdown (ignore_changes = [load_balancers, target_group_arns])";
const AWS_DEFAULT_NACL: &str = "terraform-provider-aws website/docs/r/default_network_acl.html.markdown, \"Managing Subnets In A Default Network ACL\"";
const AWS_ORG_ACCOUNT: &str = "terraform-provider-aws website/docs/r/organizations_account.html.markdown, Import: role_name and iam_user_access_to_billing have no read API; \"use ignore_changes to hide the difference\"";
const GOOGLE_CLUSTER: &str = "terraform-provider-google website/docs/r/container_cluster.html.markdown: `remove_default_node_pool` with `initial_node_count` of at least 1, node pools managed as google_container_node_pool";
const GOOGLE_ATTACHED_DISK: &str = "terraform-provider-google website/docs/r/compute_attached_disk.html.markdown: \"you must use lifecycle.ignore_changes = [\\\"attached_disk\\\"] on the google_compute_instance\"";
const AZURERM_AKS: &str = "terraform-provider-azurerm website/docs/r/kubernetes_cluster.html.markdown and kubernetes_cluster_node_pool.html.markdown, `node_count`: with auto-scaling enabled, use ignore_changes on node_count";
const AZURERM_KV_KEY: &str = "terraform-provider-azurerm website/docs/r/key_vault_key.html.markdown, `rotation_policy`: a rotation (automatic, `expire_after`) gives the key a new expiration date";
const AZAPI_UPDATE: &str = "registry.terraform.io/providers/Azure/azapi/latest/docs/resources/update_resource: it updates properties of a resource another manages, and its read-back is that whole resource (Azure/terraform-azurerm-aks keeps it with ignore_changes = all and replace_triggered_by)";

/// The provider-documented `ignore_changes` entries.
pub const DOCUMENTED_IGNORES: &[DocumentedIgnore] = &[
    DocumentedIgnore {
        resource_type: "aws_ecs_service",
        attribute: "desired_count",
        why: "application auto scaling sets the task count",
        source: AWS_ECS_SERVICE,
    },
    DocumentedIgnore {
        resource_type: "aws_ecs_service",
        attribute: "task_definition",
        why: "the deployment pipeline (CodeDeploy, an EXTERNAL controller) registers the running task definition",
        source: "terraform-provider-aws website/docs/r/ecs_service.html.markdown, `deployment_controller` (CODE_DEPLOY, EXTERNAL); terraform-aws-modules/terraform-aws-ecs docs/README `ignore_task_definition_changes`",
    },
    DocumentedIgnore {
        resource_type: "aws_eks_node_group",
        attribute: "scaling_config[0].desired_size",
        why: "the cluster autoscaler sets the desired size",
        source: AWS_EKS_NODE_GROUP,
    },
    DocumentedIgnore {
        resource_type: "aws_autoscaling_group",
        attribute: "desired_capacity",
        why: "scaling policies set the desired capacity",
        source: AWS_ASG,
    },
    DocumentedIgnore {
        resource_type: "aws_autoscaling_group",
        attribute: "load_balancers",
        why: "aws_autoscaling_attachment manages the attachments",
        source: AWS_ASG,
    },
    DocumentedIgnore {
        resource_type: "aws_autoscaling_group",
        attribute: "target_group_arns",
        why: "aws_autoscaling_attachment manages the attachments",
        source: AWS_ASG,
    },
    DocumentedIgnore {
        resource_type: "aws_default_network_acl",
        attribute: "subnet_ids",
        why: "subnets fall back to the default network ACL when their own association is removed",
        source: AWS_DEFAULT_NACL,
    },
    DocumentedIgnore {
        resource_type: "google_container_cluster",
        attribute: "node_pool",
        why: "node pools managed as google_container_node_pool show up in the cluster's node_pool",
        source: GOOGLE_CLUSTER,
    },
    DocumentedIgnore {
        resource_type: "google_container_cluster",
        attribute: "initial_node_count",
        why: "the default node pool it sizes is removed after creation",
        source: GOOGLE_CLUSTER,
    },
    DocumentedIgnore {
        resource_type: "google_container_node_pool",
        attribute: "initial_node_count",
        why: "resizing the pool (by hand or the autoscaler) changes it, and a change forces a new pool",
        source: "terraform-provider-google website/docs/r/container_node_pool.html.markdown, `initial_node_count`: \"If you do need it, you can use a lifecycle block to ignore subsequent changes to this field\"",
    },
    DocumentedIgnore {
        resource_type: "aws_route53_zone",
        attribute: "vpc",
        why: "aws_route53_zone_association manages further VPC associations",
        source: "terraform-provider-aws website/docs/r/route53_zone.html.markdown: in-line `vpc` with aws_route53_zone_association needs ignore_changes",
    },
    DocumentedIgnore {
        resource_type: "aws_organizations_account",
        attribute: "role_name",
        why: "the Organizations API cannot read it back after the account is created",
        source: AWS_ORG_ACCOUNT,
    },
    DocumentedIgnore {
        resource_type: "aws_organizations_account",
        attribute: "iam_user_access_to_billing",
        why: "the Organizations API cannot read it back after the account is created",
        source: AWS_ORG_ACCOUNT,
    },
    DocumentedIgnore {
        resource_type: "google_compute_instance",
        attribute: "attached_disk",
        why: "google_compute_attached_disk manages the attachments",
        source: GOOGLE_ATTACHED_DISK,
    },
    DocumentedIgnore {
        resource_type: "azurerm_kubernetes_cluster",
        attribute: "default_node_pool[0].node_count",
        why: "the cluster autoscaler sets the node count",
        source: AZURERM_AKS,
    },
    DocumentedIgnore {
        resource_type: "azurerm_kubernetes_cluster_node_pool",
        attribute: "node_count",
        why: "the cluster autoscaler sets the node count",
        source: AZURERM_AKS,
    },
    DocumentedIgnore {
        resource_type: "azurerm_key_vault_key",
        attribute: "expiration_date",
        why: "a rotation policy renews the key's expiration date",
        source: AZURERM_KV_KEY,
    },
    DocumentedIgnore {
        resource_type: "azapi_update_resource",
        attribute: "all",
        why: "it is a one-time update of a resource another manages",
        source: AZAPI_UPDATE,
    },
];

/// The documented entry for `attribute` of `resource_type`, when there is one.
pub fn documented(resource_type: &str, attribute: &str) -> Option<&'static DocumentedIgnore> {
    let a: String = attribute.chars().filter(|c| !c.is_whitespace()).collect();
    DOCUMENTED_IGNORES
        .iter()
        .find(|d| d.resource_type == resource_type && d.attribute == a)
}

/// The directories being adopted: roots holding `import` blocks, and the local modules they
/// call, transitively.
fn adopted(repo: &Repo) -> BTreeSet<String> {
    let mut set: BTreeSet<String> = repo
        .modules
        .iter()
        .filter(|m| !m.imports.is_empty() && m.kind != ModuleKind::Module)
        .map(|m| m.dir.clone())
        .collect();
    loop {
        let more: Vec<String> = repo
            .modules
            .iter()
            .filter(|m| !set.contains(&m.dir) && m.callers.iter().any(|c| set.contains(c)))
            .map(|m| m.dir.clone())
            .collect();
        if more.is_empty() {
            return set;
        }
        set.extend(more);
    }
}

/// Adds the findings of both rules for every resource of every module in `repo`.
pub fn ignore_changes(repo: &Repo, today: Date, out: &mut Vec<Finding>) {
    ignore_changes_in(repo, today, out, &mut Skipped::new())
}

/// Adds the findings of both rules; the provider-documented entries left alone are counted in
/// `skipped`.
pub fn ignore_changes_in(repo: &Repo, today: Date, out: &mut Vec<Finding>, skipped: &mut Skipped) {
    let waivers = repo
        .config
        .as_ref()
        .map(|c| c.waivers.as_slice())
        .unwrap_or_default();
    let config_file = repo
        .config
        .as_ref()
        .map(|c| c.file.as_str())
        .unwrap_or("ward.hcl");
    let adopting = adopted(repo);
    let mut expired_reported: Vec<usize> = Vec::new();
    for m in &repo.modules {
        let being_adopted = adopting.contains(&m.dir);
        for r in m.resources.iter().filter(|r| r.mode == "managed") {
            let address = format!("{}.{}", r.type_name, r.name);
            let mut missing = Vec::new();
            for a in &r.ignore_changes {
                let covering: Vec<&ward_config::Waiver> =
                    waivers.iter().filter(|w| w.covers(&address, a)).collect();
                if covering.iter().any(|w| !w.expired(today)) {
                    continue;
                }
                match covering.first() {
                    Some(w) => {
                        if !expired_reported.contains(&w.line) {
                            expired_reported.push(w.line);
                            out.push(
                                Finding::new(
                                    "WARD-IMP-002",
                                    config_file,
                                    w.line,
                                    format!(
                                        "the waiver for `{address}` ignore_changes [{}] expired on {} (owner {})",
                                        w.attributes.join(", "),
                                        w.expires,
                                        w.owner
                                    ),
                                )
                                .with_detail(vec![
                                    format!("used by {}:{}", r.loc.file, r.loc.line),
                                    format!("reason given: {}", w.reason),
                                ]),
                            );
                        }
                    }
                    None => match documented(&r.type_name, a) {
                        Some(_) if !being_adopted => {
                            *skipped
                                .entry((
                                    "WARD-IMP-001".to_string(),
                                    "ignore_changes entries the provider documents (e.g. an autoscaled count), outside roots being adopted".to_string(),
                                ))
                                .or_default() += 1;
                        }
                        _ => missing.push(a.clone()),
                    },
                }
            }
            if missing.is_empty() {
                continue;
            }
            let f = Finding::new(
                "WARD-IMP-001",
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
            out.push(f.with_detail(documented_here));
        }
    }
}
