//! The journal: every stack run, root by root, in ward's history store (`ward-store` records
//! of kinds `stack-run`, `stack-step` and `stack-backup`). Nothing else is kept.
//!
//! - `stack-run`, root [`RUN_ROOT`], key the run id: appended when the run starts (`status`
//!   `running`) and when it ends (`status` the exit's name; `interrupted`, `terminated` or
//!   `hung-up` when ward was told to stop, [`record_signal`]); the latest is the run's state.
//! - `stack-step`, root the root's name, key `RUN/SITE`: one per root instance visited, the
//!   [`RootReport`] (the stack's own model, never its rendering) plus what `ward stack approve`
//!   needs when it waits.
//! - `stack-backup`, root the root's name, key the site: each verified state backup.

use crate::report::{Backup, Command, RootReport};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;
use ward_model::Exit;
use ward_store::{Location, NewRecord, RecordQuery, Store};

/// The `root` of `stack-run` records.
pub const RUN_ROOT: &str = "(stack)";

/// What a `stack-run` record holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The run's id.
    pub run: String,
    /// `apply` or `teardown`.
    pub command: Command,
    /// `--site`.
    pub site: Option<String>,
    /// `--root`.
    pub root: Option<String>,
    /// `running`, or the exit's name.
    pub status: String,
    /// The exit code, when ended.
    pub exit_code: Option<u8>,
    /// The run it resumed.
    pub resumes: Option<String>,
    /// Root instances in visiting order (`root/site`).
    pub order: Vec<String>,
    /// The process running it (while `running`): how a later command tells a run still going
    /// from one that was killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<Process>,
}

/// The process of a run: the one process mark ward has, recorded as
/// `{"pid":…,"host":…,"start":…}`.
pub use ward_exec::ProcessMark as Process;

/// Where a run that the journal says is `running` stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Liveness {
    /// Its process still runs.
    Running,
    /// Its process is gone: killed, or stopped by a signal before it could record its end.
    Interrupted,
    /// It ran on another machine (or recorded no process): this one cannot tell.
    Unknown,
}

impl RunRecord {
    /// The exit of a run that ended because ward was told to stop (SIGINT, SIGTERM, SIGHUP:
    /// [`record_signal`]), not by its own outcome.
    pub fn stopped_by_signal(&self) -> Option<Exit> {
        self.exit_code
            .and_then(|c| Exit::from_code(i32::from(c)))
            .filter(|e| e.is_signal())
    }

    /// Where a `running` run stands ([`Liveness`]).
    pub fn liveness(&self) -> Liveness {
        match self.process.as_ref().and_then(Process::alive) {
            Some(true) => Liveness::Running,
            Some(false) => Liveness::Interrupted,
            None => Liveness::Unknown,
        }
    }
}

/// What a `stack-step` record holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The run.
    pub run: String,
    /// The root instance's report.
    pub report: RootReport,
    /// When it waits for approvals: the saved plan's JSON kept for `ward stack approve`.
    pub pending_plan: Option<String>,
    /// The upstream context its digests are bound to.
    pub context: Option<String>,
    /// Every change needs its own approval (a teardown).
    pub every_change: bool,
}

/// The journal over an open store.
pub struct Journal {
    store: Store,
    at: Location,
}

/// The run this process has started and not yet ended, and the history it is recorded in: what
/// [`record_signal`] ends when ward is told to stop.
static UNDER_WAY: Mutex<Option<(Location, RunRecord)>> = Mutex::new(None);

/// How long [`record_signal`] waits for the history (another writer may hold it, or a
/// PostgreSQL server may be slow to answer) before ward exits without the record.
pub const SIGNAL_RECORD_WAIT: Duration = Duration::from_secs(2);

/// Records the run under way in this process, if there is one, as ended by `signal` (status
/// `interrupted`, `terminated` or `hung-up`, its exit code 128 + the signal), at `at`. For the
/// handler of a termination signal, once the run's programs are stopped: a run written as it
/// moves ends with its true state, so `ward stack status` and `resume` know it was stopped even
/// where they cannot look at its process (a cancelled CI job's retry in another container,
/// another machine on a shared history). Waits at most [`SIGNAL_RECORD_WAIT`]; without the
/// record the run stays `running` and a later command on this machine tells it interrupted by
/// its process being gone ([`RunRecord::liveness`]).
pub fn record_signal(signal: i32, at: &str) {
    let Some(exit) = Exit::from_signal(signal) else {
        return;
    };
    let Some((history, mut rec)) = UNDER_WAY.lock().ok().and_then(|mut u| u.take()) else {
        return;
    };
    rec.status = exit.as_str().to_string();
    rec.exit_code = Some(exit.code());
    let at = at.to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    let writer = std::thread::Builder::new()
        .name("ward-stack-journal".into())
        .spawn(move || {
            let done = Journal::open_location(&history).and_then(|mut j| j.run(&rec, &at));
            let _ = tx.send(done);
        });
    if writer.is_ok() {
        let _ = rx.recv_timeout(SIGNAL_RECORD_WAIT);
    }
}

fn err(e: impl std::fmt::Display) -> String {
    format!("the history store: {e}")
}

impl Journal {
    /// Opens (creating) the SQLite history database at `db`.
    pub fn open(db: &Path) -> Result<Journal, String> {
        Journal::open_location(&Location::Sqlite(db.to_path_buf()))
    }

    /// Opens the history at `at`: a SQLite file (created, with its directory, when absent) or
    /// a PostgreSQL database.
    pub fn open_location(at: &Location) -> Result<Journal, String> {
        if let Location::Sqlite(db) = at {
            if let Some(d) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(d)
                    .map_err(|e| format!("cannot create {}: {e}", d.display()))?;
            }
        }
        Ok(Journal {
            store: Store::open_location(at).map_err(err)?,
            at: at.clone(),
        })
    }

    /// Records a run's state. A `running` run is this process's run under way until its end
    /// is recorded ([`record_signal`]).
    pub fn run(&mut self, r: &RunRecord, at: &str) -> Result<(), String> {
        let running = r.status == "running";
        if !running {
            // Its end, first taken from what a signal would record, so a signal arriving now
            // cannot record it stopped after it ended.
            if let Ok(mut u) = UNDER_WAY.lock() {
                if u.as_ref().is_some_and(|(_, x)| x.run == r.run) {
                    *u = None;
                }
            }
        }
        let body = serde_json::to_value(r).map_err(err)?;
        self.store
            .append_record(&NewRecord {
                kind: "stack-run",
                root: RUN_ROOT,
                key: &r.run,
                recorded_at: at,
                body: &body,
            })
            .map_err(err)?;
        if running {
            if let Ok(mut u) = UNDER_WAY.lock() {
                *u = Some((self.at.clone(), r.clone()));
            }
        }
        Ok(())
    }

    /// Records a step.
    pub fn step(&mut self, s: &StepRecord, at: &str) -> Result<(), String> {
        let body = serde_json::to_value(s).map_err(err)?;
        let key = format!("{}/{}", s.run, s.report.site);
        self.store
            .append_record(&NewRecord {
                kind: "stack-step",
                root: &s.report.root,
                key: &key,
                recorded_at: at,
                body: &body,
            })
            .map(|_| ())
            .map_err(err)
    }

    /// Records a verified backup.
    pub fn backup(
        &mut self,
        root: &str,
        site: &str,
        run: &str,
        b: &Backup,
        at: &str,
    ) -> Result<(), String> {
        let mut body = serde_json::to_value(b).map_err(err)?;
        if let Some(o) = body.as_object_mut() {
            o.insert("run".into(), run.into());
        }
        self.store
            .append_record(&NewRecord {
                kind: "stack-backup",
                root,
                key: site,
                recorded_at: at,
                body: &body,
            })
            .map(|_| ())
            .map_err(err)
    }

    /// The latest run, as last recorded.
    pub fn last_run(&self) -> Result<Option<RunRecord>, String> {
        let rows = self
            .store
            .records(&RecordQuery {
                kind: "stack-run",
                root: Some(RUN_ROOT),
                key: None,
                limit: 1,
            })
            .map_err(err)?;
        rows.into_iter()
            .next()
            .map(|r| serde_json::from_value(r.body).map_err(err))
            .transpose()
    }

    /// Every step of a run, the latest record per root instance, in no particular order.
    pub fn steps(&self, run: &str) -> Result<Vec<StepRecord>, String> {
        let rows = self
            .store
            .records(&RecordQuery {
                kind: "stack-step",
                root: None,
                key: None,
                limit: 100_000,
            })
            .map_err(err)?;
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for r in rows {
            let s: StepRecord = serde_json::from_value(r.body).map_err(err)?;
            if s.run == run && seen.insert(s.report.id()) {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// The newest step recorded for a root instance, in any run.
    pub fn latest_step(&self, root: &str, site: &str) -> Result<Option<StepRecord>, String> {
        let rows = self
            .store
            .records(&RecordQuery {
                kind: "stack-step",
                root: Some(root),
                key: None,
                limit: 100_000,
            })
            .map_err(err)?;
        for r in rows {
            let s: StepRecord = serde_json::from_value(r.body).map_err(err)?;
            if s.report.site == site {
                return Ok(Some(s));
            }
        }
        Ok(None)
    }
}
