//! What `ward gate` refuses in a root being adopted: every managed change that is neither inert
//! nor an import (an import that updates in place is an import; one that replaces is not).
//! The mutants of `refusals` and `is_refused` survived the crate's tests (docs/testing.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use ward_import::adoption::{imports_anything, is_refused, refusal_line, refusals};

fn rc(address: &str, mode: &str, actions: &[&str], import: bool) -> Value {
    let (t, n) = address.trim_start_matches("data.").split_once('.').unwrap();
    let mut c = json!({
        "address": address, "mode": mode, "type": t, "name": n,
        "provider_name": "registry.terraform.io/ward/fakecloud",
        "change": {"actions": actions, "before": {"id": "1"}, "after": {"id": "1"}, "after_unknown": {}}
    });
    if import {
        c["change"]["importing"] = json!({"id": "1"});
    }
    c
}

fn plan(changes: Vec<Value>) -> ward_model::Plan {
    let p = json!({"format_version": "1.2", "terraform_version": "1.15.5", "resource_changes": changes});
    ward_plan::read_reader(p.to_string().as_bytes(), "plan.json").unwrap()
}

#[test]
fn only_changes_that_are_neither_inert_nor_imports_are_refused() {
    let p = plan(vec![
        rc("fakecloud_a.noop", "managed", &["no-op"], false),
        rc("fakecloud_a.create", "managed", &["create"], false),
        rc("fakecloud_a.update", "managed", &["update"], false),
        rc("fakecloud_a.delete", "managed", &["delete"], false),
        rc("fakecloud_a.imported", "managed", &["no-op"], true),
        rc("fakecloud_a.imported_updated", "managed", &["update"], true),
        rc(
            "fakecloud_a.imported_replaced",
            "managed",
            &["delete", "create"],
            true,
        ),
        rc("data.fakecloud_a.read", "data", &["read"], false),
        rc("data.fakecloud_a.created", "data", &["create"], false),
    ]);
    assert_eq!(
        refusals(&p),
        [
            "fakecloud_a.create (create)",
            "fakecloud_a.update (update)",
            "fakecloud_a.delete (delete)",
            "fakecloud_a.imported_replaced (delete,create)",
        ]
    );
    let refused: Vec<&str> = p
        .changes
        .iter()
        .filter(|c| is_refused(c))
        .map(|c| c.address.as_str())
        .collect();
    assert_eq!(
        refused,
        [
            "fakecloud_a.create",
            "fakecloud_a.update",
            "fakecloud_a.delete",
            "fakecloud_a.imported_replaced"
        ]
    );
    assert!(imports_anything(&p));
}

#[test]
fn a_plan_of_imports_only_is_refused_nothing() {
    let p = plan(vec![
        rc("fakecloud_a.one", "managed", &["no-op"], true),
        rc("fakecloud_a.two", "managed", &["update"], true),
    ]);
    assert_eq!(refusals(&p), Vec::<String>::new());
    let q = plan(vec![rc("fakecloud_a.one", "managed", &["no-op"], false)]);
    assert!(!imports_anything(&q));
    assert_eq!(
        refusal_line("x.y", ward_model::Action::Delete),
        "x.y (delete)"
    );
    // Its exact length, so that boxing it does not reallocate (the gate boxes one a change).
    let line = refusal_line(
        "module.m[\"é\"].x.y",
        ward_model::Action::ReplaceCreateFirst,
    );
    assert_eq!(line, "module.m[\"é\"].x.y (create,delete)");
    assert_eq!(line.capacity(), line.len());
}
