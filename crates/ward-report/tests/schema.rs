//! Every JSON report validates against docs/report.schema.json.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fixtures;

use fixtures::*;
use ward_classify::outcome::{evaluate, GateOptions};
use ward_model::Impact;
use ward_report::render_json;

fn schema() -> jsonschema::Validator {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/report.schema.json");
    let text = std::fs::read_to_string(path).expect("docs/report.schema.json exists");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft202012::new(&schema).expect("the schema is a valid JSON Schema")
}

#[test]
fn reports_match_the_documented_schema() {
    let v = schema();
    let gates = [
        GateOptions::default(),
        GateOptions {
            fail_on: Some(Impact::Replace),
            allow_errored: false,
        },
        GateOptions {
            fail_on: Some(Impact::None),
            allow_errored: true,
        },
    ];
    for a in [mixed(), empty(), errored_relaxed(), big(60)] {
        for g in &gates {
            let o = evaluate(&a, g);
            let json: serde_json::Value = serde_json::from_str(&render_json(&a, &o)).unwrap();
            let errors: Vec<String> = v
                .iter_errors(&json)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{errors:#?}");
        }
    }
}

#[test]
fn the_schema_rejects_what_it_should() {
    let v = schema();
    let a = mixed();
    let o = evaluate(&a, &GateOptions::default());
    let good: serde_json::Value = serde_json::from_str(&render_json(&a, &o)).unwrap();
    assert!(v.is_valid(&good));
    // An undocumented field.
    let mut bad = good.clone();
    bad["surprise"] = serde_json::json!(1);
    assert!(!v.is_valid(&bad));
    // A sensitive value that carries a value.
    let mut bad = good.clone();
    bad["changes"][0]["attributes"] = serde_json::json!([{
        "path": "password", "impact": "in-place", "forces_replacement": false, "rule": null, "why": null,
        "before": {"kind": "sensitive", "value": "leaked"}, "after": {"kind": "absent"}
    }]);
    assert!(!v.is_valid(&bad));
    // Another schema version.
    let mut bad = good;
    bad["schema_version"] = serde_json::json!(1);
    assert!(!v.is_valid(&bad));
}
