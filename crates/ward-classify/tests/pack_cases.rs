//! The built-in packs' knowledge, case by case: plans in `show -json` form (format 1.2), built
//! here from a table of cases, read by ward-plan and assessed with the built-in packs. Each case
//! asserts the class, the rule that decided it and the explanation's words.
//!
//! - corrections found on real plans (default security group, RDS port, log retention, virtual
//!   machines that are not data holders);
//! - data holders: deleting one is data-loss, across providers, curated and catalog packs;
//! - interrupting attributes: changing one restarts, reboots, fails over or rolls nodes;
//! - retention decreases that delete data;
//! - types real plans had that no pack knew.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use std::sync::OnceLock;
use ward_classify::{assess, Assessment, Options, Verdict};
use ward_model::Impact;
use ward_rules::Knowledge;

fn provider_of(type_name: &str) -> &'static str {
    match type_name.split('_').next().unwrap() {
        "aws" => "registry.terraform.io/hashicorp/aws",
        "google" => "registry.terraform.io/hashicorp/google",
        "azurerm" => "registry.terraform.io/hashicorp/azurerm",
        "kubernetes" => "registry.terraform.io/hashicorp/kubernetes",
        "cloudflare" => "registry.terraform.io/cloudflare/cloudflare",
        "github" => "registry.terraform.io/integrations/github",
        "datadog" => "registry.terraform.io/datadog/datadog",
        "oci" => "registry.terraform.io/oracle/oci",
        "proxmox" => "registry.terraform.io/bpg/proxmox",
        "incus" => "registry.terraform.io/lxc/incus",
        "lxd" => "registry.terraform.io/terraform-lxd/lxd",
        "hcloud" => "registry.terraform.io/hetznercloud/hcloud",
        "maas" => "registry.terraform.io/canonical/maas",
        "juju" => "registry.terraform.io/juju/juju",
        other => panic!("no provider for {other}"),
    }
}

/// `{"a": [{"b": v}]}` for `a.b` (nested blocks are lists in plans).
fn nested(path: &str, v: Value) -> (String, Value) {
    let mut parts = path.split('.').rev();
    let last = parts.next().unwrap();
    let mut value = json!({ last: v });
    let rest: Vec<&str> = parts.collect();
    for (i, p) in rest.iter().enumerate() {
        if i + 1 == rest.len() {
            return (p.to_string(), json!([value]));
        }
        value = json!({ *p: [value] });
    }
    (last.to_string(), value[last].clone())
}

fn object(attr: Option<(&str, Value)>) -> Value {
    let mut o = json!({ "id": "the-id", "tags": {"team": "a"} });
    if let Some((path, v)) = attr {
        let (k, v) = nested(path, v);
        o[k] = v;
    }
    o
}

/// A plan with one change of `type_name` (address `TYPE.x`).
fn plan(type_name: &str, actions: &[&str], before: Value, after: Value) -> String {
    let address = format!("{type_name}.x");
    let provider = provider_of(type_name);
    json!({
        "format_version": "1.2",
        "terraform_version": "1.9.8",
        "resource_changes": [{
            "address": address,
            "mode": "managed",
            "type": type_name,
            "name": "x",
            "provider_name": provider,
            "change": {
                "actions": actions,
                "before": before,
                "after": after,
                "after_unknown": {},
                "before_sensitive": {},
                "after_sensitive": {}
            }
        }],
        "configuration": {
            "root_module": {
                "resources": [{
                    "address": address,
                    "mode": "managed",
                    "type": type_name,
                    "name": "x",
                    "provider_config_key": type_name.split('_').next().unwrap(),
                    "expressions": {},
                    "schema_version": 0
                }]
            }
        }
    })
    .to_string()
}

/// The built-in packs, loaded once for every case.
fn knowledge() -> &'static Knowledge {
    static K: OnceLock<Knowledge> = OnceLock::new();
    K.get_or_init(|| Knowledge::builtin().expect("built-in packs load"))
}

fn assess_text(name: &str, text: &str) -> Assessment {
    let plan =
        ward_plan::read_reader(text.as_bytes(), name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let a = assess(&plan, knowledge(), &Options::default());
    assert!(
        a.coverage.unclassified.is_empty(),
        "{name}: unclassified types {:?}",
        a.coverage.unclassified
    );
    a
}

fn only(a: &Assessment) -> &Verdict {
    assert_eq!(a.verdicts.len(), 1);
    &a.verdicts[0]
}

fn rule(v: &Verdict) -> String {
    v.decided_by
        .as_ref()
        .map(|r| r.to_string())
        .unwrap_or_default()
}

fn says(v: &Verdict, needle: &str) -> bool {
    v.explanation.iter().any(|l| l.contains(needle))
}

fn delete(type_name: &str) -> Verdict {
    let text = plan(type_name, &["delete"], object(None), Value::Null);
    only(&assess_text(type_name, &text)).clone()
}

fn replace(type_name: &str) -> Verdict {
    let text = plan(type_name, &["delete", "create"], object(None), object(None));
    only(&assess_text(type_name, &text)).clone()
}

fn create(type_name: &str) -> Verdict {
    let text = plan(type_name, &["create"], Value::Null, object(None));
    only(&assess_text(type_name, &text)).clone()
}

fn update(type_name: &str, path: &str, from: Value, to: Value) -> Verdict {
    let text = plan(
        type_name,
        &["update"],
        object(Some((path, from))),
        object(Some((path, to))),
    );
    only(&assess_text(&format!("{type_name}.{path}"), &text)).clone()
}

// ------------------------------------------------------------------ corrections

#[test]
fn adopting_the_default_security_group_removes_its_rules() {
    let v = create("aws_default_security_group");
    assert_eq!(v.impact, Impact::Interrupt, "{:#?}", v.explanation);
    assert!(
        rule(&v).starts_with("aws@") && rule(&v).ends_with(":aws_default_security_group"),
        "{}",
        rule(&v)
    );
    assert!(
        says(&v, "removes every ingress and egress rule"),
        "{:#?}",
        v.explanation
    );
}

#[test]
fn deleting_the_default_security_group_only_forgets_it() {
    let v = delete("aws_default_security_group");
    assert_eq!(v.impact, Impact::None, "{:#?}", v.explanation);
    assert!(!v.holds_data);
    assert!(says(&v, "destroying it costs none"), "{:#?}", v.explanation);
}

#[test]
fn rds_port_change_restarts_the_database() {
    let v = update("aws_db_instance", "port", json!(5432), json!(6432));
    assert_eq!(v.impact, Impact::Interrupt, "{:#?}", v.explanation);
    assert!(rule(&v).ends_with(":aws_db_instance[port]"), "{}", rule(&v));
    assert!(
        says(
            &v,
            "`port` costs interrupt: 5432 → 6432 — Changing the port restarts the database"
        ),
        "{:#?}",
        v.explanation
    );
}

#[test]
fn shortening_log_retention_deletes_events() {
    let v = update(
        "aws_cloudwatch_log_group",
        "retention_in_days",
        json!(30),
        json!(7),
    );
    assert_eq!(v.impact, Impact::DataLoss, "{:#?}", v.explanation);
    // The retention entry decides, and says why; nothing is recreated.
    assert!(
        rule(&v).ends_with(":aws_cloudwatch_log_group[retention_in_days]"),
        "{}",
        rule(&v)
    );
    assert!(!says(&v, "recreates the object"), "{:#?}", v.explanation);
    assert!(
        says(&v, "`retention_in_days` costs data-loss: 30 → 7 — a decrease: A shorter retention deletes the log events older than it"),
        "{:#?}",
        v.explanation
    );
}

/// Virtual machines are not data holders: replacing one is `replace`, and the explanation says
/// the boot disk is recreated; the disks and volumes carry the data-loss.
#[test]
fn replacing_a_virtual_machine_is_replace_not_data_loss() {
    for (t, words) in [
        ("aws_instance", "root volume is recreated from the AMI"),
        (
            "google_compute_instance",
            "boot disk is recreated from its image",
        ),
        (
            "azurerm_linux_virtual_machine",
            "OS disk is recreated from its image",
        ),
        (
            "azurerm_windows_virtual_machine",
            "OS disk is recreated from its image",
        ),
        ("azurerm_virtual_machine", "OS disk is recreated"),
    ] {
        let v = replace(t);
        assert_eq!(v.impact, Impact::Replace, "{t}: {:#?}", v.explanation);
        assert!(!v.holds_data, "{t}");
        assert!(says(&v, words), "{t}: {:#?}", v.explanation);
        assert!(
            says(&v, "is not a data holder"),
            "{t}: {:#?}",
            v.explanation
        );
        let v = delete(t);
        assert_eq!(
            v.impact,
            Impact::Replace,
            "{t} delete: {:#?}",
            v.explanation
        );
    }
    for disk in [
        "aws_ebs_volume",
        "google_compute_disk",
        "azurerm_managed_disk",
    ] {
        assert_eq!(replace(disk).impact, Impact::DataLoss, "{disk}");
    }
}

// ------------------------------------------------------------------ data holders

/// (type, words of the rule's rationale) — deleting each is data-loss.
const DATA_HOLDERS: &[(&str, &str)] = &[
    ("aws_s3_bucket", ""),
    ("aws_ebs_volume", ""),
    ("aws_ebs_snapshot", ""),
    ("aws_db_instance", ""),
    ("aws_rds_cluster", ""),
    ("aws_dynamodb_table", ""),
    ("aws_efs_file_system", ""),
    ("aws_ecr_repository", ""),
    ("aws_cloudwatch_log_group", "log events"),
    ("aws_secretsmanager_secret", ""),
    ("aws_ssm_parameter", "its value and version history"),
    ("aws_kms_key", ""),
    ("aws_sqs_queue", ""),
    ("aws_kinesis_stream", ""),
    ("aws_backup_vault", ""),
    (
        "aws_keyspaces_table",
        "A Keyspaces (Cassandra) table: its rows.",
    ),
    ("aws_redshift_cluster", "its warehouse data"),
    ("aws_memorydb_cluster", "a durable in-memory database"),
    ("aws_fsx_ontap_volume", "An FSx ONTAP volume: its files."),
    ("aws_glacier_vault", "its archives"),
    ("aws_timestreamwrite_table", "its records"),
    ("aws_kms_replica_key", "becomes unreadable"),
    ("aws_ami", "its EBS snapshots hold the image's disks"),
    ("aws_codecommit_repository", "its commits"),
    ("aws_cognito_user_pool", "its users"),
    ("aws_prometheus_workspace", "its stored metrics"),
    ("google_storage_bucket", ""),
    ("google_compute_disk", ""),
    ("google_sql_database_instance", ""),
    ("google_bigquery_table", ""),
    ("google_secret_manager_secret", ""),
    (
        "google_secret_manager_secret_version",
        "destroys its value irreversibly",
    ),
    ("google_kms_crypto_key", ""),
    ("google_filestore_instance", ""),
    ("google_redis_cluster", "its keys"),
    ("google_healthcare_fhir_store", "its patient records"),
    ("google_netapp_volume", "its files"),
    ("google_managed_kafka_topic", "its messages"),
    (
        "google_logging_project_bucket_config",
        "the logs it retains",
    ),
    ("google_compute_image", "the disk image it stores"),
    ("azurerm_storage_account", ""),
    ("azurerm_managed_disk", ""),
    ("azurerm_mssql_database", ""),
    ("azurerm_key_vault_secret", "every version of its value"),
    ("azurerm_cosmosdb_mongo_collection", "its documents"),
    ("azurerm_kusto_database", "its tables"),
    ("azurerm_netapp_volume", "its files"),
    ("azurerm_redis_enterprise_database", "its keys"),
    (
        "azurerm_data_protection_backup_vault",
        "its recovery points",
    ),
    ("kubernetes_persistent_volume_claim", ""),
    (
        "kubernetes_secret_v1_data",
        "keys this resource wrote are removed",
    ),
    ("cloudflare_r2_bucket", ""),
    ("cloudflare_d1_database", ""),
    ("cloudflare_stream", "the uploaded media"),
    ("cloudflare_workers_kv", "its value"),
    ("github_repository", ""),
    ("github_issue", "its comments"),
    ("datadog_logs_index", "the logs it retains"),
    ("oci_objectstorage_bucket", "its objects"),
    ("oci_core_volume", "A block volume: its data."),
    ("oci_database_autonomous_database", "its data"),
    ("oci_kms_key", "becomes unreadable"),
    ("oci_streaming_stream", "its messages"),
    ("aws_paymentcryptography_key", "its key material"),
    ("proxmox_ceph_pool", "RBD images"),
    ("incus_storage_bucket", "its objects"),
    ("lxd_instance_snapshot", "a restore point"),
    ("hcloud_storage_box", "its files"),
    ("maas_instance", "everything on its local disks are lost"),
    ("juju_model", "destroys every application"),
];

#[test]
fn deleting_a_data_holder_is_data_loss() {
    assert!(DATA_HOLDERS.len() >= 40);
    let mut failures = Vec::new();
    for (t, words) in DATA_HOLDERS {
        let v = delete(t);
        let ok = v.impact == Impact::DataLoss
            && v.holds_data
            && rule(&v).ends_with(&format!(":{t}"))
            && says(&v, "holds data: destroying it loses the data it holds")
            && (words.is_empty() || says(&v, "rule rationale: ") && says(&v, words));
        if !ok {
            failures.push(format!(
                "{t}: {:?} by {} {:#?}",
                v.impact,
                rule(&v),
                v.explanation
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn replacing_a_catalog_data_holder_is_data_loss() {
    for t in [
        "aws_keyspaces_table",
        "google_netapp_volume",
        "azurerm_kusto_database",
    ] {
        let v = replace(t);
        assert_eq!(v.impact, Impact::DataLoss, "{t}: {:#?}", v.explanation);
        assert!(
            says(&v, "holds data: replacing it loses the data it holds"),
            "{t}: {:#?}",
            v.explanation
        );
    }
}

// ------------------------------------------------------------------ interrupting attributes

/// (type, attribute, before, after, words of its why).
fn interrupting() -> Vec<(&'static str, &'static str, Value, Value, &'static str)> {
    vec![
        (
            "aws_instance",
            "instance_type",
            json!("t3.small"),
            json!("t3.large"),
            "stops the instance",
        ),
        (
            "aws_db_instance",
            "instance_class",
            json!("db.r6g.large"),
            json!("db.r6g.xlarge"),
            "restarts the database",
        ),
        (
            "aws_db_instance",
            "engine_version",
            json!("15.4"),
            json!("16.1"),
            "offline",
        ),
        (
            "aws_db_instance",
            "port",
            json!(5432),
            json!(5433),
            "restarts the database",
        ),
        (
            "aws_rds_cluster",
            "port",
            json!(5432),
            json!(5433),
            "reboots every instance",
        ),
        (
            "aws_rds_cluster",
            "engine_version",
            json!("15.4"),
            json!("16.1"),
            "",
        ),
        (
            "aws_elasticache_replication_group",
            "node_type",
            json!("cache.r6g.large"),
            json!("cache.r6g.xlarge"),
            "",
        ),
        (
            "aws_mq_broker",
            "host_instance_type",
            json!("mq.m5.large"),
            json!("mq.m5.xlarge"),
            "",
        ),
        (
            "aws_eks_node_group",
            "instance_types",
            json!(["m5.large"]),
            json!(["m6i.large"]),
            "rolling replacement of its nodes",
        ),
        (
            "aws_eks_node_group",
            "ami_type",
            json!("AL2_x86_64"),
            json!("AL2023_x86_64_STANDARD"),
            "rolling replacement",
        ),
        (
            "aws_opensearch_domain",
            "cluster_config.instance_type",
            json!("r6g.large.search"),
            json!("r6g.xlarge.search"),
            "blue/green",
        ),
        (
            "aws_redshift_cluster",
            "node_type",
            json!("ra3.xlplus"),
            json!("ra3.4xlarge"),
            "read-only",
        ),
        (
            "aws_memorydb_cluster",
            "node_type",
            json!("db.r6g.large"),
            json!("db.r6g.xlarge"),
            "failover",
        ),
        (
            "aws_dms_replication_instance",
            "replication_instance_class",
            json!("dms.t3.medium"),
            json!("dms.c5.large"),
            "reboots",
        ),
        (
            "aws_docdb_cluster_instance",
            "instance_class",
            json!("db.r6g.large"),
            json!("db.r6g.xlarge"),
            "restarts the instance",
        ),
        (
            "aws_sagemaker_notebook_instance",
            "instance_type",
            json!("ml.t3.medium"),
            json!("ml.t3.large"),
            "stops the notebook",
        ),
        (
            "aws_fsx_windows_file_system",
            "throughput_capacity",
            json!(32),
            json!(64),
            "failover",
        ),
        (
            "aws_mwaa_environment",
            "environment_class",
            json!("mw1.small"),
            json!("mw1.medium"),
            "schedulers and workers",
        ),
        (
            "aws_timestreaminfluxdb_db_instance",
            "db_instance_type",
            json!("db.influx.medium"),
            json!("db.influx.large"),
            "restarts",
        ),
        (
            "google_compute_instance",
            "machine_type",
            json!("e2-small"),
            json!("e2-medium"),
            "stops the VM",
        ),
        (
            "google_sql_database_instance",
            "settings.tier",
            json!("db-f1-micro"),
            json!("db-g1-small"),
            "",
        ),
        (
            "google_sql_database_instance",
            "database_version",
            json!("POSTGRES_15"),
            json!("POSTGRES_16"),
            "",
        ),
        (
            "google_sql_database_instance",
            "settings.edition",
            json!("ENTERPRISE"),
            json!("ENTERPRISE_PLUS"),
            "restarts the instance",
        ),
        (
            "google_container_node_pool",
            "node_config.machine_type",
            json!("e2-standard-4"),
            json!("e2-standard-8"),
            "rolling update",
        ),
        (
            "google_redis_instance",
            "memory_size_gb",
            json!(1),
            json!(5),
            "",
        ),
        (
            "google_redis_cluster",
            "node_type",
            json!("REDIS_SHARED_CORE_NANO"),
            json!("REDIS_STANDARD_SMALL"),
            "new nodes",
        ),
        (
            "google_memorystore_instance",
            "node_type",
            json!("SHARED_CORE_NANO"),
            json!("STANDARD_SMALL"),
            "new nodes",
        ),
        (
            "azurerm_linux_virtual_machine",
            "size",
            json!("Standard_B2s"),
            json!("Standard_D2s_v5"),
            "restarts the VM",
        ),
        (
            "azurerm_kubernetes_cluster_node_pool",
            "vm_size",
            json!("Standard_D2s_v5"),
            json!("Standard_D4s_v5"),
            "drained",
        ),
        (
            "azurerm_kubernetes_cluster",
            "kubernetes_version",
            json!("1.29"),
            json!("1.30"),
            "",
        ),
        (
            "azurerm_kusto_cluster",
            "sku",
            json!([{"name": "Dev(No SLA)_Standard_D11_v2", "capacity": 1}]),
            json!([{"name": "Standard_E2a_v4", "capacity": 2}]),
            "migrates",
        ),
        (
            "azurerm_mssql_managed_instance",
            "vcores",
            json!(4),
            json!(8),
            "failover",
        ),
        (
            "azurerm_synapse_sql_pool",
            "sku_name",
            json!("DW100c"),
            json!("DW200c"),
            "cancels running queries",
        ),
        (
            "azurerm_postgresql_server",
            "sku_name",
            json!("GP_Gen5_2"),
            json!("GP_Gen5_4"),
            "restarts the server",
        ),
    ]
}

#[test]
fn interrupting_attributes_interrupt() {
    let cases = interrupting();
    assert!(cases.len() >= 30);
    let mut failures = Vec::new();
    for (t, path, from, to, words) in cases {
        let v = update(t, path, from, to);
        let ok = v.impact == Impact::Interrupt
            && rule(&v).ends_with(&format!(":{t}[{path}]"))
            && says(&v, &format!("`{}", path.split('.').next().unwrap()))
            && says(&v, "costs interrupt")
            && (words.is_empty() || says(&v, words));
        if !ok {
            failures.push(format!(
                "{t}.{path}: {:?} by {} {:#?}",
                v.impact,
                rule(&v),
                v.explanation
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ------------------------------------------------------------------ retention

#[test]
fn retention_changes_that_delete_data_are_data_loss() {
    for (t, path, from, to) in [
        (
            "aws_sqs_queue",
            "message_retention_seconds",
            json!(1209600),
            json!(86400),
        ),
        (
            "aws_kinesis_stream",
            "retention_period",
            json!(168),
            json!(24),
        ),
        (
            "aws_db_instance",
            "backup_retention_period",
            json!(14),
            json!(1),
        ),
        (
            "aws_cloudtrail_event_data_store",
            "retention_period",
            json!(2557),
            json!(90),
        ),
        (
            "google_pubsub_topic",
            "message_retention_duration",
            json!("604800s"),
            json!("3600s"),
        ),
        (
            "google_logging_project_bucket_config",
            "retention_days",
            json!(400),
            json!(30),
        ),
        (
            "azurerm_log_analytics_workspace",
            "retention_in_days",
            json!(90),
            json!(30),
        ),
        ("azurerm_eventhub", "message_retention", json!(7), json!(1)),
        ("datadog_logs_index", "retention_days", json!(30), json!(7)),
    ] {
        let v = update(t, path, from, to);
        assert_eq!(
            v.impact,
            Impact::DataLoss,
            "{t}.{path}: {:#?}",
            v.explanation
        );
        // On a data holder the holds_data rule decides; elsewhere the attribute's own rule.
        assert!(
            rule(&v).ends_with(&format!(":{t}[{path}]")) || rule(&v).ends_with(&format!(":{t}")),
            "{}",
            rule(&v)
        );
        assert!(
            says(&v, &format!("`{path}` costs data-loss")) && says(&v, "older than it"),
            "{t}.{path}: {:#?}",
            v.explanation
        );
    }
}

// ------------------------------------------------------------------ types no pack knew

/// Types real plans had that no pack knew (ward plan exited 3 on them): now each is classified,
/// by the category rule its pack says.
#[test]
fn types_from_real_plans_are_classified() {
    for (t, pack, words) in [
        ("aws_vpn_connection", "aws-catalog", "live traffic at once"),
        (
            "aws_ec2_transit_gateway",
            "aws-catalog",
            "live traffic at once",
        ),
        (
            "aws_ec2_transit_gateway_vpc_attachment",
            "aws-catalog",
            "unlinks them at once",
        ),
        (
            "aws_default_vpc",
            "aws",
            "only removes it from state unless force_destroy",
        ),
        (
            "aws_default_subnet",
            "aws",
            "only removes it from state unless force_destroy",
        ),
        ("aws_appmesh_mesh", "aws-catalog", "live traffic at once"),
        (
            "azurerm_virtual_wan",
            "azurerm-catalog",
            "live traffic at once",
        ),
        (
            "azurerm_express_route_circuit",
            "azurerm-catalog",
            "live traffic at once",
        ),
        (
            "azurerm_availability_set",
            "azurerm-catalog",
            "No data held that configuration cannot recreate",
        ),
        (
            "datadog_monitor",
            "datadog-catalog",
            "failures it would report go unnoticed",
        ),
        ("aws_iam_role_policy_attachment", "aws", ""),
        (
            "aws_iam_user_group_membership",
            "aws-catalog",
            "removes the access it grants",
        ),
        ("google_project_iam_member", "google", ""),
        ("google_storage_bucket_iam_member", "google", ""),
        (
            "google_pubsub_topic_iam_member",
            "google-catalog",
            "removes the access it grants",
        ),
    ] {
        let v = delete(t);
        assert!(v.classified, "{t}");
        assert!(
            rule(&v).starts_with(&format!("{pack}@")),
            "{t}: decided by {}",
            rule(&v)
        );
        assert!(
            words.is_empty() || says(&v, words),
            "{t}: {:#?}",
            v.explanation
        );
    }
}

/// A compute-category type costs an update no attribute names as interrupt, and says why.
#[test]
fn catalog_compute_updates_interrupt() {
    let v = update("aws_dax_cluster", "description", json!("a"), json!("b"));
    assert_eq!(v.impact, Impact::Interrupt, "{:#?}", v.explanation);
    assert!(
        says(
            &v,
            "an update no curated attribute names is costed as interrupt"
        ),
        "{:#?}",
        v.explanation
    );
}

#[test]
fn tags_and_labels_are_free_on_catalog_types() {
    for (t, attr) in [
        ("aws_appmesh_mesh", "tags"),
        ("azurerm_virtual_wan", "tags"),
        ("google_active_directory_domain", "labels"),
    ] {
        let (before, after) = if attr == "tags" {
            (object(None), object(Some(("tags", json!({"team": "b"})))))
        } else {
            (
                object(Some(("labels", json!({"a": "1"})))),
                object(Some(("labels", json!({"a": "2"})))),
            )
        };
        let text = plan(t, &["update"], before, after);
        let a = assess_text(t, &text);
        let v = only(&a);
        assert_eq!(v.impact, Impact::Free, "{t}: {:#?}", v.explanation);
    }
}

/// The aws pack names the final-snapshot attributes of its databases: a delete says whether a
/// final snapshot will be taken, from the object's last known values.
#[test]
fn database_deletes_say_whether_a_final_snapshot_is_taken() {
    for t in [
        "aws_db_instance",
        "aws_rds_cluster",
        "aws_docdb_cluster",
        "aws_neptune_cluster",
    ] {
        let mut skipped = object(None);
        skipped["skip_final_snapshot"] = json!(true);
        let v = only(&assess_text(t, &plan(t, &["delete"], skipped, Value::Null))).clone();
        assert_eq!(v.impact, Impact::DataLoss, "{t}");
        assert!(
            says(&v, "no final snapshot: `skip_final_snapshot` is true"),
            "{t}: {:?}",
            v.explanation
        );

        let mut kept = object(None);
        kept["skip_final_snapshot"] = json!(false);
        kept["final_snapshot_identifier"] = json!("ledger-final");
        let v = only(&assess_text(t, &plan(t, &["delete"], kept, Value::Null))).clone();
        assert!(
            says(&v, "a final snapshot is taken before destroy") && says(&v, "ledger-final"),
            "{t}: {:?}",
            v.explanation
        );
    }
}

/// Removing an ingress rule from an aws security group, or deleting a rule resource, says that
/// access is removed.
#[test]
fn removing_a_security_group_rule_says_access_is_removed() {
    let rule = |port: i64| json!({"from_port": port, "to_port": port, "protocol": "tcp", "cidr_blocks": ["10.0.0.0/8"]});
    let mut before = object(None);
    before["ingress"] = json!([rule(22), rule(443)]);
    let mut after = object(None);
    after["ingress"] = json!([rule(443)]);
    let t = "aws_security_group";
    let v = only(&assess_text(t, &plan(t, &["update"], before, after))).clone();
    assert!(says(&v, "removes access"), "{:?}", v.explanation);

    let t = "aws_vpc_security_group_ingress_rule";
    let v = delete(t);
    assert!(
        says(&v, "removes access: the access it grants stops"),
        "{:?}",
        v.explanation
    );
}

/// A Secrets Manager secret version is not a data holder: replacing it makes a new AWSCURRENT
/// version and Secrets Manager keeps the old one as AWSPREVIOUS; deleting it cannot remove the
/// AWSCURRENT label (field set: robert-consulting-public, `secret_string` changed).
#[test]
fn a_secret_version_replacement_keeps_the_previous_value() {
    let v = replace("aws_secretsmanager_secret_version");
    assert_eq!(v.impact, Impact::Replace, "{:#?}", v.explanation);
    assert!(!v.holds_data);
    assert!(says(&v, "AWSPREVIOUS"), "{:#?}", v.explanation);
}

/// Flags the provider reads only when destroying (`force_destroy`, `force_delete`,
/// `skip_destroy`, `deletion_protection`) cost nothing when they change (field set: an
/// `aws_route53_zone` whose `force_destroy` went from null to false).
#[test]
fn destroy_only_flags_are_free() {
    for (t, flag, from, to) in [
        (
            "aws_route53_zone",
            "force_destroy",
            json!(null),
            json!(false),
        ),
        ("aws_iam_user", "force_destroy", json!(false), json!(true)),
        (
            "aws_ecr_repository",
            "force_delete",
            json!(false),
            json!(true),
        ),
        ("aws_instance", "force_destroy", json!(false), json!(true)),
        (
            "aws_cloudwatch_log_group",
            "skip_destroy",
            json!(false),
            json!(true),
        ),
        (
            "aws_eks_cluster",
            "deletion_protection",
            json!(false),
            json!(true),
        ),
        (
            "google_spanner_instance",
            "force_destroy",
            json!(false),
            json!(true),
        ),
        (
            "google_secret_manager_secret",
            "deletion_protection",
            json!(true),
            json!(false),
        ),
    ] {
        let v = update(t, flag, from, to);
        assert_eq!(v.impact, Impact::Free, "{t}.{flag}: {:#?}", v.explanation);
    }
}
