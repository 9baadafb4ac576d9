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

fn inputs(plan_json: &Path, config: &Path, root_dir: &Path) -> Inputs {
    Inputs {
        plan: plan_json.display().to_string(),
        config: Some(config.to_path_buf()),
        approvals: None,
        root: Some(root_dir.to_path_buf()),
        allow_unclassified: false,
        db: None,
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

/// Gates one saved plan (its `show -json` file) of the root in `root_dir`.
pub(crate) fn gate(
    plan_json: &Path,
    config: &Path,
    root_dir: &Path,
    b: Binding<'_>,
    env: Env<'_>,
    approve_command: &dyn Fn(&str) -> String,
) -> Result<Gated, String> {
    let opts = GateOptions {
        inputs: inputs(plan_json, config, root_dir),
        record: None,
        no_record_protection: true,
    };
    let e = bound(env, b);
    let out = ward_gate::run::gate(&opts, &e).map_err(|e| e.to_string())?;
    // The gate's report in its documented JSON shape (docs/gate.schema.json), read back here.
    let v: serde_json::Value = serde_json::from_str(&ward_report::gate::json(&out.report))
        .map_err(|e| format!("the gate's report is not JSON ({e})"))?;
    let s = |x: &serde_json::Value, k: &str| {
        x.get(k)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let mut pending = Vec::new();
    for r in v
        .get("required")
        .and_then(|r| r.as_array())
        .into_iter()
        .flatten()
    {
        let status = r
            .get("approval")
            .map(|a| s(a, "status"))
            .unwrap_or_default();
        if status == "approved" {
            continue;
        }
        let address = s(r, "address");
        pending.push(PendingApproval {
            command: approve_command(&address),
            action: r
                .get("action")
                .map(|a| {
                    a.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| a.to_string())
                })
                .unwrap_or_default(),
            impact: s(r, "impact"),
            digest: s(r, "digest"),
            status,
            address,
        });
    }
    let mut problems: Vec<String> = v
        .get("errors")
        .and_then(|e| e.as_array())
        .into_iter()
        .flatten()
        .filter_map(|e| e.as_str().map(str::to_string))
        .collect();
    for g in v
        .get("guards")
        .and_then(|g| g.as_array())
        .into_iter()
        .flatten()
    {
        let st = s(g, "status");
        if st != "passed" && st != "bypassed" {
            problems.push(format!(
                "guard {} on {}: {st}",
                s(g, "guard"),
                s(g, "address")
            ));
        }
    }
    for t in v
        .get("coverage_blocking")
        .and_then(|g| g.as_array())
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str())
    {
        problems.push(format!(
            "unclassified resource type {t}: add a rule for it (ward docs rules)"
        ));
    }
    for bud in v
        .get("budgets")
        .and_then(|g| g.as_array())
        .into_iter()
        .flatten()
        .filter(|b| b.get("exceeded").and_then(|e| e.as_bool()) == Some(true))
    {
        problems.push(format!(
            "budget exceeded: {} {} > {}",
            bud.get("count").cloned().unwrap_or_default(),
            s(bud, "kind"),
            bud.get("limit").cloned().unwrap_or_default()
        ));
    }
    Ok(Gated {
        exit: out.exit,
        pending,
        problems,
    })
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
    b: Binding<'_>,
    a: &ApproveArgs,
    env: Env<'_>,
) -> Result<(String, String), String> {
    let opts = ApproveOptions {
        inputs: inputs(plan_json, config, root_dir),
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
