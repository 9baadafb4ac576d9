//! The gate record: what `ward gate` gated, so `ward verify` can check at apply time that the
//! saved plan about to be applied is that plan.
//!
//! It lists every change of the plan with its *full* digest (the whole normalized change, not
//! only the deciding attributes), and the gate's outcome. Written with `ward gate --record FILE`.

use crate::digest::full_digest;
use crate::error::GateError;
use crate::Outcome;
use serde::{Deserialize, Serialize};
use std::path::Path;
use ward_model::Plan;

/// One change as gated.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedChange {
    /// Address.
    pub address: String,
    /// Deposed key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// Action, Terraform spelling.
    pub action: String,
    /// Full digest of the normalized change.
    pub digest: String,
}

/// The gate record file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateRecord {
    /// Format version: 1.
    pub version: u32,
    /// The plan as named to `ward gate`.
    pub plan: String,
    /// `terraform`, `opentofu` or `unknown`.
    pub product: String,
    /// `terraform_version` of the plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terraform_version: Option<String>,
    /// The gate's outcome for this plan.
    pub outcome: Outcome,
    /// Every change (`resource_changes`), sorted by address and deposed key.
    pub changes: Vec<RecordedChange>,
}

/// Every change of a plan with its full digest, sorted.
pub fn changes_of(plan: &Plan) -> Vec<RecordedChange> {
    let mut v: Vec<RecordedChange> = plan
        .changes
        .iter()
        .map(|c| RecordedChange {
            address: c.address.clone(),
            deposed: c.deposed.clone(),
            action: c.action.as_terraform().to_string(),
            digest: full_digest(c),
        })
        .collect();
    v.sort();
    v
}

/// Builds the record of a gated plan.
pub fn build(plan: &Plan, plan_name: &str, outcome: Outcome) -> GateRecord {
    GateRecord {
        version: 1,
        plan: plan_name.to_string(),
        product: serde_json::to_value(plan.product)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| "unknown".into()),
        terraform_version: plan.terraform_version.clone(),
        outcome,
        changes: changes_of(plan),
    }
}

/// Writes a record.
pub fn save(path: &Path, r: &GateRecord) -> Result<(), GateError> {
    let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
    s.push('\n');
    crate::write_atomic(path, s.as_bytes())
}

/// Reads a record.
pub fn load(path: &Path) -> Result<GateRecord, GateError> {
    let text = std::fs::read_to_string(path).map_err(|e| GateError::Io {
        path: path.display().to_string(),
        action: "read the gate record (written by `ward gate --record FILE`)",
        source: e,
    })?;
    let r: GateRecord = serde_json::from_str(&text).map_err(|e| {
        GateError::Verify(format!(
            "{}: not a ward gate record ({e}); write one with `ward gate PLAN --record FILE`",
            path.display()
        ))
    })?;
    if r.version != 1 {
        return Err(GateError::Verify(format!(
            "{}: gate record version {} is not supported (expected 1)",
            path.display(),
            r.version
        )));
    }
    Ok(r)
}
