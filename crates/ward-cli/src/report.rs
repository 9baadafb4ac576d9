//! `ward report --html FILE`: the dashboard's views as one static file.

use crate::error::CliError;
use std::path::PathBuf;
use ward_report::Exit;

/// Arguments of `ward report`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Write the history dashboard as one static HTML file (a CI artifact)",
    long_about = "Write the views of `ward serve` as one HTML file with its stylesheet inlined and \
no script: it opens offline, from a CI artifact. The same history gives the same bytes.\n\n\
It holds the counts over every root, the roots that need attention (not clean, stale, or with an \
open finding; worst first, at most --roots of them) each with its timeline, the newest runs \
(--recent-runs), every open finding, approvals, stack runs and import acceptances. The report \
says what it left out. --all-roots lists every root and its timeline (with --roots 0, the whole \
fleet: large for thousands of roots)."
)]
pub struct Args {
    /// The file to write (atomically).
    #[arg(long, value_name = "FILE")]
    html: PathBuf,
    /// The history database: a SQLite file or a postgres:// URL without a password (default:
    /// `history { url }` in ward.hcl, else the default drift history file).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<PathBuf>,
    /// ward.hcl to read (layers, `history`); default: the one found from the current directory.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// How many of each root's newest runs its timeline shows.
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10000))]
    runs: u32,
    /// List every root (and its timeline), not only the roots that need attention.
    #[arg(long)]
    all_roots: bool,
    /// At most this many roots listed, worst first, each with its timeline (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 500)]
    roots: usize,
    /// How many of the newest runs the recent-runs table lists.
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=10000))]
    recent_runs: u32,
    /// Mark a root stale when its newest run is older than this (`36h`, `2d`, `1w`; default:
    /// `history { stale_after }` in ward.hcl, else 2d).
    #[arg(long, value_name = "DURATION")]
    stale_after: Option<String>,
}

/// Runs `ward report --html`.
pub fn run(a: Args) -> Result<Exit, CliError> {
    let (store, cfg) = crate::history::open(a.db.as_deref(), a.config.as_deref())?;
    let after = crate::serve::stale_after(a.stale_after.as_deref(), cfg.as_ref());
    let stale = ward_serve::views::Staleness::new(ward_time::Clock::System.now(), &after)
        .map_err(|e| CliError::new(format!("--stale-after: {e}")))?;
    let layers = ward_serve::views::Layers::from_config(cfg.as_ref());
    let scope = ward_serve::views::ReportScope {
        all_roots: a.all_roots,
        max_roots: a.roots,
        runs: a.runs as usize,
        recent_runs: a.recent_runs as usize,
    };
    let mut report = ward_serve::views::report(&store, &layers, &stale, &scope)
        .map_err(|e| CliError::new(e.to_string()))?;
    report.notes = notes(&report.overview, &scope);
    let html = ward_report::dashboard::render_report(&report).map_err(CliError::new)?;
    crate::output::write(&html, Some(&a.html))?;
    Ok(Exit::Pass)
}

/// What the report leaves out and the flag that puts it in, one sentence each.
fn notes(
    o: &ward_report::dashboard::Overview,
    scope: &ward_serve::views::ReportScope,
) -> Vec<String> {
    let mut out = Vec::new();
    let shown = o.page.last;
    if !scope.all_roots && o.roots > o.shown {
        out.push(format!(
            "{} of {} roots are clean, fresh and without open findings: they are counted above, \
             not listed (`ward report --all-roots` lists every root).",
            o.roots - o.shown,
            o.roots
        ));
    }
    if shown < o.shown {
        out.push(format!(
            "Only the {shown} worst of {} roots are listed, each with its timeline \
             (`--roots {}` lists them all; `--roots 0` sets no limit).",
            o.shown, o.shown
        ));
    }
    out.push(format!(
        "Each timeline holds its root's newest {} runs (`--runs N`); the recent-runs table the \
         newest {} runs (`--recent-runs N`).",
        scope.runs, scope.recent_runs
    ));
    out
}
