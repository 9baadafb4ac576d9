//! A single huge value costs a budgeted amount, not its size (issue 33, item 13; issue 35,
//! item 2): a string longer than the value budget ([`ward_plan::VALUE_BUDGET`], 1 MiB) is held
//! as a stand-in naming its length and the SHA-256 of its exact bytes, never in memory. Diffs
//! and content digests still differ when the value changes and match when it does not, and
//! what is shown says the value was too long to show. The budget is given small here (the
//! reading is the same at any size); `ward plan` on a 300 MB string is measured with
//! `/usr/bin/time -v` (see the commit that made this).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Read;
use ward_model::{Plan, Shown};
use ward_plan::{read_reader_budgeted, PlanErrorKind, ReadOptions};

const BUDGET: usize = 1000;

/// A reader that hands out at most `step` bytes a call, as a pipe does.
struct Trickle<'a> {
    rest: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

fn plan(before: &str, after: &str, extra: &str) -> String {
    format!(
        r#"{{"format_version": "1.2", "planned_values": {{"root_module": {{"x": {after}}}}}{extra},
  "resource_changes": [
    {{"address": "aws_iam_policy.p", "mode": "managed", "type": "aws_iam_policy", "name": "p",
     "provider_name": "registry.terraform.io/hashicorp/aws",
     "change": {{"actions": ["update"], "before": {before}, "after": {after},
       "after_unknown": {{}}, "before_sensitive": {{}}, "after_sensitive": {{}}}}}}
  ]}}"#
    )
}

/// An object whose `policy` is a JSON document of about `n` bytes, as a string (escaped
/// quotes in it), ending in `last`.
fn side(n: usize, last: &str) -> String {
    let unit = r#"{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\"},"#;
    let body = unit.repeat(n / unit.len() + 1);
    format!(r#"{{"name": "p", "policy": "{body}{last}"}}"#)
}

/// Every reading, through every reader: whole and trickled, with and without fingerprints.
fn readings(text: &str, budget: usize) -> Vec<Plan> {
    // Each read costs the walk a block's worth of buffer (256 KiB zeroed): a byte at a time
    // over these plans would take minutes in a debug build, 61 bytes cut them as often.
    readings_by(text, budget, &[usize::MAX, 61, 997, 4096])
}

/// [`readings`] with reads of these sizes.
fn readings_by(text: &str, budget: usize, steps: &[usize]) -> Vec<Plan> {
    let mut out = Vec::new();
    for content in [true, false] {
        let options = ReadOptions {
            content,
            objects: false,
            ..ReadOptions::default()
        };
        for &step in steps {
            let reader = Trickle {
                rest: text.as_bytes(),
                step,
            };
            let (plan, _) =
                read_reader_budgeted(reader, "plan.json", options.clone(), budget, None)
                    .unwrap_or_else(|e| panic!("content {content}, step {step}: {e}"));
            out.push(plan);
        }
    }
    out
}

fn policy_sides(plan: &Plan) -> Option<(Shown, Shown)> {
    plan.changes[0]
        .changed
        .iter()
        .find(|c| c.path.to_string() == "policy")
        .map(|c| (c.before.clone(), c.after.clone()))
}

fn shown_text(s: &Shown) -> String {
    match s {
        Shown::Known(serde_json::Value::String(s)) => s.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_value_over_the_budget_is_a_stand_in_that_differs_when_the_value_does() {
    let (a, b) = (side(5 * BUDGET, "a"), side(5 * BUDGET, "b"));
    let changed = plan(&a, &b, "");
    for read in readings(&changed, BUDGET) {
        let (before, after) = policy_sides(&read).expect("policy changes");
        let (before, after) = (shown_text(&before), shown_text(&after));
        assert_ne!(before, after);
        for s in [&before, &after] {
            assert!(s.starts_with("ward: value too long to show ("), "{s}");
            assert!(s.contains(" bytes, sha256 "), "{s}");
            assert!(s.chars().count() <= Shown::MAX_STRING, "{s}");
        }
    }
    // The same value on both sides is no change.
    let same = plan(&a, &a, "");
    for read in readings(&same, BUDGET) {
        assert_eq!(policy_sides(&read), None, "{:?}", read.changes[0].changed);
    }
}

#[test]
fn the_content_digest_follows_the_value_not_the_budget_cut() {
    let content = |text: &str| {
        let plans = readings(text, BUDGET);
        let digests: Vec<_> = plans
            .iter()
            .filter_map(|p| p.changes[0].content.clone())
            .collect();
        assert_eq!(digests.len(), 4, "one for each reader, with fingerprints");
        assert!(
            digests.windows(2).all(|w| w[0] == w[1]),
            "the readings agree"
        );
        digests[0].clone()
    };
    let a = side(5 * BUDGET, "a");
    let base = content(&plan(&a, &a, ""));
    assert_eq!(base, content(&plan(&a, &a, "")));
    // One byte changed at the end of the long value, past anything shown.
    assert_ne!(base, content(&plan(&a, &side(5 * BUDGET, "b"), "")));
    // Or in the middle.
    let middle = a.replacen("s3:GetObject", "s3:PutObject", 40);
    assert_ne!(base, content(&plan(&a, &middle, "")));
}

#[test]
fn a_value_within_the_budget_is_read_as_it_is() {
    let (a, b) = (side(BUDGET / 2, "a"), side(BUDGET / 2, "b"));
    for read in readings(&plan(&a, &b, ""), BUDGET) {
        let (_, after) = policy_sides(&read).unwrap();
        let after = shown_text(&after);
        assert!(after.starts_with("{\"Effect\""), "{after}");
    }
}

#[test]
fn a_long_value_in_a_skipped_section_is_skipped_within_the_budget() {
    // Longer than the value budget, and than the part of a skipped section the walk checks as
    // one slice (64 KiB).
    let long = format!(r#""{}""#, "x".repeat(3 << 20));
    let text = plan(
        r#"{"a": 1}"#,
        r#"{"a": 2}"#,
        &format!(r#", "variables": {{"v": {{"value": {long}}}}}, "zz": [{long}]"#),
    );
    // (Megabytes a byte at a time take long: reads of a few kilobytes cut it as often.)
    for read in readings_by(&text, BUDGET, &[usize::MAX, 4096, 4099]) {
        assert_eq!(read.changes.len(), 1);
    }
    // And with the budget ward reads with.
    let read = ward_plan::read_reader(text.as_bytes(), "plan.json").unwrap();
    assert_eq!(read.changes.len(), 1);
    // A string longer than a skipped container's slice (64 KiB) and within that budget: the
    // container is walked child by child, the string framed whole.
    let long = format!(r#""{}""#, "x".repeat(300 << 10));
    let text = plan(
        r#"{"a": 1}"#,
        r#"{"a": 2}"#,
        &format!(r#", "variables": {{"v": {{"value": {long}}}}}, "zz": [{long}]"#),
    );
    let read = ward_plan::read_reader(text.as_bytes(), "plan.json").unwrap();
    assert_eq!(read.changes.len(), 1);
}

#[test]
fn a_string_that_poses_as_a_stand_in_is_refused() {
    let forged =
        r#"{"name": "p", "policy": "\u0077ard: value too long to show (5 bytes, sha256 00)"}"#;
    let text = plan(r#"{"name": "p"}"#, forged, "");
    let e = read_reader_budgeted(
        text.as_bytes(),
        "plan.json",
        ReadOptions::default(),
        BUDGET,
        None,
    )
    .unwrap_err();
    assert!(
        matches!(e.kind(), PlanErrorKind::Malformed { .. }),
        "{:?}",
        e.kind()
    );
    assert!(e.to_string().contains("too long to show"), "{e}");
}

#[test]
fn an_error_after_a_long_value_is_placed_in_the_input() {
    // A syntax error after the long value: its offset counts the value's bytes.
    let a = side(5 * BUDGET, "a");
    let text = plan(&a, &a, "").replace(r#""after_unknown": {},"#, r#""after_unknown": {} x"#);
    let at = text.find(" x").unwrap() as u64 + 1;
    for step in [usize::MAX, 61, 4096] {
        let reader = Trickle {
            rest: text.as_bytes(),
            step,
        };
        let e = read_reader_budgeted(reader, "plan.json", ReadOptions::default(), BUDGET, None)
            .unwrap_err();
        assert_eq!(
            e.kind(),
            PlanErrorKind::InvalidJson { offset: at },
            "step {step}: {e}"
        );
    }
}
