//! `ward drift`: check every root for drift, every time; `ward drift history [ROOT]`.
//! The work is in `ward-drift`; see docs/drift.md.

use crate::error::CliError;
use crate::output::Dest;
use clap::ValueEnum;
use std::io::IsTerminal;
use std::path::PathBuf;
use ward_report::format::Command;
use ward_report::{Exit, Format};

/// `--notify-format` of `ward drift`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NotifyFormatArg {
    /// ward's own JSON body.
    Ward,
    /// A Slack incoming webhook's message.
    Slack,
    /// A Microsoft Teams (Workflows) webhook's Adaptive Card.
    Teams,
}

/// The text after `ward drift --help`; its exit codes are generated from [`Exit`].
fn after_help() -> String {
    let codes = Exit::help_line(
        &[Exit::Pass, Exit::Usage, Exit::DriftAlert, Exit::RootFailed],
        |e| match e {
            Exit::Usage => Some("usage or configuration error"),
            Exit::RootFailed => {
                Some("a root failed (missing-state, state-replaced, error, mismatch, zero roots)")
            }
            _ => None,
        },
    );
    format!(
        "Examples:\n  \
ward drift                          # every root under ., 4 at a time\n  \
ward drift -j 8 --shard 2/4 --format junit -o drift.xml\n  \
ward drift --notify https://hooks.example/ward\n  \
ward drift history live/network\n\n{codes} See `ward docs drift`."
    )
}

/// Arguments of `ward drift`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Check every root for drift; a missing or replaced state fails; history kept",
    args_conflicts_with_subcommands = true,
    after_help = after_help()
)]
pub struct Args {
    /// `ward drift history [ROOT]`.
    #[command(subcommand)]
    sub: Option<Sub>,
    #[command(flatten)]
    run: RunArgs,
}

/// Subcommands of `ward drift`.
#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Show the history: runs, a root's outcomes, findings first/last seen and resolved.
    History(HistoryArgs),
}

/// Arguments of `ward drift history`.
#[derive(Debug, clap::Args)]
struct HistoryArgs {
    /// A root's name: its outcomes run by run; without it, every run.
    #[arg(value_name = "ROOT")]
    root: Option<String>,
    /// The history database: a SQLite file or a postgres:// URL without a password (default:
    /// `history { url }` in ward.hcl, else $XDG_STATE_HOME/ward/drift.sqlite or
    /// ~/.local/state/ward/drift.sqlite).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<PathBuf>,
    /// How many runs to show (the newest).
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Only runs started at or after this (`YYYY-MM-DD`, or an RFC 3339 time in UTC).
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Every finding and every unfinished run ever recorded, not only those of the runs shown
    /// (a year of a large fleet's findings is a long list).
    #[arg(long)]
    all: bool,
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Command::DriftHistory), default_value = "terminal")]
    format: Format,
    /// Write the report to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Arguments of a drift run.
#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The repository to walk for roots.
    #[arg(value_name = "REPO", default_value = ".")]
    repo: PathBuf,
    /// ward.hcl to read (default: the first ward.hcl walking up from REPO to the repository
    /// root, the first directory with .git).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// A terraform binary to consider (besides `terraform` on PATH).
    #[arg(long, value_name = "PATH")]
    terraform: Option<PathBuf>,
    /// A tofu binary to consider (besides `tofu` on PATH).
    #[arg(long, value_name = "PATH")]
    tofu: Option<PathBuf>,
    /// Roots checked at once.
    #[arg(short = 'j', long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,
    /// Seconds one root may take (init, state pull, plans); then its process group is killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 900, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// Let this inherited TF_* variable (or PREFIX* pattern) reach Terraform; repeatable.
    /// TF_VAR_*, TF_TOKEN_*, TF_PLUGIN_CACHE_DIR and TF_CLI_CONFIG_FILE always do; every other
    /// TF_* variable (TF_CLI_ARGS*, TF_WORKSPACE, TF_LOG...) is removed.
    #[arg(long = "allow-env", value_name = "NAME")]
    allow_env: Vec<String>,
    /// Check only shard K of N (1-based, stable by root path), e.g. --shard 2/8.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Also run a normal plan to report code changes not yet applied (pending-change).
    #[arg(long)]
    pending: bool,
    /// The history database: a SQLite file or a postgres:// URL without a password (default:
    /// `history { url }` in ward.hcl, else $XDG_STATE_HOME/ward/drift.sqlite or
    /// ~/.local/state/ward/drift.sqlite).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<PathBuf>,
    /// POST the transitions (new, escalated, resolved) as JSON to this webhook; an alert it does
    /// not take is kept and sent first by the next run.
    #[arg(long, value_name = "URL")]
    notify: Option<String>,
    /// The webhook body's shape: ward (ward's JSON, docs/drift.md), slack (a Slack incoming
    /// webhook's message), teams (a Microsoft Teams Workflows webhook's Adaptive Card).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = NotifyFormatArg::Ward, requires = "notify")]
    notify_format: NotifyFormatArg,
    /// Trust this root's current state lineage/serial (after a deliberate state migration).
    #[arg(long, value_name = "ROOT")]
    accept_state: Vec<String>,
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Command::Drift), default_value = "terminal")]
    format: Format,
    #[command(flatten)]
    dest: Dest,
    /// Add the start time and per-root durations to the report.
    #[arg(long)]
    timestamps: bool,
    /// No progress lines on standard error (default: shown when it is a terminal).
    #[arg(long)]
    no_progress: bool,
}

/// Runs `ward drift`: finds and loads `ward.hcl`, the knowledge, the binaries, the history
/// and the stack's teardowns (the only place they are read), and hands them to
/// [`ward_drift::run`] as values.
pub fn run(args: Args) -> Result<Exit, CliError> {
    if let Some(Sub::History(h)) = args.sub {
        return history(h);
    }
    let a = args.run;
    let shard = match &a.shard {
        Some(s) => Some(ward_drift::parse_shard(s).map_err(CliError::new)?),
        None => None,
    };
    // A webhook that cannot be one is refused before anything is read or written.
    if let Some(url) = &a.notify {
        ward_drift::notify::check_url(url).map_err(CliError::new)?;
    }
    // ward.hcl: --config, else the first walking up from the repository directory.
    let config = crate::context::read_config(a.config.as_deref(), &a.repo)?;
    let knowledge = ward_config::knowledge(config.as_ref())
        .map_err(|e| CliError::new(format!("cannot load ward's knowledge: {e}")))?;
    let path = crate::context::search_path();
    let binaries =
        crate::context::binaries(a.terraform.as_ref(), a.tofu.as_ref(), path.as_deref())?;
    let location = crate::context::history_location(a.db.as_deref(), config.as_ref())
        .map_err(|e| CliError::new(e.to_string()))?;
    let torn_down = teardowns(a.db.as_deref(), config.as_ref())?;
    let mut store = ward_drift::ward_store::Store::open_location(&location)
        .map_err(|e| CliError::new(e.to_string()))?;
    // One instant for the whole run: history rows and --timestamps agree.
    let clock = ward_time::Clock::Fixed(ward_time::Clock::System.now());
    let now = clock.now_rfc3339();
    let opts = ward_drift::Options {
        repo: a.repo,
        jobs: usize::from(a.jobs),
        timeout: std::time::Duration::from_secs(a.timeout),
        shard,
        pending: a.pending,
        accept_state: a.accept_state,
        progress: (!a.no_progress && std::io::stderr().is_terminal())
            .then_some(progress as ward_drift::Progress),
        clock,
        env: Vec::new(),
        path,
        allow_env: a.allow_env,
        notify: a.notify,
        notify_format: match a.notify_format {
            NotifyFormatArg::Ward => ward_drift::notify::NotifyFormat::Ward,
            NotifyFormatArg::Slack => ward_drift::notify::NotifyFormat::Slack,
            NotifyFormatArg::Teams => ward_drift::notify::NotifyFormat::Teams,
        },
    };
    let inputs = ward_drift::Inputs {
        config: config.as_ref(),
        knowledge: &knowledge,
        binaries: &binaries,
        torn_down: &torn_down,
    };
    let mut report =
        ward_drift::run(&opts, &inputs, &mut store).map_err(|e| CliError::new(e.to_string()))?;
    if a.timestamps {
        report.started_at = Some(now);
    }
    let text =
        ward_report::drift::render_with(&report, a.format, a.timestamps, a.dest.color(a.format))?;
    a.dest.write(&text)?;
    Ok(report.exit)
}

/// A root instance checked, on standard error (given to the run only when that is a terminal and
/// `--no-progress` is not given): `[3/7] live/network @dc0 clean (1.2s)`.
fn progress(done: usize, total: usize, r: &ward_drift::RootResult) {
    eprintln!("{}", progress_line(done, total, r));
}

/// The line [`progress`] prints.
fn progress_line(done: usize, total: usize, r: &ward_drift::RootResult) -> String {
    format!(
        "[{done}/{total}] {}{} {} ({:.1}s)",
        r.path,
        r.site
            .as_deref()
            .map(|s| format!(" @{s}"))
            .unwrap_or_default(),
        r.outcome,
        r.millis as f64 / 1000.0
    )
}

/// The root instances a recorded `ward stack teardown` emptied, read from the stack's journal
/// (`ward_stack::journal`): an instance whose latest step is `destroyed` or `already-empty`.
/// The journal is where `ward stack` keeps it, by the stack's own rule
/// ([`crate::stack::history`]: `--db`, else `stack { history }`, else `history { url }`, else
/// the default file). No journal there (no such file): nothing was torn down.
fn teardowns(
    db: Option<&std::path::Path>,
    config: Option<&ward_config::Config>,
) -> Result<ward_drift::TornDown, CliError> {
    let mut out = ward_drift::TornDown::new();
    let Some(cfg) = config else { return Ok(out) };
    let at = crate::stack::history(db, cfg)?;
    if let ward_drift::ward_store::Location::Sqlite(p) = &at {
        if !p.is_file() {
            return Ok(out);
        }
    }
    let journal = ward_stack::journal::Journal::open_location(&at).map_err(CliError::new)?;
    for root in &cfg.roots {
        for site in root.stack.instances() {
            let step = journal
                .latest_step(&root.name, &site.name)
                .map_err(CliError::new)?;
            if let Some(s) = step.filter(|s| {
                matches!(
                    s.report.outcome,
                    ward_report::stack::RootOutcome::Destroyed
                        | ward_report::stack::RootOutcome::AlreadyEmpty
                )
            }) {
                out.insert((root.name.clone(), site.name), s.run);
            }
        }
    }
    Ok(out)
}

fn history(h: HistoryArgs) -> Result<Exit, CliError> {
    if let Some(since) = &h.since {
        let ok = if since.len() == 10 {
            ward_time::parse_date(since).is_ok()
        } else {
            ward_time::parse_timestamp(since).is_ok() && since.ends_with('Z')
        };
        if !ok {
            return Err(CliError::new(format!(
                "--since {since}: give a date (2026-12-01) or a UTC time (2026-12-01T06:00:00Z)"
            )));
        }
    }
    let (store, _) = crate::history::open(h.db.as_deref(), None)?;
    let query = ward_drift::history::Query {
        root: h.root.as_deref(),
        limit: h.limit,
        since: h.since.as_deref(),
        all: h.all,
    };
    let history = ward_drift::history::read_query(&store, &query)
        .map_err(|e| CliError::new(e.to_string()))?;
    let text = ward_report::drift::history(&history, h.format)?;
    crate::output::write(&text, h.output.as_deref())?;
    Ok(Exit::Pass)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use ward_drift::outcome::Outcome;

    /// The progress line, as `ward drift` has printed it since the library printed it itself:
    /// count, path, ` @site` for a site, outcome, seconds to a tenth.
    #[test]
    fn a_progress_line_names_the_count_the_root_its_site_and_outcome() {
        let mut r =
            ward_drift::RootResult::new("network/dc0", "live/network", Outcome::Drifted, vec![]);
        r.site = Some("dc0".into());
        r.millis = 1_234;
        assert_eq!(
            progress_line(3, 7, &r),
            "[3/7] live/network @dc0 drifted (1.2s)"
        );
        let mut r = ward_drift::RootResult::new("app", "live/app", Outcome::Error, vec![]);
        r.millis = 40;
        assert_eq!(progress_line(1, 1, &r), "[1/1] live/app error (0.0s)");
    }
}
