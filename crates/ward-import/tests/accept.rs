//! `ward import accept`'s decisions without Terraform: what a plan after the apply still
//! changes (`remaining`, the normal and the refresh-only plan alike) and the acceptance record.
//! Every mutant of `remaining` survived the crate's tests before (docs/testing.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use std::collections::BTreeMap;
use ward_import::accept::{record, remaining, Acceptance, KIND};
use ward_store::{RecordQuery, Store};

fn rc(address: &str, actions: &[&str]) -> Value {
    let (t, n) = address.split_once('.').unwrap();
    json!({
        "address": address, "mode": "managed", "type": t, "name": n,
        "provider_name": "registry.terraform.io/ward/fakecloud",
        "change": {"actions": actions, "before": {"id": "1"}, "after": {"id": "1"}, "after_unknown": {}}
    })
}

fn plan(v: Value) -> ward_model::Plan {
    let mut p = json!({"format_version": "1.2", "terraform_version": "1.15.5"});
    for (k, x) in v.as_object().unwrap() {
        p[k] = x.clone();
    }
    ward_plan::read_reader(p.to_string().as_bytes(), "after.json").unwrap()
}

#[test]
fn an_empty_plan_leaves_nothing() {
    let p = plan(json!({
        "resource_changes": [rc("fakecloud_network.main", &["no-op"]), rc("fakecloud_instance.web", &["read"])],
        "resource_drift": [rc("fakecloud_network.main", &["no-op"])],
        "output_changes": {"id": {"actions": ["no-op"], "before": "a", "after": "a", "after_unknown": false}}
    }));
    assert_eq!(remaining(&p), Vec::<String>::new());
}

#[test]
fn every_change_still_made_is_one_line_sorted() {
    let p = plan(json!({
        "resource_changes": [
            rc("fakecloud_network.main", &["update"]),
            rc("fakecloud_disk.a", &["no-op"]),
            rc("fakecloud_instance.web", &["create"]),
        ],
    }));
    assert_eq!(
        remaining(&p),
        [
            "fakecloud_instance.web: create",
            "fakecloud_network.main: update"
        ]
    );
}

#[test]
fn a_no_op_still_importing_is_not_done() {
    let mut c = rc("fakecloud_network.main", &["no-op"]);
    c["change"]["importing"] = json!({"id": "net-1"});
    let p = plan(json!({"resource_changes": [c, rc("fakecloud_disk.a", &["no-op"])]}));
    assert_eq!(remaining(&p), ["fakecloud_network.main: still importing"]);
}

#[test]
fn a_refresh_only_plan_is_read_from_its_drift_and_outputs() {
    let p = plan(json!({
        "resource_drift": [rc("fakecloud_network.main", &["update"]), rc("fakecloud_disk.a", &["no-op"])],
        "output_changes": {
            "id": {"actions": ["update"], "before": "a", "after": "b", "after_unknown": false},
            "same": {"actions": ["no-op"], "before": "a", "after": "a", "after_unknown": false}
        }
    }));
    assert_eq!(
        remaining(&p),
        [
            "fakecloud_network.main: drift (update)",
            "output id: update"
        ]
    );
}

#[test]
fn an_errored_plan_is_not_empty() {
    let p = plan(json!({"errored": true, "resource_changes": []}));
    assert_eq!(remaining(&p), ["the plan is errored"]);
}

#[test]
fn the_acceptance_is_recorded_under_its_kind_root_and_digest() {
    let d = tempfile::tempdir().unwrap();
    let mut store = Store::open(&d.path().join("history.db")).unwrap();
    let a = Acceptance {
        schema_version: ward_import::accept::ACCEPTANCE_VERSION,
        root: "live/net".into(),
        ids: BTreeMap::from([("fakecloud_network.main".to_string(), "net-1".to_string())]),
        plan_digest: "sha256:abc".into(),
        lineage: "l-1".into(),
        serial: 3,
        binary: "/usr/bin/terraform".into(),
        product: "terraform".into(),
        version: "1.15.5".into(),
        accepted_at: "2026-12-04T10:00:00Z".into(),
    };
    record(&mut store, &a).unwrap();
    let rows = store
        .records(&RecordQuery {
            kind: KIND,
            root: Some("live/net"),
            key: Some("sha256:abc"),
            limit: 0,
        })
        .unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].recorded_at, "2026-12-04T10:00:00Z");
    let back: Acceptance = serde_json::from_value(rows[0].body.clone()).unwrap();
    assert_eq!(back, a);
}
