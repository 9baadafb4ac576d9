//! A root's timeline: its newest runs, its findings and the chart.

use super::findings::finding_view;
use super::{severity, BANDS};
use std::collections::BTreeMap;
use ward_report::dashboard::{Band, Chart, Point, Timeline, TimelineRun, API_VERSION};
use ward_store::{FindingRow, Store, StoreError};

/// The chart of `runs` (oldest first): one point per run.
pub fn chart(runs: &[TimelineRun]) -> Chart {
    let n = u32::try_from(runs.len()).unwrap_or(u32::MAX);
    let left = 80;
    let step = if n <= 1 {
        0
    } else {
        (800 / (n - 1)).clamp(4, 40)
    };
    let width = left + step * n.saturating_sub(1) + 30;
    let band_y = |sev: &str| {
        let i = BANDS.iter().position(|(s, _)| *s == sev).unwrap_or(1);
        20 + 30 * u32::try_from(i).unwrap_or(1)
    };
    let points: Vec<Point> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| Point {
            x: left + step * u32::try_from(i).unwrap_or(0),
            y: band_y(&r.severity),
            run: r.run,
            started_at: r.started_at.clone(),
            outcome: r.outcome.clone(),
            severity: r.severity.clone(),
        })
        .collect();
    Chart {
        width,
        height: 20 + 30 * 4,
        bands: BANDS
            .iter()
            .map(|(s, label)| Band {
                severity: s.to_string(),
                label: label.to_string(),
                y: band_y(s),
            })
            .collect(),
        line: points
            .iter()
            .map(|p| format!("{},{}", p.x, p.y))
            .collect::<Vec<_>>()
            .join(" "),
        points,
    }
}

/// One root's newest `limit` runs (oldest first), its findings and the chart; `None` when the
/// history has no run of it.
pub fn timeline(store: &Store, root: &str, limit: usize) -> Result<Option<Timeline>, StoreError> {
    let rows = store.root_runs(root, limit)?;
    if rows.is_empty() {
        return Ok(None);
    }
    Ok(Some(timeline_of(root, rows, store.findings(Some(root))?)))
}

/// Every root's timeline ([`timeline`] of each root with a run), sorted by root, read in two
/// queries (every root's newest `limit` runs, every finding) rather than two per root.
pub fn timelines(store: &Store, limit: usize) -> Result<Vec<Timeline>, StoreError> {
    let mut findings: BTreeMap<String, Vec<FindingRow>> = BTreeMap::new();
    for f in store.findings(None)? {
        findings.entry(f.root.clone()).or_default().push(f);
    }
    let mut out = Vec::new();
    let mut rows = store.every_root_runs(limit)?.into_iter().peekable();
    while let Some(first) = rows.next() {
        let root = first.outcome.root.clone();
        let mut mine = vec![first];
        while let Some(next) = rows.next_if(|r| r.outcome.root == root) {
            mine.push(next);
        }
        let f = findings.remove(&root).unwrap_or_default();
        out.push(timeline_of(&root, mine, f));
    }
    Ok(out)
}

/// A root's timeline from its outcomes (newest first, as the store gives them) and findings.
fn timeline_of(
    root: &str,
    mut rows: Vec<ward_store::RootRunRow>,
    findings: Vec<FindingRow>,
) -> Timeline {
    rows.reverse();
    let runs: Vec<TimelineRun> = rows
        .into_iter()
        .map(|r| TimelineRun {
            run: r.run,
            started_at: r.started_at,
            severity: severity(&r.outcome.outcome).to_string(),
            outcome: r.outcome.outcome,
            detail: r.outcome.detail,
            binary: r.outcome.binary,
            lineage: r.outcome.state.as_ref().map(|s| s.lineage.clone()),
            serial: r.outcome.state.map(|s| s.serial),
        })
        .collect();
    Timeline {
        schema_version: API_VERSION,
        root: root.to_string(),
        chart: chart(&runs),
        runs,
        findings: findings.into_iter().map(finding_view).collect(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::views::severity;
    #[test]
    fn the_chart_has_one_point_per_run_in_its_band() {
        let run = |i: i64, o: &str| TimelineRun {
            run: i,
            started_at: format!("t{i}"),
            outcome: o.into(),
            severity: severity(o).into(),
            detail: String::new(),
            binary: None,
            lineage: None,
            serial: None,
        };
        let runs = vec![run(1, "clean"), run(2, "drifted"), run(3, "error")];
        let c = chart(&runs);
        assert_eq!(c.points.len(), 3);
        assert!(c.points[0].x < c.points[1].x && c.points[1].x < c.points[2].x);
        assert!(c.points[2].y < c.points[1].y && c.points[1].y < c.points[0].y);
        assert_eq!(c.line.split(' ').count(), 3);
        assert_eq!(chart(&[]).points.len(), 0);
    }

    /// The report's timelines, read in two queries, are each root's own timeline.
    #[test]
    fn every_timeline_at_once_is_each_roots_timeline() {
        let mut store = Store::open_in_memory().unwrap();
        let roots = crate::fixture::root_names(12);
        crate::fixture::write(&mut store, &roots, 9).unwrap();
        for limit in [1, 4, 100] {
            let all = timelines(&store, limit).unwrap();
            let mut names = store.roots().unwrap();
            names.sort();
            assert_eq!(all.len(), names.len());
            for (t, name) in all.iter().zip(&names) {
                let one = timeline(&store, name, limit).unwrap().unwrap();
                assert_eq!(t, &one, "{name}, limit {limit}");
            }
        }
    }
}
