//! The pages read a bounded number of records, however many the history holds: a history with
//! one record more than a page reads shows the newest ones, and the oldest is left out (#33: the
//! views' `RecordQuery` could lose its `limit`, which means "no limit", and no test noticed).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use ward_serve::views::{self, RECORDS_PER_KIND};
use ward_store::{NewRecord, Store};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(&dir.path().join("h.sqlite")).unwrap();
    (dir, s)
}

/// The time of the `i`th record: one second apart, so the newest is the last appended.
fn at(i: usize) -> String {
    format!(
        "2026-11-{:02}T{:02}:{:02}:{:02}Z",
        1 + i / 86_400,
        i / 3600 % 24,
        i / 60 % 60,
        i % 60
    )
}

/// Records of one kind about one root, the `i`th with the `i`th key, time and body.
fn of_kind<'a>(
    kind: &'a str,
    root: &'a str,
    keys: &'a [String],
    times: &'a [String],
    bodies: &'a [serde_json::Value],
) -> Vec<NewRecord<'a>> {
    keys.iter()
        .zip(times)
        .zip(bodies)
        .map(|((key, recorded_at), body)| NewRecord {
            kind,
            root,
            key,
            recorded_at,
            body,
        })
        .collect()
}

#[test]
fn a_record_page_shows_the_newest_records_of_a_kind_up_to_its_limit() {
    let (_dir, mut s) = store();
    let n = RECORDS_PER_KIND + 1;
    let times: Vec<String> = (0..n).map(at).collect();
    let keys: Vec<String> = (0..n).map(|i| format!("plan-{i:04}")).collect();
    let bodies: Vec<serde_json::Value> = (0..n).map(|i| json!({"ids": {"a.b": i}})).collect();
    let records = of_kind("import-plan", "live/app", &keys, &times, &bodies);
    s.append_records(&records).unwrap();
    let page = views::records(&s, "Imports", &["import-plan"], &at(n)).unwrap();
    assert_eq!(page.records.len(), RECORDS_PER_KIND, "the page's limit");
    assert_eq!(page.records[0].key, keys[n - 1], "the newest first");
    assert!(
        page.records.iter().all(|r| r.key != keys[0]),
        "the oldest record is past the limit"
    );
}

#[test]
fn the_stack_runs_page_reads_a_bounded_number_of_backups() {
    let (_dir, mut s) = store();
    // The page reads the newest RECORDS_PER_KIND * 4 backups (and as many stack-run records).
    let n = RECORDS_PER_KIND * 4 + 1;
    let run = "20261101T000000Z-teardown";
    let run_body = json!({"run": run, "command": "teardown", "status": "pass", "exit_code": 0,
                          "order": ["app/default"]});
    let times: Vec<String> = (0..n + 1).map(at).collect();
    let keys: Vec<String> = (0..n).map(|i| format!("site-{i:04}")).collect();
    let bodies: Vec<serde_json::Value> = (0..n)
        .map(|i| json!({"path": format!("/var/backups/ward/app/{i}.tfstate"), "run": run}))
        .collect();
    let mut records = of_kind("stack-backup", "app", &keys, &times, &bodies);
    records.push(NewRecord {
        kind: "stack-run",
        root: "(stack)",
        key: run,
        recorded_at: &times[n],
        body: &run_body,
    });
    s.append_records(&records).unwrap();
    let page = views::stack_runs(&s).unwrap();
    assert_eq!(page.runs.len(), 1);
    let backups = &page.runs[0].backups;
    assert_eq!(backups.len(), RECORDS_PER_KIND * 4, "the page's limit");
    // Shown in the order they were taken: the oldest within the limit first, the newest last.
    assert_eq!(backups[0].key, keys[1], "the oldest within the limit");
    assert_eq!(backups[backups.len() - 1].key, keys[n - 1], "the newest");
    assert!(
        backups.iter().all(|b| b.key != keys[0]),
        "the oldest backup is past the limit"
    );
}
