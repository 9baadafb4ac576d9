//! `ward check`: the repository gates. The work (and the arguments) are in `ward-check`, the
//! rendering in `ward_report::check`; this module only wires them and writes the report through
//! [`crate::output`], like every other command.

use crate::error::CliError;
use ward_check::cli::CheckArgs;
use ward_report::Exit;

/// Runs `ward check`.
pub fn run(args: &CheckArgs) -> Result<Exit, CliError> {
    let out = match ward_check::cli::execute(args, &mut std::io::stderr()) {
        Ok(out) => out,
        Err(exit) => return Ok(exit),
    };
    let text = ward_report::check::render(&out, args.format, args.verbose);
    crate::output::write(&text, args.output.as_deref())?;
    Ok(out.exit())
}
