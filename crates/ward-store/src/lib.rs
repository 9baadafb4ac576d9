//! ward drift's history, kept in an embedded SQLite database.
//!
//! What is kept:
//!
//! - every run (`runs`): when it started and finished (UTC, RFC 3339), the shard, the exit code;
//! - every root's outcome in every run (`outcomes`), with the state lineage and serial seen;
//! - the last trusted lineage and serial per root (`root_state`): the reference the next run's
//!   state preflight compares against;
//! - every drift finding per (root, address, attribute) (`findings`): first seen, last seen,
//!   resolved, and the worst impact seen, by name (`data-loss`, never a number: the order of the
//!   classes is ward-model's, applied when comparing, so a new class cannot reinterpret old rows).
//!   A finding that comes back after it was resolved opens a new row, so each row is one episode.
//!
//! The store computes transitions ([`Transition`]): a finding is *new* when no open row exists,
//! *escalated* when its impact is worse than the open row's, *resolved* when an open row is not
//! observed any more in a run that checked the root successfully. Persisting findings are not
//! transitions: alerts fire on transitions only.
//!
//! Times are passed in by the caller (UTC strings), so tests are deterministic.

mod records;

pub use records::{NewRecord, RecordQuery, RecordRow, KINDS};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use ward_model::Impact;

/// The schema version this crate writes. Older databases are migrated when opened; a newer or
/// unreadable version is refused.
///
/// - 1: findings kept their impact's rank (a number) beside the name;
/// - 2: findings keep the impact by name only;
/// - 3: adds `records` (approvals, gate outcomes, stack journals and backups, import
///   acceptances: see [`records`](crate::NewRecord)).
pub const SCHEMA_VERSION: i64 = 3;

/// Anything that went wrong with the history database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The directory for the database could not be created.
    #[error("cannot create the directory {path} for the drift history database: {source}; pass --db with a writable location")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// SQLite refused to open the file.
    #[error("cannot open the drift history database {path}: {source}; pass --db with a writable SQLite file")]
    Open {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The database was written by a newer ward.
    #[error("the drift history database has schema version {found}, newer than this ward understands ({SCHEMA_VERSION}); upgrade ward or pass --db with another file")]
    NewerSchema {
        /// The version found.
        found: i64,
    },
    /// The database's schema version is not a version this ward wrote.
    #[error("the drift history database has schema version {found:?}, which is not a version ward writes (1 to {SCHEMA_VERSION}); it is not a ward drift history database, or it was damaged; pass --db with another file")]
    BadSchema {
        /// The value found.
        found: String,
    },
    /// A record could not be written or read back.
    #[error("history record: {0}")]
    Record(String),
    /// A query failed.
    #[error("drift history database error: {0}")]
    Sql(#[from] rusqlite::Error),
}

/// A run's id in the database.
pub type RunId = i64;

/// The lineage and serial of a root's state, as last trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateMark {
    /// The state's `lineage` (a UUID Terraform assigns when the state is created).
    pub lineage: String,
    /// The state's `serial` (incremented on every write).
    pub serial: i64,
}

/// One root's outcome in one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutcomeRow {
    /// The root's name.
    pub root: String,
    /// The outcome, as ward drift spells it (`clean`, `drifted`, `missing-state`...).
    pub outcome: String,
    /// A one-line detail (why it failed, what drifted), possibly empty.
    pub detail: String,
    /// The state mark seen, when the state could be read.
    pub state: Option<StateMark>,
    /// The binary used (`terraform 1.11.4`), when one was selected.
    pub binary: Option<String>,
}

/// A drift finding observed in one run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Finding {
    /// Resource instance address.
    pub address: String,
    /// The attribute path that drifted, or `(deleted)` when the object is gone.
    pub attribute: String,
    /// The impact class name (`free`, `data-loss`...), or `unclassified`. Escalation compares
    /// names in [`impact_order`].
    pub impact: String,
}

/// Where an impact name stands when findings are compared for escalation: ward-model's classes
/// in their order, with `unclassified` above `none` and below `free` (an unclassified drift must
/// never hide behind a real class); `None` for a name ward does not know, below everything.
/// Computed on every comparison and never stored.
pub fn impact_order(name: &str) -> Option<usize> {
    if name == UNCLASSIFIED {
        return Some(1);
    }
    let i = name.parse::<Impact>().ok()?;
    let p = Impact::ALL.iter().position(|x| *x == i)?;
    Some(if p == 0 { 0 } else { p + 1 })
}

/// The impact name of a finding whose type no rule classifies.
pub const UNCLASSIFIED: &str = "unclassified";

/// What changed for one finding between the last run and this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TransitionKind {
    /// Not open before: appeared in this run.
    New,
    /// Open before with a lower impact.
    Escalated,
    /// Open before, not observed any more.
    Resolved,
}

impl TransitionKind {
    /// The kind's name as reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            TransitionKind::New => "new",
            TransitionKind::Escalated => "escalated",
            TransitionKind::Resolved => "resolved",
        }
    }
}

/// A transition of one finding: what alerts are made of.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Transition {
    /// The root's name.
    pub root: String,
    /// The kind.
    pub kind: TransitionKind,
    /// Resource instance address.
    pub address: String,
    /// Attribute path, or `(deleted)`.
    pub attribute: String,
    /// The impact now (for `resolved`: the impact it had).
    pub impact: String,
    /// The impact before (for `escalated` only).
    pub previous_impact: Option<String>,
}

/// One finding's history row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindingRow {
    /// The root's name.
    pub root: String,
    /// Resource instance address.
    pub address: String,
    /// Attribute path, or `(deleted)`.
    pub attribute: String,
    /// Worst impact seen in this episode.
    pub impact: String,
    /// First run that saw it, and when.
    pub first_seen: (RunId, String),
    /// Last run that saw it, and when.
    pub last_seen: (RunId, String),
    /// The run that found it gone, and when; `None` while open.
    pub resolved: Option<(RunId, String)>,
}

/// One run's summary row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunRow {
    /// The run's id.
    pub id: RunId,
    /// When it started (UTC).
    pub started_at: String,
    /// When it finished (UTC); `None` when it never finished.
    pub finished_at: Option<String>,
    /// The shard (`K/N`), when sharded.
    pub shard: Option<String>,
    /// The exit code, when finished.
    pub exit_code: Option<i64>,
    /// How many roots ended in each outcome.
    pub outcomes: BTreeMap<String, i64>,
}

/// One root's outcome in a past run, for `ward drift history ROOT`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RootRunRow {
    /// The run's id.
    pub run: RunId,
    /// When that run started (UTC).
    pub started_at: String,
    /// The outcome and its detail.
    pub outcome: OutcomeRow,
}

/// The default history database: `$XDG_STATE_HOME/ward/drift.sqlite`, else
/// `$HOME/.local/state/ward/drift.sqlite`. Outside the repository on purpose: a re-clone must
/// not lose the history (FIELD-NOTES 12). Every command that keeps history (`ward drift`,
/// `ward import`, `ward gate` reading acceptances) finds it here unless given `--db`.
pub fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local/state"))
        })?;
    Some(base.join("ward").join("drift.sqlite"))
}

/// The history database.
pub struct Store {
    conn: Connection,
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
";

impl Store {
    /// Opens (creating when absent) the database at `path`, creating its directory.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
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
        Store::init(conn)
    }

    /// A database in memory (tests).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Store, StoreError> {
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);",
        )?;
        let version = match schema_version(&conn)? {
            None => None,
            Some(text) => match text.trim().parse::<i64>() {
                Ok(v) if v > SCHEMA_VERSION => return Err(StoreError::NewerSchema { found: v }),
                Ok(v) if v >= 1 => Some(v),
                _ => return Err(StoreError::BadSchema { found: text }),
            },
        };
        if version == Some(SCHEMA_VERSION) {
            conn.execute_batch(SCHEMA)?;
            conn.execute_batch(records::RECORDS_SCHEMA)?;
            return Ok(Store { conn });
        }
        let tx = conn.transaction()?;
        tx.execute_batch(SCHEMA)?;
        // Version 3 added records; creating the table is the whole migration from 2.
        tx.execute_batch(records::RECORDS_SCHEMA)?;
        // Version 1 kept a rank beside the impact name; the name is what counts.
        if has_column(&tx, "findings", "rank")? {
            migrate_ranks_to_names(&tx)?;
        }
        tx.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', ?1)",
            params![SCHEMA_VERSION.to_string()],
        )?;
        tx.commit()?;
        Ok(Store { conn })
    }

    /// Records the start of a run and returns its id.
    pub fn begin_run(&mut self, now: &str, shard: Option<&str>) -> Result<RunId, StoreError> {
        self.conn.execute(
            "INSERT INTO runs(started_at, shard) VALUES(?1, ?2)",
            params![now, shard],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Starts a batch: everything until [`Store::commit_batch`] is one transaction (one disk sync
    /// for a whole run's results instead of one per root).
    pub fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(())
    }

    /// Commits the batch started by [`Store::begin_batch`].
    pub fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("COMMIT")?;
        Ok(())
    }

    /// Records the end of a run.
    pub fn finish_run(&mut self, run: RunId, now: &str, exit_code: i32) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE runs SET finished_at = ?2, exit_code = ?3 WHERE id = ?1",
            params![run, now, exit_code],
        )?;
        Ok(())
    }

    /// The last trusted state mark of every root.
    pub fn state_marks(&self) -> Result<BTreeMap<String, StateMark>, StoreError> {
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

    /// Records `mark` as the trusted state of `root`.
    pub fn set_state_mark(
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

    /// Records one root's outcome in a run.
    pub fn record_outcome(&mut self, run: RunId, row: &OutcomeRow) -> Result<(), StoreError> {
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
        Ok(())
    }

    /// Compares the findings observed for `root` in this run (a run that checked the root
    /// successfully: its refresh-only plan was read) with the open findings, records the result
    /// and returns the transitions, sorted.
    pub fn apply_findings(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        observed: &[Finding],
    ) -> Result<Vec<Transition>, StoreError> {
        let tx = self.conn.savepoint()?;
        let mut open: BTreeMap<(String, String), (i64, String)> = BTreeMap::new();
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
        let mut out = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for f in observed {
            let key = (f.address.clone(), f.attribute.clone());
            if !seen.insert(key.clone()) {
                continue;
            }
            match open.get(&key) {
                None => {
                    tx.execute(
                        "INSERT INTO findings(root, address, attribute, impact,
                             first_run, first_at, last_run, last_at)
                         VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?5, ?6)",
                        params![root, f.address, f.attribute, f.impact, run, now],
                    )?;
                    out.push(Transition {
                        root: root.to_string(),
                        kind: TransitionKind::New,
                        address: f.address.clone(),
                        attribute: f.attribute.clone(),
                        impact: f.impact.clone(),
                        previous_impact: None,
                    });
                }
                Some((id, impact)) => {
                    if impact_order(&f.impact) > impact_order(impact) {
                        tx.execute(
                            "UPDATE findings SET impact = ?2, last_run = ?3, last_at = ?4 WHERE id = ?1",
                            params![id, f.impact, run, now],
                        )?;
                        out.push(Transition {
                            root: root.to_string(),
                            kind: TransitionKind::Escalated,
                            address: f.address.clone(),
                            attribute: f.attribute.clone(),
                            impact: f.impact.clone(),
                            previous_impact: Some(impact.clone()),
                        });
                    } else {
                        tx.execute(
                            "UPDATE findings SET last_run = ?2, last_at = ?3 WHERE id = ?1",
                            params![id, run, now],
                        )?;
                    }
                }
            }
        }
        for ((address, attribute), (id, impact)) in &open {
            if seen.contains(&(address.clone(), attribute.clone())) {
                continue;
            }
            tx.execute(
                "UPDATE findings SET resolved_run = ?2, resolved_at = ?3 WHERE id = ?1",
                params![id, run, now],
            )?;
            out.push(Transition {
                root: root.to_string(),
                kind: TransitionKind::Resolved,
                address: address.clone(),
                attribute: attribute.clone(),
                impact: impact.clone(),
                previous_impact: None,
            });
        }
        tx.commit()?;
        out.sort();
        Ok(out)
    }

    /// The most recent runs, newest first (at most `limit`).
    pub fn runs(&self, limit: usize) -> Result<Vec<RunRow>, StoreError> {
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

    /// One root's outcomes in the most recent runs that checked it, newest first.
    pub fn root_runs(&self, root: &str, limit: usize) -> Result<Vec<RootRunRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT o.run_id, r.started_at, o.outcome, o.detail, o.lineage, o.serial, o.binary
             FROM outcomes o JOIN runs r ON r.id = o.run_id
             WHERE o.root = ?1 ORDER BY o.run_id DESC LIMIT ?2",
        )?;
        let rows = st.query_map(params![root, limit_i64(limit)], |r| {
            let lineage: Option<String> = r.get(4)?;
            let serial: Option<i64> = r.get(5)?;
            Ok(RootRunRow {
                run: r.get(0)?,
                started_at: r.get(1)?,
                outcome: OutcomeRow {
                    root: root.to_string(),
                    outcome: r.get(2)?,
                    detail: r.get(3)?,
                    state: match (lineage, serial) {
                        (Some(lineage), Some(serial)) => Some(StateMark { lineage, serial }),
                        _ => None,
                    },
                    binary: r.get(6)?,
                },
            })
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        Ok(out)
    }

    /// Every finding (open and resolved), optionally of one root, sorted by root, address,
    /// attribute, then first run.
    pub fn findings(&self, root: Option<&str>) -> Result<Vec<FindingRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT root, address, attribute, impact, first_run, first_at, last_run, last_at,
                    resolved_run, resolved_at
             FROM findings WHERE ?1 IS NULL OR root = ?1
             ORDER BY root, address, attribute, first_run",
        )?;
        let rows = st.query_map(params![root], |r| {
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
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        Ok(out)
    }

    /// The names of every root that has any recorded outcome, sorted.
    pub fn roots(&self) -> Result<Vec<String>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT DISTINCT root FROM outcomes ORDER BY root")?;
        let rows = st.query_map([], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        Ok(out)
    }
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

fn limit_i64(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn f(addr: &str, attr: &str, impact: &str) -> Finding {
        Finding {
            address: addr.into(),
            attribute: attr.into(),
            impact: impact.into(),
        }
    }

    #[test]
    fn appears_persists_escalates_resolves_and_reopens() {
        let mut s = Store::open_in_memory().unwrap();
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
        // Another root is untouched.
        assert!(s.findings(Some("other")).unwrap().is_empty());
    }

    #[test]
    fn state_marks_and_outcomes_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/dir/drift.sqlite");
        let mark = StateMark {
            lineage: "L1".into(),
            serial: 4,
        };
        {
            let mut s = Store::open(&path).unwrap();
            let run = s.begin_run("t1", Some("1/2")).unwrap();
            s.set_state_mark(run, "t1", "net", &mark).unwrap();
            s.record_outcome(
                run,
                &OutcomeRow {
                    root: "net".into(),
                    outcome: "clean".into(),
                    detail: String::new(),
                    state: Some(mark.clone()),
                    binary: Some("terraform 1.11.4".into()),
                },
            )
            .unwrap();
            s.finish_run(run, "t2", 0).unwrap();
        }
        let s = Store::open(&path).unwrap();
        assert_eq!(s.state_marks().unwrap().get("net"), Some(&mark));
        let runs = s.runs(10).unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].exit_code, Some(0));
        assert_eq!(runs[0].outcomes.get("clean"), Some(&1));
        let rr = s.root_runs("net", 10).unwrap();
        assert_eq!(rr[0].outcome.state, Some(mark));
        assert_eq!(s.roots().unwrap(), vec!["net".to_string()]);
    }

    /// A database ward wrote, then its schema_version set to `version`.
    fn db_with_schema_version(version: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.sqlite");
        let s = Store::open(&path).unwrap();
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
        match Store::open(&path) {
            Err(StoreError::NewerSchema { found: 99 }) => {}
            other => panic!("expected NewerSchema, got {:?}", other.err()),
        }
    }

    #[test]
    fn impacts_order_by_name() {
        assert!(impact_order("data-loss") > impact_order("free"));
        assert!(impact_order("free") > impact_order("unclassified"));
        assert!(impact_order("unclassified") > impact_order("none"));
        assert!(impact_order("none") > impact_order("banana"));
        let names: Vec<&str> = Impact::ALL.iter().map(|i| i.as_str()).collect();
        for w in names.windows(2) {
            assert!(impact_order(w[1]) > impact_order(w[0]), "{w:?}");
        }
    }

    #[test]
    fn history_rows_say_the_impact_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.sqlite");
        let mut s = Store::open(&path).unwrap();
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
        let mut s = Store::open(&path).unwrap();
        let impacts: Vec<(String, String)> = s
            .findings(Some("net"))
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
        assert_eq!(Store::open(&path).unwrap().findings(None).unwrap().len(), 3);
    }

    #[test]
    fn refuses_an_unreadable_schema_version() {
        for bad in ["banana", "0", "-1", ""] {
            let (_dir, path) = db_with_schema_version(bad);
            match Store::open(&path) {
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
}
