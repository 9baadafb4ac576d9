//! `ward drift`: checks every root, every time.
//!
//! For each root discovered in the repository and declared in `ward.hcl` ([`config`],
//! [`discover`]): choose the binary by evidence ([`binary`]), init non-interactively, pull the
//! state and judge it before anything else ([`state`]: a missing state fails although Terraform's
//! own exit code is 0), then `plan -refresh-only -out` and `show -json`, and read the outcome from
//! the JSON ([`outcome`]). Roots run in parallel (`-j`), each with a deadline after which its
//! process group is killed ([`exec`]). Every run is kept in the history database (`ward-store`);
//! alerts fire on transitions only (new, escalated, resolved findings) ([`notify`]). [`run`]
//! returns a typed [`Report`] with its [`Exit`] and [`history::read`] a typed [`History`];
//! `ward_report::drift` renders both (terminal, JSON, Markdown, JUnit).

pub use ward_terraform::binary;
pub mod config;
pub mod discover;
pub use ward_terraform::exec;
pub mod history;
pub mod notify;
pub mod outcome;
pub mod state;

use binary::{Binary, Selection};
use config::{Config, DeclaredRoot};
use outcome::{DriftItem, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use ward_store::{StateMark, Store, Transition};

pub use history::History;
pub use ward_model::Exit;

pub use ward_store;

/// The default history database ([`ward_store::default_path`]).
pub fn default_db() -> Option<PathBuf> {
    ward_store::default_path()
}
/// Where the history is kept: `--db` (a SQLite file, or a `postgres://` URL), else
/// `history { url }` in `ward.hcl`, else [`default_db`]. One rule for every command that reads
/// or writes the history.
pub fn history_location(
    db: Option<&Path>,
    cfg: Option<&Config>,
) -> Result<ward_store::Location, ward_store::StoreError> {
    let password_file = cfg.and_then(|c| c.history.password_file.as_deref());
    if let Some(p) = db {
        // One reading for every spelling: a URL in any case, a libpq string, a mistyped URL
        // (refused), else a SQLite file.
        return match p.to_str() {
            Some(s) => ward_store::Location::parse(s, password_file, "--db"),
            None => Ok(ward_store::Location::Sqlite(p.to_path_buf())),
        };
    }
    if let Some(url) = cfg.and_then(|c| c.history.url.as_deref()) {
        let at = cfg.map(|c| c.history.url_at.as_str()).unwrap_or("ward.hcl");
        return ward_store::Location::parse(url, password_file, at);
    }
    default_db().map(ward_store::Location::Sqlite).ok_or_else(|| {
        ward_store::StoreError::Location(
            "no location for the drift history database: neither XDG_STATE_HOME nor HOME is set; pass --db FILE (or a postgres:// URL), or set `history { url }` in ward.hcl".into(),
        )
    })
}

/// The JSON report's schema version.
pub const SCHEMA_VERSION: u32 = 1;

/// Everything `ward drift` needs to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The repository to walk.
    pub repo: PathBuf,
    /// `ward.hcl` (`--config`); default: the first `ward.hcl` walking up from the repository
    /// directory to the repository root ([`ward_config::discover`]).
    pub config: Option<PathBuf>,
    /// `--terraform PATH`.
    pub terraform: Option<PathBuf>,
    /// `--tofu PATH`.
    pub tofu: Option<PathBuf>,
    /// `-j`: roots checked at once (at least 1).
    pub jobs: usize,
    /// Per-root deadline.
    pub timeout: Duration,
    /// `--shard K/N` (1-based K).
    pub shard: Option<(u32, u32)>,
    /// `--pending`: also run a normal plan to report code changes not yet applied.
    pub pending: bool,
    /// `--db`: the history database (a SQLite file or a `postgres://` URL); `None`: the
    /// `history` block of `ward.hcl`, else [`default_db`] ([`history_location`]).
    pub db: Option<PathBuf>,
    /// `--accept-state ROOT`: trust this root's current lineage/serial (after a deliberate state
    /// migration).
    pub accept_state: Vec<String>,
    /// Print progress lines on stderr as roots finish.
    pub progress: bool,
    /// The clock: "now" for history rows, today (UTC) for ignore-rule expiry. Tests fix it
    /// with [`ward_time::Clock::Fixed`].
    pub clock: ward_time::Clock,
    /// Extra environment for every Terraform/OpenTofu command (e.g. `TF_CLI_CONFIG_FILE`).
    pub env: Vec<(String, String)>,
    /// Inherited `TF_*` variables Terraform may see besides [`exec::DEFAULT_ALLOWED_TF`]
    /// (names, or `PREFIX*` patterns); every other `TF_*` variable is removed.
    pub allow_env: Vec<String>,
    /// `--notify URL`: the webhook the run's alert goes to, with the alerts earlier runs could
    /// not deliver ([`notify::deliver`]). Checked before anything runs.
    pub notify: Option<String>,
}

/// A failure before any root could be checked (bad configuration, unreadable repository,
/// unusable database): exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum DriftError {
    /// `ward.hcl` is wrong.
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    /// The walk failed.
    #[error(transparent)]
    Discover(#[from] discover::DiscoverError),
    /// The history database failed.
    #[error(transparent)]
    Store(#[from] ward_store::StoreError),
    /// ward's knowledge base failed to load.
    #[error("cannot load ward's knowledge: {0}")]
    Knowledge(String),
    /// A `--terraform`/`--tofu` binary is unusable, or `--shard` is wrong.
    #[error("{0}")]
    Usage(String),
}

/// One root's result.
#[derive(Debug, Clone, Serialize)]
pub struct RootResult {
    /// The root's name (its `ward.hcl` label; the path when undeclared).
    pub name: String,
    /// Repository-relative directory.
    pub path: String,
    /// The outcome.
    pub outcome: Outcome,
    /// Why, in plain sentences (failure reasons, exclusion reason, what was found).
    pub detail: Vec<String>,
    /// The binary used, e.g. `terraform 1.11.4`.
    pub binary: Option<String>,
    /// Why that binary.
    pub binary_because: Option<String>,
    /// The state's lineage and serial, when read.
    pub state: Option<StateMark>,
    /// Drift items (suppressed ones included, marked).
    pub drift: Vec<DriftItem>,
    /// How many drift items ignore rules suppressed.
    pub suppressed: usize,
    /// Outputs that would change.
    pub outputs: Vec<String>,
    /// Pending code changes (with `--pending`).
    pub pending: Vec<String>,
    /// Finding transitions recorded for this root in this run.
    pub transitions: Vec<Transition>,
    /// Wall time in milliseconds (printed only with `--timestamps`).
    #[serde(skip)]
    pub millis: u128,
}

impl RootResult {
    /// A root's result with nothing found yet: no binary, state, drift or outputs.
    pub fn new(name: &str, path: &str, outcome: Outcome, detail: Vec<String>) -> RootResult {
        RootResult {
            name: name.to_string(),
            path: path.to_string(),
            outcome,
            detail,
            binary: None,
            binary_because: None,
            state: None,
            drift: Vec::new(),
            suppressed: 0,
            outputs: Vec::new(),
            pending: Vec::new(),
            transitions: Vec::new(),
            millis: 0,
        }
    }
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The JSON schema version.
    pub schema_version: u32,
    /// The shard, `K/N`, when sharded.
    pub shard: Option<String>,
    /// Roots discovered (in this shard).
    pub discovered: usize,
    /// Roots checked (discovered, not excluded).
    pub checked: usize,
    /// Roots excluded.
    pub excluded: usize,
    /// Roots declared in `ward.hcl` but not found on disk (in this shard).
    pub declared_missing: usize,
    /// Every root, sorted by path.
    pub roots: Vec<RootResult>,
    /// How many roots ended in each outcome (every outcome present).
    pub counts: BTreeMap<String, usize>,
    /// Every transition, sorted.
    pub transitions: Vec<Transition>,
    /// Drift items suppressed by ignore rules, in total.
    pub suppressed: usize,
    /// Ignore rules past their expiry (they suppress nothing any more).
    pub expired_ignores: Vec<String>,
    /// Run-level problems (zero roots, files that could not be parsed...).
    pub problems: Vec<String>,
    /// How the run ends: [`Exit::RootFailed`] when a root (or the root set) failed
    /// (missing-state, state-replaced, error, mismatch, zero roots), else [`Exit::DriftAlert`]
    /// when a finding is new or escalated, else [`Exit::Pass`]; [`Exit::Usage`] when the run
    /// would pass but the webhook failed ([`Report::webhook_failed`]). JSON: `exit_code`, the number.
    #[serde(
        rename = "exit_code",
        serialize_with = "ward_model::exit::serialize_code"
    )]
    pub exit: Exit,
    /// The run's id in the history database.
    #[serde(skip)]
    pub run_id: i64,
    /// When the run started (UTC); printed only with `--timestamps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
}

impl Report {
    /// Records that the `--notify` webhook failed (`error`, which names the webhook redacted).
    /// A failed alert must not pass silently: the error is added to the report's problems and a
    /// run that would have passed ends with [`Exit::Usage`] (a failed root or a drift alert keeps
    /// its own exit), so the report rendered afterwards and the process agree.
    pub fn webhook_failed(&mut self, error: &str) {
        self.problems.push(error.to_string());
        if self.exit == Exit::Pass {
            self.exit = Exit::Usage;
        }
    }

    /// The invariant printed in every report: discovered = checked + excluded.
    pub fn invariant(&self) -> String {
        format!(
            "discovered {} = checked {} + excluded {}",
            self.discovered, self.checked, self.excluded
        )
    }
}

/// Parses `K/N` (1 ≤ K ≤ N).
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--shard {s:?}: expected K/N with 1 <= K <= N, e.g. --shard 2/8");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: u32 = k.trim().parse().map_err(|_| bad())?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The shard (1-based) a root path belongs to among `n`: FNV-1a of the path, so a root stays in
/// its shard when other roots are added or removed.
pub fn shard_of(path: &str, n: u32) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in path.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % u64::from(n.max(1))) as u32 + 1
}

enum Job {
    Check(DeclaredRoot),
}

/// Runs `ward drift` and records it in the history database.
pub fn run(opts: &Options) -> Result<Report, DriftError> {
    if let Some(url) = &opts.notify {
        notify::check_url(url).map_err(DriftError::Usage)?;
    }
    let now = opts.clock.now_rfc3339();
    let today = opts.clock.today();
    let found_config = ward_config::discover(opts.config.as_deref(), &opts.repo)?;
    let loaded = found_config.as_ref().map(Config::load_found).transpose()?;
    let knowledge = ward_config::knowledge(loaded.as_ref())
        .map_err(|e| DriftError::Knowledge(e.to_string()))?;
    let found = discover::discover(&opts.repo, loaded.clone())?;
    let cfg = loaded.unwrap_or_else(|| Config::empty(&opts.repo));

    let in_shard = |path: &str| opts.shard.is_none_or(|(k, n)| shard_of(path, n) == k);
    let mut results: Vec<RootResult> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    let (mut discovered, mut excluded, mut declared_missing) = (0, 0, 0);
    for path in &found.roots {
        if !in_shard(path) {
            continue;
        }
        discovered += 1;
        let declared = cfg.root_at(path);
        let name = declared.map_or(path.as_str(), |d| d.name.as_str());
        if let Some(x) = cfg.drift.excluded(path) {
            excluded += 1;
            results.push(RootResult::new(
                name,
                path,
                Outcome::Excluded,
                vec![x.reason.clone()],
            ));
            continue;
        }
        match declared {
            Some(d) => jobs.push(Job::Check(d.clone())),
            None => results.push(RootResult::new(
                name,
                path,
                Outcome::Mismatch,
                vec![format!(
                    "found on disk but not declared in ward.hcl: add root \"<name>\" {{ path = \"{path}\" }}, or exclude it with a reason"
                )],
            )),
        }
    }
    for d in &cfg.roots {
        if found.roots.contains(&d.path)
            || !in_shard(&d.path)
            || cfg.drift.excluded(&d.path).is_some()
        {
            continue;
        }
        declared_missing += 1;
        let why = if found.modules.contains(&d.path) {
            "declared in ward.hcl but it is a module called by another configuration, not a root"
                .to_string()
        } else if found.ignored.contains(&d.path) {
            "declared in ward.hcl but an ignore file (.gitignore/.ignore) covers it".to_string()
        } else {
            "declared in ward.hcl but no Terraform/OpenTofu root was found there: fix the path or remove the block".to_string()
        };
        results.push(RootResult::new(
            &d.name,
            &d.path,
            Outcome::Mismatch,
            vec![why],
        ));
    }
    if found.roots.is_empty() {
        problems.push(format!(
            "zero roots discovered in {}: a drift check that checks nothing fails",
            opts.repo.display()
        ));
    }
    for (file, e) in &found.unparsed {
        problems.push(format!("{file}: cannot be parsed: {e}"));
    }
    let expired_ignores: Vec<String> = cfg
        .drift
        .ignores
        .iter()
        .filter(|r| r.expired(today))
        .map(|r| format!("{} expired: it suppresses nothing any more", r.describe()))
        .collect();

    // Binaries.
    let explicit: Vec<(PathBuf, binary::Product)> = opts
        .terraform
        .iter()
        .map(|p| (p.clone(), binary::Product::Terraform))
        .chain(opts.tofu.iter().map(|p| (p.clone(), binary::Product::Tofu)))
        .collect();
    let binaries = binary::find_binaries(&explicit).map_err(DriftError::Usage)?;

    // History.
    let mut store = Store::open_location(&history_location(opts.db.as_deref(), Some(&cfg))?)?;
    let marks = store.state_marks()?;
    let shard_s = opts.shard.map(|(k, n)| format!("{k}/{n}"));

    // Check in parallel.
    let total = jobs.len();
    let queue = Mutex::new(jobs.into_iter());
    let done = Mutex::new(Vec::new());
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let allow: Vec<String> = exec::DEFAULT_ALLOWED_TF
        .iter()
        .map(|s| s.to_string())
        .chain(opts.allow_env.iter().cloned())
        .collect();
    let ctx = Ctx {
        repo: &opts.repo,
        binaries: &binaries,
        marks: &marks,
        accept: &opts.accept_state,
        timeout: opts.timeout,
        pending: opts.pending,
        knowledge: &knowledge,
        env: &opts.env,
        allow: &allow,
    };
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1).min(total.max(1)) {
            s.spawn(|| loop {
                let job = match queue.lock() {
                    Ok(mut q) => q.next(),
                    Err(_) => None,
                };
                let Some(Job::Check(root)) = job else { break };
                let t0 = Instant::now();
                let mut r = check_root(&ctx, &root);
                r.millis = t0.elapsed().as_millis();
                let n = finished.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                if opts.progress {
                    eprintln!(
                        "[{n}/{total}] {} {} ({:.1}s)",
                        r.path,
                        r.outcome,
                        r.millis as f64 / 1000.0
                    );
                }
                if let Ok(mut d) = done.lock() {
                    d.push(r);
                }
            });
        }
    });
    results.extend(done.into_inner().unwrap_or_default());
    results.sort_by(|a, b| a.path.cmp(&b.path).then(a.name.cmp(&b.name)));

    // Ignore rules, history, transitions: one transaction for the whole run, the run's own row
    // included (begun at its start time): a run killed before this point leaves nothing behind,
    // rather than a run with no end and no roots that every later reader takes for a real one.
    store.begin_batch()?;
    let run_id = store.begin_run(&now, shard_s.as_deref())?;
    let mut transitions = Vec::new();
    let mut suppressed = 0;
    for r in &mut results {
        for item in &mut r.drift {
            let rule = cfg.drift.ignores.iter().find(|rule| {
                !rule.expired(today)
                    && item
                        .attributes
                        .iter()
                        .all(|a| rule.matches(&r.name, &item.address, a))
            });
            item.suppressed_by = rule.map(config::IgnoreRule::describe);
        }
        r.suppressed = r.drift.iter().filter(|i| i.suppressed_by.is_some()).count();
        suppressed += r.suppressed;
        if r.outcome.checked_drift() {
            let active = r.drift.len() - r.suppressed;
            r.outcome = outcome::decide(active, &r.outputs, &r.pending);
            let findings: Vec<ward_store::Finding> = r
                .drift
                .iter()
                .filter(|i| i.suppressed_by.is_none())
                .flat_map(|i| {
                    i.attributes.iter().enumerate().map(move |(j, a)| {
                        let impact = i.attribute_impacts.get(j).unwrap_or(&i.impact);
                        ward_store::Finding {
                            address: i.address.clone(),
                            attribute: a.clone(),
                            impact: impact.clone(),
                        }
                    })
                })
                .collect();
            r.transitions = store.apply_findings(run_id, &now, &r.name, &findings)?;
            transitions.extend(r.transitions.iter().cloned());
        }
        if let Some(mark) = &r.state {
            let trusted = !matches!(r.outcome, Outcome::StateReplaced | Outcome::MissingState)
                && !mark.lineage.is_empty();
            if trusted {
                store.set_state_mark(run_id, &now, &r.name, mark)?;
            }
        }
        store.record_outcome(
            run_id,
            &ward_store::OutcomeRow {
                root: r.name.clone(),
                outcome: r.outcome.as_str().to_string(),
                detail: r.detail.join(" "),
                state: r.state.clone(),
                binary: r.binary.clone(),
            },
        )?;
    }
    transitions.sort();

    let mut counts: BTreeMap<String, usize> = Outcome::ALL
        .iter()
        .map(|o| (o.as_str().to_string(), 0))
        .collect();
    for r in &results {
        *counts.entry(r.outcome.as_str().to_string()).or_default() += 1;
    }
    let failed = results.iter().any(|r| r.outcome.fails()) || found.roots.is_empty();
    let alert = transitions.iter().any(|t| {
        matches!(
            t.kind,
            ward_store::TransitionKind::New | ward_store::TransitionKind::Escalated
        )
    });
    let exit = if failed {
        Exit::RootFailed
    } else if alert {
        Exit::DriftAlert
    } else {
        Exit::Pass
    };
    store.finish_run(run_id, &now, i32::from(exit.code()))?;
    store.commit_batch()?;
    let mut report = Report {
        schema_version: SCHEMA_VERSION,
        shard: shard_s,
        discovered,
        checked: discovered - excluded,
        excluded,
        declared_missing,
        roots: results,
        counts,
        transitions,
        suppressed,
        expired_ignores,
        problems,
        exit,
        run_id,
        started_at: None,
    };
    if let Some(url) = &opts.notify {
        if let Err(e) = notify::deliver(&mut store, url, &report, &now) {
            report.webhook_failed(&e);
        }
    }
    Ok(report)
}

struct Ctx<'a> {
    repo: &'a Path,
    binaries: &'a [Binary],
    marks: &'a BTreeMap<String, StateMark>,
    accept: &'a [String],
    timeout: Duration,
    pending: bool,
    knowledge: &'a ward_rules::Knowledge,
    env: &'a [(String, String)],
    allow: &'a [String],
}

/// Checks one root: select, init, state pull + preflight, refresh-only plan, show -json.
fn check_root(ctx: &Ctx<'_>, root: &DeclaredRoot) -> RootResult {
    let mut r = RootResult::new(&root.name, &root.path, Outcome::Error, Vec::new());
    let fail = |mut r: RootResult, outcome: Outcome, why: String| {
        r.outcome = outcome;
        r.detail.push(why);
        r
    };
    let dir = ctx.repo.join(&root.path);
    let deadline = Instant::now() + ctx.timeout;
    let ev = match binary::Evidence::gather(&dir) {
        Ok(e) => e,
        Err(e) => return fail(r, Outcome::Error, e),
    };
    let Selection {
        binary: bin,
        because,
    } = match binary::select(root.pin.as_ref(), &ev, ctx.binaries) {
        Ok(s) => s,
        Err(e) => {
            return fail(
                r,
                Outcome::Error,
                format!("cannot choose terraform or tofu: {e}"),
            )
        }
    };
    r.binary = Some(bin.to_string());
    r.binary_because = Some(because);
    // The workspace decides whether the root runs directly or, as a Terragrunt unit without
    // .tf files, through `terragrunt` (ward_terraform::runner_for). Its scratch directory is
    // owner only (it holds `state pull` output and plan JSON with raw sensitive values), removed
    // on every exit path, signals included.
    let ws = match Workspace::for_root(&bin, &dir, ctx.timeout, ctx.env) {
        Ok(ws) => ws.allow_env(ctx.allow.iter().cloned()).deadline(deadline),
        Err(e @ TfError::NoTerragrunt { .. }) => {
            return fail(
                r,
                Outcome::Error,
                format!("{e}, or exclude it with drift {{ exclude }}"),
            )
        }
        Err(e) => return fail(r, Outcome::Error, e.to_string()),
    };
    let sp = ws.scratch();
    let exec = |args: &[&str]| ws.run(args);
    // `show -json` leaves its output in a scratch file, which ward-plan reads in blocks.
    let show = |args: &[&str]| ws.run_keeping_stdout(args);

    // 1. init, non-interactive.
    match exec(&["init", "-input=false", "-no-color"]) {
        Ok(f) if f.ok() => {}
        Ok(f) => {
            return fail(
                r,
                Outcome::Error,
                format!("{} init failed: {}", bin.product, f.stderr_tail(4)),
            )
        }
        Err(e) => return fail(r, Outcome::Error, e.to_string()),
    }
    // 2. state pull and preflight.
    let pulled = match exec(&["state", "pull"]) {
        Ok(f) if f.ok() => f.stdout,
        Ok(f) => {
            let tail = f.stderr_tail(4);
            let outcome = if is_lock_error(&f.stderr) {
                Outcome::Locked
            } else {
                Outcome::Error
            };
            return fail(
                r,
                outcome,
                format!("{} state pull failed: {tail}", bin.product),
            );
        }
        Err(e) => return fail(r, Outcome::Error, e.to_string()),
    };
    let recorded = if ctx.accept.iter().any(|a| a == &root.name) {
        None
    } else {
        ctx.marks.get(&root.name)
    };
    let info = match state::preflight(&pulled, root.expect_empty, recorded) {
        state::Preflight::Ok(i) => i,
        state::Preflight::Missing(why) => {
            return fail(r, Outcome::MissingState, format!("{why} (Terraform's own exit codes say nothing here: state pull and plan -refresh-only both exit 0)"))
        }
        state::Preflight::Replaced(why, i) => {
            r.state = Some(StateMark { lineage: i.lineage, serial: i.serial });
            return fail(r, Outcome::StateReplaced, format!("{why}; if this was deliberate, run once with --accept-state {}", root.name));
        }
    };
    r.state = Some(StateMark {
        lineage: info.lineage.clone(),
        serial: info.serial,
    });
    if let Err(e) = binary::check_state_hosts(bin.product, &info.provider_hosts) {
        return fail(r, Outcome::Error, e);
    }
    // 3. refresh-only plan, read from its JSON.
    let plan = match plan_json(
        &exec,
        &show,
        sp,
        &bin.product.to_string(),
        PlanKind::RefreshOnly,
    ) {
        Ok(p) => p,
        Err((outcome, detail)) => return fail(r, outcome, detail),
    };
    r.drift = outcome::drift_items(&plan, ctx.knowledge);
    r.outputs = outcome::output_changes(&plan);
    // 4. optional normal plan: pending code changes.
    if ctx.pending {
        match plan_json(&exec, &show, sp, &bin.product.to_string(), PlanKind::Normal) {
            Ok(p) => r.pending = outcome::pending_changes(&p),
            Err((outcome, detail)) => return fail(r, outcome, detail),
        }
    }
    let active = r.drift.len();
    r.outcome = outcome::decide(active, &r.outputs, &r.pending);
    r
}

/// Runs a command leaving its standard output in a scratch file
/// ([`Workspace::run_keeping_stdout`]): how `show -json` runs.
type ShowJson<'a> = dyn Fn(&[&str]) -> Result<(exec::Finished, PathBuf), exec::ExecError> + 'a;

/// The two plans drift runs: what differs between them is the `-refresh-only` flag, the
/// scratch file names and the wording of a failure.
#[derive(Clone, Copy)]
enum PlanKind {
    /// `plan -refresh-only`: drift.
    RefreshOnly,
    /// A normal plan (`--pending`): code changes not yet applied.
    Normal,
}

/// Runs `plan` (never waiting for a lock), then `show -json` of its plan file, and reads that.
/// A failure is the root's outcome and detail: `locked` when Terraform says the lock is held,
/// else `error`.
fn plan_json(
    exec: &dyn Fn(&[&str]) -> Result<exec::Finished, exec::ExecError>,
    show: &ShowJson<'_>,
    sp: &Path,
    product: &str,
    which: PlanKind,
) -> Result<ward_model::Plan, (Outcome, String)> {
    let (name, flag, what) = match which {
        PlanKind::RefreshOnly => ("refresh", Some("-refresh-only"), "plan -refresh-only"),
        PlanKind::Normal => ("normal", None, "plan"),
    };
    let plan_file = sp.join(format!("{name}.tfplan"));
    let plan_arg = format!("-out={}", plan_file.display());
    let mut args = vec!["plan"];
    args.extend(flag);
    args.extend(["-input=false", "-no-color", "-lock-timeout=0s", &plan_arg]);
    match exec(&args) {
        Ok(f) if f.ok() => {}
        Ok(f) if is_lock_error(&f.stderr) => return Err((Outcome::Locked, lock_detail(&f.stderr))),
        Ok(f) => {
            return Err((
                Outcome::Error,
                format!("{product} {what} failed: {}", f.stderr_tail(4)),
            ))
        }
        Err(e) => return Err((Outcome::Error, e.to_string())),
    }
    show_json(show, &plan_file, sp, &format!("{name}.json")).map_err(|e| (Outcome::Error, e))
}

fn show_json(
    show: &ShowJson<'_>,
    plan_file: &Path,
    scratch: &Path,
    name: &str,
) -> Result<ward_model::Plan, String> {
    let arg = plan_file.display().to_string();
    let (f, out) = show(&["show", "-json", "-no-color", &arg]).map_err(|e| e.to_string())?;
    // The output stays in its owner-only scratch file: read it in blocks, then remove it.
    let read = || {
        if !f.ok() {
            return Err(format!("show -json failed: {}", f.stderr_tail(4)));
        }
        let file =
            std::fs::File::open(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
        // Drift needs no content fingerprints (only keyed approval digests do).
        let options = ward_plan::ReadOptions {
            content: false,
            objects: false,
        };
        ward_plan::read_reader_with(
            file,
            &format!("{scratch_name}/{name}", scratch_name = scratch.display()),
            options,
            None,
        )
        .map(|(plan, _)| plan)
        .map_err(|e| format!("cannot read the plan JSON: {e}"))
    };
    let plan = read();
    let _ = std::fs::remove_file(&out);
    plan
}

/// "busy: the state lock is held (ID …, Operation …, Who …, Created …)": from Terraform's
/// lock-info lines.
fn lock_detail(stderr: &str) -> String {
    let info: Vec<String> = stderr
        .lines()
        .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '│'))
        .filter(|l| {
            ["ID:", "Operation:", "Who:", "Created:", "Path:"]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    format!(
        "busy: the state lock is held by someone else ({}); not run with -lock=false, check again later",
        if info.is_empty() { "no lock info".to_string() } else { info.join(", ") }
    )
}

use ward_terraform::workspace::is_lock_error;
use ward_terraform::{TfError, Workspace};

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Terraform's message when another run holds the lock (the local backend's, as 1.15 prints
    /// it) and when the lock table cannot be used at all (S3 with DynamoDB, access denied).
    const LOCK_HELD: &str = "\u{2577}\n\u{2502} Error: Error acquiring the state lock\n\u{2502}\n\u{2502} Error message: resource temporarily unavailable\n\u{2502} Lock Info:\n\u{2502}   ID:        4f0c9a5e-1d2b-7c3e-9a0b-8e1f2a3b4c5d\n\u{2502}   Path:      /state/app.tfstate\n\u{2502}   Operation: OperationTypeApply\n\u{2502}   Who:       ci@runner\n\u{2502}   Version:   1.15.5\n\u{2502}   Created:   2026-11-29 10:00:00 +0000 UTC\n\u{2502}   Info:\n\u{2502}\n\u{2502} Terraform acquires a state lock to protect the state from being written\n\u{2502} by multiple users at the same time.\n";
    const LOCK_DENIED: &str = "\u{2577}\n\u{2502} Error: Error acquiring the state lock\n\u{2502}\n\u{2502} Error message: operation error DynamoDB: PutItem, https response error StatusCode: 400, api error AccessDeniedException: User: arn:aws:iam::1:role/ci is not authorized to perform: dynamodb:PutItem on resource: locks\n\u{2502}\n\u{2502} Terraform acquires a state lock to protect the state from being written\n\u{2502} by multiple users at the same time.\n";

    #[test]
    fn only_a_held_lock_is_locked() {
        assert!(is_lock_error(LOCK_HELD));
        assert!(lock_detail(LOCK_HELD).contains("ID: 4f0c9a5e-1d2b-7c3e-9a0b-8e1f2a3b4c5d"));
        // Access denied on the lock table is an error to fix, not someone else's run.
        assert!(!is_lock_error(LOCK_DENIED));
        assert!(!is_lock_error(
            "Error: Failed to read the state lock configuration"
        ));
        assert!(!is_lock_error("the state lock table does not exist"));
    }

    #[test]
    fn shards_are_stable_and_cover_everything() {
        assert_eq!(parse_shard("2/8").unwrap(), (2, 8));
        for bad in ["0/2", "3/2", "x", "1/0", "1-2"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        let paths: Vec<String> = (0..1000).map(|i| format!("live/root-{i}")).collect();
        let mut per = [0usize; 4];
        for p in &paths {
            let s = shard_of(p, 4);
            assert!((1..=4).contains(&s));
            assert_eq!(s, shard_of(p, 4));
            per[(s - 1) as usize] += 1;
        }
        assert_eq!(per.iter().sum::<usize>(), 1000);
        assert!(per.iter().all(|n| *n > 150), "{per:?}");
    }
}
