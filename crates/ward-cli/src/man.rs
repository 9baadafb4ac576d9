//! `ward man`: the man page `ward(1)`, generated from ward's own argument definitions
//! (clap_mangen): the synopsis, every subcommand and the exit-code table of `ward --help`. Also
//! kept as `dist/man/ward.1`, checked current by `tests/integrations.rs`.

use crate::error::CliError;
use clap::CommandFactory;
use ward_report::Exit;

/// Arguments of `ward man`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// The man page, in roff.
pub fn page() -> Result<Vec<u8>, std::io::Error> {
    let cmd = crate::Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    Ok(out)
}

/// Runs `ward man`: the page on standard output (`ward man | man -l -`, or install it as
/// `man1/ward.1`).
pub fn run(_args: &Args) -> Result<Exit, CliError> {
    use std::io::Write;
    let page = page().map_err(|e| CliError::new(format!("cannot render the man page: {e}")))?;
    std::io::stdout()
        .write_all(&page)
        .map_err(|e| CliError::new(format!("cannot write the man page: {e}")))?;
    Ok(Exit::Pass)
}
