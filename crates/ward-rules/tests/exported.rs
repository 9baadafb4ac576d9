//! What `ward rules show --format json` exports of the `overwrites` block and of directional
//! attribute entries: the serde shape of [`ward_rules::Rule`].
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use ward_rules::Knowledge;

fn shown(type_name: &str) -> Value {
    let k = Knowledge::builtin().unwrap();
    serde_json::to_value(k.show(type_name).unwrap()).unwrap()
}

#[test]
fn the_overwrites_block_is_exported() {
    let v = shown("google_organization_iam_policy");
    let o = &v["rules"][0]["overwrites"];
    assert_eq!(o["impact"], "interrupt");
    assert_eq!(
        o["what"],
        "replaces the whole IAM policy of the organization"
    );
    assert_eq!(o["target"], json!(["org_id"]));
    assert!(o["why"]
        .as_str()
        .unwrap()
        .contains("not listed here is removed"));
    assert!(o["line"].as_u64().unwrap() > 0);
    // A type that overwrites nothing has no key at all.
    assert!(shown("google_compute_instance")["rules"][0]
        .get("overwrites")
        .is_none());
}

#[test]
fn a_directional_entry_is_exported_with_both_costs() {
    let v = shown("aws_cloudwatch_log_group");
    let attrs = v["rules"][0]["attributes"].as_array().unwrap();
    let a = attrs
        .iter()
        .find(|a| a["pattern"] == "retention_in_days")
        .unwrap();
    assert_eq!(a["decrease"], "data-loss");
    assert_eq!(a["increase"], "in-place");
    assert_eq!(a["unbounded"], json!([0, null]));
    // `impact` stays: what an unknown direction costs, the worse of the two.
    assert_eq!(a["impact"], "data-loss");
    // A plain entry has neither.
    let plain = attrs.iter().find(|a| a.get("decrease").is_none());
    assert!(plain.is_some_and(|a| a.get("increase").is_none()));
}

/// docs/authoritative.md lists every type a built-in pack marks with `overwrites`, with its
/// pack and class, and no other.
#[test]
fn docs_authoritative_md_lists_every_type_that_overwrites() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/authoritative.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let k = Knowledge::builtin_whole().unwrap();
    let mut marked = 0;
    for t in k.types() {
        for r in &t.rules {
            let (Some(o), ward_rules::RuleOrigin::Pack { name, .. }) = (&r.overwrites, &r.origin)
            else {
                continue;
            };
            marked += 1;
            let row = format!("| `{}` | {name} | `{}` |", t.type_name, o.impact);
            assert!(doc.contains(&row), "docs/authoritative.md lacks `{row}`");
        }
    }
    let rows = doc.lines().filter(|l| l.starts_with("| `")).count();
    assert_eq!(
        rows, marked,
        "docs/authoritative.md has rows for types no pack marks"
    );
    assert!(marked >= 25);
}
