//! `ward gate --approvals-from FORGE:PROJECT#N` and `ward verify`: the review source built from
//! the arguments and the environment (the token from `GITHUB_TOKEN` or `GITLAB_TOKEN`, the API
//! base from `--forge-url`, else `GITHUB_API_URL` / `CI_API_V4_URL` as GitHub Actions and GitLab
//! CI set them, else the forge's public one), handed to `ward_gate::review`. The token is never
//! in an argument, and never printed.

use crate::error::CliError;
use std::path::Path;
use ward_config::review::Reviewers;
use ward_forge::{Client, Kind, Options, Source};
use ward_gate::review::{ReviewSource, Settle};
use ward_gate::GateReport;

/// The variable the GitHub token is read from.
pub const TOKEN_VAR: &str = "GITHUB_TOKEN";

/// The variable the GitLab token is read from.
pub const GITLAB_TOKEN_VAR: &str = "GITLAB_TOKEN";

/// The variable GitHub Actions sets to the API base.
pub const API_VAR: &str = "GITHUB_API_URL";

/// The variable GitLab CI sets to the API base.
pub const GITLAB_API_VAR: &str = "CI_API_V4_URL";

/// A review source, ready for the gate.
pub struct Prepared {
    source: ReviewSource,
    root: Option<String>,
    reviewers: Reviewers,
}

/// The client of the forge `source` names: the API base from `forge_url`, else the variable
/// its CI sets, else the forge's public one; the token from the forge's variable.
pub fn client(source: &Source, forge_url: Option<&str>) -> Result<Client, CliError> {
    let (api_var, token_var, default) = match source.kind {
        Kind::GitHub => (API_VAR, TOKEN_VAR, ward_forge::GITHUB_API),
        Kind::GitLab => (GITLAB_API_VAR, GITLAB_TOKEN_VAR, ward_forge::GITLAB_API),
    };
    let base = match forge_url {
        Some(u) => u.to_string(),
        None => std::env::var(api_var)
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| default.to_string()),
    };
    if !(base.starts_with("https://") || base.starts_with("http://")) {
        return Err(CliError::new(format!(
            "--forge-url: `{base}` is not an http(s) URL; give the API base, e.g. https://github.example/api/v3 or https://gitlab.example/api/v4"
        )));
    }
    let token = std::env::var(token_var).ok().filter(|t| !t.is_empty());
    Ok(Client::new(
        source.kind,
        Options {
            base,
            token,
            timeout: ward_forge::DEFAULT_TIMEOUT,
        },
    ))
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
    let source = parse_source(from)?;
    let client = client(&source, forge_url)?;
    Ok(Some(Prepared {
        source: ReviewSource { client, source },
        root: root_rel(config, root),
        reviewers: config
            .map(|c| c.policy.reviewers.clone())
            .unwrap_or_default(),
    }))
}

/// `--approvals-from`'s value as a source.
pub fn parse_source(from: &str) -> Result<Source, CliError> {
    from.parse()
        .map_err(|e: String| CliError::new(format!("--approvals-from: {e}")))
}

/// The review source `ward verify` re-reads for a gate record's binding: `approvals_from` when
/// given (else the record's pull request), at the API base `forge_url` (else the forge's CI
/// variable, else its public one). That base must be the one the gate read, so a record cannot
/// send the token elsewhere.
pub fn for_binding(
    binding: &ward_gate::verify_reviews::ReviewBinding,
    approvals_from: Option<&str>,
    forge_url: Option<&str>,
) -> Result<ReviewSource, String> {
    let source = approvals_from
        .unwrap_or(&binding.source)
        .parse::<Source>()
        .map_err(|e| format!("the record's pull request: {e}"))?;
    let client = client(&source, forge_url).map_err(|e| e.to_string())?;
    if client.base() != binding.forge.trim_end_matches('/') {
        return Err(format!(
            "the gate read the reviews from {}, and verify would read them from {} (no token was sent): pass --forge-url {}",
            binding.forge,
            client.base(),
            binding.forge
        ));
    }
    Ok(ReviewSource { client, source })
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
