//! `ward import accept`: the pure half. The CLI runs Terraform (through ward-terraform); this
//! module decides: is the saved plan the one that passed `check` (by digest), are the plans
//! after apply empty, and what the acceptance record holds.

use crate::check::CheckReport;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ward_model::{Action, Plan};

/// The record kind in ward's history store.
pub const KIND: &str = "import-acceptance";

/// The acceptance body's version.
pub const ACCEPTANCE_VERSION: u32 = 1;

/// The body of an `import-acceptance` record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acceptance {
    /// [`ACCEPTANCE_VERSION`].
    pub schema_version: u32,
    /// The root, as recorded (its name in ward.hcl, else its path).
    pub root: String,
    /// address → import id, every adopted object.
    pub ids: BTreeMap<String, String>,
    /// The digest of the plan that was checked and applied.
    pub plan_digest: String,
    /// The state's lineage after the apply.
    pub lineage: String,
    /// The state's serial after the apply.
    pub serial: i64,
    /// The binary that applied it (path as found).
    pub binary: String,
    /// `terraform` or `tofu`.
    pub product: String,
    /// Its version.
    pub version: String,
    /// When (UTC, RFC 3339).
    pub accepted_at: String,
}

/// The saved plan is the plan that passed: the check record passed, and the digests agree.
pub fn bind(record: &CheckReport, planfile_digest: &str) -> Result<(), String> {
    if !record.passed {
        return Err(format!(
            "the check record says the plan did not pass ({} problems); fix them, plan again and run `ward import check` until it passes",
            record.problems.len()
        ));
    }
    if record.plan_digest != planfile_digest {
        return Err(format!(
            "the saved plan is not the plan that was checked (checked {}, saved plan {}): run `ward import check` on this plan's JSON",
            record.plan_digest, planfile_digest
        ));
    }
    Ok(())
}

/// The changes a plan still makes, one line each (empty: the plan is empty). Reads resource
/// changes and, for a refresh-only plan, `resource_drift`: never the exit code (Terraform's
/// `-detailed-exitcode` is 2 for an import-only plan, and not reliable for refresh-only plans).
pub fn remaining(plan: &Plan) -> Vec<String> {
    let mut v: Vec<String> = plan
        .changes
        .iter()
        .filter(|c| {
            !matches!(c.action, Action::NoOp | Action::Read | Action::Open) || c.importing.is_some()
        })
        .map(|c| {
            if c.importing.is_some() {
                format!("{}: still importing", c.address)
            } else {
                format!("{}: {}", c.address, c.action.as_terraform())
            }
        })
        .collect();
    v.extend(
        plan.drift
            .iter()
            .filter(|c| c.action != Action::NoOp)
            .map(|c| format!("{}: drift ({})", c.address, c.action.as_terraform())),
    );
    v.extend(
        plan.output_changes
            .iter()
            .filter(|o| o.action != Action::NoOp)
            .map(|o| format!("output {}: {}", o.name, o.action.as_terraform())),
    );
    if plan.errored {
        v.push("the plan is errored".into());
    }
    v.sort();
    v
}

/// Every object of the acceptance is in the state at its address with its id; the lines say
/// what is not.
pub fn state_matches(
    ids: &BTreeMap<String, String>,
    state: &crate::check::ManagedIds,
) -> Vec<String> {
    let by_addr: BTreeMap<&str, &str> = state
        .ids
        .iter()
        .map(|((_, id), a)| (a.as_str(), id.as_str()))
        .collect();
    let mut out = Vec::new();
    for (a, id) in ids {
        match by_addr.get(a.as_str()) {
            None => out.push(format!("{a} is not in the state after apply")),
            Some(got) if got != id => {
                out.push(format!(
                    "{a} has id {got:?} in state; the inventory gives {id:?}"
                ));
            }
            Some(_) => {}
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn report(passed: bool) -> CheckReport {
        CheckReport {
            schema_version: 1,
            plan: "p".into(),
            inventory: "i".into(),
            plan_digest: "sha256:a".into(),
            terraform_version: None,
            passed,
            objects: vec![],
            problems: vec![],
        }
    }

    #[test]
    fn binds_by_digest_and_outcome() {
        assert!(bind(&report(true), "sha256:a").is_ok());
        assert!(bind(&report(true), "sha256:b")
            .unwrap_err()
            .contains("not the plan that was checked"));
        assert!(bind(&report(false), "sha256:a")
            .unwrap_err()
            .contains("did not pass"));
    }

    #[test]
    fn state_must_hold_every_id() {
        let mut ids = BTreeMap::new();
        ids.insert("x_a.b".to_string(), "1".to_string());
        ids.insert("x_a.c".to_string(), "2".to_string());
        let mut st = crate::check::ManagedIds::default();
        st.ids.insert(("x_a".into(), "1".into()), "x_a.b".into());
        st.ids.insert(("x_a".into(), "9".into()), "x_a.c".into());
        let v = state_matches(&ids, &st);
        assert_eq!(
            v,
            ["x_a.c has id \"9\" in state; the inventory gives \"2\""]
        );
    }
}
