//! Exact-behaviour tests of the views' small functions, each pinning what a mutant of stop 43's
//! run changed and no page test saw (#33): an age's text, the filter's `active` and `keeps`, an
//! empty page's first row, a record's expiry and shortened text, a short digest, the stack-run
//! query's limit and the chart's step. A child of `overview` (its private `human`, `Filter` and
//! `Paging` methods); `records`' private `compact` and `expired` are reached through the
//! `pub(super)` `record_view`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::super::records::record_view;
use super::super::{chart, short_digest, stack_runs, RECORDS_PER_KIND};
use super::{human, Filter, Paging};
use serde_json::json;
use std::time::Duration;
use ward_report::dashboard::{RootSummary, TimelineRun};
use ward_store::{NewRecord, RecordRow, Store};

fn secs(d: u64, h: u64, m: u64, s: u64) -> Duration {
    Duration::from_secs(((d * 24 + h) * 60 + m) * 60 + s)
}

#[test]
fn an_age_reads_in_days_and_hours_from_a_day_on_else_hours_and_minutes_else_minutes() {
    // (days, hours, minutes, seconds) and the text; months still read in days and hours.
    let ages = [
        ((0, 0, 0, 0), "0m"),
        ((0, 0, 0, 59), "0m"),
        ((0, 0, 12, 59), "12m"),
        ((0, 0, 59, 0), "59m"),
        ((0, 1, 0, 0), "1h 0m"),
        ((0, 5, 10, 30), "5h 10m"),
        ((0, 23, 59, 59), "23h 59m"),
        ((1, 0, 0, 0), "1d 0h"),
        ((1, 0, 59, 0), "1d 0h"),
        ((2, 0, 0, 0), "2d 0h"),
        ((3, 4, 5, 6), "3d 4h"),
        ((2, 23, 59, 59), "2d 23h"),
        ((95, 7, 30, 0), "95d 7h"),
    ];
    for ((d, h, m, s), text) in ages {
        assert_eq!(human(secs(d, h, m, s)), text, "{d}d {h}h {m}m {s}s");
    }
}

#[test]
fn a_filter_is_active_when_any_one_condition_is_given() {
    assert!(!Filter::default().active());
    let status = Filter {
        status: Some("drift".into()),
        ..Filter::default()
    };
    let stale = Filter {
        stale: true,
        ..Filter::default()
    };
    let name = Filter {
        name: Some("app".into()),
        ..Filter::default()
    };
    let attention = Filter {
        attention: true,
        ..Filter::default()
    };
    for f in [status, stale, name, attention] {
        assert!(f.active(), "{f:?}");
        assert!(f.view().active, "{f:?}");
    }
}

fn summary(severity: &str, stale: bool, open_findings: usize) -> RootSummary {
    RootSummary {
        root: "live/app".into(),
        run: 1,
        started_at: "2026-11-01T00:00:00Z".into(),
        outcome: if severity == "ok" { "clean" } else { "drifted" }.into(),
        severity: severity.into(),
        detail: String::new(),
        open_findings,
        worst: None,
        stale,
        age: None,
    }
}

#[test]
fn the_attention_filter_keeps_a_clean_fresh_root_only_with_an_open_finding() {
    let f = Filter {
        attention: true,
        ..Filter::default()
    };
    assert!(
        !f.keeps(&summary("ok", false, 0)),
        "clean, fresh, none open"
    );
    assert!(f.keeps(&summary("ok", false, 1)), "one open finding");
    assert!(f.keeps(&summary("ok", false, 3)), "three open findings");
    assert!(f.keeps(&summary("ok", true, 0)), "stale");
    assert!(f.keeps(&summary("drift", false, 0)), "drifted");
    assert!(
        Filter::default().keeps(&summary("ok", false, 0)),
        "no filter"
    );
}

#[test]
fn an_empty_list_has_one_page_showing_no_first_row() {
    for paging in [Paging::ALL, Paging::default()] {
        let (range, view) = paging.apply(0);
        assert_eq!(range, 0..0);
        assert_eq!((view.number, view.pages), (1, 1));
        assert_eq!((view.first, view.last, view.total), (0, 0, 0), "{paging:?}");
    }
    let (range, view) = Paging {
        number: 2,
        per_page: 2,
    }
    .apply(3);
    assert_eq!(range, 2..3);
    assert_eq!((view.first, view.last), (3, 3));
}

fn row(body: serde_json::Value) -> RecordRow {
    RecordRow {
        id: 1,
        kind: "import-plan".into(),
        root: "live/app".into(),
        key: "plan-1".into(),
        recorded_at: "2026-11-01T00:00:00Z".into(),
        body,
    }
}

#[test]
fn a_record_has_expired_only_when_its_expiry_is_before_now() {
    let now = "2026-11-10T12:00:00Z";
    let expired = |e: &str, now: &str| record_view(row(json!({ "expires": e })), now).expired;
    // A date is inclusive: the whole day.
    assert!(expired("2026-11-09", now), "the day before");
    assert!(!expired("2026-11-10", now), "the same day");
    assert!(!expired("2026-11-11", now), "the day after");
    // A time.
    assert!(expired("2026-11-10T11:59:59Z", now), "a second before");
    assert!(!expired("2026-11-10T12:00:00Z", now), "the same second");
    assert!(!expired("2026-11-10T12:00:01Z", now), "a second after");
    // `expires_at` too; no `now`: nothing is marked; no expiry: not expired.
    let at = record_view(row(json!({ "expires_at": "2026-11-09" })), now);
    assert_eq!(at.expires.as_deref(), Some("2026-11-09"));
    assert!(at.expired);
    assert!(!expired("2026-11-09", ""), "no now");
    assert!(!record_view(row(json!({ "ids": {} })), now).expired);
}

#[test]
fn a_record_field_is_shown_on_one_line_cut_at_300_characters() {
    let text = |n: usize| "é".repeat(n);
    let body = json!({
        "a_short": "abc",
        "b_299": text(299),
        "c_300": text(300),
        "d_301": text(301),
        "e_number": 5,
        "f_object": {"x": [1, "y"]},
        "g_empty": "",
    });
    let v = record_view(row(body), "2026-11-10T12:00:00Z");
    let expected: Vec<(String, String)> = [
        ("a_short", "abc".to_string()),
        ("b_299", text(299)),
        ("c_300", text(300)),
        ("d_301", format!("{}…", text(300))),
        ("e_number", "5".to_string()),
        ("f_object", r#"{"x":[1,"y"]}"#.to_string()),
        ("g_empty", String::new()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(v.fields, expected);
}

#[test]
fn a_digest_is_cut_to_its_first_12_hex_digits_after_its_prefix() {
    let hex = "0123456789abcdef0123456789abcdef";
    assert_eq!(
        short_digest(&format!("sha256:{hex}")),
        "sha256:0123456789ab"
    );
    assert_eq!(short_digest(hex), "0123456789ab");
    assert_eq!(short_digest("sha256:abc"), "sha256:abc");
    assert_eq!(short_digest(""), "");
}

#[test]
fn the_stack_runs_page_reads_the_newest_2000_stack_run_records() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("h.sqlite")).unwrap();
    // One run with a record more than the query reads: its start is the oldest record read.
    let n = RECORDS_PER_KIND * 4 + 1;
    let run = "20261101T000000Z-apply";
    let times: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "2026-11-01T{:02}:{:02}:{:02}Z",
                i / 3600,
                i / 60 % 60,
                i % 60
            )
        })
        .collect();
    let keys: Vec<String> = (0..n).map(|i| format!("{run}-{i:04}")).collect();
    let bodies: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let status = if i + 1 == n { "pass" } else { "running" };
            json!({"run": run, "command": "apply", "status": status, "order": []})
        })
        .collect();
    let records: Vec<NewRecord> = (0..n)
        .map(|i| NewRecord {
            kind: "stack-run",
            root: "(stack)",
            key: &keys[i],
            recorded_at: &times[i],
            body: &bodies[i],
        })
        .collect();
    s.append_records(&records).unwrap();
    let page = stack_runs(&s).unwrap();
    assert_eq!(page.runs.len(), 1);
    assert_eq!(
        page.runs[0].started_at,
        times[1],
        "the oldest record within the limit of {}",
        RECORDS_PER_KIND * 4
    );
}

fn runs(n: usize) -> Vec<TimelineRun> {
    (0..n)
        .map(|i| TimelineRun {
            run: i64::try_from(i).unwrap(),
            started_at: format!("2026-11-01T00:00:{:02}Z", i % 60),
            outcome: "clean".into(),
            severity: "ok".into(),
            detail: String::new(),
            binary: None,
            lineage: None,
            serial: None,
        })
        .collect()
}

#[test]
fn the_chart_spreads_its_runs_over_800_pixels_4_to_40_apart() {
    // (runs, step between points, width)
    for (n, step, width) in [
        (1, 0, 110),
        (2, 40, 150),
        (21, 40, 910),
        (41, 20, 910),
        (101, 8, 910),
        (161, 5, 910),
        (201, 4, 910),
        (401, 4, 1710),
    ] {
        let c = chart(&runs(n));
        assert_eq!(c.width, width, "{n} runs");
        assert_eq!(c.points.len(), n);
        assert_eq!(c.points[0].x, 80, "{n} runs");
        if n > 1 {
            assert_eq!(c.points[1].x - c.points[0].x, step, "{n} runs");
        }
    }
}
