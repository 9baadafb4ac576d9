//! The history dashboard: the views `ward serve` shows and `ward report --html` writes as one
//! file, and the JSON its API returns (`/api/v1/...`, schema in `docs/dashboard.schema.json`).
//!
//! The view types are plain data, filled by `ward-serve` from the history store; this module
//! only renders them. Pages are rendered by templates (`templates/dashboard/*.html`, built into
//! the binary) with HTML auto-escaping on: every root name, address, detail and record value is
//! escaped, and no template marks a value safe except the stylesheet ward ships. The pages
//! carry no script at all; the timeline's chart is SVG drawn on the server.

use minijinja::{context, Environment};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The version of the JSON the API returns (in every document as `schema_version`). Keys are
/// only added within a version.
pub const API_VERSION: u32 = 1;

/// The stylesheet, served at `/static/ward.css` and inlined into `ward report --html`.
pub const CSS: &str = include_str!("../templates/dashboard/ward.css");

/// The icon, served at `/static/favicon.svg` (and `/favicon.ico`, so browsers find one).
pub const FAVICON: &str = include_str!("../templates/dashboard/favicon.svg");

const TEMPLATES: &[(&str, &str)] = &[
    (
        "base.html",
        include_str!("../templates/dashboard/base.html"),
    ),
    (
        "macros.html",
        include_str!("../templates/dashboard/macros.html"),
    ),
    (
        "overview.html",
        include_str!("../templates/dashboard/overview.html"),
    ),
    (
        "timeline.html",
        include_str!("../templates/dashboard/timeline.html"),
    ),
    (
        "findings.html",
        include_str!("../templates/dashboard/findings.html"),
    ),
    (
        "records.html",
        include_str!("../templates/dashboard/records.html"),
    ),
    (
        "report.html",
        include_str!("../templates/dashboard/report.html"),
    ),
    (
        "error.html",
        include_str!("../templates/dashboard/error.html"),
    ),
    (
        "stacks.html",
        include_str!("../templates/dashboard/stacks.html"),
    ),
    (
        "approvals.html",
        include_str!("../templates/dashboard/approvals.html"),
    ),
];

/// Every root's latest outcome and worst open finding, grouped by layer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Overview {
    /// [`API_VERSION`].
    pub schema_version: u32,
    /// Groups, lowest layer first; roots without a layer last.
    pub layers: Vec<LayerGroup>,
    /// How many roots ended their latest run in each outcome.
    pub counts: BTreeMap<String, usize>,
    /// How many findings are open, over every root.
    pub open_findings: usize,
    /// How many roots the history has (before any filter).
    pub roots: usize,
    /// How many of them are shown (after the filter).
    pub shown: usize,
    /// How many roots are stale: their newest run is older than `stale_after`.
    pub stale: usize,
    /// The staleness threshold, as given (`2d`).
    pub stale_after: String,
    /// The time staleness was judged at (UTC).
    pub now: String,
    /// The roots by severity, worst first, each with its outcomes (over every root).
    pub statuses: Vec<StatusCount>,
    /// The filter the roots were chosen by.
    pub filter: FilterView,
    /// Which page of the roots the filter kept this is (worst first): the counts above are
    /// over every root, the groups hold this page's roots only.
    pub page: PageView,
}

/// One page of a list shown a page at a time (`?page=N&per_page=M`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PageView {
    /// This page's number, from 1.
    pub number: usize,
    /// How many pages the list makes (1 for an empty list).
    pub pages: usize,
    /// At most this many entries a page.
    pub per_page: usize,
    /// The position of the page's first entry in the whole list, from 1 (0: none shown).
    pub first: usize,
    /// The position of its last entry.
    pub last: usize,
    /// How many entries the whole list has.
    pub total: usize,
}

/// How many roots are in one severity, and in which outcomes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusCount {
    /// `failed`, `other`, `drift` or `ok`.
    pub status: String,
    /// Its label (`failed`, `other`, `drifted`, `clean`).
    pub label: String,
    /// How many roots.
    pub count: usize,
    /// By outcome, by name.
    pub outcomes: Vec<OutcomeCount>,
}

/// How many roots ended their latest run in one outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutcomeCount {
    /// The outcome.
    pub outcome: String,
    /// How many roots.
    pub count: usize,
}

/// The overview's filter, as applied (query parameters `status`, `stale`, `name`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FilterView {
    /// A severity or an outcome.
    pub status: Option<String>,
    /// Only stale roots.
    pub stale: bool,
    /// A substring of the root's name.
    pub name: Option<String>,
    /// Only the roots that need attention: not clean, stale, or with an open finding.
    pub attention: bool,
    /// Whether any condition is set.
    pub active: bool,
}

/// The roots of one layer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerGroup {
    /// The layer's name (`layer "NAME"` in `ward.hcl`); `None` for roots with no layer.
    pub layer: Option<String>,
    /// Its level (0 is the bottom).
    pub level: Option<i64>,
    /// Its roots, by name.
    pub roots: Vec<RootSummary>,
}

/// One root on the overview.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RootSummary {
    /// The root's name.
    pub root: String,
    /// The newest run that checked it.
    pub run: i64,
    /// When that run started (UTC).
    pub started_at: String,
    /// Its outcome there (`clean`, `drifted`, `error`...).
    pub outcome: String,
    /// How bad the outcome is: `ok`, `drift`, `other` or `failed` (the chart's bands).
    pub severity: String,
    /// The outcome's one-line detail.
    pub detail: String,
    /// How many of its findings are open.
    pub open_findings: usize,
    /// Its worst open finding, when any is open.
    pub worst: Option<FindingView>,
    /// Whether its newest run is older than the staleness threshold.
    pub stale: bool,
    /// How old that run is (`3d 4h`), when stale.
    pub age: Option<String>,
}

/// A finding as the dashboard shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindingView {
    /// The root.
    pub root: String,
    /// Resource instance address.
    pub address: String,
    /// Attribute path, or `(deleted)`.
    pub attribute: String,
    /// Worst impact in this episode.
    pub impact: String,
    /// The run that first saw it.
    pub first_run: i64,
    /// When (UTC).
    pub first_seen: String,
    /// The last run that saw it.
    pub last_run: i64,
    /// When (UTC).
    pub last_seen: String,
    /// The run that found it gone, and when; `None` while open.
    pub resolved_run: Option<i64>,
    /// When it was resolved (UTC).
    pub resolved_at: Option<String>,
}

/// One root's runs over time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timeline {
    /// [`API_VERSION`].
    pub schema_version: u32,
    /// The root.
    pub root: String,
    /// Its outcomes, oldest first (at most the requested number of the newest runs).
    pub runs: Vec<TimelineRun>,
    /// Its findings, open and resolved.
    pub findings: Vec<FindingView>,
    /// The chart: one point per run.
    pub chart: Chart,
}

/// One run of a root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimelineRun {
    /// The run's id.
    pub run: i64,
    /// When it started (UTC).
    pub started_at: String,
    /// The outcome.
    pub outcome: String,
    /// `ok`, `drift`, `other` or `failed`.
    pub severity: String,
    /// Its detail.
    pub detail: String,
    /// The binary used.
    pub binary: Option<String>,
    /// The state's lineage, when read.
    pub lineage: Option<String>,
    /// The state's serial, when read.
    pub serial: Option<i64>,
}

/// A server-drawn SVG chart: runs left to right, outcomes in bands (failed at the top).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chart {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The bands, top to bottom.
    pub bands: Vec<Band>,
    /// One point per run, oldest first.
    pub points: Vec<Point>,
    /// The `points` attribute of the line through them.
    pub line: String,
}

/// A horizontal band of the chart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    /// Its severity (`failed`, `other`, `drift`, `ok`).
    pub severity: String,
    /// Its label.
    pub label: String,
    /// Its centre line.
    pub y: u32,
}

/// One run on the chart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// x (pixels).
    pub x: u32,
    /// y (pixels).
    pub y: u32,
    /// The run.
    pub run: i64,
    /// When it started.
    pub started_at: String,
    /// The outcome.
    pub outcome: String,
    /// Its severity.
    pub severity: String,
}

/// Every open finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Findings {
    /// [`API_VERSION`].
    pub schema_version: u32,
    /// Open findings, worst impact first, then by root, address, attribute.
    pub findings: Vec<FindingView>,
}

/// Records of some kinds (approvals, stack runs and backups, import acceptances).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Records {
    /// [`API_VERSION`].
    pub schema_version: u32,
    /// The page's title (`Approvals`, `Stack runs`, `Import acceptances`).
    pub title: String,
    /// The kinds shown.
    pub kinds: Vec<String>,
    /// Newest first.
    pub records: Vec<RecordView>,
}

/// One record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordView {
    /// Its id.
    pub id: i64,
    /// Its kind.
    pub kind: String,
    /// The root it is about.
    pub root: String,
    /// Its key.
    pub key: String,
    /// When it was recorded (UTC).
    pub recorded_at: String,
    /// `expires` (or `expires_at`) from the body, when it has one.
    pub expires: Option<String>,
    /// Whether that expiry is in the past.
    pub expired: bool,
    /// The body's top-level fields, as compact JSON, in key order.
    pub fields: Vec<(String, String)>,
    /// The body as recorded.
    pub body: serde_json::Value,
}

/// The stack runs page: one entry per `ward stack` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StackRuns {
    /// [`API_VERSION`].
    pub schema_version: u32,
    /// Newest first.
    pub runs: Vec<StackRunView>,
}

/// One `ward stack` run, from its journal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StackRunView {
    /// Its id.
    pub run: String,
    /// `apply` or `teardown`.
    pub command: String,
    /// `--site`, when given.
    pub site: Option<String>,
    /// `--root`, when given.
    pub root: Option<String>,
    /// `running`, or the exit's name.
    pub status: String,
    /// `ok` (pass), `other` (running) or `failed`.
    pub severity: String,
    /// The exit code, when ended.
    pub exit_code: Option<i64>,
    /// The run it resumed.
    pub resumes: Option<String>,
    /// When it started (UTC).
    pub started_at: String,
    /// When it recorded its end, if it did.
    pub ended_at: Option<String>,
    /// While `running`: the process the journal names (`process 4711 on ci-7`); when that process
    /// is gone the run was interrupted (`ward stack status` checks it on that machine).
    pub process: Option<String>,
    /// Its root instances in visiting order (`root/site`).
    pub order: Vec<String>,
    /// What happened to each, in that order.
    pub steps: Vec<StepView>,
    /// The verified backups it took.
    pub backups: Vec<RecordView>,
}

/// One root instance of a stack run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// The root.
    pub root: String,
    /// The site.
    pub site: String,
    /// Its layer.
    pub layer: String,
    /// What happened (`applied`, `destroyed`, `approval-required`, `not-reached`...).
    pub outcome: String,
    /// `ok`, `other` or `failed`.
    pub severity: String,
    /// Why, and what to do.
    pub detail: Vec<String>,
    /// The binary that ran it.
    pub binary: Option<String>,
    /// Its plan's changes (`+1 create -2 delete`), when it had any.
    pub changes: Option<String>,
    /// How many changes wait for an approval.
    pub pending_approvals: usize,
    /// When its step was recorded (`None`: not reached).
    pub recorded_at: Option<String>,
}

/// The approvals page: the gate's audit trail (approvals given, gate decisions), newest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Approvals {
    /// [`API_VERSION`].
    pub schema_version: u32,
    /// The root asked for (`?root=`), when one was.
    pub root: Option<String>,
    /// The time expiry was judged at (UTC).
    pub now: String,
    /// Approvals as given (`ward approve`, `ward stack approve`).
    pub approvals: Vec<ApprovalView>,
    /// Gate decisions (`ward gate` with a history, each gate of `ward stack`).
    pub gates: Vec<GateView>,
}

/// One approval as the history keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApprovalView {
    /// Its row id.
    pub id: i64,
    /// `gate` (`ward approve`) or `stack` (`ward stack approve`).
    pub source: String,
    /// The root (empty when the gate knew none).
    pub root: String,
    /// The stack site.
    pub site: Option<String>,
    /// Resource instance address.
    pub address: String,
    /// Deposed object key.
    pub deposed: Option<String>,
    /// Terraform's action.
    pub action: String,
    /// Impact class.
    pub impact: String,
    /// The digest the approval is bound to (`sha256:...`).
    pub digest: String,
    /// Who approved.
    pub by: String,
    /// Why.
    pub reason: String,
    /// When (UTC).
    pub approved_at: String,
    /// When it expires (UTC); `None`: never.
    pub expires_at: Option<String>,
    /// Whether it has expired.
    pub expired: bool,
    /// Whether it was signed.
    pub signed: bool,
    /// The plan file it was given on.
    pub plan: String,
    /// The stack run.
    pub run: Option<String>,
}

/// One gate decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateView {
    /// Its row id.
    pub id: i64,
    /// `gate` or `stack`.
    pub source: String,
    /// The root.
    pub root: String,
    /// The stack site.
    pub site: Option<String>,
    /// The plan file.
    pub plan: String,
    /// `pass`, `approval-required`, `budget-exceeded`...
    pub outcome: String,
    /// `ok` (pass) or `failed`.
    pub severity: String,
    /// Its exit code.
    pub exit_code: i64,
    /// When (UTC).
    pub decided_at: String,
    /// Why it blocked, one line each.
    pub reasons: Vec<String>,
    /// The changes that needed an approval, and whether each had one.
    pub changes: Vec<GateChangeView>,
    /// The stack run.
    pub run: Option<String>,
}

/// A change a gate decision looked at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateChangeView {
    /// Resource instance address.
    pub address: String,
    /// Deposed object key.
    pub deposed: Option<String>,
    /// Terraform's action.
    pub action: String,
    /// Impact class.
    pub impact: String,
    /// Its digest.
    pub digest: String,
    /// `approved`, `missing`, `stale`, `expired`, `refused`.
    pub status: String,
    /// The approver, when an approval names one.
    pub by: Option<String>,
    /// The approval's expiry.
    pub expires_at: Option<String>,
    /// The pull-request review that approved it, when one did.
    pub review: Option<GateReviewView>,
}

/// The pull-request review(s) that approved a gated change: the pull request and the commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateReviewView {
    /// `github:OWNER/REPO#N`, `gitlab:GROUP/PROJECT!IID`.
    pub source: String,
    /// The commit the reviews approved.
    pub commit: String,
    /// When the latest review that counted was given.
    pub approved_at: String,
}

/// Everything `ward report --html` writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The overview.
    pub overview: Overview,
    /// The newest runs, newest first, with how many roots ended in each outcome.
    pub recent: Vec<RunView>,
    /// What the report leaves out and how to get it, one sentence each.
    pub notes: Vec<String>,
    /// The timelines shown: the overview's roots', in its order.
    pub timelines: Vec<Timeline>,
    /// The open findings.
    pub findings: Findings,
    /// Record pages that have records.
    pub records: Vec<Records>,
    /// The stack runs.
    pub stacks: StackRuns,
    /// Approvals and gate decisions.
    pub approvals: Approvals,
}

/// One run of `ward drift` (one shard) as the report lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunView {
    /// The run's id.
    pub run: i64,
    /// When it started (UTC).
    pub started_at: String,
    /// When it finished (UTC), if it did.
    pub finished_at: Option<String>,
    /// Its shard (`K/N`), if it ran one.
    pub shard: Option<String>,
    /// Its exit code, if it finished.
    pub exit_code: Option<i64>,
    /// How bad its worst outcome is (`ok`, `drift`, `other`, `failed`).
    pub severity: String,
    /// How many roots ended in each outcome, by outcome name.
    pub outcomes: Vec<OutcomeCount>,
}

/// A page of the dashboard.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Page<'a> {
    /// `/`.
    Overview(&'a Overview),
    /// `/root?name=...`.
    Timeline(&'a Timeline),
    /// `/findings`.
    Findings(&'a Findings),
    /// `/imports`.
    Records(&'a Records, &'a str),
    /// `/approvals`.
    Approvals(&'a Approvals),
    /// `/stacks`.
    StackRuns(&'a StackRuns),
    /// An error page: status line and message.
    Error(u16, &'a str),
}

fn env() -> &'static Result<Environment<'static>, String> {
    static ENV: OnceLock<Result<Environment<'static>, String>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        // `.html` templates escape every value for HTML (minijinja's default callback), after
        // control and bidi characters (U+202E reverses what follows it) are made visible
        // escapes, as the terminal shows them: HTML escaping alone leaves them live.
        env.set_formatter(|out, state, value| {
            if value.is_safe() {
                return minijinja::escape_formatter(out, state, value);
            }
            match value.as_str() {
                Some(s) if s.chars().any(crate::escape::is_unsafe) => {
                    let shown = crate::escape::terminal(s);
                    minijinja::escape_formatter(out, state, &minijinja::Value::from(shown.as_ref()))
                }
                _ => minijinja::escape_formatter(out, state, value),
            }
        });
        env.add_filter("cut", cut);
        env.add_filter("digest", digest);
        for (name, text) in TEMPLATES {
            env.add_template(name, text)
                .map_err(|e| format!("dashboard template {name}: {e}"))?;
        }
        Ok(env)
    })
}

/// A value shown on a page: at most [`CUT`] characters, then `…` (the API keeps it whole).
pub const CUT: usize = 300;

fn cut(value: String) -> String {
    if value.chars().count() > CUT {
        let mut s: String = value.chars().take(CUT).collect();
        s.push('…');
        s
    } else {
        value
    }
}

/// A digest shown short: `sha256:` and the first 12 hex digits, then `…` (the page keeps the
/// whole in a `title`, the API keeps it whole); any other value as [`cut`] shows it.
fn digest(value: String) -> String {
    let hex = value.strip_prefix("sha256:").unwrap_or(&value);
    if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        let prefix = if hex.len() == value.len() {
            ""
        } else {
            "sha256:"
        };
        format!("{prefix}{}…", &hex[..12])
    } else {
        cut(value)
    }
}

/// The navigation entries: (path, label, which page is current).
fn nav(current: &str) -> Vec<(&'static str, &'static str, bool)> {
    [
        ("/", "Overview"),
        ("/findings", "Open findings"),
        ("/approvals", "Approvals"),
        ("/stacks", "Stack runs"),
        ("/imports", "Imports"),
    ]
    .into_iter()
    .map(|(p, l)| (p, l, p == current))
    .collect()
}

/// Renders one page for `ward serve`. An error here is a template defect; the message says
/// which.
pub fn render_page(page: Page<'_>) -> Result<String, String> {
    let env = env().as_ref().map_err(Clone::clone)?;
    let (name, ctx) = match page {
        Page::Overview(o) => (
            "overview.html",
            context! { standalone => false, nav => nav("/"), overview => o },
        ),
        Page::Timeline(t) => (
            "timeline.html",
            context! { standalone => false, nav => nav(""), timeline => t },
        ),
        Page::Findings(f) => (
            "findings.html",
            context! { standalone => false, nav => nav("/findings"), findings => f },
        ),
        Page::Records(r, path) => (
            "records.html",
            context! { standalone => false, nav => nav(path), records => r },
        ),
        Page::Approvals(a) => (
            "approvals.html",
            context! { standalone => false, nav => nav("/approvals"), approvals => a },
        ),
        Page::StackRuns(r) => (
            "stacks.html",
            context! { standalone => false, nav => nav("/stacks"), stacks => r },
        ),
        Page::Error(status, message) => (
            "error.html",
            context! { standalone => false, nav => nav(""), status => status, message => message },
        ),
    };
    env.get_template(name)
        .and_then(|t| t.render(ctx))
        .map_err(|e| format!("dashboard template {name}: {e:#}"))
}

/// Renders `ward report --html`: every view in one file, the stylesheet inlined, links as
/// anchors within the file. Deterministic: the same history gives the same bytes.
pub fn render_report(report: &Report) -> Result<String, String> {
    let env = env().as_ref().map_err(Clone::clone)?;
    env.get_template("report.html")
        .and_then(|t| t.render(context! { standalone => true, css => CSS, report => report }))
        .map_err(|e| format!("dashboard template report.html: {e:#}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn finding(root: &str) -> FindingView {
        FindingView {
            root: root.into(),
            address: "fakecloud_volume.data[\"<b>\"]".into(),
            attribute: "size".into(),
            impact: "data-loss".into(),
            first_run: 1,
            first_seen: "2026-12-01T00:00:00Z".into(),
            last_run: 2,
            last_seen: "2026-12-01T01:00:00Z".into(),
            resolved_run: None,
            resolved_at: None,
        }
    }

    fn overview(root: &str) -> Overview {
        Overview {
            schema_version: API_VERSION,
            layers: vec![LayerGroup {
                layer: Some("base & <core>".into()),
                level: Some(0),
                roots: vec![RootSummary {
                    root: root.into(),
                    run: 2,
                    started_at: "2026-12-01T01:00:00Z".into(),
                    outcome: "drifted".into(),
                    severity: "drift".into(),
                    detail: "update \"x\" & <y>".into(),
                    open_findings: 1,
                    worst: Some(finding(root)),
                    stale: true,
                    age: Some("3d 1h".into()),
                }],
            }],
            counts: BTreeMap::from([("drifted".to_string(), 1)]),
            open_findings: 1,
            roots: 1,
            shown: 1,
            stale: 1,
            stale_after: "2d".into(),
            now: "2026-12-04T02:00:00Z".into(),
            statuses: vec![StatusCount {
                status: "drift".into(),
                label: "drifted".into(),
                count: 1,
                outcomes: vec![OutcomeCount {
                    outcome: "drifted".into(),
                    count: 1,
                }],
            }],
            filter: FilterView {
                name: Some(root.into()),
                active: true,
                ..FilterView::default()
            },
            page: PageView {
                number: 1,
                pages: 1,
                per_page: 100,
                first: 1,
                last: 1,
                total: 1,
            },
        }
    }

    fn approvals(evil: &str) -> Approvals {
        Approvals {
            schema_version: API_VERSION,
            root: None,
            now: "2026-12-04T02:00:00Z".into(),
            approvals: vec![ApprovalView {
                id: 1,
                source: "stack".into(),
                root: evil.into(),
                site: Some(evil.into()),
                address: evil.into(),
                deposed: None,
                action: "delete".into(),
                impact: "data-loss".into(),
                digest: format!("sha256:{}", "ab".repeat(32)),
                by: evil.into(),
                reason: evil.into(),
                approved_at: "2026-12-01T00:00:00Z".into(),
                expires_at: Some("2026-12-02T00:00:00Z".into()),
                expired: true,
                signed: false,
                plan: evil.into(),
                run: Some(evil.into()),
            }],
            gates: vec![GateView {
                id: 1,
                source: "gate".into(),
                root: evil.into(),
                site: None,
                plan: evil.into(),
                outcome: "approval-required".into(),
                severity: "failed".into(),
                exit_code: 4,
                decided_at: "2026-12-01T00:00:00Z".into(),
                reasons: vec![evil.into()],
                changes: vec![GateChangeView {
                    address: evil.into(),
                    deposed: None,
                    action: "delete".into(),
                    impact: "data-loss".into(),
                    digest: evil.into(),
                    status: "missing".into(),
                    by: Some(evil.into()),
                    expires_at: None,
                    review: Some(GateReviewView {
                        source: evil.into(),
                        commit: evil.into(),
                        approved_at: evil.into(),
                    }),
                }],
                run: None,
            }],
        }
    }

    fn stacks(evil: &str) -> StackRuns {
        StackRuns {
            schema_version: API_VERSION,
            runs: vec![StackRunView {
                run: evil.into(),
                command: "teardown".into(),
                site: Some(evil.into()),
                root: None,
                status: "interrupted".into(),
                severity: "failed".into(),
                exit_code: Some(130),
                resumes: None,
                started_at: "2026-12-01T00:00:00Z".into(),
                ended_at: None,
                process: Some(format!("process 1 on {evil}")),
                order: vec![format!("{evil}/dc0")],
                steps: vec![StepView {
                    root: evil.into(),
                    site: "dc0".into(),
                    layer: evil.into(),
                    outcome: "in-progress".into(),
                    severity: "other".into(),
                    detail: vec![evil.into()],
                    binary: None,
                    changes: None,
                    pending_approvals: 0,
                    recorded_at: None,
                }],
                backups: vec![RecordView {
                    id: 1,
                    kind: "stack-backup".into(),
                    root: evil.into(),
                    key: evil.into(),
                    recorded_at: "2026-12-01T00:00:00Z".into(),
                    expires: None,
                    expired: false,
                    fields: vec![],
                    body: serde_json::json!({"path": evil, "nested": {"k": evil}, "list": [evil]}),
                }],
            }],
        }
    }

    fn report(root: &str) -> Report {
        Report {
            overview: overview(root),
            recent: vec![RunView {
                run: 2,
                started_at: "2026-12-01T01:00:00Z".into(),
                finished_at: None,
                shard: Some(root.into()),
                exit_code: None,
                severity: "drift".into(),
                outcomes: vec![OutcomeCount {
                    outcome: root.into(),
                    count: 1,
                }],
            }],
            notes: vec![root.into()],
            timelines: vec![],
            findings: Findings {
                schema_version: API_VERSION,
                findings: vec![finding(root)],
            },
            records: vec![],
            stacks: stacks(root),
            approvals: approvals(root),
        }
    }

    #[test]
    fn approvals_and_stack_runs_escape_every_value() {
        let evil = "<img src=x onerror=alert(1)>";
        for html in [
            render_page(Page::Approvals(&approvals(evil))).unwrap(),
            render_page(Page::StackRuns(&stacks(evil))).unwrap(),
            render_report(&report(evil)).unwrap(),
        ] {
            assert!(!html.contains("<img"), "{html}");
            assert!(
                html.contains("&lt;img src=x onerror=alert(1)&gt;"),
                "{html}"
            );
        }
        let html = render_page(Page::Approvals(&approvals(evil))).unwrap();
        // The digest is shown short, whole in its title.
        assert!(html.contains(">sha256:abababababab…</code>"), "{html}");
        assert!(
            html.contains(&format!("title=\"sha256:{}\"", "ab".repeat(32))),
            "{html}"
        );
        assert!(html.contains("(expired)"), "{html}");
    }

    #[test]
    fn digests_are_cut_and_other_values_kept() {
        let hex = "0123456789abcdef".repeat(4);
        assert_eq!(digest(format!("sha256:{hex}")), "sha256:0123456789ab…");
        assert_eq!(digest(hex.clone()), "0123456789ab…");
        assert_eq!(digest("sha256:short".into()), "sha256:short");
        assert_eq!(
            digest(format!("{hex}0")),
            format!("{hex}0"),
            "65 digits is no digest"
        );
        assert_eq!(cut("x".repeat(CUT + 1)).chars().count(), CUT + 1);
        assert!(cut("x".repeat(CUT + 1)).ends_with('…'));
    }

    #[test]
    fn the_report_has_no_filter_form_and_no_links_to_the_server() {
        let html = render_report(&report("net")).unwrap();
        assert!(!html.contains("<form"), "{html}");
        assert!(!html.contains("href=\"/?"), "{html}");
        assert!(html.contains("id=\"approvals\"") && html.contains("id=\"stacks\""));
        let page = render_page(Page::Overview(&overview("net"))).unwrap();
        assert!(page.contains("<form class=\"filter\" method=\"get\" action=\"/\">"));
        assert!(page.contains("href=\"&#x2f;?status=drift\""), "{page}");
        assert!(page.contains("stale · 3d 1h"), "{page}");
    }

    #[test]
    fn every_name_and_value_is_escaped() {
        let evil = "<script>alert(1)</script>";
        let html = render_page(Page::Overview(&overview(evil))).unwrap();
        assert!(!html.contains(evil), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt;"),
            "{html}"
        );
        assert!(html.contains("base &amp; &lt;core&gt;"), "{html}");
        assert!(
            html.contains("update &quot;x&quot; &amp; &lt;y&gt;"),
            "{html}"
        );
        assert!(!html.contains("<b>"), "{html}");
        // The link to the root's timeline encodes the name (a `/` stays, HTML-escaped).
        assert!(
            html.contains("/root?name=%3Cscript%3Ealert%281%29%3C&#x2f;script%3E"),
            "{html}"
        );
        // No script anywhere, not even ward's own.
        assert!(!html.to_lowercase().contains("<script"), "{html}");
    }

    #[test]
    fn control_and_bidi_characters_are_shown_as_escapes() {
        let evil = "live/\u{202e}kcatta\u{2066}\u{1b}[31mred";
        for html in [
            render_page(Page::Overview(&overview(evil))).unwrap(),
            render_report(&report(evil)).unwrap(),
        ] {
            for c in ['\u{202e}', '\u{2066}', '\u{1b}'] {
                assert!(!html.contains(c), "{c:?} raw in the page");
            }
            assert!(
                html.contains(r"live&#x2f;\u{202e}kcatta\u{2066}\u{1b}[31mred"),
                "{html}"
            );
        }
    }

    #[test]
    fn the_report_is_one_file_with_the_stylesheet_inlined() {
        let r = report("net");
        let html = render_report(&r).unwrap();
        assert!(html.contains("<style>"), "{html}");
        assert!(!html.contains("/static/"), "{html}");
        assert!(html.contains("href=\"#root-net\""), "{html}");
        assert_eq!(html, render_report(&r).unwrap());
    }
}
