//! The JSON report written as the plan is read (`json::Stream`): each change's record as it is
//! kept, in that order, and the summary after them; the same bytes as the report of the whole
//! verdicts in that order, whatever the order.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixtures;

use fixtures::*;
use ward_classify::outcome::{evaluate, GateOptions};
use ward_classify::{
    explain::{plain_reason_line, reason_line},
    Assessment,
};
use ward_model::{Impact, Product};
use ward_report::json::Stream;
use ward_report::{render_json, Outcome};

fn gate() -> GateOptions {
    GateOptions {
        fail_on: Some(Impact::Replace),
        allow_errored: false,
    }
}

/// Keeps the first `n` verdicts of `a` in `keep_order` (positions in `a.verdicts`) as `ward plan
/// --format json` does, and ends the report from the slim verdicts (the others whole, as the
/// reader's leftovers).
fn streamed(a: &Assessment, o: &Outcome, keep_order: &[usize], n: usize) -> String {
    let mut out = Vec::new();
    let mut stream = Stream::for_knowledge(&a.knowledge, &mut out);
    let mut slim: Vec<_> = a.verdicts.iter().cloned().map(Some).collect();
    let mut order = vec![usize::MAX; a.verdicts.len()];
    for (kept_as, &at) in keep_order.iter().take(n).enumerate() {
        let v = stream.keep(a.verdicts[at].clone());
        assert!(v.address.is_empty() && v.explanation.is_empty() && v.attributes.is_empty());
        slim[at] = Some(v);
        order[at] = kept_as;
    }
    let mut b = a.clone();
    b.verdicts = slim.into_iter().map(Option::unwrap).collect();
    // The slim verdicts give the same outcome: the summary needs nothing the stream dropped.
    assert_eq!(&evaluate(&b, &gate()), o);
    stream.finish(&b, o, &order).unwrap();
    String::from_utf8(out).unwrap()
}

/// `a` with its verdicts in `keep_order`, then those not kept.
fn reordered(a: &Assessment, keep_order: &[usize], n: usize) -> Assessment {
    let mut b = a.clone();
    let mut rest: Vec<usize> = (0..a.verdicts.len()).collect();
    rest.retain(|i| !keep_order[..n].contains(i));
    b.verdicts = keep_order[..n]
        .iter()
        .chain(&rest)
        .map(|&i| a.verdicts[i].clone())
        .collect();
    b
}

#[test]
fn same_bytes_as_the_whole_report_in_the_order_kept() {
    for (a, orders) in keeping_cases() {
        let o = evaluate(&a, &gate());
        for order in &orders {
            for n in [order.len(), order.len() / 2] {
                let want = render_json(&reordered(&a, order, n), &o);
                let got = streamed(&a, &o, order, n);
                assert_eq!(got, want);
                let value: serde_json::Value = serde_json::from_str(&got).unwrap();
                assert_eq!(value["schema_version"], 2);
                assert_eq!(value["summary"]["total"], a.verdicts.len());
            }
        }
    }
}

/// Each record is written when its verdict is kept, before the plan is read to its end: the
/// head and every kept change are in the output before `finish`.
#[test]
fn records_are_written_as_verdicts_are_kept() {
    let a = mixed();
    let mut out = Vec::new();
    let mut stream = Stream::for_knowledge(&a.knowledge, &mut out);
    for v in &a.verdicts {
        stream.keep(v.clone());
    }
    assert_eq!(stream.len(), a.verdicts.len());
    drop(stream);
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("{\n  \"schema_version\": 2,"), "{text}");
    let mut at = 0;
    for v in &a.verdicts {
        let found = text[at..]
            .find(&format!(
                "\"address\": {}",
                serde_json::to_string(&v.address).unwrap()
            ))
            .unwrap_or_else(|| panic!("{} not written before finish: {text}", v.address));
        at += found;
    }
    assert!(!text.contains("\"summary\""), "{text}");
}

#[test]
fn reason_lines_do_not_name_the_product() {
    let reason = "replace_because_cannot_update";
    let mut v = reason_verdict(reason);
    // A value that happens to read like the reason line is the plan's, and stays as it is.
    v.attributes = vec![attr(
        "description",
        known(serde_json::json!("x")),
        known(serde_json::json!(reason_line(Product::Unknown, reason))),
        Impact::Free,
        None,
    )];
    for product in [Product::OpenTofu, Product::Terraform, Product::Unknown] {
        let mut a = empty();
        a.plan.product = product;
        a.verdicts = vec![v.clone()];
        let o = evaluate(&a, &gate());
        let got = streamed(&a, &o, &[0], 1);
        // The whole report, on the verdict worded for the product, says the same.
        let mut whole = a.clone();
        whole.verdicts[0].explanation = vec![reason_line(product, reason)];
        assert_eq!(got, render_json(&whole, &o));
        let value: serde_json::Value = serde_json::from_str(&got).unwrap();
        let change = &value["changes"][0];
        assert_eq!(change["explanation"][0], plain_reason_line(reason));
        assert_eq!(
            change["attributes"][0]["after"]["value"],
            reason_line(Product::Unknown, reason)
        );
        assert!(!got.contains("OpenTofu: "), "{got}");
    }
}

/// The report of a plan with no change: `changes` is `[]`, as serde_json writes an empty array.
#[test]
fn no_change_is_an_empty_array() {
    let a = empty();
    let o = evaluate(&a, &gate());
    let got = streamed(&a, &o, &[], 0);
    assert!(got.contains("\n  \"changes\": [],\n  \"drift\": "), "{got}");
    assert_eq!(got, render_json(&a, &o));
}
