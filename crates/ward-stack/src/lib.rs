//! `ward stack`: layered roots (FIELD-NOTES 9 and 15) applied forward and torn down in reverse.
//!
//! The stack is declared in `ward.hcl` ([`ward_config::StackSettings`], and in `root` blocks
//! `layer`, `reads`, `site` and `pre_destroy`). Every root with a layer takes part; a root with
//! `site` blocks has one instance per site, a root without has one, site `default`.
//!
//! - **Order.** Instances are visited by layer level (then root name, then site in file order):
//!   upwards for `plan` and `apply`, downwards for `teardown`.
//! - **Reads.** A root reads only outputs, and only of the roots it names in `reads` (the layer
//!   directly below, checked by ward-config). ward passes each read root's `output -json` values
//!   as one variable named after that root (`var.network.network_id`), in a generated
//!   `-var-file` in the run's owner-only scratch directory. The `sha256:` of the read outputs is
//!   the root's *context*: it is bound into every approval digest of the root's plans, so an
//!   approval given against other upstream outputs is stale.
//! - **Plan** ([`plan()`]): a root whose upstream has changes (or is itself blocked) is
//!   `blocked-by-upstream`, never planned against stale outputs.
//! - **Apply** ([`apply()`]): per instance: plan (saved), the gate on it, apply exactly that plan,
//!   `output -json` (sha256), `state pull` (serial, lineage), then a plan that must show no
//!   changes. A downstream root is planned only after its upstream was applied in this run.
//! - **Teardown** ([`teardown()`]): refused while a root that reads one to destroy still holds
//!   resources; per instance, downwards: `state pull` into
//!   `backup_dir/<root>/<site>/<serial>-<lineage>-<sha256>.tfstate` (atomic, owner-only, re-read
//!   and compared), `pre_destroy` commands under the guard rules, a destroy plan in which every
//!   destroy needs its own approval (`ward stack approve`), apply, then proof: the state is empty,
//!   and every root that remains plans with no changes.
//! - **Journal** ([`journal`]): every run root by root in ward's history store; a run stops at
//!   the first failure with its exit code, and [`resume()`] re-verifies what finished before it
//!   continues. [`status()`] shows the last run.

mod apply;
mod approve;
mod backup;
mod gate;
pub mod journal;
mod order;
mod plan;
pub mod report;
mod resume;
mod run;
mod status;
mod teardown;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_backup;

pub use apply::apply;
pub use approve::{approve, Approved};
pub use gate::ApproveArgs;
pub use plan::plan;
pub use resume::resume;
pub use status::status;
use std::path::PathBuf;
pub use teardown::teardown;
use ward_config::Config;
use ward_model::Exit;
use ward_terraform::Binary;

/// Reads environment variables (injectable for tests): the approvals' key and guard bypasses.
/// The process environment in `ward`.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Why a stack command could not run at all (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum StackError {
    /// The stack cannot be run as declared or asked.
    #[error("{0}")]
    Usage(String),
}

impl StackError {
    /// Its exit code.
    pub fn exit(&self) -> Exit {
        Exit::Usage
    }
}

pub(crate) fn usage(s: impl Into<String>) -> StackError {
    StackError::Usage(s.into())
}

/// A step starting: how many steps came before it, of how many, the instance (`root/site`),
/// and what the step is (`plan`, `apply`, `teardown`).
pub type Progress = fn(done: usize, total: usize, instance: &str, what: &str);

/// Everything a stack command needs: values the caller read once (ward-cli's run context).
pub struct Options {
    /// `ward.hcl`, read.
    pub config: Config,
    /// What plans are classified with: the built-in packs and `config`'s rules.
    pub knowledge: ward_rules::Knowledge,
    /// Who approves when `ward stack approve` is given no `--by` (in `ward`: `WARD_APPROVER`,
    /// else `USER`, else `LOGNAME`).
    pub approver: Option<String>,
    /// The directory roots' paths are relative to (the directory of `ward.hcl`).
    pub repo: PathBuf,
    /// `--site`.
    pub site: Option<String>,
    /// `--root` (teardown only).
    pub root: Option<String>,
    /// The Terraform/OpenTofu binaries found ([`ward_terraform::binary::find_binaries`]).
    pub binaries: Vec<Binary>,
    /// The history (a SQLite file or a PostgreSQL database), chosen once by the caller: the
    /// journal, the gate's adoption check and its audit trail all use it.
    pub db: ward_store::Location,
    /// The clock.
    pub clock: ward_time::Clock,
    /// Told of each step as it starts (ward-cli prints it on standard error when that is a
    /// terminal); `None`: nobody is told. The stack itself writes nothing.
    pub progress: Option<Progress>,
    /// Variables set for every Terraform run (besides the inherited environment, whose `TF_*`
    /// variables are removed except the allow-list's).
    pub env: Vec<(String, String)>,
    /// The `PATH` ward runs with, as the caller read it (`None`: unset): where a Terragrunt
    /// unit's `terragrunt` is looked for when `env` sets no `PATH` ([`ward_terraform::runner_for`]).
    pub path: Option<std::ffi::OsString>,
}

/// The variable a read root's outputs are passed as (ward-terraform owns the rule: `ward drift`
/// passes them the same way).
pub use ward_terraform::variable_name;
