//! What `ward import plan` writes, case by case.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_import::write::{import_blocks, Method};
use ward_import::{inventory, Budget};

/// A resource with one string-keyed instance gets a plain import block even where `for_each`
/// imports are possible: a `for_each` over one entry says the same in more lines.
#[test]
fn one_keyed_instance_is_one_plain_block_even_with_for_each() {
    let inv = inventory::parse(
        br#"{"objects": {"x_a.b[\"k\"]": "1"}}"#,
        "inv.json",
        &Budget::default(),
    )
    .unwrap();
    let text = import_blocks(&inv, Method::ForEachBlocks);
    assert!(!text.contains("for_each"), "{text}");
    assert!(text.contains(r#"to = x_a.b["k"]"#), "{text}");
    assert!(text.contains(r#"id = "1""#), "{text}");
    assert_eq!(text, import_blocks(&inv, Method::Blocks));
}
