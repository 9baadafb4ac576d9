//! `ward gate --approvals-from FORGE:PROJECT#N`: the review source built from the arguments and
//! the environment (the token from `GITHUB_TOKEN`, the API base from `--forge-url`, else
//! `GITHUB_API_URL` as GitHub Actions sets it, else github.com's), handed to
//! `ward_gate::review`. The token is never in an argument, and never printed.

use crate::error::CliError;
use std::path::Path;
use ward_config::review::Reviewers;
use ward_forge::{Client, Kind, Options, Source};
use ward_gate::review::{ReviewSource, Settle};
use ward_gate::GateReport;

/// The variable the token is read from.
pub const TOKEN_VAR: &str = "GITHUB_TOKEN";

/// The variable GitHub Actions sets to the API base.
pub const API_VAR: &str = "GITHUB_API_URL";

/// A review source, ready for the gate.
pub struct Prepared {
    source: ReviewSource,
    root: Option<String>,
    reviewers: Reviewers,
}

/// The review source `approvals_from` names (`None`: approvals come from the approvals file).
/// `config` is `ward.hcl` as read, `root` the `--root` given (default: the current directory).
pub fn prepare(
    approvals_from: Option<&str>,
    forge_url: Option<&str>,
    config: Option<&ward_config::Config>,
    root: Option<&Path>,
) -> Result<Option<Prepared>, CliError> {
    let Some(from) = approvals_from else {
        return Ok(None);
    };
    let source: Source = from
        .parse()
        .map_err(|e: String| CliError::new(format!("--approvals-from: {e}")))?;
    let base = match forge_url {
        Some(u) => u.to_string(),
        None => std::env::var(API_VAR)
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| ward_forge::GITHUB_API.to_string()),
    };
    if !(base.starts_with("https://") || base.starts_with("http://")) {
        return Err(CliError::new(format!(
            "--forge-url: `{base}` is not an http(s) URL; give the API base, e.g. https://github.example/api/v3"
        )));
    }
    let token = std::env::var(TOKEN_VAR).ok().filter(|t| !t.is_empty());
    let client = Client::new(
        Kind::GitHub,
        Options {
            base,
            token,
            timeout: ward_forge::DEFAULT_TIMEOUT,
        },
    );
    Ok(Some(Prepared {
        source: ReviewSource { client, source },
        root: root_rel(config, root),
        reviewers: config
            .map(|c| c.policy.reviewers.clone())
            .unwrap_or_default(),
    }))
}

impl Prepared {
    /// The gate's hook.
    pub fn settle(&self) -> Settle<'_> {
        Settle::new(&self.source, self.root.clone())
    }

    /// The hidden digest list to end ward's pull-request comment with (empty when the forge
    /// was not read, or could not be).
    pub fn marker(&self, settle: &Settle<'_>, report: &GateReport) -> String {
        match settle.reviews() {
            Some(Ok(r)) => ward_gate::review::marker(r, &self.reviewers, report),
            _ => String::new(),
        }
    }
}

/// The gated root's path relative to the directory of `ward.hcl`, `/`-separated (`None` when
/// there is no `ward.hcl` or the root is outside its directory).
fn root_rel(config: Option<&ward_config::Config>, root: Option<&Path>) -> Option<String> {
    let c = config?;
    let dir = match root {
        Some(r) => r.to_path_buf(),
        None => std::env::current_dir().ok()?,
    };
    let canon = std::fs::canonicalize(&dir).ok()?;
    let base = std::fs::canonicalize(if c.dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        c.dir.as_path()
    })
    .ok()?;
    let rel = canon.strip_prefix(&base).ok()?;
    Some(ward_config::normalize_rel(&rel.to_string_lossy()))
}
