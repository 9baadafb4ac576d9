//! What `ward-cli` does before it calls [`ward_drift::run`]: find and load `ward.hcl`, build
//! the knowledge, find the binaries, open the history. The library takes these as values; the
//! tests build them the way the CLI does.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use ward_drift::{DriftError, Options, Report, TornDown};

/// A drift run as the command line gives it: the library's options plus what the CLI reads.
pub struct Run {
    /// The library's options.
    pub opts: Options,
    /// `--config`.
    pub config: Option<PathBuf>,
    /// `--terraform`.
    pub terraform: Option<PathBuf>,
    /// `--db`.
    pub db: PathBuf,
    /// The stack's teardowns (the CLI reads them from the stack journal).
    pub torn_down: TornDown,
}

impl std::ops::Deref for Run {
    type Target = Options;
    fn deref(&self) -> &Options {
        &self.opts
    }
}

impl std::ops::DerefMut for Run {
    fn deref_mut(&mut self) -> &mut Options {
        &mut self.opts
    }
}

/// Runs it: `ward.hcl` found from the repository (or `config`), its knowledge, the binaries,
/// the history at `db`.
pub fn run(r: &Run) -> Result<Report, DriftError> {
    // As the CLI: a bad webhook is refused before the history is opened.
    if let Some(url) = &r.opts.notify {
        ward_drift::notify::check_url(url).map_err(DriftError::Usage)?;
    }
    let found = ward_config::discover(r.config.as_deref(), &r.opts.repo).unwrap();
    let config = found
        .as_ref()
        .map(ward_config::Config::load_found)
        .transpose()
        .unwrap();
    let knowledge = ward_config::knowledge(config.as_ref()).unwrap();
    let explicit: Vec<(PathBuf, ward_drift::binary::Product)> = r
        .terraform
        .iter()
        .map(|p| (p.clone(), ward_drift::binary::Product::Terraform))
        .collect();
    let binaries = ward_drift::binary::find_binaries(&explicit, r.opts.path.as_deref()).unwrap();
    let location =
        ward_drift::history_location_in(Some(&r.db), config.as_ref(), None, None, None).unwrap();
    let mut store = ward_store::Store::open_location(&location).unwrap();
    let inputs = ward_drift::Inputs {
        config: config.as_ref(),
        knowledge: &knowledge,
        binaries: &binaries,
        torn_down: &r.torn_down,
    };
    ward_drift::run(&r.opts, &inputs, &mut store)
}
