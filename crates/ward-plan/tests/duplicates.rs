//! A key repeated in one JSON object is refused wherever it is in the plan (issue 33, item 10):
//! read last-wins, `"actions": ["delete"], "actions": ["no-op"]` made a delete pass `ward gate`
//! as a no-op; read first-wins it would be the other way round. Terraform and OpenTofu never
//! write a key twice, so a plan that does was edited, and ward cannot tell which reading apply
//! would act on. Every way the reader reads a part of the plan is tried: the walked top level and
//! `prior_state`, each entry's own keys, values built, values read attribute by attribute (as
//! `ward plan` reads) and fingerprinted (as `ward gate` reads), skipped sections, context
//! sections; and a key spelled with an escape is the same key.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_plan::{read_reader, read_reader_with, PlanError, PlanErrorKind, ReadOptions};

/// A plan with one `resource_changes` entry (`change` is the entry's `change` object, as text)
/// and `extra` (text) added to the top-level object.
fn plan(change: &str, extra: &str) -> String {
    format!(
        r#"{{"format_version": "1.2", "planned_values": {{}}{extra},
  "resource_changes": [
    {{"address": "aws_ebs_volume.data", "mode": "managed", "type": "aws_ebs_volume", "name": "data",
     "provider_name": "registry.terraform.io/hashicorp/aws",
     "change": {change}}}
  ]}}"#
    )
}

fn update(before: &str, after: &str) -> String {
    format!(
        r#"{{"actions": ["update"], "before": {before}, "after": {after}, "after_unknown": {{}},
           "before_sensitive": {{}}, "after_sensitive": {{}}}}"#
    )
}

const PLAIN: &str = r#"{"size": 10, "tags": {"a": "1"}}"#;

/// Every way a caller reads: the default (fingerprints, as `ward gate`), without fingerprints
/// (sides read attribute by attribute, as `ward plan`), and collecting destroyed objects.
fn every_reading(text: &str) -> Vec<Result<ward_model::Plan, PlanError>> {
    let options = [
        ReadOptions::default(),
        ReadOptions {
            content: false,
            objects: false,
            ..ReadOptions::default()
        },
        ReadOptions {
            content: true,
            objects: true,
            ..ReadOptions::default()
        },
    ];
    let mut out = vec![read_reader(text.as_bytes(), "plan.json")];
    for o in options {
        out.push(read_reader_with(text.as_bytes(), "plan.json", o, None).map(|(p, _)| p));
    }
    out
}

/// Every reading refuses `text` as a repeated `key`, and says where.
#[track_caller]
fn refused(text: &str, key: &str, place: &str) {
    for (i, read) in every_reading(text).into_iter().enumerate() {
        let e = match read {
            Ok(_) => panic!("reading {i} accepted a repeated `{key}` ({place}):\n{text}"),
            Err(e) => e,
        };
        assert!(
            matches!(e.kind(), PlanErrorKind::DuplicateKey { .. }),
            "reading {i}: {:?}: {e}",
            e.kind()
        );
        let message = e.to_string();
        assert!(
            message.contains(&format!("key `{key}` twice")),
            "reading {i}: {message}"
        );
        assert!(message.contains(place), "reading {i}: {place}: {message}");
        assert!(message.contains("\n  help: "), "{message}");
    }
}

#[test]
fn a_change_that_repeats_its_actions_is_refused() {
    // The issue's case: a delete that a last-wins reading took for a no-op.
    let change = r#"{"actions": ["delete"], "actions": ["no-op"], "before": {"size": 10},
        "after": null, "after_unknown": {}, "before_sensitive": {}, "after_sensitive": false}"#;
    refused(&plan(change, ""), "actions", "`aws_ebs_volume.data`");
    // And the other way round.
    let change = r#"{"actions": ["no-op"], "actions": ["delete"], "before": {"size": 10},
        "after": null, "after_unknown": {}, "before_sensitive": {}, "after_sensitive": false}"#;
    refused(&plan(change, ""), "actions", "`aws_ebs_volume.data`");
}

#[test]
fn an_entry_that_repeats_one_of_its_own_keys_is_refused() {
    let text = plan(&update(PLAIN, PLAIN), "").replace(
        r#""name": "data","#,
        r#""name": "data", "address": "aws_ebs_volume.other","#,
    );
    refused(&text, "address", "byte ");
    let text = plan(&update(PLAIN, PLAIN), "").replace(
        r#""mode": "managed","#,
        r#""mode": "managed", "mode": "data","#,
    );
    refused(&text, "mode", "`aws_ebs_volume.data`");
    let text = plan(&update(PLAIN, PLAIN), "").replace(
        r#""after_unknown": {},"#,
        r#""after_unknown": {}, "after": {"size": 99},"#,
    );
    refused(&text, "after", "`aws_ebs_volume.data`");
}

#[test]
fn a_value_that_repeats_a_key_is_refused_at_any_depth_and_for_any_action() {
    let dup_top = r#"{"size": 10, "size": 20, "tags": {"a": "1"}}"#;
    let dup_deep = r#"{"size": 10, "tags": {"a": "1", "b": [{"x": 1, "x": 1}]}}"#;
    for (before, after, key) in [
        (PLAIN, dup_top, "size"),
        (dup_top, PLAIN, "size"),
        (PLAIN, dup_deep, "x"),
        // Unchanged on both sides, so never compared attribute by attribute.
        (dup_deep, dup_deep, "x"),
    ] {
        refused(
            &plan(&update(before, after), ""),
            key,
            "`aws_ebs_volume.data`",
        );
    }
    for actions in [
        r#"["create"]"#,
        r#"["delete"]"#,
        r#"["no-op"]"#,
        r#"["read"]"#,
        r#"["delete", "create"]"#,
    ] {
        let change = format!(
            r#"{{"actions": {actions}, "before": {dup_deep}, "after": {dup_deep},
               "after_unknown": {{}}, "before_sensitive": {{}}, "after_sensitive": {{}}}}"#
        );
        refused(&plan(&change, ""), "x", "`aws_ebs_volume.data`");
    }
    // In a mask.
    let change = r#"{"actions": ["update"], "before": {"a": 1}, "after": {"a": 2},
        "after_unknown": {}, "before_sensitive": {"a": true, "a": false}, "after_sensitive": {}}"#;
    refused(&plan(change, ""), "a", "`aws_ebs_volume.data`");
}

#[test]
fn a_key_spelled_with_an_escape_is_the_same_key() {
    let dup = r#"{"size": 10, "\u0073ize": 20}"#;
    refused(
        &plan(&update(PLAIN, dup), ""),
        "size",
        "`aws_ebs_volume.data`",
    );
    let change = r#"{"actions": ["delete"], "\u0061ctions": ["no-op"], "before": {"size": 10},
        "after": null, "after_unknown": {}, "before_sensitive": {}, "after_sensitive": false}"#;
    refused(&plan(change, ""), "actions", "`aws_ebs_volume.data`");
}

#[test]
fn a_repeated_key_outside_resource_changes_is_refused_too() {
    let change = update(PLAIN, PLAIN);
    for (extra, key) in [
        (r#", "format_version": "1.1""#, "format_version"),
        (r#", "zz_unknown": 1, "zz_unknown": 2"#, "zz_unknown"),
        (r#", "planned_values": {}"#, "planned_values"),
        (
            r#", "variables": {"region": {"value": "a"}, "region": {"value": "b"}}"#,
            "region",
        ),
        (
            r#", "prior_state": {"values": {"root_module": {"resources": [{"mode": "managed", "type": "t", "mode": "data"}]}}}"#,
            "mode",
        ),
        (
            r#", "prior_state": {"values": {"root_module": {}, "root_module": {}}}"#,
            "root_module",
        ),
        (
            r#", "prior_state": {"values": {"root_module": {"resources": [{"mode": "managed", "type": "t", "values": {"id": "1", "id": "2"}}]}}}"#,
            "id",
        ),
        (
            r#", "configuration": {"root_module": {"module_calls": {"m": {}, "m": {}}}}"#,
            "m",
        ),
        (
            r#", "configuration": {"provider_config": {"aws": {"name": "aws"}, "aws": {"name": "aws"}}}"#,
            "aws",
        ),
        (
            r#", "output_changes": {"o": {"actions": ["no-op"]}, "o": {"actions": ["delete"]}}"#,
            "o",
        ),
        (
            r#", "resource_drift": [{"address": "a.b", "type": "a", "change": {"actions": ["update"], "actions": ["no-op"]}}]"#,
            "actions",
        ),
    ] {
        refused(&plan(&change, extra), key, "byte ");
    }
}

#[test]
fn a_plan_without_repeated_keys_still_reads() {
    // The same names in different objects are not repeats.
    let before = r#"{"size": 10, "tags": {"size": "1"}, "list": [{"a": 1}, {"a": 1}]}"#;
    for read in every_reading(&plan(&update(before, before), "")) {
        assert_eq!(read.unwrap().changes.len(), 1);
    }
}
