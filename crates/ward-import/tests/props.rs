//! Properties of the inventory reader and the writers: any bytes give an inventory or an error
//! (never a panic); valid addresses round-trip; every written import block and scratch
//! configuration is HCL that parses, whatever the ids and attribute values.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use ward_import::address::Address;
use ward_import::write::{import_blocks, scratch, Method};
use ward_import::{inventory, Budget};

fn ident() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_]{0,8}"
}

fn address() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec((ident(), proptest::option::of("[a-z0-9 .\"-]{0,6}")), 0..2),
        ident(),
        ident(),
        proptest::option::of(prop_oneof![
            (0u64..5).prop_map(|n| format!("[{n}]")),
            "[a-zA-Z0-9 ./-]{0,8}".prop_map(|k| format!("[{}]", Value::String(k))),
        ]),
    )
        .prop_map(|(mods, t, n, key)| {
            let mut s = String::new();
            for (m, k) in mods {
                s.push_str(&format!("module.{m}"));
                if let Some(k) = k {
                    s.push_str(&format!("[{}]", Value::String(k)));
                }
                s.push('.');
            }
            format!("{s}p_{t}.{n}{}", key.unwrap_or_default())
        })
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map(".{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #[test]
    fn any_bytes_are_an_inventory_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = inventory::parse(&bytes, "i", &Budget::default());
    }

    #[test]
    fn addresses_round_trip(a in address()) {
        let p = Address::parse(&a).unwrap();
        prop_assert_eq!(p.to_string(), a);
    }

    #[test]
    fn written_hcl_parses(
        entries in proptest::collection::btree_map(address(), ("x.{0,9}", proptest::collection::btree_map(ident(), value(), 0..4)), 1..6)
    ) {
        let objects: Map<String, Value> = entries
            .into_iter()
            .map(|(a, (id, attrs))| (a, json!({"id": id, "attributes": Value::Object(attrs.into_iter().collect())})))
            .collect();
        let text = json!({"objects": objects}).to_string();
        let inv = inventory::parse(text.as_bytes(), "i", &Budget::default()).unwrap();
        for m in [Method::ForEachBlocks, Method::Blocks] {
            let hcl = import_blocks(&inv, m);
            prop_assert!(ward_repo::parse_file_text("imports.tf", &hcl).is_ok(), "{}", hcl);
        }
        let (hcl, _) = scratch(&inv);
        prop_assert!(ward_repo::parse_file_text("imports.tf", &hcl).is_ok(), "{}", hcl);
    }
}
