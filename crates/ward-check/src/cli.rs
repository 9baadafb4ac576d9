//! The `ward check` command: arguments and the run function `ward` wires.
//!
//! Exit codes (shared by ward): 0 pass, 1 findings at or above the failing severity, 2 usage or
//! input error.

use crate::catalog::{Severity, RULES};
use crate::exec::ExecOptions;
use crate::knowledge::{DataHolding, Subject};
use crate::resolve::Resolver;
use crate::{check, render, CheckOptions};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use ward_model::Exit;

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Terminal,
    /// The full report as JSON.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// JUnit XML, for CI test reports.
    Junit,
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
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The repository's top directory.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// The ward configuration (default: ward.hcl at the repository's top).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "terminal")]
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
    /// Also run `fmt -check` and `init -backend=false` + `validate` on every module (in a copy).
    #[arg(long)]
    pub exec: bool,
    /// The binary for --exec: terraform, tofu, or a path.
    #[arg(long, default_value = "terraform")]
    pub binary: PathBuf,
    /// Today's date (UTC, YYYY-MM-DD) for suppression expiry; for reproducible runs.
    #[arg(long)]
    pub today: Option<String>,
    /// Terminal output also lists every directory and the module source matrix.
    #[arg(long, short)]
    pub verbose: bool,
    /// Print the rule catalog and exit.
    #[arg(long)]
    pub list_rules: bool,
}

/// Adapts ward's knowledge (`ward_rules::Knowledge`) to the data-holding question.
struct RulesKnowledge(ward_rules::Knowledge);

impl RulesKnowledge {
    /// Provider unknown from configuration alone: rules narrowed by provider do not apply.
    fn resolve(&self, s: &Subject<'_>) -> ward_rules::Resolved<'_> {
        self.0.resolve(&ward_rules::Target {
            type_name: s.resource_type,
            address: s.address,
            module: s.module,
            provider: "",
        })
    }
}

impl DataHolding for RulesKnowledge {
    fn holds_data(&self, s: &Subject<'_>) -> Option<bool> {
        let r = self.resolve(s);
        r.is_classified().then(|| r.holds_data().value)
    }

    fn source(&self, s: &Subject<'_>) -> String {
        self.resolve(s)
            .holds_data()
            .rule
            .map(|x| x.to_string())
            .unwrap_or_default()
    }
}

/// Runs `ward check`: writes the report to `stdout` (or to `--output`), errors to `stderr`, and
/// returns how the run ends: [`Exit::Pass`], [`Exit::Fail`] (findings at or above the failing
/// severity) or [`Exit::Usage`] (usage or input error, or a report that could not be written).
/// `ward` passes a buffer as `stdout` and writes it out itself.
pub fn execute(args: &CheckArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Exit {
    let mut usage_error = |msg: &str| {
        let _ = writeln!(stderr, "error: {msg}");
        Exit::Usage
    };
    if args.list_rules {
        let mut s = String::new();
        for r in RULES {
            s.push_str(&format!(
                "{:<15} {:<8} {}\n",
                r.id,
                r.severity.as_str(),
                r.title
            ));
        }
        return match stdout.write_all(s.as_bytes()) {
            Ok(()) => Exit::Pass,
            Err(e) => usage_error(&format!("cannot write the rule catalog: {e}")),
        };
    }
    let today = match &args.today {
        Some(t) => match crate::scan::parse_date(t) {
            Some(d) => d,
            None => return usage_error(&format!("--today {t}: write the date as YYYY-MM-DD")),
        },
        None => crate::scan::today_utc(),
    };
    let repo = match ward_repo::discover(
        &args.path,
        &ward_repo::Options {
            config: args.config.clone(),
        },
    ) {
        Ok(r) => r,
        Err(e) => return usage_error(&e.to_string()),
    };
    let mut knowledge = match ward_rules::Knowledge::builtin() {
        Ok(k) => k,
        Err(e) => return usage_error(&format!("ward's built-in knowledge does not load: {e}")),
    };
    let user_rules = args
        .config
        .clone()
        .or_else(|| Some(args.path.join("ward.hcl")).filter(|p| p.is_file()));
    if let Some(p) = user_rules {
        if let Err(e) = knowledge.load_user_file(&p) {
            return usage_error(&e.to_string());
        }
    }
    let knowledge = RulesKnowledge(knowledge);
    let opts = CheckOptions {
        resolver: args
            .resolve
            .then(|| Resolver::new(args.cache_dir.clone().or_else(Resolver::default_cache_dir))),
        knowledge: &knowledge,
        today,
        fail_on: args.fail_on.map(Severity::from),
        exec: args.exec.then(|| ExecOptions {
            binary: args.binary.clone(),
        }),
    };
    let report = match check(&repo, opts) {
        Ok(r) => r,
        Err(e) => return usage_error(&e.to_string()),
    };
    let text = match args.format {
        Format::Terminal => render::terminal(&report, args.verbose),
        Format::Json => render::json(&report),
        Format::Sarif => render::sarif(&report),
        Format::Junit => render::junit(&report),
    };
    let written = match &args.output {
        Some(p) => std::fs::write(p, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", p.display())),
        None => stdout
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write the report: {e}")),
    };
    if let Err(e) = written {
        return usage_error(&e);
    }
    if report.summary.failed {
        Exit::Fail
    } else {
        Exit::Pass
    }
}
