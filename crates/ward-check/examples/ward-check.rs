//! `ward check` outside the `ward` binary: the same arguments, run function and renderer.
//!
//! `cargo run -p ward-check --example ward-check -- [PATH] [--format json] ...`

use clap::Parser;
use std::io::Write;

/// ward check (standalone).
#[derive(Parser)]
#[command(name = "ward-check")]
struct Cli {
    #[command(flatten)]
    args: ward_check::cli::CheckArgs,
}

fn main() -> std::process::ExitCode {
    let args = Cli::parse().args;
    let out = match ward_check::cli::execute(&args, &mut std::io::stderr()) {
        Ok(out) => out,
        Err(exit) => return exit.into(),
    };
    let text = ward_report::check::render(&out, args.format, args.verbose);
    let written = match &args.output {
        Some(p) => std::fs::write(p, text),
        None => std::io::stdout().write_all(text.as_bytes()),
    };
    match written {
        Ok(()) => out.exit().into(),
        Err(e) => {
            eprintln!("error: cannot write the report: {e}");
            ward_model::Exit::Usage.into()
        }
    }
}
