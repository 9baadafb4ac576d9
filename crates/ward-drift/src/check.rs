//! One root instance's check: select the binary, init (with the site's backend configuration),
//! `state pull` and its preflight, the refresh-only plan (with the site's var files and the
//! outputs of the roots it reads), `show -json`; with `--pending`, a normal plan too.

use crate::binary::{self, Binary, Selection};
use crate::config::Config;
use crate::outcome::{self, Outcome};
use crate::{state, Instance, ReadOutputs, RootResult, TornDown};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use ward_config::stack::DEFAULT_SITE;
use ward_store::StateMark;
use ward_terraform::{OpenError, OpenOptions, Outputs, PlanArgs, TfError, Workspace};

/// What every check of a run shares.
pub(crate) struct Ctx<'a> {
    pub(crate) repo: &'a Path,
    pub(crate) config: &'a Config,
    pub(crate) binaries: &'a [Binary],
    pub(crate) marks: &'a BTreeMap<String, StateMark>,
    pub(crate) accept: &'a [String],
    pub(crate) timeout: Duration,
    pub(crate) pending: bool,
    pub(crate) knowledge: &'a ward_rules::Knowledge,
    pub(crate) env: &'a [(String, String)],
    /// The `PATH` ward runs with, as the caller read it ([`crate::Options::path`]).
    pub(crate) path: Option<&'a std::ffi::OsStr>,
    pub(crate) allow: &'a [String],
    pub(crate) torn_down: &'a TornDown,
    /// Roots whose outputs another root reads.
    pub(crate) read: &'a BTreeSet<String>,
    /// Their outputs, by `root/site`, as checked in this run.
    pub(crate) outputs: ReadOutputs,
}

impl Ctx<'_> {
    fn keep_outputs(&self, inst: &Instance, o: Result<Outputs, String>) {
        if self.read.contains(&inst.root.name) {
            if let Ok(mut m) = self.outputs.lock() {
                m.insert(inst.id(), o);
            }
        }
    }

    /// The instances `inst` reads (`root/site`: the read root at the same site, or its only,
    /// default instance, as `ward stack` resolves them), with their outputs from this run.
    fn upstream(&self, inst: &Instance) -> Result<Vec<(String, Outputs)>, String> {
        let mut out = Vec::new();
        for read in &inst.root.stack.reads {
            let Some(up) = self.config.roots.iter().find(|r| &r.name == read) else {
                return Err(format!(
                    "it reads the outputs of root \"{read}\", which ward.hcl does not declare"
                ));
            };
            let sites: Vec<String> = up.stack.instances().into_iter().map(|s| s.name).collect();
            let site = if sites.contains(&inst.site.name) {
                inst.site.name.clone()
            } else if sites.len() == 1 && sites[0] == DEFAULT_SITE {
                sites[0].clone()
            } else {
                return Err(format!(
                    "it reads root \"{read}\", which has no site \"{}\" (its sites: {})",
                    inst.site.name,
                    sites.join(", ")
                ));
            };
            let id = format!("{read}/{site}");
            let got = self.outputs.lock().ok().and_then(|m| m.get(&id).cloned());
            match got {
                Some(Ok(o)) => out.push((id, o)),
                Some(Err(why)) => {
                    return Err(format!(
                        "it reads the outputs of {id}, which could not be read: {why}"
                    ))
                }
                None => {
                    return Err(format!(
                        "it reads the outputs of {id}, which was not checked in this run (excluded, in another shard, or not found); check both in one run"
                    ))
                }
            }
        }
        Ok(out)
    }
}

/// Checks one root instance: select, init, state pull + preflight, refresh-only plan, show
/// -json. The outputs of a root another reads are kept for it ([`Ctx::outputs`]).
pub(crate) fn check_instance(ctx: &Ctx<'_>, inst: &Instance) -> RootResult {
    let mut kept = None;
    let r = check(ctx, inst, &mut kept);
    ctx.keep_outputs(
        inst,
        kept.unwrap_or_else(|| Err(format!("its check ended {}", r.outcome))),
    );
    r
}

fn check(ctx: &Ctx<'_>, inst: &Instance, kept: &mut Option<Result<Outputs, String>>) -> RootResult {
    let root = &inst.root;
    let r = inst.result(Outcome::Error, Vec::new());
    let fail = |mut r: RootResult, outcome: Outcome, why: String| {
        r.outcome = outcome;
        r.detail.push(why);
        r
    };
    let dir = ctx.repo.join(&root.path);
    let deadline = Instant::now() + ctx.timeout;
    // The workspace decides whether the root runs directly or, as a Terragrunt unit without
    // .tf files, through `terragrunt` (ward_terraform::runner_for). Its scratch directory is
    // owner only (it holds `state pull` output and plan JSON with raw sensitive values), removed
    // on every exit path, signals included.
    let opts = OpenOptions {
        deadline: Some(deadline),
        env: ctx.env,
        allow: ctx.allow,
        path: ctx.path,
        ..OpenOptions::new(ctx.timeout)
    };
    let opened = Workspace::open(&dir, root.pin.as_ref(), ctx.binaries, &opts);
    let mut r = r;
    // The binary chosen is recorded even when its workspace could not open.
    let chosen = match &opened {
        Ok((_, sel)) => Some(sel),
        Err(e) => e.selection(),
    };
    if let Some(sel) = chosen {
        r.binary = Some(sel.binary.to_string());
        r.binary_because = Some(sel.because.clone());
    }
    let (ws, Selection { binary: bin, .. }) = match opened {
        Ok(o) => o,
        Err(OpenError::Workspace { error, .. })
            if matches!(*error, TfError::NoTerragrunt { .. }) =>
        {
            return fail(
                r,
                Outcome::Error,
                format!("{error}, or exclude it with drift {{ exclude }}"),
            )
        }
        Err(e) => return fail(r, Outcome::Error, e.to_string()),
    };
    // 1. init, non-interactive, with the site's backend configuration (as `ward stack` inits
    // it: ward_terraform owns how).
    let backend = match ws.backend_args(&inst.site.backend_config) {
        Ok(a) => a,
        Err(e) => return fail(r, Outcome::Error, e.to_string()),
    };
    if let Err(e) = ws.init(&backend) {
        return fail(
            r,
            Outcome::Error,
            failed(e, &format!("{} init", bin.product)),
        );
    }
    // 2. state pull and preflight.
    let pulled = match ws.state_pull_bytes() {
        Ok(bytes) => bytes,
        Err(e) => {
            let outcome = if matches!(e, TfError::Failed { locked: true, .. }) {
                Outcome::Locked
            } else {
                Outcome::Error
            };
            return fail(
                r,
                outcome,
                failed(e, &format!("{} state pull", bin.product)),
            );
        }
    };
    let name = inst.name();
    let recorded = if ctx.accept.iter().any(|a| a == &name || a == &root.name) {
        None
    } else {
        ctx.marks.get(&name)
    };
    let torn = ctx
        .torn_down
        .get(&(root.name.clone(), inst.site.name.clone()))
        .filter(|_| !root.expect_empty);
    let info = match state::preflight(&pulled, root.expect_empty || torn.is_some(), recorded) {
        state::Preflight::Ok(i) => i,
        state::Preflight::Missing(why) => {
            return fail(r, Outcome::MissingState, format!("{why} (Terraform's own exit codes say nothing here: state pull and plan -refresh-only both exit 0)"))
        }
        state::Preflight::Replaced(why, i) => {
            r.state = Some(StateMark { lineage: i.lineage, serial: i.serial });
            return fail(r, Outcome::StateReplaced, format!("{why}; if this was deliberate, run once with --accept-state {name}"));
        }
    };
    r.state = Some(StateMark {
        lineage: info.lineage.clone(),
        serial: info.serial,
    });
    if let Some(run) = torn {
        if info.resources == 0 {
            return fail(
                r,
                Outcome::TornDown,
                format!("torn down by `ward stack teardown` (run {run}): its state is empty, as expected; checked for drift again once it holds resources"),
            );
        }
    }
    if let Err(e) = binary::check_state_hosts(bin.product, &info.provider_hosts) {
        return fail(r, Outcome::Error, e);
    }
    // The outputs other roots read, from this state.
    if ctx.read.contains(&root.name) {
        *kept = Some(ws.outputs().map_err(|e| e.to_string()));
    }
    // 3 and 4: the plans.
    match plans(ctx, inst, &ws, &mut r) {
        Ok(()) => r,
        Err((outcome, why)) => fail(r, outcome, why),
    }
}

/// Steps 3 and 4 of a check: the refresh-only plan, read from its JSON, with the site's var
/// files and the outputs of the roots it reads; with `--pending`, a normal plan too. Fills the
/// result's drift, outputs, pending changes and outcome, or says why the plans failed.
fn plans(
    ctx: &Ctx<'_>,
    inst: &Instance,
    ws: &Workspace,
    r: &mut RootResult,
) -> Result<(), (Outcome, String)> {
    let mut var_files: Vec<PathBuf> = inst.site.var_files.iter().map(PathBuf::from).collect();
    if !inst.root.stack.reads.is_empty() {
        let up = ctx
            .upstream(inst)
            .map_err(|e| (Outcome::Error, format!("cannot plan: {e}")))?;
        let (f, _) = ws
            .upstream_var_file(&up)
            .map_err(|e| (Outcome::Error, e.to_string()))?;
        var_files.push(f);
    }
    let plan = plan_json(ws, &var_files, PlanKind::RefreshOnly)?;
    r.drift = outcome::drift_items(&plan, ctx.knowledge);
    r.outputs = outcome::output_changes(&plan);
    if ctx.pending {
        let p = plan_json(ws, &var_files, PlanKind::Normal)?;
        r.pending = outcome::pending_changes(&p);
    }
    r.outcome = outcome::decide(r.drift.len(), &r.outputs, &r.pending);
    Ok(())
}

/// The two plans drift runs: what differs between them is the `-refresh-only` flag, the
/// scratch file names and the wording of a failure.
#[derive(Clone, Copy)]
enum PlanKind {
    /// `plan -refresh-only`: drift.
    RefreshOnly,
    /// A normal plan (`--pending`): code changes not yet applied.
    Normal,
}

/// Runs `plan` (never waiting for a lock) with `var_files`, then `show -json` of its plan file,
/// and reads that as a stream (ward-terraform: [`Workspace::plan_file`],
/// [`Workspace::read_plan`]). A failure is the root's outcome and detail: `locked` when
/// Terraform says the lock is held, else `error`.
fn plan_json(
    ws: &Workspace,
    var_files: &[PathBuf],
    which: PlanKind,
) -> Result<ward_model::Plan, (Outcome, String)> {
    let (name, refresh_only, what) = match which {
        PlanKind::RefreshOnly => ("refresh", true, "plan -refresh-only"),
        PlanKind::Normal => ("normal", false, "plan"),
    };
    let args = PlanArgs {
        refresh_only,
        var_files: var_files.to_vec(),
        name: Some(name.to_string()),
        ..PlanArgs::default()
    };
    let plan_file = match ws.plan_file(&args) {
        Ok((f, _)) => f,
        Err(TfError::Failed {
            locked: true,
            lock_info,
            ..
        }) => return Err((Outcome::Locked, lock_detail(&lock_info))),
        Err(e) => {
            let product = ws.binary().product;
            return Err((Outcome::Error, failed(e, &format!("{product} {what}"))));
        }
    };
    // Drift needs no content fingerprints (only keyed approval digests do).
    let options = ward_plan::ReadOptions {
        content: false,
        objects: false,
        ..ward_plan::ReadOptions::default()
    };
    ws.read_plan(&plan_file, options).map_err(|e| {
        let why = match e {
            TfError::Output { message, .. } => message,
            e => failed(e, "show -json"),
        };
        (Outcome::Error, why)
    })
}

/// A Terraform command's failure as drift reports it: "`what` failed: Terraform's error
/// lines" when it ran and failed, else what kept it from running.
fn failed(e: TfError, what: &str) -> String {
    match e {
        TfError::Failed { summary, .. } => format!("{what} failed: {summary}"),
        e => e.to_string(),
    }
}

/// "busy: the state lock is held (ID …, Operation …, Who …, Created …)": from Terraform's
/// lock-info lines ([`ward_terraform::workspace::lock_info`]).
fn lock_detail(info: &[String]) -> String {
    format!(
        "busy: the state lock is held by someone else ({}); not run with -lock=false, check again later",
        if info.is_empty() { "no lock info".to_string() } else { info.join(", ") }
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use ward_terraform::workspace::is_lock_error;

    /// Terraform's message when another run holds the lock (the local backend's, as 1.15 prints
    /// it) and when the lock table cannot be used at all (S3 with DynamoDB, access denied).
    const LOCK_HELD: &str = "\u{2577}\n\u{2502} Error: Error acquiring the state lock\n\u{2502}\n\u{2502} Error message: resource temporarily unavailable\n\u{2502} Lock Info:\n\u{2502}   ID:        4f0c9a5e-1d2b-7c3e-9a0b-8e1f2a3b4c5d\n\u{2502}   Path:      /state/app.tfstate\n\u{2502}   Operation: OperationTypeApply\n\u{2502}   Who:       ci@runner\n\u{2502}   Version:   1.15.5\n\u{2502}   Created:   2026-11-29 10:00:00 +0000 UTC\n\u{2502}   Info:\n\u{2502}\n\u{2502} Terraform acquires a state lock to protect the state from being written\n\u{2502} by multiple users at the same time.\n";
    const LOCK_DENIED: &str = "\u{2577}\n\u{2502} Error: Error acquiring the state lock\n\u{2502}\n\u{2502} Error message: operation error DynamoDB: PutItem, https response error StatusCode: 400, api error AccessDeniedException: User: arn:aws:iam::1:role/ci is not authorized to perform: dynamodb:PutItem on resource: locks\n\u{2502}\n\u{2502} Terraform acquires a state lock to protect the state from being written\n\u{2502} by multiple users at the same time.\n";

    #[test]
    fn only_a_held_lock_is_locked() {
        assert!(is_lock_error(LOCK_HELD));
        assert!(
            lock_detail(&ward_terraform::workspace::lock_info(LOCK_HELD))
                .contains("ID: 4f0c9a5e-1d2b-7c3e-9a0b-8e1f2a3b4c5d")
        );
        // Access denied on the lock table is an error to fix, not someone else's run.
        assert!(!is_lock_error(LOCK_DENIED));
        assert!(!is_lock_error(
            "Error: Failed to read the state lock configuration"
        ));
        assert!(!is_lock_error("the state lock table does not exist"));
    }
}
