//! `ward import`: adopt a live fleet into Terraform without rebuilding it, and record the
//! zero-diff acceptance before the first managed change (FIELD-NOTES 16).
//!
//! ```text
//! inventory (JSON) ──inventory──▶ Inventory ──write──▶ import blocks / `terraform import` commands, scratch HCL
//! plan JSON ──ward-plan──▶ Plan ──check(Inventory, other roots' ids)──▶ CheckReport ──ward_report::import──▶ terminal / JSON / Markdown
//! CheckReport + saved plan ──accept──▶ apply, empty plans ──▶ Acceptance ──ward-store (`import-acceptance`)
//! ```
//!
//! - [`inventory`]: the inventory reader, within a [`inventory::Budget`];
//! - [`address`]: resource instance addresses;
//! - [`write`](mod@write): import blocks (`for_each` where supported) or import commands, by product and
//!   version, and the normalised scratch configuration;
//! - [`check`](mod@check): the check of a plan against the inventory;
//! - [`state`]: ids, lineage and serial from a state;
//! - [`adoption`]: where a root stands (being adopted, accepted), for `ward gate`;
//! - [`accept`]: binding the saved plan to its check, the empty-plan test, the record body.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod accept;
pub mod address;
pub mod adoption;
pub mod check;
pub mod inventory;
pub mod state;
pub mod write;

pub use accept::Acceptance;
pub use check::{check, CheckInput, CheckReport};
pub use inventory::{Budget, Inventory};
