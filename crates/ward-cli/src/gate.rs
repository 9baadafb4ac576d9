//! `ward gate`: nothing dangerous is applied until someone approved that exact change.
//! Thin arguments over `ward_gate::run::gate`, rendered by `ward_report::gate`; see docs/gate.md.

use crate::context::Context;
use crate::error::CliError;
use crate::output::ColorChoice;
use std::path::PathBuf;
use ward_gate::run::{self, Audit, GateOptions, Inputs};
use ward_report::format::Command;
use ward_report::{Exit, Format};

/// Where the gate reads its inputs (shared by `ward gate` and `ward approve`).
#[derive(Debug, clap::Args)]
pub struct InputArgs {
    /// The plan as JSON (`terraform show -json tfplan`), or `-` to read standard input.
    #[arg(value_name = "PLAN_JSON")]
    pub plan: String,
    /// Rule and policy file to use instead of the ward.hcl found at the repository root.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Approvals file (default: policy.approvals, or .ward/approvals.json beside ward.hcl).
    #[arg(long, value_name = "FILE")]
    pub approvals: Option<PathBuf>,
    /// The Terraform root that was planned, read for `prevent_destroy` (default: the current
    /// directory when it holds .tf files).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Do not fail on unclassified resource types (their destroys still need approval).
    #[arg(long)]
    pub allow_unclassified: bool,
    /// The history (a SQLite file or a postgres:// URL): where `ward import` records adoptions
    /// and, when given here or as `history { url }` in ward.hcl, where approvals and the gate's
    /// decisions are recorded (default: as `ward drift`, read only).
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<PathBuf>,
}

impl InputArgs {
    /// The library's form, with the history chosen once for the run: `--db`, else ward.hcl's
    /// `history { url }` (both also record the audit trail, [`Audit`]), else the default file
    /// (read for adoptions only).
    pub fn inputs(&self, ctx: &Context) -> Result<(Inputs, Option<Audit>), CliError> {
        let cfg = ctx.config.as_ref();
        let configured = self.db.is_some() || cfg.as_ref().is_some_and(|c| c.history.url.is_some());
        let (history, audit) = if configured {
            let at = crate::context::history_location(self.db.as_deref(), cfg)
                .map_err(|e| CliError::new(e.to_string()))?;
            let audit = Audit {
                history: at.clone(),
                source: ward_store::AuditSource::Gate,
                root: None,
                site: None,
                run: None,
            };
            (Some(at), Some(audit))
        } else {
            (
                crate::context::BaseDirs::from_env()
                    .history()
                    .map(ward_store::Location::Sqlite),
                None,
            )
        };
        let inputs = Inputs {
            plan: self.plan.clone(),
            config: self.config.clone(),
            approvals: self.approvals.clone(),
            root: self.root.clone(),
            allow_unclassified: self.allow_unclassified,
            history,
        };
        Ok((inputs, audit))
    }
}

/// The variables ward-gate may read (the approval key, guards' bypasses), as the CLI gives them
/// to it: the process environment, without the test clock's variable
/// ([`ward_gate::run::NOW_VAR`]), which a real process never takes from its environment (a
/// release binary must not let anyone move its clock and revive expired approvals; the clock is
/// the run context's). Tests that need a fixed time inject their own environment.
pub fn process_env(name: &str) -> Option<String> {
    without_clock(name, &|n| std::env::var(n).ok())
}

/// `lookup`, except that [`ward_gate::run::NOW_VAR`] is never found.
fn without_clock(name: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    if name == run::NOW_VAR {
        return None;
    }
    lookup(name)
}

/// The text after `ward gate --help`; its exit codes are generated from [`Exit`].
fn after_help() -> String {
    let codes = Exit::help_line(
        &[
            Exit::Pass,
            Exit::Fail,
            Exit::Usage,
            Exit::Coverage,
            Exit::ApprovalRequired,
            Exit::BudgetExceeded,
            Exit::GuardRefused,
        ],
        |e| match e {
            Exit::Fail => {
                Some("a change other than an import in a root being adopted (`ward import`)")
            }
            Exit::Usage => Some("error (bad input, errored plan)"),
            Exit::Coverage => Some("coverage failure"),
            _ => None,
        },
    );
    format!(
        "Examples:\n  ward gate plan.json --record gate.json\n  ward gate plan.json --format markdown > comment.md\n\n{codes} See `ward docs gate`."
    )
}

/// Arguments of `ward gate`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Refuse a plan until every dangerous change in it is approved, within budget, and its guards pass",
    after_help = after_help()
)]
pub struct Args {
    #[command(flatten)]
    inputs: InputArgs,
    /// Report format.
    #[arg(long, value_parser = crate::output::format(Command::Gate), default_value = "terminal")]
    format: Format,
    /// Write the report to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Write the gate record (for `ward verify`) to this file.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Do not add newly found `prevent_destroy` addresses to the protection record.
    #[arg(long)]
    no_record_protection: bool,
    /// Take the approvals from a pull request's reviews instead of the approvals file:
    /// github:OWNER/REPO#NUMBER (token from GITHUB_TOKEN) or gitlab:GROUP/PROJECT!IID (token from
    /// GITLAB_TOKEN). See `ward docs gate`, "Review approvals".
    #[arg(long, value_name = "FORGE:PROJECT#N")]
    approvals_from: Option<String>,
    /// The forge's API base for --approvals-from (default: GITHUB_API_URL or CI_API_V4_URL, else
    /// the forge's public one).
    #[arg(long, value_name = "URL", requires = "approvals_from")]
    forge_url: Option<String>,
}

/// Runs `ward gate`.
pub fn run(args: Args) -> Result<Exit, CliError> {
    let ctx = Context::load(args.inputs.config.as_deref())?;
    let (inputs, audit) = args.inputs.inputs(&ctx)?;
    let opts = GateOptions {
        inputs,
        record: args.record,
        no_record_protection: args.no_record_protection,
        audit,
        binding: Default::default(),
    };
    let format = args.format;
    let review = crate::forge::prepare(
        args.approvals_from.as_deref(),
        args.forge_url.as_deref(),
        ctx.config.as_ref(),
        args.inputs.root.as_deref(),
    )?;
    let settle = review.as_ref().map(|p| p.settle());
    let gated = run::gate_reviewed(
        &opts,
        &ctx.gate_setup(),
        None,
        &process_env,
        settle.as_ref(),
    );
    let run = match gated {
        Ok(run) => run,
        // A root being adopted takes only imports: a refusal of the plan, not a usage error.
        Err(ward_gate::GateError::Adopting(refusal)) => {
            for line in refusal.lines() {
                eprintln!("{}", ward_report::escape::terminal(line));
            }
            return Ok(Exit::Fail);
        }
        Err(e) => return Err(CliError::new(e.to_string())),
    };
    let color = format == Format::Terminal && args.color.enabled(args.output.is_some());
    let mut text = ward_report::gate::render_with(&run.report, format, color)?;
    if let (Some(p), Some(s), Format::Markdown) = (&review, &settle, format) {
        // The digests this comment lists, for the reviews that approve them.
        text.push_str(&p.marker(s, &run.report));
    }
    finish(&text, args.output.as_deref(), &run.notes, run.exit)
}

/// Writes a command's rendered report (to `output`, or standard output), then its notes on
/// standard error, and ends with `exit`.
pub fn finish(
    report: &str,
    output: Option<&std::path::Path>,
    notes: &[String],
    exit: Exit,
) -> Result<Exit, CliError> {
    crate::output::write(report, output)?;
    for n in notes {
        eprintln!("{n}");
    }
    Ok(exit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The environment given to the gate never holds the test clock's variable, whatever the
    /// process's environment says (an injected lookup: no process state is touched).
    #[test]
    fn the_gate_is_never_given_the_clock_variable() {
        let lookup = |n: &str| Some(format!("value of {n}"));
        assert_eq!(without_clock(run::NOW_VAR, &lookup), None);
        assert_eq!(
            without_clock("WARD_APPROVAL_KEY", &lookup).as_deref(),
            Some("value of WARD_APPROVAL_KEY")
        );
        assert_eq!(without_clock("UNSET", &|_| None), None);
    }
}
