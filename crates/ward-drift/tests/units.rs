//! ward-drift's entry points that need no Terraform: shards, where the history is, the report's
//! invariant line and a webhook that fails. (The runs themselves are in `e2e.rs`, against real
//! Terraform.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;

use ward_drift::{Exit, Report};
use ward_store::{Location, Transition, TransitionKind};

fn report(exit: Exit) -> Report {
    Report {
        schema_version: 1,
        shard: None,
        discovered: 5,
        checked: 3,
        excluded: 2,
        declared_missing: 0,
        roots: Vec::new(),
        counts: BTreeMap::new(),
        transitions: vec![Transition {
            root: "app".into(),
            kind: TransitionKind::New,
            address: "fakecloud_volume.data".into(),
            attribute: "size".into(),
            impact: "replace".into(),
            previous_impact: None,
        }],
        suppressed: 0,
        expired_ignores: Vec::new(),
        problems: Vec::new(),
        exit,
        run_id: 0,
        started_at: None,
    }
}

#[test]
fn a_shard_is_k_of_n_with_k_at_most_n() {
    assert_eq!(ward_drift::parse_shard("1/1"), Ok((1, 1)));
    assert_eq!(ward_drift::parse_shard("2/2"), Ok((2, 2)));
    assert_eq!(ward_drift::parse_shard(" 3 / 8 "), Ok((3, 8)));
    for bad in ["3/2", "0/2", "1/0", "2", "a/b"] {
        let e = ward_drift::parse_shard(bad).unwrap_err();
        assert!(e.contains("expected K/N with 1 <= K <= N"), "{bad}: {e}");
    }
}

#[test]
fn db_is_a_file_unless_it_is_a_postgres_url() {
    let file = ward_drift::history_location(Some(Path::new("runs/history.db")), None).unwrap();
    assert!(
        matches!(&file, Location::Sqlite(p) if p == Path::new("runs/history.db")),
        "a file"
    );
    let pg =
        ward_drift::history_location(Some(Path::new("postgres://ward@db.internal/ward")), None)
            .unwrap();
    assert!(matches!(pg, Location::Postgres(_)), "a postgres URL");
    // Read as a URL, so a password in it is refused (a file of that name would be accepted).
    let e = ward_drift::history_location(Some(Path::new("postgres://ward:pw@db/ward")), None)
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .contains("--db: the PostgreSQL URL carries a password"),
        "{e}"
    );
}

#[test]
fn the_default_db_is_the_stores() {
    let d = ward_drift::default_db();
    assert_eq!(d, ward_store::default_path());
    // The test environment has a home: the default is a real path, not empty.
    assert!(d.is_some_and(|p| p.ends_with("ward/drift.sqlite")));
}

#[test]
fn the_invariant_counts_every_root() {
    assert_eq!(
        report(Exit::Pass).invariant(),
        "discovered 5 = checked 3 + excluded 2"
    );
}

#[test]
fn a_failed_webhook_is_a_problem_and_no_pass() {
    // Nothing listens on port 9 (discard) of the loopback: the POST fails at once.
    let url = "http://127.0.0.1:9/hook";
    let mut r = report(Exit::Pass);
    let e = ward_drift::send_notification(&mut r, url).unwrap_err();
    assert!(!e.is_empty());
    assert_eq!(r.exit, Exit::Usage);
    assert_eq!(r.problems.len(), 1);
    assert!(
        r.problems[0].starts_with("the --notify webhook failed: "),
        "{:?}",
        r.problems
    );
    // A run that already ends otherwise keeps its own exit.
    let mut r = report(Exit::DriftAlert);
    assert!(ward_drift::send_notification(&mut r, url).is_err());
    assert_eq!(r.exit, Exit::DriftAlert);
    // With nothing to send, nothing fails.
    let mut r = report(Exit::Pass);
    r.transitions.clear();
    assert_eq!(ward_drift::send_notification(&mut r, url), Ok(()));
    assert_eq!(r.exit, Exit::Pass);
}
