//! The SQLite backend: one file, WAL, writers serialised by SQLite's lock.

use crate::audit::{gate_lists, sqlite_ddl, AuditSource, AUDIT_TABLES};
use crate::records::RECORDS_SCHEMA;
use crate::{
    check_version, diff_findings, findings_since_sql, findings_sql, limit_i64, mark,
    ApprovalRecord, ApprovalRow, AuditQuery, Backend, Finding, FindingOp, FindingRow,
    GateOutcomeRecord, GateOutcomeRow, NewRecord, OpenFindings, OutcomeRow, RecordQuery, RecordRow,
    RootRunRow, RunId, RunRow, StateMark, StoreError, Transition, SCHEMA_VERSION,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::BTreeMap;
use std::path::Path;

/// A SQLite history database.
pub(crate) struct Sqlite {
    pub(crate) conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    shard TEXT,
    exit_code INTEGER
);
CREATE TABLE IF NOT EXISTS outcomes(
    run_id INTEGER NOT NULL REFERENCES runs(id),
    root TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    lineage TEXT,
    serial INTEGER,
    binary TEXT,
    PRIMARY KEY(run_id, root)
);
CREATE TABLE IF NOT EXISTS root_state(
    root TEXT PRIMARY KEY,
    lineage TEXT NOT NULL,
    serial INTEGER NOT NULL,
    run_id INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS findings(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    root TEXT NOT NULL,
    address TEXT NOT NULL,
    attribute TEXT NOT NULL,
    impact TEXT NOT NULL,
    first_run INTEGER NOT NULL,
    first_at TEXT NOT NULL,
    last_run INTEGER NOT NULL,
    last_at TEXT NOT NULL,
    resolved_run INTEGER,
    resolved_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS findings_open
    ON findings(root, address, attribute) WHERE resolved_run IS NULL;
CREATE INDEX IF NOT EXISTS outcomes_by_root ON outcomes(root, run_id);
CREATE INDEX IF NOT EXISTS findings_by_root ON findings(root, address, attribute, first_run);
CREATE INDEX IF NOT EXISTS findings_by_last_run ON findings(last_run);
CREATE INDEX IF NOT EXISTS findings_by_resolved_run ON findings(resolved_run)
    WHERE resolved_run IS NOT NULL;
CREATE TABLE IF NOT EXISTS root_latest(
    root TEXT PRIMARY KEY,
    run_id INTEGER NOT NULL
);
";

/// Every root that has an outcome, in order, one index seek each (`outcomes_by_root`) instead
/// of reading every outcome: SQLite has no skip scan for `DISTINCT` or `GROUP BY`.
const ROOTS_CTE: &str = "WITH RECURSIVE r(root) AS (
    SELECT MIN(root) FROM outcomes
    UNION ALL
    SELECT (SELECT MIN(root) FROM outcomes WHERE root > r.root) FROM r WHERE r.root IS NOT NULL
)";

/// Every root's newest outcome: for each root, the outcome of its highest run id, which
/// `root_latest` keeps (one row a root, written with each outcome), so the overview reads one
/// row a root and one primary-key seek into `outcomes`, not a seek through every root's runs.
fn latest_sql() -> String {
    "SELECT o.run_id, ru.started_at, o.root, o.outcome, o.detail, o.lineage, o.serial, o.binary
     FROM root_latest l
     JOIN outcomes o ON o.run_id = l.run_id AND o.root = l.root
     JOIN runs ru ON ru.id = l.run_id
     ORDER BY l.root"
        .to_string()
}

/// Fills `root_latest` from `outcomes` (the migration to schema 6; a no-op when it is current).
const ROOT_LATEST_FILL: &str = "INSERT OR REPLACE INTO root_latest(root, run_id)
     SELECT root, MAX(run_id) FROM outcomes GROUP BY root";

/// Keeps `root_latest` at a root's highest run id as an outcome is recorded.
const ROOT_LATEST_UPSERT: &str = "INSERT INTO root_latest(root, run_id) VALUES(?1, ?2)
     ON CONFLICT(root) DO UPDATE SET run_id = excluded.run_id
     WHERE excluded.run_id > root_latest.run_id";

/// The records of a kind, newest first, with the root and key filters written out per case:
/// through `(? IS NULL OR root = ?)` SQLite can use no index beyond the kind, so the newest few
/// `drift-run` records of `ward drift history` were found by sorting every one of them (a
/// year's journal). With the root given, `records_by_kind_root_id` (kind, root, id) yields
/// them newest first and the `LIMIT` stops the read; with the key too, `records_by_kind`.
fn records_sql(root: bool, key: bool) -> String {
    let filter = match (root, key) {
        (true, true) => "kind = ?1 AND root = ?2 AND key = ?3 ORDER BY id DESC LIMIT ?4",
        (true, false) => "kind = ?1 AND root = ?2 ORDER BY id DESC LIMIT ?3",
        (false, true) => "kind = ?1 AND key = ?2 ORDER BY id DESC LIMIT ?3",
        (false, false) => "kind = ?1 ORDER BY id DESC LIMIT ?2",
    };
    format!("SELECT id, kind, root, key, recorded_at, body FROM records WHERE {filter}")
}

/// A finding from the columns of [`findings_sql`].
fn finding_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<FindingRow> {
    let rr: Option<i64> = r.get(8)?;
    let ra: Option<String> = r.get(9)?;
    Ok(FindingRow {
        root: r.get(0)?,
        address: r.get(1)?,
        attribute: r.get(2)?,
        impact: r.get(3)?,
        first_seen: (r.get(4)?, r.get(5)?),
        last_seen: (r.get(6)?, r.get(7)?),
        resolved: rr.zip(ra),
    })
}

impl Sqlite {
    pub(crate) fn open(path: &Path) -> Result<Sqlite, StoreError> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|source| StoreError::CreateDir {
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
        }
        let conn = Connection::open(path).map_err(|source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        // Another ward drift (another shard) may write at the same time: wait for it. WAL lets
        // `ward drift history` read while a run writes.
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        Sqlite::init(conn)
    }

    pub(crate) fn open_in_memory() -> Result<Sqlite, StoreError> {
        Sqlite::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Sqlite, StoreError> {
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);",
        )?;
        let version = check_version(schema_version(&conn)?)?;
        if version == Some(SCHEMA_VERSION) {
            conn.execute_batch(SCHEMA)?;
            conn.execute_batch(RECORDS_SCHEMA)?;
            conn.execute_batch(&sqlite_ddl(AUDIT_TABLES))?;
            return Ok(Sqlite { conn });
        }
        let tx = conn.transaction()?;
        tx.execute_batch(SCHEMA)?;
        // Version 3 added records; creating the table is the whole migration from 2.
        tx.execute_batch(RECORDS_SCHEMA)?;
        // Version 4 added the audit tables; creating them is the whole migration from 3.
        tx.execute_batch(&sqlite_ddl(AUDIT_TABLES))?;
        // Version 5 added the index findings_by_root, which SCHEMA creates; version 6
        // findings_by_last_run, findings_by_resolved_run and root_latest, filled here; version 7
        // records_by_kind_root_id, which RECORDS_SCHEMA creates.
        tx.execute_batch(ROOT_LATEST_FILL)?;
        // Version 1 kept a rank beside the impact name; the name is what counts.
        if has_column(&tx, "findings", "rank")? {
            migrate_ranks_to_names(&tx)?;
        }
        tx.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', ?1)",
            params![SCHEMA_VERSION.to_string()],
        )?;
        tx.commit()?;
        Ok(Sqlite { conn })
    }
}

impl Backend for Sqlite {
    fn schema_version(&self) -> Result<Option<String>, StoreError> {
        schema_version(&self.conn)
    }

    fn begin_run(&mut self, now: &str, shard: Option<&str>) -> Result<RunId, StoreError> {
        self.conn.execute(
            "INSERT INTO runs(started_at, shard) VALUES(?1, ?2)",
            params![now, shard],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(())
    }

    fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("COMMIT")?;
        Ok(())
    }

    fn finish_run(&mut self, run: RunId, now: &str, exit_code: i32) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE runs SET finished_at = ?2, exit_code = ?3 WHERE id = ?1",
            params![run, now, exit_code],
        )?;
        Ok(())
    }
    fn state_marks(&self) -> Result<BTreeMap<String, StateMark>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT root, lineage, serial FROM root_state ORDER BY root")?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                StateMark {
                    lineage: r.get(1)?,
                    serial: r.get(2)?,
                },
            ))
        })?;
        let mut out = BTreeMap::new();
        for row in rows {
            let (root, mark) = row?;
            out.insert(root, mark);
        }
        Ok(out)
    }

    fn set_state_mark(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        mark: &StateMark,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO root_state(root, lineage, serial, run_id, updated_at) VALUES(?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(root) DO UPDATE SET lineage = ?2, serial = ?3, run_id = ?4, updated_at = ?5",
            params![root, mark.lineage, mark.serial, run, now],
        )?;
        Ok(())
    }

    fn record_outcome(&mut self, run: RunId, row: &OutcomeRow) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT OR REPLACE INTO outcomes(run_id, root, outcome, detail, lineage, serial, binary)
             VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                run,
                row.root,
                row.outcome,
                row.detail,
                row.state.as_ref().map(|s| s.lineage.as_str()),
                row.state.as_ref().map(|s| s.serial),
                row.binary,
            ],
        )?;
        self.conn
            .prepare_cached(ROOT_LATEST_UPSERT)?
            .execute(params![row.root, run])?;
        Ok(())
    }

    fn apply_findings(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        observed: &[Finding],
    ) -> Result<Vec<Transition>, StoreError> {
        let tx = self.conn.savepoint()?;
        let mut open = OpenFindings::new();
        {
            let mut st = tx.prepare(
                "SELECT id, address, attribute, impact FROM findings
                 WHERE root = ?1 AND resolved_run IS NULL",
            )?;
            let rows = st.query_map(params![root], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?;
            for row in rows {
                let (id, address, attribute, impact) = row?;
                open.insert((address, attribute), (id, impact));
            }
        }
        let (ops, out) = diff_findings(root, &open, observed);
        for op in ops {
            match op {
                FindingOp::Open(f) => tx.execute(
                    "INSERT INTO findings(root, address, attribute, impact,
                         first_run, first_at, last_run, last_at)
                     VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?5, ?6)",
                    params![root, f.address, f.attribute, f.impact, run, now],
                )?,
                FindingOp::Escalate(id, impact) => tx.execute(
                    "UPDATE findings SET impact = ?2, last_run = ?3, last_at = ?4 WHERE id = ?1",
                    params![id, impact, run, now],
                )?,
                FindingOp::Touch(id, impact) => tx.execute(
                    "UPDATE findings SET impact = ?2, last_run = ?3, last_at = ?4 WHERE id = ?1",
                    params![id, impact, run, now],
                )?,
                FindingOp::Resolve(id) => tx.execute(
                    "UPDATE findings SET resolved_run = ?2, resolved_at = ?3 WHERE id = ?1",
                    params![id, run, now],
                )?,
            };
        }
        tx.commit()?;
        Ok(out)
    }

    fn runs(&self, limit: usize) -> Result<Vec<RunRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT id, started_at, finished_at, shard, exit_code FROM runs ORDER BY id DESC LIMIT ?1",
        )?;
        let rows = st.query_map(params![limit_i64(limit)], |r| {
            Ok(RunRow {
                id: r.get(0)?,
                started_at: r.get(1)?,
                finished_at: r.get(2)?,
                shard: r.get(3)?,
                exit_code: r.get(4)?,
                outcomes: BTreeMap::new(),
            })
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        let mut st = self.conn.prepare(
            "SELECT outcome, COUNT(*) FROM outcomes WHERE run_id = ?1 GROUP BY outcome ORDER BY outcome",
        )?;
        for run in &mut out {
            let rows = st.query_map(params![run.id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
            })?;
            for row in rows {
                let (k, n) = row?;
                run.outcomes.insert(k, n);
            }
        }
        Ok(out)
    }

    fn root_runs(&self, root: &str, limit: usize) -> Result<Vec<RootRunRow>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT o.run_id, r.started_at, o.root, o.outcome, o.detail, o.lineage, o.serial, o.binary
             FROM outcomes o JOIN runs r ON r.id = o.run_id
             WHERE o.root = ?1 ORDER BY o.run_id DESC LIMIT ?2",
        )?;
        let rows = st.query_map(params![root, limit_i64(limit)], root_run_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn latest_outcomes(&self) -> Result<Vec<RootRunRow>, StoreError> {
        let mut st = self.conn.prepare(&latest_sql())?;
        let rows = st.query_map([], root_run_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn every_root_runs(&self, limit: usize) -> Result<Vec<RootRunRow>, StoreError> {
        let mut out = Vec::new();
        for root in self.roots()? {
            out.extend(self.root_runs(&root, limit)?);
        }
        Ok(out)
    }

    fn findings(&self, root: Option<&str>, open_only: bool) -> Result<Vec<FindingRow>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached(&findings_sql(root.is_some(), open_only, "?1"))?;
        let params: Vec<&dyn rusqlite::ToSql> = match &root {
            Some(r) => vec![r],
            None => vec![],
        };
        let rows = st.query_map(params.as_slice(), finding_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn findings_since(&self, run: RunId) -> Result<Vec<FindingRow>, StoreError> {
        let mut st = self.conn.prepare_cached(&findings_since_sql("?1"))?;
        let rows = st.query_map(params![run], finding_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn roots(&self) -> Result<Vec<String>, StoreError> {
        let mut st = self.conn.prepare(&format!(
            "{ROOTS_CTE} SELECT root FROM r WHERE root IS NOT NULL ORDER BY root"
        ))?;
        let rows = st.query_map([], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        Ok(out)
    }

    fn append_records(
        &mut self,
        records: &[NewRecord<'_>],
        bodies: &[String],
    ) -> Result<Vec<i64>, StoreError> {
        // A savepoint, not a transaction: records may be appended inside a batch.
        let tx = self.conn.savepoint()?;
        let mut ids = Vec::with_capacity(records.len());
        for (r, body) in records.iter().zip(bodies) {
            tx.execute(
                "INSERT INTO records(kind, root, key, recorded_at, body) VALUES(?1, ?2, ?3, ?4, ?5)",
                params![r.kind, r.root, r.key, r.recorded_at, body],
            )?;
            ids.push(tx.last_insert_rowid());
        }
        tx.commit()?;
        Ok(ids)
    }

    fn records(&self, query: &RecordQuery<'_>) -> Result<Vec<RecordRow>, StoreError> {
        let limit = if query.limit == 0 {
            -1
        } else {
            limit_i64(query.limit)
        };
        let mut st = self
            .conn
            .prepare_cached(&records_sql(query.root.is_some(), query.key.is_some()))?;
        let mut args: Vec<&dyn rusqlite::ToSql> = vec![&query.kind];
        args.extend(query.root.iter().map(|r| r as &dyn rusqlite::ToSql));
        args.extend(query.key.iter().map(|k| k as &dyn rusqlite::ToSql));
        args.push(&limit);
        let rows = st.query_map(args.as_slice(), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, kind, root, key, recorded_at, body) = row?;
            out.push(crate::records::row(
                id,
                kind,
                root,
                key,
                recorded_at,
                &body,
            )?);
        }
        Ok(out)
    }

    fn append_approvals(&mut self, a: &[ApprovalRecord]) -> Result<Vec<i64>, StoreError> {
        let tx = self.conn.savepoint()?;
        let mut ids = Vec::with_capacity(a.len());
        for x in a {
            tx.execute(
                "INSERT INTO approvals(source, root, site, address, deposed, action, impact, digest,
                     approved_by, reason, approved_at, expires_at, signed, plan, run)
                 VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    x.source.as_str(),
                    x.root,
                    x.site,
                    x.address,
                    x.deposed,
                    x.action,
                    x.impact,
                    x.digest,
                    x.by,
                    x.reason,
                    x.approved_at,
                    x.expires_at,
                    x.signed,
                    x.plan,
                    x.run,
                ],
            )?;
            ids.push(tx.last_insert_rowid());
        }
        tx.commit()?;
        Ok(ids)
    }

    fn approvals(&self, q: &AuditQuery<'_>) -> Result<Vec<ApprovalRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT id, source, root, site, address, deposed, action, impact, digest, approved_by,
                    reason, approved_at, expires_at, signed, plan, run
             FROM approvals WHERE (?1 IS NULL OR root = ?1) ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = st.query_map(params![q.root, sql_limit(q.limit)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                ApprovalRecord {
                    source: AuditSource::Gate,
                    root: r.get(2)?,
                    site: r.get(3)?,
                    address: r.get(4)?,
                    deposed: r.get(5)?,
                    action: r.get(6)?,
                    impact: r.get(7)?,
                    digest: r.get(8)?,
                    by: r.get(9)?,
                    reason: r.get(10)?,
                    approved_at: r.get(11)?,
                    expires_at: r.get(12)?,
                    signed: r.get(13)?,
                    plan: r.get(14)?,
                    run: r.get(15)?,
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, source, mut approval) = row?;
            approval.source = AuditSource::parse(&source)?;
            out.push(ApprovalRow { id, approval });
        }
        Ok(out)
    }

    fn append_gate_outcome(
        &mut self,
        g: &GateOutcomeRecord,
        reasons: &str,
        changes: &str,
    ) -> Result<i64, StoreError> {
        self.conn.execute(
            "INSERT INTO gate_outcomes(source, root, site, plan, outcome, exit_code, decided_at,
                 reasons, changes, run)
             VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                g.source.as_str(),
                g.root,
                g.site,
                g.plan,
                g.outcome,
                g.exit_code,
                g.decided_at,
                reasons,
                changes,
                g.run,
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    fn gate_outcomes(&self, q: &AuditQuery<'_>) -> Result<Vec<GateOutcomeRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT id, source, root, site, plan, outcome, exit_code, decided_at, reasons, changes,
                    run
             FROM gate_outcomes WHERE (?1 IS NULL OR root = ?1) ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = st.query_map(params![q.root, sql_limit(q.limit)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(8)?,
                r.get::<_, String>(9)?,
                GateOutcomeRecord {
                    source: AuditSource::Gate,
                    root: r.get(2)?,
                    site: r.get(3)?,
                    plan: r.get(4)?,
                    outcome: r.get(5)?,
                    exit_code: r.get(6)?,
                    decided_at: r.get(7)?,
                    reasons: Vec::new(),
                    changes: Vec::new(),
                    run: r.get(10)?,
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, source, reasons, changes, mut outcome) = row?;
            outcome.source = AuditSource::parse(&source)?;
            (outcome.reasons, outcome.changes) = gate_lists(id, &reasons, &changes)?;
            out.push(GateOutcomeRow { id, outcome });
        }
        Ok(out)
    }
}

/// A row limit as SQLite takes it: 0 (no limit) is -1.
fn sql_limit(limit: usize) -> i64 {
    if limit == 0 {
        -1
    } else {
        limit_i64(limit)
    }
}

fn root_run_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RootRunRow> {
    Ok(RootRunRow {
        run: r.get(0)?,
        started_at: r.get(1)?,
        outcome: OutcomeRow {
            root: r.get(2)?,
            outcome: r.get(3)?,
            detail: r.get(4)?,
            state: mark(r.get(5)?, r.get(6)?),
            binary: r.get(7)?,
        },
    })
}

/// The `schema_version` recorded in `meta`, as written.
fn schema_version(conn: &Connection) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .optional()?)
}

fn has_column(conn: &Connection, table: &str, column: &str) -> Result<bool, StoreError> {
    let mut st = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = st.query_map(params![table], |r| r.get::<_, String>(0))?;
    for n in names {
        if n? == column {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Schema 1 to 2: every finding's impact by name. A row whose impact is not a class name (a
/// number, or empty) takes the name its rank meant in schema 1 (`none` 0, `unclassified` 1,
/// `free` 2, `in-place` 4, `interrupt` 6, `replace` 8, `data-loss` 10: frozen here, whatever
/// the classes are now); then the rank column goes.
fn migrate_ranks_to_names(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "UPDATE findings SET impact = CASE rank
             WHEN 0 THEN 'none' WHEN 1 THEN 'unclassified' WHEN 2 THEN 'free'
             WHEN 4 THEN 'in-place' WHEN 6 THEN 'interrupt' WHEN 8 THEN 'replace'
             WHEN 10 THEN 'data-loss' ELSE impact END
         WHERE impact NOT IN
             ('none', 'unclassified', 'free', 'in-place', 'interrupt', 'replace', 'data-loss');
         ALTER TABLE findings DROP COLUMN rank;",
    )?;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::{Backend, Finding, TransitionKind};
    use std::path::PathBuf;

    fn f(addr: &str, attr: &str, impact: &str) -> Finding {
        Finding {
            address: addr.into(),
            attribute: attr.into(),
            impact: impact.into(),
        }
    }

    /// A database ward wrote, then its schema_version set to `version`.
    fn db_with_schema_version(version: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.sqlite");
        let s = Sqlite::open(&path).unwrap();
        s.conn
            .execute(
                "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
                params![version],
            )
            .unwrap();
        (dir, path)
    }

    #[test]
    fn refuses_a_newer_schema() {
        let (_dir, path) = db_with_schema_version("99");
        match Sqlite::open(&path) {
            Err(StoreError::NewerSchema { found: 99 }) => {}
            other => panic!("expected NewerSchema, got {:?}", other.err()),
        }
    }

    #[test]
    fn history_rows_say_the_impact_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.sqlite");
        let mut s = Sqlite::open(&path).unwrap();
        let r = s.begin_run("t1", None).unwrap();
        s.apply_findings(r, "t1", "net", &[f("a.b", "size", "data-loss")])
            .unwrap();
        drop(s);
        let conn = Connection::open(&path).unwrap();
        let cols: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('findings')")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(!cols.contains(&"rank".to_string()), "{cols:?}");
        let impact: String = conn
            .query_row("SELECT impact FROM findings", [], |r| r.get(0))
            .unwrap();
        assert_eq!(impact, "data-loss");
    }

    /// Schema 1 as ward wrote it: findings with a rank column.
    const SCHEMA_V1_FINDINGS: &str = "
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES('schema_version', '1');
        CREATE TABLE findings(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            root TEXT NOT NULL,
            address TEXT NOT NULL,
            attribute TEXT NOT NULL,
            impact TEXT NOT NULL,
            rank INTEGER NOT NULL,
            first_run INTEGER NOT NULL,
            first_at TEXT NOT NULL,
            last_run INTEGER NOT NULL,
            last_at TEXT NOT NULL,
            resolved_run INTEGER,
            resolved_at TEXT
        );
        CREATE UNIQUE INDEX findings_open
            ON findings(root, address, attribute) WHERE resolved_run IS NULL;
        INSERT INTO findings(root, address, attribute, impact, rank, first_run, first_at, last_run, last_at)
            VALUES('net', 'a.b', 'tags.x', 'free', 2, 1, 't1', 1, 't1'),
                  ('net', 'a.c', 'size', '10', 10, 1, 't1', 1, 't1'),
                  ('net', 'a.d', 'size', '', 6, 1, 't1', 1, 't1');
    ";

    #[test]
    fn a_schema_1_database_migrates_to_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        Connection::open(&path)
            .unwrap()
            .execute_batch(SCHEMA_V1_FINDINGS)
            .unwrap();
        let mut s = Sqlite::open(&path).unwrap();
        let impacts: Vec<(String, String)> = s
            .findings(Some("net"), false)
            .unwrap()
            .into_iter()
            .map(|r| (r.address, r.impact))
            .collect();
        assert_eq!(
            impacts,
            [
                ("a.b".to_string(), "free".to_string()),
                ("a.c".to_string(), "data-loss".to_string()),
                ("a.d".to_string(), "interrupt".to_string()),
            ]
        );
        assert_eq!(
            schema_version(&s.conn).unwrap(),
            Some(SCHEMA_VERSION.to_string())
        );
        // Escalation works on the migrated rows, by name.
        let r = s.begin_run("t2", None).unwrap();
        let t = s
            .apply_findings(
                r,
                "t2",
                "net",
                &[
                    f("a.b", "tags.x", "replace"),
                    f("a.c", "size", "replace"),
                    f("a.d", "size", "interrupt"),
                ],
            )
            .unwrap();
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(t[0].kind, TransitionKind::Escalated);
        assert_eq!(t[0].address, "a.b");
        drop(s);
        // Opening again changes nothing.
        assert_eq!(
            Sqlite::open(&path)
                .unwrap()
                .findings(None, false)
                .unwrap()
                .len(),
            3
        );
    }

    #[test]
    fn refuses_an_unreadable_schema_version() {
        for bad in ["banana", "0", "-1", ""] {
            let (_dir, path) = db_with_schema_version(bad);
            match Sqlite::open(&path) {
                Err(e @ StoreError::BadSchema { .. }) => {
                    let m = e.to_string();
                    assert!(m.contains(&format!("{bad:?}")) && m.contains("--db"), "{m}");
                }
                other => panic!("{bad}: expected BadSchema, got {:?}", other.err()),
            }
            // The refused database is left as it was.
            let conn = Connection::open(&path).unwrap();
            assert_eq!(schema_version(&conn).unwrap().as_deref(), Some(bad));
        }
    }

    #[test]
    fn a_schema_2_database_gains_records_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        drop(crate::Store::open(&path).unwrap());
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(
                "DROP TABLE records; UPDATE meta SET value = '2' WHERE key = 'schema_version';",
            )
            .unwrap();
        }
        let mut s = crate::Store::open(&path).unwrap();
        let body = serde_json::json!({"ok": true});
        s.append_record(&crate::NewRecord {
            kind: "stack-step",
            root: "net",
            key: "d",
            recorded_at: "t",
            body: &body,
        })
        .unwrap();
        let v = s.schema_version().unwrap().unwrap();
        assert_eq!(v, crate::SCHEMA_VERSION.to_string());
    }

    /// The plan SQLite makes for `sql`, one line per step.
    fn plan(s: &Sqlite, sql: &str) -> String {
        let mut st = s
            .conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let rows = st.query_map([], |r| r.get::<_, String>(3)).unwrap();
        rows.map(Result::unwrap).collect::<Vec<_>>().join("\n")
    }

    /// The history's reads at a fleet's scale: a root's findings through `findings_by_root`, the
    /// open ones through `findings_open`, every root and its newest run by index seeks: none
    /// reads a whole table of outcomes or findings (docs/performance.md, "Fleet").
    #[test]
    fn the_fleet_reads_seek_instead_of_scanning() {
        let s = Sqlite::open_in_memory().unwrap();
        let root_findings = plan(&s, &findings_sql(true, false, "'net'"));
        assert!(
            root_findings.contains("USING INDEX findings_by_root"),
            "{root_findings}"
        );
        let all = plan(&s, &findings_sql(false, false, "?1"));
        assert!(
            all.contains("findings_by_root") && !all.contains("TEMP B-TREE"),
            "{all}"
        );
        let open = plan(&s, &findings_sql(false, true, "?1"));
        assert!(open.contains("findings_open"), "{open}");
        let roots = plan(&s, &format!("{ROOTS_CTE} SELECT root FROM r"));
        let latest = plan(&s, &latest_sql());
        for p in [&roots, &latest] {
            assert!(!p.contains("SCAN outcomes"), "{p}");
        }
    }

    /// The newest records of a kind for a root (`ward drift history`'s journal, newest 76 of a
    /// year's 11,680) come newest first out of an index and stop at the limit, without sorting
    /// every record of the kind: red before schema 7 (`USE TEMP B-TREE FOR ORDER BY`, the
    /// filters written as `(? IS NULL OR root = ?)`).
    #[test]
    fn the_newest_records_of_a_root_need_no_sort() {
        let s = Sqlite::open_in_memory().unwrap();
        for (root, key, values) in [
            (true, false, ["'drift-run'", "'(drift)'", "76"].as_slice()),
            (
                true,
                true,
                ["'drift-run'", "'(drift)'", "'k'", "1"].as_slice(),
            ),
        ] {
            // EXPLAIN takes no parameters here: the values written in, last first (?1 is in ?10).
            let mut sql = records_sql(root, key);
            for (i, v) in values.iter().enumerate().rev() {
                sql = sql.replace(&format!("?{}", i + 1), v);
            }
            let p = plan(&s, &sql);
            assert!(p.contains("USING INDEX records_by_kind"), "{p}");
            assert!(!p.contains("TEMP B-TREE"), "{p}");
        }
    }

    /// Each filter case reads what it says: the kind, the root, the key, newest first, cut at
    /// the limit.
    #[test]
    fn records_filter_by_root_and_key_newest_first() {
        let mut s = Sqlite::open_in_memory().unwrap();
        let body = serde_json::json!({});
        for (root, key) in [
            ("a", "k1"),
            ("b", "k1"),
            ("a", "k2"),
            ("a", "k1"),
            ("b", "k2"),
        ] {
            s.append_records(
                &[NewRecord {
                    kind: "drift-run",
                    root,
                    key,
                    recorded_at: "t",
                    body: &body,
                }],
                &["{}".to_string()],
            )
            .unwrap();
        }
        s.append_records(
            &[NewRecord {
                kind: "alert",
                root: "a",
                key: "k1",
                recorded_at: "t",
                body: &body,
            }],
            &["{}".to_string()],
        )
        .unwrap();
        let ids = |root, key, limit| {
            let q = RecordQuery {
                kind: "drift-run",
                root,
                key,
                limit,
            };
            s.records(&q)
                .unwrap()
                .iter()
                .map(|r| r.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(None, None, 0), [5, 4, 3, 2, 1]);
        assert_eq!(ids(None, None, 2), [5, 4]);
        assert_eq!(ids(Some("a"), None, 0), [4, 3, 1]);
        assert_eq!(ids(Some("a"), None, 2), [4, 3]);
        assert_eq!(ids(Some("a"), Some("k1"), 0), [4, 1]);
        assert_eq!(ids(None, Some("k2"), 0), [5, 3]);
        assert_eq!(ids(Some("b"), Some("k1"), 1), [2]);
    }

    /// `ward drift history`'s findings (open, or seen or resolved since a run) read three
    /// indexes, never every finding: red before schema 6 (`SCAN findings` for both ranges).
    #[test]
    fn the_findings_since_a_run_seek() {
        let s = Sqlite::open_in_memory().unwrap();
        let since = plan(&s, &findings_since_sql("5"));
        // A scan of the open findings' partial index is fine; a bare `SCAN findings` reads them all.
        assert!(
            !since.lines().any(|l| l.trim() == "SCAN findings"),
            "{since}"
        );
        for index in [
            "findings_open",
            "findings_by_last_run",
            "findings_by_resolved_run",
        ] {
            assert!(since.contains(index), "{index}: {since}");
        }
    }
}
