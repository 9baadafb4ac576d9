//! Running Terraform or OpenTofu in a root, one owner for every command that does it
//! (`ward drift`, `ward stack`, `ward import`):
//!
//! - [`binary`]: finding the binaries on this machine and choosing one per root by evidence
//!   (a pin, `.tofu` files, lock-file hosts, `required_version`).
//! - [`exec`]: one Terraform command through ward's one process runner ([`ward_exec`]): its own
//!   process group, a mandatory deadline, the caller's `TF_*` variables removed except those on
//!   the allow-list, Terraform's automation variables, bounded output, Terraform's error lines.
//! - [`offline`]: a module's `fmt -check`, `init -backend=false` and `validate -json` with a
//!   binary the caller names, in a copy with its own `TF_DATA_DIR` (`ward check --exec`).
//! - [`show`]: `show -json` of a saved plan file with a binary the caller names (`ward verify`),
//!   read through ward-plan in bounded memory.
//! - [`state`]: what `state pull` printed (lineage, serial, resources, provider hosts).
//! - [`workspace`]: a [`Workspace`] runs each subcommand in one root (`init`, `plan -out`,
//!   `show -json`, `apply` of a saved plan, `state pull`, `output -json`, destroy plans) and
//!   returns typed results: a saved plan's path and its JSON read through ward-plan, outputs as
//!   JSON with their sha256, pulled state bytes with serial and lineage. Plan files live in an
//!   owner-only scratch directory removed on every exit path. A Terragrunt unit's commands go
//!   through `terragrunt` ([`workspace::runner_for`], decided once for `ward drift` and
//!   `ward stack` alike).

pub mod binary;
mod digest;
pub mod exec;
pub mod offline;
pub mod show;
pub mod state;
pub mod workspace;

pub use binary::{Binary, Evidence, Product, Selection};
pub use digest::sha256;
pub use workspace::{
    config_dir, runner_for, variable_name, OpenError, OpenOptions, Outputs, PlanArgs, PulledState,
    Runner, SavedPlan, Shown, TfError, Workspace,
};
