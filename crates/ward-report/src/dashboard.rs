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

/// Everything `ward report --html` writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The overview.
    pub overview: Overview,
    /// Each root's timeline, by root name.
    pub timelines: Vec<Timeline>,
    /// The open findings.
    pub findings: Findings,
    /// Record pages that have records.
    pub records: Vec<Records>,
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
    /// `/approvals`, `/stacks`, `/imports`.
    Records(&'a Records, &'a str),
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
        for (name, text) in TEMPLATES {
            env.add_template(name, text)
                .map_err(|e| format!("dashboard template {name}: {e}"))?;
        }
        Ok(env)
    })
}

/// The navigation entries: (path, label, which page is current).
fn nav(current: &str) -> Vec<(&'static str, &'static str, bool)> {
    [
        ("/", "Overview"),
        ("/findings", "Open findings"),
        ("/approvals", "Approvals"),
        ("/stacks", "Stack runs"),
        ("/imports", "Import acceptances"),
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
                }],
            }],
            counts: BTreeMap::from([("drifted".to_string(), 1)]),
            open_findings: 1,
        }
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
            render_report(&Report {
                overview: overview(evil),
                timelines: vec![],
                findings: Findings {
                    schema_version: API_VERSION,
                    findings: vec![finding(evil)],
                },
                records: vec![],
            })
            .unwrap(),
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
        let r = Report {
            overview: overview("net"),
            timelines: vec![],
            findings: Findings {
                schema_version: API_VERSION,
                findings: vec![finding("net")],
            },
            records: vec![],
        };
        let html = render_report(&r).unwrap();
        assert!(html.contains("<style>"), "{html}");
        assert!(!html.contains("/static/"), "{html}");
        assert!(html.contains("href=\"#root-net\""), "{html}");
        assert_eq!(html, render_report(&r).unwrap());
    }
}
