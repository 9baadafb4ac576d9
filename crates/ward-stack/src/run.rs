//! One running command: the workspace of an instance, its inputs, the gate on a saved plan, the
//! journal; and the steps every journaled command shares (begin, each step, refuse, end).

use crate::backup::{backup_dir, private_dir_under, resolve, safe_name};
use crate::gate;
use crate::journal::{self, Journal, RunRecord, StepRecord};
use crate::order::{not_reached, Instance};
use crate::report::{Changes, Command, RootOutcome, RootReport, StackReport, StateMark};
use crate::{Env, Options, StackError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_gate::run::ReadPlan;
use ward_model::Exit;
use ward_terraform::{OpenOptions, Outputs, Workspace};

fn add(c: &mut Changes, ch: &ward_model::ResourceChange) {
    if ch.mode != ward_model::Mode::Managed {
        return;
    }
    use ward_model::Action as A;
    match ch.action {
        A::Create => c.create += 1,
        A::Update => c.update += 1,
        A::Delete => c.delete += 1,
        a if a.is_replace() => c.replace += 1,
        _ => {}
    }
}

/// What a saved plan changes, by kind: nothing when `plan -detailed-exitcode` said so, else
/// read from its `show -json` output (left as plan `name`'s in the workspace's scratch
/// directory) as a stream, keeping no change.
pub(crate) fn count(
    ws: &Workspace,
    (planfile, has_changes): &(PathBuf, bool),
    name: &str,
) -> Result<Changes, String> {
    let mut c = Changes::default();
    if *has_changes {
        let only = ward_plan::ReadOptions {
            content: false,
            objects: false,
            ..ward_plan::ReadOptions::default()
        };
        ws.show_read(planfile, name, only, Some(&mut |ch| add(&mut c, &ch)))
            .map_err(|e| e.to_string())?;
    }
    Ok(c)
}

/// `state pull` as the report shows it.
pub(crate) fn mark(s: &ward_terraform::PulledState) -> Option<StateMark> {
    s.info.as_ref().map(|i| StateMark {
        serial: i.serial,
        lineage: i.lineage.clone(),
        resources: i.resources,
    })
}

/// One running command: the options, the journal, what the run learned.
pub(crate) struct Run<'a> {
    pub(crate) opts: &'a Options,
    pub(crate) env: Env<'a>,
    pub(crate) timeout: Duration,
    /// Outputs of instances, by id, read or applied in this run.
    pub(crate) outputs: BTreeMap<String, Outputs>,
    pub(crate) journal: Option<Journal>,
    pub(crate) run_id: Option<String>,
    pub(crate) total: usize,
    pub(crate) done: usize,
}

impl<'a> Run<'a> {
    pub(crate) fn new(opts: &'a Options, env: Env<'a>, total: usize) -> Run<'a> {
        Run {
            opts,
            env,
            timeout: opts.config.stack.timeout,
            outputs: BTreeMap::new(),
            journal: None,
            run_id: None,
            total,
            done: 0,
        }
    }

    pub(crate) fn now(&self) -> String {
        self.opts.clock.now_rfc3339()
    }

    pub(crate) fn progress(&self, inst: &Instance, what: &str) {
        if let Some(told) = self.opts.progress {
            told(self.done, self.total, &inst.id(), what);
        }
    }

    /// A workspace on the instance's root: binary chosen by evidence, run directly or (a
    /// Terragrunt unit) through `terragrunt`, `init` with the site's backend configuration
    /// (from an owner-only file, never in argv).
    pub(crate) fn open(&self, inst: &Instance, r: &mut RootReport) -> Result<Workspace, String> {
        let opts = OpenOptions {
            env: &self.opts.env,
            path: self.opts.path.as_deref(),
            ..OpenOptions::new(self.timeout)
        };
        let opened = Workspace::open(&inst.dir, inst.pin.as_ref(), &self.opts.binaries, &opts);
        // The binary chosen is reported even when its workspace could not open.
        let chosen = match &opened {
            Ok((_, sel)) => Some(sel),
            Err(e) => e.selection(),
        };
        if let Some(sel) = chosen {
            r.binary = Some(sel.binary.to_string());
        }
        let (ws, _) = opened.map_err(|e| e.to_string())?;
        // One directory serves several sites: its backend is switched (`-reconfigure`), never
        // migrated; the values go in an owner-only file (ward-terraform, as `ward drift` does).
        let args = ws
            .backend_args(&inst.site.backend_config)
            .map_err(|e| e.to_string())?;
        ws.init(&args).map_err(|e| e.to_string())?;
        Ok(ws)
    }

    /// The outputs of an instance, from this run or read now.
    fn outputs_of(&mut self, all: &[Instance], id: &str) -> Result<Outputs, String> {
        if let Some(o) = self.outputs.get(id) {
            return Ok(o.clone());
        }
        let Some(up) = all.iter().find(|i| i.id() == id) else {
            return Err(format!("{id} is not part of the stack"));
        };
        let mut scratch = up.report(RootOutcome::NotReached);
        let ws = self.open(up, &mut scratch)?;
        let o = ws.outputs().map_err(|e| e.to_string())?;
        self.outputs.insert(id.to_string(), o.clone());
        Ok(o)
    }

    /// The var files of an instance: its site's, then the generated one with its upstream
    /// outputs; and the context (`sha256:` over the upstream outputs' digests), `None` without
    /// reads.
    pub(crate) fn inputs(
        &mut self,
        all: &[Instance],
        inst: &Instance,
        ws: &Workspace,
    ) -> Result<(Vec<PathBuf>, Option<String>), String> {
        let mut files = inst.var_files();
        if inst.reads.is_empty() {
            return Ok((files, None));
        }
        let mut reads = Vec::new();
        for id in &inst.reads {
            reads.push((id.clone(), self.outputs_of(all, id)?));
        }
        // The var file and its context hash are ward-terraform's (`ward drift` passes the same).
        let (f, context) = ws.upstream_var_file(&reads).map_err(|e| e.to_string())?;
        files.push(f);
        Ok((files, Some(context)))
    }

    fn approve_command(&self, inst: &Instance, address: &str) -> String {
        let mut c = String::from("ward stack approve");
        if let Some(cfg) = Some(&self.opts.config.file).filter(|f| !f.is_empty()) {
            c.push_str(&format!(" --config {}", ward_gate::shell_quote(cfg)));
        }
        if inst.site.name != ward_config::stack::DEFAULT_SITE {
            c.push_str(&format!(
                " --site {}",
                ward_gate::shell_quote(&inst.site.name)
            ));
        }
        c.push_str(&format!(
            " --root {} --address {} --reason \"...\"",
            ward_gate::shell_quote(&inst.root),
            ward_gate::shell_quote(address)
        ));
        c
    }

    /// Gates the saved plan `planfile` of `ws`, its `show -json` output read once, as a stream,
    /// as the gate reads it (kept as plan `pending_name`'s in the workspace's scratch
    /// directory); the report's counts come from the same pass. `Ok(None)` when it passes,
    /// else the step's outcome and exit.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn gate(
        &mut self,
        inst: &Instance,
        ws: &Workspace,
        planfile: &Path,
        context: Option<&str>,
        every_change: bool,
        r: &mut RootReport,
        pending_name: &str,
    ) -> Result<Option<(StepRecord, Exit)>, String> {
        let cmd = |a: &str| self.approve_command(inst, a);
        // The configuration the plan was made from: the root, or a unit's working copy.
        let code = ward_terraform::config_dir(&inst.dir).map_err(|e| e.to_string())?;
        let json = ws.json_path(pending_name);
        let mut counts = Changes::default();
        let mut read = |o: ward_plan::ReadOptions,
                        f: &mut dyn FnMut(ward_model::ResourceChange)| {
            let mut each = |ch: ward_model::ResourceChange| {
                add(&mut counts, &ch);
                f(ch)
            };
            ws.show_read(planfile, pending_name, o, Some(&mut each))
                .map(|s| (s.plan, s.objects))
                .map_err(|e| e.to_string())
        };
        let g = gate::gate(
            self.opts,
            &json,
            ReadPlan { read: &mut read },
            &code,
            gate::Recorded {
                db: &self.opts.db,
                root: &inst.root,
                site: &inst.site.name,
                run: self.run_id.as_deref(),
            },
            gate::Binding {
                context,
                every_change,
            },
            self.env,
            &cmd,
        );
        r.changes = Some(counts);
        let g = g?;
        if g.exit == Exit::Pass {
            return Ok(None);
        }
        let pending = g.pending.len();
        r.approvals = g.pending;
        r.detail.extend(g.problems);
        let mut pending_plan = None;
        if g.exit == Exit::ApprovalRequired {
            r.outcome = RootOutcome::ApprovalRequired;
            r.detail.push(format!(
                "{} change(s) need their own approval, bound to their digest{}: approve each with the command shown, then run `ward stack resume`",
                pending,
                if context.is_some() { " and to the upstream outputs" } else { "" }
            ));
            // Kept for `ward stack approve`: beside the backups, outside the checkout.
            let dir = backup_dir(self.opts).map_err(|e| e.to_string())?;
            let p =
                private_dir_under(&dir, &[&safe_name(&inst.root), &safe_name(&inst.site.name)])?
                    .join(format!("{pending_name}.plan.json"));
            // Copied as a stream: the JSON can be larger than what ward holds of it.
            let mut from = std::fs::File::open(&json)
                .map_err(|e| format!("cannot read {}: {e}", json.display()))?;
            ward_fs::write_atomic_with(&p, ward_fs::Mode::Private, |w| {
                std::io::copy(&mut from, w).map(|_| ())
            })
            .map_err(|e| e.to_string())?;
            pending_plan = Some(p.display().to_string());
        } else {
            r.outcome = RootOutcome::GateRefused;
            r.detail.push(format!(
                "the gate refused ({}): see `ward gate` on this plan",
                g.exit.as_str()
            ));
        }
        Ok(Some((
            StepRecord {
                run: self.run_id.clone().unwrap_or_default(),
                report: r.clone(),
                pending_plan,
                context: context.map(str::to_string),
                every_change,
            },
            g.exit,
        )))
    }

    /// After an apply: the plan kept for `ward stack approve` is spent; remove it.
    pub(crate) fn applied(&self, inst: &Instance, pending_name: &str) {
        if let Some(dir) = self.opts.config.stack.backup_dir.as_deref() {
            let p = resolve(dir)
                .join(safe_name(&inst.root))
                .join(safe_name(&inst.site.name))
                .join(format!("{pending_name}.plan.json"));
            let _ = std::fs::remove_file(p);
        }
    }

    fn record_step(&mut self, s: &StepRecord) -> Result<(), StackError> {
        let at = self.now();
        if let Some(j) = self.journal.as_mut() {
            j.step(s, &at).map_err(StackError::Usage)?;
        }
        Ok(())
    }

    pub(crate) fn step(&self, r: &RootReport) -> StepRecord {
        StepRecord {
            run: self.run_id.clone().unwrap_or_default(),
            report: r.clone(),
            pending_plan: None,
            context: None,
            every_change: false,
        }
    }
}

pub(crate) fn finish(
    command: Command,
    opts: &Options,
    run: Option<String>,
    roots: Vec<RootReport>,
    exit: Exit,
    stopped: Option<String>,
) -> StackReport {
    StackReport {
        command,
        resume: (exit != Exit::Pass && run.is_some() && command != Command::Plan)
            .then(|| "ward stack resume".to_string()),
        run,
        resumed: None,
        site: opts.site.clone(),
        only_root: opts.root.clone(),
        roots,
        exit,
        exit_code: exit,
        stopped,
    }
}

/// The first instance of `insts` ward cannot run at all, refused: a Terragrunt unit without a
/// `terragrunt` to run it ([`ward_terraform::runner_for`], the same decision every workspace
/// makes). Checked before a command runs anything, so nothing is applied or destroyed first.
pub(crate) fn cannot_run(opts: &Options, insts: &[Instance]) -> Option<RootReport> {
    insts.iter().find_map(|inst| {
        let e = ward_terraform::runner_for(&inst.dir, &opts.env, opts.path.as_deref()).err()?;
        let mut r = inst.report(RootOutcome::Refused);
        r.detail.push(format!(
            "{e}, or take it out of the stack (remove `layer` from root \"{}\" in ward.hcl); nothing was run",
            inst.root
        ));
        Some(r)
    })
}

/// `root/site: why` of a refused instance.
pub(crate) fn refusal(r: &RootReport) -> String {
    format!(
        "{}: {}",
        r.id(),
        r.detail.last().map(String::as_str).unwrap_or_default()
    )
}

/// Ends a journaled run that refused before changing anything: the refused instance's step is
/// recorded, the others are not reached, exit 10. Nothing to resume: the command is run again.
pub(crate) fn refuse(
    mut run: Run<'_>,
    rec: RunRecord,
    command: Command,
    sel: &[Instance],
    r: RootReport,
    resumed: Option<String>,
) -> Result<StackReport, StackError> {
    run.record_step(&run.step(&r))?;
    let why = refusal(&r);
    let mut roots = vec![r];
    not_reached(sel, &mut roots);
    end(&mut run, rec, Exit::StackRefused)?;
    let mut rep = finish(
        command,
        run.opts,
        run.run_id.clone(),
        roots,
        Exit::StackRefused,
        Some(why),
    );
    rep.resume = None;
    rep.resumed = resumed;
    Ok(rep)
}

/// Runs `step` on each instance of `sel` in order, each starting as `initial`: records every
/// step in the journal and stops at the first that does not finish. Returns the reports in
/// order, how the run ends, and why it stopped. `apply` and `teardown` both run through it.
pub(crate) fn each_step<'a>(
    run: &mut Run<'a>,
    sel: &[Instance],
    initial: RootOutcome,
    what: &str,
    mut step: impl FnMut(&mut Run<'a>, &Instance, &mut RootReport) -> Result<Stop, String>,
) -> Result<(Vec<RootReport>, Exit, Option<String>), StackError> {
    let mut roots = Vec::new();
    for inst in sel {
        let mut r = inst.report(initial);
        run.progress(inst, what);
        // Written before anything runs here: a run killed in this root's step leaves this
        // record behind, so `ward stack status` names the root whose state may be half changed.
        let mut under_way = inst.report(RootOutcome::InProgress);
        under_way.detail.push(format!(
            "ward stack {what} reached this root and had not finished it"
        ));
        run.record_step(&run.step(&under_way))?;
        let (record, stop) = match step(run, inst, &mut r) {
            Ok(None) => (run.step(&r), None),
            Ok(Some((record, e))) => {
                r = record.report.clone();
                (record, Some(e))
            }
            Err(e) => {
                r.outcome = RootOutcome::Failed;
                r.detail.push(e);
                (run.step(&r), Some(Exit::StackFailed))
            }
        };
        run.record_step(&record)?;
        roots.push(r.clone());
        run.done += 1;
        if let Some(e) = stop {
            let why = format!(
                "{}: {}",
                inst.id(),
                r.detail
                    .last()
                    .cloned()
                    .unwrap_or_else(|| r.outcome.as_str().to_string())
            );
            return Ok((roots, e, Some(why)));
        }
    }
    Ok((roots, Exit::Pass, None))
}

fn new_run_id(opts: &Options, command: Command) -> String {
    format!("{}-{}", opts.clock.now_rfc3339(), command.as_str())
}

/// Starts a journaled run.
pub(crate) fn begin<'a>(
    opts: &'a Options,
    env: Env<'a>,
    command: Command,
    order: &[Instance],
    resumes: Option<String>,
) -> Result<(Run<'a>, RunRecord), StackError> {
    let mut run = Run::new(opts, env, order.len());
    let mut j = Journal::open_location(&opts.db).map_err(StackError::Usage)?;
    let id = new_run_id(opts, command);
    let rec = RunRecord {
        run: id.clone(),
        command,
        site: opts.site.clone(),
        root: opts.root.clone(),
        status: "running".into(),
        exit_code: None,
        resumes,
        order: order.iter().map(Instance::id).collect(),
        process: Some(journal::Process::current()),
    };
    j.run(&rec, &opts.clock.now_rfc3339())
        .map_err(StackError::Usage)?;
    run.journal = Some(j);
    run.run_id = Some(id);
    Ok((run, rec))
}

pub(crate) fn end(run: &mut Run<'_>, mut rec: RunRecord, exit: Exit) -> Result<(), StackError> {
    rec.status = exit.as_str().to_string();
    rec.exit_code = Some(exit.code());
    let at = run.now();
    if let Some(j) = run.journal.as_mut() {
        j.run(&rec, &at).map_err(StackError::Usage)?;
    }
    Ok(())
}

pub(crate) type Stop = Option<(StepRecord, Exit)>;
