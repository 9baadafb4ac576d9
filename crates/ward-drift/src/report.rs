//! What a `ward drift` run found: each root's result ([`RootResult`]) and the whole run's
//! ([`Report`]), which ward-report renders and `notify` sends.

use crate::outcome::{DriftItem, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;
use ward_model::Exit;
use ward_store::{StateMark, Transition};

/// One root's result.
#[derive(Debug, Clone, Serialize)]
pub struct RootResult {
    /// The root's name (its `ward.hcl` label; the path when undeclared), `ROOT/SITE` for one
    /// site of a root with `site` blocks ([`crate::instance_name`]).
    pub name: String,
    /// The stack site checked, for a root with `site` blocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Repository-relative directory.
    pub path: String,
    /// The outcome.
    pub outcome: Outcome,
    /// Why, in plain sentences (failure reasons, exclusion reason, what was found).
    pub detail: Vec<String>,
    /// The binary used, e.g. `terraform 1.11.4`.
    pub binary: Option<String>,
    /// Why that binary.
    pub binary_because: Option<String>,
    /// The state's lineage and serial, when read.
    pub state: Option<StateMark>,
    /// Drift items (suppressed ones included, marked).
    pub drift: Vec<DriftItem>,
    /// How many drift items ignore rules suppressed.
    pub suppressed: usize,
    /// Outputs that would change.
    pub outputs: Vec<String>,
    /// Pending code changes (with `--pending`).
    pub pending: Vec<String>,
    /// Finding transitions recorded for this root in this run.
    pub transitions: Vec<Transition>,
    /// Wall time in milliseconds (printed only with `--timestamps`).
    #[serde(skip)]
    pub millis: u128,
}

impl RootResult {
    /// A root's result with nothing found yet: no binary, state, drift or outputs.
    pub fn new(name: &str, path: &str, outcome: Outcome, detail: Vec<String>) -> RootResult {
        RootResult {
            name: name.to_string(),
            site: None,
            path: path.to_string(),
            outcome,
            detail,
            binary: None,
            binary_because: None,
            state: None,
            drift: Vec::new(),
            suppressed: 0,
            outputs: Vec::new(),
            pending: Vec::new(),
            transitions: Vec::new(),
            millis: 0,
        }
    }
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The JSON schema version.
    pub schema_version: u32,
    /// The shard, `K/N`, when sharded.
    pub shard: Option<String>,
    /// Roots discovered (in this shard).
    pub discovered: usize,
    /// Roots checked (discovered, not excluded).
    pub checked: usize,
    /// Roots excluded.
    pub excluded: usize,
    /// Roots declared in `ward.hcl` but not found on disk (in this shard).
    pub declared_missing: usize,
    /// Every root, sorted by path.
    pub roots: Vec<RootResult>,
    /// How many roots ended in each outcome (every outcome present).
    pub counts: BTreeMap<String, usize>,
    /// Every transition, sorted.
    pub transitions: Vec<Transition>,
    /// Drift items suppressed by ignore rules, in total.
    pub suppressed: usize,
    /// Ignore rules past their expiry (they suppress nothing any more).
    pub expired_ignores: Vec<String>,
    /// Run-level problems (zero roots, files that could not be parsed...).
    pub problems: Vec<String>,
    /// How the run ends: [`Exit::RootFailed`] when a root (or the root set) failed
    /// (missing-state, state-replaced, error, mismatch, zero roots; `torn-down` does not), else [`Exit::DriftAlert`]
    /// when a finding is new or escalated, else [`Exit::Pass`]; [`Exit::Usage`] when the run
    /// would pass but the webhook failed ([`Report::webhook_failed`]). JSON: `exit_code`, the number.
    #[serde(
        rename = "exit_code",
        serialize_with = "ward_model::exit::serialize_code"
    )]
    pub exit: Exit,
    /// The run's id in the history database.
    #[serde(skip)]
    pub run_id: i64,
    /// When the run started (UTC); printed only with `--timestamps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
}

impl Report {
    /// Records that the `--notify` webhook failed (`error`, which names the webhook redacted).
    /// A failed alert must not pass silently: the error is added to the report's problems and a
    /// run that would have passed ends with [`Exit::Usage`] (a failed root or a drift alert keeps
    /// its own exit), so the report rendered afterwards and the process agree.
    pub fn webhook_failed(&mut self, error: &str) {
        self.problems.push(error.to_string());
        if self.exit == Exit::Pass {
            self.exit = Exit::Usage;
        }
    }

    /// The invariant printed in every report: discovered = checked + excluded (roots, i.e.
    /// directories); when roots with stack `site` blocks were checked once per site, how many
    /// such site checks the outcomes count.
    pub fn invariant(&self) -> String {
        let base = format!(
            "discovered {} = checked {} + excluded {}",
            self.discovered, self.checked, self.excluded
        );
        match self.roots.iter().filter(|r| r.site.is_some()).count() {
            0 => base,
            n => format!("{base} ({n} checks of roots at their stack sites, one per site)"),
        }
    }
}
