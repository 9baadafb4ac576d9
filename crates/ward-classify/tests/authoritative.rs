//! Authoritative and adopting types (`overwrites` in the rule format): a create of one takes
//! over state that exists outside this root, so it is never `free`. The fixture plans under
//! `fixtures/authoritative/` are hand-written `show -json` plans: `creates.json` creates one
//! object of each type the curated packs mark (64 types, 8 providers), `changes.json` updates,
//! replaces and deletes some and has a sensitive and an unknown target. Each case asserts the
//! class, the rule and the words of the explanation, with the planned values of the targets.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{line, verdict};
use std::collections::BTreeSet;
use ward_classify::{assess, Assessment, Options};
use ward_model::Impact;
use ward_rules::Knowledge;

fn assess_fixture(name: &str) -> Assessment {
    common::assess_fixture(&format!("authoritative/{name}"))
}

/// (type, class of its create, the targets as the explanation prints them).
const CREATES: &[(&str, Impact, &str)] = &[
    ("google_organization_iam_policy", Impact::Interrupt, "(org_id = \"123456789\")"),
    ("google_folder_iam_policy", Impact::Interrupt, "(folder = \"folders/4242\")"),
    ("google_project_iam_policy", Impact::Interrupt, "(project = \"prod-1\")"),
    ("google_organization_iam_binding", Impact::Interrupt, "(org_id = \"123456789\", role = \"roles/owner\")"),
    ("google_folder_iam_binding", Impact::Interrupt, "(folder = \"folders/4242\", role = \"roles/editor\")"),
    ("google_project_iam_binding", Impact::Interrupt, "(project = \"prod-1\", role = \"roles/editor\")"),
    ("google_storage_bucket_iam_binding", Impact::Interrupt, "(bucket = \"logs\", role = \"roles/storage.objectViewer\")"),
    ("google_storage_bucket_iam_policy", Impact::Interrupt, "(bucket = \"logs\")"),
    ("google_service_account_iam_binding", Impact::Interrupt, "role = \"roles/iam.serviceAccountUser\""),
    ("google_service_account_iam_policy", Impact::Interrupt, "(service_account_id = \"projects/prod-1/serviceAccounts/ci@prod-1.iam.gserviceaccount.com\")"),
    ("google_org_policy_policy", Impact::InPlace, "parent = \"organizations/123456789\""),
    ("google_organization_policy", Impact::InPlace, "(org_id = \"123456789\", constraint = \"compute.disableSerialPortAccess\")"),
    ("google_folder_organization_policy", Impact::InPlace, "(folder = \"folders/4242\", constraint = \"compute.vmExternalIpAccess\")"),
    ("google_project_organization_policy", Impact::InPlace, "(project = \"prod-1\", constraint = \"iam.disableServiceAccountKeyCreation\")"),
    ("google_project_iam_audit_config", Impact::InPlace, "(project = \"prod-1\", service = \"allServices\")"),
    ("google_project_default_service_accounts", Impact::Interrupt, "(project = \"prod-1\", action = \"DEPRIVILEGE\")"),
    ("aws_default_security_group", Impact::Interrupt, "(vpc_id = \"vpc-0abc\")"),
    ("aws_default_network_acl", Impact::Interrupt, "(default_network_acl_id = \"acl-0abc\")"),
    ("aws_default_route_table", Impact::Interrupt, "(default_route_table_id = \"rtb-0abc\")"),
    ("aws_default_vpc", Impact::InPlace, "adopts the region's existing default VPC"),
    ("aws_default_subnet", Impact::InPlace, "(availability_zone = \"eu-west-1a\")"),
    ("aws_default_vpc_dhcp_options", Impact::InPlace, "default DHCP options set"),
    ("aws_main_route_table_association", Impact::Interrupt, "(vpc_id = \"vpc-0abc\", route_table_id = \"rtb-0def\")"),
    ("aws_iam_policy_attachment", Impact::Interrupt, "(policy_arn = \"arn:aws:iam::aws:policy/AdministratorAccess\")"),
    ("aws_iam_group_membership", Impact::Interrupt, "(group = \"admins\")"),
    ("aws_iam_role_policy_attachments_exclusive", Impact::Interrupt, "(role_name = \"app\")"),
    ("aws_iam_user_policy_attachments_exclusive", Impact::Interrupt, "(user_name = \"alice\")"),
    ("aws_iam_group_policy_attachments_exclusive", Impact::Interrupt, "(group_name = \"admins\")"),
    ("aws_iam_role_policies_exclusive", Impact::Interrupt, "(role_name = \"app\")"),
    ("aws_iam_user_policies_exclusive", Impact::Interrupt, "(user_name = \"alice\")"),
    ("aws_iam_group_policies_exclusive", Impact::Interrupt, "(group_name = \"admins\")"),
    ("aws_route53_records_exclusive", Impact::Interrupt, "(zone_id = \"Z123\")"),
    ("aws_kms_key_policy", Impact::Interrupt, "(key_id = \"1234abcd-12ab\")"),
    ("aws_s3_bucket_policy", Impact::Interrupt, "(bucket = \"logs\")"),
    ("aws_sqs_queue_policy", Impact::Interrupt, "(queue_url = \"https://sqs.eu-west-1.amazonaws.com/1/q\")"),
    ("aws_ecr_repository_policy", Impact::Interrupt, "(repository = \"app\")"),
    ("aws_iam_account_password_policy", Impact::InPlace, "password policy"),
    ("aws_s3_account_public_access_block", Impact::InPlace, "(account_id = \"111122223333\")"),
    ("aws_s3_bucket_public_access_block", Impact::InPlace, "(bucket = \"logs\")"),
    ("aws_ecr_lifecycle_policy", Impact::DataLoss, "(repository = \"app\")"),
    ("aws_s3_bucket_lifecycle_configuration", Impact::InPlace, "(bucket = \"logs\")"),
    ("aws_s3_bucket_notification", Impact::Interrupt, "(bucket = \"logs\")"),
    ("azurerm_subnet_network_security_group_association", Impact::Interrupt, "network_security_group_id = \"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/app\""),
    ("azurerm_subnet_route_table_association", Impact::Interrupt, "route_table_id = \"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/routeTables/egress\""),
    ("azurerm_network_interface_security_group_association", Impact::Interrupt, "network_interface_id = \"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/nic0\""),
    ("github_team_members", Impact::Interrupt, "(team_id = \"4711\")"),
    ("github_repository_collaborators", Impact::Interrupt, "(repository = \"ward\")"),
    ("github_branch_protection_v3", Impact::InPlace, "(repository = \"ward\", branch = \"main\")"),
    ("github_organization_settings", Impact::InPlace, "settings and member policies"),
    ("github_branch_default", Impact::InPlace, "(repository = \"ward\", branch = \"main\")"),
    ("kubernetes_labels", Impact::InPlace, "(kind = \"Deployment\", api_version = \"apps/v1\")"),
    ("kubernetes_annotations", Impact::InPlace, "(kind = \"Namespace\", api_version = \"v1\")"),
    ("kubernetes_config_map_v1_data", Impact::InPlace, "existing ConfigMap"),
    ("kubernetes_env", Impact::Interrupt, "(kind = \"Deployment\", container = \"web\")"),
    ("kubernetes_node_taint", Impact::Interrupt, "NoExecute taint evicts"),
    ("kubernetes_default_service_account", Impact::InPlace, "default service account"),
    ("kubernetes_default_service_account_v1", Impact::InPlace, "default service account"),
    ("cloudflare_zone_setting", Impact::InPlace, "(zone_id = \"023e105f4ecef8ad9ca31a8372d0c353\", setting_id = \"ssl\")"),
    ("cloudflare_zone_dnssec", Impact::InPlace, "(zone_id = \"023e105f4ecef8ad9ca31a8372d0c353\")"),
    ("hcloud_rdns", Impact::InPlace, "(ip_address = \"192.0.2.10\", dns_ptr = \"web.example.com\")"),
    ("proxmox_virtual_environment_dns", Impact::Interrupt, "(node_name = \"pve1\")"),
    ("proxmox_virtual_environment_hosts", Impact::Interrupt, "(node_name = \"pve1\")"),
    ("proxmox_virtual_environment_time", Impact::InPlace, "(node_name = \"pve1\", time_zone = \"UTC\")"),
    ("proxmox_virtual_environment_cluster_options", Impact::InPlace, "datacenter-wide options"),
];

#[test]
fn a_create_of_an_authoritative_type_costs_its_class_and_says_what_it_overwrites() {
    let a = assess_fixture("creates.json");
    assert_eq!(a.verdicts.len(), CREATES.len());
    let providers: BTreeSet<&str> = CREATES
        .iter()
        .map(|(t, _, _)| t.split('_').next().unwrap())
        .collect();
    assert!(CREATES.len() >= 25 && providers.len() >= 6, "{providers:?}");
    for (t, class, targets) in CREATES {
        let v = verdict(&a, &format!("{t}.x"));
        assert_eq!(v.impact, *class, "{t}: {:#?}", v.explanation);
        assert!(v.impact > Impact::Free, "{t}");
        let rule = v
            .overwrites
            .as_ref()
            .map(|r| r.to_string())
            .unwrap_or_default();
        assert!(rule.ends_with(&format!(":{t}")), "{t}: overwrites {rule}");
        let l = line(
            v,
            "creating it overwrites state that exists outside this root",
        )
        .unwrap_or_else(|| panic!("{t}: {:#?}", v.explanation));
        assert!(
            l.contains(&format!("which costs at least {class}: ")),
            "{t}: {l}"
        );
        assert!(l.contains(targets), "{t}: {l}");
        assert!(l.ends_with(&format!("(per {rule})")), "{t}: {l}");
    }
}

#[test]
fn the_org_iam_policy_create_says_every_grant_not_listed_is_removed() {
    let a = assess_fixture("org_iam_policy.json");
    let v = verdict(&a, "google_organization_iam_policy.x");
    assert_eq!(v.impact, Impact::Interrupt);
    assert_eq!(a.max_impact(), Impact::Interrupt);
    let l = line(v, "overwrites").unwrap();
    assert!(
        l.contains("replaces the whole IAM policy of the organization (org_id = \"123456789\"): every member and role not listed here is removed"),
        "{l}"
    );
    // The verdict's rule is the one that raised the cost.
    assert_eq!(v.decided_by, v.overwrites);
}

#[test]
fn updates_replacements_and_deletes_of_authoritative_types() {
    let a = assess_fixture("changes.json");
    // An update says it rewrites the state outside this root, at its own cost.
    let v = verdict(&a, "google_project_iam_policy.x");
    assert!(v.overwrites.is_some());
    assert_eq!(v.impact, Impact::InPlace, "{:#?}", v.explanation);
    assert!(
        line(v, "authoritative: this update rewrites state that exists outside this root: replaces the whole IAM policy of the project (project = \"prod-1\")").is_some(),
        "{:#?}",
        v.explanation
    );
    // A target marked sensitive is never printed.
    let v = verdict(&a, "google_organization_iam_policy.secret");
    assert_eq!(v.impact, Impact::Interrupt);
    assert!(
        line(v, "(org_id = (sensitive))").is_some(),
        "{:#?}",
        v.explanation
    );
    assert!(!v.explanation.iter().any(|l| l.contains("987654321")));
    // A target known only after apply says so.
    let v = verdict(&a, "google_project_iam_binding.later");
    assert!(
        line(
            v,
            "(project = (known after apply), role = \"roles/editor\")"
        )
        .is_some(),
        "{:#?}",
        v.explanation
    );
    // Every target known only after apply: the object it names is created by this plan, so
    // nothing existing is overwritten (the project's policy is set as it is made).
    let v = verdict(&a, "google_project_iam_policy.new_project");
    assert_eq!(v.impact, Impact::Free, "{:#?}", v.explanation);
    assert!(v.overwrites.is_none());
    assert!(
        line(v, "overwrites nothing that exists yet: `project` is known only after apply, so the object it names is created by this plan").is_some(),
        "{:#?}",
        v.explanation
    );
    // A replacement takes the state over again: at least the declared class.
    let v = verdict(&a, "aws_iam_group_membership.y");
    assert!(v.impact >= Impact::Interrupt, "{:#?}", v.explanation);
    assert!(
        line(
            v,
            "the new object overwrites state that exists outside this root again"
        )
        .is_some(),
        "{:#?}",
        v.explanation
    );
    // A delete overwrites nothing: the adopted default group only leaves the state.
    let v = verdict(&a, "aws_default_security_group.gone");
    assert!(v.overwrites.is_none());
    assert_eq!(v.impact, Impact::None);
    assert!(line(v, "overwrites").is_none());
}

/// A user rule can say it too, and win over the pack's.
#[test]
fn a_user_rule_can_declare_a_type_that_overwrites() {
    let path = format!(
        "{}/tests/fixtures/authoritative/org_iam_policy.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let plan = ward_plan::read_file(std::path::Path::new(&path)).unwrap();
    let mut k = Knowledge::builtin().unwrap();
    k.load_user_str(
        "ward.hcl",
        r#"
resource "google_organization_iam_policy" {
  overwrites {
    impact = "data-loss"
    what   = "wipes our org"
    target = ["org_id", "policy_data"]
  }
}
"#,
    )
    .unwrap();
    let a = assess(&plan, &k, &Options::default());
    let v = verdict(&a, "google_organization_iam_policy.x");
    assert_eq!(v.impact, Impact::DataLoss);
    assert_eq!(
        v.overwrites.as_ref().unwrap().to_string(),
        "ward.hcl:2:google_organization_iam_policy"
    );
    assert!(
        line(v, "wipes our org (org_id = \"123456789\", policy_data = \"{\\\"bindings\\\":[]}\") (per ward.hcl:2:google_organization_iam_policy)").is_some(),
        "{:#?}",
        v.explanation
    );
}
