//! `resource_drift` is context: what cannot be read in it is skipped entry by entry, each
//! named by its address or its place in the list, and the reader notes count and list them;
//! an entry without `address` gets it rebuilt from its parts.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use ward_plan::{fuzzing, read_reader, read_reader_with, ReadOptions};

fn read_drift(entries: Value) -> ward_model::Plan {
    let text = json!({
        "format_version": "1.2",
        "planned_values": {},
        "resource_changes": [],
        "resource_drift": entries
    })
    .to_string();
    let plan = read_reader(text.as_bytes(), "plan.json").unwrap();
    // The whole-document reference reads drift through its own visitor: the same answer.
    assert_eq!(fuzzing::read_whole(text.as_bytes()).unwrap(), plan);
    plan
}

fn entry(address: Option<&str>, extra: Value) -> Value {
    let mut e = json!({"type": "fake_thing", "name": "a",
        "change": {"actions": ["update"], "before": {"n": 1}, "after": {"n": 2},
                   "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}}});
    if let Some(a) = address {
        e["address"] = json!(a);
    }
    for (k, v) in extra.as_object().unwrap() {
        e[k] = v.clone();
    }
    e
}

#[test]
fn skipped_entries_are_named_by_their_place_in_the_list() {
    let plan = read_drift(json!([
        entry(Some("fake_thing.a"), json!({})),
        [],
        {"change": {"actions": ["update"]}},
        [],
    ]));
    assert_eq!(plan.drift.len(), 1);
    let notes = plan.reader_notes.join("\n");
    assert!(
        notes.contains("skipped 1 entry that could not be read (no `address`, and no `type` and `name` to rebuild it from): `entry 3`;"),
        "{notes}"
    );
    assert!(notes.contains("`entry 2`, `entry 4`;"), "{notes}");
    assert!(notes.contains("skipped 2 entries"), "{notes}");
}

#[test]
fn past_five_skipped_entries_the_note_counts_the_rest() {
    let plan = read_drift(json!([[], [], [], [], [], [], []]));
    assert_eq!(plan.reader_notes.len(), 1, "{:?}", plan.reader_notes);
    let note = &plan.reader_notes[0];
    assert!(
        note.starts_with("resource_drift: skipped 7 entries"),
        "{note}"
    );
    assert!(
        note.contains(": `entry 1`, `entry 2`, `entry 3`, `entry 4`, `entry 5` and 2 more;"),
        "{note}"
    );
    let plan = read_drift(json!([[], [], [], [], []]));
    let note = &plan.reader_notes[0];
    assert!(
        note.contains(": `entry 1`, `entry 2`, `entry 3`, `entry 4`, `entry 5`; they"),
        "{note}"
    );
}

#[test]
fn an_address_is_rebuilt_from_module_mode_type_name_and_index() {
    let plan = read_drift(json!([
        entry(None, json!({"module_address": "module.m", "index": 0})),
        entry(None, json!({"mode": "data", "index": "k"})),
        entry(None, json!({"mode": "ephemeral", "module_address": ""})),
        entry(None, json!({"mode": "managed", "index": null})),
    ]));
    let addresses: Vec<&str> = plan.drift.iter().map(|c| c.address.as_str()).collect();
    assert_eq!(
        addresses,
        [
            "module.m.fake_thing.a[0]",
            "data.fake_thing.a[\"k\"]",
            "ephemeral.fake_thing.a",
            "fake_thing.a",
        ]
    );
    let note = &plan.reader_notes[0];
    assert!(
        note.starts_with("resource_drift: 4 entries had no `address`"),
        "{note}"
    );
    let plan = read_drift(json!([entry(None, json!({}))]));
    assert!(
        plan.reader_notes[0].starts_with("resource_drift: 1 entry had no `address`"),
        "{:?}",
        plan.reader_notes
    );
    // An index that is neither a number nor a string cannot be rebuilt: the entry is skipped.
    let plan = read_drift(json!([entry(None, json!({"index": [1]}))]));
    assert!(plan.drift.is_empty());
    assert!(
        plan.reader_notes[0].contains("no `address`, and no `type` and `name`"),
        "{:?}",
        plan.reader_notes
    );
}

#[test]
fn drift_entries_are_fingerprinted_unless_content_is_off() {
    let plan = read_drift(json!([entry(Some("fake_thing.a"), json!({}))]));
    assert!(plan.drift[0].content.is_some());
    let text = json!({"format_version": "1.2", "planned_values": {},
                      "resource_drift": [entry(Some("fake_thing.a"), json!({}))]})
    .to_string();
    let off = ReadOptions {
        content: false,
        ..ReadOptions::default()
    };
    let (plan, _) = read_reader_with(text.as_bytes(), "plan.json", off, None).unwrap();
    assert_eq!(plan.drift.len(), 1);
    assert!(plan.drift[0].content.is_none());
}

#[test]
fn an_entry_without_a_required_field_is_skipped_naming_the_field() {
    let plan = read_drift(json!([
        {"address": "a.no_type", "change": {"actions": ["update"]}},
        {"address": "a.no_change", "type": "a"},
        {"address": "a.no_actions", "type": "a", "change": {}},
        entry(Some("fake_thing.a"), json!({})),
    ]));
    assert_eq!(plan.drift.len(), 1);
    let notes = plan.reader_notes.join("\n");
    for (field, address) in [
        ("type", "a.no_type"),
        ("change", "a.no_change"),
        ("change.actions", "a.no_actions"),
    ] {
        assert!(
            notes.contains(&format!(
                "skipped 1 entry that could not be read (missing field `{field}`): `{address}`;"
            )),
            "{notes}"
        );
    }
}
