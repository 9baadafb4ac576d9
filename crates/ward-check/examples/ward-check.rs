//! `ward check` before it is wired into the `ward` binary: the same arguments and run function.
//!
//! `cargo run -p ward-check --example ward-check -- [PATH] [--format json] ...`

use clap::Parser;

/// ward check (standalone).
#[derive(Parser)]
#[command(name = "ward-check")]
struct Cli {
    #[command(flatten)]
    args: ward_check::cli::CheckArgs,
}

fn main() -> std::process::ExitCode {
    ward_check::cli::execute(
        &Cli::parse().args,
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    )
    .into()
}
