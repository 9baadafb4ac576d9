//! Opening a SQLite history: the directories it is under are created (a history location is
//! often a path in a directory nobody made yet, e.g. `.ward/history.sqlite`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_store::Store;

#[test]
fn a_history_in_directories_not_yet_made_creates_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a").join("b").join("history.sqlite");
    let store = Store::open(&path).unwrap();
    drop(store);
    assert!(dir.path().join("a").join("b").is_dir());
    assert!(path.is_file());
    // Opened again: the same history.
    Store::open(&path).unwrap();
}
