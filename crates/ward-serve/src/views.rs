//! The dashboard's views, read from the history store: what each page and API document shows.
//! Rendering is `ward_report::dashboard`'s.

use ward_drift::outcome::Outcome;
use ward_report::dashboard::{OutcomeCount, Report, RunView};
use ward_store::{Store, StoreError};

/// At most this many records of each kind on a page (newest first).
pub const RECORDS_PER_KIND: usize = 500;

/// The runs a timeline shows by default (the newest).
pub const DEFAULT_RUNS: usize = 100;

mod findings;
mod overview;
mod records;
mod stacks;
mod timeline;

pub use findings::findings;
pub use overview::{
    overview, Filter, Layers, Paging, Staleness, DEFAULT_STALE_AFTER, MAX_PER_PAGE, ROOTS_PER_PAGE,
};
pub use records::{approvals, records, AUDIT_ROWS, RECORD_PAGES};
pub use stacks::{short_digest, stack_runs, STACK_RUNS};
pub use timeline::{chart, timeline, timelines};

/// How bad an outcome is, for colours and the chart's bands: `ok` (clean), `drift`, `failed`
/// (the outcomes that fail a run) or `other` (locked, excluded, output-only, pending...).
pub fn severity(outcome: &str) -> &'static str {
    let known = Outcome::ALL.iter().find(|o| o.as_str() == outcome);
    match known {
        Some(Outcome::Clean) => "ok",
        Some(Outcome::Drifted) => "drift",
        Some(o) if o.fails() => "failed",
        _ => "other",
    }
}

/// Where a severity sorts: worst (`failed`) first.
fn severity_rank(severity: &str) -> usize {
    BANDS
        .iter()
        .position(|(s, _)| *s == severity)
        .unwrap_or(BANDS.len())
}

const BANDS: &[(&str, &str)] = &[
    ("failed", "failed"),
    ("other", "other"),
    ("drift", "drifted"),
    ("ok", "clean"),
];

/// What `ward report --html` holds beyond the counts, the open findings, the records, the
/// stack runs and the approvals (which it always holds whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportScope {
    /// Every root, not only those that need attention (not clean, stale, or with an open
    /// finding).
    pub all_roots: bool,
    /// At most this many of those roots (worst first), each with its timeline; 0 for all.
    pub max_roots: usize,
    /// How many of each shown root's newest runs its timeline holds.
    pub runs: usize,
    /// How many of the newest runs the recent-runs table lists.
    pub recent_runs: usize,
}

/// The newest `limit` runs, newest first, as the report lists them.
pub fn recent_runs(store: &Store, limit: usize) -> Result<Vec<RunView>, StoreError> {
    Ok(store
        .runs(limit)?
        .into_iter()
        .map(|r| {
            let severity = r
                .outcomes
                .keys()
                .map(|o| severity(o))
                .min_by_key(|s| severity_rank(s))
                .unwrap_or("ok");
            RunView {
                run: r.id,
                started_at: r.started_at,
                finished_at: r.finished_at,
                shard: r.shard,
                exit_code: r.exit_code,
                severity: severity.to_string(),
                outcomes: r
                    .outcomes
                    .into_iter()
                    .map(|(outcome, count)| OutcomeCount {
                        outcome,
                        count: usize::try_from(count).unwrap_or(0),
                    })
                    .collect(),
            }
        })
        .collect())
}

/// Everything `ward report --html` shows: the overview's counts over every root and its roots
/// as `scope` chooses them (stale roots marked by `stale`), the newest runs, the open findings,
/// the record pages that have records, the stack runs, the approvals, and the timeline of each
/// root the overview shows (every root's, by name, when it shows every root).
pub fn report(
    store: &Store,
    layers: &Layers,
    stale: &Staleness,
    scope: &ReportScope,
) -> Result<Report, StoreError> {
    let now = ward_time::rfc3339(stale.now);
    let filter = Filter {
        attention: !scope.all_roots,
        ..Filter::default()
    };
    let paging = Paging {
        number: 1,
        per_page: scope.max_roots,
    };
    let overview = overview(store, layers, stale, &filter, paging)?;
    let timelines = if scope.all_roots && scope.max_roots == 0 {
        // Every root: two queries for the whole fleet rather than two per root.
        timelines(store, scope.runs)?
    } else {
        let mut out = Vec::new();
        for r in overview.layers.iter().flat_map(|g| &g.roots) {
            out.extend(timeline(store, &r.root, scope.runs)?);
        }
        out
    };
    let mut records_pages = Vec::new();
    for (_, title, kinds) in RECORD_PAGES {
        let r = records(store, title, kinds, &now)?;
        if !r.records.is_empty() {
            records_pages.push(r);
        }
    }
    Ok(Report {
        overview,
        recent: recent_runs(store, scope.recent_runs)?,
        notes: Vec::new(),
        timelines,
        findings: findings(store)?,
        records: records_pages,
        stacks: stack_runs(store)?,
        approvals: approvals(store, None, stale.now)?,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn severities_follow_ward_drift() {
        assert_eq!(severity("clean"), "ok");
        assert_eq!(severity("drifted"), "drift");
        assert_eq!(severity("missing-state"), "failed");
        assert_eq!(severity("error"), "failed");
        assert_eq!(severity("locked"), "other");
        assert_eq!(severity("banana"), "other");
    }
}
