//! The run's context: the values a command reads once and passes down (#34). The CLI is the
//! one place that finds and reads `ward.hcl`, builds the knowledge, asks for the working
//! directory and the clock, and reads the environment values the libraries need as values;
//! ward-gate and ward-stack take them from here.

use crate::error::CliError;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use ward_config::Config;
use ward_rules::Knowledge;

/// What one `ward` run reads once.
pub struct Context {
    /// The working directory.
    pub cwd: PathBuf,
    /// `ward.hcl`: `--config`, else the first one walking up from `cwd` to the repository
    /// root; `None` when there is none.
    pub config: Option<Config>,
    /// The built-in packs plus the `resource` blocks of `config`.
    pub knowledge: Knowledge,
    /// The clock.
    pub clock: ward_time::Clock,
    /// Who approves when no `--by` is given: `WARD_APPROVER`, else `USER`, else `LOGNAME`.
    pub approver: Option<String>,
    /// `PATH` ([`search_path`]).
    pub path: Option<OsString>,
}

/// `PATH` as ward runs with it (`None`: unset), read here once per run and passed down: where
/// the binaries are found ([`binaries`]) and, when the commands' own environment sets no `PATH`,
/// a Terragrunt unit's `terragrunt` (ward-terraform's `runner_for`). ward-terraform reads no
/// environment.
pub fn search_path() -> Option<OsString> {
    std::env::var_os("PATH")
}

/// `ward.hcl`: `explicit` when given (it must exist), else the first one walking up from
/// `start` to the repository root; `None` when there is none. The one place ward-cli finds and
/// reads it: [`Context::load`] from the working directory, `ward check` from DIR, `ward drift`
/// from `--repo`, `ward import` and the history's location.
pub fn read_config(explicit: Option<&Path>, start: &Path) -> Result<Option<Config>, CliError> {
    let found = ward_config::discover(explicit, start)?;
    Ok(found
        .as_ref()
        .map(ward_config::Config::load_found)
        .transpose()?)
}

/// What the environment says of the PostgreSQL password, read here and passed down as values
/// (ward-store reads no environment): `PGPASSWORD`, and the password file (`PGPASSFILE`, else
/// `~/.pgpass`). The password stays in memory: never in argv, output or an error; `Debug`
/// hides it.
pub struct PgPassword {
    /// `PGPASSWORD`.
    pub password: Option<String>,
    /// `PGPASSFILE` (an empty one is unset), else `HOME/.pgpass`.
    pub file: Option<PathBuf>,
}

impl PgPassword {
    /// Reads `PGPASSWORD` and `PGPASSFILE`; `home` is `HOME` as [`BaseDirs`] read it.
    pub fn from_env(home: Option<&Path>) -> PgPassword {
        PgPassword {
            password: std::env::var("PGPASSWORD").ok(),
            file: std::env::var_os("PGPASSFILE")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
                .or_else(|| home.map(|h| h.join(".pgpass"))),
        }
    }
}

impl std::fmt::Debug for PgPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPassword")
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("file", &self.file)
            .finish()
    }
}

/// The XDG base directories the libraries' defaults are built from, read here once per use and
/// passed down as values: the state and cache directories are computed here, once, and
/// ward-store and ward-check take them as paths (they read no environment).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BaseDirs {
    /// `HOME`.
    pub home: Option<PathBuf>,
    /// `XDG_STATE_HOME`.
    pub state_home: Option<PathBuf>,
    /// `XDG_CACHE_HOME`.
    pub cache_home: Option<PathBuf>,
}

impl BaseDirs {
    /// Reads the three variables.
    pub fn from_env() -> BaseDirs {
        let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
        BaseDirs {
            home: var("HOME"),
            state_home: var("XDG_STATE_HOME"),
            cache_home: var("XDG_CACHE_HOME"),
        }
    }

    /// The state directory: `XDG_STATE_HOME`, else `HOME/.local/state`; `None` when neither
    /// is set.
    pub fn state_dir(&self) -> Option<PathBuf> {
        self.base(self.state_home.as_deref(), ".local/state")
    }

    /// The cache directory: `XDG_CACHE_HOME`, else `HOME/.cache`; `None` when neither is set.
    pub fn cache_dir(&self) -> Option<PathBuf> {
        self.base(self.cache_home.as_deref(), ".cache")
    }

    /// `xdg`, else `under_home` in `HOME`. An empty value counts as unset, as the XDG base
    /// directory specification says (read as a relative path, it would put the file in whatever
    /// directory ward ran in).
    fn base(&self, xdg: Option<&Path>, under_home: &str) -> Option<PathBuf> {
        let set = |p: &&Path| !p.as_os_str().is_empty();
        xdg.filter(set)
            .map(Path::to_path_buf)
            .or_else(|| self.home.as_deref().filter(set).map(|h| h.join(under_home)))
    }

    /// The default history database ([`ward_store::default_path`] of [`BaseDirs::state_dir`]).
    pub fn history(&self) -> Option<PathBuf> {
        self.state_dir().map(|d| ward_store::default_path(&d))
    }

    /// The default `--resolve` cache ([`ward_check::resolve::Resolver::default_cache_dir`] of
    /// [`BaseDirs::cache_dir`]).
    pub fn ls_remote_cache(&self) -> Option<PathBuf> {
        self.cache_dir()
            .map(|d| ward_check::resolve::Resolver::default_cache_dir(&d))
    }
}

/// The Terraform and OpenTofu binaries a run may use: `--terraform` and `--tofu` when given, in
/// that order, then those found in `path` (the run's `PATH`, [`search_path`]; ward-terraform's
/// `find_binaries`, which says what is wrong with a path given). The one place the flags become
/// binaries: `ward drift`, `ward stack` and `ward import`.
pub fn binaries(
    terraform: Option<&PathBuf>,
    tofu: Option<&PathBuf>,
    path: Option<&OsStr>,
) -> Result<Vec<ward_terraform::binary::Binary>, CliError> {
    use ward_terraform::Product;
    let explicit: Vec<(PathBuf, Product)> = terraform
        .map(|p| (p.clone(), Product::Terraform))
        .into_iter()
        .chain(tofu.map(|p| (p.clone(), Product::Tofu)))
        .collect();
    ward_terraform::binary::find_binaries(&explicit, path).map_err(CliError::new)
}

/// Where the history is ([`ward_drift::history_location_in`]: `--db`, else `history { url }`,
/// else the default file), with the PostgreSQL password's environment and the base directories
/// (`HOME` among them, for `~/.pgpass` too) read once for it ([`PgPassword::from_env`],
/// [`BaseDirs::from_env`]).
pub fn history_location(
    db: Option<&Path>,
    cfg: Option<&Config>,
) -> Result<ward_store::Location, ward_store::StoreError> {
    let base = BaseDirs::from_env();
    let pg = PgPassword::from_env(base.home.as_deref());
    let default = base.history();
    ward_drift::history_location_in(
        db,
        cfg,
        pg.password.as_deref(),
        pg.file.as_deref(),
        default.as_deref(),
    )
}

impl Context {
    /// Reads the run's context: `config` when given (it must exist), else the `ward.hcl` found
    /// from the working directory.
    pub fn load(config: Option<&Path>) -> Result<Context, CliError> {
        let cwd = std::env::current_dir().map_err(|e| {
            CliError::new(format!("cannot read the current directory: {e}"))
                .hint("run ward from an existing directory, or pass --config FILE")
        })?;
        let config = read_config(config, &cwd)?;
        let knowledge = ward_config::knowledge(config.as_ref()).map_err(broken_pack)?;
        // The first of them set (an empty one is refused by the gate, not skipped).
        let approver = ["WARD_APPROVER", "USER", "LOGNAME"]
            .iter()
            .find_map(|v| std::env::var(v).ok());
        Ok(Context {
            cwd,
            config,
            knowledge,
            clock: ward_time::Clock::System,
            approver,
            path: search_path(),
        })
    }

    /// The values the gate decides with.
    pub fn gate_setup(&self) -> ward_gate::run::Setup<'_> {
        ward_gate::run::Setup {
            config: self.config.as_ref(),
            knowledge: &self.knowledge,
            cwd: &self.cwd,
            clock: self.clock,
            approver: self.approver.clone(),
        }
    }
}

/// A built-in pack that does not load: a bug in ward, never the user's input.
pub(crate) fn broken_pack(e: ward_rules::RulesError) -> CliError {
    CliError::new(format!("a built-in rule pack does not load: {e}"))
        .hint("this is a bug in ward; please report it with the message above")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;
