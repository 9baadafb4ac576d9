//! Opening the history store for the commands that read it (`ward drift history`, `ward serve`,
//! `ward report --html`): `--db`, else `history { url }` in the `ward.hcl` found from the
//! current directory (or `--config`), else the default file ([`crate::context::history_location`]).

use crate::error::CliError;
use std::path::Path;
use ward_config::Config;
use ward_drift::ward_store::{Location, Store};

/// Where the store is, and the configuration it was found through when there is one (its
/// layers label the dashboard).
pub fn locate(
    db: Option<&Path>,
    config: Option<&Path>,
) -> Result<(Location, Option<Config>), CliError> {
    let cfg = crate::context::read_config(config, Path::new("."))?;
    let location = crate::context::history_location(db, cfg.as_ref())
        .map_err(|e| CliError::new(e.to_string()))?;
    Ok((location, cfg))
}

/// Opens an existing store for reading ([`locate`]; [`Store::open_existing`]: a missing SQLite
/// file is an error, never a new empty history).
pub fn open(db: Option<&Path>, config: Option<&Path>) -> Result<(Store, Option<Config>), CliError> {
    let (location, cfg) = locate(db, config)?;
    let store = Store::open_existing(&location).map_err(|e| CliError::new(e.to_string()))?;
    Ok((store, cfg))
}
