//! `ward drift history [ROOT]`: what the history database holds, read into one typed
//! [`History`] (rendered by `ward_report::drift`).

use ward_store::{FindingRow, RootRunRow, RunRow, Store, StoreError};

/// The history `ward drift history [ROOT]` shows.
#[derive(Debug, Clone)]
pub enum History {
    /// Every run (no root named).
    Runs {
        /// At most this many runs.
        limit: usize,
        /// The runs, newest first.
        runs: Vec<RunRow>,
        /// Every finding.
        findings: Vec<FindingRow>,
        /// Runs that recorded their start and never their end (interrupted, or still running),
        /// newest first ([`crate::journal`]).
        unfinished: Vec<crate::journal::Unfinished>,
    },
    /// One root's outcomes, run by run.
    Root {
        /// The root's name.
        root: String,
        /// At most this many runs.
        limit: usize,
        /// Its outcomes, newest first.
        runs: Vec<RootRunRow>,
        /// Its findings.
        findings: Vec<FindingRow>,
    },
}

impl History {
    /// The findings, first and last seen, resolved or open.
    pub fn findings(&self) -> &[FindingRow] {
        match self {
            History::Runs { findings, .. } | History::Root { findings, .. } => findings,
        }
    }
}

/// Reads the history: every run (at most `limit`), or `root`'s outcomes, with the findings.
pub fn read(store: &Store, root: Option<&str>, limit: usize) -> Result<History, StoreError> {
    Ok(match root {
        None => History::Runs {
            limit,
            runs: store.runs(limit)?,
            findings: store.findings(None)?,
            unfinished: crate::journal::unfinished(store)?,
        },
        Some(r) => History::Root {
            root: r.to_string(),
            limit,
            runs: store.root_runs(r, limit)?,
            findings: store.findings(Some(r))?,
        },
    })
}
