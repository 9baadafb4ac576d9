//! Inventories read within their budget (bytes, objects, depth), at each limit and one past it,
//! and what a refusal says.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_import::inventory::{parse, read_file, Inventory, InventoryError};
use ward_import::Budget;

const INV: &str = r#"{"objects": {"fakecloud_network.main": "net-1"}}"#;

/// An inventory of `len` bytes: [`INV`] padded with spaces (JSON whitespace).
fn inventory_of(len: usize) -> Vec<u8> {
    let mut bytes = INV.as_bytes().to_vec();
    bytes.resize(len, b' ');
    bytes
}

/// A file of exactly the budget is read whole; one byte more is refused, naming the budget.
#[test]
fn a_file_is_read_up_to_its_budget_and_refused_past_it() {
    let dir = tempfile::tempdir().unwrap();
    let budget = Budget {
        max_bytes: 1 << 20,
        ..Budget::default()
    };
    let at = dir.path().join("at-budget.json");
    std::fs::write(&at, inventory_of(1 << 20)).unwrap();
    let inv = read_file(&at, &budget).unwrap();
    assert_eq!(inv.entries.len(), 1);
    assert_eq!(inv.entries[0].address.to_string(), "fakecloud_network.main");
    assert_eq!(inv.entries[0].id, "net-1");

    let past = dir.path().join("past-budget.json");
    std::fs::write(&past, inventory_of((1 << 20) + 1)).unwrap();
    let e = read_file(&past, &budget).unwrap_err();
    assert_eq!(e.file, past.display().to_string());
    assert_eq!(e.message, "the inventory is larger than 1 MiB");
}

/// A file that cannot be opened is an error naming it and saying which flag gives it.
#[test]
fn a_missing_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nowhere.json");
    let e = read_file(&path, &Budget::default()).unwrap_err();
    assert_eq!(e.file, path.display().to_string());
    assert!(e.message.starts_with("cannot read the inventory: "), "{e}");
    assert!(e.help.contains("--inventory"), "{e}");
}

fn within(text: &str, budget: &Budget) -> Result<Inventory, InventoryError> {
    parse(text.as_bytes(), "inv.json", budget)
}

/// As many objects as the budget allows are read; one more is refused.
#[test]
fn the_object_budget_is_the_most_objects_read() {
    let budget = Budget {
        max_objects: 2,
        ..Budget::default()
    };
    let two = r#"{"objects": {"x_a.b": "1", "x_a.c": "2"}}"#;
    assert_eq!(within(two, &budget).unwrap().entries.len(), 2);
    let three = r#"{"objects": {"x_a.b": "1", "x_a.c": "2", "x_a.d": "3"}}"#;
    let e = within(three, &budget).unwrap_err();
    assert_eq!(
        e.message,
        "the inventory holds 3 objects, more than the 2 allowed"
    );
}

/// An attribute nested as deep as the budget is read, one level deeper is refused, for objects
/// as for arrays (the attribute's value is the first level).
#[test]
fn the_depth_budget_counts_objects_and_arrays() {
    let budget = Budget {
        max_depth: 3,
        ..Budget::default()
    };
    let inventory = |value: &str| {
        format!(r#"{{"objects": {{"x_a.b": {{"id": "1", "attributes": {{"a": {value}}}}}}}}}"#)
    };
    for ok in [r#"{"b": {"c": 1}}"#, "[[1]]", r#"[{"c": 1}]"#] {
        let inv = within(&inventory(ok), &budget).unwrap_or_else(|e| panic!("{ok}: {e}"));
        assert_eq!(inv.entries.len(), 1);
    }
    for deep in [
        r#"{"b": {"c": {"d": 1}}}"#,
        "[[[1]]]",
        r#"{"b": [{"d": 1}]}"#,
    ] {
        let e = within(&inventory(deep), &budget).unwrap_err();
        assert_eq!(
            e.message, "objects: `x_a.b`: attribute `a` is nested deeper than 3 levels",
            "{deep}"
        );
    }
}

/// An address listed twice (here once as written, once with its key spelled with an escape)
/// is refused naming both entries, counted from 1.
#[test]
fn an_address_listed_twice_names_both_entries() {
    let text = r#"{"objects": {"x_a.z": "0", "x_a.b[\"k\"]": "1", "x_a.c": "2", "x_a.b[\"\u006b\"]": "3"}}"#;
    let e = within(text, &Budget::default()).unwrap_err();
    assert_eq!(
        e.message,
        "objects: `x_a.b[\"k\"]` is listed twice (entries 2 and 4)"
    );
}

/// `objects` that is not a JSON object is refused saying what it must be.
#[test]
fn objects_that_are_not_a_map_say_what_is_expected() {
    for text in [r#"{"objects": [1]}"#, r#"{"objects": "x_a.b"}"#] {
        let e = within(text, &Budget::default()).unwrap_err();
        assert!(
            e.message
                .contains("expected an object mapping addresses to import ids"),
            "{text}: {e}"
        );
    }
}
