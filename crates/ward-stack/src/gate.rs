//! The one place ward stack calls ward-gate's library entry points (`ward_gate::run::gate` and
//! `ward_gate::run::approve`): what a stack needs from the gate, behind two small functions, so
//! a change of the gate's API touches only this file.

use crate::Env;
use std::path::Path;
use ward_gate::run::{ApproveOptions, GateOptions, Inputs, APPROVE_EVERY_VAR, CONTEXT_VAR};
use ward_model::Exit;
use ward_report::stack::PendingApproval;

/// What the gate said about one saved plan.
#[derive(Debug, Clone)]
pub(crate) struct Gated {
    /// The gate's exit.
    pub exit: Exit,
    /// Changes needing an approval they do not have.
    pub pending: Vec<PendingApproval>,
    /// Why it refused otherwise (errors, guards, budgets, coverage), one line each.
    pub problems: Vec<String>,
}

/// How a plan is gated: the upstream context bound into every digest, and whether every change
/// needs its own approval (a teardown).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Binding<'a> {
    pub context: Option<&'a str>,
    pub every_change: bool,
}

/// What the gate reads: the plan, the stack's `ward.hcl`, the root, and the stack's own history
/// (where `ward import` records a root being adopted), never the default one.
fn inputs(plan_json: &Path, config: &Path, root_dir: &Path, db: &Path) -> Inputs {
    Inputs {
        plan: plan_json.display().to_string(),
        config: Some(config.to_path_buf()),
        approvals: None,
        root: Some(root_dir.to_path_buf()),
        allow_unclassified: false,
        db: Some(db.to_path_buf()),
    }
}

/// The caller's environment with the stack's binding added (the gate never takes these two
/// names from the process environment).
fn bound<'a>(env: Env<'a>, b: Binding<'a>) -> impl Fn(&str) -> Option<String> + 'a {
    move |name: &str| match name {
        CONTEXT_VAR => b.context.map(str::to_string),
        APPROVE_EVERY_VAR => b.every_change.then(|| "1".to_string()),
        other => env(other),
    }
}

/// Gates one saved plan (its `show -json` file) of the root in `root_dir`, with the stack's
/// history `db`.
pub(crate) fn gate(
    plan_json: &Path,
    config: &Path,
    root_dir: &Path,
    db: &Path,
    b: Binding<'_>,
    env: Env<'_>,
    approve_command: &dyn Fn(&str) -> String,
) -> Result<Gated, String> {
    let opts = GateOptions {
        inputs: inputs(plan_json, config, root_dir, db),
        record: None,
        no_record_protection: true,
    };
    let e = bound(env, b);
    let out = ward_gate::run::gate(&opts, &e).map_err(|e| e.to_string())?;
    let rep = &out.report;
    let pending = rep
        .required
        .iter()
        .filter(|r| !r.approval.is_approved())
        .map(|r| PendingApproval {
            command: approve_command(&r.address),
            action: action_name(r.action),
            impact: r.impact.as_str().to_string(),
            digest: r.digest.clone(),
            status: r.approval.name().to_string(),
            address: r.address.clone(),
        })
        .collect();
    let mut problems: Vec<String> = rep.errors.clone();
    for g in rep.guards.iter().filter(|g| g.status.blocks()) {
        problems.push(format!(
            "guard {} on {}: {}",
            g.guard,
            g.address,
            g.status.name()
        ));
    }
    for t in &rep.coverage_blocking {
        problems.push(format!(
            "unclassified resource type {t}: add a rule for it (ward docs rules)"
        ));
    }
    for b in rep.budgets.iter().filter(|b| b.exceeded) {
        problems.push(format!(
            "budget exceeded: {} {} > {}",
            b.count, b.kind, b.limit
        ));
    }
    Ok(Gated {
        exit: out.exit,
        pending,
        problems,
    })
}

/// An action's name as the gate's JSON report spells it (`delete`, `replace-delete-first`...):
/// the stack's reports keep that spelling.
fn action_name(a: ward_model::Action) -> String {
    serde_json::to_value(a)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| a.as_terraform().to_string())
}

/// What `ward stack approve` passes on to `ward approve`.
#[derive(Debug, Clone, Default)]
pub struct ApproveArgs {
    /// The root.
    pub root: String,
    /// The site; needed when the root has several.
    pub site: Option<String>,
    /// The exact address.
    pub address: String,
    /// Why it is safe.
    pub reason: String,
    /// How long it lasts.
    pub expires: Option<String>,
    /// Who approves.
    pub by: Option<String>,
}

/// Approves one change of a saved plan with the same binding the gate used.
pub(crate) fn approve(
    plan_json: &Path,
    config: &Path,
    root_dir: &Path,
    db: &Path,
    b: Binding<'_>,
    a: &ApproveArgs,
    env: Env<'_>,
) -> Result<(String, String), String> {
    let opts = ApproveOptions {
        inputs: inputs(plan_json, config, root_dir, db),
        address: a.address.clone(),
        deposed: None,
        reason: a.reason.clone(),
        expires: a.expires.clone(),
        by: a.by.clone(),
    };
    let e = bound(env, b);
    let out = ward_gate::run::approve(&opts, &e).map_err(|e| e.to_string())?;
    Ok((ward_report::gate::approve_text(&out), out.notes.join("\n")))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// A root recorded as being adopted in the stack's own history is gated as such: a managed
    /// create in it is refused, as plain `ward gate --root --db` refuses it; the default
    /// history, which the stack used to read, does not decide (#33 item 3).
    #[test]
    fn the_stacks_own_history_decides_an_adoption() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("live");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            root.join("main.tf"),
            "resource \"fakecloud_instance\" \"web\" {\n  image = \"debian-12\"\n}\n",
        )
        .unwrap();
        let config = t.path().join("ward.hcl");
        std::fs::write(&config, ward_rig::rules::ward_hcl("")).unwrap();
        let plan = t.path().join("plan.json");
        std::fs::write(
            &plan,
            r#"{"format_version":"1.2","terraform_version":"1.15.5","planned_values":{},
               "resource_changes":[{"address":"fakecloud_instance.web","mode":"managed",
               "type":"fakecloud_instance","name":"web",
               "provider_name":"registry.terraform.io/ward/fakecloud",
               "change":{"actions":["create"],"before":null,"after":{"image":"debian-12"},
               "after_unknown":{"id":true},"before_sensitive":false,"after_sensitive":{}}}]}"#,
        )
        .unwrap();
        let db = t.path().join("stack.sqlite");
        let key = std::fs::canonicalize(&root).unwrap().display().to_string();
        let mut store = ward_store::Store::open(&db).unwrap();
        store
            .append_record(&ward_store::NewRecord {
                kind: "import-plan",
                root: &key,
                key: "",
                recorded_at: "2026-12-01T00:00:00Z",
                body: &serde_json::json!({"schema_version": 1, "root": key, "ids": {}}),
            })
            .unwrap();
        drop(store);
        let b = Binding {
            context: None,
            every_change: false,
        };
        let env = |_: &str| None;
        let cmd = |a: &str| a.to_string();
        let e = gate(&plan, &config, &root, &db, b, &env, &cmd).unwrap_err();
        assert!(e.contains("is being adopted with `ward import`"), "{e}");
        assert!(
            e.contains("refused: fakecloud_instance.web (create)"),
            "{e}"
        );
        let other = t.path().join("other.sqlite");
        let g = gate(&plan, &config, &root, &other, b, &env, &cmd).unwrap();
        assert_eq!(g.exit, Exit::Pass, "{:?}", g.problems);
        assert!(!other.exists(), "the gate created a history");
    }
}
