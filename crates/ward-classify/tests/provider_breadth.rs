//! #31 item 5, breadth: the providers the issue found ward failing closed on (exit 3) are known,
//! and their data holders cost data-loss when deleted. Each case is a hand-written plan (format
//! 1.2) with one change; an unknown type would be listed as unclassified and fail the case.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod one_change;

use serde_json::json;
use ward_model::Impact;

/// The impact of one change of `type_name` with these actions (`["delete"]`, `["create"]`...).
fn impact(provider: &str, type_name: &str, actions: &[&str]) -> Impact {
    let values = json!({"id": "x", "name": "x"});
    let sides = match actions {
        ["create"] => (json!(null), values),
        ["delete"] => (values, json!(null)),
        _ => (values.clone(), values),
    };
    one_change::verdict(provider, type_name, actions, sides, &[]).impact
}

/// A delete of each provider's main data holder loses data.
#[test]
fn deleting_a_data_holder_of_each_new_provider_is_data_loss() {
    for (provider, type_name) in [
        (
            "terraform-provider-openstack/openstack",
            "openstack_blockstorage_volume_v3",
        ),
        ("vmware/vsphere", "vsphere_virtual_disk"),
        ("vmware/vsphere", "vsphere_virtual_machine"),
        ("UpCloudLtd/upcloud", "upcloud_storage"),
        ("exoscale/exoscale", "exoscale_block_storage_volume"),
        ("snowflakedb/snowflake", "snowflake_database"),
        ("snowflakedb/snowflake", "snowflake_table"),
        ("auth0/auth0", "auth0_connection"),
        ("grafana/grafana", "grafana_folder"),
        ("spotinst/spotinst", "spotinst_managed_instance_aws"),
        ("opsgenie/opsgenie", "opsgenie_schedule"),
        ("cyrilgdn/postgresql", "postgresql_database"),
        ("petoju/mysql", "mysql_database"),
        ("Azure/azapi", "azapi_resource"),
        ("microsoft/azuredevops", "azuredevops_git_repository"),
        ("DeviaVir/gsuite", "gsuite_user"),
        ("hashicorp/google-beta", "google_firebase_database_instance"),
        ("gitlabhq/gitlab", "gitlab_project"),
        ("hashicorp/vault", "vault_mount"),
        ("mongodb/mongodbatlas", "mongodbatlas_advanced_cluster"),
        ("kreuzwerker/docker", "docker_volume"),
        ("hashicorp/tfe", "tfe_workspace"),
        ("digitalocean/digitalocean", "digitalocean_database_cluster"),
        ("databricks/databricks", "databricks_catalog"),
        ("aliyun/alicloud", "alicloud_oss_bucket"),
        ("linode/linode", "linode_volume"),
        ("vultr/vultr", "vultr_block_storage"),
        ("gavinbunney/kubectl", "kubectl_manifest"),
        ("rancher/rancher2", "rancher2_namespace"),
        ("yandex-cloud/yandex", "yandex_compute_disk"),
        (
            "terraform-provider-openstack/openstack",
            "openstack_dns_zone_v2",
        ),
        ("digitalocean/digitalocean", "digitalocean_domain"),
        (
            "opentelekomcloud/opentelekomcloud",
            "opentelekomcloud_evs_volume_v3",
        ),
        ("ionos-cloud/ionoscloud", "ionoscloud_volume"),
        ("hashicorp/consul", "consul_key_prefix"),
        ("hashicorp/aws", "aws_simpledb_domain"),
        ("hashicorp/azurerm", "azurerm_sql_server"),
        ("hashicorp/nomad", "nomad_csi_volume"),
    ] {
        assert_eq!(
            impact(provider, type_name, &["delete"]),
            Impact::DataLoss,
            "{type_name}"
        );
    }
}

/// Types that hold nothing are known, and cost less than data-loss to delete.
#[test]
fn deleting_a_type_that_holds_nothing_is_not_data_loss() {
    for (provider, type_name) in [
        ("grafana/grafana", "grafana_dashboard"),
        ("opsgenie/opsgenie", "opsgenie_team"),
        ("auth0/auth0", "auth0_role"),
        ("spotinst/spotinst", "spotinst_elastigroup_aws"),
        ("cyrilgdn/postgresql", "postgresql_role"),
        ("petoju/mysql", "mysql_user"),
        ("hashicorp/azuread", "azuread_group"),
        ("pagerduty/pagerduty", "pagerduty_escalation_policy"),
        (
            "terraform-provider-openstack/openstack",
            "openstack_networking_secgroup_v2",
        ),
    ] {
        let got = impact(provider, type_name, &["delete"]);
        assert!(got < Impact::DataLoss, "{type_name}: {got:?}");
    }
}

/// google-beta's beta-only types, which the issue saw exit 3, are known; the types both
/// providers have are decided by the google packs for a google-beta plan too.
#[test]
fn google_beta_plans_are_classified() {
    // Creating a service agent identity grants nothing by itself: known, and below replace.
    let got = impact(
        "hashicorp/google-beta",
        "google_project_service_identity",
        &["create"],
    );
    assert!(got < Impact::Replace, "{got:?}");
    assert_eq!(
        impact(
            "hashicorp/google-beta",
            "google_storage_bucket",
            &["delete"]
        ),
        Impact::DataLoss
    );
}

/// Types whose cost ward cannot read from the plan are costed as the worst they can do.
#[test]
fn generic_and_arbitrary_types_cost_the_worst() {
    // An action may be any ARM operation, DELETE included; SQL may drop a table.
    assert_eq!(
        impact("Azure/azapi", "azapi_resource_action", &["create"]),
        Impact::DataLoss
    );
    assert_eq!(
        impact("snowflakedb/snowflake", "snowflake_execute", &["create"]),
        Impact::DataLoss
    );
    // A restore job overwrites the target cluster's data.
    assert_eq!(
        impact(
            "mongodb/mongodbatlas",
            "mongodbatlas_cloud_backup_snapshot_restore_job",
            &["create"]
        ),
        Impact::DataLoss
    );
    // Deleting azapi_update_resource performs no operation.
    assert_eq!(
        impact("Azure/azapi", "azapi_update_resource", &["delete"]),
        Impact::None
    );
}
