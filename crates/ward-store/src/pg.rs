//! The PostgreSQL backend: one database that many shards and hosts write at once.
//!
//! Migrations are versioned like SQLite's (the same [`SCHEMA_VERSION`]), applied in one
//! transaction under an advisory lock so two wards opening a new database at once do not race;
//! a newer or unreadable version is refused before anything is written. A drift run's batch is
//! one transaction; each root's findings are compared and written under a transaction-level
//! advisory lock on the root, so two writers that check the same root (overlapping shards, two
//! hosts) serialise on it instead of opening the same finding twice.
//!
//! Reads go as unnamed statements with their parameters' types (`query_typed`): one round trip
//! each, where a prepared statement takes three (prepare, execute, close), and planned with the
//! values bound, so a filter such as `$2::TEXT IS NULL OR root = $2` folds away. Over a socket
//! to a busy server each round trip waits for both processes to get a core, and `ward report
//! --html` makes two queries for each root it shows (docs/performance.md, "Fleet").

use crate::audit::{gate_lists, AuditSource};
use crate::location::PgTarget;
use crate::{
    check_version, diff_findings, findings_since_sql, findings_sql, limit_i64, mark,
    ApprovalRecord, ApprovalRow, AuditQuery, Backend, Finding, FindingOp, FindingRow,
    GateOutcomeRecord, GateOutcomeRow, NewRecord, OpenFindings, OutcomeRow, RecordQuery, RecordRow,
    RootRunRow, RunId, RunRow, StateMark, StoreError, Transition, SCHEMA_VERSION,
};
use postgres::types::Type;
use postgres::{Client, NoTls};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

/// The advisory lock key migrations hold (`ward` in ASCII).
const MIGRATION_LOCK: i64 = 0x7761_7264;

/// The schema, version by version: each entry takes a database from the version before it.
/// PostgreSQL support starts at version 3, so its first migration creates the whole schema.
const MIGRATIONS: &[(i64, &str)] = &[
    (
        3,
        r#"
CREATE TABLE IF NOT EXISTS runs(
    id BIGSERIAL PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    shard TEXT,
    exit_code BIGINT
);
CREATE TABLE IF NOT EXISTS outcomes(
    run_id BIGINT NOT NULL REFERENCES runs(id),
    root TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    lineage TEXT,
    serial BIGINT,
    "binary" TEXT,
    PRIMARY KEY(run_id, root)
);
CREATE INDEX IF NOT EXISTS outcomes_by_root ON outcomes(root, run_id);
CREATE TABLE IF NOT EXISTS root_state(
    root TEXT PRIMARY KEY,
    lineage TEXT NOT NULL,
    serial BIGINT NOT NULL,
    run_id BIGINT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS findings(
    id BIGSERIAL PRIMARY KEY,
    root TEXT NOT NULL,
    address TEXT NOT NULL,
    attribute TEXT NOT NULL,
    impact TEXT NOT NULL,
    first_run BIGINT NOT NULL,
    first_at TEXT NOT NULL,
    last_run BIGINT NOT NULL,
    last_at TEXT NOT NULL,
    resolved_run BIGINT,
    resolved_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS findings_open
    ON findings(root, address, attribute) WHERE resolved_run IS NULL;
CREATE TABLE IF NOT EXISTS records(
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    root TEXT NOT NULL,
    key TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_kind ON records(kind, root, key, id);
"#,
    ),
    (4, crate::audit::AUDIT_TABLES),
    (
        5,
        "CREATE INDEX IF NOT EXISTS findings_by_root
             ON findings(root, address, attribute, first_run);",
    ),
    (
        6,
        "CREATE INDEX IF NOT EXISTS findings_by_last_run ON findings(last_run);
         CREATE INDEX IF NOT EXISTS findings_by_resolved_run ON findings(resolved_run)
             WHERE resolved_run IS NOT NULL;
         CREATE TABLE IF NOT EXISTS root_latest(root TEXT PRIMARY KEY, run_id BIGINT NOT NULL);
         INSERT INTO root_latest(root, run_id)
             SELECT root, MAX(run_id) FROM outcomes GROUP BY root
             ON CONFLICT(root) DO UPDATE SET run_id = EXCLUDED.run_id;",
    ),
    (
        7,
        "CREATE INDEX IF NOT EXISTS records_by_kind_root_id ON records(kind, root, id);",
    ),
];

/// Every root that has an outcome, in order, one index seek each (`outcomes_by_root`) instead
/// of reading every outcome (PostgreSQL 15 has no skip scan for `DISTINCT` or `GROUP BY`).
const ROOTS_CTE: &str = "WITH RECURSIVE r(root) AS (
    (SELECT root FROM outcomes ORDER BY root LIMIT 1)
    UNION ALL
    SELECT (SELECT o.root FROM outcomes o WHERE o.root > r.root ORDER BY o.root LIMIT 1)
    FROM r WHERE r.root IS NOT NULL
)";

/// A PostgreSQL history database.
pub(crate) struct Pg {
    // `Client` needs `&mut` for every query; the store's readers take `&self`.
    client: Mutex<Client>,
    in_batch: bool,
}

impl Pg {
    pub(crate) fn open(target: &PgTarget) -> Result<Pg, StoreError> {
        let unix = target
            .config
            .get_hosts()
            .iter()
            .all(|h| !matches!(h, postgres::config::Host::Tcp(_)));
        let fail = |source| StoreError::Connect {
            target: target.shown().to_string(),
            source,
        };
        let mut client = match crate::tls::connector(&target.tls, unix)? {
            crate::tls::Connector::Plain => {
                let mut c = target.config.clone();
                c.ssl_mode(postgres::config::SslMode::Disable);
                c.connect(NoTls).map_err(fail)?
            }
            crate::tls::Connector::Tls { required, config } => {
                let mut c = target.config.clone();
                c.ssl_mode(if required {
                    postgres::config::SslMode::Require
                } else {
                    postgres::config::SslMode::Prefer
                });
                c.connect(tokio_postgres_rustls::MakeRustlsConnect::new(*config))
                    .map_err(fail)?
            }
        };
        if !current(&mut client) {
            migrate(&mut client)?;
        }
        Ok(Pg {
            client: Mutex::new(client),
            in_batch: false,
        })
    }

    fn client(&self) -> Result<MutexGuard<'_, Client>, StoreError> {
        self.client
            .lock()
            .map_err(|_| StoreError::Record("the PostgreSQL connection was poisoned".into()))
    }

    /// Runs `f` in a transaction of its own, or in a savepoint inside the current batch: either
    /// everything `f` wrote lands, or nothing does.
    fn unit<T>(
        &mut self,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let (begin, commit, rollback) = if self.in_batch {
            (
                "SAVEPOINT ward_unit",
                "RELEASE SAVEPOINT ward_unit",
                "ROLLBACK TO SAVEPOINT ward_unit",
            )
        } else {
            ("BEGIN", "COMMIT", "ROLLBACK")
        };
        let c = self
            .client
            .get_mut()
            .map_err(|_| StoreError::Record("the PostgreSQL connection was poisoned".into()))?;
        c.batch_execute(begin)?;
        match f(c) {
            Ok(v) => {
                c.batch_execute(commit)?;
                Ok(v)
            }
            Err(e) => {
                // The original error is what the user needs; a failed rollback leaves the
                // connection unusable, and the next statement says so.
                let _ = c.batch_execute(rollback);
                Err(e)
            }
        }
    }
}

/// Whether the database already records this ward's schema version: one round trip, where
/// [`migrate`]'s transaction, lock and checks take seven. `false` for anything else (no `meta`
/// table yet, another version, an error): [`migrate`] then decides, and says what is wrong.
fn current(client: &mut Client) -> bool {
    let Ok(Some(row)) =
        client.query_typed_opt("SELECT value FROM meta WHERE key = 'schema_version'", &[])
    else {
        return false;
    };
    row.try_get::<_, String>(0)
        .is_ok_and(|v| v.trim() == SCHEMA_VERSION.to_string())
}

fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")?;
    let found: Option<String> = tx
        .query_opt("SELECT value FROM meta WHERE key = 'schema_version'", &[])?
        .map(|r| r.get(0));
    let version = check_version(found)?.unwrap_or(0);
    for (v, sql) in MIGRATIONS {
        if *v > version {
            tx.batch_execute(sql)?;
        }
    }
    if version < SCHEMA_VERSION {
        tx.execute(
            "INSERT INTO meta(key, value) VALUES('schema_version', $1)
             ON CONFLICT(key) DO UPDATE SET value = EXCLUDED.value",
            &[&SCHEMA_VERSION.to_string()],
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// A finding from the columns of [`findings_sql`].
fn finding_row(r: &postgres::Row) -> FindingRow {
    let rr: Option<i64> = r.get(8);
    let ra: Option<String> = r.get(9);
    FindingRow {
        root: r.get(0),
        address: r.get(1),
        attribute: r.get(2),
        impact: r.get(3),
        first_seen: (r.get(4), r.get(5)),
        last_seen: (r.get(6), r.get(7)),
        resolved: rr.zip(ra),
    }
}

fn root_run_row(r: &postgres::Row) -> RootRunRow {
    RootRunRow {
        run: r.get(0),
        started_at: r.get(1),
        outcome: OutcomeRow {
            root: r.get(2),
            outcome: r.get(3),
            detail: r.get(4),
            state: mark(r.get(5), r.get(6)),
            binary: r.get(7),
        },
    }
}

impl Backend for Pg {
    fn schema_version(&self) -> Result<Option<String>, StoreError> {
        Ok(self
            .client()?
            .query_typed_opt("SELECT value FROM meta WHERE key = 'schema_version'", &[])?
            .map(|r| r.get(0)))
    }

    fn begin_run(&mut self, now: &str, shard: Option<&str>) -> Result<RunId, StoreError> {
        let row = self.client()?.query_one(
            "INSERT INTO runs(started_at, shard) VALUES($1, $2) RETURNING id",
            &[&now, &shard],
        )?;
        Ok(row.get(0))
    }

    fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.client()?.batch_execute("BEGIN")?;
        self.in_batch = true;
        Ok(())
    }

    fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.in_batch = false;
        self.client()?.batch_execute("COMMIT")?;
        Ok(())
    }

    fn finish_run(&mut self, run: RunId, now: &str, exit_code: i32) -> Result<(), StoreError> {
        self.client()?.execute(
            "UPDATE runs SET finished_at = $2, exit_code = $3 WHERE id = $1",
            &[&run, &now, &i64::from(exit_code)],
        )?;
        Ok(())
    }

    fn state_marks(&self) -> Result<BTreeMap<String, StateMark>, StoreError> {
        let rows = self.client()?.query_typed(
            "SELECT root, lineage, serial FROM root_state ORDER BY root",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get(0),
                    StateMark {
                        lineage: r.get(1),
                        serial: r.get(2),
                    },
                )
            })
            .collect())
    }

    fn set_state_mark(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        mark: &StateMark,
    ) -> Result<(), StoreError> {
        self.client()?.execute(
            "INSERT INTO root_state(root, lineage, serial, run_id, updated_at) VALUES($1, $2, $3, $4, $5)
             ON CONFLICT(root) DO UPDATE SET lineage = $2, serial = $3, run_id = $4, updated_at = $5",
            &[&root, &mark.lineage, &mark.serial, &run, &now],
        )?;
        Ok(())
    }

    fn record_outcome(&mut self, run: RunId, row: &OutcomeRow) -> Result<(), StoreError> {
        self.client()?.execute(
            r#"INSERT INTO outcomes(run_id, root, outcome, detail, lineage, serial, "binary")
               VALUES($1, $2, $3, $4, $5, $6, $7)
               ON CONFLICT(run_id, root) DO UPDATE SET outcome = $3, detail = $4, lineage = $5,
                   serial = $6, "binary" = $7"#,
            &[
                &run,
                &row.root,
                &row.outcome,
                &row.detail,
                &row.state.as_ref().map(|s| s.lineage.as_str()),
                &row.state.as_ref().map(|s| s.serial),
                &row.binary,
            ],
        )?;
        // The root's newest run (the overview's one row a root); runs write their roots in
        // path order, so two overlapping runs take these row locks in the same order.
        self.client()?.execute(
            "INSERT INTO root_latest(root, run_id) VALUES($1, $2)
             ON CONFLICT(root) DO UPDATE SET run_id = EXCLUDED.run_id
             WHERE root_latest.run_id < EXCLUDED.run_id",
            &[&row.root, &run],
        )?;
        Ok(())
    }

    fn apply_findings(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        observed: &[Finding],
    ) -> Result<Vec<Transition>, StoreError> {
        self.unit(|tx| {
            tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&root])?;
            let mut open = OpenFindings::new();
            for r in tx.query(
                "SELECT id, address, attribute, impact FROM findings
                 WHERE root = $1 AND resolved_run IS NULL",
                &[&root],
            )? {
                open.insert((r.get(1), r.get(2)), (r.get(0), r.get(3)));
            }
            let (ops, out) = diff_findings(root, &open, observed);
            for op in ops {
                match op {
                    FindingOp::Open(f) => tx.execute(
                        "INSERT INTO findings(root, address, attribute, impact,
                             first_run, first_at, last_run, last_at)
                         VALUES($1, $2, $3, $4, $5, $6, $5, $6)",
                        &[&root, &f.address, &f.attribute, &f.impact, &run, &now],
                    )?,
                    FindingOp::Escalate(id, impact) => tx.execute(
                        "UPDATE findings SET impact = $2, last_run = $3, last_at = $4 WHERE id = $1",
                        &[&id, &impact, &run, &now],
                    )?,
                    FindingOp::Touch(id, impact) => tx.execute(
                        "UPDATE findings SET impact = $2, last_run = $3, last_at = $4 WHERE id = $1",
                        &[&id, &impact, &run, &now],
                    )?,
                    FindingOp::Resolve(id) => tx.execute(
                        "UPDATE findings SET resolved_run = $2, resolved_at = $3 WHERE id = $1",
                        &[&id, &run, &now],
                    )?,
                };
            }
            Ok(out)
        })
    }

    fn runs(&self, limit: usize) -> Result<Vec<RunRow>, StoreError> {
        let mut c = self.client()?;
        let rows = c.query_typed(
            "SELECT id, started_at, finished_at, shard, exit_code FROM runs ORDER BY id DESC LIMIT $1",
            &[(&limit_i64(limit), Type::INT8)],
        )?;
        let mut out: Vec<RunRow> = rows
            .iter()
            .map(|r| RunRow {
                id: r.get(0),
                started_at: r.get(1),
                finished_at: r.get(2),
                shard: r.get(3),
                exit_code: r.get(4),
                outcomes: BTreeMap::new(),
            })
            .collect();
        let ids: Vec<i64> = out.iter().map(|r| r.id).collect();
        let counts = c.query_typed(
            "SELECT run_id, outcome, COUNT(*) FROM outcomes WHERE run_id = ANY($1)
             GROUP BY run_id, outcome",
            &[(&ids, Type::INT8_ARRAY)],
        )?;
        for r in counts {
            let id: i64 = r.get(0);
            if let Some(run) = out.iter_mut().find(|x| x.id == id) {
                run.outcomes.insert(r.get(1), r.get(2));
            }
        }
        Ok(out)
    }

    fn root_runs(&self, root: &str, limit: usize) -> Result<Vec<RootRunRow>, StoreError> {
        let rows = self.client()?.query_typed(
            r#"SELECT o.run_id, r.started_at, o.root, o.outcome, o.detail, o.lineage, o.serial, o."binary"
               FROM outcomes o JOIN runs r ON r.id = o.run_id
               WHERE o.root = $1 ORDER BY o.run_id DESC LIMIT $2"#,
            &[(&root, Type::TEXT), (&limit_i64(limit), Type::INT8)],
        )?;
        Ok(rows.iter().map(root_run_row).collect())
    }

    fn latest_outcomes(&self) -> Result<Vec<RootRunRow>, StoreError> {
        let rows = self.client()?.query_typed(
            r#"SELECT o.run_id, ru.started_at, o.root, o.outcome, o.detail, o.lineage, o.serial, o."binary"
               FROM root_latest l
               JOIN outcomes o ON o.run_id = l.run_id AND o.root = l.root
               JOIN runs ru ON ru.id = l.run_id
               ORDER BY l.root"#,
            &[],
        )?;
        Ok(rows.iter().map(root_run_row).collect())
    }

    fn every_root_runs(&self, limit: usize) -> Result<Vec<RootRunRow>, StoreError> {
        let rows = self.client()?.query_typed(
            &format!(
                r#"{ROOTS_CTE}
                SELECT o.run_id, ru.started_at, o.root, o.outcome, o.detail, o.lineage, o.serial, o."binary"
                FROM r
                CROSS JOIN LATERAL (SELECT * FROM outcomes x WHERE x.root = r.root
                                    ORDER BY x.run_id DESC LIMIT $1) o
                JOIN runs ru ON ru.id = o.run_id"#
            ),
            &[(&limit_i64(limit), Type::INT8)],
        )?;
        Ok(rows.iter().map(root_run_row).collect())
    }

    fn findings(&self, root: Option<&str>, open_only: bool) -> Result<Vec<FindingRow>, StoreError> {
        let sql = findings_sql(root.is_some(), open_only, "$1");
        let mut c = self.client()?;
        let rows = match &root {
            Some(r) => c.query_typed(&sql, &[(r, Type::TEXT)])?,
            None => c.query_typed(&sql, &[])?,
        };
        Ok(rows.iter().map(finding_row).collect())
    }

    fn findings_since(&self, run: RunId) -> Result<Vec<FindingRow>, StoreError> {
        let rows = self
            .client()?
            .query_typed(&findings_since_sql("$1"), &[(&run, Type::INT8)])?;
        Ok(rows.iter().map(finding_row).collect())
    }

    fn roots(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.client()?.query_typed(
            &format!("{ROOTS_CTE} SELECT root FROM r WHERE root IS NOT NULL ORDER BY root"),
            &[],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn append_records(
        &mut self,
        records: &[NewRecord<'_>],
        bodies: &[String],
    ) -> Result<Vec<i64>, StoreError> {
        self.unit(|tx| {
            let mut ids = Vec::with_capacity(records.len());
            for (r, body) in records.iter().zip(bodies) {
                let row = tx.query_one(
                    "INSERT INTO records(kind, root, key, recorded_at, body)
                     VALUES($1, $2, $3, $4, $5) RETURNING id",
                    &[&r.kind, &r.root, &r.key, &r.recorded_at, body],
                )?;
                ids.push(row.get(0));
            }
            Ok(ids)
        })
    }

    fn records(&self, query: &RecordQuery<'_>) -> Result<Vec<RecordRow>, StoreError> {
        let limit: Option<i64> = (query.limit != 0).then(|| limit_i64(query.limit));
        let rows = self.client()?.query_typed(
            "SELECT id, kind, root, key, recorded_at, body FROM records
             WHERE kind = $1 AND ($2::TEXT IS NULL OR root = $2) AND ($3::TEXT IS NULL OR key = $3)
             ORDER BY id DESC LIMIT $4",
            &[
                (&query.kind, Type::TEXT),
                (&query.root, Type::TEXT),
                (&query.key, Type::TEXT),
                (&limit, Type::INT8),
            ],
        )?;
        rows.iter()
            .map(|r| {
                let body: String = r.get(5);
                crate::records::row(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), &body)
            })
            .collect()
    }

    fn append_approvals(&mut self, a: &[ApprovalRecord]) -> Result<Vec<i64>, StoreError> {
        self.unit(|tx| {
            let mut ids = Vec::with_capacity(a.len());
            for x in a {
                let row = tx.query_one(
                    "INSERT INTO approvals(source, root, site, address, deposed, action, impact,
                         digest, approved_by, reason, approved_at, expires_at, signed, plan, run)
                     VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
                     RETURNING id",
                    &[
                        &x.source.as_str(),
                        &x.root,
                        &x.site,
                        &x.address,
                        &x.deposed,
                        &x.action,
                        &x.impact,
                        &x.digest,
                        &x.by,
                        &x.reason,
                        &x.approved_at,
                        &x.expires_at,
                        &x.signed,
                        &x.plan,
                        &x.run,
                    ],
                )?;
                ids.push(row.get(0));
            }
            Ok(ids)
        })
    }

    fn approvals(&self, q: &AuditQuery<'_>) -> Result<Vec<ApprovalRow>, StoreError> {
        let limit: Option<i64> = (q.limit != 0).then(|| limit_i64(q.limit));
        let rows = self.client()?.query_typed(
            "SELECT id, source, root, site, address, deposed, action, impact, digest, approved_by,
                    reason, approved_at, expires_at, signed, plan, run
             FROM approvals WHERE ($1::TEXT IS NULL OR root = $1) ORDER BY id DESC LIMIT $2",
            &[(&q.root, Type::TEXT), (&limit, Type::INT8)],
        )?;
        rows.iter()
            .map(|r| {
                let source: String = r.get(1);
                Ok(ApprovalRow {
                    id: r.get(0),
                    approval: ApprovalRecord {
                        source: AuditSource::parse(&source)?,
                        root: r.get(2),
                        site: r.get(3),
                        address: r.get(4),
                        deposed: r.get(5),
                        action: r.get(6),
                        impact: r.get(7),
                        digest: r.get(8),
                        by: r.get(9),
                        reason: r.get(10),
                        approved_at: r.get(11),
                        expires_at: r.get(12),
                        signed: r.get(13),
                        plan: r.get(14),
                        run: r.get(15),
                    },
                })
            })
            .collect()
    }

    fn append_gate_outcome(
        &mut self,
        g: &GateOutcomeRecord,
        reasons: &str,
        changes: &str,
    ) -> Result<i64, StoreError> {
        self.unit(|tx| {
            let row = tx.query_one(
                "INSERT INTO gate_outcomes(source, root, site, plan, outcome, exit_code,
                     decided_at, reasons, changes, run)
                 VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
                &[
                    &g.source.as_str(),
                    &g.root,
                    &g.site,
                    &g.plan,
                    &g.outcome,
                    &g.exit_code,
                    &g.decided_at,
                    &reasons,
                    &changes,
                    &g.run,
                ],
            )?;
            Ok(row.get(0))
        })
    }

    fn gate_outcomes(&self, q: &AuditQuery<'_>) -> Result<Vec<GateOutcomeRow>, StoreError> {
        let limit: Option<i64> = (q.limit != 0).then(|| limit_i64(q.limit));
        let rows = self.client()?.query_typed(
            "SELECT id, source, root, site, plan, outcome, exit_code, decided_at, reasons, changes,
                    run
             FROM gate_outcomes WHERE ($1::TEXT IS NULL OR root = $1) ORDER BY id DESC LIMIT $2",
            &[(&q.root, Type::TEXT), (&limit, Type::INT8)],
        )?;
        rows.iter()
            .map(|r| {
                let id: i64 = r.get(0);
                let source: String = r.get(1);
                let reasons: String = r.get(8);
                let changes: String = r.get(9);
                let (reasons, changes) = gate_lists(id, &reasons, &changes)?;
                Ok(GateOutcomeRow {
                    id,
                    outcome: GateOutcomeRecord {
                        source: AuditSource::parse(&source)?,
                        root: r.get(2),
                        site: r.get(3),
                        plan: r.get(4),
                        outcome: r.get(5),
                        exit_code: r.get(6),
                        decided_at: r.get(7),
                        reasons,
                        changes,
                        run: r.get(10),
                    },
                })
            })
            .collect()
    }
}
