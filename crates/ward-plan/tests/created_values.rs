//! What a create sets and what a delete removes (`ResourceChange::changed` for a whole object):
//! its leaves, bounded, with how many were left out; a sensitive value never kept, an unknown
//! one said; the same model whether the reader fingerprints the content or not.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use ward_model::{ResourceChange, Shown, MAX_OBJECT_ATTRIBUTES};
use ward_plan::{read_reader_with, ReadOptions};

fn read(change: Value) -> Vec<ResourceChange> {
    let data = serde_json::to_vec(&json!({
        "format_version": "1.2",
        "resource_changes": [
            {"address": "a.x", "type": "a", "name": "x", "change": change}
        ]
    }))
    .unwrap();
    let mut models = Vec::new();
    for content in [false, true] {
        let options = ReadOptions {
            content,
            ..ReadOptions::default()
        };
        let (plan, _) = read_reader_with(&data[..], "plan.json", options, None).unwrap();
        let mut c = plan.changes.into_iter().next().unwrap();
        c.content = None;
        models.push(c);
    }
    assert_eq!(
        models[0], models[1],
        "the model does not depend on the fingerprint"
    );
    models
}

fn listed(c: &ResourceChange) -> Vec<(String, Shown, Shown)> {
    c.changed
        .iter()
        .map(|a| (a.path.to_string(), a.before.clone(), a.after.clone()))
        .collect()
}

#[test]
fn a_create_lists_what_it_sets_never_a_secret() {
    let after = json!({
        "name": "org-policy",
        "policy_data": "{\"bindings\":[]}",
        "password": "hunter2",
        "tags": {"team": "infra", "empty": {}},
        "ingress": [{"from_port": 22, "cidrs": ["10.0.0.0/8"]}],
        "zones": ["a", "b"],
        "nothing": null,
        "none": [],
        "id": null
    });
    let c = read(json!({
        "actions": ["create"], "before": null, "after": after,
        "after_unknown": {"id": true, "arn": true},
        "before_sensitive": false, "after_sensitive": {"password": true}
    }))
    .remove(0);
    let known = |v: Value| Shown::Known(v);
    assert_eq!(
        listed(&c),
        vec![
            ("arn".into(), Shown::Absent, Shown::Unknown),
            ("id".into(), Shown::Absent, Shown::Unknown),
            (
                "ingress[0].cidrs".into(),
                Shown::Absent,
                known(json!(["10.0.0.0/8"]))
            ),
            (
                "ingress[0].from_port".into(),
                Shown::Absent,
                known(json!(22))
            ),
            ("name".into(), Shown::Absent, known(json!("org-policy"))),
            ("password".into(), Shown::Absent, Shown::Sensitive),
            (
                "policy_data".into(),
                Shown::Absent,
                known(json!("{\"bindings\":[]}"))
            ),
            ("tags.team".into(), Shown::Absent, known(json!("infra"))),
            ("zones".into(), Shown::Absent, known(json!(["a", "b"]))),
        ]
    );
    assert_eq!(c.changed_left_out, 0);
    let text = format!("{:?}", c.changed);
    assert!(!text.contains("hunter2"), "{text}");
}

#[test]
fn a_delete_lists_what_it_removes() {
    let c = read(json!({
        "actions": ["delete"], "before": {"name": "db", "secret": {"k": "v"}}, "after": null,
        "after_unknown": {}, "before_sensitive": {"secret": true}, "after_sensitive": false
    }))
    .remove(0);
    assert_eq!(
        listed(&c),
        vec![
            ("name".into(), Shown::Known(json!("db")), Shown::Absent),
            ("secret".into(), Shown::Sensitive, Shown::Absent),
        ]
    );
    // A wholly sensitive object: one entry, its shape untold.
    let c = read(json!({
        "actions": ["delete"], "before": {"a": 1, "b": 2}, "after": null,
        "before_sensitive": true
    }))
    .remove(0);
    assert_eq!(
        listed(&c),
        vec![("".into(), Shown::Sensitive, Shown::Absent)]
    );
}

/// A whole object of thousands of attributes keeps the bound and counts the rest.
#[test]
fn a_whole_object_is_bounded_and_says_how_much_was_left_out() {
    let n = MAX_OBJECT_ATTRIBUTES + 37;
    let after: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("k{i:04}"), json!(i))).collect();
    for actions in [json!(["create"]), json!(["delete"])] {
        let (before, after) = if actions == json!(["create"]) {
            (Value::Null, Value::Object(after.clone()))
        } else {
            (Value::Object(after.clone()), Value::Null)
        };
        let c = read(json!({"actions": actions, "before": before, "after": after})).remove(0);
        assert_eq!(c.changed.len(), MAX_OBJECT_ATTRIBUTES, "{actions}");
        assert_eq!(c.changed_left_out, 37, "{actions}");
        assert_eq!(c.changed[0].path.to_string(), "k0000");
    }
}
