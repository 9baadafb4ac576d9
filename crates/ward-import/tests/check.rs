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

/// [`INV`] with an allowance for `fakecloud_instance.web["a"]`'s `tags`.
fn tags_of_web_a_allowed() -> String {
    INV.replacen(
        "}}",
        "}, \"allow\": [{\"address\": \"fakecloud_instance.web[\\\"a\\\"]\", \"attribute\": \"tags\", \"reason\": \"normalised\"}]}",
        1,
    )
}

/// `fakecloud_instance.web["a"]`'s tag `role` updated in place (`import`: imported too).
fn retag_web_a(import: Option<&str>) -> Value {
    change(
        "fakecloud_instance.web[\"a\"]",
        &["update"],
        json!({"id": "i-a", "tags": {"role": "old"}}),
        json!({"id": "i-a", "tags": {"role": "web"}}),
        import,
    )
}

/// Another root, `network`, that manages `fakecloud_network` id `net-1`.
fn network_root() -> ManagedIds {
    let mut other = ManagedIds {
        root: "network".into(),
        ..ManagedIds::default()
    };
    other.ids.insert(
        ("fakecloud_network".into(), "net-1".into()),
        "fakecloud_network.core".into(),
    );
    other
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
    v[1] = retag_web_a(Some("i-a"));
    let r = run(v.clone(), INV, &[]);
    assert_eq!(
        kinds(&r),
        [(
            "fakecloud_instance.web[\"a\"]".into(),
            ProblemKind::Update,
            vec!["tags.role".into()]
        )]
    );
    let allowed = tags_of_web_a_allowed();
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
    let other = network_root();
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

/// The report's `ids` (what `ward import accept` compares the state with): every inventory
/// object's address and id, whatever the plan did with it.
#[test]
fn the_report_gives_every_inventory_objects_id_by_address() {
    let mut changes = good();
    changes.pop();
    let r = run(changes, INV, &[]);
    assert!(!r.passed);
    let ids: Vec<(String, String)> = r.ids().into_iter().collect();
    assert_eq!(
        ids,
        [
            (
                "fakecloud_instance.web[\"a\"]".to_string(),
                "i-a".to_string()
            ),
            (
                "fakecloud_instance.web[\"b\"]".to_string(),
                "i-b".to_string()
            ),
            ("fakecloud_network.main".to_string(), "net-1".to_string()),
        ]
    );
}

/// An in-place update of an object already in state (no import) is a managed change, refused as
/// such even when an allowance names its attribute: allowances are for imports only.
#[test]
fn an_update_without_an_import_is_refused_even_when_an_allowance_names_it() {
    let mut v = good();
    v[1] = retag_web_a(None);
    let allowed = tags_of_web_a_allowed();
    for inv in [INV, allowed.as_str()] {
        let r = run(v.clone(), inv, &[]);
        assert!(!r.passed);
        assert_eq!(
            kinds(&r),
            [(
                "fakecloud_instance.web[\"a\"]".into(),
                ProblemKind::NotImport,
                vec!["tags.role".into()]
            )]
        );
        assert_eq!(r.objects[0].status, Status::Refused, "{:?}", r.objects);
        assert!(r.objects[0].allowed.is_empty(), "{:?}", r.objects);
    }
}

/// An object whose import is fine in itself but that has a problem (here: another root manages
/// its id) is `refused`; an object the plan does not mention stays `missing`, not `refused`.
#[test]
fn an_object_with_a_problem_is_refused_and_a_missing_one_stays_missing() {
    let other = network_root();
    let mut v = good();
    v.remove(2); // web["b"] is not in the plan
    let r = run(v, INV, &[other]);
    let status: Vec<(&str, &Status)> = r
        .objects
        .iter()
        .map(|o| (o.address.as_str(), &o.status))
        .collect();
    assert_eq!(
        status,
        [
            ("fakecloud_instance.web[\"a\"]", &Status::Import),
            ("fakecloud_instance.web[\"b\"]", &Status::Missing),
            ("fakecloud_network.main", &Status::Refused),
        ]
    );
}
