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
        /// Only runs started at or after this (UTC, as given).
        since: Option<String>,
        /// Whether older runs than those shown are recorded (the list is cut).
        more: bool,
        /// Whether the findings and the unfinished runs are every one recorded (`--all`), not
        /// only those of the runs shown.
        whole: bool,
        /// The runs, newest first.
        runs: Vec<RunRow>,
        /// The findings: every one when `whole`, else those open and those the shown runs saw
        /// or resolved.
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

/// What `ward drift history` reads.
#[derive(Debug, Clone, Default)]
pub struct Query<'a> {
    /// A root's outcomes, or (`None`) every run.
    pub root: Option<&'a str>,
    /// At most this many runs.
    pub limit: usize,
    /// Only runs started at or after this (`YYYY-MM-DD` or an RFC 3339 UTC time).
    pub since: Option<&'a str>,
    /// Every finding and every unfinished run ever recorded, not only the shown runs'.
    pub all: bool,
}

/// Reads the whole history: every run (at most `limit`), or `root`'s outcomes, with every
/// finding.
pub fn read(store: &Store, root: Option<&str>, limit: usize) -> Result<History, StoreError> {
    read_query(
        store,
        &Query {
            root,
            limit,
            since: None,
            all: true,
        },
    )
}

/// Reads what `q` asks. Without `all`, the runs' view reads what the shown runs say: the
/// findings open or seen or resolved by one of them (indexed: `Store::findings_since`), and
/// the unfinished runs among the newest journal records, so it costs the same on a year of
/// history as on a week.
pub fn read_query(store: &Store, q: &Query<'_>) -> Result<History, StoreError> {
    let (root, limit) = (q.root, q.limit);
    Ok(match root {
        None => {
            let mut runs = store.runs(limit.saturating_add(1))?;
            let fetched = runs.len();
            if let Some(since) = q.since {
                // Newest first: the runs since then are a prefix. A date sorts before every
                // time of its day.
                runs.retain(|r| r.started_at.as_str() >= since);
            }
            runs.truncate(limit);
            // Older runs are recorded than those shown (cut by the limit or by `since`).
            let more = fetched > runs.len();
            let (findings, unfinished) = if q.all {
                (store.findings(None)?, crate::journal::unfinished(store)?)
            } else {
                let findings = match runs.last() {
                    Some(oldest) => store.findings_since(oldest.id)?,
                    None => store.open_findings()?,
                };
                // Two records a run, and room for interrupted marks.
                let records = limit.saturating_mul(3).saturating_add(16);
                (findings, crate::journal::unfinished_within(store, records)?)
            };
            History::Runs {
                limit,
                since: q.since.map(str::to_string),
                more,
                whole: q.all,
                runs,
                findings,
                unfinished,
            }
        }
        Some(r) => History::Root {
            root: r.to_string(),
            limit,
            runs: store.root_runs(r, limit)?,
            findings: store.findings(Some(r))?,
        },
    })
}
