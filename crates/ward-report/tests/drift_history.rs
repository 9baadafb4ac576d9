//! `ward drift history` as terminal text: every part of both views (every run, one root),
//! snapshotted, including the notes that say what was left out and a name that needs escaping.

use std::collections::BTreeMap;
use ward_drift::journal::Unfinished;
use ward_drift::ward_store::{FindingRow, OutcomeRow, RootRunRow, RunRow, StateMark};
use ward_drift::History;
use ward_report::drift::history_text;

fn findings() -> Vec<FindingRow> {
    vec![
        FindingRow {
            root: "live/app".into(),
            address: "fakecloud_instance.web".into(),
            attribute: "tags.owner".into(),
            impact: "free".into(),
            first_seen: (3, "2026-11-28T02:00:00Z".into()),
            last_seen: (5, "2026-11-30T02:00:00Z".into()),
            resolved: None,
        },
        FindingRow {
            root: "live/net".into(),
            address: "fakecloud_network.main".into(),
            attribute: "cidr".into(),
            impact: "replace".into(),
            first_seen: (2, "2026-11-27T02:00:00Z".into()),
            last_seen: (4, "2026-11-29T02:00:00Z".into()),
            resolved: Some((5, "2026-11-30T02:00:00Z".into())),
        },
    ]
}

fn runs(whole: bool, more: bool, since: Option<&str>) -> History {
    History::Runs {
        limit: 2,
        since: since.map(str::to_string),
        more,
        whole,
        runs: vec![
            RunRow {
                id: 5,
                started_at: "2026-11-30T02:00:00Z".into(),
                finished_at: Some("2026-11-30T02:03:00Z".into()),
                shard: Some("1/2".into()),
                exit_code: Some(3),
                outcomes: BTreeMap::from([("clean".into(), 4), ("drifted".into(), 1)]),
            },
            RunRow {
                id: 4,
                started_at: "2026-11-29T02:00:00Z".into(),
                finished_at: None,
                shard: None,
                exit_code: None,
                outcomes: BTreeMap::new(),
            },
        ],
        findings: findings(),
        unfinished: vec![Unfinished {
            started_at: "2026-11-30T03:00:00Z".into(),
            shard: Some("2/2".into()),
            pid: 4242,
            host: "runner-\u{1b}[31m7".into(),
            state: "interrupted".into(),
        }],
    }
}

fn root() -> History {
    History::Root {
        root: "live/app".into(),
        limit: 10,
        runs: vec![
            RootRunRow {
                run: 5,
                started_at: "2026-11-30T02:00:00Z".into(),
                outcome: OutcomeRow {
                    root: "live/app".into(),
                    outcome: "drifted".into(),
                    detail: "1 attribute changed outside Terraform".into(),
                    state: Some(StateMark {
                        lineage: "5e2b".into(),
                        serial: 12,
                    }),
                    binary: None,
                },
            },
            RootRunRow {
                run: 4,
                started_at: "2026-11-29T02:00:00Z".into(),
                outcome: OutcomeRow {
                    root: "live/app".into(),
                    outcome: "clean".into(),
                    detail: String::new(),
                    state: None,
                    binary: None,
                },
            },
        ],
        findings: findings(),
    }
}

#[test]
fn every_run_cut_to_the_newest() {
    insta::assert_snapshot!(history_text(&runs(false, true, Some("2026-11-29"))));
}

#[test]
fn every_run_cut_without_a_since() {
    insta::assert_snapshot!(history_text(&runs(false, true, None)));
}

#[test]
fn every_run_whole() {
    insta::assert_snapshot!(history_text(&runs(true, false, None)));
}

#[test]
fn one_root() {
    insta::assert_snapshot!(history_text(&root()));
}
