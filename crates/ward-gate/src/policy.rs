//! The gate's configuration: the `policy { }` block and `guard "name" { }` blocks of `ward.hcl`.
//!
//! ward-config reads them (the one `ward.hcl` parser, format in `docs/gate.md`); these are its
//! types under the names the gate has always used.

pub use ward_config::policy::{
    bypass_var, Budget, Budgets, Guard, GuardOn, Policy, DEFAULT_APPROVALS, DEFAULT_GUARD_TIMEOUT,
    DEFAULT_PROTECTION_RECORD,
};
