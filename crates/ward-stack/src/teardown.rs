//! `ward stack teardown`: downwards, backup, `pre_destroy`, a destroy plan whose every destroy
//! is approved on its own, apply, proof.

use crate::backup::{backup, backup_dir};
use crate::journal::StepRecord;
use crate::order::{at_site, instances, not_reached, Instance};
use crate::report::{Command, RootOutcome, RootReport, StackReport};
use crate::run::{begin, cannot_run, count, each_step, end, finish, mark, refuse, Run, Stop};
use crate::{usage, Env, Options, StackError};
use std::collections::BTreeSet;
use std::path::Path;
use ward_model::Exit;
use ward_terraform::PlanArgs;

/// `ward stack teardown`.
pub fn teardown(opts: &Options, env: Env<'_>) -> Result<StackReport, StackError> {
    teardown_inner(opts, env, None)
}

pub(crate) fn teardown_inner(
    opts: &Options,
    env: Env<'_>,
    resume: Option<(String, Vec<StepRecord>)>,
) -> Result<StackReport, StackError> {
    let all = instances(&opts.config, &opts.repo)?;
    let at = at_site(all.clone(), opts.site.as_deref())?;
    let mut sel: Vec<Instance> = match &opts.root {
        None => at.clone(),
        Some(root) => {
            if !all.iter().any(|i| &i.root == root) {
                let names: BTreeSet<&str> = all.iter().map(|i| i.root.as_str()).collect();
                return Err(usage(format!(
                    "--root {root}: no root of the stack has that name; the roots are: {}",
                    names.into_iter().collect::<Vec<_>>().join(", ")
                )));
            }
            at.iter().filter(|i| &i.root == root).cloned().collect()
        }
    };
    sel.reverse();
    let dir = backup_dir(opts)?;
    let resumed = resume.as_ref().map(|(id, _)| id.clone());
    let (mut run, rec) = begin(opts, env, Command::Teardown, &sel, resumed.clone())?;
    // Refused before anything runs: an instance the teardown opens (every one at the site: the
    // ones it destroys, those reading them, those whose no-change plan is the proof) that ward
    // cannot run.
    if let Some(r) = cannot_run(opts, &at) {
        return refuse(run, rec, Command::Teardown, &sel, r, resumed);
    }
    // Refused before anything changes: a root reading one to destroy, not itself destroyed
    // first in this run, still holds resources.
    let ids: BTreeSet<String> = sel.iter().map(Instance::id).collect();
    for inst in &sel {
        for down in all
            .iter()
            .filter(|d| d.reads.contains(&inst.id()) && !ids.contains(&d.id()))
        {
            let mut scratch = down.report(RootOutcome::NotReached);
            let held = run
                .open(down, &mut scratch)
                .and_then(|ws| ws.state_pull().map_err(|e| e.to_string()))
                .map(|s| s.resources());
            let why = match held {
                Ok(0) => continue,
                Ok(n) => format!(
                    "{} reads {} and still holds {n} resource(s): tear it down first (`ward stack teardown{} --root {}`)",
                    down.id(),
                    inst.id(),
                    opts.site.as_deref().map(|s| format!(" --site {s}")).unwrap_or_default(),
                    down.root
                ),
                Err(e) => format!(
                    "{} reads {} and its state cannot be read ({e}): refusing to destroy what it may still use",
                    down.id(),
                    inst.id()
                ),
            };
            let mut r = inst.report(RootOutcome::Refused);
            r.detail.push(why);
            return refuse(run, rec, Command::Teardown, &sel, r, resumed);
        }
    }
    let _ = resume;
    let (mut roots, mut exit, mut stopped) = each_step(
        &mut run,
        &sel,
        RootOutcome::Destroyed,
        "teardown",
        |run, inst, r| teardown_one(run, &all, inst, &dir, r),
    )?;
    not_reached(&sel, &mut roots);
    if exit == Exit::Pass {
        // Proof: every root that remains and holds resources plans with no changes.
        for inst in at.iter().filter(|i| !ids.contains(&i.id())) {
            let mut r = inst.report(RootOutcome::Unchanged);
            match remains(&mut run, &all, inst, &mut r) {
                Ok(None) => {
                    if r.state.is_some() {
                        r.detail.push("remains; plans with no changes".into());
                        roots.push(r);
                    }
                }
                Ok(Some(why)) | Err(why) => {
                    r.outcome = RootOutcome::Failed;
                    r.detail.push(why.clone());
                    exit = Exit::StackFailed;
                    stopped = Some(format!("{}: {why}", inst.id()));
                    roots.push(r);
                }
            }
        }
    }
    end(&mut run, rec, exit)?;
    let mut rep = finish(
        Command::Teardown,
        opts,
        run.run_id.clone(),
        roots,
        exit,
        stopped,
    );
    rep.resumed = resumed;
    Ok(rep)
}

/// The proof for an instance the teardown left: `None` when it holds no resources (its state
/// not set in `r`) or plans with no changes, else why not.
fn remains(
    run: &mut Run<'_>,
    all: &[Instance],
    inst: &Instance,
    r: &mut RootReport,
) -> Result<Option<String>, String> {
    let ws = run.open(inst, r)?;
    let s = ws.state_pull().map_err(|e| e.to_string())?;
    if s.resources() == 0 {
        return Ok(None);
    }
    r.state = mark(&s);
    let (files, context) = run.inputs(all, inst, &ws)?;
    r.upstream_sha256 = context;
    let p = ws
        .plan_file(&PlanArgs {
            var_files: files,
            name: Some("remains".into()),
            ..PlanArgs::default()
        })
        .map_err(|e| e.to_string())?;
    let changes = count(&ws, &p, "remains")?;
    r.changes = Some(changes);
    Ok(p.1.then(|| {
        format!(
            "it remains and now plans changes ({}): the teardown changed what it depends on",
            changes.describe()
        )
    }))
}

fn teardown_one(
    run: &mut Run<'_>,
    all: &[Instance],
    inst: &Instance,
    dir: &Path,
    r: &mut RootReport,
) -> Result<Stop, String> {
    let ws = run.open(inst, r)?;
    let pulled = ws.state_pull().map_err(|e| e.to_string())?;
    if pulled.resources() == 0 {
        r.outcome = RootOutcome::AlreadyEmpty;
        r.state = mark(&pulled);
        return Ok(None);
    }
    r.state = mark(&pulled);
    // 1. The backup, verified.
    let b = backup(dir, inst, &pulled)?;
    let at = run.now();
    let run_id = run.run_id.clone().unwrap_or_default();
    if let Some(j) = run.journal.as_mut() {
        j.backup(&inst.root, &inst.site.name, &run_id, &b, &at)?;
    }
    r.backup = Some(b.clone());
    // 2. pre_destroy, under the guard rules.
    for pd in &inst.pre_destroy {
        let g = ward_config::Guard {
            name: pd.name.clone(),
            addresses: Vec::new(),
            types: Vec::new(),
            on: BTreeSet::from([ward_config::GuardOn::Delete]),
            command: pd.command.clone(),
            timeout: pd.timeout,
            dir: inst.dir.clone(),
        };
        let env = vec![
            ("TZ".to_string(), "UTC".to_string()),
            ("WARD_GUARD".to_string(), pd.name.clone()),
            ("WARD_ROOT".to_string(), inst.root.clone()),
            ("WARD_SITE".to_string(), inst.site.name.clone()),
            ("WARD_BACKUP".to_string(), b.path.clone()),
            ("WARD_NOW".to_string(), run.now()),
        ];
        let gr = ward_gate::guard::run_guard_with(&g, &inst.id(), "delete", env, run.env);
        if gr.status.blocks() {
            r.outcome = RootOutcome::PreDestroyRefused;
            let tail = gr
                .stderr
                .lines()
                .chain(gr.stdout.lines())
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| format!(": {}", l.trim()))
                .unwrap_or_default();
            r.detail.push(format!(
                "pre_destroy \"{}\" refused ({}){tail}; nothing was destroyed. Fix what it checks (or set {} with a reason), then `ward stack resume`",
                pd.name,
                gr.status.name(),
                g.bypass_var()
            ));
            return Ok(Some((run.step(r), Exit::GuardRefused)));
        }
    }
    // 3. The destroy plan, every destroy approved on its own.
    let (files, context) = run.inputs(all, inst, &ws)?;
    r.upstream_sha256 = context.clone();
    let (planfile, _) = ws
        .plan_file(&PlanArgs {
            destroy: true,
            var_files: files,
            name: Some("destroy".into()),
            ..PlanArgs::default()
        })
        .map_err(|e| e.to_string())?;
    // The gate's read of the plan counts its changes.
    if let Some(stop) = run.gate(inst, &ws, &planfile, context.as_deref(), true, r, "destroy")? {
        return Ok(Some(stop));
    }
    // 4. Apply exactly that plan; 5. proof: the state is empty.
    ws.apply_planfile(&planfile).map_err(|e| e.to_string())?;
    run.applied(inst, "destroy");
    let after = ws.state_pull().map_err(|e| e.to_string())?;
    r.state = mark(&after);
    if after.resources() != 0 {
        return Err(format!(
            "after the destroy the state still holds {} resource(s): inspect it (`terraform state list` in {}), the backup is {}",
            after.resources(),
            inst.path,
            b.path
        ));
    }
    r.outcome = RootOutcome::Destroyed;
    Ok(None)
}
