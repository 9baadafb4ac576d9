//! The journal and the report's model without Terraform (#33: what `ward stack status` and
//! `resume` read back was reached only by the Terraform tests): runs, steps and backups as
//! recorded and read back, a run's state (stopped by a signal, its process alive or gone), and
//! the names the report and the journal write.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_model::Exit;
use ward_stack::journal::{Journal, Liveness, Process, RunRecord, RUN_ROOT};
use ward_stack::report::{Backup, Changes, Command, RootOutcome};
use ward_store::{Location, RecordQuery, Store};

mod common;
use common::{report, step};

fn run(id: &str, status: &str, exit_code: Option<u8>) -> RunRecord {
    common::run(id, Command::Apply, status, exit_code)
}

const EVERY_OUTCOME: [RootOutcome; 15] = [
    RootOutcome::NoChanges,
    RootOutcome::Changes,
    RootOutcome::BlockedByUpstream,
    RootOutcome::Applied,
    RootOutcome::Unchanged,
    RootOutcome::Verified,
    RootOutcome::Destroyed,
    RootOutcome::AlreadyEmpty,
    RootOutcome::ApprovalRequired,
    RootOutcome::GateRefused,
    RootOutcome::PreDestroyRefused,
    RootOutcome::Refused,
    RootOutcome::Failed,
    RootOutcome::NotReached,
    RootOutcome::InProgress,
];

/// The names the report prints are the names the journal writes (serde's), one per value.
#[test]
fn commands_and_outcomes_print_as_their_journaled_names() {
    for c in [
        Command::Plan,
        Command::Apply,
        Command::Teardown,
        Command::Status,
    ] {
        assert_eq!(serde_json::to_value(c).unwrap(), c.as_str(), "{c:?}");
    }
    let mut names = std::collections::BTreeSet::new();
    for o in EVERY_OUTCOME {
        assert_eq!(serde_json::to_value(o).unwrap(), o.as_str(), "{o:?}");
        assert!(names.insert(o.as_str()), "{o:?}'s name is taken");
    }
}

/// Only a step that finished is re-verified by a resume instead of redone.
#[test]
fn only_applied_unchanged_verified_destroyed_and_already_empty_are_finished() {
    let finished: Vec<&str> = EVERY_OUTCOME
        .iter()
        .filter(|o| o.finished())
        .map(|o| o.as_str())
        .collect();
    assert_eq!(
        finished,
        [
            "applied",
            "unchanged",
            "verified",
            "destroyed",
            "already-empty"
        ]
    );
}

#[test]
fn changes_and_instances_are_described() {
    let c = Changes {
        create: 1,
        update: 2,
        replace: 3,
        delete: 4,
    };
    assert_eq!(
        c.describe(),
        "1 to create, 2 to update, 3 to replace, 4 to destroy"
    );
    assert_eq!(
        report("network", "dc0", RootOutcome::Applied).id(),
        "network/dc0"
    );
}

/// The journal opens a history in directories not yet made, and reads back the latest run,
/// each instance's latest step of a run (not another run's), the newest step of an instance
/// in any run, and backups with their run.
#[test]
fn the_journal_reads_back_what_it_recorded() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("a").join("b").join("h.sqlite");
    let mut j = Journal::open(&db).unwrap();
    assert!(db.is_file(), "the history and its directories are made");
    assert_eq!(j.last_run().unwrap(), None);
    j.run(&run("r1", "running", None), "2026-12-01T00:00:00Z")
        .unwrap();
    j.step(
        &step("r1", "network", "dc0", RootOutcome::InProgress),
        "2026-12-01T00:00:01Z",
    )
    .unwrap();
    j.step(
        &step("r1", "network", "dc0", RootOutcome::Applied),
        "2026-12-01T00:00:02Z",
    )
    .unwrap();
    j.step(
        &step("r1", "network", "dc1", RootOutcome::Failed),
        "2026-12-01T00:00:03Z",
    )
    .unwrap();
    j.run(&run("r1", "stack-failed", Some(9)), "2026-12-01T00:00:04Z")
        .unwrap();
    j.run(&run("r2", "running", None), "2026-12-01T00:01:00Z")
        .unwrap();
    j.step(
        &step("r2", "network", "dc1", RootOutcome::Verified),
        "2026-12-01T00:01:01Z",
    )
    .unwrap();
    let b = Backup {
        path: "/b/net/dc1/1.tfstate".into(),
        sha256: "sha256:00".into(),
        serial: 1,
        lineage: "l".into(),
    };
    j.backup("network", "dc1", "r2", &b, "2026-12-01T00:01:02Z")
        .unwrap();

    assert_eq!(j.last_run().unwrap(), Some(run("r2", "running", None)));
    let mut r1: Vec<(String, RootOutcome)> = j
        .steps("r1")
        .unwrap()
        .into_iter()
        .map(|s| {
            assert_eq!(s.run, "r1");
            (s.report.id(), s.report.outcome)
        })
        .collect();
    r1.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        r1,
        [
            ("network/dc0".to_string(), RootOutcome::Applied),
            ("network/dc1".to_string(), RootOutcome::Failed)
        ]
    );
    assert!(j.steps("r3").unwrap().is_empty());
    let latest = |site| {
        j.latest_step("network", site)
            .unwrap()
            .map(|s| (s.run, s.report.outcome))
    };
    assert_eq!(latest("dc1"), Some(("r2".into(), RootOutcome::Verified)));
    assert_eq!(latest("dc0"), Some(("r1".into(), RootOutcome::Applied)));
    assert_eq!(latest("dc2"), None);
    assert_eq!(j.latest_step("dns", "dc0").unwrap(), None);
    drop(j);

    let store = Store::open_location(&Location::Sqlite(db)).unwrap();
    let rows = |kind, root| {
        store
            .records(&RecordQuery {
                kind,
                root: Some(root),
                ..Default::default()
            })
            .unwrap()
    };
    let backups = rows("stack-backup", "network");
    assert_eq!(backups.len(), 1);
    assert_eq!(backups[0].key, "dc1");
    assert_eq!(backups[0].body["run"], "r2");
    assert_eq!(backups[0].body["path"], "/b/net/dc1/1.tfstate");
    let runs = rows("stack-run", RUN_ROOT);
    assert_eq!(runs.len(), 3);
    assert_eq!(runs[0].key, "r2");
    let steps = rows("stack-step", "network");
    assert_eq!(steps[0].key, "r2/dc1", "a step's key is RUN/SITE");
}

/// A history that cannot be opened is an error naming what failed: the directory that cannot
/// be made, or the history store and why.
#[test]
fn a_journal_that_cannot_be_opened_says_why() {
    let t = tempfile::tempdir().unwrap();
    let file = t.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let e = Journal::open(&file.join("d").join("h.sqlite"))
        .err()
        .unwrap();
    assert!(
        e.starts_with(&format!("cannot create {}: ", file.join("d").display())),
        "{e}"
    );
    // A directory where the history file belongs: the store refuses it.
    let e = Journal::open(t.path()).err().unwrap();
    assert!(e.starts_with("the history store: "), "{e}");
    assert!(e.len() > "the history store: ".len() + 5, "{e}");
}

/// A run is stopped by a signal only when its exit code is a signal's (129, 130, 143).
#[test]
fn a_run_is_stopped_by_a_signal_only_with_a_signals_exit() {
    let at = |code: Option<u8>| run("r", "x", code).stopped_by_signal();
    assert_eq!(at(Some(130)), Some(Exit::Interrupted));
    assert_eq!(at(Some(143)), Some(Exit::Terminated));
    assert_eq!(at(Some(129)), Some(Exit::HungUp));
    assert_eq!(at(Some(0)), None);
    assert_eq!(at(Some(Exit::StackFailed.code())), None);
    assert_eq!(at(Some(200)), None, "not an exit ward has");
    assert_eq!(at(None), None);
}

/// A running run's process: this one runs; the same pid with another start time (a pid
/// reused after the run died) is gone; another host, or no process recorded, cannot be told.
#[test]
fn a_running_runs_process_says_where_it_stands() {
    let me = Process::current();
    assert_eq!(me.pid, std::process::id());
    assert_eq!(me.alive(), Some(true));
    let with = |p: Option<Process>| RunRecord {
        process: p,
        ..run("r", "running", None)
    };
    assert_eq!(with(Some(me.clone())).liveness(), Liveness::Running);
    let gone = Process {
        start: me.start + 1,
        ..me.clone()
    };
    assert_eq!(gone.alive(), Some(false));
    assert_eq!(with(Some(gone)).liveness(), Liveness::Interrupted);
    let elsewhere = Process {
        host: format!("{}-elsewhere", me.host),
        ..me
    };
    assert_eq!(with(Some(elsewhere)).liveness(), Liveness::Unknown);
    assert_eq!(with(None).liveness(), Liveness::Unknown);
}

/// A `stack-run` record as the journal has always written it (its process `pid`, `host`,
/// `start`, in that order, and no `process` once the run ended), and as the history keeps it
/// (the record's text, its keys sorted): read and written again, the same bytes.
#[test]
fn a_run_record_reads_and_writes_the_same_bytes() {
    let written = [
        r#"{"run":"r1","command":"apply","site":"dc0","root":null,"status":"running","exit_code":null,"resumes":null,"order":["network/dc0"],"process":{"pid":4711,"host":"ci-runner-7","start":123456}}"#,
        r#"{"run":"r2","command":"teardown","site":null,"root":"network","status":"interrupted","exit_code":130,"resumes":"r1","order":[]}"#,
    ];
    for text in written {
        let r: RunRecord = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), text);
    }
    let kept = [
        r#"{"command":"apply","exit_code":null,"order":["network/dc0","network/dc1"],"process":{"host":"ci-runner-7","pid":4294967295,"start":18446744073709551615},"resumes":null,"root":null,"run":"r1","site":null,"status":"running"}"#,
        r#"{"command":"apply","exit_code":0,"order":[],"resumes":null,"root":null,"run":"r1","site":null,"status":"passed"}"#,
    ];
    for text in kept {
        let r: RunRecord = serde_json::from_str(text).unwrap();
        let body = serde_json::to_value(&r).unwrap();
        assert_eq!(serde_json::to_string(&body).unwrap(), text);
    }
}
