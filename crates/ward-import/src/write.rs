//! What `ward import plan` writes: import blocks (Terraform and OpenTofu ≥ 1.5; `for_each`
//! imports from 1.7), or `terraform import` commands for older versions, and an optional
//! normalised scratch configuration (nulls stripped, keys sorted, formatted) for the operator to
//! edit into the model. HCL is built with ward-repo's tree types and printed by its
//! formatter (`ward_repo::write`, the owner of writing Terraform files); nothing is pasted
//! together as text.

use crate::address::{Address, Key};
use crate::inventory::{Entry, Inventory};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use ward_repo::write::{attr, Block, Body, Expression, Ident};
use ward_version::Version;

pub use ward_terraform::Product;

/// How the imports are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// `import { for_each = ... }` blocks where several instances of one resource are imported
    /// (string keys), single blocks elsewhere (≥ 1.7).
    ForEachBlocks,
    /// One `import { }` block per object (1.5 and 1.6).
    Blocks,
    /// `terraform import ADDRESS ID` commands (before 1.5: no import blocks).
    Commands,
}

/// The method the product and version support, best first.
pub fn method_for(_product: Product, version: &Version) -> Method {
    // Import blocks arrived in Terraform 1.5 and OpenTofu 1.5 (forked at 1.5.x), `for_each` in
    // import blocks in Terraform 1.7 and OpenTofu 1.7: the same thresholds for both.
    if *version >= Version::new(1, 7, 0) {
        Method::ForEachBlocks
    } else if *version >= Version::new(1, 5, 0) {
        Method::Blocks
    } else {
        Method::Commands
    }
}

// Only ever called on addresses that [`Address::parse`] accepted and on fixed text, which are
// valid HCL expressions; a string stands in for anything else so output stays valid.
use ward_repo::write::expression as expr;

/// The import blocks for every entry, formatted (an `imports.tf`).
pub fn import_blocks(inv: &Inventory, method: Method) -> String {
    let mut body = Body::new();
    let mut groups: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for e in &inv.entries {
        let r = e.address.resource();
        if !groups.contains_key(&r) {
            order.push(r.clone());
        }
        groups.entry(r).or_default().push(e);
    }
    order.sort();
    for r in order {
        let Some(es) = groups.get(&r) else { continue };
        let string_keys = es
            .iter()
            .all(|e| matches!(e.address.key, Some(Key::Str(_))));
        if method == Method::ForEachBlocks && es.len() > 1 && string_keys {
            let mut sorted: Vec<&&Entry> = es.iter().collect();
            sorted.sort_by(|a, b| a.address.key.cmp(&b.address.key));
            let map =
                ward_repo::write::object(sorted.into_iter().filter_map(|e| match &e.address.key {
                    Some(Key::Str(k)) => Some((k.clone(), ward_repo::write::string(&e.id))),
                    _ => None,
                }));
            let to = es
                .first()
                .map_or_else(|| r.clone(), |e| e.address.resource_hcl());
            body.push(
                Block::builder(Ident::new("import"))
                    .attribute(attr("for_each", map))
                    .attribute(attr("to", expr(&format!("{to}[each.key]"))))
                    .attribute(attr("id", expr("each.value")))
                    .build(),
            );
            continue;
        }
        let mut sorted = es.clone();
        sorted.sort_by(|a, b| a.address.key.cmp(&b.address.key));
        for e in sorted {
            body.push(
                Block::builder(Ident::new("import"))
                    .attribute(attr("to", expr(&e.address.to_hcl())))
                    .attribute(attr("id", ward_repo::write::string(&e.id)))
                    .build(),
            );
        }
    }
    let text = ward_repo::write::format(&body);
    format!("# Written by `ward import plan`: one import per inventory object.\n\n{text}")
}

/// The import commands, one argv per object, sorted by address (the caller quotes them for a
/// shell).
pub fn commands(inv: &Inventory, product: Product) -> Vec<Vec<String>> {
    let mut v: Vec<(&Address, &str)> = inv
        .entries
        .iter()
        .map(|e| (&e.address, e.id.as_str()))
        .collect();
    v.sort();
    v.into_iter()
        .map(|(a, id)| {
            vec![
                product.command().to_string(),
                "import".to_string(),
                a.to_string(),
                id.to_string(),
            ]
        })
        .collect()
}

/// What the scratch configuration left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The address.
    pub address: String,
    /// Why.
    pub why: String,
}

/// A value with every null removed (in objects: the key; in arrays: the element), keys sorted.
pub fn strip_nulls(v: &Value) -> Option<Value> {
    match v {
        Value::Null => None,
        Value::Array(a) => Some(Value::Array(a.iter().filter_map(strip_nulls).collect())),
        Value::Object(m) => {
            let sorted: BTreeMap<&String, Value> = m
                .iter()
                .filter_map(|(k, v)| strip_nulls(v).map(|v| (k, v)))
                .collect();
            Some(Value::Object(
                sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect(),
            ))
        }
        other => Some(other.clone()),
    }
}

/// The scratch configuration: one `resource` block per root-module resource with attributes in
/// the inventory, the attributes sorted with nulls and the computed `id` removed. Resources
/// with several instances become one block with `for_each` over their instances' attributes.
/// Entries in modules, and count instances, are skipped (listed in the second value): their
/// blocks belong in the module's own files.
pub fn scratch(inv: &Inventory) -> (String, Vec<Skipped>) {
    let mut skipped = Vec::new();
    let mut groups: BTreeMap<(String, String), Vec<&Entry>> = BTreeMap::new();
    for e in &inv.entries {
        let a = &e.address;
        if e.attributes.is_none() {
            continue;
        }
        if !a.modules.is_empty() {
            skipped.push(Skipped {
                address: a.to_string(),
                why: "in a module: write it in the module's files".into(),
            });
            continue;
        }
        if matches!(a.key, Some(Key::Index(_))) {
            skipped.push(Skipped {
                address: a.to_string(),
                why: "a count instance: model it with count by hand".into(),
            });
            continue;
        }
        groups
            .entry((a.type_name.clone(), a.name.clone()))
            .or_default()
            .push(e);
    }
    let attrs = |e: &Entry| -> BTreeMap<String, Value> {
        e.attributes
            .iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != "id")
            .filter_map(|(k, v)| strip_nulls(v).map(|v| (k.clone(), v)))
            .collect()
    };
    let mut body = Body::new();
    for ((t, n), es) in groups {
        let mut b = Block::builder(Ident::new("resource")).label(t).label(n);
        if let [e] = es.as_slice() {
            if e.address.key.is_none() {
                for (k, v) in attrs(e) {
                    b = b.attribute(attr(&k, ward_repo::write::json(&v)));
                }
                body.push(b.build());
                continue;
            }
        }
        // for_each instances (or a keyless one beside keyed ones, which Terraform refuses:
        // written anyway for the operator to see and fix).
        let mut each: Vec<(String, Expression)> = Vec::new();
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        let mut sorted = es.clone();
        sorted.sort_by(|a, b| a.address.key.cmp(&b.address.key));
        for e in sorted {
            let key = match &e.address.key {
                Some(Key::Str(s)) => s.clone(),
                _ => String::new(),
            };
            let a = attrs(e);
            for k in a.keys() {
                *names.entry(k.clone()).or_default() += 1;
            }
            let obj: serde_json::Map<String, Value> = a.into_iter().collect();
            each.push((key, ward_repo::write::json(&Value::Object(obj))));
        }
        b = b.attribute(attr("for_each", ward_repo::write::object(each)));
        // An attribute every instance has is `each.value.NAME`; one only some have is looked up
        // with a null default (Terraform's way to say "not set").
        for (k, n) in names {
            let e = if n == es.len() && ward_repo::write::is_identifier(&k) && !k.contains('-') {
                format!("each.value.{k}")
            } else {
                format!("lookup(each.value, {}, null)", Value::String(k.clone()))
            };
            b = b.attribute(attr(&k, expr(&e)));
        }
        body.push(b.build());
    }
    let text = ward_repo::write::format(&body);
    (
        format!("# Scratch configuration written by `ward import plan` from the inventory's attributes\n# (nulls and `id` removed, keys sorted). Edit it into the model; it is not the model.\n\n{text}"),
        skipped,
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::inventory::{parse, Budget};

    fn inv(s: &str) -> Inventory {
        parse(s.as_bytes(), "i", &Budget::default()).unwrap()
    }

    #[test]
    fn method_by_version() {
        let v = |s: &str| Version::parse(s).unwrap();
        assert_eq!(
            method_for(Product::Terraform, &v("1.0.3")),
            Method::Commands
        );
        assert_eq!(
            method_for(Product::Terraform, &v("1.4.7")),
            Method::Commands
        );
        assert_eq!(method_for(Product::Terraform, &v("1.5.0")), Method::Blocks);
        assert_eq!(method_for(Product::Tofu, &v("1.6.2")), Method::Blocks);
        assert_eq!(
            method_for(Product::Terraform, &v("1.15.5")),
            Method::ForEachBlocks
        );
    }

    const INV: &str = r#"{"objects": {
        "fakecloud_network.main": {"id": "net-1", "attributes": {"name": "main", "cidr": "10.0.0.0/16", "tags": null, "id": "net-1"}},
        "fakecloud_instance.web[\"b\"]": {"id": "i-2", "attributes": {"name": "b", "image": "debian-12", "tags": {"z": "1", "a": null}}},
        "fakecloud_instance.web[\"a\"]": {"id": "i-1", "attributes": {"name": "a", "image": "debian-12"}},
        "module.m.fakecloud_volume.v": {"id": "vol-1", "attributes": {"name": "v"}},
        "fakecloud_volume.c[0]": "vol-2"
    }}"#;

    #[test]
    fn blocks_with_and_without_for_each() {
        let i = inv(INV);
        insta::assert_snapshot!("for_each_blocks", import_blocks(&i, Method::ForEachBlocks));
        insta::assert_snapshot!("single_blocks", import_blocks(&i, Method::Blocks));
    }

    #[test]
    fn commands_are_argv_sorted() {
        let c = commands(&inv(INV), Product::Tofu);
        assert_eq!(c.len(), 5);
        assert_eq!(
            c[0],
            ["tofu", "import", "fakecloud_instance.web[\"a\"]", "i-1"]
        );
    }

    #[test]
    fn scratch_strips_nulls_and_sorts() {
        let (text, skipped) = scratch(&inv(INV));
        assert!(
            !text.contains("null,") && !text.contains("= null"),
            "{text}"
        );
        insta::assert_snapshot!("scratch", text);
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].address, "module.m.fakecloud_volume.v");
        // The written configuration parses.
        assert!(
            ward_repo::parse_file_text("scratch.tf", &text).is_ok(),
            "{text}"
        );
    }

    /// Keys holding `${` or `%{` (in the instance key, a module key, or a for_each key) are
    /// written so that HCL reads them literally: Terraform refused the unescaped `to`.
    #[test]
    fn template_markers_in_keys_are_escaped_in_import_blocks() {
        let inventory = inv(r#"{"objects": {
                "x_a.b[\"${evil}\"]": {"id": "1"},
                "module.m[\"%{k}\"].x_a.c[\"plain\"]": {"id": "2"},
                "x_a.d[\"${one}\"]": {"id": "3"},
                "x_a.d[\"two\"]": {"id": "4"}
            }}"#);
        for method in [Method::Blocks, Method::ForEachBlocks] {
            let text = import_blocks(&inventory, method);
            assert!(!text.contains("\"${"), "{text}");
            assert!(!text.contains("\"%{"), "{text}");
            assert!(
                ward_repo::parse_file_text("imports.tf", &text).is_ok(),
                "{text}"
            );
        }
        let text = import_blocks(&inventory, Method::Blocks);
        assert!(text.contains(r#"to = x_a.b["$${evil}"]"#), "{text}");
        assert!(
            text.contains(r#"to = module.m["%%{k}"].x_a.c["plain"]"#),
            "{text}"
        );
        // The command form keeps Terraform's own address syntax.
        let cmds = commands(&inventory, Product::Terraform);
        assert!(
            cmds.iter().any(|c| c[2] == r#"x_a.b["${evil}"]"#),
            "{cmds:?}"
        );
    }

    #[test]
    fn strings_with_template_markers_stay_literal() {
        let (text, _) = scratch(&inv(
            r#"{"objects": {"x_a.b": {"id": "1", "attributes": {"s": "${evil} %{x} \"q\""}}}}"#,
        ));
        assert!(text.contains(r#"s = "$${evil} %%{x} \"q\"""#), "{text}");
    }
}
