//! The `ward` command. Each subcommand lives in its own module; this file only parses arguments
//! and dispatches. To add a subcommand: write `src/<name>.rs` with `Args` (or a `Command` enum)
//! and `run(...) -> Result<Exit, CliError>`, then add one variant to [`Command`] and one arm to
//! `main`.

mod approve;
mod drift;
mod error;
mod gate;
mod knowledge;
mod output;
mod plan;
mod rules;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

const EXIT_CODES: &str = "\
Exit codes (every subcommand):
  0  pass
  1  a change at or above --fail-on CLASS (or another policy failure)
  2  usage error, input that could not be read, or an errored plan (unless --allow-errored)
  3  coverage failure: a managed resource type no rule classifies
  4  ward gate: approval required
  5  ward gate: budget exceeded
  6  ward gate: a liveness guard refused
  7  ward drift: drift alert (new or escalated drift)
  8  ward drift: a root failed (missing or replaced state, error) or no roots found
When several apply, ward exits with the first of 2, 3, 8, 5, 4, 6, 7, 1.

Impact classes, lowest first: none, free, in-place, interrupt, replace, data-loss.
Docs: docs/cli.md, docs/exit-codes.md, docs/rules.md, docs/json-schema.md, docs/gate.md,
docs/drift.md.";

/// ward: know what a Terraform/OpenTofu change costs the running deployment before you apply it.
#[derive(Debug, Parser)]
#[command(
    name = "ward",
    version,
    about = "Know what a Terraform/OpenTofu change costs the running deployment before you apply it",
    long_about = "Know what a Terraform/OpenTofu change costs the running deployment before you apply it.\n\n\
ward reads a saved plan's JSON and classifies every change: none < free < in-place < interrupt < \
replace < data-loss, with the reason, the identity attributes that change and the rule that \
decided. Its knowledge is data: built-in packs per provider plus your own ward.hcl.",
    after_help = EXIT_CODES,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Classify every change in a plan by what it costs (terminal, JSON or Markdown report).
    Plan(plan::Args),
    /// Show ward's knowledge: packs, versions, classified types and their rules.
    #[command(subcommand)]
    Rules(rules::Command),
    /// Refuse a plan until every dangerous change is approved, within budget, and guards pass.
    Gate(gate::Args),
    /// Approve one change of a plan, bound to a digest of exactly that change.
    Approve(approve::Args),
    /// Confirm a saved binary plan is the plan that passed `ward gate`.
    Verify(verify::Args),
    /// Check every root for drift; a missing or replaced state fails; history kept.
    Drift(drift::Args),
    /// Run the repository gates: module sources, versions, state, layers, key material, Ansible.
    Check(ward_check::cli::CheckArgs),
}

fn main() -> ExitCode {
    // clap prints its own usage errors and exits 2 (0 for --help and --version).
    let cli = Cli::parse();
    // Commands that start programs (Terraform, git, guards): on SIGTERM, SIGINT or SIGHUP, stop
    // them and remove ward's scratch directories before exiting (128 + the signal).
    if matches!(
        cli.command,
        Command::Gate(_) | Command::Verify(_) | Command::Drift(_) | Command::Check(_)
    ) {
        if let Err(e) = ward_exec::handle_termination_signals() {
            eprintln!("warning: {e}; an interrupted run may leave Terraform running");
        }
    }
    let result = match cli.command {
        Command::Plan(args) => plan::run(args),
        Command::Rules(cmd) => rules::run(cmd),
        Command::Gate(args) => gate::run(args),
        Command::Approve(args) => approve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Drift(args) => drift::run(args),
        Command::Check(args) => return ward_check::cli::run(&args),
    };
    match result {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(ward_report::Exit::Usage.code())
        }
    }
}
