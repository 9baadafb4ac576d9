//! Directional attribute rules (`decrease`, `increase`, `unbounded` in an `attribute` block):
//! a shorter retention deletes what the longer kept, a longer one loses nothing; a disk grows
//! in place and shrinks by replacement. `fixtures/directional.json` is a hand-written plan of
//! updates in both directions, to and from "never expire", unknown, sensitive and non-numeric.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_classify::{assess, Assessment, Options};
use ward_model::Impact;
use ward_rules::Knowledge;

mod common;
use common::verdict;

fn assessed(k: &Knowledge) -> Assessment {
    common::assess_fixture_with("directional.json", k)
}

#[test]
fn each_direction_costs_what_the_rule_says() {
    let a = assessed(&Knowledge::builtin().unwrap());
    for (address, class, words) in [
        ("aws_cloudwatch_log_group.shorter", Impact::DataLoss, "`retention_in_days` costs data-loss: 30 → 7 — a decrease: A shorter retention deletes the log events older than it"),
        ("aws_cloudwatch_log_group.longer", Impact::InPlace, "`retention_in_days` costs in-place: 7 → 30 — an increase: "),
        // 0 (and no value) keep events forever: to it is an increase, from it a decrease.
        ("aws_cloudwatch_log_group.to_forever", Impact::InPlace, "30 → 0 — an increase"),
        ("aws_cloudwatch_log_group.from_forever", Impact::DataLoss, "0 → 30 — a decrease"),
        ("aws_cloudwatch_log_group.from_null", Impact::DataLoss, "null → 30 — a decrease"),
        // Unknown, sensitive or not a number: the worse of the two.
        ("aws_cloudwatch_log_group.unknown", Impact::DataLoss, "direction unknown (not two comparable numbers), so the worse of a decrease (data-loss) and an increase (in-place)"),
        ("aws_cloudwatch_log_group.hidden", Impact::DataLoss, "(sensitive) → (sensitive) — direction unknown"),
        ("google_pubsub_topic.t", Impact::DataLoss, "\"600s\" → \"86400s\" — direction unknown"),
        ("aws_sqs_queue.q", Impact::InPlace, "an increase"),
        ("aws_kinesis_stream.s", Impact::DataLoss, "a decrease"),
        ("aws_db_instance.more", Impact::Interrupt, "7 → 14 — an increase"),
        // Numbers written as strings compare as numbers.
        ("aws_db_instance.fewer", Impact::DataLoss, "\"7\" → \"3\" — a decrease"),
        ("google_compute_disk.grow", Impact::InPlace, "100 → 200 — an increase"),
        // A smaller disk is a new, empty one: replace, and the disk holds data.
        ("google_compute_disk.shrink", Impact::DataLoss, "`size` costs replace: 200 → 100 — a decrease"),
    ] {
        let v = verdict(&a, address);
        assert_eq!(v.impact, class, "{address}: {:#?}", v.explanation);
        assert!(
            v.explanation.iter().any(|l| l.contains(words)),
            "{address}: `{words}` not in {:#?}",
            v.explanation
        );
    }
    // A shorter retention deletes events; it recreates nothing (only an attribute costing
    // replace on a data holder does, as the disk shrink).
    let v = verdict(&a, "aws_cloudwatch_log_group.shorter");
    assert!(
        !v.explanation.iter().any(|l| l.contains("recreates")),
        "{:#?}",
        v.explanation
    );
    let v = verdict(&a, "google_compute_disk.shrink");
    assert!(
        v.explanation
            .iter()
            .any(|l| l.contains("holds data: `size` recreates the object")),
        "{:#?}",
        v.explanation
    );
    // A sensitive value is never printed.
    let v = verdict(&a, "aws_cloudwatch_log_group.hidden");
    assert!(!v.explanation.iter().any(|l| l.contains("→ 7")));
}

/// Without `unbounded`, 0 is the smallest retention, not "never expire": the same plan costs
/// the move to 0 as a decrease. The data decides, not a match arm.
#[test]
fn unbounded_values_come_from_the_rule() {
    let mut k = Knowledge::builtin().unwrap();
    k.load_user_str(
        "ward.hcl",
        r#"
resource "aws_cloudwatch_log_group" {
  attribute "retention_in_days" {
    decrease = "data-loss"
    increase = "free"
  }
}
"#,
    )
    .unwrap();
    let a = assessed(&k);
    assert_eq!(
        verdict(&a, "aws_cloudwatch_log_group.to_forever").impact,
        Impact::DataLoss
    );
    assert_eq!(
        verdict(&a, "aws_cloudwatch_log_group.from_forever").impact,
        Impact::Free
    );
    assert_eq!(
        verdict(&a, "aws_cloudwatch_log_group.longer").impact,
        Impact::Free
    );
    // null is not a number and not unbounded here: the worse.
    assert_eq!(
        verdict(&a, "aws_cloudwatch_log_group.from_null").impact,
        Impact::DataLoss
    );
}

/// Volume sizes and retentions of the curated packs (#31 item 3), each in both directions:
/// a larger volume grows in place, a smaller one is refused or replaced (a data holder's
/// replacement loses its data); a longer retention loses nothing, a shorter one deletes what
/// is older than it. `fixtures/directional_sizes.json` updates each attribute both ways.
#[test]
fn volume_sizes_and_retentions_cost_by_direction() {
    let path = format!(
        "{}/tests/fixtures/directional_sizes.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let plan = ward_plan::read_file(std::path::Path::new(&path)).unwrap();
    let a = assess(&plan, &Knowledge::builtin().unwrap(), &Options::default());
    assert!(a.coverage.unclassified.is_empty(), "{:?}", a.coverage);
    use Impact::{DataLoss, InPlace, Interrupt, Replace};
    for (address, class, attribute) in [
        ("aws_ebs_volume.grow", InPlace, "size"),
        ("aws_ebs_volume.shrink", DataLoss, "size"),
        ("aws_db_instance.grow", InPlace, "allocated_storage"),
        ("aws_db_instance.shrink", DataLoss, "allocated_storage"),
        ("aws_rds_cluster.grow", InPlace, "allocated_storage"),
        ("aws_rds_cluster.shrink", DataLoss, "allocated_storage"),
        (
            "aws_instance.grow",
            InPlace,
            "root_block_device[0].volume_size",
        ),
        (
            "aws_instance.shrink",
            Replace,
            "root_block_device[0].volume_size",
        ),
        (
            "google_sql_database_instance.grow",
            InPlace,
            "settings[0].disk_size",
        ),
        (
            "google_sql_database_instance.shrink",
            DataLoss,
            "settings[0].disk_size",
        ),
        ("google_compute_region_disk.grow", InPlace, "size"),
        ("google_compute_region_disk.shrink", DataLoss, "size"),
        (
            "azurerm_postgresql_flexible_server.grow",
            InPlace,
            "storage_mb",
        ),
        (
            "azurerm_postgresql_flexible_server.shrink",
            DataLoss,
            "storage_mb",
        ),
        (
            "azurerm_mysql_flexible_server.grow",
            InPlace,
            "storage[0].size_gb",
        ),
        (
            "azurerm_mysql_flexible_server.shrink",
            DataLoss,
            "storage[0].size_gb",
        ),
        (
            "azurerm_linux_virtual_machine.grow",
            Interrupt,
            "os_disk[0].disk_size_gb",
        ),
        (
            "azurerm_linux_virtual_machine.shrink",
            Replace,
            "os_disk[0].disk_size_gb",
        ),
        ("hcloud_volume.grow", InPlace, "size"),
        ("hcloud_volume.shrink", DataLoss, "size"),
        (
            "aws_msk_cluster.grow",
            InPlace,
            "broker_node_group_info[0].storage_info[0].ebs_storage_info[0].volume_size",
        ),
        (
            "aws_msk_cluster.shrink",
            DataLoss,
            "broker_node_group_info[0].storage_info[0].ebs_storage_info[0].volume_size",
        ),
        (
            "aws_fsx_lustre_file_system.grow",
            InPlace,
            "storage_capacity",
        ),
        (
            "aws_fsx_lustre_file_system.shrink",
            DataLoss,
            "storage_capacity",
        ),
        // Quantities compare as sizes: 500Gi < 1Ti.
        (
            "kubernetes_persistent_volume_claim_v1.grow",
            InPlace,
            "spec[0].resources[0].requests.storage",
        ),
        (
            "kubernetes_persistent_volume_claim_v1.shrink",
            DataLoss,
            "spec[0].resources[0].requests.storage",
        ),
        (
            "google_filestore_instance.grow",
            InPlace,
            "file_shares[0].capacity_gb",
        ),
        (
            "google_filestore_instance.shrink",
            DataLoss,
            "file_shares[0].capacity_gb",
        ),
        (
            "azurerm_linux_virtual_machine_scale_set.grow",
            Interrupt,
            "os_disk[0].disk_size_gb",
        ),
        (
            "azurerm_linux_virtual_machine_scale_set.shrink",
            Replace,
            "os_disk[0].disk_size_gb",
        ),
        (
            "azurerm_linux_web_app.longer",
            InPlace,
            "backup[0].schedule[0].retention_period_days",
        ),
        (
            "azurerm_linux_web_app.shorter",
            DataLoss,
            "backup[0].schedule[0].retention_period_days",
        ),
        // 0 keeps the exported data forever: to it is longer, from it shorter.
        (
            "azurerm_monitor_diagnostic_setting.longer",
            InPlace,
            "metric[0].retention_policy[0].days",
        ),
        (
            "azurerm_monitor_diagnostic_setting.shorter",
            DataLoss,
            "metric[0].retention_policy[0].days",
        ),
        (
            "aws_db_instance.longer",
            InPlace,
            "performance_insights_retention_period",
        ),
        (
            "aws_db_instance.shorter",
            DataLoss,
            "performance_insights_retention_period",
        ),
        (
            "google_sql_database_instance.longer",
            InPlace,
            "settings[0].backup_configuration[0].transaction_log_retention_days",
        ),
        (
            "google_sql_database_instance.shorter",
            DataLoss,
            "settings[0].backup_configuration[0].transaction_log_retention_days",
        ),
        (
            "google_storage_bucket.longer",
            InPlace,
            "soft_delete_policy[0].retention_duration_seconds",
        ),
        (
            "google_storage_bucket.shorter",
            DataLoss,
            "soft_delete_policy[0].retention_duration_seconds",
        ),
        (
            "azurerm_storage_account.longer",
            InPlace,
            "blob_properties[0].delete_retention_policy[0].days",
        ),
        (
            "azurerm_storage_account.shorter",
            DataLoss,
            "blob_properties[0].delete_retention_policy[0].days",
        ),
        (
            "azurerm_backup_policy_vm.longer",
            InPlace,
            "retention_daily[0].count",
        ),
        (
            "azurerm_backup_policy_vm.shorter",
            DataLoss,
            "retention_daily[0].count",
        ),
        (
            "azurerm_cosmosdb_account.longer",
            InPlace,
            "backup[0].retention_in_hours",
        ),
        (
            "azurerm_cosmosdb_account.shorter",
            DataLoss,
            "backup[0].retention_in_hours",
        ),
        (
            "cloudflare_queue.longer",
            InPlace,
            "settings[0].message_retention_period",
        ),
        (
            "cloudflare_queue.shorter",
            DataLoss,
            "settings[0].message_retention_period",
        ),
    ] {
        let v = verdict(&a, address);
        assert_eq!(v.impact, class, "{address}: {:#?}", v.explanation);
        let moved = if address.ends_with(".grow") || address.ends_with(".longer") {
            "an increase"
        } else {
            "a decrease"
        };
        assert!(
            v.explanation
                .iter()
                .any(|l| l.contains(&format!("`{attribute}` costs")) && l.contains(moved)),
            "{address}: `{attribute}` … {moved} not in {:#?}",
            v.explanation
        );
    }
}
