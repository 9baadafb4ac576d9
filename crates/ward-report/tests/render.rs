//! Report rendering: snapshots of every format, determinism, sensitive values, size limits.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fixtures;

use fixtures::*;
use proptest::prelude::*;
use ward_classify::outcome::{evaluate, GateOptions};
use ward_model::Impact;
use ward_report::{
    render_json, render_markdown, render_terminal, Exit, DEFAULT_MARKDOWN_LIMIT, MIN_MARKDOWN_LIMIT,
};

fn gate(fail_on: Option<Impact>) -> GateOptions {
    GateOptions {
        fail_on,
        allow_errored: false,
    }
}

#[test]
fn snapshot_mixed_terminal() {
    let a = mixed();
    let o = evaluate(&a, &gate(Some(Impact::Replace)));
    insta::assert_snapshot!(render_terminal(&a, &o, false));
}

#[test]
fn snapshot_mixed_terminal_color() {
    let a = mixed();
    let o = evaluate(&a, &gate(Some(Impact::Replace)));
    let s = render_terminal(&a, &o, true);
    assert!(
        s.contains("\u{1b}["),
        "colour requested but no escape codes"
    );
    insta::assert_snapshot!(s.replace('\u{1b}', "<ESC>"));
}

#[test]
fn snapshot_mixed_json() {
    let a = mixed();
    let o = evaluate(&a, &gate(Some(Impact::Replace)));
    insta::assert_snapshot!(render_json(&a, &o));
}

#[test]
fn snapshot_mixed_markdown() {
    let a = mixed();
    let o = evaluate(&a, &gate(Some(Impact::Replace)));
    insta::assert_snapshot!(render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT));
}

#[test]
fn snapshot_mixed_markdown_summarised() {
    let a = mixed();
    let o = evaluate(&a, &gate(Some(Impact::Replace)));
    let s = render_markdown(&a, &o, 2_000);
    assert!(s.chars().count() <= 2_000);
    assert!(s.contains("not shown"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn snapshot_empty_all_formats() {
    let a = empty();
    let o = evaluate(&a, &gate(None));
    assert_eq!(o.exit, Exit::Pass);
    insta::assert_snapshot!("empty_terminal", render_terminal(&a, &o, false));
    insta::assert_snapshot!("empty_json", render_json(&a, &o));
    insta::assert_snapshot!(
        "empty_markdown",
        render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT)
    );
}

#[test]
fn snapshot_errored_relaxed_all_formats() {
    let a = errored_relaxed();
    let o = evaluate(&a, &gate(Some(Impact::InPlace)));
    assert_eq!(o.exit, Exit::Usage);
    insta::assert_snapshot!("errored_terminal", render_terminal(&a, &o, false));
    insta::assert_snapshot!("errored_json", render_json(&a, &o));
    insta::assert_snapshot!(
        "errored_markdown",
        render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT)
    );
}

#[test]
fn sensitive_values_are_never_printed() {
    let a = mixed();
    let o = evaluate(&a, &gate(None));
    for s in [
        render_terminal(&a, &o, false),
        render_terminal(&a, &o, true),
        render_json(&a, &o),
        render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT),
    ] {
        assert!(!s.contains(SECRET));
        assert!(
            s.contains("password"),
            "the sensitive attribute is still named"
        );
        assert!(s.contains("sensitive"), "and marked sensitive");
    }
    // The JSON has a value of kind "sensitive" with no value field.
    let j: serde_json::Value = serde_json::from_str(&render_json(&a, &o)).unwrap();
    let db = j["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["address"] == "module.db.aws_db_instance.main")
        .unwrap();
    let pw = db["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"] == "password")
        .unwrap();
    assert_eq!(pw["before"], serde_json::json!({"kind": "sensitive"}));
    assert_eq!(pw["after"], serde_json::json!({"kind": "sensitive"}));
    let out = j["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "db_password")
        .unwrap();
    assert_eq!(
        out.as_object().unwrap().len(),
        3,
        "no value field on outputs: {out}"
    );
}

#[test]
fn same_input_same_bytes() {
    // Rendering one value twice proves nothing; the same changes in another order must give
    // the same bytes, through evaluation and every renderer.
    for a in [mixed(), empty(), errored_relaxed(), big(200)] {
        let gate = gate(Some(Impact::Interrupt));
        let o = evaluate(&a, &gate);
        let mut b = a.clone();
        b.verdicts.reverse();
        b.drift.reverse();
        b.outputs.reverse();
        b.knowledge.packs.reverse();
        let ob = evaluate(&b, &gate);
        for color in [false, true] {
            assert_eq!(
                render_terminal(&a, &o, color),
                render_terminal(&b, &ob, color)
            );
        }
        // JSON lists the changes in the assessment's order (`ward plan`: the plan's own);
        // drift, outputs and packs are sorted whatever their order.
        let mut c = b.clone();
        c.verdicts.reverse();
        assert_eq!(render_json(&a, &o), render_json(&c, &evaluate(&c, &gate)));
        let addresses = |j: &str| -> Vec<String> {
            let v: serde_json::Value = serde_json::from_str(j).unwrap();
            v["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["address"].as_str().unwrap().to_string())
                .collect()
        };
        let mut back = addresses(&render_json(&b, &ob));
        back.reverse();
        assert_eq!(back, addresses(&render_json(&a, &o)));
        assert_eq!(
            render_markdown(&a, &o, 5_000),
            render_markdown(&b, &ob, 5_000)
        );
    }
}

#[test]
fn json_is_versioned_and_parses() {
    let a = mixed();
    let o = evaluate(&a, &gate(Some(Impact::Replace)));
    let j: serde_json::Value = serde_json::from_str(&render_json(&a, &o)).unwrap();
    assert_eq!(j["schema_version"], 2);
    assert_eq!(j["ward_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(j["outcome"]["exit_code"], 3);
    assert_eq!(j["summary"]["total"], 13);
    assert_eq!(j["summary"]["unclassified_changes"], 1);
    assert_eq!(j["summary"]["by_class"]["data-loss"], 1);
    assert_eq!(j["coverage"]["passed"], false);
}

#[test]
fn big_markdown_fits_the_default_limit_and_says_what_it_left_out() {
    let a = big(3_000);
    let o = evaluate(&a, &gate(None));
    let s = render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT);
    assert!(s.chars().count() <= DEFAULT_MARKDOWN_LIMIT);
    assert!(s.contains("more changes not shown (see the JSON report)"));
    // The worst class is listed first and survives.
    assert!(s.contains("#### data-loss (500)"), "{}", &s[..2000]);
    let full = render_markdown(&a, &o, usize::MAX);
    assert!(!full.contains("not shown"));
}

/// How many entries a summarised report says it left out, summed over its notes.
fn left_out(s: &str) -> usize {
    s.lines()
        .filter_map(|l| l.strip_prefix("_… and "))
        .map(|l| {
            let n: String = l
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect();
            n.replace(',', "").parse::<usize>().unwrap()
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn markdown_never_exceeds_its_limit(limit in 0usize..120_000, n in 0usize..400) {
        let a = big(n);
        let o = evaluate(&a, &gate(Some(Impact::Replace)));
        let s = render_markdown(&a, &o, limit);
        prop_assert!(s.chars().count() <= limit, "{} > {}", s.chars().count(), limit);
        let full = render_markdown(&a, &o, usize::MAX);
        if limit >= MIN_MARKDOWN_LIMIT && s != full {
            // Whatever was dropped is counted: listed entries + reported-left-out = all entries.
            prop_assert!(s.contains("not shown"), "summarised without saying so");
            if s.contains("#### Coverage") {
                let listed_changes = s.lines().filter(|l| l.starts_with("- `module.") || l.starts_with("<details>")).count();
                let listed_types = s.lines().filter(|l| l.starts_with("- `fakecloud_type")).count();
                let listed_other = s.lines().filter(|l| l.starts_with("- `out") || l.starts_with("- `aws_instance.drift")).count();
                let entries = full.lines().filter(|l| ["- `module.", "<details>", "- `fakecloud_type", "- `out", "- `aws_instance.drift"].iter().any(|p| l.starts_with(p))).count();
                prop_assert_eq!(listed_changes + listed_types + listed_other + left_out(&s), entries);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// Text from the plan or the rules (addresses, explanations, values, rule reasons) cannot
    /// break the reports' structure: no raw control characters reach the terminal, and Markdown
    /// keeps every `<details>` block closed, whatever the text holds.
    #[test]
    fn hostile_text_stays_inert(
        addr in "\\PC{0,30}|[`<>|*_\\[\\]\\\\\n\u{1b}]{0,10}",
        text in "\\PC{0,40}|[`<>|*_\\[\\]\\\\\n\u{1b}]{0,10}",
        value in "\\PC{0,40}|</details>|<script>|[`\n\u{1b}]{0,5}",
    ) {
        let mut a = mixed();
        for v in a.verdicts.iter_mut() {
            v.address = format!("{}{addr}", v.address);
            v.explanation.push(text.clone());
            for at in v.attributes.iter_mut() {
                at.change.after = known(serde_json::json!(value.clone()));
                at.why = Some(text.clone());
            }
        }
        let o = evaluate(&a, &gate(Some(Impact::Replace)));
        let t = render_terminal(&a, &o, false);
        prop_assert!(!t.chars().any(|c| c.is_control() && c != '\n'), "control character in terminal output");
        for limit in [2_000, DEFAULT_MARKDOWN_LIMIT] {
            let md = render_markdown(&a, &o, limit);
            // HTML blocks start only at the beginning of a line; inside code spans `<` is inert.
            let opens = md.lines().filter(|l| l.starts_with("<details>")).count();
            let closes = md.lines().filter(|l| *l == "</details>").count();
            prop_assert_eq!(opens, closes, "{}", md);
            for l in md.lines() {
                prop_assert!(
                    !l.starts_with('<') || l.starts_with("<details><summary>") || l == "</details>",
                    "raw HTML line: {}", l
                );
                // Outside code spans, `<` is always escaped.
                let outside: String = l.split('`').step_by(2).collect();
                prop_assert!(!outside.contains("<script"), "{}", l);
            }
        }
        let j: serde_json::Value = serde_json::from_str(&render_json(&a, &o)).unwrap();
        prop_assert_eq!(j["changes"].as_array().unwrap().len(), a.verdicts.len());
    }
}
