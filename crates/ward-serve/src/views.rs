//! The dashboard's views, read from the history store: what each page and API document shows.
//! Rendering is `ward_report::dashboard`'s.

use std::collections::BTreeMap;
use std::time::Duration;
use ward_config::Config;
use ward_drift::outcome::Outcome;
use ward_report::dashboard::{
    ApprovalView, Approvals, Band, Chart, FilterView, FindingView, Findings, GateChangeView,
    GateReviewView, GateView, LayerGroup, OutcomeCount, Overview, PageView, Point, RecordView,
    Records, Report, RootSummary, RunView, StackRunView, StackRuns, StatusCount, StepView,
    Timeline, TimelineRun, API_VERSION,
};
use ward_report::stack::RootOutcome;
use ward_store::{impact_order, AuditQuery, FindingRow, RecordQuery, Store, StoreError};
use ward_time::Timestamp;

/// At most this many records of each kind on a page (newest first).
pub const RECORDS_PER_KIND: usize = 500;

/// The runs a timeline shows by default (the newest).
pub const DEFAULT_RUNS: usize = 100;

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

/// The record pages: path, title, kinds.
pub const RECORD_PAGES: &[(&str, &str, &[&str])] =
    &[("/imports", "Imports", &["import-plan", "import-acceptance"])];

/// At most this many approvals, and as many gate decisions, on the approvals page.
pub const AUDIT_ROWS: usize = 500;

/// At most this many stack runs on the stack-runs page (newest first).
pub const STACK_RUNS: usize = 200;

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

/// Where a severity sorts: worst (`failed`) first.
fn severity_rank(severity: &str) -> usize {
    BANDS
        .iter()
        .position(|(s, _)| *s == severity)
        .unwrap_or(BANDS.len())
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

/// A record as the pages show it; `now` (RFC 3339, UTC) decides whether it has expired.
fn record_view(r: ward_store::RecordRow, now: &str) -> RecordView {
    let expires = ["expires", "expires_at"]
        .iter()
        .find_map(|k| r.body.get(*k).and_then(|v| v.as_str()))
        .map(str::to_string);
    let expired = !now.is_empty() && expires.as_deref().is_some_and(|e| expired(e, now));
    let fields = r
        .body
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), compact(v)))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    RecordView {
        id: r.id,
        kind: r.kind,
        root: r.root,
        key: r.key,
        recorded_at: r.recorded_at,
        expires,
        expired,
        fields,
        body: r.body,
    }
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
            out.push(record_view(r, now));
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

/// The gate's audit trail, newest first: approvals given (expired ones marked, judged at `now`)
/// and gate decisions; only `root`'s when one is given.
pub fn approvals(
    store: &Store,
    root: Option<&str>,
    now: Timestamp,
) -> Result<Approvals, StoreError> {
    let now = ward_time::rfc3339(now);
    let q = AuditQuery {
        root,
        limit: AUDIT_ROWS,
    };
    let approvals = store
        .approvals(&q)?
        .into_iter()
        .map(|r| {
            let a = r.approval;
            ApprovalView {
                id: r.id,
                source: a.source.as_str().to_string(),
                expired: a.expires_at.as_deref().is_some_and(|e| expired(e, &now)),
                root: a.root,
                site: a.site,
                address: a.address,
                deposed: a.deposed,
                action: a.action,
                impact: a.impact,
                digest: a.digest,
                by: a.by,
                reason: a.reason,
                approved_at: a.approved_at,
                expires_at: a.expires_at,
                signed: a.signed,
                plan: a.plan,
                run: a.run,
            }
        })
        .collect();
    let gates = store
        .gate_outcomes(&q)?
        .into_iter()
        .map(|r| {
            let g = r.outcome;
            GateView {
                id: r.id,
                source: g.source.as_str().to_string(),
                severity: if g.outcome == "pass" { "ok" } else { "failed" }.to_string(),
                root: g.root,
                site: g.site,
                plan: g.plan,
                outcome: g.outcome,
                exit_code: g.exit_code,
                decided_at: g.decided_at,
                reasons: g.reasons,
                changes: g
                    .changes
                    .into_iter()
                    .map(|c| GateChangeView {
                        address: c.address,
                        deposed: c.deposed,
                        action: c.action,
                        impact: c.impact,
                        digest: c.digest,
                        status: c.status,
                        by: c.by,
                        expires_at: c.expires_at,
                        review: c.review.map(|r| GateReviewView {
                            source: r.source,
                            commit: r.commit,
                            approved_at: r.approved_at,
                        }),
                    })
                    .collect(),
                run: g.run,
            }
        })
        .collect();
    Ok(Approvals {
        schema_version: API_VERSION,
        root: root.map(str::to_string),
        now,
        approvals,
        gates,
    })
}

/// The severity of a stack run's status: `running` is `other`, `pass` is `ok`, any other exit
/// (a failure, a refusal, an approval awaited, an interruption) is `failed`.
fn run_severity(status: &str) -> &'static str {
    match status {
        "running" => "other",
        "pass" => "ok",
        _ => "failed",
    }
}

/// The step outcomes that stop a run (the rest that did not finish are `other`).
const STOPPING_STEPS: &[RootOutcome] = &[
    RootOutcome::ApprovalRequired,
    RootOutcome::GateRefused,
    RootOutcome::PreDestroyRefused,
    RootOutcome::Refused,
    RootOutcome::Failed,
];

/// The severity of a step's outcome: finished (or nothing to do) `ok`, stopping `failed`,
/// the rest (changes planned, not reached, in progress) `other`.
fn step_severity(outcome: &str) -> &'static str {
    let parsed: Option<RootOutcome> =
        serde_json::from_value(serde_json::Value::String(outcome.to_string())).ok();
    match parsed {
        Some(o) if o.finished() || o == RootOutcome::NoChanges => "ok",
        Some(o) if STOPPING_STEPS.contains(&o) => "failed",
        _ => "other",
    }
}

fn text(v: &serde_json::Value, key: &str) -> Option<String> {
    v.get(key).and_then(|x| x.as_str()).map(str::to_string)
}

/// The strings of the list at `key` (none when it is absent or not a list).
fn strings(v: &serde_json::Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(|x| x.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A `sha256:` digest cut to its first 12 hex digits, for reading (the API keeps it whole).
pub fn short_digest(d: &str) -> String {
    let (prefix, hex) = d.split_once(':').unwrap_or(("", d));
    let cut: String = hex.chars().take(12).collect();
    if prefix.is_empty() {
        cut
    } else {
        format!("{prefix}:{cut}")
    }
}

/// One step as the stack-runs page shows it, from a `stack-step` record's body.
fn step_view(body: &serde_json::Value, recorded_at: &str) -> Option<StepView> {
    let report = body.get("report")?;
    let outcome = text(report, "outcome")?;
    let changes = report.get("changes").and_then(|c| {
        let n = |k: &str| c.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
        let parts: Vec<String> = [
            ("create", "+"),
            ("update", "~"),
            ("replace", "±"),
            ("delete", "-"),
        ]
        .iter()
        .filter(|(k, _)| n(k) > 0)
        .map(|(k, sign)| format!("{sign}{} {k}", n(k)))
        .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    });
    Some(StepView {
        root: text(report, "root")?,
        site: text(report, "site").unwrap_or_default(),
        layer: text(report, "layer").unwrap_or_default(),
        severity: step_severity(&outcome).to_string(),
        outcome,
        detail: strings(report, "detail"),
        binary: text(report, "binary"),
        changes,
        pending_approvals: report
            .get("approvals")
            .and_then(|a| a.as_array())
            .map_or(0, Vec::len),
        recorded_at: Some(recorded_at.to_string()),
    })
}

/// The stack runs, newest first: one per run (its latest `stack-run` record: the status), with
/// its root instances in visiting order (each one's latest `stack-step`; `not-reached` when the
/// run recorded none) and the backups it took.
pub fn stack_runs(store: &Store) -> Result<StackRuns, StoreError> {
    let query = |kind, limit| {
        store.records(&RecordQuery {
            kind,
            limit,
            ..Default::default()
        })
    };
    // Newest first: the first record seen of a run is its state, the last its start.
    let mut runs: Vec<StackRunView> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for r in query("stack-run", RECORDS_PER_KIND * 4)? {
        let run = text(&r.body, "run").unwrap_or_else(|| r.key.clone());
        if let Some(&i) = index.get(&run) {
            runs[i].started_at = r.recorded_at;
            continue;
        }
        if runs.len() == STACK_RUNS {
            continue;
        }
        let status = text(&r.body, "status").unwrap_or_else(|| "unknown".into());
        index.insert(run.clone(), runs.len());
        runs.push(StackRunView {
            severity: run_severity(&status).to_string(),
            ended_at: (status != "running").then(|| r.recorded_at.clone()),
            process: (status == "running")
                .then(|| {
                    let p = r.body.get("process")?;
                    let pid = p.get("pid").and_then(serde_json::Value::as_u64)?;
                    let host = text(p, "host").unwrap_or_default();
                    Some(format!("process {pid} on {host}"))
                })
                .flatten(),
            started_at: r.recorded_at,
            command: text(&r.body, "command").unwrap_or_default(),
            site: text(&r.body, "site"),
            root: text(&r.body, "root"),
            exit_code: r.body.get("exit_code").and_then(serde_json::Value::as_i64),
            resumes: text(&r.body, "resumes"),
            order: strings(&r.body, "order"),
            status,
            run,
            steps: Vec::new(),
            backups: Vec::new(),
        });
    }
    // Each shown run's steps, by the key ward-stack gives them (`RUN/SITE`): one query per site
    // of the run, so an old run never loses its steps to a global limit, and the page reads the
    // steps (and the saved plans some of them hold) of the runs it shows only.
    let mut steps: BTreeMap<String, BTreeMap<String, StepView>> = BTreeMap::new();
    for run in &runs {
        let sites: std::collections::BTreeSet<&str> = run
            .order
            .iter()
            .filter_map(|id| id.rsplit_once('/').map(|(_, site)| site))
            .collect();
        for site in sites {
            let key = format!("{}/{site}", run.run);
            for r in store.records(&RecordQuery {
                kind: "stack-step",
                key: Some(&key),
                ..Default::default()
            })? {
                if let Some(step) = step_view(&r.body, &r.recorded_at) {
                    let id = format!("{}/{}", step.root, step.site);
                    steps
                        .entry(run.run.clone())
                        .or_default()
                        .entry(id)
                        .or_insert(step);
                }
            }
        }
    }
    for r in query("stack-backup", RECORDS_PER_KIND * 4)? {
        let Some(&i) = text(&r.body, "run").and_then(|run| index.get(&run)) else {
            continue;
        };
        runs[i].backups.push(record_view(r, ""));
    }
    for run in &mut runs {
        let mut mine = steps.remove(&run.run).unwrap_or_default();
        for id in &run.order {
            let step = mine.remove(id).unwrap_or_else(|| {
                let (root, site) = id.rsplit_once('/').unwrap_or((id, ""));
                StepView {
                    root: root.to_string(),
                    site: site.to_string(),
                    layer: String::new(),
                    outcome: "not-reached".into(),
                    severity: "other".into(),
                    detail: Vec::new(),
                    binary: None,
                    changes: None,
                    pending_approvals: 0,
                    recorded_at: None,
                }
            });
            run.steps.push(step);
        }
        // Steps of instances outside the recorded order (an older journal): after it.
        run.steps.extend(mine.into_values());
        run.backups.reverse();
    }
    runs.sort_by(|a, b| {
        b.started_at
            .cmp(&a.started_at)
            .then_with(|| b.run.cmp(&a.run))
    });
    Ok(StackRuns {
        schema_version: API_VERSION,
        runs,
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
