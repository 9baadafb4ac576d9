//! `ward verify`: at apply time, confirm the saved plan is the plan that was gated.
//! See docs/gate.md.

use crate::error::CliError;
use crate::gate::finish;
use crate::output::Dest;
use std::path::PathBuf;
use ward_gate::run::VerifyOptions;
use ward_report::format::Command;
use ward_report::{Exit, Format};

/// The text after `ward verify --help`; its exit codes are generated from [`Exit`].
fn after_help() -> String {
    let codes = Exit::help_line(&[Exit::Pass, Exit::Fail, Exit::Usage], |e| match e {
        Exit::Pass => Some("verified"),
        Exit::Fail => Some("not the gated plan (or the gate did not pass it)"),
        Exit::Usage => Some("error"),
        _ => None,
    });
    format!(
        "Example:\n  ward gate plan.json --record gate.json && ward verify tfplan --record gate.json && terraform apply tfplan\n\n{codes}"
    )
}

/// Arguments of `ward verify`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Confirm a saved binary plan is the plan that passed `ward gate`",
    after_help = after_help()
)]
pub struct Args {
    /// The saved plan file (`terraform plan -out FILE`).
    #[arg(value_name = "PLANFILE")]
    planfile: PathBuf,
    /// The gate record written by `ward gate --record FILE`.
    #[arg(long, value_name = "FILE")]
    record: PathBuf,
    /// The terraform or tofu binary that wrote the plan (default from the record's product).
    #[arg(long, value_name = "PATH")]
    binary: Option<String>,
    /// The root directory the plan was made in (default: the current directory).
    #[arg(long, value_name = "DIR")]
    chdir: Option<PathBuf>,
    /// Seconds `show -json` may take; then its process group is killed and verify fails (exit 2).
    #[arg(long, value_name = "SECONDS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// The pull request the gate took its approvals from (github:OWNER/REPO#N,
    /// gitlab:GROUP/PROJECT!IID): the record must hold review approvals of it, and they are read
    /// again. Without it, a record that holds review approvals is re-checked against its own.
    #[arg(long, value_name = "FORGE:PROJECT#N")]
    approvals_from: Option<String>,
    /// The forge's API base for the re-check (default: GITHUB_API_URL / CI_API_V4_URL, else the
    /// forge's public one); it must be the one the gate read.
    #[arg(long, value_name = "URL")]
    forge_url: Option<String>,
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Command::Verify), default_value = "terminal")]
    format: Format,
    #[command(flatten)]
    dest: Dest,
}

/// Runs `ward verify`.
pub fn run(args: Args) -> Result<Exit, CliError> {
    // The directory a relative PLANFILE and --chdir are taken from, read here: ward-gate asks
    // for none.
    let cwd = std::env::current_dir().map_err(|e| {
        CliError::new(format!("cannot read the current directory: {e}")).hint(
            "run ward from an existing directory, or give PLANFILE and --chdir as absolute paths",
        )
    })?;
    let opts = VerifyOptions {
        planfile: args.planfile,
        record: args.record,
        binary: args.binary,
        chdir: args.chdir,
        timeout: Some(std::time::Duration::from_secs(args.timeout)),
        cwd,
    };
    if let Some(from) = args.approvals_from.as_deref() {
        crate::forge::parse_source(from)?;
    }
    let (from, url) = (args.approvals_from.as_deref(), args.forge_url.as_deref());
    let v = ward_gate::run::verify_with_reviews(
        &opts,
        &crate::gate::process_env,
        &ward_time::Clock::System.now_rfc3339(),
        from,
        &|b| crate::forge::for_binding(b, from, url),
    )
    .map_err(|e| CliError::new(e.to_string()))?;
    finish(
        &ward_report::gate::verify(&v, args.format, args.dest.color(args.format))?,
        args.dest.output.as_deref(),
        &v.notes,
        v.exit,
    )
}
