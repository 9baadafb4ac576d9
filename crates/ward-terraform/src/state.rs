//! What `state pull` printed: lineage, serial, resources, provider hosts.
//!
//! Terraform's own exit codes say nothing about an absent state: with no state at all,
//! `state pull` prints 0 bytes and exits 0.

use serde::Serialize;
use std::collections::BTreeSet;

/// What the pulled state is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateInfo {
    /// `lineage`.
    pub lineage: String,
    /// `serial`.
    pub serial: i64,
    /// `terraform_version` (OpenTofu writes its own version here).
    pub terraform_version: Option<String>,
    /// How many resources (`resources` entries) it holds.
    pub resources: usize,
    /// Registry hosts of the providers named in it.
    pub provider_hosts: BTreeSet<String>,
}

/// Parses what `state pull` printed.
pub fn parse(bytes: &[u8]) -> Result<StateInfo, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("`state pull` printed nothing (0 bytes): there is no state".into());
    }
    let v: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| format!("`state pull` did not print valid JSON ({e})"))?;
    let lineage = v
        .get("lineage")
        .and_then(|l| l.as_str())
        .filter(|l| !l.is_empty())
        .ok_or("the pulled state has no lineage")?
        .to_string();
    let serial = v
        .get("serial")
        .and_then(serde_json::Value::as_i64)
        .ok_or("the pulled state has no serial")?;
    let mut provider_hosts = BTreeSet::new();
    let resources = match v.get("resources").and_then(|r| r.as_array()) {
        Some(rs) => {
            for r in rs {
                if let Some(p) = r.get("provider").and_then(|p| p.as_str()) {
                    if let Some(h) = provider_host(p) {
                        provider_hosts.insert(h);
                    }
                }
            }
            rs.len()
        }
        None => 0,
    };
    Ok(StateInfo {
        lineage,
        serial,
        terraform_version: v
            .get("terraform_version")
            .and_then(|s| s.as_str())
            .map(str::to_string),
        resources,
        provider_hosts,
    })
}

/// `provider["registry.terraform.io/hashicorp/null"]` → `registry.terraform.io`.
fn provider_host(p: &str) -> Option<String> {
    let start = p.find("[\"")? + 2;
    let inner = &p[start..];
    let end = inner.find('"')?;
    let addr = &inner[..end];
    let parts: Vec<&str> = addr.split('/').collect();
    (parts.len() == 3).then(|| parts[0].to_string())
}
