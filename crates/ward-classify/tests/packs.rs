//! The built-in provider packs, end to end: hand-written `show -json` plans (format 1.2) in
//! `tests/fixtures/packs/`, read by ward-plan and assessed with the built-in knowledge.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use ward_classify::{assess, Assessment, Options, Verdict};
use ward_model::Impact;
use ward_rules::Knowledge;

fn run(fixture: &str) -> Assessment {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/packs")
        .join(fixture);
    let plan = ward_plan::read_file(&path).unwrap_or_else(|e| panic!("{fixture}: {e}"));
    let knowledge = Knowledge::builtin().expect("built-in packs load");
    let a = assess(&plan, &knowledge, &Options::default());
    assert!(
        a.coverage.unclassified.is_empty(),
        "{fixture}: unclassified types {:?}",
        a.coverage.unclassified
    );
    a
}

fn verdict<'a>(a: &'a Assessment, address: &str) -> &'a Verdict {
    a.verdicts
        .iter()
        .find(|v| v.address == address)
        .unwrap_or_else(|| panic!("no verdict for {address}"))
}

/// The verdict's impact, and the attribute pattern of the pack rule that decided it.
fn decided(v: &Verdict) -> (Impact, Option<String>) {
    let rule = v.decided_by.as_ref().map(|r| r.to_string());
    (v.impact, rule)
}

#[test]
fn aws_instance_type_change_interrupts() {
    let a = run("aws_instance_type.json");
    let v = verdict(&a, "aws_instance.web");
    assert_eq!(v.impact, Impact::Interrupt, "{:#?}", v.explanation);
    let (_, rule) = decided(v);
    let rule = rule.expect("a rule decided it");
    assert!(
        rule.starts_with("aws@") && rule.ends_with(":aws_instance[instance_type]"),
        "{rule}"
    );
}

#[test]
fn aws_db_engine_major_upgrade_interrupts() {
    let a = run("aws_db_engine_major.json");
    let v = verdict(&a, "aws_db_instance.orders");
    assert_eq!(v.impact, Impact::Interrupt, "{:#?}", v.explanation);
    let rule = decided(v).1.expect("a rule decided it");
    assert!(rule.ends_with(":aws_db_instance[engine_version]"), "{rule}");
}

#[test]
fn aws_db_replacement_is_data_loss() {
    let a = run("aws_db_replace.json");
    let v = verdict(&a, "aws_db_instance.orders");
    assert_eq!(v.impact, Impact::DataLoss, "{:#?}", v.explanation);
    assert!(v.holds_data);
}

#[test]
fn aws_s3_bucket_delete_is_data_loss() {
    let a = run("aws_s3_bucket_delete.json");
    let v = verdict(&a, "aws_s3_bucket.invoices");
    assert_eq!(v.impact, Impact::DataLoss, "{:#?}", v.explanation);
}

#[test]
fn google_machine_type_change_interrupts() {
    let a = run("google_machine_type.json");
    let v = verdict(&a, "google_compute_instance.api");
    assert_eq!(v.impact, Impact::Interrupt, "{:#?}", v.explanation);
    let rule = decided(v).1.expect("a rule decided it");
    assert!(
        rule.ends_with(":google_compute_instance[machine_type]"),
        "{rule}"
    );
}

#[test]
fn libvirt_memory_change_replaces_the_domain_with_a_new_mac() {
    let a = run("libvirt_memory.json");
    let v = verdict(&a, "libvirt_domain.vm1");
    assert_eq!(v.impact, Impact::Replace, "{:#?}", v.explanation);
    assert!(!v.holds_data, "the domain's disks are separate volumes");
    let ids: Vec<String> = v.identity_changes.iter().map(|p| p.to_string()).collect();
    assert!(
        ids.iter()
            .any(|p| p.contains("network_interface") && p.contains("mac")),
        "the MAC address is reported as a lost identity: {ids:?}"
    );
}

#[test]
fn kubernetes_deployment_image_change_is_a_rolling_update() {
    let a = run("kubernetes_image.json");
    let v = verdict(&a, "kubernetes_deployment.web");
    assert_eq!(v.impact, Impact::InPlace, "{:#?}", v.explanation);
    let rule = decided(v).1.expect("a rule decided it");
    assert!(
        rule.ends_with(":kubernetes_deployment[spec.template.spec.container.image]"),
        "{rule}"
    );
}

#[test]
fn tags_and_labels_only_changes_are_free_everywhere() {
    let a = run("tags_only.json");
    assert!(a.verdicts.len() >= 9, "{} verdicts", a.verdicts.len());
    for v in &a.verdicts {
        assert_eq!(
            v.impact,
            Impact::Free,
            "{}: {:?} ({:#?})",
            v.address,
            v.impact,
            v.explanation
        );
    }
}

#[test]
fn reports_name_the_pack_version() {
    let a = run("aws_instance_type.json");
    let aws = a
        .knowledge
        .packs
        .iter()
        .find(|p| p.name == "aws")
        .expect("the aws pack is listed");
    assert!(!aws.version.is_empty());
    let json = serde_json::to_string(&a).unwrap();
    assert!(
        json.contains(&format!("\"version\":\"{}\"", aws.version)),
        "{json}"
    );
}
