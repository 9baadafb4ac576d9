//! `ward stack status` read from a journal written here, without Terraform (#33: its arms were
//! reached only by the Terraform tests): no run, a run that ended (passed, failed, without an
//! exit code), one stopped by a signal at a root, one running elsewhere; the root instances in
//! the run's order, those it did not reach as such.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_model::Exit;
use ward_stack::journal::{Journal, Process, RunRecord, StepRecord};
use ward_stack::report::{Command, RootOutcome, StackReport};
use ward_stack::status;

mod common;

fn run(command: Command, status: &str, exit: Option<Exit>) -> RunRecord {
    RunRecord {
        site: Some("dc0".into()),
        root: Some("network".into()),
        resumes: Some("r0".into()),
        ..common::run("r1", command, status, exit.map(Exit::code))
    }
}

fn step(outcome: RootOutcome) -> StepRecord {
    let mut s = common::step("r1", "network", "dc0", outcome);
    s.report.detail = vec!["why".into()];
    s
}

/// The status of a history holding `r` and, when given, one step at `network/dc0`.
fn status_of(r: &RunRecord, s: Option<RootOutcome>) -> StackReport {
    let t = tempfile::tempdir().unwrap();
    let opts = common::options(t.path());
    let mut j = Journal::open_location(&opts.db).unwrap();
    j.run(r, "2026-12-01T00:00:00Z").unwrap();
    if let Some(o) = s {
        j.step(&step(o), "2026-12-01T00:00:01Z").unwrap();
    }
    drop(j);
    status(&opts).unwrap()
}

#[test]
fn no_run_recorded_says_what_to_run() {
    let t = tempfile::tempdir().unwrap();
    let e = status(&common::options(t.path())).unwrap_err();
    assert_eq!(e.exit(), Exit::Usage);
    let e = e.to_string();
    assert!(
        e.contains("no ward stack run recorded in") && e.contains("ward stack apply"),
        "{e}"
    );
}

#[test]
fn a_passed_run_is_pass_with_its_roots_in_order() {
    let st = status_of(
        &run(Command::Apply, "pass", Some(Exit::Pass)),
        Some(RootOutcome::Applied),
    );
    assert_eq!(st.command, Command::Status);
    assert_eq!((st.exit, st.exit_code), (Exit::Pass, Exit::Pass));
    assert_eq!(st.stopped, None);
    assert_eq!(st.resume, None);
    assert_eq!(st.run.as_deref(), Some("r1"));
    assert_eq!(st.resumed.as_deref(), Some("r0"));
    assert_eq!(st.site.as_deref(), Some("dc0"));
    assert_eq!(st.only_root.as_deref(), Some("network"));
    let roots: Vec<(String, RootOutcome)> = st.roots.iter().map(|r| (r.id(), r.outcome)).collect();
    assert_eq!(
        roots,
        [
            ("network/dc0".to_string(), RootOutcome::Applied),
            ("network/dc1".to_string(), RootOutcome::NotReached)
        ]
    );
    assert_eq!(st.roots[0].detail, ["why"], "the step's report as recorded");
    assert_eq!(
        (st.roots[1].root.as_str(), st.roots[1].site.as_str()),
        ("network", "dc1")
    );
}

#[test]
fn a_failed_run_says_how_it_ended_and_is_resumable() {
    let st = status_of(
        &run(Command::Teardown, "stack-failed", Some(Exit::StackFailed)),
        Some(RootOutcome::Failed),
    );
    assert_eq!(st.exit, Exit::StackFailed);
    let why = st.stopped.unwrap();
    assert_eq!(
        why,
        format!(
            "the last run (ward stack teardown) ended {} (exit {})",
            Exit::StackFailed.as_str(),
            Exit::StackFailed.code()
        )
    );
    assert_eq!(st.resume.as_deref(), Some("ward stack resume"));
    // An end without an exit code is a failure too.
    let st = status_of(&run(Command::Apply, "unknown", None), None);
    assert_eq!(st.exit, Exit::StackFailed);
    assert_eq!(st.resume.as_deref(), Some("ward stack resume"));
    // Only an apply or a teardown is resumed.
    let st = status_of(&run(Command::Plan, "fail", Some(Exit::Fail)), None);
    assert_eq!(st.exit, Exit::Fail);
    assert_eq!(st.resume, None);
}

#[test]
fn a_run_stopped_by_a_signal_says_so_and_where_it_was() {
    let st = status_of(
        &run(Command::Apply, "terminated", Some(Exit::Terminated)),
        Some(RootOutcome::InProgress),
    );
    assert_eq!(st.exit, Exit::StackFailed);
    assert_eq!(
        st.stopped.as_deref(),
        Some("the last run (ward stack apply) was interrupted: it was stopped by a signal (terminated, exit 143); it was at network/dc0, whose state may be partly changed")
    );
    assert_eq!(st.resume.as_deref(), Some("ward stack resume"));
    // Stopped before any root was reached: no "it was at".
    let st = status_of(
        &run(Command::Apply, "interrupted", Some(Exit::Interrupted)),
        Some(RootOutcome::Applied),
    );
    assert_eq!(
        st.stopped.as_deref(),
        Some("the last run (ward stack apply) was interrupted: it was stopped by a signal (interrupted, exit 130)")
    );
}

#[test]
fn a_run_recorded_running_on_another_machine_cannot_be_checked() {
    let me = Process::current();
    let mut r = run(Command::Apply, "running", None);
    r.process = Some(Process {
        host: format!("{}-elsewhere", me.host),
        ..me
    });
    let st = status_of(&r, Some(RootOutcome::InProgress));
    assert_eq!(st.exit, Exit::StackFailed);
    let why = st.stopped.unwrap();
    assert!(
        why.starts_with("the last run (ward stack apply) is recorded as running (process ")
            && why.ends_with(
                "-elsewhere), which this machine cannot check; it was at network/dc0, whose state may be partly changed"
            ),
        "{why}"
    );
    assert_eq!(st.resume.as_deref(), Some("ward stack resume"));
    // No process recorded: the same, naming none.
    r.process = None;
    let st = status_of(&r, None);
    assert_eq!(
        st.stopped.as_deref(),
        Some("the last run (ward stack apply) is recorded as running (a process ward did not record), which this machine cannot check")
    );
}
