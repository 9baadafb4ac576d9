//! What a change that destroys an object keeps of it (`before_scalars`): its top-level booleans
//! and strings up to `MAX_KEPT_STRING` characters, nothing `before_sensitive` marks, sorted by
//! name; the same whether the sides are parsed whole or read attribute by attribute (content
//! off); nothing for a change that destroys nothing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use ward_model::MAX_KEPT_STRING;
use ward_plan::{read_reader, read_reader_with, ReadOptions};

fn doc(actions: &[&str], before_sensitive: Value) -> Vec<u8> {
    let kept = "k".repeat(MAX_KEPT_STRING);
    let long = "l".repeat(MAX_KEPT_STRING + 1);
    let after = if actions == ["delete"] {
        Value::Null
    } else {
        json!({"name": "db2"})
    };
    serde_json::to_vec(&json!({
        "format_version": "1.2",
        "planned_values": {},
        "resource_changes": [{"address": "a.b", "type": "a", "name": "b",
            "change": {"actions": actions,
                "before": {"zone": "z1", "name": "db", "enabled": true, "off": false,
                           "size": 3, "tags": {"k": "v"}, "list": ["x"], "none": null,
                           "kept": kept, "long": long, "pw": "hunter2", "key": "k3y"},
                "after": after,
                "before_sensitive": before_sensitive,
                "after_sensitive": {}, "after_unknown": {}}}]
    }))
    .unwrap()
}

fn scalars(data: &[u8]) -> Vec<(String, Value)> {
    let plan = read_reader(data, "plan.json").unwrap();
    let off = ReadOptions {
        content: false,
        ..ReadOptions::default()
    };
    let (lazy, _) = read_reader_with(data, "plan.json", off, None).unwrap();
    assert_eq!(
        lazy.changes[0].before_scalars, plan.changes[0].before_scalars,
        "read attribute by attribute"
    );
    plan.changes[0].before_scalars.clone()
}

#[test]
fn a_destroyed_object_keeps_its_short_scalars_and_no_secret() {
    let mask = json!({"pw": true, "key": [true], "zone": false, "name": {"x": false}});
    let expected = vec![
        ("enabled".to_string(), json!(true)),
        ("kept".to_string(), json!("k".repeat(MAX_KEPT_STRING))),
        ("name".to_string(), json!("db")),
        ("off".to_string(), json!(false)),
        ("zone".to_string(), json!("z1")),
    ];
    for actions in [
        &["delete"][..],
        &["delete", "create"],
        &["create", "delete"],
    ] {
        assert_eq!(
            scalars(&doc(actions, mask.clone())),
            expected,
            "{actions:?}"
        );
    }
}

#[test]
fn nothing_is_kept_of_a_wholly_sensitive_object_or_one_that_is_not_destroyed() {
    assert!(scalars(&doc(&["delete"], json!(true))).is_empty());
    assert!(scalars(&doc(&["update"], json!({}))).is_empty());
}

/// Read without what a delete removes (`ReadOptions::removed` off), a delete's `changed` is
/// empty and nothing else of it differs; a replacement's and a create's are built as before.
#[test]
fn a_delete_read_without_what_it_removes_keeps_the_rest() {
    let mask = json!({"pw": true});
    for actions in [
        &["delete"][..],
        &["delete", "create"],
        &["create", "delete"],
    ] {
        let data = doc(actions, mask.clone());
        let plan = read_reader(data.as_slice(), "plan.json").unwrap();
        let without = ReadOptions {
            removed: false,
            ..ReadOptions::default()
        };
        let (mut light, _) = read_reader_with(data.as_slice(), "plan.json", without, None).unwrap();
        let (whole, got) = (&plan.changes[0], &mut light.changes[0]);
        assert!(!whole.changed.is_empty(), "{actions:?}");
        if actions == ["delete"] {
            assert!(got.changed.is_empty() && got.changed_left_out == 0);
            got.changed.clone_from(&whole.changed);
            got.changed_left_out = whole.changed_left_out;
        }
        assert_eq!(light, plan, "{actions:?}");
    }
}
