//! `ward report --html FILE`: the dashboard's views as one static file.

use crate::error::CliError;
use std::path::PathBuf;
use ward_report::Exit;

/// Arguments of `ward report`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Write the history dashboard as one static HTML file (a CI artifact)",
    long_about = "Write the views of `ward serve` (overview by layer, open findings, approvals, \
stack runs, import acceptances, and every root's timeline) as one HTML file with its stylesheet \
inlined and no script: it opens offline, from a CI artifact. The same history gives the same bytes."
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
    let report = ward_serve::views::report(&store, &layers, a.runs as usize, &stale)
        .map_err(|e| CliError::new(e.to_string()))?;
    let html = ward_report::dashboard::render_report(&report).map_err(CliError::new)?;
    crate::output::write(&html, Some(&a.html))?;
    Ok(Exit::Pass)
}
