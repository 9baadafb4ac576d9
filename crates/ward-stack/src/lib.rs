//! `ward stack`: layered roots (FIELD-NOTES 9 and 15) applied forward and torn down in reverse.
//!
//! The stack is declared in `ward.hcl` ([`ward_config::StackSettings`], and in `root` blocks
//! `layer`, `reads`, `site` and `pre_destroy`). Every root with a layer takes part; a root with
//! `site` blocks has one instance per site, a root without has one, site `default`.
//!
//! - **Order.** Instances are visited by layer level (then root name, then site in file order):
//!   upwards for `plan` and `apply`, downwards for `teardown`.
//! - **Reads.** A root reads only outputs, and only of the roots it names in `reads` (the layer
//!   directly below, checked by ward-config). ward passes each read root's `output -json` values
//!   as one variable named after that root (`var.network.network_id`), in a generated
//!   `-var-file` in the run's owner-only scratch directory. The `sha256:` of the read outputs is
//!   the root's *context*: it is bound into every approval digest of the root's plans, so an
//!   approval given against other upstream outputs is stale.
//! - **Plan** ([`plan`]): a root whose upstream has changes (or is itself blocked) is
//!   `blocked-by-upstream`, never planned against stale outputs.
//! - **Apply** ([`apply`]): per instance: plan (saved), the gate on it, apply exactly that plan,
//!   `output -json` (sha256), `state pull` (serial, lineage), then a plan that must show no
//!   changes. A downstream root is planned only after its upstream was applied in this run.
//! - **Teardown** ([`teardown`]): refused while a root that reads one to destroy still holds
//!   resources; per instance, downwards: `state pull` into
//!   `backup_dir/<root>/<site>/<serial>-<lineage>-<sha256>.tfstate` (atomic, owner-only, re-read
//!   and compared), `pre_destroy` commands under the guard rules, a destroy plan in which every
//!   destroy needs its own approval (`ward stack approve`), apply, then proof: the state is empty,
//!   and every root that remains plans with no changes.
//! - **Journal** ([`journal`]): every run root by root in ward's history store; a run stops at
//!   the first failure with its exit code, and [`resume`] re-verifies what finished before it
//!   continues. [`status`] shows the last run.

mod gate;
pub mod journal;

pub use gate::ApproveArgs;
use journal::{Journal, RunRecord, StepRecord};
use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_config::{Config, PreDestroy, Site};
use ward_model::Exit;
use ward_report::stack::{
    Backup, Changes, Command, RootOutcome, RootReport, StackReport, StateMark,
};
use ward_terraform::{binary, Binary, Outputs, PlanArgs, SavedPlan, Workspace};

/// Reads environment variables (injectable for tests): approvals' key, guard bypasses, the
/// approver's name. The process environment in `ward`.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Why a stack command could not run at all (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum StackError {
    /// The stack cannot be run as declared or asked.
    #[error("{0}")]
    Usage(String),
}

impl StackError {
    /// Its exit code.
    pub fn exit(&self) -> Exit {
        Exit::Usage
    }
}

fn usage(s: impl Into<String>) -> StackError {
    StackError::Usage(s.into())
}

/// Everything a stack command needs.
pub struct Options {
    /// `ward.hcl`, read.
    pub config: Config,
    /// The directory roots' paths are relative to (the directory of `ward.hcl`).
    pub repo: PathBuf,
    /// `--site`.
    pub site: Option<String>,
    /// `--root` (teardown only).
    pub root: Option<String>,
    /// The Terraform/OpenTofu binaries found ([`binary::find_binaries`]).
    pub binaries: Vec<Binary>,
    /// The history (a SQLite file or a PostgreSQL database), chosen once by the caller: the
    /// journal, the gate's adoption check and its audit trail all use it.
    pub db: ward_store::Location,
    /// The clock.
    pub clock: ward_time::Clock,
    /// Print progress lines on standard error (when it is a terminal).
    pub progress: bool,
    /// Variables set for every Terraform run (besides the inherited environment, whose `TF_*`
    /// variables are removed except the allow-list's).
    pub env: Vec<(String, String)>,
}

/// One root at one site.
#[derive(Debug, Clone)]
struct Instance {
    root: String,
    site: Site,
    path: String,
    dir: PathBuf,
    layer: String,
    level: i64,
    /// Instances it reads, as `root/site` ids.
    reads: Vec<String>,
    pre_destroy: Vec<PreDestroy>,
    pin: Option<ward_config::Pin>,
}

impl Instance {
    fn id(&self) -> String {
        format!("{}/{}", self.root, self.site.name)
    }

    fn report(&self, outcome: RootOutcome) -> RootReport {
        RootReport {
            root: self.root.clone(),
            site: self.site.name.clone(),
            layer: self.layer.clone(),
            level: self.level,
            path: self.path.clone(),
            outcome,
            detail: Vec::new(),
            binary: None,
            changes: None,
            upstream_sha256: None,
            outputs_sha256: None,
            state: None,
            backup: None,
            approvals: Vec::new(),
        }
    }

    fn var_files(&self) -> Vec<PathBuf> {
        self.site.var_files.iter().map(PathBuf::from).collect()
    }
}

/// The variable a read root's outputs are passed as (ward-terraform owns the rule: `ward drift`
/// passes them the same way).
pub use ward_terraform::variable_name;

/// Every instance of the stack, in apply order.
fn instances(cfg: &Config, repo: &Path) -> Result<Vec<Instance>, StackError> {
    let mut out = Vec::new();
    for r in &cfg.roots {
        let Some(layer) = &r.layer else { continue };
        let Some(l) = cfg.layers.iter().find(|l| &l.name == layer) else {
            continue;
        };
        for site in r.stack.instances() {
            out.push(Instance {
                root: r.name.clone(),
                path: r.path.clone(),
                dir: repo.join(&r.path),
                layer: l.name.clone(),
                level: l.level,
                reads: Vec::new(),
                pre_destroy: r.stack.pre_destroy.clone(),
                pin: r.pin.clone(),
                site,
            });
        }
    }
    // Reads resolve to the instance at the same site, or to the read root's only instance.
    let sites_of = |name: &str| -> Vec<String> {
        out.iter()
            .filter(|i| i.root == name)
            .map(|i| i.site.name.clone())
            .collect()
    };
    let mut resolved = Vec::new();
    for i in &out {
        let decl = cfg.roots.iter().find(|r| r.name == i.root);
        let mut reads = Vec::new();
        for read in decl.map(|d| d.stack.reads.clone()).unwrap_or_default() {
            let sites = sites_of(&read);
            if sites.contains(&i.site.name) {
                reads.push(format!("{read}/{}", i.site.name));
            } else if sites.len() == 1 && sites[0] == ward_config::stack::DEFAULT_SITE {
                reads.push(format!("{read}/{}", sites[0]));
            } else {
                return Err(usage(format!(
                    "root \"{}\" at site \"{}\" reads \"{read}\", which has no site \"{}\" (its sites: {}); declare `site \"{}\"` in root \"{read}\", or remove the `site` blocks of one of them",
                    i.root, i.site.name, i.site.name, sites.join(", "), i.site.name
                )));
            }
        }
        resolved.push(reads);
    }
    for (i, reads) in out.iter_mut().zip(resolved) {
        i.reads = reads;
    }
    out.sort_by(|a, b| (a.level, &a.root).cmp(&(b.level, &b.root)));
    if out.is_empty() {
        return Err(usage(
            "no root in ward.hcl has a `layer`: ward stack runs the roots of declared layers; add `layer \"NAME\" { level = N }` blocks and `layer = \"NAME\"` to the roots (see `ward docs stack`)",
        ));
    }
    Ok(out)
}

/// Keeps the instances at `site` (roots without sites serve every site), refusing a site no
/// root declares.
fn at_site(all: Vec<Instance>, site: Option<&str>) -> Result<Vec<Instance>, StackError> {
    let Some(site) = site else { return Ok(all) };
    let known: BTreeSet<String> = all
        .iter()
        .map(|i| i.site.name.clone())
        .filter(|s| s != ward_config::stack::DEFAULT_SITE)
        .collect();
    if !known.contains(site) {
        let names: Vec<&str> = known.iter().map(String::as_str).collect();
        let close = names
            .iter()
            .min_by_key(|k| strsim_like(site, k))
            .filter(|k| strsim_like(site, k) <= 2);
        return Err(usage(format!(
            "unknown site \"{site}\": no root declares `site \"{site}\"`{}; the sites are: {}",
            close
                .map(|k| format!(" (did you mean \"{k}\"?)"))
                .unwrap_or_default(),
            if names.is_empty() {
                "none (no root has `site` blocks)".to_string()
            } else {
                names.join(", ")
            }
        )));
    }
    let roots_with_site: BTreeSet<String> = all
        .iter()
        .filter(|i| i.site.name == site)
        .map(|i| i.root.clone())
        .collect();
    Ok(all
        .into_iter()
        .filter(|i| {
            i.site.name == site
                || (i.site.name == ward_config::stack::DEFAULT_SITE
                    && !roots_with_site.contains(&i.root))
        })
        .collect())
}

/// Edit distance, for a did-you-mean on site names.
fn strsim_like(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The checkout a directory belongs to: the nearest ancestor holding `.git`, else itself.
fn checkout_of(dir: &Path) -> PathBuf {
    let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut p: &Path = &start;
    loop {
        if p.join(".git").exists() {
            return p.to_path_buf();
        }
        match p.parent() {
            Some(q) => p = q,
            None => return start,
        }
    }
}

/// Where `p` really lands: its nearest existing ancestor resolved through symlinks, then the
/// rest of it.
fn resolve(p: &Path) -> PathBuf {
    let mut tail: Vec<std::ffi::OsString> = Vec::new();
    let mut cur = p.to_path_buf();
    loop {
        if let Ok(real) = std::fs::canonicalize(&cur) {
            let mut out = real;
            for t in tail.iter().rev() {
                out.push(t);
            }
            return out;
        }
        match (cur.file_name().map(|f| f.to_os_string()), cur.parent()) {
            (Some(f), Some(parent)) => {
                tail.push(f);
                cur = parent.to_path_buf();
            }
            _ => return p.to_path_buf(),
        }
    }
}

/// `stack.backup_dir`, which must be set and lie outside the checkout.
fn backup_dir(opts: &Options) -> Result<PathBuf, StackError> {
    let Some(b) = &opts.config.stack.backup_dir else {
        return Err(usage(format!(
            "{}: `stack {{ backup_dir = ... }}` is not set: ward stack keeps a backup of every root's state before any destroy, outside the repository; set it to a directory outside the checkout",
            opts.config.file
        )));
    };
    let checkout = checkout_of(&opts.repo);
    let real = resolve(b);
    if real.starts_with(&checkout) {
        return Err(usage(format!(
            "{}:{}: stack.backup_dir {} lies inside the checkout {}: a backup in a checkout is lost with it (a re-clone, or a CI workspace wiped between jobs); set it to a directory outside the repository",
            opts.config.file,
            opts.config.stack.line,
            b.display(),
            checkout.display()
        )));
    }
    Ok(real)
}

fn count(plan: &ward_model::Plan) -> Changes {
    let mut c = Changes::default();
    for ch in plan
        .changes
        .iter()
        .filter(|c| c.mode == ward_model::Mode::Managed)
    {
        use ward_model::Action as A;
        match ch.action {
            A::Create => c.create += 1,
            A::Update => c.update += 1,
            A::Delete => c.delete += 1,
            a if a.is_replace() => c.replace += 1,
            _ => {}
        }
    }
    c
}

/// `state pull` as the report shows it.
fn mark(s: &ward_terraform::PulledState) -> Option<StateMark> {
    s.info.as_ref().map(|i| StateMark {
        serial: i.serial,
        lineage: i.lineage.clone(),
        resources: i.resources,
    })
}

/// One running command: the options, the journal, what the run learned.
struct Run<'a> {
    opts: &'a Options,
    env: Env<'a>,
    config_path: PathBuf,
    timeout: Duration,
    /// Outputs of instances, by id, read or applied in this run.
    outputs: BTreeMap<String, Outputs>,
    journal: Option<Journal>,
    run_id: Option<String>,
    total: usize,
    done: usize,
}

impl<'a> Run<'a> {
    fn new(opts: &'a Options, env: Env<'a>, total: usize) -> Run<'a> {
        Run {
            opts,
            env,
            config_path: opts.config.path.clone(),
            timeout: opts.config.stack.timeout,
            outputs: BTreeMap::new(),
            journal: None,
            run_id: None,
            total,
            done: 0,
        }
    }

    fn now(&self) -> String {
        self.opts.clock.now_rfc3339()
    }

    fn progress(&self, inst: &Instance, what: &str) {
        if self.opts.progress && std::io::stderr().is_terminal() {
            eprintln!(
                "[{}/{}] {}: {what}",
                self.done + 1,
                self.total,
                ward_report::escape::terminal(&inst.id())
            );
        }
    }

    /// A workspace on the instance's root: binary chosen by evidence, run directly or (a
    /// Terragrunt unit) through `terragrunt`, `init` with the site's backend configuration
    /// (from an owner-only file, never in argv).
    fn open(&self, inst: &Instance, r: &mut RootReport) -> Result<Workspace, String> {
        let ev = binary::Evidence::gather(&inst.dir)?;
        let sel = binary::select(inst.pin.as_ref(), &ev, &self.opts.binaries)
            .map_err(|e| format!("cannot choose terraform or tofu: {e}"))?;
        r.binary = Some(sel.binary.to_string());
        let ws = Workspace::for_root(&sel.binary, &inst.dir, self.timeout, &self.opts.env)
            .map_err(|e| e.to_string())?;
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
    fn inputs(
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

    /// Gates a saved plan; `Ok(None)` when it passes, else the step's outcome and exit.
    #[allow(clippy::too_many_arguments)]
    fn gate(
        &mut self,
        inst: &Instance,
        plan: &SavedPlan,
        context: Option<&str>,
        every_change: bool,
        r: &mut RootReport,
        pending_name: &str,
    ) -> Result<Option<(StepRecord, Exit)>, String> {
        let cmd = |a: &str| self.approve_command(inst, a);
        // The configuration the plan was made from: the root, or a unit's working copy.
        let code = ward_terraform::config_dir(&inst.dir).map_err(|e| e.to_string())?;
        let g = gate::gate(
            &plan.json_path,
            &self.config_path,
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
        )?;
        if g.exit == Exit::Pass {
            return Ok(None);
        }
        r.approvals = g.pending.clone();
        r.detail.extend(g.problems.iter().cloned());
        let mut pending_plan = None;
        if g.exit == Exit::ApprovalRequired {
            r.outcome = RootOutcome::ApprovalRequired;
            r.detail.push(format!(
                "{} change(s) need their own approval, bound to their digest{}: approve each with the command shown, then run `ward stack resume`",
                g.pending.len(),
                if context.is_some() { " and to the upstream outputs" } else { "" }
            ));
            // Kept for `ward stack approve`: beside the backups, outside the checkout.
            let dir = backup_dir(self.opts).map_err(|e| e.to_string())?;
            let bytes = std::fs::read(&plan.json_path)
                .map_err(|e| format!("cannot read {}: {e}", plan.json_path.display()))?;
            let p =
                private_dir_under(&dir, &[&safe_name(&inst.root), &safe_name(&inst.site.name)])?
                    .join(format!("{pending_name}.plan.json"));
            ward_fs::write_atomic(&p, &bytes, ward_fs::Mode::Private).map_err(|e| e.to_string())?;
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
    fn applied(&self, inst: &Instance, pending_name: &str) {
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

    fn step(&self, r: &RootReport) -> StepRecord {
        StepRecord {
            run: self.run_id.clone().unwrap_or_default(),
            report: r.clone(),
            pending_plan: None,
            context: None,
            every_change: false,
        }
    }
}

/// Creates (0700) `base/<part>/<part>...` one component at a time and returns it, never
/// following a symlink below `base`: a component that exists as a link, or as anything but a
/// directory, is refused. `base` is the resolved `stack.backup_dir`, checked to lie outside the
/// checkout; without this, a link planted at `backup_dir/<root>` sent the "verified backup
/// outside the checkout" back into it.
fn private_dir_under(base: &Path, parts: &[&str]) -> Result<PathBuf, String> {
    use std::os::unix::fs::DirBuilderExt;
    private_dir(base)?;
    let mut d = base.to_path_buf();
    for part in parts {
        d.push(part);
        let mut created = false;
        loop {
            match std::fs::symlink_metadata(&d) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(format!(
                        "{} is a symbolic link: ward keeps backups and pending plans only in real directories under stack.backup_dir; remove the link",
                        d.display()
                    ))
                }
                Ok(m) if m.is_dir() => break,
                Ok(_) => {
                    return Err(format!(
                        "{} is not a directory: remove it, or set stack.backup_dir elsewhere",
                        d.display()
                    ))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && !created => {
                    created = true;
                    match std::fs::DirBuilder::new().mode(0o700).create(&d) {
                        // Made now, or by another ward at the same moment: looked at again.
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                        Err(e) => return Err(format!("cannot create {}: {e}", d.display())),
                    }
                }
                Err(e) => return Err(format!("cannot inspect {}: {e}", d.display())),
            }
        }
    }
    Ok(d)
}

/// Creates a directory (and its parents) readable by its owner only.
fn private_dir(d: &Path) -> Result<(), String> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(d)
        .map_err(|e| format!("cannot create {}: {e}", d.display()))
}

fn finish(
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
                .plan(&PlanArgs {
                    var_files: files,
                    ..PlanArgs::default()
                })
                .map_err(|e| e.to_string())?;
            r.changes = Some(count(&p.plan));
            if p.has_changes {
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

/// The first instance of `insts` ward cannot run at all, refused: a Terragrunt unit without a
/// `terragrunt` to run it ([`ward_terraform::runner_for`], the same decision every workspace
/// makes). Checked before a command runs anything, so nothing is applied or destroyed first.
fn cannot_run(opts: &Options, insts: &[Instance]) -> Option<RootReport> {
    insts.iter().find_map(|inst| {
        let e = ward_terraform::runner_for(&inst.dir, &opts.env).err()?;
        let mut r = inst.report(RootOutcome::Refused);
        r.detail.push(format!(
            "{e}, or take it out of the stack (remove `layer` from root \"{}\" in ward.hcl); nothing was run",
            inst.root
        ));
        Some(r)
    })
}

/// `root/site: why` of a refused instance.
fn refusal(r: &RootReport) -> String {
    format!(
        "{}: {}",
        r.id(),
        r.detail.last().map(String::as_str).unwrap_or_default()
    )
}

/// Ends a journaled run that refused before changing anything: the refused instance's step is
/// recorded, the others are not reached, exit 10. Nothing to resume: the command is run again.
fn refuse(
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
fn each_step<'a>(
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

/// Adds every instance of `sel` not in `roots` as not reached.
fn not_reached(sel: &[Instance], roots: &mut Vec<RootReport>) {
    for inst in sel {
        if !roots.iter().any(|r| r.id() == inst.id()) {
            roots.push(inst.report(RootOutcome::NotReached));
        }
    }
}

fn new_run_id(opts: &Options, command: Command) -> String {
    format!("{}-{}", opts.clock.now_rfc3339(), command.as_str())
}

/// Starts a journaled run.
fn begin<'a>(
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

fn end(run: &mut Run<'_>, mut rec: RunRecord, exit: Exit) -> Result<(), StackError> {
    rec.status = exit.as_str().to_string();
    rec.exit_code = Some(exit.code());
    let at = run.now();
    if let Some(j) = run.journal.as_mut() {
        j.run(&rec, &at).map_err(StackError::Usage)?;
    }
    Ok(())
}

/// `ward stack apply`.
pub fn apply(opts: &Options, env: Env<'_>) -> Result<StackReport, StackError> {
    apply_inner(opts, env, None)
}

fn apply_inner(
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

type Stop = Option<(StepRecord, Exit)>;

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
    let p = ws.plan(&args).map_err(|e| e.to_string())?;
    r.changes = Some(count(&p.plan));
    if let Some(prev) = before {
        // Resume: finished in the run being resumed; check it still is what it was.
        if p.has_changes {
            return Err(format!(
                "it was applied in run {} but now plans changes ({}): something changed since; review it with `ward stack plan`, then run `ward stack apply`",
                prev.run,
                count(&p.plan).describe()
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
    if p.has_changes {
        if let Some(stop) = run.gate(inst, &p, context.as_deref(), false, r, "apply")? {
            return Ok(Some(stop));
        }
        ws.apply_saved(&p).map_err(|e| e.to_string())?;
        run.applied(inst, "apply");
        r.outcome = RootOutcome::Applied;
    }
    let o = ws.outputs().map_err(|e| e.to_string())?;
    r.outputs_sha256 = Some(o.sha256.clone());
    run.outputs.insert(inst.id(), o);
    r.state = mark(&ws.state_pull().map_err(|e| e.to_string())?);
    if r.outcome == RootOutcome::Applied {
        let again = ws
            .plan(&PlanArgs {
                var_files: files,
                name: Some("check".into()),
                ..PlanArgs::default()
            })
            .map_err(|e| e.to_string())?;
        if again.has_changes {
            return Err(format!(
                "after the apply, a new plan still shows changes ({}): the root does not converge; fix its configuration before going on",
                count(&again.plan).describe()
            ));
        }
    }
    Ok(None)
}

/// `ward stack teardown`.
pub fn teardown(opts: &Options, env: Env<'_>) -> Result<StackReport, StackError> {
    teardown_inner(opts, env, None)
}

fn teardown_inner(
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
            let res = (|| -> Result<Option<String>, String> {
                let ws = run.open(inst, &mut r)?;
                let s = ws.state_pull().map_err(|e| e.to_string())?;
                if s.resources() == 0 {
                    return Ok(None);
                }
                r.state = mark(&s);
                let (files, context) = run.inputs(&all, inst, &ws)?;
                r.upstream_sha256 = context;
                let p = ws
                    .plan(&PlanArgs {
                        var_files: files,
                        name: Some("remains".into()),
                        ..PlanArgs::default()
                    })
                    .map_err(|e| e.to_string())?;
                r.changes = Some(count(&p.plan));
                Ok(p.has_changes.then(|| {
                    format!(
                        "it remains and now plans changes ({}): the teardown changed what it depends on",
                        count(&p.plan).describe()
                    )
                }))
            })();
            match res {
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
    let p = ws
        .plan(&PlanArgs {
            destroy: true,
            var_files: files,
            name: Some("destroy".into()),
            ..PlanArgs::default()
        })
        .map_err(|e| e.to_string())?;
    r.changes = Some(count(&p.plan));
    if let Some(stop) = run.gate(inst, &p, context.as_deref(), true, r, "destroy")? {
        return Ok(Some(stop));
    }
    // 4. Apply exactly that plan; 5. proof: the state is empty.
    ws.apply_saved(&p).map_err(|e| e.to_string())?;
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

/// A root, site or lineage as one path component under `backup_dir`: letters, digits, `-`, `_`
/// and `.` kept, anything else (`/` included) written `_`, and never `.` or `..`.
fn safe_name(x: &str) -> String {
    let s: String = x
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        s.replace('.', "_") + "_"
    } else {
        s
    }
}

/// Writes the pulled state to `dir/<root>/<site>/<serial>-<lineage>-<sha256>.tfstate`
/// (atomic, owner-only), then reads it back and compares.
fn backup(dir: &Path, inst: &Instance, s: &ward_terraform::PulledState) -> Result<Backup, String> {
    let Some(info) = &s.info else {
        return Err("the state is empty: nothing to back up".into());
    };
    if s.bytes.is_empty() {
        return Err("`state pull` printed nothing: the backup would be empty; stopping".into());
    }
    let hex = s.sha256.trim_start_matches("sha256:");
    let safe = safe_name;
    let name = format!("{}-{}-{hex}.tfstate", info.serial, safe(&info.lineage));
    let shown = dir
        .join(safe(&inst.root))
        .join(safe(&inst.site.name))
        .join(&name);
    let fail = |e: String| {
        format!(
            "cannot write the state backup {}: {e}; nothing was destroyed. Make stack.backup_dir writable, then `ward stack resume`",
            shown.display()
        )
    };
    let p = private_dir_under(dir, &[&safe(&inst.root), &safe(&inst.site.name)])
        .map_err(fail)?
        .join(&name);
    ward_fs::write_atomic(&p, &s.bytes, ward_fs::Mode::Private).map_err(|e| fail(e.to_string()))?;
    let back = std::fs::read(&p).map_err(|e| fail(e.to_string()))?;
    let sha = ward_terraform::sha256(&back);
    if sha != s.sha256 {
        return Err(fail(format!(
            "read back as {sha}, not the {} `state pull` printed",
            s.sha256
        )));
    }
    Ok(Backup {
        path: p.display().to_string(),
        sha256: sha,
        serial: info.serial,
        lineage: info.lineage.clone(),
    })
}

/// `ward stack resume`: continues the last run when it did not pass, with its command, site
/// and root; what it finished is checked again rather than redone.
pub fn resume(opts: &Options, env: Env<'_>) -> Result<StackReport, StackError> {
    let j = Journal::open_location(&opts.db).map_err(StackError::Usage)?;
    let Some(last) = j.last_run().map_err(StackError::Usage)? else {
        return Err(usage(format!(
            "nothing to resume: the history {} holds no ward stack run",
            opts.db
        )));
    };
    if last.status == Exit::Pass.as_str() {
        return Err(usage(format!(
            "nothing to resume: the last run ({}, ward stack {}) finished",
            last.run,
            last.command.as_str()
        )));
    }
    if last.status == "running" {
        match last.liveness() {
            // Killed or interrupted: resumed like a run that stopped; the root it was at is
            // recorded in progress, not finished, so it is done again.
            journal::Liveness::Interrupted => {}
            journal::Liveness::Running => {
                return Err(usage(format!(
                    "the last run ({}) is still running (process {}): wait for it, or stop it, then `ward stack resume`",
                    last.run,
                    last.process.as_ref().map_or(0, |p| p.pid)
                )))
            }
            journal::Liveness::Unknown => {
                return Err(usage(format!(
                    "the last run ({}) is recorded as running on {}, which this machine cannot check: resume it there, or when you are sure it is not running, run `ward stack {}` again",
                    last.run,
                    last.process.as_ref().map_or("another machine", |p| p.host.as_str()),
                    last.command.as_str()
                )))
            }
        }
    }
    let steps = j.steps(&last.run).map_err(StackError::Usage)?;
    drop(j);
    let o = Options {
        config: opts.config.clone(),
        repo: opts.repo.clone(),
        site: last.site.clone(),
        root: last.root.clone(),
        binaries: opts.binaries.clone(),
        db: opts.db.clone(),
        clock: opts.clock,
        progress: opts.progress,
        env: opts.env.clone(),
    };
    match last.command {
        Command::Apply => apply_inner(&o, env, Some((last.run, steps))),
        Command::Teardown => teardown_inner(&o, env, Some((last.run, steps))),
        other => Err(usage(format!(
            "the last run is `ward stack {}`, which cannot be resumed",
            other.as_str()
        ))),
    }
}

/// `ward stack status`: the last run, each root's outcome, backup and outputs' hash.
pub fn status(opts: &Options) -> Result<StackReport, StackError> {
    let j = Journal::open_location(&opts.db).map_err(StackError::Usage)?;
    let Some(last) = j.last_run().map_err(StackError::Usage)? else {
        return Err(usage(format!(
            "no ward stack run recorded in {}: run `ward stack apply` first",
            opts.db
        )));
    };
    let steps = j.steps(&last.run).map_err(StackError::Usage)?;
    let mut roots = Vec::new();
    for id in &last.order {
        match steps.iter().find(|s| &s.report.id() == id) {
            Some(s) => roots.push(s.report.clone()),
            None => {
                let (root, site) = id.split_once('/').unwrap_or((id, ""));
                roots.push(RootReport {
                    root: root.to_string(),
                    site: site.to_string(),
                    layer: String::new(),
                    level: 0,
                    path: String::new(),
                    outcome: RootOutcome::NotReached,
                    detail: Vec::new(),
                    binary: None,
                    changes: None,
                    upstream_sha256: None,
                    outputs_sha256: None,
                    state: None,
                    backup: None,
                    approvals: Vec::new(),
                });
            }
        }
    }
    // What the last run is: ended (its own exit), still running, or interrupted (its process
    // is gone without recording an end: killed, or a cancelled CI job).
    let in_progress = || {
        roots
            .iter()
            .filter(|r| r.outcome == RootOutcome::InProgress)
            .map(RootReport::id)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (exit, stopped) = if last.status == "running" {
        let who = last
            .process
            .as_ref()
            .map(|p| format!("process {} on {}", p.pid, p.host))
            .unwrap_or_else(|| "a process ward did not record".to_string());
        let at = match in_progress() {
            w if w.is_empty() => String::new(),
            w => format!("; it was at {w}, whose state may be partly changed"),
        };
        match last.liveness() {
            journal::Liveness::Running => (
                Exit::Pass,
                Some(format!(
                    "the last run (ward stack {}) is still running ({who}){at}",
                    last.command.as_str()
                )),
            ),
            journal::Liveness::Interrupted => (
                Exit::StackFailed,
                Some(format!(
                    "the last run (ward stack {}) was interrupted: {who} is gone and recorded no end{at}",
                    last.command.as_str()
                )),
            ),
            journal::Liveness::Unknown => (
                Exit::StackFailed,
                Some(format!(
                    "the last run (ward stack {}) is recorded as running ({who}), which this machine cannot check{at}",
                    last.command.as_str()
                )),
            ),
        }
    } else {
        let exit = last
            .exit_code
            .and_then(|c| Exit::from_code(i32::from(c)))
            .unwrap_or(Exit::StackFailed);
        let stopped = (exit != Exit::Pass).then(|| {
            format!(
                "the last run (ward stack {}) ended {} (exit {})",
                last.command.as_str(),
                exit.as_str(),
                exit.code()
            )
        });
        (exit, stopped)
    };
    let resumable =
        exit != Exit::Pass && matches!(last.command, Command::Apply | Command::Teardown);
    Ok(StackReport {
        command: Command::Status,
        run: Some(last.run.clone()),
        resumed: last.resumes.clone(),
        site: last.site.clone(),
        only_root: last.root.clone(),
        roots,
        // The last run's result: `ward stack status` exits with it, so a script can ask.
        exit,
        exit_code: exit,
        stopped,
        resume: resumable.then(|| "ward stack resume".to_string()),
    })
}

/// `ward stack approve`: approves one change of the plan a root instance waits on (the last
/// `ward stack apply` or `teardown` that stopped there), with the same binding the gate used;
/// with [`ApproveArgs::all`], every destroy a teardown waits on, listed with its digest first,
/// each approved (and recorded in the history) on its own. Returns what `ward approve` prints
/// (stdout, stderr).
pub fn approve(
    opts: &Options,
    a: &ApproveArgs,
    env: Env<'_>,
) -> Result<(String, String), StackError> {
    let all = instances(&opts.config, &opts.repo)?;
    let Some(decl) = all.iter().find(|i| i.root == a.root) else {
        let names: BTreeSet<&str> = all.iter().map(|i| i.root.as_str()).collect();
        return Err(usage(format!(
            "--root {}: no root of the stack has that name; the roots are: {}",
            a.root,
            names.into_iter().collect::<Vec<_>>().join(", ")
        )));
    };
    let sites: Vec<&Instance> = all.iter().filter(|i| i.root == a.root).collect();
    let inst = match &a.site {
        Some(s) => sites
            .iter()
            .find(|i| &i.site.name == s)
            .copied()
            .ok_or_else(|| {
                usage(format!(
                    "unknown site \"{s}\" for root \"{}\"; its sites: {}",
                    a.root,
                    sites
                        .iter()
                        .map(|i| i.site.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?,
        None if sites.len() == 1 => decl,
        None => {
            return Err(usage(format!(
                "root \"{}\" has several sites ({}): pass --site",
                a.root,
                sites
                    .iter()
                    .map(|i| i.site.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
    };
    let j = Journal::open_location(&opts.db).map_err(StackError::Usage)?;
    let step = j
        .latest_step(&inst.root, &inst.site.name)
        .map_err(StackError::Usage)?;
    let Some((plan, step)) = step.and_then(|s| s.pending_plan.clone().map(|p| (p, s))) else {
        return Err(usage(format!(
            "{} waits for no approval: run `ward stack apply` or `ward stack teardown` first; the changes that need one are listed in its report",
            inst.id()
        )));
    };
    let code = ward_terraform::config_dir(&inst.dir).map_err(|e| usage(e.to_string()))?;
    let one = |address: &str| {
        let mut args = a.clone();
        args.address = address.to_string();
        gate::approve(
            Path::new(&plan),
            &opts.config.path,
            &code,
            gate::Recorded {
                db: &opts.db,
                root: &inst.root,
                site: &inst.site.name,
                run: Some(step.run.as_str()).filter(|r| !r.is_empty()),
            },
            gate::Binding {
                context: step.context.as_deref(),
                every_change: step.every_change,
            },
            &args,
            env,
        )
        .map_err(StackError::Usage)
    };
    if !a.all {
        if a.address.trim().is_empty() {
            return Err(usage(
                "give the change to approve with --address, or --all for every destroy a teardown waits on",
            ));
        }
        let done = one(&a.address)?;
        return Ok((ward_report::gate::approve_text(&done), lines(&done.notes)));
    }
    // Every destroy the teardown waits on, listed with its digest, then each approved on its
    // own: its own approval, bound to its own digest, recorded on its own (FIELD-NOTES 9).
    if !step.every_change {
        return Err(usage(format!(
            "--all approves the destroys a `ward stack teardown` waits on; {} waits on an apply's changes: approve each with --address (the report lists the commands)",
            inst.id()
        )));
    }
    if !a.address.trim().is_empty() {
        return Err(usage("give --address or --all, not both"));
    }
    let mut pending = step.report.approvals.clone();
    pending.sort_by(|x, y| x.address.cmp(&y.address));
    if pending.is_empty() {
        return Err(usage(format!(
            "{} waits for no approval: run `ward stack teardown` first",
            inst.id()
        )));
    }
    let mut notes = format!(
        "{} waits on {} destroy(s); each is approved on its own, bound to its digest:\n",
        inst.id(),
        pending.len()
    );
    for p in &pending {
        notes.push_str(&format!(
            "  {} ({}, {}) {}\n",
            ward_report::escape::terminal(&p.address),
            p.action,
            p.impact,
            p.digest
        ));
    }
    let mut out = String::new();
    for p in &pending {
        let done = one(&p.address)?;
        for c in done.changes.iter().filter(|c| c.digest != p.digest) {
            notes.push_str(&format!(
                "note: {} was approved at {}, not the {} listed: the saved plan is what the gate checks\n",
                ward_report::escape::terminal(&c.address),
                c.digest,
                p.digest
            ));
        }
        notes.push_str(&lines(&done.notes));
        out.push_str(&ward_report::gate::approve_text(&done));
    }
    Ok((out, notes))
}

/// Notes, one line each.
fn lines(notes: &[String]) -> String {
    notes.iter().map(|n| format!("{n}\n")).collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn cfg(text: &str) -> Config {
        Config::parse(text, "ward.hcl", Path::new("/repo")).unwrap()
    }

    const HCL: &str = r#"
layer "substrate" {
  level = 0
}
layer "nodes" {
  level = 1
}
root "network" {
  path = "network"
  layer = "substrate"
  site "dc0" {}
  site "dc1" {}
}
root "dns" {
  path = "dns"
  layer = "substrate"
}
root "instances" {
  path = "instances"
  layer = "nodes"
  reads = ["network", "dns"]
  site "dc0" {}
  site "dc1" {}
}
"#;

    #[test]
    fn order_sites_and_reads() {
        let c = cfg(HCL);
        let all = instances(&c, Path::new("/repo")).unwrap();
        let ids: Vec<String> = all.iter().map(Instance::id).collect();
        assert_eq!(
            ids,
            [
                "dns/default",
                "network/dc0",
                "network/dc1",
                "instances/dc0",
                "instances/dc1"
            ]
        );
        assert_eq!(all[3].reads, ["network/dc0", "dns/default"]);
        let dc1 = at_site(all.clone(), Some("dc1")).unwrap();
        let ids: Vec<String> = dc1.iter().map(Instance::id).collect();
        assert_eq!(ids, ["dns/default", "network/dc1", "instances/dc1"]);
        let e = at_site(all, Some("dc2")).unwrap_err().to_string();
        assert!(
            e.contains("unknown site \"dc2\"") && e.contains("did you mean"),
            "{e}"
        );
        assert!(e.contains("dc0, dc1"), "{e}");
    }

    #[test]
    fn a_read_of_a_site_the_upstream_lacks_is_refused() {
        let c = cfg(&HCL.replace("  site \"dc1\" {}\n}\nroot \"dns\"", "}\nroot \"dns\""));
        let e = instances(&c, Path::new("/repo")).unwrap_err().to_string();
        assert!(e.contains("has no site \"dc1\""), "{e}");
    }

    #[test]
    fn a_symlink_below_backup_dir_is_never_followed() {
        let t = tempfile::tempdir().unwrap();
        let checkout = t.path().join("repo");
        std::fs::create_dir_all(&checkout).unwrap();
        let base = t.path().join("backups");
        std::fs::create_dir_all(&base).unwrap();
        // backup_dir/<root> planted as a link into the checkout.
        std::os::unix::fs::symlink(&checkout, base.join("live_net")).unwrap();
        let e = private_dir_under(&base, &["live_net", "default"]).unwrap_err();
        assert!(e.contains("is a symbolic link"), "{e}");
        assert!(
            !checkout.join("default").exists(),
            "created inside the checkout"
        );
        // A file where a directory belongs is refused too; real directories are made 0700.
        std::fs::write(base.join("file"), "x").unwrap();
        let e = private_dir_under(&base, &["file", "s"]).unwrap_err();
        assert!(e.contains("not a directory"), "{e}");
        let d = private_dir_under(&base, &["live_app", "eu"]).unwrap();
        assert_eq!(d, base.join("live_app").join("eu"));
        use std::os::unix::fs::PermissionsExt;
        for p in [base.join("live_app"), d.clone()] {
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", p.display());
        }
        // Again: the existing directories are used as they are.
        assert_eq!(private_dir_under(&base, &["live_app", "eu"]).unwrap(), d);
    }

    /// Options over `HCL` in a checkout `dir/repo` (a `.git` in it), with `backup_dir = b` and the
    /// history `dir/h.sqlite`.
    fn options_in(dir: &Path, b: &str) -> Options {
        let repo = dir.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        let mut c = Config::parse(
            &format!("stack {{\n  backup_dir = \"{b}\"\n}}\n{HCL}"),
            "ward.hcl",
            &repo,
        )
        .unwrap();
        c.path = repo.join("ward.hcl");
        Options {
            config: c,
            repo,
            site: None,
            root: None,
            binaries: vec![],
            db: ward_store::Location::Sqlite(dir.join("h.sqlite")),
            clock: ward_time::Clock::System,
            progress: false,
            env: vec![],
        }
    }

    #[test]
    fn backup_dir_must_lie_outside_the_checkout() {
        let t = tempfile::tempdir().unwrap();
        let repo = t.path().join("repo");
        let mk = |b: &str| options_in(t.path(), b);
        let e = backup_dir(&mk("backups")).unwrap_err().to_string();
        assert!(e.contains("inside the checkout"), "{e}");
        // `..` that comes back in, and a symlink that points in, are inside too.
        let e = backup_dir(&mk("../repo/b")).unwrap_err().to_string();
        assert!(e.contains("inside the checkout"), "{e}");
        std::os::unix::fs::symlink(&repo, t.path().join("link")).unwrap();
        let e = backup_dir(&mk("../link/b")).unwrap_err().to_string();
        assert!(e.contains("inside the checkout"), "{e}");
        assert_eq!(
            backup_dir(&mk("../backups")).unwrap(),
            std::fs::canonicalize(t.path()).unwrap().join("backups")
        );
        let mut o = mk("../backups");
        o.config.stack.backup_dir = None;
        assert!(backup_dir(&o).unwrap_err().to_string().contains("not set"));
    }

    /// A run whose process is gone without recording its end (SIGKILL, a cancelled CI job) is
    /// reported as interrupted, at the root it had reached, and `resume` takes it up; a run
    /// whose process still runs is neither (#33 item 5).
    #[test]
    fn a_killed_run_is_reported_interrupted_and_resumable() {
        let t = tempfile::tempdir().unwrap();
        let opts = options_in(t.path(), "../backups");
        // The killed run's process: this one's pid with another start time, which is how a
        // pid reused after the run died looks (ward-exec's ProcessMark tests the other cases).
        let me = journal::Process::current();
        let gone = journal::Process {
            start: me.start + 1,
            ..me.clone()
        };
        let record = |process: journal::Process| RunRecord {
            run: "r1".into(),
            command: Command::Apply,
            site: None,
            root: None,
            status: "running".into(),
            exit_code: None,
            resumes: None,
            order: vec!["network/dc0".into(), "dns/default".into()],
            process: Some(process),
        };
        let mut j = Journal::open_location(&opts.db).unwrap();
        j.run(&record(gone), "2026-12-01T00:00:00Z").unwrap();
        let mut at = RootReport {
            root: "network".into(),
            site: "dc0".into(),
            layer: "substrate".into(),
            level: 0,
            path: "network".into(),
            outcome: RootOutcome::InProgress,
            detail: vec![],
            binary: None,
            changes: None,
            upstream_sha256: None,
            outputs_sha256: None,
            state: None,
            backup: None,
            approvals: vec![],
        };
        at.detail.push("ward stack apply reached this root".into());
        j.step(
            &StepRecord {
                run: "r1".into(),
                report: at,
                pending_plan: None,
                context: None,
                every_change: false,
            },
            "2026-12-01T00:00:01Z",
        )
        .unwrap();
        drop(j);
        let st = status(&opts).unwrap();
        assert_eq!(st.exit, Exit::StackFailed);
        let why = st.stopped.clone().unwrap();
        assert!(
            why.contains("was interrupted") && why.contains("network/dc0"),
            "{why}"
        );
        assert_eq!(st.resume.as_deref(), Some("ward stack resume"));
        assert_eq!(st.roots[0].outcome, RootOutcome::InProgress);
        assert_eq!(st.roots[1].outcome, RootOutcome::NotReached);
        // resume takes it up (it then fails here for want of a Terraform binary, not because
        // the run "is recorded as still running").
        let e = resume(&opts, &|_: &str| None).err().map(|e| e.to_string());
        assert!(
            !e.as_deref().unwrap_or("").contains("still running"),
            "{e:?}"
        );
        // The same record made by this very process: still running, not resumable.
        let mut j = Journal::open_location(&opts.db).unwrap();
        j.run(&record(me), "2026-12-01T00:00:02Z").unwrap();
        drop(j);
        let st = status(&opts).unwrap();
        assert!(st.stopped.unwrap().contains("is still running"));
        assert!(st.resume.is_none());
        let e = resume(&opts, &|_: &str| None).unwrap_err().to_string();
        assert!(e.contains("is still running"), "{e}");
    }

    #[test]
    fn backend_values_stay_literal() {
        assert_eq!(variable_name("my-net.work"), "my_net_work");
        assert_eq!(safe_name("../etc"), ".._etc");
        assert_eq!(safe_name(".."), "___");
        assert_eq!(safe_name("a/b"), "a_b");
        assert_eq!(safe_name("dc-0.x"), "dc-0.x");
    }
}
