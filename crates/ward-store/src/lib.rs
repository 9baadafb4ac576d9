//! ward's history: one store, two backends. SQLite (an embedded file, the default) and
//! PostgreSQL (one database a team's shards and hosts share: `--db postgres://...` or
//! `history { url = "..." }` in `ward.hcl`). Both keep the same tables under the same schema
//! version, migrate older databases when opened and refuse newer ones; [`Store`] is the one
//! interface every command writes and reads through, whichever backend is behind it
//! ([`Location`] says which).
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
//!   A finding that comes back after it was resolved opens a new row, so each row is one episode;
//! - every approval given and every gate decision (`approvals`, `gate_outcomes`: the gate's audit
//!   trail, [`ApprovalRecord`], [`GateOutcomeRecord`]);
//! - what other commands record as JSON documents (`records`: [`NewRecord`]).
//!
//! The store computes transitions ([`Transition`]): a finding is *new* when no open row exists,
//! *escalated* when its impact is worse than the open row's, *resolved* when an open row is not
//! observed any more in a run that checked the root successfully. Persisting findings are not
//! transitions: alerts fire on transitions only.
//!
//! Times are passed in by the caller (UTC strings), so tests are deterministic.

mod audit;
mod location;
mod pg;
mod records;
mod sqlite;
mod tls;

pub use audit::{
    ApprovalRecord, ApprovalRow, AuditQuery, AuditSource, GateChange, GateOutcomeRecord,
    GateOutcomeRow, GateReview,
};
pub use location::{is_postgres_url, Location, PgTarget};
pub use records::{NewRecord, RecordQuery, RecordRow, KINDS};
pub use tls::{SslMode, TlsSettings};

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use ward_model::Impact;

/// The schema version this crate writes. Older databases are migrated when opened; a newer or
/// unreadable version is refused.
///
/// - 1: findings kept their impact's rank (a number) beside the name;
/// - 2: findings keep the impact by name only;
/// - 3: adds `records` (approvals, gate outcomes, stack journals and backups, import
///   acceptances: see [`records`](crate::NewRecord));
/// - 4: adds `approvals` and `gate_outcomes`, the gate's audit trail ([`ApprovalRecord`],
///   [`GateOutcomeRecord`]);
/// - 5: adds the index `findings_by_root` (root, address, attribute, first run): a root's
///   findings, open and resolved, without reading every root's (docs/performance.md, "Fleet").
/// - 6: adds the indexes `findings_by_last_run` and `findings_by_resolved_run`: the findings
///   the newest runs saw or resolved ([`Store::findings_since`], `ward drift history`) without
///   reading every finding; and `root_latest` (each root's newest run id, kept as outcomes are
///   written, filled by the migration): every root's newest outcome ([`Store::latest_outcomes`],
///   the overview) without a seek through each root's runs.
/// - 7: adds the index `records_by_kind_root_id` (kind, root, id): the newest records of a kind
///   for a root, newest first and cut at the limit (`ward drift history`'s unfinished runs among
///   the newest journal records) without sorting every record of the kind.
pub const SCHEMA_VERSION: i64 = 7;

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
    /// The PostgreSQL server could not be reached or refused the login.
    #[error("cannot connect to the PostgreSQL history database {target}: {}; check the URL (--db or `history {{ url }}` in ward.hcl), that the server runs, and the password (PGPASSWORD, a password file, or `history {{ password_file }}`)", chain(.source))]
    Connect {
        /// The database, as shown (never with a password).
        target: String,
        /// The client's error.
        source: postgres::Error,
    },
    /// A PostgreSQL query failed.
    #[error("PostgreSQL history database error: {}", chain(.0))]
    Postgres(#[from] postgres::Error),
    /// The location of the database is not usable (a URL with a password in it, an unreadable
    /// password file...).
    #[error("{0}")]
    Location(String),
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

/// The default history database in the state directory the caller computed (ward-cli's
/// `context::BaseDirs::state_dir`: `XDG_STATE_HOME`, else `HOME/.local/state`; this crate reads
/// no environment): `STATE_DIR/ward/drift.sqlite`. Outside the repository on purpose: a re-clone
/// must not lose the history (FIELD-NOTES 12). Every command that keeps history (`ward drift`,
/// `ward import`, `ward gate` reading acceptances) finds it here unless given `--db`.
pub fn default_path(state_dir: &Path) -> PathBuf {
    state_dir.join("ward").join("drift.sqlite")
}

/// An open finding as the store holds it: its row id and worst impact so far, by
/// (address, attribute).
pub(crate) type OpenFindings = BTreeMap<(String, String), (i64, String)>;

/// What one run's observation of a root does to its findings, computed the same way for every
/// backend ([`diff_findings`]) and applied by each in one transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FindingOp<'a> {
    /// A new episode.
    Open(&'a Finding),
    /// An open row seen again with a worse impact.
    Escalate(i64, &'a str),
    /// An open row seen again at the same or a milder impact (recorded, no transition).
    Touch(i64, &'a str),
    /// An open row not seen any more.
    Resolve(i64),
}

/// Compares what a run observed for `root` with its open findings: the writes to make and the
/// transitions, sorted.
pub(crate) fn diff_findings<'a>(
    root: &str,
    open: &OpenFindings,
    observed: &'a [Finding],
) -> (Vec<FindingOp<'a>>, Vec<Transition>) {
    let mut ops = Vec::new();
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let transition =
        |kind, address: &str, attribute: &str, impact: &str, prev: Option<&str>| Transition {
            root: root.to_string(),
            kind,
            address: address.to_string(),
            attribute: attribute.to_string(),
            impact: impact.to_string(),
            previous_impact: prev.map(str::to_string),
        };
    for f in observed {
        let key = (f.address.clone(), f.attribute.clone());
        if !seen.insert(key.clone()) {
            continue;
        }
        match open.get(&key) {
            None => {
                ops.push(FindingOp::Open(f));
                out.push(transition(
                    TransitionKind::New,
                    &f.address,
                    &f.attribute,
                    &f.impact,
                    None,
                ));
            }
            Some((id, impact)) if impact_order(&f.impact) > impact_order(impact) => {
                ops.push(FindingOp::Escalate(*id, &f.impact));
                out.push(transition(
                    TransitionKind::Escalated,
                    &f.address,
                    &f.attribute,
                    &f.impact,
                    Some(impact),
                ));
            }
            Some((id, _)) => ops.push(FindingOp::Touch(*id, &f.impact)),
        }
    }
    for ((address, attribute), (id, impact)) in open {
        if seen.contains(&(address.clone(), attribute.clone())) {
            continue;
        }
        ops.push(FindingOp::Resolve(*id));
        out.push(transition(
            TransitionKind::Resolved,
            address,
            attribute,
            impact,
            None,
        ));
    }
    out.sort();
    (ops, out)
}

/// What each backend does. [`Store`] is the interface callers see; the backends are private.
pub(crate) trait Backend: Send {
    fn begin_run(&mut self, now: &str, shard: Option<&str>) -> Result<RunId, StoreError>;
    fn begin_batch(&mut self) -> Result<(), StoreError>;
    fn commit_batch(&mut self) -> Result<(), StoreError>;
    fn finish_run(&mut self, run: RunId, now: &str, exit_code: i32) -> Result<(), StoreError>;
    fn state_marks(&self) -> Result<BTreeMap<String, StateMark>, StoreError>;
    fn set_state_mark(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        mark: &StateMark,
    ) -> Result<(), StoreError>;
    fn record_outcome(&mut self, run: RunId, row: &OutcomeRow) -> Result<(), StoreError>;
    fn apply_findings(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        observed: &[Finding],
    ) -> Result<Vec<Transition>, StoreError>;
    fn runs(&self, limit: usize) -> Result<Vec<RunRow>, StoreError>;
    fn root_runs(&self, root: &str, limit: usize) -> Result<Vec<RootRunRow>, StoreError>;
    fn latest_outcomes(&self) -> Result<Vec<RootRunRow>, StoreError>;
    fn every_root_runs(&self, limit: usize) -> Result<Vec<RootRunRow>, StoreError>;
    fn findings(&self, root: Option<&str>, open_only: bool) -> Result<Vec<FindingRow>, StoreError>;
    fn findings_since(&self, run: RunId) -> Result<Vec<FindingRow>, StoreError>;
    fn roots(&self) -> Result<Vec<String>, StoreError>;
    fn append_records(
        &mut self,
        records: &[NewRecord<'_>],
        bodies: &[String],
    ) -> Result<Vec<i64>, StoreError>;
    fn records(&self, query: &RecordQuery<'_>) -> Result<Vec<RecordRow>, StoreError>;
    fn append_approvals(&mut self, a: &[ApprovalRecord]) -> Result<Vec<i64>, StoreError>;
    fn approvals(&self, q: &AuditQuery<'_>) -> Result<Vec<ApprovalRow>, StoreError>;
    fn append_gate_outcome(
        &mut self,
        g: &GateOutcomeRecord,
        reasons: &str,
        changes: &str,
    ) -> Result<i64, StoreError>;
    fn gate_outcomes(&self, q: &AuditQuery<'_>) -> Result<Vec<GateOutcomeRow>, StoreError>;
    fn schema_version(&self) -> Result<Option<String>, StoreError>;
}

/// The history database: SQLite or PostgreSQL behind one interface.
pub struct Store {
    backend: Box<dyn Backend>,
}

impl Store {
    /// Opens (creating when absent) the SQLite database at `path`, creating its directory.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Ok(Store {
            backend: Box::new(sqlite::Sqlite::open(path)?),
        })
    }

    /// A SQLite database in memory (tests).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Ok(Store {
            backend: Box::new(sqlite::Sqlite::open_in_memory()?),
        })
    }

    /// Opens the database at `location`: a SQLite file, or a PostgreSQL database (migrated to
    /// this ward's schema when older, refused when newer).
    pub fn open_location(location: &Location) -> Result<Store, StoreError> {
        match location {
            Location::Sqlite(path) => Store::open(path),
            Location::Postgres(target) => Ok(Store {
                backend: Box::new(pg::Pg::open(target)?),
            }),
        }
    }

    /// Opens the database at `location` for reading: like [`Store::open_location`], but a SQLite
    /// file that does not exist is an error instead of a new empty history (a mistyped `--db`
    /// given to a command that only reads must not create one and report nothing).
    pub fn open_existing(location: &Location) -> Result<Store, StoreError> {
        if let Location::Sqlite(path) = location {
            match std::fs::metadata(path) {
                Ok(m) if m.is_file() => {}
                Ok(_) => {
                    return Err(StoreError::Location(format!(
                        "{}: is not a file; give the history database's file (or its postgres:// URL)",
                        path.display()
                    )))
                }
                Err(_) => {
                    return Err(StoreError::Location(format!(
                        "no history database at {}: nothing has been recorded there (`ward drift` writes it); check --db or `history {{ url }}` in ward.hcl",
                        path.display()
                    )))
                }
            }
        }
        Store::open_location(location)
    }

    /// The `schema_version` the database records (tests and diagnostics).
    pub fn schema_version(&self) -> Result<Option<String>, StoreError> {
        self.backend.schema_version()
    }

    /// Records the start of a run and returns its id.
    pub fn begin_run(&mut self, now: &str, shard: Option<&str>) -> Result<RunId, StoreError> {
        self.backend.begin_run(now, shard)
    }

    /// Starts a batch: everything until [`Store::commit_batch`] is one transaction (one disk sync
    /// for a whole run's results instead of one per root; a run's rows land whole or not at all).
    pub fn begin_batch(&mut self) -> Result<(), StoreError> {
        self.backend.begin_batch()
    }

    /// Commits the batch started by [`Store::begin_batch`].
    pub fn commit_batch(&mut self) -> Result<(), StoreError> {
        self.backend.commit_batch()
    }

    /// Records the end of a run.
    pub fn finish_run(&mut self, run: RunId, now: &str, exit_code: i32) -> Result<(), StoreError> {
        self.backend.finish_run(run, now, exit_code)
    }

    /// The last trusted state mark of every root.
    pub fn state_marks(&self) -> Result<BTreeMap<String, StateMark>, StoreError> {
        self.backend.state_marks()
    }

    /// Records `mark` as the trusted state of `root`.
    pub fn set_state_mark(
        &mut self,
        run: RunId,
        now: &str,
        root: &str,
        mark: &StateMark,
    ) -> Result<(), StoreError> {
        self.backend.set_state_mark(run, now, root, mark)
    }

    /// Records one root's outcome in a run.
    pub fn record_outcome(&mut self, run: RunId, row: &OutcomeRow) -> Result<(), StoreError> {
        self.backend.record_outcome(run, row)
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
        self.backend.apply_findings(run, now, root, observed)
    }

    /// The most recent runs, newest first (at most `limit`).
    pub fn runs(&self, limit: usize) -> Result<Vec<RunRow>, StoreError> {
        self.backend.runs(limit)
    }

    /// One root's outcomes in the most recent runs that checked it, newest first.
    pub fn root_runs(&self, root: &str, limit: usize) -> Result<Vec<RootRunRow>, StoreError> {
        self.backend.root_runs(root, limit)
    }

    /// Every root's latest outcome (the newest run that checked it), sorted by root.
    pub fn latest_outcomes(&self) -> Result<Vec<RootRunRow>, StoreError> {
        self.backend.latest_outcomes()
    }

    /// Every root's newest `limit` outcomes: by root (sorted), each root's newest first. What
    /// [`Store::root_runs`] gives for each of [`Store::roots`], read at once.
    pub fn every_root_runs(&self, limit: usize) -> Result<Vec<RootRunRow>, StoreError> {
        let mut rows = self.backend.every_root_runs(limit)?;
        rows.sort_by(|a, b| {
            a.outcome
                .root
                .cmp(&b.outcome.root)
                .then_with(|| b.run.cmp(&a.run))
        });
        Ok(rows)
    }

    /// Every finding (open and resolved), optionally of one root, sorted by root, address,
    /// attribute, then first run.
    pub fn findings(&self, root: Option<&str>) -> Result<Vec<FindingRow>, StoreError> {
        self.backend.findings(root, false)
    }

    /// The open findings of every root, in the order of [`Store::findings`].
    pub fn open_findings(&self) -> Result<Vec<FindingRow>, StoreError> {
        self.backend.findings(None, true)
    }

    /// The findings of every root that are open or that a run from `run` on saw or resolved,
    /// in the order of [`Store::findings`]: what the newest runs say, read through the indexes
    /// `findings_open`, `findings_by_last_run` and `findings_by_resolved_run` rather than
    /// every finding ever recorded.
    pub fn findings_since(&self, run: RunId) -> Result<Vec<FindingRow>, StoreError> {
        self.backend.findings_since(run)
    }

    /// The names of every root that has any recorded outcome, sorted.
    pub fn roots(&self) -> Result<Vec<String>, StoreError> {
        self.backend.roots()
    }
}

/// An error and its causes on one line (the PostgreSQL client's top-level message alone says
/// "db error" or "error connecting to server").
fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let text = c.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cur = c.source();
    }
    out
}

/// The findings query, asking only what it must: with `root`, one root's (`param` is its
/// placeholder, `?1` or `$1`), with `open_only`, the open ones. Written out per case because
/// neither planner uses an index through `(? IS NULL OR root = ?)`: `findings_by_root` serves
/// a root's findings and the whole list in this order, `findings_open` the open ones.
fn findings_sql(root: bool, open_only: bool, param: &str) -> String {
    let mut conditions = Vec::new();
    if root {
        conditions.push(format!("root = {param}"));
    }
    if open_only {
        conditions.push("resolved_run IS NULL".to_string());
    }
    let filter = if conditions.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", conditions.join(" AND "))
    };
    format!(
        "SELECT root, address, attribute, impact, first_run, first_at, last_run, last_at,
                resolved_run, resolved_at
         FROM findings{filter}
         ORDER BY root, address, attribute, first_run"
    )
}

/// The findings open, or last seen or resolved from run `param` on ([`Store::findings_since`]):
/// one indexed branch per condition, so no branch reads every finding.
fn findings_since_sql(param: &str) -> String {
    let cols = "root, address, attribute, impact, first_run, first_at, last_run, last_at,
                resolved_run, resolved_at";
    format!(
        "SELECT {cols} FROM findings WHERE resolved_run IS NULL
         UNION
         SELECT {cols} FROM findings WHERE last_run >= {param}
         UNION
         SELECT {cols} FROM findings WHERE resolved_run >= {param}
         ORDER BY root, address, attribute, first_run"
    )
}

fn limit_i64(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

/// Reads a state mark from its two nullable columns.
fn mark(lineage: Option<String>, serial: Option<i64>) -> Option<StateMark> {
    match (lineage, serial) {
        (Some(lineage), Some(serial)) => Some(StateMark { lineage, serial }),
        _ => None,
    }
}

/// Checks a schema version as written in `meta`: `Ok(None)` for a new database, the version
/// when this ward can migrate or use it, an error when it is newer or not a version.
fn check_version(text: Option<String>) -> Result<Option<i64>, StoreError> {
    match text {
        None => Ok(None),
        Some(text) => match text.trim().parse::<i64>() {
            Ok(v) if v > SCHEMA_VERSION => Err(StoreError::NewerSchema { found: v }),
            Ok(v) if v >= 1 => Ok(Some(v)),
            _ => Err(StoreError::BadSchema { found: text }),
        },
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

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
}
