//! The `ward` command. Each subcommand lives in its own module; this file only parses arguments
//! and dispatches. To add a subcommand: write `src/<name>.rs` with `Args` (or a `Command` enum)
//! and `run(...) -> Result<Exit, CliError>`, then add one variant to [`Command`] and one arm to
//! `main`.

mod approve;
mod check;
mod completions;
mod context;
mod docs;
mod drift;
mod error;
mod forge;
mod gate;
mod history;
mod import;
mod knowledge;
mod man;
mod output;
mod plan;
mod report;
mod rules;
mod serve;
mod stack;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use ward_report::Exit;

/// jemalloc, not the system allocator: the plan is read on a second thread and its changes are
/// freed on this one (see crates/ward-cli/Cargo.toml).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The text after `ward --help`: the exit-code table generated from [`Exit`], then the classes.
fn after_help() -> String {
    format!("{}\n\n{CLASSES}", Exit::help_table())
}

const CLASSES: &str = "\
Impact classes, lowest first: none, free, in-place, interrupt, replace, data-loss.
Docs: `ward docs` lists the documents built into ward; `ward docs rules` prints one.";

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
    after_help = after_help(),
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
    /// Apply layered roots forward, tear them down in reverse, one approved destroy at a time.
    Stack(stack::Args),
    /// Run the repository gates: module sources, versions, state, layers, key material, Ansible.
    Check(check::Args),
    /// Adopt live objects into Terraform: import blocks, a zero-diff check, a recorded acceptance.
    #[command(subcommand)]
    Import(import::Command),
    /// Print a document built into ward (rules, config, gate, exit-codes...); no topic: list them.
    Docs(docs::Args),
    /// Print a shell completion script (bash, zsh, fish), generated from ward's arguments.
    Completions(completions::Args),
    /// Print the man page ward(1), generated from ward's arguments.
    Man(man::Args),
    /// Serve a read-only dashboard of the history (127.0.0.1; JSON API under /api/v1).
    Serve(serve::Args),
    /// Write the history dashboard as one static HTML file (`--html FILE`).
    Report(report::Args),
}

/// `ward --version` (and `-V`): ward's version and the version of every built-in pack, one line
/// each, sorted by name. Printed before clap parses, so other commands never load the packs for
/// it; `ward SUBCOMMAND --version` prints the version alone.
fn long_version() -> String {
    let mut s = format!("ward {}\n", env!("CARGO_PKG_VERSION"));
    match ward_rules::Knowledge::builtin() {
        Ok(k) => {
            let mut packs: Vec<(String, String)> =
                k.packs().into_iter().map(|p| (p.name, p.version)).collect();
            packs.sort();
            packs.dedup();
            s.push_str(&format!("packs ({}):\n", packs.len()));
            for (name, version) in packs {
                s.push_str(&format!("  {name} {version}\n"));
            }
        }
        Err(e) => s.push_str(&format!("packs: cannot be loaded: {e}\n")),
    }
    s
}

/// How ward ends when told to stop (after `ward_exec` stopped every program and removed its
/// scratch files): with the [`Exit`] for that signal.
fn exit_on_signal(signal: i32) -> ! {
    // A `ward stack` run under way records that it was stopped (waiting a bounded time).
    ward_stack::journal::record_signal(signal, &ward_time::Clock::System.now_rfc3339());
    let code = Exit::from_signal(signal).map_or(128 + signal, |e| i32::from(e.code()));
    std::process::exit(code)
}

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if argv.len() == 2 && (argv[1] == "--version" || argv[1] == "-V") {
        print!("{}", long_version());
        return ExitCode::SUCCESS;
    }
    // clap prints its own usage errors and exits 2 (0 for --help and --version).
    let cli = Cli::parse_from(argv);
    // Commands that start programs (Terraform, git, guards): on SIGTERM, SIGINT or SIGHUP, stop
    // them and remove ward's scratch directories before exiting (`Exit::from_signal`: 129, 130,
    // 143).
    if matches!(
        cli.command,
        Command::Gate(_)
            | Command::Verify(_)
            | Command::Drift(_)
            | Command::Check(_)
            | Command::Stack(_)
            | Command::Import(_)
    ) {
        if let Err(e) = ward_exec::handle_termination_signals(exit_on_signal) {
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
        Command::Stack(args) => stack::run(args),
        Command::Check(args) => check::run(&args),
        Command::Import(cmd) => import::run(cmd),
        Command::Docs(args) => docs::run(&args),
        Command::Completions(args) => completions::run(&args),
        Command::Man(args) => man::run(&args),
        Command::Serve(args) => serve::run(args),
        Command::Report(args) => report::run(args),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(e) => {
            eprintln!("{e}");
            Exit::Usage.into()
        }
    }
}
