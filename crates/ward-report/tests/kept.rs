//! The terminal and Markdown reports of a plan read change by change (`Keep`, `write_kept`):
//! the same bytes as the reports of the whole verdicts, whatever order the verdicts were kept in.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fixtures;

use fixtures::*;
use ward_classify::outcome::{evaluate, GateOptions};
use ward_classify::{explain::reason_line, Assessment};
use ward_model::{Action, Impact, Product};
use ward_report::{write, write_kept, Expand, Format, Keep, Outcome, RenderOptions};

fn gate() -> GateOptions {
    GateOptions {
        fail_on: Some(Impact::Replace),
        allow_errored: false,
    }
}

/// The report of the whole verdicts.
fn whole(a: &Assessment, o: &Outcome, opts: &RenderOptions) -> String {
    let mut out = Vec::new();
    write(a, o, opts, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// Keeps the verdicts of `a` in `keep_order` (positions in `a.verdicts`) and writes the report
/// from the slim verdicts, as `ward plan` does.
fn kept(a: &Assessment, o: &Outcome, opts: &RenderOptions, keep_order: &[usize]) -> String {
    let mut keep = Keep::new(opts);
    let mut slim = vec![None; a.verdicts.len()];
    let mut order = vec![0; a.verdicts.len()];
    for (kept_as, &at) in keep_order.iter().enumerate() {
        slim[at] = Some(keep.keep(a.verdicts[at].clone()));
        order[at] = kept_as;
    }
    assert_eq!(keep.len(), keep_order.len());
    let mut b = a.clone();
    b.verdicts = slim.into_iter().map(Option::unwrap).collect();
    assert!(b
        .verdicts
        .iter()
        .all(|v| v.explanation.is_empty() && v.attributes.is_empty()));
    let mut out = Vec::new();
    write_kept(&b, o, opts, &keep, &order, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn formats() -> Vec<RenderOptions> {
    let mut all = Vec::new();
    for color in [false, true] {
        all.push(RenderOptions {
            format: Format::Terminal,
            color,
            ..RenderOptions::default()
        });
    }
    for markdown_limit in [1_000, 4_000, 65_000, 1_000_000] {
        all.push(RenderOptions {
            format: Format::Markdown,
            markdown_limit,
            ..RenderOptions::default()
        });
    }
    // `--expand free,none`: every change has an entry, and the free ones list their attributes.
    for format in [Format::Terminal, Format::Markdown] {
        all.push(RenderOptions {
            format,
            expand: Expand::ALL,
            ..RenderOptions::default()
        });
    }
    all
}

#[test]
fn same_bytes_as_the_whole_verdicts_in_any_keeping_order() {
    for (a, orders) in keeping_cases() {
        let o = evaluate(&a, &gate());
        for opts in formats() {
            let want = whole(&a, &o, &opts);
            for order in &orders {
                assert_eq!(kept(&a, &o, &opts, order), want, "{opts:?}");
            }
        }
    }
}

/// The Markdown report fitted to any limit is the same from kept entries as from the whole
/// verdicts: every limit from the least to past the whole report, so that each entry's block
/// is at some limit the last one shown (a kept block the report can never show is not
/// rendered, and must weigh no more than the block would).
#[test]
fn markdown_at_every_limit_is_the_same_from_kept_entries() {
    for (a, orders) in keeping_cases() {
        let o = evaluate(&a, &gate());
        let whole_len = whole(
            &a,
            &o,
            &RenderOptions {
                format: Format::Markdown,
                markdown_limit: usize::MAX,
                ..RenderOptions::default()
            },
        )
        .chars()
        .count();
        let mut limit = ward_report::MIN_MARKDOWN_LIMIT;
        while limit <= (whole_len + 200).min(30_000) {
            let opts = RenderOptions {
                format: Format::Markdown,
                markdown_limit: limit,
                ..RenderOptions::default()
            };
            let want = whole(&a, &o, &opts);
            for order in &orders {
                assert_eq!(kept(&a, &o, &opts, order), want, "limit {limit}");
            }
            limit += 89;
        }
    }
}

#[test]
fn opentofu_reason_lines_are_reworded() {
    let reason = "replace_because_cannot_update";
    let mut v = reason_verdict(reason);
    v.explanation.insert(
        0,
        "will be replaced: destroyed first, then created again".into(),
    );
    let mut a = empty();
    a.plan.product = Product::OpenTofu;
    a.verdicts = vec![v];
    let o = evaluate(&a, &gate());
    for opts in formats() {
        let got = kept(&a, &o, &opts, &[0]);
        // What the whole report writes once the assessment is reworded for OpenTofu.
        let mut b = a.clone();
        b.verdicts[0].explanation[1] = reason_line(Product::OpenTofu, reason);
        assert_eq!(got, whole(&b, &o, &opts), "{opts:?}");
        assert!(
            got.contains("OpenTofu: replace_because_cannot_update"),
            "{got}"
        );
        assert!(!got.contains("Terraform: replace_because"), "{got}");
    }
}

/// The terminal entry's OpenTofu wording is the main one with its reason lines replaced: the
/// same bytes as rendering the reworded verdict, for a reason that must be escaped, with the
/// reason line twice, and on a free change (whose row prints no explanation).
#[test]
fn opentofu_wording_of_escaped_and_repeated_reason_lines() {
    let reason = "odd\u{1b}[31m_reason";
    for (impact, twice) in [
        (Impact::Replace, false),
        (Impact::Replace, true),
        (Impact::Free, false),
    ] {
        let mut v = reason_verdict(reason);
        v.impact = impact;
        v.explanation.insert(
            0,
            "will be replaced: destroyed first, then created again".into(),
        );
        if twice {
            v.explanation.push(reason_line(Product::Unknown, reason));
        }
        let mut a = empty();
        a.plan.product = Product::OpenTofu;
        a.verdicts = vec![v];
        let o = evaluate(&a, &gate());
        let mut b = a.clone();
        b.verdicts[0].reword_reason(Product::OpenTofu);
        for opts in formats() {
            let got = kept(&a, &o, &opts, &[0]);
            assert_eq!(got, whole(&b, &o, &opts), "{opts:?}");
            assert!(!got.contains("Terraform: odd"), "{got}");
        }
    }
}

#[test]
fn a_rule_that_decided_only_an_attribute_is_still_named() {
    let mut v = verdict(
        "aws_instance.a",
        "aws_instance",
        Action::Update,
        Impact::Interrupt,
    );
    v.attributes = vec![attr(
        "instance_type",
        known(serde_json::json!("t3.small")),
        known(serde_json::json!("t3.large")),
        Impact::Interrupt,
        Some(user_rule("aws_instance", 7, Some("instance_type"))),
    )];
    let mut a = empty();
    a.verdicts = vec![v];
    let o = evaluate(&a, &gate());
    for opts in formats() {
        let got = kept(&a, &o, &opts, &[0]);
        assert_eq!(got, whole(&a, &o, &opts), "{opts:?}");
        assert!(got.contains("rule files: "), "{got}");
    }
}

#[test]
fn markdown_keeps_about_the_limits_worth_of_entries() {
    let a = big(3_000);
    let o = evaluate(&a, &gate());
    let opts = RenderOptions {
        format: Format::Markdown,
        markdown_limit: 2_000,
        ..RenderOptions::default()
    };
    let mut keep = Keep::new(&opts);
    for v in a.verdicts.iter().rev() {
        keep.keep(v.clone());
    }
    assert_eq!(keep.len(), 3_000);
    // Brief entries are about 60 characters: 2,000 characters hold about 35 of them.
    assert!(keep.entries() < 60, "{} entries kept", keep.entries());
    let order: Vec<usize> = (0..3_000).rev().collect();
    assert_eq!(kept(&a, &o, &opts, &order), whole(&a, &o, &opts));
    // The terminal report prints every change: it keeps them all.
    let mut keep = Keep::new(&RenderOptions::default());
    for v in &a.verdicts {
        keep.keep(v.clone());
    }
    assert_eq!(keep.entries(), 3_000);
}
