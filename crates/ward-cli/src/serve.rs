//! `ward serve`: the read-only history dashboard (`ward-serve`).

use crate::error::CliError;
use std::net::SocketAddr;
use std::path::PathBuf;
use ward_drift::ward_store::Store;
use ward_report::Exit;

/// Arguments of `ward serve`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Serve a read-only dashboard of the history: roots, timelines, findings, approvals, stack runs, imports",
    long_about = "Serve a read-only dashboard of the history on 127.0.0.1: every root's latest \
outcome and worst open finding by layer, each root's timeline as a chart, open findings, approvals \
with expiry, stack runs and backups, import acceptances; and the same as JSON under /api/v1/. \
Nothing can be written through it: every method but GET and HEAD is refused.\n\n\
Another address only with --allow-remote, and --allow-remote only with a token (WARD_SERVE_TOKEN, \
or --token-file, readable by its owner only; never on the command line), sent as `Authorization: \
Bearer TOKEN` or as the password the browser asks for. Or keep 127.0.0.1 and put your own \
authenticating reverse proxy in front. Requests must name a host the dashboard answers to \
(loopback names; IP addresses when listening beyond loopback; the names given with --host), \
against DNS rebinding. /healthz answers `ok` without the token."
)]
pub struct Args {
    /// The history database: a SQLite file or a postgres:// URL without a password (default:
    /// `history { url }` in ward.hcl, else the default drift history file).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<PathBuf>,
    /// ward.hcl to read (layers, `history`); default: the one found from the current directory.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Address and port to listen on.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8733")]
    listen: SocketAddr,
    /// Allow an address that is not loopback (a token is then required).
    #[arg(long)]
    allow_remote: bool,
    /// A file whose first line is the token (instead of WARD_SERVE_TOKEN); readable by its
    /// owner only.
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Another host name requests may give (the name behind your proxy or in your DNS);
    /// repeatable.
    #[arg(long = "host", value_name = "NAME")]
    hosts: Vec<String>,
    /// Mark a root stale when its newest run is older than this (`36h`, `2d`, `1w`; default:
    /// `history { stale_after }` in ward.hcl, else 2d).
    #[arg(long, value_name = "DURATION")]
    stale_after: Option<String>,
}

fn token(a: &Args) -> Result<Option<String>, CliError> {
    if let Some(p) = &a.token_file {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(p)
            .map_err(|e| {
                CliError::new(format!("cannot read the token file {}: {e}", p.display()))
                    .hint("write the token on the file's first line, readable by this user only")
            })?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            return Err(CliError::new(format!(
                "the token file {} can be read by others (mode {:o})",
                p.display(),
                mode & 0o777
            ))
            .hint(format!("chmod 600 {}", p.display())));
        }
        let text = std::fs::read_to_string(p).map_err(|e| {
            CliError::new(format!("cannot read the token file {}: {e}", p.display()))
                .hint("write the token on the file's first line, readable by this user only")
        })?;
        return Ok(Some(text.lines().next().unwrap_or("").trim().to_string()));
    }
    Ok(std::env::var("WARD_SERVE_TOKEN")
        .ok()
        .filter(|t| !t.is_empty()))
}

/// The staleness threshold: `--stale-after`, else `history { stale_after }`, else the default.
pub(crate) fn stale_after(flag: Option<&str>, cfg: Option<&ward_config::Config>) -> String {
    flag.map(str::to_string)
        .or_else(|| cfg.and_then(|c| c.history.stale_after.clone()))
        .unwrap_or_else(|| ward_serve::views::DEFAULT_STALE_AFTER.to_string())
}

/// Runs `ward serve` until the process is stopped.
pub fn run(a: Args) -> Result<Exit, CliError> {
    let token = token(&a)?;
    ward_serve::check_listen(a.listen, a.allow_remote, token.as_deref())
        .map_err(|e| CliError::new(e.to_string()))?;
    let (location, cfg) = crate::history::locate(a.db.as_deref(), a.config.as_deref())?;
    // Open once now, so a wrong URL or a newer schema fails here, not on the first request.
    let first = Store::open_existing(&location).map_err(|e| CliError::new(e.to_string()))?;
    drop(first);
    let listener = ward_serve::bind(a.listen).map_err(|e| CliError::new(e.to_string()))?;
    let shown = listener.local_addr().unwrap_or(a.listen);
    let banner = format!(
        "ward serve: http://{shown}/ over {location} (read-only; API at /api/v1; stop with Ctrl-C)"
    );
    let layers = ward_serve::views::Layers::from_config(cfg.as_ref());
    let app = ward_serve::App::new(
        Box::new(move || Store::open_existing(&location)),
        layers,
        token,
        ward_serve::Hosts::for_listen(shown, &a.hosts),
        ward_time::Clock::System,
    )
    .stale_after(&stale_after(a.stale_after.as_deref(), cfg.as_ref()))
    .map_err(|e| CliError::new(format!("--stale-after: {e}")))?;
    eprintln!("{banner}");
    ward_serve::serve(listener, app).map_err(|e| CliError::new(e.to_string()))?;
    Ok(Exit::Pass)
}
