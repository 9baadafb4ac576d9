//! The overview: every root's latest outcome by layer, worst first, filtered and paged; when a
//! root is stale.

use super::findings::{finding_view, worst_first};
use super::{severity, severity_rank, BANDS};
use std::collections::BTreeMap;
use std::time::Duration;
use ward_config::Config;
use ward_drift::outcome::Outcome;
use ward_report::dashboard::{
    FilterView, FindingView, LayerGroup, OutcomeCount, Overview, PageView, RootSummary,
    StatusCount, API_VERSION,
};
use ward_store::{impact_order, Store, StoreError};
use ward_time::Timestamp;

/// The roots an overview page shows unless `per_page` says otherwise: a page a browser renders
/// at once, not a fleet of 10,000 rows.
pub const ROOTS_PER_PAGE: usize = 100;

/// At most this many roots a page, whatever `per_page` asks.
pub const MAX_PER_PAGE: usize = 1000;

/// Which page of a list to show: `number` from 1, `per_page` entries each (0: every entry on
/// one page, as `ward report --html --all-roots` asks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// The page, from 1.
    pub number: usize,
    /// Entries a page; 0 for all.
    pub per_page: usize,
}

impl Default for Paging {
    fn default() -> Paging {
        Paging {
            number: 1,
            per_page: ROOTS_PER_PAGE,
        }
    }
}

impl Paging {
    /// Every entry on one page.
    pub const ALL: Paging = Paging {
        number: 1,
        per_page: 0,
    };

    /// The paging a request's `page` and `per_page` parameters give (absent: the first page
    /// of [`ROOTS_PER_PAGE`]); a value that is not a whole number in range is an error saying
    /// what is accepted.
    pub fn from_params(page: Option<&str>, per_page: Option<&str>) -> Result<Paging, String> {
        let number = match page.map(str::trim).filter(|p| !p.is_empty()) {
            None => 1,
            Some(p) => p
                .parse::<usize>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| format!("page={p}: give a page number from 1"))?,
        };
        let per_page = match per_page.map(str::trim).filter(|p| !p.is_empty()) {
            None => ROOTS_PER_PAGE,
            Some(p) => p
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_PER_PAGE).contains(n))
                .ok_or_else(|| format!("per_page={p}: give a number from 1 to {MAX_PER_PAGE}"))?,
        };
        Ok(Paging { number, per_page })
    }

    /// The range of a list of `total` entries this page holds, and the page's view (a page
    /// past the end is the last page).
    fn apply(&self, total: usize) -> (std::ops::Range<usize>, PageView) {
        let per_page = if self.per_page == 0 {
            total.max(1)
        } else {
            self.per_page
        };
        let pages = total.div_ceil(per_page).max(1);
        let number = self.number.clamp(1, pages);
        let start = (number - 1) * per_page;
        let end = (start + per_page).min(total);
        let view = PageView {
            number,
            pages,
            per_page,
            first: if end > start { start + 1 } else { 0 },
            last: end,
            total,
        };
        (start..end, view)
    }
}

/// How long after its newest run a root is marked stale, unless `--stale-after` says otherwise.
pub const DEFAULT_STALE_AFTER: &str = "2d";

/// When a root is stale: its newest run started more than `after` before `now`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staleness {
    /// Now (the caller's clock).
    pub now: Timestamp,
    /// The threshold.
    pub after: Duration,
    /// The threshold as the user wrote it (`2d`), for the page.
    pub written: String,
}

impl Staleness {
    /// Reads `after` (`2d`, `36h`...) against `now`.
    pub fn new(now: Timestamp, after: &str) -> Result<Staleness, String> {
        let d = ward_time::parse_duration(after)?;
        if d.is_zero() {
            return Err(format!("a stale-after of `{after}` marks every root: give a positive duration, e.g. `{DEFAULT_STALE_AFTER}`"));
        }
        Ok(Staleness {
            now,
            after: d,
            written: after.trim().to_string(),
        })
    }

    /// How long ago `started_at` was, when it is older than the threshold (`None`: fresh, or
    /// not a time ward wrote: such a root is not marked).
    fn age(&self, started_at: &str) -> Option<Duration> {
        let t = ward_time::parse_timestamp(started_at).ok()?;
        let age = self.now.duration_since(t);
        let age = Duration::try_from(age).ok()?;
        (age > self.after).then_some(age)
    }
}

/// An age as people read it: `3d 4h`, `5h 10m`, `12m` (whole hours from a day on, so a report
/// written twice in the same hour reads the same).
fn human(d: Duration) -> String {
    let s = d.as_secs();
    let (days, hours, minutes) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    if days > 0 {
        format!("{days}d {hours}h")
    } else if hours > 0 {
        format!("{hours}h {minutes}m")
    } else {
        format!("{minutes}m")
    }
}

/// Which roots the overview shows: every condition given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// A severity (`failed`, `other`, `drift`, `ok`) or an outcome name (`error`, `drifted`...).
    pub status: Option<String>,
    /// Only stale roots.
    pub stale: bool,
    /// A substring of the root's name (ASCII case ignored).
    pub name: Option<String>,
    /// Only the roots that need attention: not clean, stale, or with an open finding (what
    /// `ward report --html` lists unless `--all-roots`).
    pub attention: bool,
}

impl Filter {
    /// The filter a request's `status`, `stale` and `name` parameters give; an unknown status
    /// or a `stale` that is not a yes/no is an error saying what is accepted.
    pub fn from_params(
        status: Option<&str>,
        stale: Option<&str>,
        name: Option<&str>,
    ) -> Result<Filter, String> {
        let status = status.map(str::trim).filter(|s| !s.is_empty());
        if let Some(s) = status {
            let known = BANDS.iter().any(|(sev, _)| *sev == s)
                || Outcome::ALL.iter().any(|o| o.as_str() == s);
            if !known {
                let mut names: Vec<&str> = BANDS.iter().map(|(s, _)| *s).collect();
                names.extend(Outcome::ALL.iter().map(|o| o.as_str()));
                return Err(format!(
                    "status={s}: give a severity or an outcome: {}",
                    names.join(", ")
                ));
            }
        }
        let stale = match stale.map(str::trim) {
            None | Some("" | "0" | "false" | "no") => false,
            Some("1" | "true" | "yes" | "on") => true,
            Some(other) => return Err(format!("stale={other}: give 1 or 0")),
        };
        Ok(Filter {
            status: status.map(str::to_string),
            stale,
            name: name
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_string),
            attention: false,
        })
    }

    fn active(&self) -> bool {
        self.status.is_some() || self.stale || self.name.is_some() || self.attention
    }

    fn keeps(&self, r: &RootSummary) -> bool {
        self.status
            .as_deref()
            .is_none_or(|s| s == r.severity || s == r.outcome)
            && (!self.stale || r.stale)
            && (!self.attention || r.severity != "ok" || r.stale || r.open_findings > 0)
            && self.name.as_deref().is_none_or(|n| {
                r.root
                    .to_ascii_lowercase()
                    .contains(&n.to_ascii_lowercase())
            })
    }

    fn view(&self) -> FilterView {
        FilterView {
            status: self.status.clone(),
            stale: self.stale,
            name: self.name.clone(),
            attention: self.attention,
            active: self.active(),
        }
    }
}

/// Which layer each root belongs to, from `ward.hcl` (empty without one).
#[derive(Debug, Clone, Default)]
pub struct Layers {
    by_root: BTreeMap<String, (String, i64)>,
}

impl Layers {
    /// The layers of `cfg`'s roots, under each name the history gives them: the root's, and
    /// `ROOT/SITE` for each site of a root with `site` blocks (`ward drift` checks each site).
    pub fn from_config(cfg: Option<&Config>) -> Layers {
        let mut by_root = BTreeMap::new();
        if let Some(cfg) = cfg {
            for r in &cfg.roots {
                let Some(layer) = &r.layer else { continue };
                if let Some(l) = cfg.layers.iter().find(|l| &l.name == layer) {
                    let names = std::iter::once(r.name.clone()).chain(
                        r.stack
                            .sites
                            .iter()
                            .map(|s| ward_drift::instance_name(&r.name, &s.name)),
                    );
                    for name in names {
                        by_root.insert(name, (l.name.clone(), l.level));
                    }
                }
            }
        }
        Layers { by_root }
    }
}

/// Worst first: severity, then stale before fresh, then the worst open finding, then how many
/// are open, then the name.
fn root_order(a: &RootSummary, b: &RootSummary) -> std::cmp::Ordering {
    let worst = |r: &RootSummary| r.worst.as_ref().and_then(|f| impact_order(&f.impact));
    severity_rank(&a.severity)
        .cmp(&severity_rank(&b.severity))
        .then_with(|| b.stale.cmp(&a.stale))
        .then_with(|| worst(b).cmp(&worst(a)))
        .then_with(|| b.open_findings.cmp(&a.open_findings))
        .then_with(|| a.root.cmp(&b.root))
}

/// Every root's latest outcome and worst open finding, by layer, worst first within each;
/// stale roots marked by `stale`; only the roots `filter` keeps (the counts are over every root),
/// and of those the page `paging` names (in layer order, worst first within each layer).
pub fn overview(
    store: &Store,
    layers: &Layers,
    stale: &Staleness,
    filter: &Filter,
    paging: Paging,
) -> Result<Overview, StoreError> {
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
    let mut by_severity: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
    let (mut total, mut stale_total) = (0, 0);
    for r in latest {
        let o = r.outcome;
        *counts.entry(o.outcome.clone()).or_default() += 1;
        let severity = severity(&o.outcome);
        *by_severity
            .entry(severity)
            .or_default()
            .entry(o.outcome.clone())
            .or_default() += 1;
        let mut mine = open.remove(&o.root).unwrap_or_default();
        mine.sort_by(worst_first);
        let age = stale.age(&r.started_at);
        total += 1;
        stale_total += usize::from(age.is_some());
        let summary = RootSummary {
            severity: severity.to_string(),
            root: o.root,
            run: r.run,
            started_at: r.started_at,
            outcome: o.outcome,
            detail: o.detail,
            open_findings: mine.len(),
            worst: mine.into_iter().next(),
            stale: age.is_some(),
            age: age.map(human),
        };
        if !filter.keeps(&summary) {
            continue;
        }
        let layer = layers.by_root.get(&summary.root);
        // Roots without a layer sort after every layer.
        let key = match layer {
            Some((name, level)) => (*level, Some(name.clone())),
            None => (i64::MAX, None),
        };
        groups.entry(key).or_default().push(summary);
    }
    let statuses = BANDS
        .iter()
        .filter_map(|(sev, label)| {
            let outcomes = by_severity.remove(sev)?;
            Some(StatusCount {
                status: sev.to_string(),
                label: label.to_string(),
                count: outcomes.values().sum(),
                outcomes: outcomes
                    .into_iter()
                    .map(|(outcome, count)| OutcomeCount { outcome, count })
                    .collect(),
            })
        })
        .collect();
    let shown: usize = groups.values().map(Vec::len).sum();
    let (range, page) = paging.apply(shown);
    // The page's roots: the groups in layer order, each sorted worst first, cut to the range.
    let mut at = 0;
    let mut layers: Vec<LayerGroup> = Vec::new();
    for ((level, layer), mut roots) in groups {
        let n = roots.len();
        let (from, to) = (
            range.start.clamp(at, at + n) - at,
            range.end.clamp(at, at + n) - at,
        );
        at += n;
        if from == to {
            continue;
        }
        roots.sort_by(root_order);
        roots.truncate(to);
        roots.drain(..from);
        layers.push(LayerGroup {
            level: layer.as_ref().map(|_| level),
            layer,
            roots,
        });
    }
    Ok(Overview {
        schema_version: API_VERSION,
        shown,
        layers,
        counts,
        open_findings: open_total,
        roots: total,
        stale: stale_total,
        stale_after: stale.written.clone(),
        now: ward_time::rfc3339(stale.now),
        statuses,
        filter: filter.view(),
        page,
    })
}

#[cfg(test)]
#[path = "tests_views.rs"]
mod tests_views;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn each_site_of_a_root_is_in_its_layer() {
        let cfg = Config::parse(
            "layer \"substrate\" {\n  level = 0\n}\n\
             root \"network\" {\n  path = \"network\"\n  layer = \"substrate\"\n  \
             site \"dc0\" {\n  }\n  site \"dc1\" {\n  }\n}\n",
            "ward.hcl",
            std::path::Path::new("."),
        )
        .unwrap();
        let l = Layers::from_config(Some(&cfg));
        // `ward drift` records each site as `ROOT/SITE` (examples/stack: `network/dc0`).
        for name in ["network", "network/dc0", "network/dc1"] {
            assert_eq!(
                l.by_root.get(name),
                Some(&("substrate".to_string(), 0)),
                "{name}"
            );
        }
        assert_eq!(l.by_root.get("network/dc2"), None);
    }
}
