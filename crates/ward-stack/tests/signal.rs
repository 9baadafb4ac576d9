//! `journal::record_signal` (#33 item 5): the run this process has under way is recorded as
//! stopped by the signal, and nothing else is. Its own test binary: the run under way is
//! process state, which no other test may share.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_stack::journal::{record_signal, Journal, RunRecord};
use ward_stack::report::Command;

mod common;

fn run(id: &str, status: &str, exit_code: Option<u8>) -> RunRecord {
    common::run(id, Command::Teardown, status, exit_code)
}

#[test]
fn a_signal_ends_the_run_under_way_and_only_it() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("h.sqlite");
    let last = || Journal::open(&db).unwrap().last_run().unwrap();
    // No run under way: nothing is recorded.
    record_signal(15, "2026-12-01T00:00:00Z");
    assert!(Journal::open(&db).unwrap().last_run().unwrap().is_none());

    let mut j = Journal::open(&db).unwrap();
    j.run(&run("r1", "running", None), "2026-12-01T00:00:01Z")
        .unwrap();
    // A signal ward does not stop on records nothing, and leaves the run under way.
    record_signal(10, "2026-12-01T00:00:02Z");
    assert_eq!(last(), Some(run("r1", "running", None)));
    record_signal(15, "2026-12-01T00:00:03Z");
    assert_eq!(last(), Some(run("r1", "terminated", Some(143))));
    // Recorded once: the run is no longer under way.
    j.run(&run("r2", "running", None), "2026-12-01T00:00:04Z")
        .unwrap();
    j.run(&run("r2", "pass", Some(0)), "2026-12-01T00:00:05Z")
        .unwrap();
    record_signal(2, "2026-12-01T00:00:06Z");
    assert_eq!(
        last(),
        Some(run("r2", "pass", Some(0))),
        "a run that recorded its end is not recorded stopped after it"
    );
    // Another run's end leaves this one under way.
    j.run(&run("r3", "running", None), "2026-12-01T00:00:07Z")
        .unwrap();
    j.run(&run("r2", "pass", Some(0)), "2026-12-01T00:00:08Z")
        .unwrap();
    record_signal(1, "2026-12-01T00:00:09Z");
    assert_eq!(last(), Some(run("r3", "hung-up", Some(129))));
}
