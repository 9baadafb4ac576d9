//! `ward import accept`: the pure half. The CLI runs Terraform (through ward-terraform); this
//! module decides: is the saved plan the one that passed `check` (by digest), are the plans
//! after apply empty, and what the acceptance record holds.

use crate::check::CheckReport;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use ward_model::{Action, Plan};
use ward_store::{NewRecord, Store, StoreError};
use ward_terraform::{PlanArgs, SavedPlan, Workspace};

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

/// Appends the acceptance to the store (kind [`KIND`], key: the plan digest).
pub fn record(store: &mut Store, a: &Acceptance) -> Result<(), StoreError> {
    let body = serde_json::to_value(a).map_err(|e| StoreError::Record(e.to_string()))?;
    store
        .append_record(&NewRecord {
            kind: KIND,
            root: &a.root,
            key: &a.plan_digest,
            recorded_at: &a.accepted_at,
            body: &body,
        })
        .map(|_| ())
}

/// What [`run`] needs.
pub struct AcceptInput<'a> {
    /// The root's workspace (binary, directory, timeout).
    pub workspace: &'a Workspace,
    /// The saved plan that was checked.
    pub planfile: &'a Path,
    /// The check record (`ward import check --record`).
    pub record: &'a CheckReport,
    /// The root's name in the store ([`crate::adoption::root_key`]).
    pub root: &'a str,
    /// The plan digest (ward-gate's digests, as `ward import check` computed it).
    pub digest: &'a dyn Fn(&Plan) -> String,
    /// Now (UTC, RFC 3339).
    pub now: &'a str,
}

/// `ward import accept`: bind the saved plan to its passed check, apply exactly it, require
/// an empty plan and an empty refresh-only plan, require every object in the state at its
/// address with its id, and record the acceptance. Stops at the first step that fails.
pub fn run(input: &AcceptInput<'_>, store: &mut Store) -> AcceptReport {
    let mut report = AcceptReport {
        root: input.root.to_string(),
        accepted: false,
        steps: Vec::new(),
        acceptance: None,
    };
    let step = |name: &str, detail: Vec<String>| Step {
        name: name.to_string(),
        ok: detail.is_empty(),
        detail,
    };
    let ws = input.workspace;
    // 1. The saved plan is the one that passed.
    let plan = match ws.show_json(input.planfile) {
        Ok((_, plan)) => plan,
        Err(e) => {
            report.steps.push(step("bind", vec![e.to_string()]));
            return report;
        }
    };
    let digest = (input.digest)(&plan);
    let bound = bind(input.record, &digest).err().into_iter().collect();
    report.steps.push(step("bind", bound));
    if !report.steps.iter().all(|s| s.ok) {
        return report;
    }
    // 2. Apply exactly it.
    let saved = SavedPlan {
        path: input.planfile.to_path_buf(),
        json_path: input.planfile.to_path_buf(),
        plan,
        has_changes: true,
        objects: Default::default(),
        json_sha256: String::new(),
    };
    let applied = ws.apply_saved(&saved).err().map(|e| e.to_string());
    report
        .steps
        .push(step("apply", applied.into_iter().collect()));
    if !report.steps.iter().all(|s| s.ok) {
        return report;
    }
    // 3. and 4. A normal plan and a refresh-only plan, both empty (read from the JSON: an
    // import-only plan exits 2, and refresh-only exit codes are not reliable).
    for (name, refresh_only) in [("plan", false), ("refresh-only", true)] {
        let detail = match ws.plan(&PlanArgs {
            refresh_only,
            name: Some(format!("after-{name}")),
            ..PlanArgs::default()
        }) {
            Ok(p) => remaining(&p.plan),
            Err(e) => vec![e.to_string()],
        };
        report.steps.push(step(name, detail));
        if !report.steps.iter().all(|s| s.ok) {
            return report;
        }
    }
    // 5. Every object in the state, with its id.
    let ids = input.record.ids();
    let pulled = match ws.state_pull() {
        Ok(p) => p,
        Err(e) => {
            report.steps.push(step("state", vec![e.to_string()]));
            return report;
        }
    };
    let state: serde_json::Value = match serde_json::from_slice(&pulled.bytes) {
        Ok(v) => v,
        Err(e) => {
            report.steps.push(step(
                "state",
                vec![format!("`state pull` did not print JSON: {e}")],
            ));
            return report;
        }
    };
    let (mark, managed) = match (
        crate::state::mark(&state),
        crate::state::managed_ids(input.root, &state),
    ) {
        (Ok(m), Ok(ids)) => (m, ids),
        (Err(e), _) | (_, Err(e)) => {
            report.steps.push(step("state", vec![e]));
            return report;
        }
    };
    report
        .steps
        .push(step("state", state_matches(&ids, &managed)));
    if !report.steps.iter().all(|s| s.ok) {
        return report;
    }
    // 6. The record.
    let b = ws.binary();
    let acceptance = Acceptance {
        schema_version: ACCEPTANCE_VERSION,
        root: input.root.to_string(),
        ids,
        plan_digest: digest,
        lineage: mark.lineage,
        serial: mark.serial,
        binary: b.path.display().to_string(),
        product: b.product.to_string(),
        version: b.version.to_string(),
        accepted_at: input.now.to_string(),
    };
    let recorded = record(store, &acceptance).err().map(|e| e.to_string());
    report
        .steps
        .push(step("record", recorded.into_iter().collect()));
    report.accepted = report.steps.iter().all(|s| s.ok);
    if report.accepted {
        report.acceptance = Some(acceptance);
    }
    report
}

/// One step of `ward import accept`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// `bind`, `apply`, `plan`, `refresh-only`, `state`, `record`.
    pub name: String,
    /// Whether it passed.
    pub ok: bool,
    /// What it found, one line each (what still changes, why it failed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub detail: Vec<String>,
}

/// What `ward import accept` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptReport {
    /// The root, as recorded.
    pub root: String,
    /// Whether the root is now accepted (the record was written).
    pub accepted: bool,
    /// The steps, in the order they ran; the first that failed is the last.
    pub steps: Vec<Step>,
    /// The record written, when accepted.
    pub acceptance: Option<Acceptance>,
}
