//! The spilled JSON report (`json::Spill`, `json::write_spilled`) writes the same bytes as the
//! in-memory one, whatever order the verdicts were kept in.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fixtures;

use fixtures::*;
use ward_classify::{explain::reason_line, Assessment};
use ward_model::{Impact, Product};
use ward_report::json::{write_spilled, Spill};
use ward_report::{evaluate, render_json, GateOptions, Outcome};

fn gate() -> GateOptions {
    GateOptions {
        fail_on: Some(Impact::Replace),
        allow_errored: false,
    }
}

/// Keeps the verdicts of `a` in `keep_order` (positions in `a.verdicts`) and writes the report
/// from the light verdicts, as `ward plan --format json` does.
fn spilled(a: &Assessment, o: &Outcome, keep_order: &[usize]) -> String {
    let mut spill = Spill::new();
    let mut light = vec![None; a.verdicts.len()];
    let mut order = vec![0; a.verdicts.len()];
    for (kept_as, &at) in keep_order.iter().enumerate() {
        light[at] = Some(spill.keep(a.verdicts[at].clone()));
        order[at] = kept_as;
    }
    let mut b = a.clone();
    b.verdicts = light.into_iter().map(Option::unwrap).collect();
    assert!(b.verdicts.iter().all(|v| v.explanation.is_empty()));
    let mut out = Vec::new();
    write_spilled(&b, o, spill, &order, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn same_bytes_as_in_memory_in_any_keeping_order() {
    for (a, orders) in keeping_cases() {
        let o = evaluate(&a, &gate());
        let want = render_json(&a, &o);
        for order in &orders {
            assert_eq!(spilled(&a, &o, order), want);
        }
    }
}

#[test]
fn opentofu_reason_lines_are_reworded() {
    let reason = "replace_because_cannot_update";
    let mut v = reason_verdict(reason);
    // A value that happens to read like the reason line is the plan's, and stays as it is (the
    // spilled JSON used to be reworded by replacing text, values included).
    v.attributes = vec![attr(
        "description",
        known(serde_json::json!("x")),
        known(serde_json::json!(reason_line(Product::Unknown, reason))),
        Impact::Free,
        None,
    )];
    let mut a = empty();
    a.plan.product = Product::OpenTofu;
    a.verdicts = vec![v.clone()];
    let o = evaluate(&a, &gate());
    let got = spilled(&a, &o, &[0]);
    // What the in-memory report writes once the assessment is reworded for OpenTofu.
    a.verdicts[0].explanation = vec![reason_line(Product::OpenTofu, reason)];
    assert_eq!(got, render_json(&a, &o));
    assert!(
        got.contains("OpenTofu: replace_because_cannot_update"),
        "{got}"
    );
}
