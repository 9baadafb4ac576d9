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

#[test]
fn outcomes_are_named_and_sorted_into_failing_and_checked() {
    use ward_drift::outcome::Outcome;
    let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
    assert_eq!(
        names,
        [
            "clean",
            "drifted",
            "output-only",
            "pending-change",
            "missing-state",
            "state-replaced",
            "locked",
            "error",
            "excluded",
            "mismatch"
        ]
    );
    for o in Outcome::ALL {
        assert_eq!(o.to_string(), o.as_str());
        assert_eq!(serde_json::to_value(o).unwrap(), o.as_str());
    }
    let failing: Vec<Outcome> = Outcome::ALL.into_iter().filter(|o| o.fails()).collect();
    assert_eq!(
        failing,
        [
            Outcome::MissingState,
            Outcome::StateReplaced,
            Outcome::Error,
            Outcome::Mismatch
        ]
    );
    let checked: Vec<Outcome> = Outcome::ALL
        .into_iter()
        .filter(|o| o.checked_drift())
        .collect();
    assert_eq!(
        checked,
        [
            Outcome::Clean,
            Outcome::Drifted,
            Outcome::OutputOnly,
            Outcome::PendingChange
        ]
    );
}

#[test]
fn the_payload_counts_transitions_by_kind() {
    let mut r = report(Exit::DriftAlert);
    let first = r.transitions[0].clone();
    r.transitions.push(Transition {
        address: "fakecloud_volume.logs".into(),
        ..first.clone()
    });
    r.transitions.push(Transition {
        kind: TransitionKind::Resolved,
        address: "fakecloud_volume.old".into(),
        ..first
    });
    assert_eq!(ward_drift::notify::payload(&r).summary, "2 new, 1 resolved");
}

#[test]
fn send_posts_only_when_there_are_transitions() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    let server = std::thread::spawn(move || {
        // At most five seconds for the request to come (a send that never posts fails here).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut s = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(_) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("no request came: {e}"),
            }
        };
        s.set_nonblocking(false).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        // Headers, then the JSON body (it ends the request: the last byte is its `}`).
        while !got.ends_with(b"}") {
            let n = s.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .unwrap();
        String::from_utf8_lossy(&got).into_owned()
    });
    assert_eq!(
        ward_drift::notify::send(&url, &report(Exit::DriftAlert)),
        Ok(true)
    );
    let request = server.join().unwrap();
    assert!(request.starts_with("POST /hook "), "{request}");
    assert!(request.contains("\"summary\":\"1 new\""), "{request}");
    let mut quiet = report(Exit::Pass);
    quiet.transitions.clear();
    // Nothing listens any more: not sending is the only way to succeed.
    assert_eq!(ward_drift::notify::send(&url, &quiet), Ok(false));
}

#[test]
fn pending_changes_are_the_changes_sorted_with_their_action() {
    let change = |address: &str, action: &str| {
        format!(
            r#"{{"address":"{address}","mode":"managed","type":"fakecloud_volume","name":"{}","provider_name":"registry.terraform.io/ward/fakecloud","change":{{"actions":[{action}],"before":{{}},"after":{{}}}}}}"#,
            address.rsplit('.').next().unwrap()
        )
    };
    let json = format!(
        r#"{{"format_version":"1.2","terraform_version":"1.15.5","resource_changes":[{},{},{}]}}"#,
        change("fakecloud_volume.b", r#""update""#),
        change("fakecloud_volume.c", r#""no-op""#),
        change("fakecloud_volume.a", r#""delete""#),
    );
    let plan = ward_plan::read_reader(json.as_bytes(), "plan.json").unwrap();
    assert_eq!(
        ward_drift::outcome::pending_changes(&plan),
        ["fakecloud_volume.a (delete)", "fakecloud_volume.b (update)"]
    );
}
