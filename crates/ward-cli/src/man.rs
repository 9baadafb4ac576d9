//! `ward man`: the man pages, generated from ward's own argument definitions (clap_mangen):
//! `ward(1)` with the synopsis, every subcommand and the exit-code table of `ward --help`, and
//! one page per subcommand (`ward-plan(1)`, `ward-stack-apply(1)`, ...), so that every page a
//! page refers to exists. Also kept in `dist/man/`, checked current by `tests/integrations.rs`.

use crate::error::CliError;
use clap::CommandFactory;
use std::path::PathBuf;
use ward_report::Exit;

/// Arguments of `ward man`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write every page (ward.1 and one per subcommand) into this directory instead of printing
    /// ward(1): e.g. `ward man --dir /usr/local/share/man/man1`
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Every man page: (file name, roff), `ward.1` first, then each subcommand's, depth first.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>, std::io::Error> {
    // Built as clap_mangen's own generate_to does: the display names of subcommands
    // (`ward-stack-apply`) are set by build(), and `help` is not a page of its own.
    let mut cmd = crate::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    collect(&cmd, &mut out)?;
    Ok(out)
}

fn collect(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), std::io::Error> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render(&mut page)?;
    out.push((man.get_filename(), page));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, out)?;
    }
    Ok(())
}

/// Runs `ward man`: ward(1) on standard output (`ward man | man -l -`), or every page into
/// `--dir`.
pub fn run(args: &Args) -> Result<Exit, CliError> {
    let pages = pages().map_err(|e| CliError::new(format!("cannot render the man pages: {e}")))?;
    match &args.dir {
        None => {
            let top = pages.first().map(|(_, p)| p.as_slice()).unwrap_or_default();
            crate::output::write_bytes(top, None)?;
        }
        Some(dir) => {
            if !dir.is_dir() {
                return Err(
                    CliError::new(format!("--dir {}: not a directory", dir.display())).hint(
                        "create it first (mkdir -p), or give the man1 directory of a man path",
                    ),
                );
            }
            for (name, page) in &pages {
                crate::output::write_bytes(page, Some(&dir.join(name)))?;
            }
        }
    }
    Ok(Exit::Pass)
}
