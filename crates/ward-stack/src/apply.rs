//! `ward stack apply`: per instance, plan, gate, apply that plan, outputs, state, a plan that
//! shows no changes.

use crate::backup::backup_dir;
use crate::journal::StepRecord;
use crate::order::{at_site, instances, not_reached, Instance};
use crate::report::{Changes, Command, RootOutcome, RootReport, StackReport};
use crate::run::{begin, cannot_run, count, each_step, end, finish, mark, refuse, Run, Stop};
use crate::{Env, Options, StackError};
use std::collections::BTreeMap;
use ward_terraform::PlanArgs;

/// `ward stack apply`.
pub fn apply(opts: &Options, env: Env<'_>) -> Result<StackReport, StackError> {
    apply_inner(opts, env, None)
}

pub(crate) fn apply_inner(
    opts: &Options,
    env: Env<'_>,
    resume: Option<(String, Vec<StepRecord>)>,
) -> Result<StackReport, StackError> {
    let all = instances(&opts.config, &opts.repo)?;
    let sel = at_site(all.clone(), opts.site.as_deref())?;
    backup_dir(opts)?;
    let resumed = resume.as_ref().map(|(id, _)| id.clone());
    let (mut run, rec) = begin(opts, env, Command::Apply, &sel, resumed.clone())?;
    if let Some(r) = cannot_run(opts, &sel) {
        return refuse(run, rec, Command::Apply, &sel, r, resumed);
    }
    let finished: BTreeMap<String, StepRecord> = resume
        .map(|(_, steps)| {
            steps
                .into_iter()
                .filter(|s| s.report.outcome.finished())
                .map(|s| (s.report.id(), s))
                .collect()
        })
        .unwrap_or_default();
    let (mut roots, exit, stopped) = each_step(
        &mut run,
        &sel,
        RootOutcome::Unchanged,
        "apply",
        |run, inst, r| apply_one(run, &all, inst, r, finished.get(&inst.id())),
    )?;
    not_reached(&sel, &mut roots);
    end(&mut run, rec, exit)?;
    let mut rep = finish(
        Command::Apply,
        opts,
        run.run_id.clone(),
        roots,
        exit,
        stopped,
    );
    rep.resumed = resumed;
    Ok(rep)
}

fn apply_one(
    run: &mut Run<'_>,
    all: &[Instance],
    inst: &Instance,
    r: &mut RootReport,
    before: Option<&StepRecord>,
) -> Result<Stop, String> {
    let ws = run.open(inst, r)?;
    let (files, context) = run.inputs(all, inst, &ws)?;
    r.upstream_sha256 = context.clone();
    let args = PlanArgs {
        var_files: files.clone(),
        name: Some("apply".into()),
        ..PlanArgs::default()
    };
    let p = ws.plan_file(&args).map_err(|e| e.to_string())?;
    if let Some(prev) = before {
        // Resume: finished in the run being resumed; check it still is what it was.
        let changes = count(&ws, &p, "apply")?;
        r.changes = Some(changes);
        if p.1 {
            return Err(format!(
                "it was applied in run {} but now plans changes ({}): something changed since; review it with `ward stack plan`, then run `ward stack apply`",
                prev.run,
                changes.describe()
            ));
        }
        let o = ws.outputs().map_err(|e| e.to_string())?;
        if let Some(was) = &prev.report.outputs_sha256 {
            if &o.sha256 != was {
                return Err(format!(
                    "its outputs are {} but were {was} when run {} applied it: something changed since; run `ward stack apply`",
                    o.sha256, prev.run
                ));
            }
        }
        r.outputs_sha256 = Some(o.sha256.clone());
        run.outputs.insert(inst.id(), o);
        r.state = mark(&ws.state_pull().map_err(|e| e.to_string())?);
        r.outcome = RootOutcome::Verified;
        r.detail.push(format!(
            "finished in run {}; checked again: no changes, same outputs",
            prev.run
        ));
        return Ok(None);
    }
    if !p.1 {
        r.changes = Some(Changes::default());
    }
    if p.1 {
        // The gate's read of the plan counts its changes.
        if let Some(stop) = run.gate(inst, &ws, &p.0, context.as_deref(), false, r, "apply")? {
            return Ok(Some(stop));
        }
        ws.apply_planfile(&p.0).map_err(|e| e.to_string())?;
        run.applied(inst, "apply");
        r.outcome = RootOutcome::Applied;
    }
    let o = ws.outputs().map_err(|e| e.to_string())?;
    r.outputs_sha256 = Some(o.sha256.clone());
    run.outputs.insert(inst.id(), o);
    r.state = mark(&ws.state_pull().map_err(|e| e.to_string())?);
    if r.outcome == RootOutcome::Applied {
        let again = ws
            .plan_file(&PlanArgs {
                var_files: files,
                name: Some("check".into()),
                ..PlanArgs::default()
            })
            .map_err(|e| e.to_string())?;
        if again.1 {
            return Err(format!(
                "after the apply, a new plan still shows changes ({}): the root does not converge; fix its configuration before going on",
                count(&ws, &again, "check")?.describe()
            ));
        }
    }
    Ok(None)
}
