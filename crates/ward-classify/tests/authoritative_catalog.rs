//! Creates that overwrite or modify state outside this root, for the types of the generated
//! catalogs (`packs/*-catalog.hcl`, scripts/gen-packs; docs/authoritative.md): before #31 item 1
//! was done for them, every one of these creates was `free`. `fixtures/authoritative/
//! catalog_creates.json` is a hand-written `show -json` plan creating one object of each type
//! below (19 providers), plus creates whose target is known only after apply (the object is made
//! by the same plan) and a service perimeter in dry-run only. Each case asserts the class, the
//! block (`overwrites` or `modifies`), the rule and the words of the explanation with the
//! planned values of the targets. The curated packs' types are in `authoritative.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{line, verdict};
use std::collections::BTreeSet;
use ward_classify::Assessment;
use ward_model::Impact;

fn assess_fixture() -> Assessment {
    common::assess_fixture("authoritative/catalog_creates.json")
}

/// Which block a type's create answers to.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Block {
    /// Takes over state outside the root: the verdict carries the rule in `overwrites`.
    Overwrites,
    /// Adds to an existing object: costed the same way, but no `overwrites` on the verdict.
    Modifies,
}
use Block::{Modifies, Overwrites};

/// (address, block, class of its create, words of the explanation: what it does and the
/// targets with their planned values).
const CREATES: &[(&str, Block, Impact, &str)] = &[
    ("google_compute_instance_iam_policy.x", Overwrites, Impact::Interrupt, "replaces the whole IAM policy of the compute instance (instance_name = \"web-1\"): every member and role not listed here is removed at once"),
    ("google_kms_key_ring_iam_binding.x", Overwrites, Impact::Interrupt, "sets every member of one role on the kms key ring (key_ring_id = \"prod-1/europe-west1/keys\"): members of that role not listed here lose it"),
    ("google_bigquery_dataset_iam_member.x", Modifies, Impact::InPlace, "adds one grant to the IAM policy of an existing bigquery dataset (dataset_id = \"analytics\")"),
    ("google_storage_bucket_acl.x", Overwrites, Impact::Interrupt, "replaces the whole ACL of the existing bucket (or object) (bucket = \"logs\")"),
    ("google_compute_project_metadata.x", Overwrites, Impact::Interrupt, "replaces all project-wide metadata of the existing project (project = \"prod-1\"): keys not listed here are removed at once, project-wide ssh-keys included"),
    ("google_folder_iam_audit_config.x", Overwrites, Impact::InPlace, "replaces the audit log configuration of one service on the folder (folder = \"folders/4242\")"),
    ("google_project_iam_member_remove.x", Overwrites, Impact::Interrupt, "removes one member from one role on the existing project"),
    ("google_iam_deny_policy.x", Modifies, Impact::Interrupt, "attaches a deny policy to an existing resource (parent = \"cloudresourcemanager.googleapis.com%2Fprojects%2Fprod-1\")"),
    ("google_access_context_manager_service_perimeter.enforced", Modifies, Impact::Interrupt, "puts existing projects inside an enforced service perimeter"),
    ("google_access_context_manager_service_perimeters.x", Overwrites, Impact::Interrupt, "in the access policy (parent = \"accessPolicies/1\"): perimeters or access levels not listed here are deleted at once"),
    ("google_compute_firewall_policy_association.x", Modifies, Impact::Interrupt, "attaches the firewall policy to an existing organization, folder or network (attachment_target = \"folders/4242\")"),
    ("google_api_gateway_api_iam_policy.x", Overwrites, Impact::Interrupt, "replaces the whole IAM policy of the api gateway api (api = \"payments\")"),
    ("oci_core_default_route_table.x", Overwrites, Impact::Interrupt, "adopts the existing default route table or security list of a VCN and removes every rule or route it has, then adds only those listed here (manage_default_resource_id = \"ocid1.routetable.oc1..aaaa\")"),
    ("oci_core_default_dhcp_options.x", Overwrites, Impact::InPlace, "adopts the existing default DHCP options of a VCN and applies these settings to it (manage_default_resource_id = \"ocid1.dhcpoptions.oc1..bbbb\")"),
    ("tfe_team_members.x", Overwrites, Impact::Interrupt, "sets every member of an existing team (one such resource per team) (team_id = \"team-abc123\"): users not listed here are removed from the team at once"),
    ("databricks_permissions.x", Overwrites, Impact::Interrupt, "cluster_id = \"0101-abc\""),
    ("aws_cloudfrontkeyvaluestore_keys_exclusive.x", Overwrites, Impact::DataLoss, "sets every key of the existing CloudFront key value store (key_value_store_arn = \"arn:aws:cloudfront::111122223333:key-value-store/kvs1\"): keys not listed here are deleted"),
    ("aws_backup_vault_policy.x", Overwrites, Impact::Interrupt, "replaces the backup vault policy of an existing object (it has one) (backup_vault_name = \"prod\")"),
    ("aws_network_acl_association.x", Overwrites, Impact::Interrupt, "sets the network ACL of an existing subnet, replacing the one it has (a subnet has exactly one) (subnet_id = \"subnet-0abc\", network_acl_id = \"acl-0def\")"),
    ("aws_ebs_encryption_by_default.x", Overwrites, Impact::InPlace, "replaces a region-wide setting of the account (ebs encryption by default: an account has one in each region)"),
    ("aws_organizations_policy_attachment.x", Modifies, Impact::Interrupt, "attaches an organizations policy to an existing account, organizational unit or root (target_id = \"ou-abcd-12345678\", policy_id = \"p-12345678\")"),
    ("aws_wafv2_web_acl_association.x", Modifies, Impact::InPlace, "attaches a web ACL to an existing load balancer, API stage or user pool"),
    ("aws_redshift_cluster_iam_roles.x", Overwrites, Impact::Interrupt, "sets every IAM role of the existing Redshift cluster (cluster_identifier = \"dw\")"),
    ("azurerm_subnet_nat_gateway_association.x", Overwrites, Impact::Interrupt, "sets the NAT gateway of an existing subnet (a subnet has one)"),
    ("azurerm_storage_management_policy.x", Overwrites, Impact::DataLoss, "replaces the lifecycle management policy of an existing storage account (it has one)"),
    ("azurerm_subscription_policy_assignment.x", Modifies, Impact::Interrupt, "assigns a policy to an existing management group, subscription, resource group or resource (subscription_id = \"/subscriptions/s\")"),
    ("yandex_resourcemanager_folder_iam_binding.x", Overwrites, Impact::Interrupt, "sets every member of one role on the resourcemanager folder (folder_id = \"b1g0000folder\")"),
    ("yandex_vpc_default_security_group.x", Overwrites, Impact::Interrupt, "adopts the existing default security group of a network and removes every rule it has, then adds only those listed here (network_id = \"enp0000network\")"),
    ("hcp_project_iam_policy.x", Overwrites, Impact::Interrupt, "replaces the whole IAM policy of the project (project_id = \"prj-0001\")"),
    ("github_actions_organization_permissions.x", Overwrites, Impact::Interrupt, "replaces the Actions settings of an existing organization, enterprise or repository"),
    ("github_team_sync_group_mapping.x", Overwrites, Impact::Interrupt, "sets the identity-provider groups synced to an existing team (team_slug = \"platform\")"),
    ("kubernetes_secret_v1_data.x", Overwrites, Impact::InPlace, "sets data keys of an existing Secret through server-side apply"),
    ("snowflake_grant_ownership.x", Overwrites, Impact::Interrupt, "transfers the ownership of existing objects to another role (account_role_name = \"ANALYST\""),
    ("cloudflare_bot_management.x", Overwrites, Impact::InPlace, "replaces a setting of an existing zone or account (bot management: it has one) (zone_id = \"023e105f4ecef8ad9ca31a8372d0c353\")"),
    ("okta_policy_password_default.x", Overwrites, Impact::InPlace, "adopts the org's existing default object (policy password default)"),
    ("azuread_group_member.x", Modifies, Impact::InPlace, "adds a member to an existing group (group_object_id = \"00000000-0000-0000-0000-000000000001\")"),
    ("gitlab_project_push_rules.x", Overwrites, Impact::Interrupt, "replaces the push rules of an existing project (it has one set) (project = \"42\")"),
    ("alicloud_oss_bucket_policy.x", Overwrites, Impact::Interrupt, "replaces the policy of an existing bucket (a bucket has one) (bucket = \"assets\")"),
    ("digitalocean_spaces_bucket_policy.x", Overwrites, Impact::Interrupt, "replaces the policy of an existing bucket (a bucket has one) (bucket = \"assets\")"),
    ("gitlab_project_membership.x", Modifies, Impact::InPlace, "adds a member to an existing group, team or project (project membership) (project = \"42\")"),
    ("yandex_resourcemanager_folder_iam_member.x", Modifies, Impact::InPlace, "adds one grant to the IAM policy of an existing resourcemanager folder (folder_id = \"b1g0000folder\")"),
    ("vault_identity_group_member_entity_ids.x", Overwrites, Impact::Interrupt, "sets the member entities (or groups) of an existing identity group (identity group member entity ids) (group_id = \"a1b2\"): with exclusive = true (the default) members not listed here are removed"),
    ("postgresql_default_privileges.x", Overwrites, Impact::InPlace, "replaces the default privileges one owner's new objects give a role in a schema (database = \"app\""),
];

#[test]
fn a_create_of_an_authoritative_catalog_type_costs_its_class_and_says_what_it_overwrites() {
    let a = assess_fixture();
    let providers: BTreeSet<&str> = CREATES
        .iter()
        .map(|(addr, ..)| addr.split('_').next().unwrap())
        .collect();
    assert!(CREATES.len() >= 25 && providers.len() >= 6, "{providers:?}");
    for (addr, block, class, words) in CREATES {
        let t = addr.split('.').next().unwrap();
        let v = verdict(&a, addr);
        assert_eq!(v.impact, *class, "{addr}: {:#?}", v.explanation);
        assert!(v.impact > Impact::Free, "{addr}");
        // The rule that raised the cost is the catalog's entry for the type.
        let rule = v
            .decided_by
            .as_ref()
            .map(|r| r.to_string())
            .unwrap_or_default();
        assert!(
            rule.contains("-catalog@") && rule.ends_with(&format!(":{t}")),
            "{addr}: decided by {rule}"
        );
        let (head, takes_over) = match block {
            Overwrites => (
                "creating it overwrites state that exists outside this root",
                true,
            ),
            Modifies => (
                "creating it changes an object that exists outside this root",
                false,
            ),
        };
        assert_eq!(
            v.overwrites.is_some(),
            takes_over,
            "{addr}: {:?}",
            v.overwrites
        );
        let l = line(v, head).unwrap_or_else(|| panic!("{addr}: {:#?}", v.explanation));
        assert!(
            l.contains(&format!("which costs at least {class}: ")),
            "{addr}: {l}"
        );
        assert!(l.contains(words), "{addr}: {l}");
        assert!(l.ends_with(&format!("(per {rule})")), "{addr}: {l}");
    }
}

/// The object a target names is made by the same plan (every target known only after apply),
/// or the create sets nothing that changes the existing object: nothing existing is touched,
/// so the create is free and says why.
#[test]
fn a_create_that_takes_over_nothing_that_exists_is_free() {
    let a = assess_fixture();
    for (addr, words) in [
        ("google_compute_instance_iam_policy.new_instance", "overwrites nothing that exists yet: `instance_name` is known only after apply, so the object it names is created by this plan"),
        ("oci_core_default_security_list.new_vcn", "overwrites nothing that exists yet: `manage_default_resource_id` is known only after apply"),
        ("azuread_group_member.new_group", "changes nothing that exists yet: `group_object_id` is known only after apply"),
        ("google_access_context_manager_service_perimeter.dry_run", "changes nothing: it sets none of `status`, so the object it changes stays as it is"),
    ] {
        let v = verdict(&a, addr);
        assert_eq!(v.impact, Impact::Free, "{addr}: {:#?}", v.explanation);
        assert!(v.overwrites.is_none(), "{addr}");
        assert!(line(v, words).is_some(), "{addr}: {:#?}", v.explanation);
    }
}

/// A sensitive value of the plan is never printed, whatever the block says.
#[test]
fn the_secret_data_a_takeover_writes_is_not_printed() {
    let a = assess_fixture();
    let v = verdict(&a, "kubernetes_secret_v1_data.x");
    assert!(
        !v.explanation.iter().any(|l| l.contains("hunter2")),
        "{:#?}",
        v.explanation
    );
}
