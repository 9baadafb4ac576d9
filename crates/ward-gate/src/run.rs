//! The pipelines behind `ward gate`, `ward approve` and `ward verify`: read, classify, decide.
//! Each takes an options struct and returns a typed result with its [`Exit`]; none prints or
//! renders (`ward_report::gate` renders them). `ward-cli` only parses arguments, calls these and
//! renders; another crate gates a plan the same way:
//!
//! ```no_run
//! use ward_gate::run::{self, GateOptions, Inputs};
//! let opts = GateOptions {
//!     inputs: Inputs { plan: "plan.json".into(), ..Inputs::default() },
//!     // Leave the protection record alone when gating on someone else's behalf.
//!     no_record_protection: true,
//!     ..GateOptions::default()
//! };
//! // The run's values, read once by the caller (ward-cli's run context).
//! let knowledge = ward_config::knowledge(None)?;
//! let setup = run::Setup {
//!     config: None,
//!     knowledge: &knowledge,
//!     cwd: std::path::Path::new("."),
//!     clock: ward_time::Clock::System,
//!     approver: None,
//! };
//! // `None`: the gate reads the plan file (a caller holding the read plan passes it).
//! // The variables the gate may read (the approval key, guards' bypasses): here none.
//! let run = run::gate(&opts, &setup, None, &|_: &str| None)?;
//! if run.exit != ward_model::Exit::Pass {
//!     // run.report says why: what needs approval, budgets, guards, coverage.
//!     eprintln!("{} change(s) need approval", run.report.required.len());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::approvals::{self, Approval, KEY_VAR};
pub use crate::audit::Audit;
use crate::digest::digest_material;
use crate::error::GateError;
use crate::policy::Policy;
use crate::protect::{self, Protection};
use crate::{evaluate, needs_approval, record, run_guards, verify, GateContext, GateReport};
use std::path::{Path, PathBuf};
use ward_classify::Assessment;
use ward_model::pattern::{is_pattern, matches as glob_match};
use ward_model::{Action, Exit, Impact, Plan};

/// The name tests give a fixed clock under; never taken from the process environment (ward-cli's
/// environment refuses it): the gate's clock is [`Setup::clock`].
pub const NOW_VAR: &str = "WARD_NOW";

/// The run's values the gate decides with, read once by its caller (ward-cli's run context;
/// ward stack passes its own): the gate reads no `ward.hcl`, builds no knowledge and asks no
/// clock or working directory of its own.
#[derive(Clone)]
pub struct Setup<'a> {
    /// `ward.hcl`, read (`None`: there is none, and the default policy applies).
    pub config: Option<&'a ward_config::Config>,
    /// What the plan is classified with: the built-in packs and `config`'s rules.
    pub knowledge: &'a ward_rules::Knowledge,
    /// The working directory: the root planned when [`Inputs::root`] is not given and it holds
    /// Terraform files.
    pub cwd: &'a Path,
    /// The clock approvals expire by.
    pub clock: ward_time::Clock,
    /// Who approves when [`ApproveOptions::by`] is not given (in `ward`: `WARD_APPROVER`, else
    /// `USER`, else `LOGNAME`).
    pub approver: Option<String>,
}

/// What a plan's approvals are bound to beyond its changes (ward stack's, given as values).
#[derive(Debug, Clone, Default)]
pub struct Binding {
    /// A context bound into every approval digest
    /// ([`crate::digest::ChangeMaterial::context`]): ward stack passes the sha256 of the
    /// upstream outputs a root reads.
    pub context: Option<String>,
    /// Every classified change needs its own approval, whatever `policy.approve` says (ward
    /// stack's teardown: one approval per destroy).
    pub every_change: bool,
}

/// What reads the plan for [`gate`] and [`gate_reviewed`] instead of the file at
/// [`Inputs::plan`] (which then only names it in the report, the record and the history): given
/// the read options the gate needs (content fingerprints, the objects guards are told of), it
/// reads the plan once, as a stream, handing each change to the callback as it is read, and
/// returns the rest of the plan (without those changes) and the objects. ward stack reads the
/// saved plan's `show -json` output this way (ward-terraform's `Workspace::show_read`), so the
/// gate of a stack holds no more of the plan than `ward gate` does of a file.
pub struct ReadPlan<'a> {
    /// The read.
    pub read: &'a mut ReadFn<'a>,
}

/// [`ReadPlan::read`]: given the read options and the callback each change goes to, the rest
/// of the plan and the objects it destroys, or why the plan could not be read.
pub type ReadFn<'a> = dyn FnMut(
        ward_plan::ReadOptions,
        &mut dyn FnMut(ward_model::ResourceChange),
    ) -> Result<(Plan, ward_plan::BeforeObjects), String>
    + 'a;

impl std::fmt::Debug for ReadPlan<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReadPlan { .. }")
    }
}

/// Where the gate reads its inputs from.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// The plan JSON (`-` for standard input).
    pub plan: String,
    /// `--config`, as given: only repeated in the `ward approve` commands the report shows (the
    /// file itself is read by the caller, [`Setup::config`]).
    pub config: Option<PathBuf>,
    /// The approvals file; default from the policy.
    pub approvals: Option<PathBuf>,
    /// The Terraform root that was planned (for `prevent_destroy`); default: [`Setup::cwd`]
    /// when it holds `.tf` files.
    pub root: Option<PathBuf>,
    /// Relax the coverage gate.
    pub allow_unclassified: bool,
    /// The history, where `ward import` records a root being adopted; chosen once by the
    /// caller (ward-cli: `--db`, else `history { url }` in `ward.hcl`, else the default file).
    /// `None`: no history is read. A SQLite file that does not exist is not created.
    pub history: Option<ward_store::Location>,
}

/// Options of `ward gate`.
#[derive(Debug, Clone, Default)]
pub struct GateOptions {
    /// Inputs.
    pub inputs: Inputs,
    /// Write the gate record here (for `ward verify`).
    pub record: Option<PathBuf>,
    /// Do not add newly found `prevent_destroy` addresses to the protection record.
    pub no_record_protection: bool,
    /// Record the decision in a history ([`Audit`]); `None`: not recorded.
    pub audit: Option<Audit>,
    /// What approvals are bound to beyond the changes.
    pub binding: Binding,
}

/// Options of `ward approve`.
#[derive(Debug, Clone, Default)]
pub struct ApproveOptions {
    /// Inputs.
    pub inputs: Inputs,
    /// The address (or, for changes that do not lose data, an address pattern with `*`).
    pub address: String,
    /// Deposed key, to approve a change to a deposed object.
    pub deposed: Option<String>,
    /// Why.
    pub reason: String,
    /// How long the approval lasts (`24h`, `7d`); none: the policy's `approval_expiry`.
    pub expires: Option<String>,
    /// Who approves; default [`Setup::approver`].
    pub by: Option<String>,
    /// Record each approval in a history ([`Audit`]) as well as in the approvals file; `None`:
    /// the file only.
    pub audit: Option<Audit>,
    /// What the approval is bound to beyond the change: the binding the gate used.
    pub binding: Binding,
}

/// Options of `ward verify`.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// The saved binary plan (`terraform plan -out FILE`).
    pub planfile: PathBuf,
    /// The gate record written by `ward gate --record FILE`.
    pub record: PathBuf,
    /// The binary to run `show -json` with; default from the record's product.
    pub binary: Option<String>,
    /// The root directory the plan was made in (`-chdir`); default: [`VerifyOptions::cwd`].
    pub chdir: Option<PathBuf>,
    /// The directory a relative [`VerifyOptions::planfile`] and [`VerifyOptions::chdir`] are
    /// taken from: ward-cli gives its working directory (the library asks for none).
    pub cwd: PathBuf,
    /// How long `show -json` may take (default [`verify::DEFAULT_TIMEOUT`]).
    pub timeout: Option<std::time::Duration>,
}

/// What `ward gate` decided.
#[derive(Debug, Clone)]
pub struct GateRun {
    /// The decision, change by change (render it with `ward_report::gate`).
    pub report: GateReport,
    /// Notes for standard error, one line each (e.g. newly recorded protection).
    pub notes: Vec<String>,
    /// How the command ends: the report's outcome.
    pub exit: Exit,
}

/// One change `ward approve` recorded an approval for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovedChange {
    /// The change's address.
    pub address: String,
    /// Its action.
    pub action: Action,
    /// Its impact.
    pub impact: Impact,
    /// The digest the approval is bound to.
    pub digest: String,
    /// When the approval expires (RFC 3339), if it does.
    pub expires_at: Option<String>,
    /// Whether the approval is signed with `WARD_APPROVAL_KEY`.
    pub signed: bool,
}

/// What `ward approve` recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approved {
    /// The approvals recorded, in the order the changes were chosen.
    pub changes: Vec<ApprovedChange>,
    /// The approvals file written.
    pub written_to: PathBuf,
    /// Notes for standard error, one line each (a replaced approval, a change that did not
    /// need one).
    pub notes: Vec<String>,
    /// How the command ends ([`Exit::Pass`]).
    pub exit: Exit,
}

/// What `ward verify` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The saved plan file, as given.
    pub planfile: String,
    /// The comparison of the saved plan with the gate record.
    pub report: verify::VerifyReport,
    /// Notes for standard error, one line each (whether the record's signature was checked).
    pub notes: Vec<String>,
    /// How the command ends.
    pub exit: Exit,
}

/// The variables the gate reads ([`KEY_VAR`], guards' bypasses), given by its caller: ward-cli
/// passes the process environment without [`NOW_VAR`]; the library reads no environment.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

fn key(env: Env<'_>) -> Result<Option<Vec<u8>>, GateError> {
    match env(KEY_VAR) {
        Some(k) if k.is_empty() => Err(GateError::Usage(format!(
            "{KEY_VAR} is set but empty: set it to the signing key, or unset it"
        ))),
        Some(k) => Ok(Some(k.into_bytes())),
        None => Ok(None),
    }
}

struct Loaded {
    /// The plan without its changes: the reader handed each over, and the gate kept only its
    /// slim verdict (in `assessment`), its record digest and the adoption check's note.
    plan: Plan,
    /// What guards are told about the objects the plan destroys (collected only when the policy
    /// has guards).
    objects: ward_plan::BeforeObjects,
    /// The verdicts [`slim`] kept, slimmed.
    assessment: Assessment,
    /// The approvals file, read before the plan when [`Want::approvals`] asks (an error
    /// reading it is the caller's to report, where it reads the file otherwise).
    approvals: Option<Result<approvals::ApprovalsFile, GateError>>,
    /// The gate record's digest of every change, when asked for.
    digests: Option<record::Digests>,
    /// What the adoption check needs of the changes.
    imports: crate::adoption::Imports,
    /// The refusal line of each change at `imports.refused`'s positions, in the same order:
    /// the verdicts of most of them are not kept.
    refused_lines: Vec<Box<str>>,
    policy: Policy,
    approvals_path: PathBuf,
    protection: Protection,
}

/// What [`load`] reads beyond the plan's verdicts.
#[derive(Clone, Copy)]
struct Want<'a> {
    /// Every change's content fingerprint: approvals are signed, or a gate record is written
    /// (keyed or not, it binds every raw value). It is the costliest part of reading a large
    /// plan, and nothing else uses it.
    content: bool,
    /// The gate record's digests, under this key (`Some(None)`: keyless).
    record: Option<Option<&'a [u8]>>,
    /// Every change needs its own approval ([`Binding::every_change`]).
    approve_every: bool,
    /// Keep the deciding attributes and destroyed object of every change at this address or
    /// pattern (`ward approve` records an approval even for a change that needs none).
    address: Option<&'a str>,
    /// Read the approvals file before the plan, and keep the verdict of every change at an
    /// address it names (the gate says why an approval it does not use is unused).
    approvals: bool,
    /// Where the gate record's entries are spilled while the plan is read (see
    /// [`record::Digests::spilled_in`]); `None`: a new private scratch directory.
    scratch: Option<&'a Path>,
}

/// A verdict slimmed to what the gate decides on and reports, as the reader hands its change
/// over, or `None` when nothing will look at it again. Kept: a change a guard applies to (whole
/// but for its explanation, identity changes and facts: the guard is told its attributes); a
/// change that may need an approval ([`needs_approval`] under any protection: its class needs
/// one, or it destroys, or it overwrites state outside the root), which is also every change a
/// budget counts (replaces and deletes), or that `keep` names, with only its deciding attributes
/// ([`crate::digest::is_deciding`]) and its destroyed object; and a change at an address `named`
/// names, bare (the unused-approval check reads its action and class). [`evaluate`],
/// [`run_guards`] and the approval digests give the same results on what is kept as on every
/// whole verdict; the coverage gate counts the dropped ones (`Assessor::add_kept`).
fn slim(
    mut v: ward_classify::Verdict,
    policy: &Policy,
    keep: &dyn Fn(&ward_classify::Verdict) -> bool,
    named: &dyn Fn(&ward_classify::Verdict) -> bool,
) -> Option<ward_classify::Verdict> {
    v.explanation = Vec::new();
    v.identity_changes = Vec::new();
    v.facts = Vec::new();
    if policy.guards.iter().any(|g| crate::guard::applies(g, &v)) {
        return Some(v);
    }
    let changes = v.mode == ward_model::Mode::Managed && !v.action.is_inert();
    let may_need =
        changes && ((v.classified && policy.approve.contains(&v.impact)) || v.action.destroys());
    if may_need || keep(&v) {
        let (action, impact) = (v.action, v.impact);
        v.attributes
            .retain(|a| crate::digest::is_deciding(action, impact, a));
        v.attributes.shrink_to_fit();
        return Some(v);
    }
    let overwrites = changes && policy.approve_overwrites && v.overwrites.is_some();
    if overwrites || named(&v) {
        v.attributes = Vec::new();
        v.destroyed_object = None;
        return Some(v);
    }
    None
}

/// Reads the plan (change by change: each is classified as the reader hands it over, and only
/// its slim verdict, its record digest and the adoption check's note are kept) and the
/// protection, under the policy of the `ward.hcl` the caller read.
fn load(
    inputs: &Inputs,
    setup: &Setup<'_>,
    given: Option<ReadPlan<'_>>,
    want: Want<'_>,
) -> Result<Loaded, GateError> {
    let cwd = setup.cwd;
    if let Some(c) = setup.config {
        c.check_gate_files()?;
    }
    let mut policy: Policy = setup.config.map(|c| c.policy.clone()).unwrap_or_default();
    if want.approve_every {
        policy.approve = Impact::ALL.iter().copied().collect();
    }
    // One read of the plan; the guards' objects come from the same pass. What a delete
    // removes decides nothing and is never shown: only a guard is told it, and a record's
    // digest covers every field of a change. On the caller's thread unless a record is
    // written: classifying a change for the gate costs little next to reading it, and a
    // reading thread's hand-over cost more CPU time than it saved; a record's digest of every
    // change (its whole model, serialized and hashed) is work enough to overlap with reading
    // (docs/performance.md, "Item 1, round 10").
    let options = ward_plan::ReadOptions {
        content: want.content,
        objects: !policy.guards.is_empty(),
        removed: !policy.guards.is_empty() || want.record.is_some(),
        created: None,
        pipelined: want.record.is_some(),
    };
    let keep = |v: &ward_classify::Verdict| match want.address {
        Some(a) if is_pattern(a) => glob_match(a, &v.address),
        Some(a) => v.address == a,
        None => false,
    };
    let approvals_path = inputs
        .approvals
        .clone()
        .unwrap_or_else(|| policy.approvals_file.clone());
    // The approvals do not depend on the plan: read first, they say which addresses to keep.
    let early = want.approvals.then(|| approvals::load(&approvals_path));
    let names: std::collections::BTreeSet<&str> = match &early {
        Some(Ok(f)) => f.approvals.iter().map(|a| a.address.as_str()).collect(),
        _ => std::collections::BTreeSet::new(),
    };
    let named = |v: &ward_classify::Verdict| names.contains(v.address.as_str());
    // The slim verdicts drop their explanations: none is written.
    let mut assessor = ward_classify::Assessor::new(setup.knowledge).terse();
    let mut digests = match want.record {
        Some(_) => Some(spilled(want.scratch)?),
        None => None,
    };
    let mut imports = crate::adoption::Imports::default();
    let mut refused_lines = Vec::new();
    let mut position = 0usize;
    let mut each = |c: ward_model::ResourceChange| {
        if let (Some(d), Some(key)) = (digests.as_mut(), want.record) {
            d.add(&c, key);
        }
        imports.add(position, &c);
        if imports.refused.last() == Some(&position) {
            refused_lines
                .push(ward_import::adoption::refusal_line(&c.address, c.action).into_boxed_str());
        }
        position += 1;
        assessor.add_kept(c, |v| slim(v, &policy, &keep, &named));
    };
    let (plan, objects) = match given {
        None => ward_plan::read_with(&inputs.plan, options, Some(&mut each))
            .map_err(|e| GateError::Usage(e.to_string()))?,
        Some(read) => (read.read)(options, &mut each).map_err(GateError::Usage)?,
    };
    let assessment = assessor.finish(
        &plan,
        &ward_classify::Options {
            allow_unclassified: inputs.allow_unclassified,
        },
    );
    drop(names);
    let protection = protection_of(inputs, cwd, &policy)?;
    Ok(Loaded {
        plan,
        objects,
        assessment,
        approvals: early,
        digests,
        imports,
        refused_lines,
        policy,
        approvals_path,
        protection,
    })
}

/// The gate record's entries, written to an owner-only scratch file in `dir` (none: a new
/// private scratch directory, removed at once: the file is unlinked as it is created) while the
/// plan is read.
fn spilled(dir: Option<&Path>) -> Result<record::Digests, GateError> {
    match dir {
        Some(d) => record::Digests::spilled_in(d),
        None => {
            let scratch =
                ward_exec::ScratchDir::new("ward-gate-").map_err(|source| GateError::Io {
                    path: "the temporary directory".into(),
                    action: "create a scratch directory for the gate record's entries in",
                    source,
                })?;
            record::Digests::spilled_in(scratch.path())
        }
    }
}

/// The protection that holds for this run: the policy's, the root's `prevent_destroy` found in
/// code (the root is `--root`, else the working directory when it holds Terraform files) and the
/// protection record's.
fn protection_of(inputs: &Inputs, cwd: &Path, policy: &Policy) -> Result<Protection, GateError> {
    let root = match &inputs.root {
        Some(r) => {
            if !protect::has_terraform_files(r) {
                return Err(GateError::Usage(format!(
                    "{}: no .tf, .tf.json, .tofu or .tofu.json files here; --root must name the Terraform root that was planned",
                    r.display()
                )));
            }
            Some(r.clone())
        }
        None => protect::has_terraform_files(cwd).then(|| cwd.to_path_buf()),
    };
    let in_code = match &root {
        Some(r) => protect::scan_root(r)?,
        None => Vec::new(),
    };
    let rec = protect::load_record(&policy.protection_record)?;
    let (protection, _) = Protection::combine(
        policy.protect.clone(),
        in_code,
        &rec,
        root.map(|r| r.display().to_string()),
    );
    Ok(protection)
}

/// Adds the addresses found protected in code for the first time to the protection record,
/// and says so in a note (a warning when it cannot be written: a read-only checkout must not
/// turn the gate into an error, and the protection found in code applies to this run either way).
fn record_protection(l: &Loaded) -> Vec<String> {
    let mut notes = Vec::new();
    if !l.protection.newly_found.is_empty() {
        match protect::add_to_record(&l.policy.protection_record, &l.protection.newly_found) {
            Ok(()) => notes.push(format!(
                "note: recorded {} newly protected address(es) in {}: commit it, so removing prevent_destroy from code cannot silently drop the protection",
                l.protection.newly_found.len(),
                l.policy.protection_record.display()
            )),
            Err(e) => notes.push(format!(
                "warning: could not record {} newly protected address(es): {e}",
                l.protection.newly_found.len()
            )),
        }
    }
    notes
}

impl Loaded {
    /// The refusal lines of the refused changes at these plan positions (see
    /// [`crate::adoption::refuse`]), in the order given.
    fn refusal_lines(&self, positions: &[usize]) -> Vec<String> {
        positions
            .iter()
            .filter_map(|p| self.imports.refused.binary_search(p).ok())
            .filter_map(|i| self.refused_lines.get(i))
            .map(|l| l.to_string())
            .collect()
    }
}

fn approve_extra(inputs: &Inputs) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(c) = &inputs.config {
        v.push("--config".into());
        v.push(c.display().to_string());
    }
    if let Some(a) = &inputs.approvals {
        v.push("--approvals".into());
        v.push(a.display().to_string());
    }
    if let Some(r) = &inputs.root {
        v.push("--root".into());
        v.push(r.display().to_string());
    }
    if inputs.allow_unclassified {
        v.push("--allow-unclassified".into());
    }
    v
}

/// `ward gate`: reads the plan, `ward.hcl`, the approvals and protection, decides change by
/// change, runs the guards when nothing else blocks, writes the gate record when asked, and
/// returns the typed report. Prints nothing. `setup` holds the run's values (`ward.hcl`, the
/// knowledge, the clock); `plan`, the plan when the caller already read it (else the gate reads
/// [`Inputs::plan`]); `env` gives the approval key and guard bypasses (ward-cli: the process
/// environment without [`NOW_VAR`]).
pub fn gate(
    opts: &GateOptions,
    setup: &Setup<'_>,
    plan: Option<ReadPlan<'_>>,
    env: Env<'_>,
) -> Result<GateRun, GateError> {
    gate_reviewed(opts, setup, plan, env, None)
}

/// [`gate`], with the approvals of the changes that need one taken from pull-request reviews
/// ([`crate::review`]) instead of the approvals file, when `reviews` is given.
pub fn gate_reviewed(
    opts: &GateOptions,
    setup: &Setup<'_>,
    plan: Option<ReadPlan<'_>>,
    env: Env<'_>,
    reviews: Option<&crate::review::Settle<'_>>,
) -> Result<GateRun, GateError> {
    gate_in(opts, setup, plan, env, reviews, None)
}

/// [`gate_reviewed`], the record's entries spilled in `scratch` (see [`Want::scratch`]).
fn gate_in(
    opts: &GateOptions,
    setup: &Setup<'_>,
    plan: Option<ReadPlan<'_>>,
    env: Env<'_>,
    reviews: Option<&crate::review::Settle<'_>>,
    scratch: Option<&Path>,
) -> Result<GateRun, GateError> {
    let now = setup.clock.now();
    let key = key(env)?;
    let want = Want {
        content: key.is_some() || opts.record.is_some(),
        record: opts.record.as_ref().map(|_| key.as_deref()),
        approve_every: opts.binding.every_change,
        address: None,
        approvals: true,
        scratch,
    };
    let mut l = load(&opts.inputs, setup, plan, want)?;
    let cwd = setup.cwd;
    if let Some(refusal) = crate::adoption::refuse(
        &l.imports,
        &|p| l.refusal_lines(p),
        opts.inputs.root.as_deref(),
        opts.inputs.history.as_ref(),
        setup.config,
        cwd,
    )? {
        if let Some(a) = &opts.audit {
            let root = crate::adoption::root_name(opts.inputs.root.as_deref(), setup.config, cwd);
            crate::audit::record_gate(
                a,
                &ward_store::GateOutcomeRecord {
                    source: a.source,
                    root: a.root.clone().or(root).unwrap_or_default(),
                    site: a.site.clone(),
                    plan: opts.inputs.plan.clone(),
                    outcome: "adoption-refused".into(),
                    exit_code: i64::from(Exit::Fail.code()),
                    decided_at: now.to_string(),
                    reasons: refusal.lines().map(str::to_string).collect(),
                    changes: Vec::new(),
                    run: a.run.clone(),
                },
            )?;
        }
        return Err(GateError::Adopting(refusal));
    }
    if l.policy.require_signed_approvals && key.is_none() {
        return Err(GateError::Usage(format!(
            "the policy requires signed approvals, but {KEY_VAR} is not set: set it to the signing key"
        )));
    }
    let file = match l.approvals.take() {
        Some(read) => read?,
        None => approvals::load(&l.approvals_path)?,
    };
    approvals::check_not_future(&file, now, &l.approvals_path.display().to_string())?;
    let ctx = GateContext {
        policy: &l.policy,
        protection: &l.protection,
        approvals: &file,
        approvals_path: l.approvals_path.display().to_string(),
        key: key.as_deref(),
        now,
        plan_name: opts.inputs.plan.clone(),
        approve_extra: approve_extra(&opts.inputs),
        context: opts.binding.context.clone(),
    };
    let mut report = evaluate(&l.assessment, &ctx);
    if let Some(r) = reviews {
        r.apply(&mut report, &l.policy);
    }
    let objects = crate::guard::object_attributes(&l.objects);
    run_guards(&mut report, &l.assessment, &l.policy.guards, &objects, env);
    let notes = if opts.no_record_protection {
        Vec::new()
    } else {
        record_protection(&l)
    };
    // The review approvals used: for `ward verify` to re-check (#37), and for the history row.
    let bound = reviews.and_then(|r| crate::verify_reviews::binding(r, &report, &l.policy));
    // What the gate decided on is not needed any more, and goes before what comes at the end
    // of the run, when memory peaks: the keyless record's Argon2id (64 MiB) and the history's
    // row of every change needing approval (#35 item 2).
    drop(objects);
    drop(file);
    drop((l.assessment, l.objects, l.imports, l.refused_lines));
    if let Some(path) = &opts.record {
        // Read back from the scratch file only now, the gate's own memory dropped.
        let digests = l.digests.take().unwrap_or_default().read_back()?;
        // Written from the compact entries: signed (with the key) or bound (without) as they
        // are, never built as the record's text of every change (#35 item 2).
        record::save_streamed(
            path,
            &l.plan,
            digests,
            &opts.inputs.plan,
            report.outcome,
            bound.clone(),
            key.as_deref(),
        )?;
    }
    let exit = report.outcome.exit();
    // The decision, in the history, before anyone acts on it.
    if let Some(a) = &opts.audit {
        let root = crate::adoption::root_name(opts.inputs.root.as_deref(), setup.config, cwd);
        crate::audit::record_gate(
            a,
            &crate::audit::gate_record(
                &report,
                exit,
                a,
                root.as_deref().unwrap_or_default(),
                bound.as_ref(),
            ),
        )?;
    }
    Ok(GateRun {
        report,
        notes,
        exit,
    })
}

/// `ward approve`: records approvals for exactly the named change(s) and returns what it
/// recorded. Prints nothing. `setup` holds the run's values, `env` gives the approval key.
/// Its steps: the approver and expiry asked for (`asked`), the plan read as the gate reads it,
/// the changes named (`chosen`), each approval made (`approval_of`) and written under the
/// file's lock, then recorded in the history (`record_given`).
pub fn approve(
    opts: &ApproveOptions,
    setup: &Setup<'_>,
    env: Env<'_>,
) -> Result<Approved, GateError> {
    let now = setup.clock.now();
    let key = key(env)?;
    let (by, expires_at) = asked(opts, setup, now)?;
    let want = Want {
        content: key.is_some(),
        record: None,
        approve_every: opts.binding.every_change,
        address: Some(opts.address.trim()),
        approvals: false,
        scratch: None,
    };
    let l = load(&opts.inputs, setup, None, want)?;
    // Without --expires: the policy's approval_expiry (default 7 days; "never" for none).
    let expires_at = match (expires_at, l.policy.approval_expiry) {
        (Some(t), _) => Some(t),
        (None, Some(dur)) => Some(
            ward_time::add(now, dur)
                .map_err(|e| GateError::Approve(format!("policy.approval_expiry: {e}")))?
                .to_string(),
        ),
        (None, None) => None,
    };
    let chosen = chosen(&l, opts)?;
    let given = Given {
        opts,
        by: &by,
        now: &now.to_string(),
        expires_at: expires_at.as_deref(),
        key: key.as_deref(),
    };
    // Read, change and write back under the file's lock: parallel approvals all land.
    let _lock = crate::lock(&l.approvals_path)?;
    let mut file = approvals::load(&l.approvals_path)?;
    let (mut changes, mut notes, mut records) = (Vec::new(), Vec::new(), Vec::new());
    for v in chosen {
        if !v.action.is_change() {
            return Err(GateError::Approve(format!(
                "{} does not change in this plan ({}): nothing to approve",
                v.address, v.action
            )));
        }
        if needs_approval(v, &l.policy, &l.protection).is_empty() {
            notes.push(format!(
                "note: {} ({}, {}) does not need approval under the current policy; recorded anyway",
                v.address, v.action, v.impact
            ));
        }
        let (a, change, record) = approval_of(v, &given);
        let before = file.approvals.len();
        file.approvals
            .retain(|a| !(a.address == v.address && a.deposed == v.deposed));
        if file.approvals.len() != before {
            notes.push(format!(
                "note: replaced the earlier approval for {}",
                v.address
            ));
        }
        file.approvals.push(a);
        changes.push(change);
        records.push(record);
    }
    approvals::save(&l.approvals_path, &file)?;
    if let Some(au) = &opts.audit {
        record_given(au, &opts.inputs, setup, records)?;
    }
    Ok(Approved {
        changes,
        written_to: l.approvals_path,
        notes,
        exit: Exit::Pass,
    })
}

/// What `ward approve` was asked beyond the change: who approves (`--by`, else the setup's
/// approver) and, with `--expires`, until when; the reason must not be empty.
fn asked(
    opts: &ApproveOptions,
    setup: &Setup<'_>,
    now: ward_time::Timestamp,
) -> Result<(String, Option<String>), GateError> {
    if opts.reason.trim().is_empty() {
        return Err(GateError::Approve(
            "--reason is empty: say why this change is safe to apply (it is recorded with the approval)".into(),
        ));
    }
    let by = opts
        .by
        .clone()
        .or_else(|| setup.approver.clone())
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| GateError::Approve(
                "nobody to record as the approver: pass --by NAME, or set WARD_APPROVER (else USER or LOGNAME is used)".into(),
            ))?;
    let expires_at = match &opts.expires {
        Some(d) => {
            let dur = ward_time::parse_duration(d).map_err(GateError::Approve)?;
            if dur.is_zero() {
                return Err(GateError::Approve(
                    "--expires 0s would expire at once; give a positive duration".into(),
                ));
            }
            let t = ward_time::add(now, dur)
                .map_err(|e| GateError::Approve(format!("--expires {d}: {e}")))?;
            Some(t.to_string())
        }
        None => None,
    };
    Ok((by, expires_at))
}

/// The changes `--address` (and `--deposed`) name: every change a pattern matches that needs
/// approval (never one that loses data), or the one object at an exact address.
fn chosen<'l>(
    l: &'l Loaded,
    opts: &ApproveOptions,
) -> Result<Vec<&'l ward_classify::Verdict>, GateError> {
    let address = opts.address.trim();
    if address.is_empty() {
        return Err(GateError::Approve("--address is empty".into()));
    }
    let needs =
        |v: &&ward_classify::Verdict| !needs_approval(v, &l.policy, &l.protection).is_empty();
    let list_needing = || {
        let needing: Vec<&str> = l
            .assessment
            .verdicts
            .iter()
            .filter(needs)
            .map(|v| v.address.as_str())
            .collect();
        if needing.is_empty() {
            "nothing in this plan needs approval".to_string()
        } else {
            format!("changes that need approval: {}", needing.join(", "))
        }
    };
    let verdicts = l.assessment.verdicts.iter();
    if is_pattern(address) {
        let m: Vec<_> = verdicts
            .filter(|v| glob_match(address, &v.address))
            .filter(|v| opts.deposed.is_none() || v.deposed == opts.deposed)
            .filter(needs)
            .collect();
        if m.is_empty() {
            return Err(GateError::Approve(format!(
                "the pattern `{address}` matches no change that needs approval; {}",
                list_needing()
            )));
        }
        let lossy: Vec<&str> = m
            .iter()
            .filter(|v| v.impact == Impact::DataLoss || (v.holds_data && v.action.destroys()))
            .map(|v| v.address.as_str())
            .collect();
        if !lossy.is_empty() {
            return Err(GateError::Approve(format!(
                "a pattern cannot approve a change that loses data: approve each one by its exact address ({})",
                lossy.join(", ")
            )));
        }
        return Ok(m);
    }
    let at: Vec<_> = verdicts.filter(|v| v.address == address).collect();
    if at.is_empty() {
        return Err(GateError::Approve(format!(
            "no change at `{address}` in {}; {}",
            opts.inputs.plan,
            list_needing()
        )));
    }
    let m: Vec<_> = at
        .iter()
        .filter(|v| v.deposed == opts.deposed)
        .copied()
        .collect();
    if m.is_empty() {
        let keys: Vec<String> = at
            .iter()
            .map(|v| match &v.deposed {
                Some(d) => format!("--deposed {d}"),
                None => "(no --deposed)".into(),
            })
            .collect();
        return Err(GateError::Approve(format!(
            "`{address}` has no change for that object; choose one of: {}",
            keys.join(", ")
        )));
    }
    Ok(m)
}

/// What every approval of one `ward approve` shares.
struct Given<'a> {
    opts: &'a ApproveOptions,
    by: &'a str,
    now: &'a str,
    expires_at: Option<&'a str>,
    key: Option<&'a [u8]>,
}

/// The approval of one change (signed with the key, when there is one), what `ward approve`
/// reports of it, and its record for the history (the audit fills in where it was given).
fn approval_of(
    v: &ward_classify::Verdict,
    g: &Given<'_>,
) -> (Approval, ApprovedChange, ward_store::ApprovalRecord) {
    let m = crate::digest::material_in(v, g.key, g.opts.binding.context.as_deref());
    let digest = digest_material(&m);
    let expires_at = g.expires_at.map(str::to_string);
    let mut a = Approval {
        address: v.address.clone(),
        deposed: v.deposed.clone(),
        digest: digest.clone(),
        change: m,
        reason: g.opts.reason.trim().to_string(),
        by: g.by.to_string(),
        approved_at: g.now.to_string(),
        expires_at: expires_at.clone(),
        signature: None,
    };
    if let Some(k) = g.key {
        a.sign(k);
    }
    let record = ward_store::ApprovalRecord {
        source: ward_store::AuditSource::Gate,
        root: String::new(),
        site: None,
        address: v.address.clone(),
        deposed: v.deposed.clone(),
        action: crate::audit::action_name(v.action),
        impact: v.impact.as_str().to_string(),
        digest: digest.clone(),
        by: g.by.to_string(),
        reason: a.reason.clone(),
        approved_at: a.approved_at.clone(),
        expires_at: expires_at.clone(),
        signed: g.key.is_some(),
        plan: g.opts.inputs.plan.clone(),
        run: None,
    };
    let change = ApprovedChange {
        address: v.address.clone(),
        action: v.action,
        impact: v.impact,
        digest,
        expires_at,
        signed: g.key.is_some(),
    };
    (a, change, record)
}

/// Each approval as given, in the history beside the file, under the audit's source, root
/// (else the planned root's name), site and run.
fn record_given(
    au: &Audit,
    inputs: &Inputs,
    setup: &Setup<'_>,
    mut records: Vec<ward_store::ApprovalRecord>,
) -> Result<(), GateError> {
    let root = match &au.root {
        Some(r) => r.clone(),
        None => crate::adoption::root_name(inputs.root.as_deref(), setup.config, setup.cwd)
            .unwrap_or_default(),
    };
    for g in &mut records {
        g.source = au.source;
        g.root = root.clone();
        g.site = au.site.clone();
        g.run = au.run.clone();
    }
    crate::audit::record_approvals(au, &records)
}

/// `ward verify` ([`verify_with_env`]) with the review re-check
/// ([`crate::verify_reviews::recheck`]): when the record holds a review binding, the reviews are
/// read again through the source `open` builds for it (the caller holds the token) and every
/// reason they no longer hold is a difference. `expect` is the pull request the caller says the
/// approvals come from (`ward verify --approvals-from`): a record without a binding, or with
/// another pull request's, is then refused. `now` is the run's clock (RFC 3339).
pub fn verify_with_reviews(
    opts: &VerifyOptions,
    env: Env<'_>,
    now: &str,
    expect: Option<&str>,
    open: &dyn Fn(&crate::record::ReviewBinding) -> Result<crate::review::ReviewSource, String>,
) -> Result<Verified, GateError> {
    // The reviews are checked from the record just verified, read once.
    let (mut v, rec) = verify_record(opts, env)?;
    let (diffs, note) = crate::verify_reviews::recheck(rec.reviews.as_ref(), now, expect, open);
    v.notes.extend(note);
    if !diffs.is_empty() {
        v.report.differences.extend(diffs);
        v.report.ok = false;
        v.exit = v.report.exit();
    }
    Ok(v)
}

/// `ward verify` reading [`KEY_VAR`] from `env`: with the key, the record must be signed with
/// it and every change is compared by its keyed digest; without it, a note says the record was
/// not checked.
pub fn verify_with_env(opts: &VerifyOptions, env: Env<'_>) -> Result<Verified, GateError> {
    verify_record(opts, env).map(|(v, _)| v)
}

/// [`verify_with_env`], and the gate record it read without its changes (for
/// [`verify_with_reviews`]: compared, they were dropped).
fn verify_record(
    opts: &VerifyOptions,
    env: Env<'_>,
) -> Result<(Verified, record::GateRecord), GateError> {
    let key = key(env)?;
    // The record's changes kept compact, not as text (#35 item 2).
    let (rec, kept) = record::load_kept(&opts.record)?;
    let binary = opts
        .binary
        .clone()
        .unwrap_or_else(|| verify::default_binary(&rec).to_string());
    let dir = match &opts.chdir {
        Some(d) => opts.cwd.join(d),
        None => opts.cwd.clone(),
    };
    let at = verify::Shown {
        binary: &binary,
        dir: if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &dir
        },
        planfile: &opts.cwd.join(&opts.planfile),
        shown: &opts.planfile,
        timeout: opts.timeout.unwrap_or(verify::DEFAULT_TIMEOUT),
    };
    // Read change by change: only each change's digest is kept.
    let (plan, digests) = verify::show_json_digests(&at, key.as_deref())?;
    // The record's changes are compared, then dropped (the reviews' re-check reads the rest).
    let v = verify::compare_kept(&rec, kept, &plan, digests, key.as_deref());
    let notes = match (&key, &rec.signature) {
        (None, Some(_)) => vec![format!("note: the gate record is signed, but {KEY_VAR} is not set: its signature was not checked")],
        (None, None) => vec![format!("note: the gate record is not signed: set {KEY_VAR} for `ward gate --record` and `ward verify` to detect edits of the record (without the key, its salted Argon2id binding ties it to every value of the plan; see `ward docs gate`)")],
        _ => Vec::new(),
    };
    let exit = v.exit();
    let v = Verified {
        planfile: opts.planfile.display().to_string(),
        report: v,
        notes,
        exit,
    };
    Ok((v, rec))
}

#[cfg(test)]
mod tests {
    //! What [`slim`] and [`load`] keep of each verdict: memory only. The reports are the same
    //! on a slim verdict as on the whole one (that is `slim`'s contract), so only these tests,
    //! which look at the verdicts themselves, tell what is kept (docs/testing.md, "Mutation
    //! testing").
    use super::*;
    use crate::testkit::{attr, verdict};
    use serde_json::json;
    use ward_classify::Verdict;

    /// A change of `fakecloud_instance.db` with one attribute that decides it and the object it
    /// destroys (if it destroys one).
    fn change(action: Action, impact: Impact) -> Verdict {
        let mut v = verdict("fakecloud_instance.db", action, impact);
        v.attributes = vec![
            attr("size", json!("medium"), json!("large"), impact, true),
            attr("tags", json!({}), json!({"a": "b"}), Impact::Free, false),
        ];
        v.destroyed_object = Some("id=i-1".into());
        v
    }

    /// How many attributes and whether the destroyed object are kept (`None`: the verdict is
    /// not kept at all).
    fn kept(v: Verdict, policy: &Policy) -> Option<(usize, bool)> {
        let s = slim(v, policy, &|_| false, &|_| false)?;
        Some((s.attributes.len(), s.destroyed_object.is_some()))
    }

    #[test]
    fn only_a_change_that_may_need_an_approval_keeps_what_decides_it() {
        let default = Policy::default();
        // At a class that needs approval, or a destroy: the deciding attribute and the object.
        assert_eq!(
            kept(change(Action::Update, Impact::DataLoss), &default),
            Some((1, true))
        );
        assert_eq!(
            kept(
                change(Action::ReplaceDeleteFirst, Impact::Replace),
                &default
            ),
            Some((1, true))
        );
        let mut unclassified = change(Action::Delete, Impact::Replace);
        unclassified.classified = false;
        assert_eq!(kept(unclassified, &default), Some((0, true)));
        // At a class that needs none: not kept at all.
        assert_eq!(
            kept(change(Action::Update, Impact::Interrupt), &default),
            None
        );
        let mut unclassified = change(Action::Update, Impact::DataLoss);
        unclassified.classified = false;
        assert_eq!(kept(unclassified, &default), None);
        // Not a change, or not a managed object: not kept, even when every class needs approval.
        let every = Policy {
            approve: Impact::ALL.iter().copied().collect(),
            ..Policy::default()
        };
        assert_eq!(kept(change(Action::NoOp, Impact::None), &every), None);
        let mut read = change(Action::Delete, Impact::Replace);
        read.mode = ward_model::Mode::Data;
        assert_eq!(kept(read, &every), None);
        // What `keep` names keeps its deciding attribute.
        let s = slim(
            change(Action::Update, Impact::Interrupt),
            &default,
            &|_| true,
            &|_| false,
        );
        assert_eq!(s.map(|s| s.attributes.len()), Some(1));
        // What an approval names is kept bare, no-op included (why its approval is unused).
        for action in [Action::Update, Action::NoOp] {
            let s = slim(
                change(action, Impact::Interrupt),
                &default,
                &|_| false,
                &|_| true,
            );
            assert_eq!(s.map(|s| s.attributes.len()), Some(0));
        }
        // A change that overwrites state outside the root, when the policy approves those.
        let mut over = change(Action::Update, Impact::Interrupt);
        over.overwrites = Some(std::sync::Arc::new(ward_rules::RuleRef {
            origin: ward_rules::RuleOrigin::User {
                file: "ward.hcl".into(),
                line: 1,
            },
            type_name: "fakecloud_instance".into(),
            attribute: None,
        }));
        assert!(default.approve_overwrites);
        assert_eq!(kept(over.clone(), &default), Some((0, false)));
        let not_overwrites = Policy {
            approve_overwrites: false,
            ..Policy::default()
        };
        assert_eq!(kept(over, &not_overwrites), None);
    }

    /// Runs `f` with the run's values of a `ward.hcl` of fakecloud's rules in `dir`.
    fn with_setup<R>(dir: &Path, clock: ward_time::Clock, f: impl FnOnce(&Setup<'_>) -> R) -> R {
        let cfg =
            ward_config::Config::parse(&ward_rig::rules::ward_hcl(""), "ward.hcl", dir).unwrap();
        let knowledge = ward_config::knowledge(Some(&cfg)).unwrap();
        f(&Setup {
            config: Some(&cfg),
            knowledge: &knowledge,
            cwd: dir,
            clock,
            approver: None,
        })
    }

    #[test]
    fn approve_keeps_what_decides_the_changes_its_address_names() {
        let dir = tempfile::tempdir().unwrap();
        with_setup(dir.path(), ward_time::Clock::System, |setup| {
            approve_keeps(setup)
        });
    }

    fn approve_keeps(setup: &Setup<'_>) {
        let inputs = Inputs {
            plan: Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../examples/plans/restart.json")
                .display()
                .to_string(),
            ..Inputs::default()
        };
        // The size of fakecloud_instance.db restarts it: no approval needed by default.
        let size_of_db = |address: Option<&str>| {
            let want = Want {
                content: false,
                record: None,
                approve_every: false,
                address,
                approvals: false,
                scratch: None,
            };
            let l = load(&inputs, setup, None, want).unwrap();
            let v = l
                .assessment
                .verdicts
                .iter()
                .find(|v| v.address == "fakecloud_instance.db")?;
            assert_eq!(v.impact, Impact::Interrupt);
            Some(v.attributes.len())
        };
        // Not named, it needs nothing: not kept at all.
        assert_eq!(size_of_db(None), None);
        assert_eq!(size_of_db(Some("fakecloud_instance.web[0]")), None);
        assert_eq!(size_of_db(Some("fakecloud_instance.db")), Some(1));
        assert_eq!(size_of_db(Some("fakecloud_instance.*")), Some(1));
        assert_eq!(size_of_db(Some("fakecloud_volume.*")), None);
    }

    /// A plan of `n` no-ops of fakecloud instances, then one in-place update of a fakecloud
    /// instance's tags (impact free: no approval) and one update of an unclassified type.
    fn no_op_plan(n: usize) -> String {
        let change = |address: &str, ty: &str, actions: &str, after: &str| {
            format!(
                r#"{{"address":"{address}","mode":"managed","type":"{ty}","name":"x","provider_name":"registry.terraform.io/ward/fakecloud","change":{{"actions":[{actions}],"before":{{"name":"a","tags":{{}}}},"after":{after},"after_unknown":{{}},"before_sensitive":{{}},"after_sensitive":{{}}}}}}"#
            )
        };
        let mut changes: Vec<String> = (0..n)
            .map(|i| {
                change(
                    &format!("fakecloud_instance.n[{i}]"),
                    "fakecloud_instance",
                    r#""no-op""#,
                    r#"{"name":"a","tags":{}}"#,
                )
            })
            .collect();
        changes.push(change(
            "fakecloud_instance.tagged",
            "fakecloud_instance",
            r#""update""#,
            r#"{"name":"a","tags":{"a":"b"}}"#,
        ));
        changes.push(change(
            "unknowncloud_thing.u",
            "unknowncloud_thing",
            r#""update""#,
            r#"{"name":"b","tags":{}}"#,
        ));
        format!(
            r#"{{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{}]}}"#,
            changes.join(",")
        )
    }

    /// The gate keeps no verdict of a change nothing will look at again: on a plan of 1,000
    /// no-ops and an update that needs no approval, it keeps none (#35 item 2: memory bounded
    /// by what needs a decision, not by the plan's size), yet the coverage gate still sees the
    /// unclassified type that changes, and the report is the whole-plan report.
    #[test]
    fn the_gate_keeps_no_verdict_of_a_change_that_needs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let clock = ward_time::Clock::Fixed("2026-12-04T00:00:00Z".parse().unwrap());
        with_setup(dir.path(), clock, |setup| {
            let file = dir.path().join("plan.json");
            std::fs::write(&file, no_op_plan(1000)).unwrap();
            let inputs = Inputs {
                plan: file.display().to_string(),
                approvals: Some(dir.path().join("approvals.json")),
                ..Inputs::default()
            };
            let want = Want {
                content: false,
                record: None,
                approve_every: false,
                address: None,
                approvals: true,
                scratch: None,
            };
            let l = load(&inputs, setup, None, want).unwrap();
            // The unclassified update is unclassified, so kept for neither class nor destroy.
            let kept: Vec<&str> = l
                .assessment
                .verdicts
                .iter()
                .map(|v| v.address.as_str())
                .collect();
            assert_eq!(kept.len(), 0, "kept: {:?}", kept.get(..3));
            assert_eq!(l.assessment.coverage.blocking, ["unknowncloud_thing"]);
            assert_eq!(l.assessment.coverage.types_checked, 2);
            // An approval naming a change that needs none keeps that one verdict: the report
            // says why the approval is unused from the change's action and class.
            let approve_opts = ApproveOptions {
                inputs: inputs.clone(),
                address: "fakecloud_instance.tagged".into(),
                reason: "test".into(),
                by: Some("t".into()),
                ..ApproveOptions::default()
            };
            approve(&approve_opts, setup, &|_: &str| None).unwrap();
            let opts = GateOptions {
                inputs: Inputs {
                    allow_unclassified: true,
                    ..inputs.clone()
                },
                no_record_protection: true,
                ..GateOptions::default()
            };
            let run = gate(&opts, setup, None, &|_: &str| None).unwrap();
            assert_eq!(run.exit, Exit::Pass, "{:?}", run.report);
            assert_eq!(run.report.coverage_blocking, ["unknowncloud_thing"]);
            let unused: Vec<&str> = run
                .report
                .unused_approvals
                .iter()
                .map(|u| u.why.as_str())
                .collect();
            assert_eq!(
                unused,
                ["the change here (update, free) does not need approval under the policy"]
            );
        });
    }

    /// A plan its caller already read is gated as its file is, and its file is not read again:
    /// each example plan, with and without an approval key (which binds every change's content),
    /// gated from its file and then, the file moved away, from the plan read once (#34).
    #[test]
    fn a_plan_given_read_is_gated_as_its_file_without_reading_it() {
        let dir = tempfile::tempdir().unwrap();
        let clock = ward_time::Clock::Fixed("2026-12-04T00:00:00Z".parse().unwrap());
        with_setup(dir.path(), clock, |setup| gate_given(dir.path(), setup));
    }

    /// A gate run that writes a record spills its entries into the scratch directory given and
    /// leaves nothing there: after a run that writes the record (with the key and without) and
    /// after one that ends in an error once the plan was read (an approvals file that is not
    /// JSON).
    #[test]
    fn a_gate_run_leaves_nothing_in_its_scratch_directory() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let clock = ward_time::Clock::Fixed("2026-12-04T00:00:00Z".parse().unwrap());
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans");
        let record = dir.path().join("rec.json");
        let opts = GateOptions {
            inputs: Inputs {
                plan: examples.join("replace.json").display().to_string(),
                approvals: Some(dir.path().join("approvals.json")),
                allow_unclassified: true,
                ..Inputs::default()
            },
            record: Some(record.clone()),
            no_record_protection: true,
            ..GateOptions::default()
        };
        let left = || std::fs::read_dir(scratch.path()).unwrap().count();
        with_setup(dir.path(), clock, |setup| {
            for key in [None, Some("k")] {
                let env = |name: &str| (name == KEY_VAR).then(|| key.map(str::to_string)).flatten();
                gate_in(&opts, setup, None, &env, None, Some(scratch.path())).unwrap();
                assert!(std::fs::read_to_string(&record)
                    .unwrap()
                    .contains("\"changes\""));
                assert_eq!(left(), 0);
                std::fs::remove_file(&record).unwrap();
            }
            std::fs::write(dir.path().join("approvals.json"), "not json").unwrap();
            let e = gate_in(
                &opts,
                setup,
                None,
                &|_: &str| None,
                None,
                Some(scratch.path()),
            );
            assert!(e.is_err(), "{e:?}");
            assert!(!record.exists());
            assert_eq!(left(), 0);
        });
    }

    fn gate_given(dir: &Path, setup: &Setup<'_>) {
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans");
        let mut gated = 0;
        for entry in std::fs::read_dir(&examples).unwrap() {
            let from = entry.unwrap().path();
            let file = dir.join("plan.json");
            std::fs::copy(&from, &file).unwrap();
            let opts = GateOptions {
                inputs: Inputs {
                    plan: file.display().to_string(),
                    approvals: Some(dir.join("approvals.json")),
                    allow_unclassified: true,
                    ..Inputs::default()
                },
                no_record_protection: true,
                ..GateOptions::default()
            };
            for key in [None, Some("k")] {
                let env = |name: &str| (name == KEY_VAR).then(|| key.map(str::to_string)).flatten();
                let from_file = gate(&opts, setup, None, &env);
                let moved = dir.join("moved.json");
                std::fs::rename(&file, &moved).unwrap();
                let moved_arg = moved.display().to_string();
                let mut read =
                    |o: ward_plan::ReadOptions, f: &mut dyn FnMut(ward_model::ResourceChange)| {
                        ward_plan::read_with(&moved_arg, o, Some(f)).map_err(|e| e.to_string())
                    };
                let given = gate(&opts, setup, Some(ReadPlan { read: &mut read }), &env);
                std::fs::rename(&moved, &file).unwrap();
                match (from_file, given) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.report, b.report, "{}", from.display());
                        assert_eq!((a.exit, a.notes), (b.exit, b.notes));
                        gated += 1;
                    }
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    (a, b) => panic!("{}: {a:?} but {b:?}", from.display()),
                }
            }
        }
        assert!(gated >= 10, "{gated}");
    }
}
