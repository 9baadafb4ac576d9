//! The audit trail: with a history to record in ([`Audit`]), `ward gate` records each decision
//! and `ward approve` each approval as it is given (#33 item 8), on SQLite and on a real
//! PostgreSQL server (`WARD_TEST_PG`, as ward-store's suite: skipped with a message when unset,
//! a failure under `CI=true`). Without one, nothing is recorded and no history is created.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::T;
use std::sync::atomic::{AtomicUsize, Ordering};
use ward_gate::run::{Audit, GateOptions};
use ward_model::Exit;
use ward_store::{AuditQuery, AuditSource, Location, Store};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A SQLite history in `t`, and the test server's database when there is one.
fn histories(t: &T) -> Vec<Location> {
    let mut out = vec![Location::Sqlite(t.path("history.sqlite"))];
    match std::env::var("WARD_TEST_PG").ok().filter(|v| !v.is_empty()) {
        Some(url) => out.push(Location::parse(&url, None, "WARD_TEST_PG").unwrap()),
        None if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("WARD_TEST_PG is not set under CI=true: scripts/test sets it")
        }
        None => eprintln!(
            "skipped: the PostgreSQL half (WARD_TEST_PG is not set; scripts/test sets it)"
        ),
    }
    out
}

/// A root name no other test (or run) records under, so a shared database reads back only ours.
fn unique_root() -> String {
    format!(
        "audit-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

#[test]
fn each_decision_and_approval_lands_in_the_history_as_the_gate_moves() {
    let mut t = T::new("");
    let key = "k3y-never-in-the-history";
    t.set("WARD_APPROVAL_KEY", key);
    for history in histories(&t) {
        let root = unique_root();
        let audit = Audit {
            history: history.clone(),
            source: AuditSource::Gate,
            root: Some(root.clone()),
            site: None,
            run: None,
        };
        let gate = |t: &T| {
            t.gate_opts(&GateOptions {
                inputs: t.inputs("data-loss.json"),
                record: None,
                no_record_protection: true,
                audit: Some(audit.clone()),
                binding: Default::default(),
            })
            .unwrap()
        };
        let q = AuditQuery {
            root: Some(&root),
            limit: 0,
        };
        // Blocked: recorded with why and the change it waits for.
        assert_eq!(gate(&t).exit, Exit::ApprovalRequired);
        let store = Store::open_location(&history).unwrap();
        let blocked = store.gate_outcomes(&q).unwrap();
        assert_eq!(blocked.len(), 1, "{history}");
        let b = &blocked[0].outcome;
        assert_eq!(
            (b.outcome.as_str(), b.exit_code, b.decided_at.as_str()),
            ("approval-required", 4, "2026-11-29T18:00:00Z")
        );
        assert_eq!(b.root, root);
        assert!(b.plan.ends_with("data-loss.json"), "{}", b.plan);
        let c = b
            .changes
            .iter()
            .find(|c| c.address == "fakecloud_volume.db_data")
            .unwrap();
        assert_eq!((c.status.as_str(), c.by.as_deref()), ("missing", None));
        assert!(
            b.reasons
                .iter()
                .any(|r| r.starts_with("fakecloud_volume.db_data (")
                    && r.ends_with("approval missing")),
            "{:?}",
            b.reasons
        );
        // Each approval as given: who, when, the digest the gate asked for, the expiry.
        for w in &b.changes {
            t.approve("data-loss.json", |o| {
                o.address = w.address.clone();
                o.audit = Some(audit.clone());
            })
            .unwrap();
        }
        let given = store.approvals(&q).unwrap();
        assert_eq!(given.len(), b.changes.len());
        let a = &given
            .iter()
            .find(|a| a.approval.address == "fakecloud_volume.db_data")
            .unwrap()
            .approval;
        assert_eq!(a.digest, c.digest);
        assert_eq!(a.by, "alice");
        assert_eq!(a.reason, "snapshot taken");
        assert_eq!(a.approved_at, "2026-11-29T18:00:00Z");
        assert_eq!(a.expires_at.as_deref(), Some("2026-12-06T18:00:00Z"));
        assert!(a.signed);
        assert_eq!(a.source, AuditSource::Gate);
        assert_eq!(a.plan, b.plan);
        // The approvals file is still what the gate reads: now it passes, and says so.
        assert_eq!(gate(&t).exit, Exit::Pass);
        let now = store.gate_outcomes(&q).unwrap();
        assert_eq!(now.len(), 2);
        let p = &now[0].outcome;
        assert_eq!((p.outcome.as_str(), p.exit_code), ("pass", 0));
        assert!(p.reasons.is_empty(), "{:?}", p.reasons);
        assert_eq!(p.changes[0].status, "approved");
        assert_eq!(p.changes[0].by.as_deref(), Some("alice"));
        assert_eq!(
            p.changes[0].expires_at.as_deref(),
            Some("2026-12-06T18:00:00Z")
        );
        // Nothing secret: neither the key nor the signature it made.
        let text = format!(
            "{}{}",
            serde_json::to_string(&store.approvals(&q).unwrap()).unwrap(),
            serde_json::to_string(&store.gate_outcomes(&q).unwrap()).unwrap()
        );
        assert!(
            !text.contains(key) && !text.contains("hmac-sha256"),
            "{text}"
        );
        // The next history's approval starts from an empty file.
        std::fs::remove_file(t.path(".ward/approvals.json")).unwrap();
    }
}

#[test]
fn without_an_audit_nothing_is_recorded_and_no_history_is_created() {
    let t = T::new("");
    let db = t.path("history.sqlite");
    let inputs = || ward_gate::run::Inputs {
        history: Some(Location::Sqlite(db.clone())),
        ..t.inputs("data-loss.json")
    };
    let out = t
        .gate_opts(&GateOptions {
            inputs: inputs(),
            record: None,
            no_record_protection: true,
            audit: None,
            binding: Default::default(),
        })
        .unwrap();
    assert_eq!(out.exit, Exit::ApprovalRequired);
    t.approve("data-loss.json", |o| o.inputs = inputs())
        .unwrap();
    assert!(!db.exists(), "a history was created");
}

#[test]
fn a_history_that_cannot_be_written_fails_the_gate_instead_of_leaving_a_hole() {
    let t = T::new("");
    // A directory where the history file should be: SQLite cannot open it.
    let db = t.path("history.sqlite");
    std::fs::create_dir_all(&db).unwrap();
    let e = t
        .gate_opts(&GateOptions {
            inputs: t.inputs("data-loss.json"),
            record: None,
            no_record_protection: true,
            audit: Some(Audit {
                history: Location::Sqlite(db.clone()),
                source: AuditSource::Gate,
                root: None,
                site: None,
                run: None,
            }),
            binding: Default::default(),
        })
        .unwrap_err();
    assert!(e.contains("cannot record in the history"), "{e}");
    // An approval: the file has it, and the error says the history does not.
    let e = t
        .approve("data-loss.json", |o| {
            o.audit = Some(Audit {
                history: Location::Sqlite(db.clone()),
                source: AuditSource::Gate,
                root: None,
                site: None,
                run: None,
            })
        })
        .unwrap_err();
    assert!(
        e.contains("the approvals file was written, but the history"),
        "{e}"
    );
    assert!(std::fs::read_to_string(t.path(".ward/approvals.json"))
        .unwrap()
        .contains("fakecloud_volume.db_data"));
}
