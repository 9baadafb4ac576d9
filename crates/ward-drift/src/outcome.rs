//! A root's outcome, read from the JSON of its plans (never from Terraform's exit code).

use serde::Serialize;
use ward_model::{Action, Mode, Plan};

/// The outcome of one root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// State present and continuous; refresh found nothing changed outside Terraform.
    Clean,
    /// Refresh found objects changed or deleted outside Terraform.
    Drifted,
    /// Only outputs would change (a code change to an output): not drift.
    OutputOnly,
    /// No drift, but the code has changes not yet applied (`--pending`).
    PendingChange,
    /// The state is absent (0 bytes), not JSON, or holds no resources (unless `expect_empty`).
    MissingState,
    /// The state's lineage differs from the recorded one, or its serial went backwards.
    StateReplaced,
    /// The state lock is held by someone else: reported busy, never run with `-lock=false`.
    Locked,
    /// Something failed: binary selection, init, plan, a timeout.
    Error,
    /// Excluded in `ward.hcl`, with a reason.
    Excluded,
    /// Discovered on disk but not declared, or declared but not found.
    Mismatch,
    /// Its state is empty (or absent) because a recorded `ward stack teardown` emptied it:
    /// expected, not a failure; the detail names the run.
    TornDown,
}

impl Outcome {
    /// Every outcome, in report order.
    pub const ALL: [Outcome; 11] = [
        Outcome::Clean,
        Outcome::Drifted,
        Outcome::OutputOnly,
        Outcome::PendingChange,
        Outcome::MissingState,
        Outcome::StateReplaced,
        Outcome::Locked,
        Outcome::Error,
        Outcome::Excluded,
        Outcome::Mismatch,
        Outcome::TornDown,
    ];

    /// The outcome's name as reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Clean => "clean",
            Outcome::Drifted => "drifted",
            Outcome::OutputOnly => "output-only",
            Outcome::PendingChange => "pending-change",
            Outcome::MissingState => "missing-state",
            Outcome::StateReplaced => "state-replaced",
            Outcome::Locked => "locked",
            Outcome::Error => "error",
            Outcome::Excluded => "excluded",
            Outcome::Mismatch => "mismatch",
            Outcome::TornDown => "torn-down",
        }
    }

    /// True when this outcome fails the run (exit code 7).
    pub fn fails(self) -> bool {
        matches!(
            self,
            Outcome::MissingState | Outcome::StateReplaced | Outcome::Error | Outcome::Mismatch
        )
    }

    /// True when the refresh-only plan was read, so the drift findings are complete.
    pub fn checked_drift(self) -> bool {
        matches!(
            self,
            Outcome::Clean | Outcome::Drifted | Outcome::OutputOnly | Outcome::PendingChange
        )
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One object changed outside Terraform.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DriftItem {
    /// Resource instance address.
    pub address: String,
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// `update` (attributes changed) or `delete` (the object is gone).
    pub action: String,
    /// The attribute paths that changed (`(deleted)` for a deleted object).
    pub attributes: Vec<String>,
    /// The impact of each attribute's change, in the order of `attributes`.
    pub attribute_impacts: Vec<String>,
    /// The worst impact (the class per ward's knowledge, or `unclassified`).
    pub impact: String,
    /// Whether the object holds data, per ward's knowledge.
    pub holds_data: bool,
    /// Set when an ignore rule suppresses this item: the rule, described.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed_by: Option<String>,
}

/// The name of a finding attribute for a deleted object.
pub const DELETED: &str = "(deleted)";

/// Drift items from a refresh-only plan's `resource_drift`, classified by `ward_classify::assess`
/// with the same knowledge as `ward plan`, sorted by address.
pub fn drift_items(plan: &Plan, knowledge: &ward_rules::Knowledge) -> Vec<DriftItem> {
    let assessment = ward_classify::assess(
        plan,
        knowledge,
        &ward_classify::Options {
            allow_unclassified: true,
        },
    );
    let mut out: Vec<DriftItem> = assessment
        .drift
        .iter()
        .filter(|v| v.mode == Mode::Managed && v.action != Action::NoOp)
        .map(|v| {
            let impact = if v.classified {
                v.impact.to_string()
            } else {
                ward_store::UNCLASSIFIED.to_string()
            };
            let (attributes, attribute_impacts) = if v.action.destroys() {
                (vec![DELETED.to_string()], vec![impact.clone()])
            } else if v.attributes.is_empty() {
                // Terraform says the object changed but no attribute differs in the JSON:
                // still drift (fail closed), on the object as a whole.
                (vec!["*".to_string()], vec![impact.clone()])
            } else {
                (
                    v.attributes
                        .iter()
                        .map(|a| a.change.path.to_string())
                        .collect(),
                    v.attributes
                        .iter()
                        .map(|a| {
                            if v.classified {
                                a.impact.to_string()
                            } else {
                                impact.clone()
                            }
                        })
                        .collect(),
                )
            };
            DriftItem {
                address: v.address.clone(),
                type_name: v.type_name.to_string(),
                action: if v.action.destroys() {
                    "delete".into()
                } else {
                    v.action.as_terraform().into()
                },
                attributes,
                attribute_impacts,
                impact,
                holds_data: v.holds_data,
                suppressed_by: None,
            }
        })
        .collect();
    out.sort_by(|a, b| a.address.cmp(&b.address));
    out
}

/// Output names that would change, sorted.
pub fn output_changes(plan: &Plan) -> Vec<String> {
    let mut v: Vec<String> = plan
        .output_changes
        .iter()
        .filter(|o| o.action != Action::NoOp)
        .map(|o| format!("{} ({})", o.name, o.action))
        .collect();
    v.sort();
    v
}

/// Pending code changes in a normal plan: addresses with their action, sorted.
pub fn pending_changes(plan: &Plan) -> Vec<String> {
    let mut v: Vec<String> = plan
        .changes
        .iter()
        .filter(|c| c.action.is_change())
        .map(|c| format!("{} ({})", c.address, c.action))
        .collect();
    v.sort();
    v
}

/// The outcome from what the plans showed: drift (unsuppressed) wins, then pending code
/// changes, then output-only changes, else clean.
pub fn decide(active_drift: usize, outputs: &[String], pending: &[String]) -> Outcome {
    if active_drift > 0 {
        Outcome::Drifted
    } else if !pending.is_empty() {
        Outcome::PendingChange
    } else if !outputs.is_empty() {
        Outcome::OutputOnly
    } else {
        Outcome::Clean
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use ward_model::{AttrChange, AttrPath, OutputChange, PathStep, ResourceChange, Shown};

    fn rc(addr: &str, ty: &str, action: Action, changed: &[&str]) -> ResourceChange {
        ResourceChange {
            address: addr.into(),
            previous_address: None,
            module_address: None,
            mode: Mode::Managed,
            type_name: ty.into(),
            name: "x".into(),
            index: None,
            provider_name: "registry.terraform.io/ward/fakecloud".into(),
            deposed: None,
            action,
            action_reason: None,
            replace_paths: vec![],
            changed: changed
                .iter()
                .map(|p| AttrChange {
                    path: AttrPath(p.split('.').map(|k| PathStep::Key(k.to_string())).collect()),
                    before: Shown::Known("a".into()),
                    after: Shown::Known("b".into()),
                    hidden: None,
                })
                .collect(),
            importing: None,
            content: None,
            before_scalars: Vec::new(),
            after_scalars: Vec::new(),
            changed_left_out: 0,
        }
    }

    #[test]
    fn outcomes_from_plan_json_not_exit_codes() {
        let k = ward_rig::rules::knowledge().unwrap();
        let mut p = Plan::default();
        assert_eq!(
            decide(drift_items(&p, &k).len(), &output_changes(&p), &[]),
            Outcome::Clean
        );
        p.output_changes.push(OutputChange {
            name: "ip".into(),
            action: Action::Create,
            sensitive: false,
        });
        // The output-only change that makes `plan -refresh-only -detailed-exitcode` exit 2.
        assert_eq!(decide(0, &output_changes(&p), &[]), Outcome::OutputOnly);
        assert_eq!(
            decide(0, &output_changes(&p), &["a (update)".into()]),
            Outcome::PendingChange
        );
        p.drift.push(rc(
            "fakecloud_volume.v",
            "fakecloud_volume",
            Action::Delete,
            &[],
        ));
        p.drift.push(rc(
            "fakecloud_instance.a",
            "fakecloud_instance",
            Action::Update,
            &["tags.env", "size"],
        ));
        p.drift.push(rc(
            "fakecloud_instance.b",
            "fakecloud_instance",
            Action::NoOp,
            &[],
        ));
        p.drift.push(rc(
            "mystery_thing.m",
            "mystery_thing",
            Action::Update,
            &["x"],
        ));
        let items = drift_items(&p, &k);
        assert_eq!(items.len(), 3, "{items:?}");
        let a = &items[0];
        assert_eq!(a.address, "fakecloud_instance.a");
        assert_eq!(a.impact, "interrupt", "{a:?}");
        let free = a.attributes.iter().position(|x| x == "tags.env").unwrap();
        assert_eq!(
            a.attribute_impacts[free], "free",
            "drift on a tag is not drift on a size: {a:?}"
        );
        let v = &items[1];
        assert_eq!(v.attributes, vec![DELETED.to_string()]);
        assert!(v.holds_data);
        assert_eq!(v.impact, "data-loss");
        assert_eq!(items[2].impact, "unclassified");
        assert_eq!(
            decide(items.len(), &output_changes(&p), &[]),
            Outcome::Drifted
        );
    }
}
