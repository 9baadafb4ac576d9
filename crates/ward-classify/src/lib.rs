//! Evaluation: a verdict per change, the coverage gate and explanations
//! (being written; the types below are the contract `ward-report` renders).

use serde::Serialize;
use std::collections::BTreeMap;
use ward_model::{Action, AttrChange, AttrPath, FormatVersion, Impact, Mode, OutputChange, Product};
use ward_rules::{PackInfo, RuleRef};

/// Everything ward concluded about one plan. Deterministic: verdicts sorted by address, then
/// deposed key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    /// About the plan itself.
    pub plan: PlanInfo,
    /// The knowledge that produced these verdicts: built-in packs and user rule files.
    pub knowledge: KnowledgeUsed,
    /// One verdict per `resource_changes` entry (no-ops and reads included, with impact none).
    pub verdicts: Vec<Verdict>,
    /// `resource_drift`, classified the same way, as context.
    pub drift: Vec<Verdict>,
    /// `output_changes`, as context.
    pub outputs: Vec<OutputChange>,
    /// The coverage gate.
    pub coverage: Coverage,
}

impl Assessment {
    /// The worst impact among classified verdicts (`None` when there are none).
    pub fn max_impact(&self) -> Impact {
        self.verdicts.iter().map(|v| v.impact).max().unwrap_or_default()
    }

    /// How many verdicts fall in each class (every class present, zero included).
    pub fn counts(&self) -> BTreeMap<Impact, usize> {
        let mut m: BTreeMap<Impact, usize> = Impact::ALL.iter().map(|i| (*i, 0)).collect();
        for v in &self.verdicts {
            *m.entry(v.impact).or_default() += 1;
        }
        m
    }
}

/// What the plan says about itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanInfo {
    /// `format_version`.
    pub format_version: FormatVersion,
    /// `terraform_version`.
    pub terraform_version: Option<String>,
    /// Terraform or OpenTofu, when known.
    pub product: Product,
    /// The plan is errored (planning failed part-way): never safe to apply.
    pub errored: bool,
    /// `complete`, when the plan says.
    pub complete: Option<bool>,
}

/// The knowledge used.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KnowledgeUsed {
    /// Built-in packs, by name.
    pub packs: Vec<PackInfo>,
    /// User rule files loaded (`ward.hcl`), in precedence order.
    pub user_files: Vec<String>,
}

/// A fact about a change that is not a cost: reported on its own, next to the impact class.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "fact", rename_all = "kebab-case")]
pub enum Fact {
    /// The change imports an existing object into state.
    Import {
        /// The import id, when known.
        id: Option<String>,
    },
    /// The object moved from another address (`moved` block or rename).
    Move {
        /// `previous_address`.
        from: String,
    },
    /// The object is dropped from state but left running, unmanaged.
    Forget,
    /// The change is to a deposed object (left by an interrupted create_before_destroy).
    Deposed {
        /// The deposed key.
        key: String,
    },
}

/// One changed attribute, with its cost and the rule that set it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttrVerdict {
    /// The change (path, before, after; sensitive values already hidden).
    #[serde(flatten)]
    pub change: AttrChange,
    /// What changing it costs.
    pub impact: Impact,
    /// The rule that said so; `None` when the resource's default for updates applied.
    pub rule: Option<RuleRef>,
    /// Why, in plain words, when the rule says.
    pub why: Option<String>,
    /// This path is in `replace_paths`: it forces replacement.
    pub forces_replacement: bool,
}

/// ward's verdict on one resource change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// Resource instance address.
    pub address: String,
    /// Deposed key, for deposed objects.
    pub deposed: Option<String>,
    /// managed / data / ephemeral.
    pub mode: Mode,
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Provider address.
    pub provider_name: String,
    /// What apply will do.
    pub action: Action,
    /// `action_reason`, as Terraform spells it.
    pub action_reason: Option<String>,
    /// The cost. For an unclassified type this is a placeholder ([`Impact::None`]) and
    /// `classified` is false: the coverage gate fails on it.
    pub impact: Impact,
    /// Whether any rule covered this resource type.
    pub classified: bool,
    /// The rule that set `impact`.
    pub decided_by: Option<RuleRef>,
    /// What will happen and why, in plain sentences, most important first.
    pub explanation: Vec<String>,
    /// The changed attributes with their cost (for updates and replacements).
    pub attributes: Vec<AttrVerdict>,
    /// Identity attributes (id, ip, mac, arn...) that become "known after apply" or are lost.
    pub identity_changes: Vec<AttrPath>,
    /// The object holds data (per the rule).
    pub holds_data: bool,
    /// Facts of their own: import, move, forget, deposed.
    pub facts: Vec<Fact>,
}

/// The coverage gate: every managed resource type seen in the plan must be classified.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Coverage {
    /// Unclassified managed resource types, with where each was seen
    /// (`configuration`, `prior_state`, `resource_changes`).
    pub unclassified: BTreeMap<String, Vec<String>>,
    /// How many distinct managed types were checked.
    pub types_checked: usize,
    /// The gate was relaxed by the user (`--allow-unclassified`): unclassified types are reported
    /// but do not fail the run.
    pub relaxed: bool,
}

impl Coverage {
    /// The gate fails: something is unclassified and the gate was not relaxed.
    pub fn fails(&self) -> bool {
        !self.unclassified.is_empty() && !self.relaxed
    }
}
