//! The store's small public contracts that its backends' suite (tests/suite.rs) does not pin:
//! the transition kinds' names, and what `Store::open_existing` (the read-only commands' open)
//! does with a path that is a file, a directory or nothing. Each test here kills a mutant of
//! `src/lib.rs` the suite let through (docs/testing.md, #33).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_store::{Location, Store, TransitionKind};

#[test]
fn transition_kinds_print_as_their_serialized_names() {
    for (kind, name) in [
        (TransitionKind::New, "new"),
        (TransitionKind::Escalated, "escalated"),
        (TransitionKind::Resolved, "resolved"),
    ] {
        assert_eq!(kind.as_str(), name);
        // The JSON name (the API, alerts) is the same word.
        assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{name}\""));
    }
}

fn sqlite(path: &std::path::Path) -> Location {
    Location::parse(path.to_str().unwrap(), None, "--db").unwrap()
}

#[test]
fn open_existing_opens_a_history_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.sqlite");
    let mut store = Store::open(&path).unwrap();
    let run = store.begin_run("2026-12-04T00:00:00Z", None).unwrap();
    store.finish_run(run, "2026-12-04T00:00:01Z", 0).unwrap();
    drop(store);
    let store = Store::open_existing(&sqlite(&path)).unwrap();
    assert_eq!(store.runs(10).unwrap().len(), 1);
}

#[test]
fn open_existing_refuses_a_directory_saying_it_is_not_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let Err(e) = Store::open_existing(&sqlite(dir.path())) else {
        panic!("a directory opened as a history")
    };
    let e = e.to_string();
    assert!(e.contains("is not a file"), "{e}");
    assert!(e.contains(&dir.path().display().to_string()), "{e}");
}

#[test]
fn open_existing_refuses_a_missing_file_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typo").join("history.sqlite");
    let Err(e) = Store::open_existing(&sqlite(&path)) else {
        panic!("a missing history opened")
    };
    assert!(e.to_string().contains("no history database at"), "{e}");
    assert!(!dir.path().join("typo").exists());
}

/// A PostgreSQL connection error says why, not only the client's "error connecting to server":
/// the causes are chained onto the message (`chain` in src/lib.rs).
#[test]
fn a_connection_error_names_its_cause() {
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let text = format!("host=127.0.0.1 port={port} user=ward dbname=ward sslmode=disable");
    let l = Location::parse(&text, None, "--db").unwrap();
    let Err(e) = Store::open_location(&l) else {
        panic!("connected to a port nothing listens on")
    };
    let e = e.to_string();
    assert!(
        e.contains("cannot connect to the PostgreSQL history database"),
        "{e}"
    );
    assert!(e.to_lowercase().contains("connection refused"), "{e}");
}
