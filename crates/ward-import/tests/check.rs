//! `ward import check` on plans written as Terraform writes them (read through ward-plan): one
//! plan per way an adoption goes wrong, and the ones that pass.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use ward_import::check::{ManagedIds, ProblemKind, Status};
use ward_import::{check, inventory, Budget, CheckInput, CheckReport};

const INV: &str = r#"{"objects": {
  "fakecloud_network.main": "net-1",
  "fakecloud_instance.web[\"a\"]": "i-a",
  "fakecloud_instance.web[\"b\"]": "i-b"
}}"#;

fn change(
    address: &str,
    actions: &[&str],
    before: Value,
    after: Value,
    import: Option<&str>,
) -> Value {
    let (head, key) = match address.find('[') {
        Some(i) => (&address[..i], Some(&address[i..])),
        None => (address, None),
    };
    let (t, n) = head.split_once('.').unwrap();
    let mut c = json!({
        "address": address, "mode": "managed", "type": t, "name": n,
        "provider_name": "registry.terraform.io/ward/fakecloud",
        "change": {"actions": actions, "before": before, "after": after, "after_unknown": {}}
    });
    if let Some(k) = key {
        c["index"] = serde_json::from_str(&k[1..k.len() - 1]).unwrap();
    }
    if let Some(id) = import {
        c["change"]["importing"] = json!({"id": id});
    }
    c
}

fn import(address: &str, id: &str) -> Value {
    let o = json!({"id": id, "name": "x"});
    change(address, &["no-op"], o.clone(), o, Some(id))
}

fn run(changes: Vec<Value>, inv: &str, others: &[ManagedIds]) -> CheckReport {
    let plan = json!({"format_version": "1.2", "terraform_version": "1.15.5", "resource_changes": changes});
    let plan = ward_plan::read_reader(plan.to_string().as_bytes(), "plan.json").unwrap();
    let inv = inventory::parse(inv.as_bytes(), "inv.json", &Budget::default()).unwrap();
    check(&CheckInput {
        plan: &plan,
        plan_name: "plan.json",
        inventory: &inv,
        inventory_name: "inv.json",
        plan_digest: "sha256:0",
        others,
    })
}

fn kinds(r: &CheckReport) -> Vec<(String, ProblemKind, Vec<String>)> {
    r.problems
        .iter()
        .map(|p| (p.address.clone(), p.kind, p.attributes.clone()))
        .collect()
}

fn good() -> Vec<Value> {
    vec![
        import("fakecloud_network.main", "net-1"),
        import("fakecloud_instance.web[\"a\"]", "i-a"),
        import("fakecloud_instance.web[\"b\"]", "i-b"),
    ]
}

#[test]
fn imports_only_pass() {
    let r = run(good(), INV, &[]);
    assert!(r.passed, "{:?}", r.problems);
    assert!(r.objects.iter().all(|o| o.status == Status::Import));
}

#[test]
fn objects_already_in_state_pass_after_import_commands() {
    // Terraform before 1.5: `terraform import` wrote the state; the plan has no-ops only.
    let mut v = good();
    for c in &mut v {
        c["change"].as_object_mut().unwrap().remove("importing");
    }
    let r = run(v, INV, &[]);
    assert!(r.passed, "{:?}", r.problems);
    assert!(r.objects.iter().all(|o| o.status == Status::InState));
}

#[test]
fn a_replacement_names_the_forcing_attribute() {
    let mut v = good();
    v[2] = change(
        "fakecloud_instance.web[\"b\"]",
        &["delete", "create"],
        json!({"id": "i-b", "image": "debian-13"}),
        json!({"id": null, "image": "debian-12"}),
        Some("i-b"),
    );
    v[2]["change"]["after_unknown"] = json!({"id": true});
    v[2]["change"]["replace_paths"] = json!([["image"]]);
    let r = run(v, INV, &[]);
    assert!(!r.passed);
    assert_eq!(
        kinds(&r),
        [(
            "fakecloud_instance.web[\"b\"]".into(),
            ProblemKind::Replace,
            vec!["image".into()]
        )]
    );
    assert!(r.problems[0].help.contains("import id"));
}

#[test]
fn an_update_is_refused_unless_allowed() {
    let mut v = good();
    v[1] = change(
        "fakecloud_instance.web[\"a\"]",
        &["update"],
        json!({"id": "i-a", "tags": {"role": "old"}}),
        json!({"id": "i-a", "tags": {"role": "web"}}),
        Some("i-a"),
    );
    let r = run(v.clone(), INV, &[]);
    assert_eq!(
        kinds(&r),
        [(
            "fakecloud_instance.web[\"a\"]".into(),
            ProblemKind::Update,
            vec!["tags.role".into()]
        )]
    );
    let allowed = INV.replacen(
        "}}",
        "}, \"allow\": [{\"address\": \"fakecloud_instance.web[\\\"a\\\"]\", \"attribute\": \"tags\", \"reason\": \"normalised\"}]}",
        1,
    );
    let r = run(v, &allowed, &[]);
    assert!(r.passed, "{:?}", r.problems);
    assert_eq!(r.objects[0].status, Status::ImportAllowedUpdate);
    assert_eq!(r.objects[0].allowed, ["tags.role: normalised"]);
}

#[test]
fn missing_extra_mismatched_and_created_objects_are_refused() {
    let mut v = good();
    v.remove(0); // the network is not imported
    v[0] = import("fakecloud_instance.web[\"a\"]", "i-zzz"); // wrong id
    v.push(import("fakecloud_volume.data", "vol-1")); // not in the inventory
    v.push(change(
        "fakecloud_bucket.logs",
        &["create"],
        Value::Null,
        json!({"name": "logs"}),
        None,
    ));
    v.push(change(
        "fakecloud_volume.old",
        &["delete"],
        json!({"id": "vol-0"}),
        Value::Null,
        None,
    ));
    let r = run(v, INV, &[]);
    assert_eq!(
        kinds(&r),
        [
            ("fakecloud_bucket.logs".into(), ProblemKind::Create, vec![]),
            (
                "fakecloud_instance.web[\"a\"]".into(),
                ProblemKind::IdMismatch,
                vec![]
            ),
            (
                "fakecloud_network.main".into(),
                ProblemKind::Missing,
                vec![]
            ),
            ("fakecloud_volume.data".into(), ProblemKind::Extra, vec![]),
            ("fakecloud_volume.old".into(), ProblemKind::Delete, vec![]),
        ]
    );
}

#[test]
fn one_id_twice_is_refused_in_the_plan_and_in_the_inventory() {
    let mut v = good();
    v[2] = import("fakecloud_instance.web[\"b\"]", "i-a");
    let inv = INV.replace("\"i-b\"", "\"i-a\"");
    let r = run(v, &inv, &[]);
    let k = kinds(&r);
    assert_eq!(k.len(), 2, "{k:?}");
    assert!(k
        .iter()
        .all(|(_, kind, _)| *kind == ProblemKind::DuplicateId));
    // In the inventory alone (the plan imports different ids).
    let r = run(good(), &inv, &[]);
    assert!(kinds(&r)
        .iter()
        .any(|(_, k, _)| *k == ProblemKind::DuplicateId));
}

#[test]
fn an_id_another_root_manages_is_refused() {
    let mut other = ManagedIds {
        root: "network".into(),
        ..ManagedIds::default()
    };
    other.ids.insert(
        ("fakecloud_network".into(), "net-1".into()),
        "fakecloud_network.core".into(),
    );
    let r = run(good(), INV, &[other]);
    assert_eq!(
        kinds(&r),
        [(
            "fakecloud_network.main".into(),
            ProblemKind::ManagedElsewhere,
            vec![]
        )]
    );
    assert!(r.problems[0].message.contains("root \"network\""));
}

#[test]
fn an_errored_plan_is_refused() {
    let plan = json!({"format_version": "1.2", "errored": true, "resource_changes": good()});
    let plan = ward_plan::read_reader(plan.to_string().as_bytes(), "plan.json").unwrap();
    let inv = inventory::parse(INV.as_bytes(), "inv.json", &Budget::default()).unwrap();
    let r = check(&CheckInput {
        plan: &plan,
        plan_name: "p",
        inventory: &inv,
        inventory_name: "i",
        plan_digest: "d",
        others: &[],
    });
    assert_eq!(r.problems[0].kind, ProblemKind::ErroredPlan);
}
