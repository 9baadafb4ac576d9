//! The store's tests, run once against SQLite and once against a real PostgreSQL server.
//!
//! PostgreSQL comes from `WARD_TEST_PG`: the URL of a database on a server the tests may create
//! databases on (`scripts/test` starts a throwaway cluster on a Unix socket and sets it). Each
//! test gets a database of its own. Without the variable the PostgreSQL half of each test says
//! it was skipped; under `CI=true` its absence is a failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use ward_store::{
    ApprovalRecord, AuditQuery, AuditSource, Finding, GateChange, GateOutcomeRecord, Location,
    NewRecord, OutcomeRow, RecordQuery, StateMark, Store, StoreError, TransitionKind,
};

/// One test's database.
enum Db {
    /// The directory is kept until the test ends.
    Sqlite(#[allow(dead_code)] tempfile::TempDir, PathBuf),
    Pg(String),
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// The URL of the database `name` on the server of `base`.
fn with_dbname(base: &str, name: &str) -> String {
    let (scheme, rest) = base.split_once("://").unwrap();
    let auth_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (auth, tail) = rest.split_at(auth_end);
    let query = tail.split_once('?').map(|(_, q)| q);
    match query {
        Some(q) => format!("{scheme}://{auth}/{name}?{q}"),
        None => format!("{scheme}://{auth}/{name}"),
    }
}

impl Db {
    fn sqlite() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.sqlite");
        Db::Sqlite(dir, path)
    }

    /// A fresh database on the test server, or `None` (with a message) when there is none.
    fn pg() -> Option<Db> {
        let Some(base) = std::env::var("WARD_TEST_PG").ok().filter(|v| !v.is_empty()) else {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("WARD_TEST_PG is not set under CI=true: scripts/test starts a PostgreSQL server for these tests and sets it");
            }
            eprintln!("skipped: the PostgreSQL half of this test (WARD_TEST_PG is not set; scripts/test sets it)");
            return None;
        };
        let name = format!(
            "ward_t_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let mut admin = postgres::Client::connect(&base, postgres::NoTls)
            .unwrap_or_else(|e| panic!("WARD_TEST_PG={base}: {e}"));
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        Some(Db::Pg(with_dbname(&base, &name)))
    }

    fn location(&self) -> Location {
        match self {
            Db::Sqlite(_, p) => Location::Sqlite(p.clone()),
            Db::Pg(url) => Location::parse(url, None, "WARD_TEST_PG").unwrap(),
        }
    }

    fn open(&self) -> Store {
        Store::open_location(&self.location()).unwrap()
    }

    /// Sets `meta.schema_version` behind the store's back.
    fn set_schema_version(&self, v: &str) {
        self.execute(&format!(
            "UPDATE meta SET value = '{v}' WHERE key = 'schema_version'"
        ));
    }

    /// Whether the database has an index of that name.
    fn has_index(&self, name: &str) -> bool {
        match self {
            Db::Sqlite(_, p) => {
                rusqlite::Connection::open(p)
                    .unwrap()
                    .query_row(
                        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ?1",
                        [name],
                        |r| r.get::<_, i64>(0),
                    )
                    .unwrap()
                    == 1
            }
            Db::Pg(url) => {
                postgres::Client::connect(url, postgres::NoTls)
                    .unwrap()
                    .query_one(
                        "SELECT COUNT(*) FROM pg_indexes WHERE indexname = $1",
                        &[&name],
                    )
                    .unwrap()
                    .get::<_, i64>(0)
                    == 1
            }
        }
    }

    /// Runs SQL behind the store's back, the way another program would.
    fn execute(&self, sql: &str) {
        match self {
            Db::Sqlite(_, p) => rusqlite::Connection::open(p)
                .unwrap()
                .execute_batch(sql)
                .unwrap(),
            Db::Pg(url) => postgres::Client::connect(url, postgres::NoTls)
                .unwrap()
                .batch_execute(sql)
                .unwrap(),
        }
    }
}

macro_rules! both {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[test]
                fn sqlite() {
                    super::$name(&super::Db::sqlite());
                }
                #[test]
                fn postgres() {
                    if let Some(db) = super::Db::pg() {
                        super::$name(&db);
                    }
                }
            }
        )*
    };
}

both!(
    findings_appear_persist_escalate_resolve_and_reopen,
    a_lowered_finding_stays_open_at_the_impact_seen_last,
    state_marks_outcomes_and_runs_round_trip,
    records_round_trip_newest_first_and_filter,
    a_bad_record_is_refused_and_nothing_lands,
    a_newer_or_unreadable_schema_is_refused,
    opening_again_migrates_nothing,
    a_batch_lands_whole_or_not_at_all,
    latest_outcomes_and_open_findings,
    eight_concurrent_shards_lose_nothing,
    approvals_and_gate_outcomes_round_trip_newest_first,
    a_bad_approval_is_refused_and_nothing_lands,
    a_schema_3_history_gains_the_audit_tables,
    an_audit_row_ward_did_not_write_is_an_error_not_a_guess,
    a_schema_4_history_gains_the_findings_index,
    every_root_runs_is_each_roots_newest_runs,
    a_schema_5_history_gains_the_run_indexes_and_findings_since_reads_them,
);

/// A history of schema 5 gains `findings_by_last_run` and `findings_by_resolved_run` when
/// opened; `findings_since` gives the findings open or seen or resolved from a run on, in the
/// order of `findings`, and nothing older.
fn a_schema_5_history_gains_the_run_indexes_and_findings_since_reads_them(db: &Db) {
    let (r1, r2, r3);
    {
        let mut s = db.open();
        // Run 1 sees old (resolved in run 2) and kept (still open); run 2 sees gone (resolved
        // in run 3); run 3 sees new.
        r1 = s.begin_run("t1", None).unwrap();
        s.apply_findings(
            r1,
            "t1",
            "net",
            &[f("a", "old", "free"), f("a", "kept", "free")],
        )
        .unwrap();
        s.apply_findings(r1, "t1", "app", &[f("x", "gone", "free")])
            .unwrap();
        r2 = s.begin_run("t2", None).unwrap();
        s.apply_findings(r2, "t2", "net", &[f("a", "kept", "free")])
            .unwrap();
        s.apply_findings(r2, "t2", "app", &[f("x", "gone", "replace")])
            .unwrap();
        r3 = s.begin_run("t3", None).unwrap();
        s.apply_findings(r3, "t3", "app", &[f("y", "new", "free")])
            .unwrap();
        // A finding seen and resolved before run 2: out of every window from run 2 on.
        s.apply_findings(r1, "t1", "db", &[f("d", "early", "free")])
            .unwrap();
        s.apply_findings(r1, "t1", "db", &[]).unwrap();
        // Outcomes: net in runs 1 and 3, app in 1 and 2 (its newest is run 2), db recorded by
        // run 3 before run 2 wrote it again (an older run finishing last does not win).
        s.record_outcome(r1, &outcome("net", "clean")).unwrap();
        s.record_outcome(r1, &outcome("app", "clean")).unwrap();
        s.record_outcome(r2, &outcome("app", "drifted")).unwrap();
        s.record_outcome(r3, &outcome("net", "error")).unwrap();
        s.record_outcome(r3, &outcome("db", "locked")).unwrap();
        s.record_outcome(r2, &outcome("db", "clean")).unwrap();
    }
    let latest = |s: &ward_store::Store| -> Vec<(String, i64, String)> {
        s.latest_outcomes()
            .unwrap()
            .into_iter()
            .map(|r| (r.outcome.root, r.run, r.outcome.outcome))
            .collect()
    };
    let expected = vec![
        ("app".to_string(), r2, "drifted".to_string()),
        ("db".to_string(), r3, "locked".to_string()),
        ("net".to_string(), r3, "error".to_string()),
    ];
    assert_eq!(latest(&db.open()), expected, "kept as outcomes are written");
    for index in ["findings_by_last_run", "findings_by_resolved_run"] {
        assert!(db.has_index(index), "{index}");
    }
    db.execute(
        "DROP INDEX findings_by_last_run; DROP INDEX findings_by_resolved_run; DROP TABLE root_latest;",
    );
    db.set_schema_version("5");
    let s = db.open();
    assert_eq!(
        s.schema_version().unwrap(),
        Some(ward_store::SCHEMA_VERSION.to_string())
    );
    for index in ["findings_by_last_run", "findings_by_resolved_run"] {
        assert!(db.has_index(index), "{index} after migrating");
    }
    assert_eq!(
        latest(&s),
        expected,
        "filled from the outcomes by the migration"
    );
    let names = |rows: Vec<ward_store::FindingRow>| -> Vec<String> {
        rows.into_iter()
            .map(|r| format!("{}:{}", r.root, r.attribute))
            .collect()
    };
    // Everything from run 1 on is the whole list, in its order.
    assert_eq!(
        names(s.findings_since(r1).unwrap()),
        names(s.findings(None).unwrap())
    );
    // From run 2: net's old (resolved there), kept (open), app's gone (seen) and new (open).
    assert_eq!(
        names(s.findings_since(r2).unwrap()),
        ["app:gone", "app:new", "net:kept", "net:old"]
    );
    // From run 3: gone resolved there, new and kept open; old is out.
    assert_eq!(
        names(s.findings_since(r3).unwrap()),
        ["app:gone", "app:new", "net:kept"]
    );
    // After every run: the open ones only.
    assert_eq!(
        names(s.findings_since(r3 + 1).unwrap()),
        names(s.open_findings().unwrap())
    );
}

fn f(addr: &str, attr: &str, impact: &str) -> Finding {
    Finding {
        address: addr.into(),
        attribute: attr.into(),
        impact: impact.into(),
    }
}

fn outcome(root: &str, outcome: &str) -> OutcomeRow {
    OutcomeRow {
        root: root.into(),
        outcome: outcome.into(),
        detail: String::new(),
        state: None,
        binary: None,
    }
}

fn findings_appear_persist_escalate_resolve_and_reopen(db: &Db) {
    let mut s = db.open();
    let r1 = s.begin_run("t1", None).unwrap();
    let t = s
        .apply_findings(r1, "t1", "net", &[f("a.b", "tags.x", "free")])
        .unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].kind, TransitionKind::New);

    let r2 = s.begin_run("t2", None).unwrap();
    let t = s
        .apply_findings(r2, "t2", "net", &[f("a.b", "tags.x", "free")])
        .unwrap();
    assert!(t.is_empty(), "persisting drift is not a transition: {t:?}");

    let r3 = s.begin_run("t3", None).unwrap();
    let t = s
        .apply_findings(r3, "t3", "net", &[f("a.b", "tags.x", "data-loss")])
        .unwrap();
    assert_eq!(t[0].kind, TransitionKind::Escalated);
    assert_eq!(t[0].previous_impact.as_deref(), Some("free"));

    let r4 = s.begin_run("t4", None).unwrap();
    let t = s.apply_findings(r4, "t4", "net", &[]).unwrap();
    assert_eq!(t[0].kind, TransitionKind::Resolved);
    assert_eq!(t[0].impact, "data-loss");

    let r5 = s.begin_run("t5", None).unwrap();
    let t = s
        .apply_findings(r5, "t5", "net", &[f("a.b", "tags.x", "free")])
        .unwrap();
    assert_eq!(t[0].kind, TransitionKind::New);

    let rows = s.findings(Some("net")).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].first_seen, (r1, "t1".into()));
    assert_eq!(rows[0].last_seen, (r3, "t3".into()));
    assert_eq!(rows[0].resolved, Some((r4, "t4".into())));
    assert_eq!(rows[1].resolved, None);
    assert!(s.findings(Some("other")).unwrap().is_empty());
    assert_eq!(s.findings(None).unwrap().len(), 2);
}

/// Drift that becomes milder stays one open episode (no transition: only new, escalated and
/// resolved drift alerts), and the history shows the impact seen last, not the worst one.
fn a_lowered_finding_stays_open_at_the_impact_seen_last(db: &Db) {
    let mut s = db.open();
    let r1 = s.begin_run("t1", None).unwrap();
    s.apply_findings(r1, "t1", "net", &[f("a.b", "size", "replace")])
        .unwrap();
    let r2 = s.begin_run("t2", None).unwrap();
    let t = s
        .apply_findings(r2, "t2", "net", &[f("a.b", "size", "free")])
        .unwrap();
    assert!(t.is_empty(), "a milder drift is not a transition: {t:?}");
    let rows = s.findings(Some("net")).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].impact, "free");
    assert_eq!(rows[0].last_seen, (r2, "t2".into()));
    assert_eq!(rows[0].resolved, None);
}

fn state_marks_outcomes_and_runs_round_trip(db: &Db) {
    let mark = StateMark {
        lineage: "L1".into(),
        serial: 4,
    };
    {
        let mut s = db.open();
        let run = s.begin_run("t1", Some("1/2")).unwrap();
        s.set_state_mark(run, "t1", "net", &mark).unwrap();
        s.record_outcome(
            run,
            &OutcomeRow {
                root: "net".into(),
                outcome: "clean".into(),
                detail: "d".into(),
                state: Some(mark.clone()),
                binary: Some("terraform 1.11.4".into()),
            },
        )
        .unwrap();
        s.finish_run(run, "t2", 7).unwrap();
        let later = StateMark {
            lineage: "L1".into(),
            serial: 5,
        };
        let run2 = s.begin_run("t3", None).unwrap();
        s.set_state_mark(run2, "t3", "net", &later).unwrap();
        s.set_state_mark(run2, "t3", "net", &mark).unwrap();
    }
    let s = db.open();
    assert_eq!(s.state_marks().unwrap().get("net"), Some(&mark));
    let runs = s.runs(10).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[1].exit_code, Some(7));
    assert_eq!(runs[1].shard.as_deref(), Some("1/2"));
    assert_eq!(runs[1].finished_at.as_deref(), Some("t2"));
    assert_eq!(runs[1].outcomes.get("clean"), Some(&1));
    assert_eq!(runs[0].exit_code, None);
    assert_eq!(s.runs(1).unwrap().len(), 1);
    let rr = s.root_runs("net", 10).unwrap();
    assert_eq!(rr.len(), 1);
    assert_eq!(rr[0].outcome.state, Some(mark));
    assert_eq!(rr[0].outcome.binary.as_deref(), Some("terraform 1.11.4"));
    assert_eq!(rr[0].started_at, "t1");
    assert_eq!(s.roots().unwrap(), vec!["net".to_string()]);
}

fn rec<'a>(
    kind: &'a str,
    root: &'a str,
    key: &'a str,
    body: &'a serde_json::Value,
) -> NewRecord<'a> {
    NewRecord {
        kind,
        root,
        key,
        recorded_at: "2026-12-01T00:00:00Z",
        body,
    }
}

fn records_round_trip_newest_first_and_filter(db: &Db) {
    let (a, b, c) = (
        json!({"n": 1}),
        json!({"n": 2}),
        json!({"n": 3, "z": [1], "a": null}),
    );
    {
        let mut s = db.open();
        s.append_record(&rec("stack-step", "net", "run-1", &a))
            .unwrap();
        let ids = s
            .append_records(&[
                rec("stack-step", "net", "run-2", &b),
                rec("stack-step", "app", "run-2", &c),
            ])
            .unwrap();
        assert_eq!(ids.len(), 2);
        assert!(ids[0] < ids[1]);
    }
    let s = db.open();
    let all = s
        .records(&RecordQuery {
            kind: "stack-step",
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        all.iter()
            .map(|r| r.body["n"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [3, 2, 1]
    );
    assert_eq!(all[0].body, c);
    assert_eq!(all[0].recorded_at, "2026-12-01T00:00:00Z");
    let net = s
        .records(&RecordQuery {
            kind: "stack-step",
            root: Some("net"),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(net.len(), 2);
    let keyed = s
        .records(&RecordQuery {
            kind: "stack-step",
            key: Some("run-2"),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(keyed.len(), 2);
    assert_eq!(
        s.latest_record("stack-step", "net", "run-1")
            .unwrap()
            .unwrap()
            .body,
        a
    );
    assert!(s
        .latest_record("stack-step", "net", "run-9")
        .unwrap()
        .is_none());
    let one = s
        .records(&RecordQuery {
            kind: "stack-step",
            limit: 1,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(one.len(), 1);
    assert!(s
        .records(&RecordQuery {
            kind: "alert",
            ..Default::default()
        })
        .unwrap()
        .is_empty());
}

fn a_bad_record_is_refused_and_nothing_lands(db: &Db) {
    let mut s = db.open();
    let ok = json!({});
    let e = s
        .append_record(&rec("stack-stpe", "net", "", &ok))
        .unwrap_err();
    assert!(
        e.to_string().contains("unknown record kind `stack-stpe`"),
        "{e}"
    );
    // Approvals and gate decisions are not records: they have tables of their own, and a JSON
    // record of their old kinds would be a second, unread history.
    for kind in ["approval", "gate"] {
        assert!(
            s.append_record(&rec(kind, "net", "", &ok)).is_err(),
            "{kind}"
        );
    }
    let bad = json!([1]);
    let e = s
        .append_records(&[
            rec("stack-step", "net", "", &ok),
            rec("stack-step", "net", "", &bad),
        ])
        .unwrap_err();
    assert!(e.to_string().contains("must be a JSON object"), "{e}");
    assert!(s
        .records(&RecordQuery {
            kind: "stack-step",
            ..Default::default()
        })
        .unwrap()
        .is_empty());
}

fn a_newer_or_unreadable_schema_is_refused(db: &Db) {
    drop(db.open());
    db.set_schema_version("99");
    match Store::open_location(&db.location()) {
        Err(e @ StoreError::NewerSchema { found: 99 }) => {
            assert!(e.to_string().contains("upgrade ward"), "{e}");
        }
        other => panic!("expected NewerSchema, got {:?}", other.err()),
    }
    for bad in ["banana", "0", ""] {
        db.set_schema_version(bad);
        match Store::open_location(&db.location()) {
            Err(StoreError::BadSchema { found }) => assert_eq!(found, bad),
            other => panic!("{bad}: expected BadSchema, got {:?}", other.err()),
        }
    }
}

fn opening_again_migrates_nothing(db: &Db) {
    let mut s = db.open();
    assert_eq!(
        s.schema_version().unwrap(),
        Some(ward_store::SCHEMA_VERSION.to_string())
    );
    let r = s.begin_run("t1", None).unwrap();
    s.apply_findings(r, "t1", "net", &[f("a", "b", "free")])
        .unwrap();
    drop(s);
    let s = db.open();
    assert_eq!(s.findings(None).unwrap().len(), 1);
    assert_eq!(
        s.schema_version().unwrap(),
        Some(ward_store::SCHEMA_VERSION.to_string())
    );
}

fn a_batch_lands_whole_or_not_at_all(db: &Db) {
    {
        let mut s = db.open();
        let run = s.begin_run("t1", None).unwrap();
        s.begin_batch().unwrap();
        s.apply_findings(run, "t1", "net", &[f("a", "b", "free")])
            .unwrap();
        s.record_outcome(run, &outcome("net", "drifted")).unwrap();
        s.finish_run(run, "t2", 7).unwrap();
        // The process dies before the commit.
    }
    let s = db.open();
    assert!(s.findings(None).unwrap().is_empty());
    assert!(s.latest_outcomes().unwrap().is_empty());
    let runs = s.runs(5).unwrap();
    assert_eq!(runs.len(), 1, "the run itself was recorded when it began");
    assert_eq!(runs[0].finished_at, None);
    drop(s);
    let mut s = db.open();
    let run = s.begin_run("t3", None).unwrap();
    s.begin_batch().unwrap();
    s.apply_findings(run, "t3", "net", &[f("a", "b", "free")])
        .unwrap();
    s.record_outcome(run, &outcome("net", "drifted")).unwrap();
    s.finish_run(run, "t4", 7).unwrap();
    s.commit_batch().unwrap();
    drop(s);
    let s = db.open();
    assert_eq!(s.findings(None).unwrap().len(), 1);
    assert_eq!(s.latest_outcomes().unwrap().len(), 1);
}

fn latest_outcomes_and_open_findings(db: &Db) {
    let mut s = db.open();
    for (i, o) in ["clean", "drifted", "error"].iter().enumerate() {
        let now = format!("t{i}");
        let run = s.begin_run(&now, None).unwrap();
        s.record_outcome(run, &outcome("net", o)).unwrap();
        if i < 2 {
            s.record_outcome(run, &outcome("app", "clean")).unwrap();
        }
        let found = if i == 1 {
            vec![f("x", "y", "replace")]
        } else {
            vec![]
        };
        s.apply_findings(run, &now, "app", &found).unwrap();
        s.apply_findings(run, &now, "net", &[f("n", "m", "free")])
            .unwrap();
        s.finish_run(run, &now, 0).unwrap();
    }
    let latest = s.latest_outcomes().unwrap();
    let got: Vec<(&str, &str, i64)> = latest
        .iter()
        .map(|r| (r.outcome.root.as_str(), r.outcome.outcome.as_str(), r.run))
        .collect();
    let runs = s.runs(10).unwrap();
    let (first, last) = (runs[2].id, runs[0].id);
    assert_eq!(got, [("app", "clean", first + 1), ("net", "error", last)]);
    let open = s.open_findings().unwrap();
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0].root, "net");
    assert_eq!(s.findings(None).unwrap().len(), 2);
}

/// 8 shards, each its own connection and its own 25 roots, three runs each, all at once: every
/// run, outcome, finding, state mark and record is there afterwards.
fn eight_concurrent_shards_lose_nothing(db: &Db) {
    const SHARDS: usize = 8;
    const ROOTS: usize = 25;
    const RUNS: usize = 3;
    drop(db.open());
    let location = db.location();
    std::thread::scope(|scope| {
        for k in 0..SHARDS {
            let location = location.clone();
            scope.spawn(move || {
                let mut s = Store::open_location(&location).unwrap();
                let shard = format!("{}/{SHARDS}", k + 1);
                for n in 0..RUNS {
                    let now = format!("2026-12-01T0{n}:00:00Z");
                    let run = s.begin_run(&now, Some(&shard)).unwrap();
                    s.begin_batch().unwrap();
                    for r in 0..ROOTS {
                        let root = format!("shard{k}/root{r}");
                        // Run 0 finds two drifts, run 1 one of them (escalated), run 2 none.
                        let found: Vec<Finding> = match n {
                            0 => vec![f("a.b", "size", "free"), f("a.c", "tags", "free")],
                            1 => vec![f("a.b", "size", "replace")],
                            _ => vec![],
                        };
                        s.apply_findings(run, &now, &root, &found).unwrap();
                        s.set_state_mark(
                            run,
                            &now,
                            &root,
                            &StateMark {
                                lineage: root.clone(),
                                serial: n as i64,
                            },
                        )
                        .unwrap();
                        s.record_outcome(
                            run,
                            &outcome(&root, if found.is_empty() { "clean" } else { "drifted" }),
                        )
                        .unwrap();
                    }
                    let body = json!({"shard": shard, "run": n});
                    s.append_record(&rec("stack-run", &shard, &now, &body))
                        .unwrap();
                    s.finish_run(run, &now, 0).unwrap();
                    s.commit_batch().unwrap();
                }
            });
        }
    });
    let s = Store::open_location(&location).unwrap();
    let runs = s.runs(1000).unwrap();
    assert_eq!(runs.len(), SHARDS * RUNS);
    assert!(runs.iter().all(|r| r.exit_code == Some(0)));
    let outcomes: i64 = runs.iter().flat_map(|r| r.outcomes.values()).sum();
    assert_eq!(outcomes as usize, SHARDS * ROOTS * RUNS);
    assert_eq!(s.roots().unwrap().len(), SHARDS * ROOTS);
    let findings = s.findings(None).unwrap();
    assert_eq!(findings.len(), SHARDS * ROOTS * 2);
    assert!(findings.iter().all(|f| f.resolved.is_some()));
    assert_eq!(
        findings.iter().filter(|f| f.impact == "replace").count(),
        SHARDS * ROOTS
    );
    let marks = s.state_marks().unwrap();
    assert_eq!(marks.len(), SHARDS * ROOTS);
    assert!(marks.values().all(|m| m.serial == (RUNS - 1) as i64));
    let records = s
        .records(&RecordQuery {
            kind: "stack-run",
            ..Default::default()
        })
        .unwrap();
    assert_eq!(records.len(), SHARDS * RUNS);
    for r in s.latest_outcomes().unwrap() {
        assert_eq!(r.outcome.outcome, "clean", "{r:?}");
    }
}

fn approval(root: &str, address: &str, at: &str) -> ApprovalRecord {
    ApprovalRecord {
        source: AuditSource::Gate,
        root: root.into(),
        site: None,
        address: address.into(),
        deposed: None,
        action: "delete".into(),
        impact: "data-loss".into(),
        digest: format!("sha256:{address}"),
        by: "alice".into(),
        reason: "backup taken <ticket 42>".into(),
        approved_at: at.into(),
        expires_at: Some("2026-12-08T00:00:00Z".into()),
        signed: false,
        plan: "plan.json".into(),
        run: None,
    }
}

fn gate_outcome(root: &str, outcome: &str, exit_code: i64) -> GateOutcomeRecord {
    GateOutcomeRecord {
        source: AuditSource::Stack,
        root: root.into(),
        site: Some("dc0".into()),
        plan: "/b/volumes/dc0/destroy.plan.json".into(),
        outcome: outcome.into(),
        exit_code,
        decided_at: "2026-12-01T00:00:00Z".into(),
        reasons: if exit_code == 0 {
            Vec::new()
        } else {
            vec!["1 change(s) need an approval".into()]
        },
        changes: vec![GateChange {
            address: "fakecloud_volume.data".into(),
            deposed: Some("0a1b".into()),
            action: "delete".into(),
            impact: "data-loss".into(),
            digest: "sha256:aa".into(),
            status: if exit_code == 0 {
                "approved"
            } else {
                "missing"
            }
            .into(),
            by: (exit_code == 0).then(|| "alice".to_string()),
            expires_at: None,
            review: (exit_code == 0).then(|| ward_store::GateReview {
                source: "github:acme/infra#7".into(),
                commit: "3f2a9c1".into(),
                approved_at: "2026-12-01T00:00:00Z".into(),
            }),
        }],
        run: Some("run-1".into()),
    }
}

/// Approvals and gate outcomes come back as written (every field, `None`s and lists
/// included), newest first, by root, and at most `limit`.
fn approvals_and_gate_outcomes_round_trip_newest_first(db: &Db) {
    let mut stacked = approval("volumes", "fakecloud_volume.data", "2026-12-01T00:00:01Z");
    stacked.source = AuditSource::Stack;
    stacked.site = Some("dc0".into());
    stacked.deposed = Some("0a1b".into());
    stacked.expires_at = None;
    stacked.signed = true;
    stacked.run = Some("run-1".into());
    {
        let mut s = db.open();
        let ids = s
            .record_approvals(&[
                approval("net", "fakecloud_network.main", "2026-12-01T00:00:00Z"),
                stacked.clone(),
            ])
            .unwrap();
        assert!(ids[0] < ids[1], "{ids:?}");
        s.record_gate_outcome(&gate_outcome("volumes", "approval-required", 4))
            .unwrap();
        s.record_gate_outcome(&gate_outcome("volumes", "pass", 0))
            .unwrap();
        s.record_gate_outcome(&gate_outcome("net", "pass", 0))
            .unwrap();
    }
    let s = db.open();
    let all = s.approvals(&AuditQuery::default()).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].approval, stacked);
    assert_eq!(
        all[1].approval,
        approval("net", "fakecloud_network.main", "2026-12-01T00:00:00Z")
    );
    let vols = s
        .approvals(&AuditQuery {
            root: Some("volumes"),
            limit: 0,
        })
        .unwrap();
    assert_eq!(vols.len(), 1);
    assert_eq!(vols[0].approval.by, "alice");
    let g = s
        .gate_outcomes(&AuditQuery {
            root: Some("volumes"),
            limit: 0,
        })
        .unwrap();
    assert_eq!(
        g.iter()
            .map(|r| r.outcome.outcome.as_str())
            .collect::<Vec<_>>(),
        ["pass", "approval-required"]
    );
    assert_eq!(
        g[1].outcome,
        gate_outcome("volumes", "approval-required", 4)
    );
    assert_eq!(g[0].outcome, gate_outcome("volumes", "pass", 0));
    let newest = s
        .gate_outcomes(&AuditQuery {
            root: None,
            limit: 1,
        })
        .unwrap();
    assert_eq!(newest.len(), 1);
    assert_eq!(newest[0].outcome.root, "net");
    // The JSON a dashboard gets is flat: the row's id beside the record's fields.
    let j = serde_json::to_value(&all[0]).unwrap();
    assert_eq!(j["id"], json!(all[0].id));
    assert_eq!(j["by"], json!("alice"));
    assert_eq!(j["source"], json!("stack"));
}

/// An approval with no approver or digest is refused, and nothing of its batch lands.
fn a_bad_approval_is_refused_and_nothing_lands(db: &Db) {
    let mut s = db.open();
    let mut nobody = approval("net", "a.b", "t");
    nobody.by = " ".into();
    let e = s
        .record_approvals(&[approval("net", "a.c", "t"), nobody])
        .unwrap_err();
    assert!(e.to_string().contains("no approver"), "{e}");
    let mut undigested = approval("net", "a.b", "t");
    undigested.digest = String::new();
    assert!(s.record_approvals(&[undigested]).is_err());
    assert!(s.approvals(&AuditQuery::default()).unwrap().is_empty());
    let mut unknown = gate_outcome("net", "", 0);
    unknown.decided_at = "t".into();
    assert!(s.record_gate_outcome(&unknown).is_err());
    assert!(s.gate_outcomes(&AuditQuery::default()).unwrap().is_empty());
}

/// A history written by a ward of schema 3 (no audit tables) gains them when opened, keeps
/// what it held, and records approvals.
fn a_schema_3_history_gains_the_audit_tables(db: &Db) {
    {
        let mut s = db.open();
        let body = json!({"n": 1});
        s.append_record(&rec("stack-step", "net", "run-1", &body))
            .unwrap();
    }
    db.execute("DROP TABLE approvals; DROP TABLE gate_outcomes;");
    db.set_schema_version("3");
    let mut s = db.open();
    assert_eq!(
        s.schema_version().unwrap(),
        Some(ward_store::SCHEMA_VERSION.to_string())
    );
    assert_eq!(
        s.records(&RecordQuery {
            kind: "stack-step",
            ..Default::default()
        })
        .unwrap()
        .len(),
        1
    );
    s.record_approvals(&[approval("net", "a.b", "t")]).unwrap();
    s.record_gate_outcome(&gate_outcome("net", "pass", 0))
        .unwrap();
    assert_eq!(s.approvals(&AuditQuery::default()).unwrap().len(), 1);
    assert_eq!(s.gate_outcomes(&AuditQuery::default()).unwrap().len(), 1);
}

/// A row whose source ward never writes (edited behind its back) is refused when read, with
/// its id, instead of being shown as one of ward's.
fn an_audit_row_ward_did_not_write_is_an_error_not_a_guess(db: &Db) {
    {
        let mut s = db.open();
        s.record_approvals(&[approval("net", "a.b", "t")]).unwrap();
        s.record_gate_outcome(&gate_outcome("net", "pass", 0))
            .unwrap();
    }
    db.execute("UPDATE approvals SET source = 'banana'; UPDATE gate_outcomes SET changes = '{';");
    let s = db.open();
    let e = s.approvals(&AuditQuery::default()).unwrap_err().to_string();
    assert!(e.contains("`banana`"), "{e}");
    let e = s
        .gate_outcomes(&AuditQuery::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("gate outcome 1 cannot be read back"), "{e}");
}

/// A history written by a ward of schema 4 (no `findings_by_root`) gains the index when opened
/// and keeps what it held; a root's findings read the same through it.
fn a_schema_4_history_gains_the_findings_index(db: &Db) {
    {
        let mut s = db.open();
        let r = s.begin_run("t1", None).unwrap();
        s.apply_findings(
            r,
            "t1",
            "net",
            &[f("a", "b", "free"), f("a", "c", "replace")],
        )
        .unwrap();
        s.apply_findings(r, "t1", "app", &[f("x", "y", "free")])
            .unwrap();
        let r = s.begin_run("t2", None).unwrap();
        s.apply_findings(r, "t2", "net", &[f("a", "c", "replace")])
            .unwrap();
    }
    assert!(db.has_index("findings_by_root"));
    db.execute("DROP INDEX findings_by_root;");
    db.set_schema_version("4");
    assert!(!db.has_index("findings_by_root"));
    let s = db.open();
    assert_eq!(
        s.schema_version().unwrap(),
        Some(ward_store::SCHEMA_VERSION.to_string())
    );
    assert!(db.has_index("findings_by_root"));
    let net: Vec<(String, String, bool)> = s
        .findings(Some("net"))
        .unwrap()
        .into_iter()
        .map(|r| (r.address, r.attribute, r.resolved.is_some()))
        .collect();
    assert_eq!(
        net,
        [
            ("a".to_string(), "b".to_string(), true),
            ("a".to_string(), "c".to_string(), false),
        ]
    );
    assert_eq!(s.findings(None).unwrap().len(), 3);
    assert_eq!(s.open_findings().unwrap().len(), 2);
}

/// Every root's newest runs at once are what each root's own query gives, in root order, and
/// the roots and latest outcomes agree with them.
fn every_root_runs_is_each_roots_newest_runs(db: &Db) {
    let mut s = db.open();
    let roots = ["b/net", "a/app", "c/db", "a/app2"];
    for n in 0..6 {
        let now = format!("t{n}");
        let run = s.begin_run(&now, None).unwrap();
        for (i, root) in roots.iter().enumerate() {
            // Root i is checked in runs n >= i (c/db from the third, a/app2 only in the fourth on).
            if n >= i {
                let o = if (n + i) % 3 == 0 { "drifted" } else { "clean" };
                s.record_outcome(run, &outcome(root, o)).unwrap();
            }
        }
        s.finish_run(run, &now, 0).unwrap();
    }
    let mut sorted = roots.to_vec();
    sorted.sort();
    assert_eq!(s.roots().unwrap(), sorted);
    for limit in [1, 2, 4, 100] {
        let all = s.every_root_runs(limit).unwrap();
        let mut expected = Vec::new();
        for root in &sorted {
            expected.extend(s.root_runs(root, limit).unwrap());
        }
        assert_eq!(all, expected, "limit {limit}");
    }
    let latest: Vec<(String, i64)> = s
        .latest_outcomes()
        .unwrap()
        .into_iter()
        .map(|r| (r.outcome.root, r.run))
        .collect();
    let newest: Vec<(String, i64)> = s
        .every_root_runs(1)
        .unwrap()
        .into_iter()
        .map(|r| (r.outcome.root, r.run))
        .collect();
    assert_eq!(latest, newest);
    assert_eq!(latest.len(), 4);
    assert!(s.every_root_runs(3).unwrap().len() == 3 + 3 + 3 + 3);
    drop(s);
    let empty = Db::sqlite();
    let s = empty.open();
    assert!(s.every_root_runs(5).unwrap().is_empty());
    assert!(s.latest_outcomes().unwrap().is_empty());
    assert!(s.roots().unwrap().is_empty());
}
