//! `--exec`: `fmt -check` and `init -backend=false` + `validate` on every module, standalone,
//! with the selected binary (WARD-EXEC-001, WARD-EXEC-002).
//!
//! The repository is copied to a temporary directory first (without `.git`, `.terraform` and
//! other caches), and every command runs in the copy with its own `TF_DATA_DIR`: `init` writes
//! lock files and caches, and ward never writes into the repository it checks. Each directory is
//! reported separately.
//!
//! Every command runs through ward-terraform ([`ward_terraform::offline`], over [`ward_exec`])
//! with a timeout ([`ExecOptions::timeout`], `--exec-timeout`); inherited `TF_*` variables are
//! removed except [`ward_exec::TERRAFORM_ALLOWED_TF`] and `--allow-env NAME`. The first command
//! that times out is reported, and no further command is started.

use crate::finding::Finding;
use crate::rules::shared::anchor;
use crate::rules::RuleId;
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_repo::Repo;

/// Which binary to run, and how.
#[derive(Debug, Clone)]
pub struct ExecOptions {
    /// `terraform`, `tofu`, or a path.
    pub binary: PathBuf,
    /// How long one command (`fmt`, `init`, `validate`) may run.
    pub timeout: Duration,
    /// Inherited `TF_*` variables to keep besides [`ward_exec::TERRAFORM_ALLOWED_TF`].
    pub allow_env: Vec<String>,
}

impl ExecOptions {
    /// The default timeout of one command: 300 s.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

    /// `binary` with the default timeout and allow-list.
    pub fn new(binary: impl Into<PathBuf>) -> ExecOptions {
        ExecOptions {
            binary: binary.into(),
            timeout: Self::DEFAULT_TIMEOUT,
            allow_env: Vec::new(),
        }
    }
}

/// Copies `from` to `to` without `.git`, `.terraform` and the other skipped directories;
/// symlinks are not copied.
pub(crate) fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in ward_repo::walk::Walk::new(from) {
        let entry = entry.map_err(std::io::Error::other)?;
        let dst = to.join(entry.rel());
        if entry.is_dir() {
            std::fs::create_dir_all(&dst)?;
        } else if entry.is_file() {
            if let Some(p) = dst.parent() {
                std::fs::create_dir_all(p)?;
            }
            std::fs::copy(entry.path(), &dst)?;
        }
    }
    Ok(())
}

/// Terraform's first `Error:` line (else the last line), from [`ward_exec::error_summary`].
fn first_error(text: &str) -> String {
    match ward_exec::error_summary(text, 1) {
        s if s.is_empty() => "failed without a message".to_string(),
        s => s,
    }
}

/// Runs fmt and validate over every directory of `repo`.
pub fn run(repo: &Repo, opts: &ExecOptions, out: &mut Vec<Finding>) {
    let tmp = match ward_exec::ScratchDir::new("ward-check-exec-") {
        Ok(t) => t,
        Err(e) => {
            out.push(Finding::new(
                RuleId::Exec002,
                ".",
                0,
                format!("--exec: cannot create a temporary directory: {e}"),
            ));
            return;
        }
    };
    let copy = tmp.path().join("repo");
    if let Err(e) = copy_tree(&repo.root, &copy) {
        out.push(Finding::new(
            RuleId::Exec002,
            ".",
            0,
            format!(
                "--exec: cannot copy the repository to {}: {e}",
                copy.display()
            ),
        ));
        return;
    }
    for (i, m) in repo.modules.iter().enumerate() {
        // A Terragrunt unit without .tf files has nothing for fmt or validate: its module is
        // its source.
        if !m.files.iter().any(|f| ward_repo::is_config_file(f)) {
            continue;
        }
        let prefix = if m.dir == "." {
            String::new()
        } else {
            format!("{}/", m.dir)
        };
        let t = Target {
            dir: &copy.join(&m.dir),
            prefix,
            anchor: anchor(m).file,
            label: m.dir.clone(),
            data_dir: tmp.path().join(format!("data-{i}")),
        };
        if fmt_check(opts, &t, out) == Step::Stop || init_validate(opts, &t, out) == Step::Stop {
            return;
        }
    }
}

/// Whether the `--exec` checks go on after a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Go on with the next check or directory.
    Go,
    /// A command timed out: start no further command.
    Stop,
}

/// One directory the `--exec` checks run in.
pub(crate) struct Target<'a> {
    /// Where the commands run.
    pub(crate) dir: &'a Path,
    /// What to put before a file name Terraform reports to make it repository-relative
    /// (`""` or `dir/`).
    pub(crate) prefix: String,
    /// The file a directory-level finding points at.
    pub(crate) anchor: String,
    /// The directory as reported (`Finding::dir`).
    pub(crate) label: String,
    /// Its own `TF_DATA_DIR`.
    pub(crate) data_dir: PathBuf,
}

/// How the commands run in `t` (through ward-terraform, the one place Terraform runs).
fn terraform<'a>(opts: &'a ExecOptions, t: &'a Target<'_>) -> ward_terraform::offline::Offline<'a> {
    ward_terraform::offline::Offline {
        binary: &opts.binary,
        dir: t.dir,
        data_dir: &t.data_dir,
        timeout: opts.timeout,
        allow_env: &opts.allow_env,
        timeout_hint: "raise it with --exec-timeout SECONDS",
    }
}

/// A command that timed out: reported, and nothing more is started (the next one would most
/// likely hang the same way).
fn timed_out(t: &Target<'_>, out: &mut Vec<Finding>, rule: RuleId, e: &ward_exec::ExecError) {
    out.push(
        Finding::new(
            rule,
            &t.anchor,
            0,
            format!("{e}; the remaining --exec checks were not run"),
        )
        .in_dir(&t.label),
    );
}

/// WARD-EXEC-001: `fmt -check` in one directory.
pub(crate) fn fmt_check(opts: &ExecOptions, t: &Target<'_>, out: &mut Vec<Finding>) -> Step {
    let name = opts
        .binary
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "terraform".to_string());
    match terraform(opts, t).fmt_check() {
        Err(e @ ward_exec::ExecError::TimedOut { .. }) => {
            timed_out(t, out, RuleId::Exec001, &e);
            return Step::Stop;
        }
        Err(e) => {
            out.push(Finding::new(RuleId::Exec001, &t.anchor, 0, e.to_string()));
            return Step::Stop;
        }
        Ok(o) if !o.success() => {
            let listed: Vec<String> = String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            if listed.is_empty() {
                out.push(
                    Finding::new(
                        RuleId::Exec001,
                        &t.anchor,
                        0,
                        format!("fmt -check failed: {}", first_error(&o.stderr_text())),
                    )
                    .in_dir(&t.label),
                );
            }
            for f in listed {
                out.push(
                    Finding::new(
                        RuleId::Exec001,
                        &format!("{}{f}", t.prefix),
                        0,
                        format!("fmt -check: not formatted; run `{name} fmt` in {}", t.label),
                    )
                    .in_dir(&t.label),
                );
            }
        }
        Ok(_) => {}
    }
    Step::Go
}

/// WARD-EXEC-002: `init -backend=false`, then `validate`, in one directory.
pub(crate) fn init_validate(opts: &ExecOptions, t: &Target<'_>, out: &mut Vec<Finding>) -> Step {
    match terraform(opts, t).init() {
        Err(e @ ward_exec::ExecError::TimedOut { .. }) => {
            timed_out(t, out, RuleId::Exec002, &e);
            return Step::Stop;
        }
        Ok(o) if !o.success() => {
            out.push(
                Finding::new(
                    RuleId::Exec002,
                    &t.anchor,
                    0,
                    format!(
                        "init -backend=false failed: {}",
                        first_error(&o.stderr_text())
                    ),
                )
                .in_dir(&t.label),
            );
            return Step::Go;
        }
        Err(e) => {
            out.push(Finding::new(RuleId::Exec002, &t.anchor, 0, e.to_string()));
            return Step::Go;
        }
        Ok(_) => {}
    }
    match terraform(opts, t).validate_json() {
        Err(e @ ward_exec::ExecError::TimedOut { .. }) => {
            timed_out(t, out, RuleId::Exec002, &e);
            return Step::Stop;
        }
        Ok(o) => {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
            let diags = v["diagnostics"].as_array().cloned().unwrap_or_default();
            let mut any = false;
            for d in diags.iter().filter(|d| d["severity"] == "error") {
                any = true;
                let file = d["range"]["filename"]
                    .as_str()
                    .map(|f| format!("{}{f}", t.prefix))
                    .unwrap_or_else(|| t.anchor.clone());
                let line = d["range"]["start"]["line"].as_u64().unwrap_or(0) as usize;
                let mut msg = format!("validate: {}", d["summary"].as_str().unwrap_or("error"));
                if let Some(det) = d["detail"].as_str().filter(|s| !s.is_empty()) {
                    msg.push_str(": ");
                    msg.push_str(det.lines().next().unwrap_or(""));
                }
                out.push(Finding::new(RuleId::Exec002, &file, line, msg).in_dir(&t.label));
            }
            if !any && !o.success() {
                out.push(
                    Finding::new(
                        RuleId::Exec002,
                        &t.anchor,
                        0,
                        format!("validate failed: {}", first_error(&o.stderr_text())),
                    )
                    .in_dir(&t.label),
                );
            }
        }
        Err(e) => out.push(Finding::new(RuleId::Exec002, &t.anchor, 0, e.to_string())),
    }
    Step::Go
}
