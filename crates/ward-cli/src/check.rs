//! `ward check`: the repository gates. The work (and the arguments) are in `ward-check`, the
//! rendering in `ward_report::check`; this module only wires them, adds `--color` (the one
//! [`ColorChoice`] every command takes) and writes the report through [`crate::output`], like
//! every other command.

use crate::error::CliError;
use crate::output::ColorChoice;
use ward_check::cli::{CheckArgs, Format};
use ward_report::Exit;

/// `ward check`'s arguments: ward-check's, and `--color`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The checks' arguments.
    #[command(flatten)]
    pub check: CheckArgs,
    /// Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Runs `ward check`.
pub fn run(args: &Args) -> Result<Exit, CliError> {
    let a = &args.check;
    let out = match ward_check::cli::execute(a, &mut std::io::stderr()) {
        Ok(out) => out,
        Err(exit) => return Ok(exit),
    };
    let color = a.format == Format::Terminal && args.color.enabled(a.output.is_some());
    let text = ward_report::check::render_with(&out, a.format, a.verbose, color);
    crate::output::write(&text, a.output.as_deref())?;
    Ok(out.exit())
}
