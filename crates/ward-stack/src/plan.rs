//! `ward stack plan`.

use crate::order::{at_site, instances, not_reached};
use crate::report::{Command, RootOutcome, StackReport};
use crate::run::{cannot_run, count, finish, refusal, Run};
use crate::{Env, Options, StackError};
use std::collections::BTreeSet;
use ward_model::Exit;
use ward_terraform::PlanArgs;

/// `ward stack plan`: every instance in layer order; one whose upstream has changes is
/// `blocked-by-upstream`. Records nothing.
pub fn plan(opts: &Options, env: Env<'_>) -> Result<StackReport, StackError> {
    let all = instances(&opts.config, &opts.repo)?;
    let sel = at_site(all.clone(), opts.site.as_deref())?;
    if let Some(r) = cannot_run(opts, &sel) {
        let why = refusal(&r);
        let mut roots = vec![r];
        not_reached(&sel, &mut roots);
        return Ok(finish(
            Command::Plan,
            opts,
            None,
            roots,
            Exit::StackRefused,
            Some(why),
        ));
    }
    let mut run = Run::new(opts, env, sel.len());
    let mut changed: BTreeSet<String> = BTreeSet::new();
    let mut roots = Vec::new();
    let mut exit = Exit::Pass;
    let mut stopped = None;
    for inst in &sel {
        let mut r = inst.report(RootOutcome::NoChanges);
        let blocked: Vec<&String> = inst.reads.iter().filter(|u| changed.contains(*u)).collect();
        if !blocked.is_empty() {
            r.outcome = RootOutcome::BlockedByUpstream;
            r.detail.push(format!(
                "not planned: {} {} changes not yet applied; its plan would read stale outputs. Apply upstream first (`ward stack apply`)",
                blocked.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
                if blocked.len() == 1 { "has" } else { "have" }
            ));
            changed.insert(inst.id());
            roots.push(r);
            run.done += 1;
            continue;
        }
        run.progress(inst, "plan");
        let res = (|| -> Result<(), String> {
            let ws = run.open(inst, &mut r)?;
            let (files, context) = run.inputs(&all, inst, &ws)?;
            r.upstream_sha256 = context;
            let p = ws
                .plan_file(&PlanArgs {
                    var_files: files,
                    ..PlanArgs::default()
                })
                .map_err(|e| e.to_string())?;
            r.changes = Some(count(&ws, &p, "plan")?);
            if p.1 {
                r.outcome = RootOutcome::Changes;
            }
            Ok(())
        })();
        if let Err(e) = res {
            r.outcome = RootOutcome::Failed;
            r.detail.push(e.clone());
            exit = Exit::StackFailed;
            stopped = Some(format!("{}: {e}", inst.id()));
            roots.push(r);
            break;
        }
        if r.outcome == RootOutcome::Changes {
            changed.insert(inst.id());
        }
        roots.push(r);
        run.done += 1;
    }
    not_reached(&sel, &mut roots);
    Ok(finish(Command::Plan, opts, None, roots, exit, stopped))
}
