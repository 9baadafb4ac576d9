//! `ward completions SHELL`: shell completion scripts generated from ward's own argument
//! definitions (clap_complete), so they never disagree with the binary. The generated scripts
//! are also kept in `dist/completions/`, checked current by `tests/integrations.rs`.

use crate::error::CliError;
use clap::CommandFactory;
use ward_report::Exit;

/// A shell ward writes completions for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    /// bash: `source <(ward completions bash)`, or install under
    /// `/usr/share/bash-completion/completions/ward`.
    Bash,
    /// zsh: install as `_ward` in a directory of `$fpath`.
    Zsh,
    /// fish: install as `~/.config/fish/completions/ward.fish`.
    Fish,
}

/// Arguments of `ward completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// The completion script for `shell`.
pub fn script(shell: Shell) -> Vec<u8> {
    let mut cmd = crate::Cli::command();
    let mut out = Vec::new();
    let gen = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    clap_complete::generate(gen, &mut cmd, "ward", &mut out);
    out
}

/// Runs `ward completions`: through the one stdout writer, so a closed pipe
/// (`ward completions bash | head`) ends quietly and any other write error is one.
pub fn run(args: &Args) -> Result<Exit, CliError> {
    crate::output::write_bytes(&script(args.shell), None)?;
    Ok(Exit::Pass)
}
