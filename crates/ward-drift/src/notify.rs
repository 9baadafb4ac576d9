//! Alerts on transitions: a JSON POST to a webhook.
//!
//! Sent only when the run has transitions (new, escalated or resolved findings); a run whose drift
//! merely persists sends nothing. The body is [`Payload`].

use crate::Report;
use serde::Serialize;
use ward_store::Transition;

/// The webhook's JSON body.
#[derive(Debug, Serialize)]
pub struct Payload<'a> {
    /// Always `ward-drift`.
    pub source: &'static str,
    /// The body's schema version.
    pub schema_version: u32,
    /// The run's id in the history database.
    pub run_id: i64,
    /// The shard, when sharded.
    pub shard: Option<&'a str>,
    /// A one-line summary, e.g. `2 new, 1 resolved`.
    pub summary: String,
    /// The transitions, sorted.
    pub transitions: &'a [Transition],
}

/// The body for a report.
pub fn payload(report: &Report) -> Payload<'_> {
    let mut counts = std::collections::BTreeMap::new();
    for t in &report.transitions {
        *counts.entry(t.kind.as_str()).or_insert(0usize) += 1;
    }
    let summary = counts
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    Payload {
        source: "ward-drift",
        schema_version: 1,
        run_id: report.run_id,
        shard: report.shard.as_deref(),
        summary,
        transitions: &report.transitions,
    }
}

/// POSTs the report's transitions to `url` when there are any. Returns whether it sent.
pub fn send(url: &str, report: &Report) -> Result<bool, String> {
    if report.transitions.is_empty() {
        return Ok(false);
    }
    let body = serde_json::to_string(&payload(report)).map_err(|e| e.to_string())?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(20)))
        .build()
        .into();
    agent
        .post(url)
        .header("Content-Type", "application/json")
        .header(
            "User-Agent",
            concat!("ward-drift/", env!("CARGO_PKG_VERSION")),
        )
        .send(body.as_str())
        .map_err(|e| format!("the --notify webhook {url} failed: {e}"))?;
    Ok(true)
}
