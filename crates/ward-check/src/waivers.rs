//! What WARD-IMP-001 and WARD-IMP-002 (`rules/imp_001.rs`, `rules/imp_002.rs`) share: every
//! `lifecycle { ignore_changes }` entry is named in a `waiver` of `ward.hcl` (address,
//! attributes, reason, owner, expiry) that has not expired.
//! An `ignore_changes` added to make an import plan empty otherwise hides real drift on that
//! attribute forever (FIELD-NOTES 16, issue 16).
//!
//! The discipline serves adoption: in a root being adopted (one holding `import` blocks, and the
//! local modules it calls) an entry without a waiver is an error; elsewhere it is a warning. An
//! entry a provider documents as the way to use a resource ([`DOCUMENTED_IGNORES`]) needs no
//! waiver: it is not a workaround, and it hides nothing the provider does not mean to hide.

use std::collections::BTreeSet;
use ward_repo::{ModuleKind, Repo};

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
pub fn adopted(repo: &Repo) -> BTreeSet<String> {
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

/// How the `waiver` blocks of `ward.hcl` cover one `ignore_changes` entry.
pub enum Cover<'w> {
    /// A waiver names it and has not expired.
    Waived,
    /// Waivers name it, all expired: the first.
    Expired(&'w ward_config::Waiver),
    /// No waiver names it.
    Unwaived,
}

/// How the waivers cover the `ignore_changes` entry `attribute` of the resource at `address`
/// (`TYPE.NAME`) on `today`.
pub fn cover<'r>(
    config: Option<&'r ward_config::Config>,
    address: &str,
    attribute: &str,
    today: ward_time::Date,
) -> Cover<'r> {
    let waivers = config.map(|c| c.waivers.as_slice()).unwrap_or_default();
    let mut covering = waivers
        .iter()
        .filter(|w| w.covers(address, attribute))
        .peekable();
    let Some(first) = covering.peek().copied() else {
        return Cover::Unwaived;
    };
    if covering.any(|w| !w.expired(today)) {
        Cover::Waived
    } else {
        Cover::Expired(first)
    }
}
