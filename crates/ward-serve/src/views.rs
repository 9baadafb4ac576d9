//! The dashboard's views, read from the history store: what each page and API document shows.
//! Rendering is `ward_report::dashboard`'s.

use std::collections::BTreeMap;
use ward_config::Config;
use ward_drift::outcome::Outcome;
use ward_report::dashboard::{
    Band, Chart, FindingView, Findings, LayerGroup, Overview, Point, RecordView, Records, Report,
    RootSummary, Timeline, TimelineRun, API_VERSION,
};
use ward_store::{impact_order, FindingRow, RecordQuery, Store, StoreError};

/// At most this many records of each kind on a page (newest first).
pub const RECORDS_PER_KIND: usize = 500;

/// The runs a timeline shows by default (the newest).
pub const DEFAULT_RUNS: usize = 100;

/// The record pages: path, title, kinds.
pub const RECORD_PAGES: &[(&str, &str, &[&str])] = &[
    ("/approvals", "Approvals", &["approval", "gate"]),
    ("/stacks", "Stack runs", &["stack-run", "stack-backup"]),
    ("/imports", "Import acceptances", &["import-acceptance"]),
];

/// Which layer each root belongs to, from `ward.hcl` (empty without one).
#[derive(Debug, Clone, Default)]
pub struct Layers {
    by_root: BTreeMap<String, (String, i64)>,
}

impl Layers {
    /// The layers of `cfg`'s roots.
    pub fn from_config(cfg: Option<&Config>) -> Layers {
        let mut by_root = BTreeMap::new();
        if let Some(cfg) = cfg {
            for r in &cfg.roots {
                let Some(layer) = &r.layer else { continue };
                if let Some(l) = cfg.layers.iter().find(|l| &l.name == layer) {
                    by_root.insert(r.name.clone(), (l.name.clone(), l.level));
                }
            }
        }
        Layers { by_root }
    }
}

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

fn finding_view(f: FindingRow) -> FindingView {
    let (resolved_run, resolved_at) = match f.resolved {
        Some((r, a)) => (Some(r), Some(a)),
        None => (None, None),
    };
    FindingView {
        root: f.root,
        address: f.address,
        attribute: f.attribute,
        impact: f.impact,
        first_run: f.first_seen.0,
        first_seen: f.first_seen.1,
        last_run: f.last_seen.0,
        last_seen: f.last_seen.1,
        resolved_run,
        resolved_at,
    }
}

/// Worst impact first, then root, address, attribute.
fn worst_first(a: &FindingView, b: &FindingView) -> std::cmp::Ordering {
    impact_order(&b.impact)
        .cmp(&impact_order(&a.impact))
        .then_with(|| a.root.cmp(&b.root))
        .then_with(|| a.address.cmp(&b.address))
        .then_with(|| a.attribute.cmp(&b.attribute))
}

/// Every root's latest outcome and worst open finding, by layer.
pub fn overview(store: &Store, layers: &Layers) -> Result<Overview, StoreError> {
    let latest = store.latest_outcomes()?;
    let mut open: BTreeMap<String, Vec<FindingView>> = BTreeMap::new();
    let mut open_total = 0;
    for f in store.open_findings()? {
        open_total += 1;
        open.entry(f.root.clone())
            .or_default()
            .push(finding_view(f));
    }
    let mut groups: BTreeMap<(i64, Option<String>), Vec<RootSummary>> = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for r in latest {
        let o = r.outcome;
        *counts.entry(o.outcome.clone()).or_default() += 1;
        let mut mine = open.remove(&o.root).unwrap_or_default();
        mine.sort_by(worst_first);
        let layer = layers.by_root.get(&o.root);
        // Roots without a layer sort after every layer.
        let key = match layer {
            Some((name, level)) => (*level, Some(name.clone())),
            None => (i64::MAX, None),
        };
        groups.entry(key).or_default().push(RootSummary {
            severity: severity(&o.outcome).to_string(),
            root: o.root,
            run: r.run,
            started_at: r.started_at,
            outcome: o.outcome,
            detail: o.detail,
            open_findings: mine.len(),
            worst: mine.into_iter().next(),
        });
    }
    Ok(Overview {
        schema_version: API_VERSION,
        layers: groups
            .into_iter()
            .map(|((level, layer), roots)| LayerGroup {
                level: layer.as_ref().map(|_| level),
                layer,
                roots,
            })
            .collect(),
        counts,
        open_findings: open_total,
    })
}

const BANDS: &[(&str, &str)] = &[
    ("failed", "failed"),
    ("other", "other"),
    ("drift", "drifted"),
    ("ok", "clean"),
];

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
    let mut rows = store.root_runs(root, limit)?;
    if rows.is_empty() {
        return Ok(None);
    }
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
    let findings = store
        .findings(Some(root))?
        .into_iter()
        .map(finding_view)
        .collect();
    Ok(Some(Timeline {
        schema_version: API_VERSION,
        root: root.to_string(),
        chart: chart(&runs),
        runs,
        findings,
    }))
}

/// Every open finding, worst first.
pub fn findings(store: &Store) -> Result<Findings, StoreError> {
    let mut findings: Vec<FindingView> = store
        .open_findings()?
        .into_iter()
        .map(finding_view)
        .collect();
    findings.sort_by(worst_first);
    Ok(Findings {
        schema_version: API_VERSION,
        findings,
    })
}

/// The records of `kinds`, newest first; `now` (RFC 3339, UTC) decides which have expired.
pub fn records(
    store: &Store,
    title: &str,
    kinds: &[&str],
    now: &str,
) -> Result<Records, StoreError> {
    let mut out = Vec::new();
    for kind in kinds {
        for r in store.records(&RecordQuery {
            kind,
            limit: RECORDS_PER_KIND,
            ..Default::default()
        })? {
            let expires = ["expires", "expires_at"]
                .iter()
                .find_map(|k| r.body.get(*k).and_then(|v| v.as_str()))
                .map(str::to_string);
            let expired = expires.as_deref().is_some_and(|e| expired(e, now));
            let fields = r
                .body
                .as_object()
                .map(|o| {
                    o.iter()
                        .map(|(k, v)| (k.clone(), compact(v)))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            out.push(RecordView {
                id: r.id,
                kind: r.kind,
                root: r.root,
                key: r.key,
                recorded_at: r.recorded_at,
                expires,
                expired,
                fields,
                body: r.body,
            });
        }
    }
    out.sort_by(|a, b| {
        b.recorded_at
            .cmp(&a.recorded_at)
            .then_with(|| b.id.cmp(&a.id))
    });
    Ok(Records {
        schema_version: API_VERSION,
        title: title.to_string(),
        kinds: kinds.iter().map(|k| k.to_string()).collect(),
        records: out,
    })
}

/// Whether an expiry (a `YYYY-MM-DD` date, inclusive, or an RFC 3339 UTC time) is before `now`.
fn expired(expires: &str, now: &str) -> bool {
    if expires.len() == 10 {
        expires < now.get(..10).unwrap_or(now)
    } else {
        expires < now
    }
}

/// A JSON value on one line, strings without their quotes, cut at 300 characters.
fn compact(v: &serde_json::Value) -> String {
    let s = match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if s.chars().count() > 300 {
        let mut cut: String = s.chars().take(300).collect();
        cut.push('…');
        cut
    } else {
        s
    }
}

/// Everything `ward report --html` shows: the overview, the open findings, the record pages
/// that have records, and each root's newest `runs` runs.
pub fn report(
    store: &Store,
    layers: &Layers,
    runs: usize,
    now: &str,
) -> Result<Report, StoreError> {
    let mut timelines = Vec::new();
    for root in store.roots()? {
        if let Some(t) = timeline(store, &root, runs)? {
            timelines.push(t);
        }
    }
    let mut records_pages = Vec::new();
    for (_, title, kinds) in RECORD_PAGES {
        let r = records(store, title, kinds, now)?;
        if !r.records.is_empty() {
            records_pages.push(r);
        }
    }
    Ok(Report {
        overview: overview(store, layers)?,
        timelines,
        findings: findings(store)?,
        records: records_pages,
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

    #[test]
    fn expiry_is_inclusive_for_dates() {
        let now = "2026-12-01T10:00:00Z";
        assert!(!expired("2026-12-01", now));
        assert!(expired("2026-11-30", now));
        assert!(expired("2026-12-01T09:59:59Z", now));
        assert!(!expired("2026-12-01T10:00:01Z", now));
    }

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
}
