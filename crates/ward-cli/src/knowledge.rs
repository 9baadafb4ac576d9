//! Loading ward's knowledge: the built-in packs plus the `resource` blocks of `ward.hcl` (given
//! with `--config`, or found by [`ward_config::discover`] from the current directory).

use crate::error::CliError;
use std::path::Path;
use ward_rules::Knowledge;

/// The built-in packs, plus the user rules of `ward.hcl`: `config` when given (it must exist),
/// else the first `ward.hcl` walking up from the current directory to the repository root. The
/// whole file is read (every block is checked), once.
pub fn load(config: Option<&Path>) -> Result<Knowledge, CliError> {
    Ok(load_with_plan(config)?.0)
}

/// [`load`], plus the `plan` block of the same `ward.hcl` (defaults without one).
pub fn load_with_plan(
    config: Option<&Path>,
) -> Result<(Knowledge, ward_config::PlanSettings), CliError> {
    let ctx = crate::context::Context::load(config)?;
    Ok((
        ctx.knowledge,
        ctx.config.map(|c| c.plan).unwrap_or_default(),
    ))
}

/// [`load`] with every entry of every pack read now (packs are otherwise read type by type as
/// lookups need them): for `ward rules`, which shows them all.
pub fn load_every_entry(config: Option<&Path>) -> Result<Knowledge, CliError> {
    let k = load(config)?;
    k.load_all().map_err(crate::context::broken_pack)?;
    Ok(k)
}
