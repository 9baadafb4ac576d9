//! With the content fingerprint off (as `ward plan` reads), an update's or replacement's sides
//! are read attribute by attribute where they can be; the model must be the one the whole
//! parse gives, less the fingerprint, for every shape of side and mask. And only an update or
//! a replacement gets per-attribute changes: for any other action the whole object is the
//! change.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use ward_model::Shown;
use ward_plan::{read_reader, read_reader_with, ReadOptions};

fn doc(changes: Vec<Value>) -> Vec<u8> {
    let entries: Vec<Value> = changes
        .into_iter()
        .enumerate()
        .map(|(i, change)| {
            json!({"address": format!("a.n{i}"), "type": "a", "name": format!("n{i}"), "change": change})
        })
        .collect();
    serde_json::to_vec(&json!({
        "format_version": "1.2",
        "planned_values": {},
        "resource_changes": entries
    }))
    .unwrap()
}

fn update(before: Value, after: Value, unknown: Value, bs: Value, as_: Value) -> Value {
    json!({"actions": ["update"], "before": before, "after": after, "after_unknown": unknown,
           "before_sensitive": bs, "after_sensitive": as_})
}

#[test]
fn reading_attribute_by_attribute_gives_the_same_model() {
    let b = json!({"size": 1, "pw": "old", "tags": {"k": "v"}, "same": [1]});
    let a = json!({"size": 2, "pw": "new", "tags": {"k": "w"}, "same": [1], "id": null});
    let changes = vec![
        update(b.clone(), a.clone(), json!({}), json!({}), json!({})),
        update(
            b.clone(),
            a.clone(),
            json!({"id": true}),
            json!({"pw": true}),
            json!({"pw": true}),
        ),
        // A whole side sensitive, or the whole after unknown: compared whole, at the top.
        update(b.clone(), a.clone(), json!({}), json!(true), json!({})),
        update(b.clone(), a.clone(), json!({}), json!({}), json!(true)),
        update(b.clone(), Value::Null, json!(true), json!({}), json!({})),
        update(b.clone(), a.clone(), json!(true), json!({}), json!({})),
        // Sides that are not both objects.
        update(
            json!([1, 2]),
            json!([1, 3]),
            json!({}),
            json!({}),
            json!({}),
        ),
        update(json!("s"), json!({"k": 1}), json!({}), json!({}), json!({})),
        update(b.clone(), json!(null), json!({}), json!({}), json!({})),
        json!({"actions": ["delete", "create"], "before": b.clone(), "after": a.clone(),
               "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}}),
        json!({"actions": ["delete"], "before": b.clone(), "after": null,
               "before_sensitive": {"pw": true}}),
        json!({"actions": ["delete"], "before": "not an object", "after": null}),
        json!({"actions": ["create"], "before": null, "after": a.clone(), "after_unknown": {}}),
    ];
    let data = doc(changes);
    let mut whole = read_reader(&data[..], "plan.json").unwrap();
    for c in &mut whole.changes {
        c.content = None;
    }
    let off = ReadOptions {
        content: false,
        ..ReadOptions::default()
    };
    let (lazy, _) = read_reader_with(&data[..], "plan.json", off, None).unwrap();
    for (l, w) in lazy.changes.iter().zip(&whole.changes) {
        assert_eq!(l, w, "{}", w.address);
    }
    assert_eq!(lazy, whole);
    let paths = |i: usize| -> Vec<String> {
        whole.changes[i]
            .changed
            .iter()
            .map(|c| c.path.to_string())
            .collect()
    };
    assert_eq!(paths(0), ["pw", "size", "tags.k"]);
    assert_eq!(paths(2), [""]);
    assert_eq!(paths(3), [""]);
    assert_eq!(paths(4), [""]);
    assert_eq!(paths(5), [""]);
}

#[test]
fn updates_and_replacements_get_a_diff_creates_and_deletes_their_whole_object() {
    let b = json!({"size": 1});
    let a = json!({"size": 2});
    let side = |actions: Value| {
        json!({"actions": actions, "before": b.clone(), "after": a.clone(),
               "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}})
    };
    let data = doc(vec![
        side(json!(["update"])),
        side(json!(["delete", "create"])),
        side(json!(["create", "delete"])),
        side(json!(["create"])),
        side(json!(["delete"])),
        side(json!(["read"])),
        side(json!(["no-op"])),
        side(json!(["forget"])),
    ]);
    for options in [
        ReadOptions::default(),
        ReadOptions {
            content: false,
            ..ReadOptions::default()
        },
    ] {
        let (plan, _) = read_reader_with(&data[..], "plan.json", options.clone(), None).unwrap();
        let counts: Vec<usize> = plan.changes.iter().map(|c| c.changed.len()).collect();
        assert_eq!(counts, [1, 1, 1, 1, 1, 0, 0, 0], "{options:?}");
        // What the create sets and what the delete removes, not a diff of the two sides.
        let one = |i: usize| {
            let c = &plan.changes[i].changed[0];
            (c.path.to_string(), c.before.clone(), c.after.clone())
        };
        assert_eq!(
            one(3),
            ("size".into(), Shown::Absent, Shown::Known(json!(2)))
        );
        assert_eq!(
            one(4),
            ("size".into(), Shown::Known(json!(1)), Shown::Absent)
        );
    }
}
