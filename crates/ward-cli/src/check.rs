//! `ward check`: the repository gates. The work (and the arguments) are in `ward-check`; this
//! module only writes the report through [`crate::output`], like every other command.

use crate::error::CliError;
use ward_check::cli::CheckArgs;
use ward_report::Exit;

/// Runs `ward check`.
pub fn run(args: &CheckArgs) -> Result<Exit, CliError> {
    let mut out = Vec::new();
    let exit = ward_check::cli::execute(args, &mut out, &mut std::io::stderr());
    crate::output::write_bytes(&out, None)?;
    Ok(exit)
}
