//! The committed example plans (`examples/plans/*.json`), which real Terraform 1.15.5 wrote for
//! the example deployment (`scripts/gen-example-plans`), classified with the built-in packs.
//! Each scenario must get the class its hazard stands for, and the sensitive canary that every
//! one of these plans carries in clear must never reach the assessment.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use ward_classify::{assess, Assessment, Options};
use ward_model::{Action, Impact};

const CANARY: &str = "WARD-CANARY-db-admin-password";

fn plans_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans")
}

fn assessed(name: &str) -> Assessment {
    let path = plans_dir().join(format!("{name}.json"));
    let raw = std::fs::read_to_string(&path).unwrap();
    assert!(
        raw.contains(CANARY),
        "{name}.json should hold the sensitive canary in clear, or the leak check proves nothing"
    );
    let plan = ward_plan::read_file(&path).unwrap();
    let a = assess(
        &plan,
        &ward_rig::rules::knowledge().unwrap(),
        &Options::default(),
    );
    let json = serde_json::to_string(&a).unwrap();
    assert!(!json.contains(CANARY), "the canary leaked from {name}");
    assert!(!a.coverage.fails(), "{name}: {:?}", a.coverage);
    a
}

fn classes(a: &Assessment) -> BTreeMap<String, Impact> {
    a.verdicts
        .iter()
        .map(|v| (v.address.clone(), v.impact))
        .collect()
}

#[test]
fn every_committed_plan_is_classified_without_leaking() {
    let mut names: Vec<String> = std::fs::read_dir(plans_dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 10, "examples/plans holds {names:?}");
    for name in names {
        assessed(&name);
    }
}

#[test]
fn tags_only_is_free() {
    let a = assessed("tags-only");
    assert_eq!(a.max_impact(), Impact::Free);
    let c = classes(&a);
    assert_eq!(c["fakecloud_instance.web[0]"], Impact::Free);
    assert_eq!(c["fakecloud_instance.web[1]"], Impact::Free);
}

#[test]
fn a_resize_interrupts() {
    let a = assessed("restart");
    assert_eq!(classes(&a)["fakecloud_instance.db"], Impact::Interrupt);
}

#[test]
fn the_forcing_attribute_is_named_with_before_and_after() {
    let a = assessed("replace");
    let v = a
        .verdicts
        .iter()
        .find(|v| v.address == "fakecloud_instance.web[0]")
        .unwrap();
    assert_eq!(v.impact, Impact::Replace);
    assert_eq!(v.action, Action::ReplaceDeleteFirst);
    let text = v.explanation.join("\n");
    assert!(
        text.contains("`image` forces replacement")
            && text.contains("img-debian-12")
            && text.contains("img-debian-13"),
        "{text}"
    );
    let identity: Vec<String> = v.identity_changes.iter().map(|p| p.to_string()).collect();
    for attr in ["id", "ip", "mac"] {
        assert!(identity.contains(&attr.to_string()), "{identity:?}");
    }
}

#[test]
fn deleting_what_holds_data_is_data_loss() {
    let a = assessed("data-loss");
    let c = classes(&a);
    assert_eq!(c["fakecloud_volume.db_data"], Impact::DataLoss);
    assert_eq!(c["fakecloud_bucket.backups"], Impact::DataLoss);
    assert_eq!(c["fakecloud_attachment.db_data"], Impact::Replace);
}

#[test]
fn create_before_destroy_is_shown_as_such() {
    let a = assessed("create-before-destroy");
    let v = a
        .verdicts
        .iter()
        .find(|v| v.address == "fakecloud_instance.db")
        .unwrap();
    assert_eq!(v.action, Action::ReplaceCreateFirst);
    assert!(
        v.explanation
            .iter()
            .any(|l| l.contains("create_before_destroy")),
        "{:?}",
        v.explanation
    );
}

#[test]
fn the_readme_example_has_every_class() {
    let a = assessed("hazards");
    let c = classes(&a);
    assert_eq!(c["fakecloud_network.main"], Impact::Free);
    assert_eq!(c["fakecloud_bucket.logs"], Impact::Free);
    assert_eq!(c["fakecloud_instance.db"], Impact::Interrupt);
    assert_eq!(c["fakecloud_instance.web[0]"], Impact::Replace);
    assert_eq!(c["fakecloud_instance.web[1]"], Impact::Replace);
    assert_eq!(c["fakecloud_attachment.db_data"], Impact::Replace);
    assert_eq!(c["fakecloud_volume.db_data"], Impact::DataLoss);
    assert_eq!(a.max_impact(), Impact::DataLoss);
}

/// The summary line's numbers: one count per class, the classes with no change included.
#[test]
fn counts_name_every_class_zero_included() {
    let counts = assessed("hazards").counts();
    let want = [
        (Impact::None, 1),
        (Impact::Free, 2),
        (Impact::InPlace, 0),
        (Impact::Interrupt, 1),
        (Impact::Replace, 3),
        (Impact::DataLoss, 1),
    ];
    assert_eq!(counts, want.into_iter().collect::<BTreeMap<_, _>>());
}

#[test]
fn import_is_a_fact() {
    let a = assessed("import");
    let v = a
        .verdicts
        .iter()
        .find(|v| v.address == "fakecloud_bucket.archive")
        .unwrap();
    assert!(
        v.facts
            .iter()
            .any(|f| matches!(f, ward_classify::Fact::Import { .. })),
        "{:?}",
        v.facts
    );
}
