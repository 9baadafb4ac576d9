//! `ward check`: the repository gates. This module is the command: its flags, `ward.hcl`
//! discovery and loading, ward's knowledge, the repository's discovery and `--changed`'s paths
//! (the working directory) are read here, and values go to `ward_check::check`, which parses no
//! flags and writes nothing; the report is rendered by `ward_report::check` and written through
//! [`crate::output`], like every other command.
//!
//! Exit codes (shared by ward): 0 pass, 1 findings at or above the failing severity, 2 usage or
//! input error.

use crate::error::CliError;
use crate::output::ColorChoice;
use clap::ValueEnum;
use std::io::Write;
use std::path::PathBuf;
use ward_check::catalog::Severity;
use ward_check::exec::ExecOptions;
use ward_check::knowledge::RulesKnowledge;
use ward_check::output::Output;
use ward_check::resolve::Resolver;
use ward_check::ward_repo;
use ward_check::{check, CheckOptions};
use ward_report::format::Command;
use ward_report::{Exit, Format};

/// `ward check`'s arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The checks' arguments.
    #[command(flatten)]
    pub check: CheckArgs,
    /// Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Runs `ward check`.
pub fn run(args: &Args) -> Result<Exit, CliError> {
    let a = &args.check;
    let out = match execute(a, &mut std::io::stderr()) {
        Ok(out) => out,
        Err(exit) => return Ok(exit),
    };
    let color = a.format == Format::Terminal && args.color.enabled(a.output.is_some());
    let text = ward_report::check::render_with(&out, a.format, a.verbose, color)?;
    crate::output::write(&text, a.output.as_deref())?;
    Ok(out.exit())
}

/// A severity on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    /// Fail on errors only (default).
    Error,
    /// Fail on warnings and errors.
    Warning,
    /// Fail on any finding.
    Info,
}

impl From<SeverityArg> for Severity {
    fn from(s: SeverityArg) -> Severity {
        match s {
            SeverityArg::Error => Severity::Error,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Info => Severity::Info,
        }
    }
}

/// `ward check`: run the repository gates over a repository tree.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// The repository's top directory.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// The ward configuration (default: the first ward.hcl walking up from DIR to the repository
    /// root, the first directory with .git).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Command::Check), default_value = "terminal")]
    pub format: Format,
    /// Write the report to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The lowest severity that fails the run (default: ward.hcl's check.fail_on, else error).
    #[arg(long, value_enum)]
    pub fail_on: Option<SeverityArg>,
    /// Check every git ref that is not a commit id against its remote (git ls-remote, cached).
    #[arg(long)]
    pub resolve: bool,
    /// Cache directory for --resolve (default: $XDG_CACHE_HOME/ward/ls-remote).
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// Seconds one `git ls-remote` of --resolve may take; then it is killed and the ref is
    /// reported as unresolved.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub resolve_timeout: u64,
    /// Also run `fmt -check` and `init -backend=false` + `validate` on every module (in a copy).
    #[arg(long)]
    pub exec: bool,
    /// The binary for --exec: terraform, tofu, or a path.
    #[arg(long, default_value = "terraform")]
    pub binary: PathBuf,
    /// Seconds one --exec command (fmt, init, validate) may take; then its process group is
    /// killed, the timeout is reported and no further command is run.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub exec_timeout: u64,
    /// Let this inherited TF_* variable (or PREFIX* pattern) reach --exec's commands;
    /// repeatable. TF_VAR_*, TF_TOKEN_*, TF_PLUGIN_CACHE_DIR and TF_CLI_CONFIG_FILE always do.
    #[arg(long = "allow-env", value_name = "NAME")]
    pub allow_env: Vec<String>,
    /// Today's date (UTC, YYYY-MM-DD) for suppression expiry; for reproducible runs.
    #[arg(long)]
    pub today: Option<String>,
    /// Do not read this repository-relative path (a directory covers everything below it; `*`
    /// matches any run of characters); repeatable. Adds to ward.hcl's `check { exclude }`.
    #[arg(long, value_name = "PATH")]
    pub exclude: Vec<String>,
    /// Report only findings about the directories of these files (the whole repository is still
    /// checked): what a pre-commit hook passes. Takes every following argument.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub changed: Vec<PathBuf>,
    /// Terminal output also lists every directory and the module source matrix.
    #[arg(long, short)]
    pub verbose: bool,
    /// Print the rule catalog and exit.
    #[arg(long)]
    pub list_rules: bool,
}

/// Runs `ward check`: returns what to render ([`Output`]), or, after writing `error: …` to
/// `stderr`, [`Exit::Usage`] (usage or input error). `ward` renders the output through
/// `ward_report::check` and writes it to standard output or `--output`.
pub fn execute(args: &CheckArgs, stderr: &mut dyn Write) -> Result<Output, Exit> {
    let mut usage_error = |msg: &str| {
        let _ = writeln!(stderr, "error: {msg}");
        Exit::Usage
    };
    if args.list_rules {
        return Ok(Output::Catalog);
    }
    let today = match &args.today {
        Some(t) => match ward_time::parse_date(t) {
            Ok(d) => d,
            Err(e) => return Err(usage_error(&format!("--today: {e}"))),
        },
        None => ward_time::Clock::System.today(),
    };
    // ward.hcl: --config, else the first one walking up from DIR to the repository root.
    let config = match crate::context::read_config(args.config.as_deref(), &args.path) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(stderr, "{e}");
            return Err(Exit::Usage);
        }
    };
    let knowledge = match ward_config::knowledge(config.as_ref()) {
        Ok(k) => k,
        Err(e) => {
            return Err(usage_error(&format!(
                "ward's built-in knowledge does not load: {e}"
            )))
        }
    };
    let mut exclude: Vec<ward_config::Exclude> = config
        .iter()
        .flat_map(|c| c.check.excludes.iter().cloned())
        .collect();
    for raw in &args.exclude {
        let rel = raw.trim().trim_start_matches("./").trim_end_matches('/');
        if rel.is_empty() || rel.starts_with('/') || rel.split('/').any(|p| p == "..") {
            return Err(usage_error(&format!(
                "--exclude {raw}: give a path relative to the repository's top directory, inside it"
            )));
        }
        exclude.push(ward_config::Exclude {
            pattern: rel.to_string(),
            reason: "--exclude on the command line".to_string(),
            line: 0,
        });
    }
    let repo = match ward_repo::discover(
        &args.path,
        &ward_config::repo_options(config.as_ref(), exclude),
    ) {
        Ok(r) => r,
        Err(e) => return Err(usage_error(&e.to_string())),
    };
    let knowledge = RulesKnowledge(knowledge);
    let opts = CheckOptions {
        config: config.as_ref(),
        resolver: args.resolve.then(|| {
            Resolver::new(
                args.cache_dir
                    .clone()
                    .or_else(|| crate::context::BaseDirs::from_env().ls_remote_cache()),
            )
            .with_timeout(std::time::Duration::from_secs(args.resolve_timeout))
        }),
        knowledge: &knowledge,
        today,
        fail_on: args.fail_on.map(Severity::from),
        exec: args.exec.then(|| ExecOptions {
            binary: args.binary.clone(),
            timeout: std::time::Duration::from_secs(args.exec_timeout),
            allow_env: args.allow_env.clone(),
        }),
    };
    match check(&repo, opts) {
        Ok(mut r) => {
            if !args.changed.is_empty() {
                let dirs = changed_dirs(&args.path, &args.changed);
                ward_check::only_changed(&mut r, &dirs);
            }
            Ok(Output::Report(Box::new(r)))
        }
        Err(e) => Err(usage_error(&e.to_string())),
    }
}

/// The repository-relative directories of `files` (given relative to the working directory,
/// as pre-commit passes them, or absolute).
fn changed_dirs(top: &std::path::Path, files: &[PathBuf]) -> std::collections::BTreeSet<String> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let abs = |p: &std::path::Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            cwd.join(p)
        }
    };
    let top = abs(top);
    let top = top.canonicalize().unwrap_or(top);
    files
        .iter()
        .filter_map(|f| {
            let f = abs(f);
            let dir = f.parent()?.to_path_buf();
            let dir = dir.canonicalize().unwrap_or(dir);
            let rel = dir.strip_prefix(&top).ok()?;
            let s = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            Some(if s.is_empty() { ".".to_string() } else { s })
        })
        .collect()
}
