//! `ward drift`: checks every root, every time.
//!
//! For each root discovered in the repository and declared in `ward.hcl` ([`config`],
//! [`discover`]), at each of its stack sites (`site` blocks: one check per site, each with its
//! own backend configuration and var files; a root without sites is one check): choose the
//! binary by evidence ([`binary`]), init non-interactively, pull the state and judge it before
//! anything else ([`state`]: a missing state fails although Terraform's own exit code is 0,
//! unless a recorded `ward stack teardown` emptied it: `torn-down`), then `plan -refresh-only
//! -out` and `show -json`, and read the outcome from the JSON ([`outcome`]). Roots run in
//! parallel (`-j`; the sites of one root one after another, since they share its directory;
//! a root that reads another's outputs after it), each with a deadline after which its process
//! group is killed ([`exec`]). Every run is kept in the history database (`ward-store`); alerts
//! fire on transitions only (new, escalated, resolved findings) ([`notify`]). [`run`] returns a
//! typed [`Report`] with its [`Exit`] and [`history::read`] a typed [`History`];
//! `ward_report::drift` renders both (terminal, JSON, Markdown, JUnit).
//!
//! ward-drift reads no configuration, environment or current directory: [`run`] takes the
//! `ward.hcl` the caller read, the knowledge, the binaries, the stack teardowns and the open
//! history as values ([`Inputs`]); `ward-cli` finds and loads them.

pub use ward_terraform::binary;
mod check;
pub mod config;
pub mod discover;
pub use ward_terraform::exec;
pub mod history;
pub mod journal;
pub mod notify;
pub mod outcome;
mod record;
mod report;
pub mod state;

use binary::Binary;
use config::{Config, DeclaredRoot};
use outcome::Outcome;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use ward_config::stack::{Site, DEFAULT_SITE};
use ward_store::Store;
use ward_terraform::Outputs;

pub use history::History;
pub use report::{Report, RootResult};
pub use ward_model::Exit;

pub use ward_store;

/// Where the history is kept: `--db` (a SQLite file, or a `postgres://` URL), else
/// `history { url }` in `ward.hcl`, else `default_db`, the default file the caller found
/// ([`ward_store::default_path`] of its base directories). One rule for every command that reads
/// or writes the history. A PostgreSQL password comes from `history { password_file }`, else
/// `pgpassword`, else `pgpass_file`: what the caller read of `PGPASSWORD` and of `PGPASSFILE`
/// (else `~/.pgpass`) ([`ward_store::Location::parse_in`]).
pub fn history_location_in(
    db: Option<&Path>,
    cfg: Option<&Config>,
    pgpassword: Option<&str>,
    pgpass_file: Option<&Path>,
    default_db: Option<&Path>,
) -> Result<ward_store::Location, ward_store::StoreError> {
    let password_file = cfg.and_then(|c| c.history.password_file.as_deref());
    if let Some(p) = db {
        // One reading for every spelling: a URL in any case, a libpq string, a mistyped URL
        // (refused), else a SQLite file.
        return match p.to_str() {
            Some(s) => {
                ward_store::Location::parse_in(s, password_file, pgpassword, pgpass_file, "--db")
            }
            None => Ok(ward_store::Location::Sqlite(p.to_path_buf())),
        };
    }
    if let Some(url) = cfg.and_then(|c| c.history.url.as_deref()) {
        let at = cfg.map(|c| c.history.url_at.as_str()).unwrap_or("ward.hcl");
        return ward_store::Location::parse_in(url, password_file, pgpassword, pgpass_file, at);
    }
    default_db.map(|p| ward_store::Location::Sqlite(p.to_path_buf())).ok_or_else(|| {
        ward_store::StoreError::Location(
            "no location for the drift history database: neither XDG_STATE_HOME nor HOME is set; pass --db FILE (or a postgres:// URL), or set `history { url }` in ward.hcl".into(),
        )
    })
}

/// The JSON report's schema version.
pub const SCHEMA_VERSION: u32 = 1;

/// A root instance's check finished: how many have finished (this one included), of how many,
/// and its result (its outcome, and in `millis` how long the check took).
pub type Progress = fn(done: usize, total: usize, root: &RootResult);

/// Everything `ward drift` needs to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The repository to walk.
    pub repo: PathBuf,
    /// `-j`: roots checked at once (at least 1).
    pub jobs: usize,
    /// Per-root deadline.
    pub timeout: Duration,
    /// `--shard K/N` (1-based K).
    pub shard: Option<(u32, u32)>,
    /// `--pending`: also run a normal plan to report code changes not yet applied.
    pub pending: bool,
    /// `--accept-state ROOT`: trust this root's current lineage/serial (after a deliberate state
    /// migration); `ROOT/SITE` for one site of a root with `site` blocks, the root's name for
    /// all of them.
    pub accept_state: Vec<String>,
    /// Told of each root instance as its check finishes (ward-cli prints a line on standard
    /// error when that is a terminal and `--no-progress` is not given); `None`: nobody is told.
    /// The library itself writes nothing.
    pub progress: Option<Progress>,
    /// The clock: "now" for history rows, today (UTC) for ignore-rule expiry. Tests fix it
    /// with [`ward_time::Clock::Fixed`].
    pub clock: ward_time::Clock,
    /// Extra environment for every Terraform/OpenTofu command (e.g. `TF_CLI_CONFIG_FILE`).
    pub env: Vec<(String, String)>,
    /// The `PATH` ward runs with, as the caller read it (`None`: unset): where a Terragrunt
    /// unit's `terragrunt` is looked for when `env` sets no `PATH` ([`ward_terraform::runner_for`]).
    pub path: Option<std::ffi::OsString>,
    /// Inherited `TF_*` variables Terraform may see besides [`exec::DEFAULT_ALLOWED_TF`]
    /// (names, or `PREFIX*` patterns); every other `TF_*` variable is removed.
    pub allow_env: Vec<String>,
    /// `--notify URL`: the webhook the run's alert goes to, with the alerts earlier runs could
    /// not deliver ([`notify::deliver`]). Checked before anything runs.
    pub notify: Option<String>,
    /// `--notify-format`: the webhook body's shape (ward's JSON, Slack, Microsoft Teams).
    pub notify_format: notify::NotifyFormat,
}

/// What the caller read and opened for a run, as values: ward-drift finds, reads and opens none
/// of it. `ward-cli` builds it once per run.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// `ward.hcl`, read; `None` without one.
    pub config: Option<&'a Config>,
    /// ward's knowledge: the built-in packs and the user rules of `config`.
    pub knowledge: &'a ward_rules::Knowledge,
    /// The Terraform/OpenTofu binaries each root's is chosen among ([`binary::find_binaries`]).
    pub binaries: &'a [Binary],
    /// The root instances a recorded `ward stack teardown` emptied.
    pub torn_down: &'a TornDown,
}

/// The root instances a recorded `ward stack teardown` emptied: `(root, site)` (the site of a
/// root without `site` blocks is [`DEFAULT_SITE`]) → the id of the run that did it. Such an
/// instance whose state is empty or absent is [`Outcome::TornDown`], not `missing-state`.
pub type TornDown = BTreeMap<(String, String), String>;

/// The name a root instance has in reports and in the history: the root's name, or
/// `ROOT/SITE` for one site of a root with `site` blocks.
pub fn instance_name(root: &str, site: &str) -> String {
    if site == DEFAULT_SITE {
        root.to_string()
    } else {
        format!("{root}/{site}")
    }
}

/// A failure before any root could be checked (unreadable repository, unusable database, a bad
/// `--notify` URL): exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum DriftError {
    /// The walk failed.
    #[error(transparent)]
    Discover(#[from] discover::DiscoverError),
    /// The history database failed.
    #[error(transparent)]
    Store(#[from] ward_store::StoreError),
    /// A bad `--notify` URL.
    #[error("{0}")]
    Usage(String),
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

/// One check: a declared root at one of its sites (site [`DEFAULT_SITE`] without `site` blocks).
#[derive(Debug, Clone)]
struct Instance {
    root: DeclaredRoot,
    site: Site,
}

impl Instance {
    /// Its name in reports and the history ([`instance_name`]).
    fn name(&self) -> String {
        instance_name(&self.root.name, &self.site.name)
    }
    /// `root/site`, as the stack names it.
    fn id(&self) -> String {
        format!("{}/{}", self.root.name, self.site.name)
    }
    fn result(&self, outcome: Outcome, detail: Vec<String>) -> RootResult {
        let mut r = RootResult::new(&self.name(), &self.root.path, outcome, detail);
        r.site = (self.site.name != DEFAULT_SITE).then(|| self.site.name.clone());
        r
    }
}

/// What discovery and `ward.hcl` decide before anything runs.
struct Selected {
    /// Results already known (excluded, mismatched).
    results: Vec<RootResult>,
    /// The checks, one group per root (its sites, run one after another: they share its
    /// directory), in waves: a root that reads another's outputs is in a later wave.
    waves: Vec<Vec<Vec<Instance>>>,
    discovered: usize,
    excluded: usize,
    declared_missing: usize,
    problems: Vec<String>,
    expired_ignores: Vec<String>,
}

/// Discovery against `ward.hcl`: what is checked, excluded, mismatched.
fn select(opts: &Options, cfg: &Config, found: &discover::Discovered) -> Selected {
    let in_shard = |path: &str| opts.shard.is_none_or(|(k, n)| shard_of(path, n) == k);
    let mut results: Vec<RootResult> = Vec::new();
    let mut groups: Vec<Vec<Instance>> = Vec::new();
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
            Some(d) => groups.push(
                d.stack
                    .instances()
                    .into_iter()
                    .map(|site| Instance {
                        root: d.clone(),
                        site,
                    })
                    .collect(),
            ),
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
    let today = opts.clock.today();
    let expired_ignores: Vec<String> = cfg
        .drift
        .ignores
        .iter()
        .filter(|r| r.expired(today))
        .map(|r| format!("{} expired: it suppresses nothing any more", r.describe()))
        .collect();
    Selected {
        results,
        waves: waves(cfg, groups),
        discovered,
        excluded,
        declared_missing,
        problems,
        expired_ignores,
    }
}

/// Orders the groups in waves: a root that reads no other root's outputs is in wave 0, one
/// that reads is one wave after the latest root it reads (`reads` are acyclic: ward-config
/// refuses a read of the same or a higher layer).
fn waves(cfg: &Config, groups: Vec<Vec<Instance>>) -> Vec<Vec<Vec<Instance>>> {
    let mut wave: BTreeMap<&str, usize> = BTreeMap::new();
    // At most as many rounds as roots: enough for any acyclic chain, and an end for a cycle.
    for _ in 0..=cfg.roots.len() {
        let mut changed = false;
        for r in &cfg.roots {
            let w = r
                .stack
                .reads
                .iter()
                .map(|u| wave.get(u.as_str()).map_or(1, |w| w + 1))
                .max()
                .unwrap_or(0);
            if wave.get(r.name.as_str()) != Some(&w) {
                wave.insert(&r.name, w);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out: Vec<Vec<Vec<Instance>>> = Vec::new();
    for g in groups {
        let w = g
            .first()
            .and_then(|i| wave.get(i.root.name.as_str()))
            .copied()
            .unwrap_or(0)
            .min(cfg.roots.len());
        while out.len() <= w {
            out.push(Vec::new());
        }
        out[w].push(g);
    }
    out
}

/// Runs `ward drift` over the values the caller read ([`Inputs`]) and records it in `store`,
/// the history the caller opened (one transaction, once every root is checked).
pub fn run(opts: &Options, inputs: &Inputs<'_>, store: &mut Store) -> Result<Report, DriftError> {
    if let Some(url) = &opts.notify {
        notify::check_url(url).map_err(DriftError::Usage)?;
    }
    // Written as the run moves: `running` now (committed at once), `finished` in the run's
    // own transaction; runs before this one that never finished are told for what they are.
    let now = opts.clock.now_rfc3339();
    let token = journal::token(&now);
    let started = journal::running(&now, opts.shard.map(|(k, n)| format!("{k}/{n}")));
    journal::mark(store, &token, &now, &started)?;
    let interrupted = journal::settle(store, &token, &now)?;
    let found = discover::discover(&opts.repo, inputs.config.cloned())?;
    let empty = Config::empty(&opts.repo);
    let cfg = inputs.config.unwrap_or(&empty);
    let Selected {
        mut results,
        waves,
        discovered,
        excluded,
        declared_missing,
        mut problems,
        expired_ignores,
    } = select(opts, cfg, &found);
    problems.extend(interrupted);

    let marks = store.state_marks()?;
    let allow: Vec<String> = exec::DEFAULT_ALLOWED_TF
        .iter()
        .map(|s| s.to_string())
        .chain(opts.allow_env.iter().cloned())
        .collect();
    // Roots whose outputs another root reads: their outputs are read after their check.
    let read: BTreeSet<String> = cfg
        .roots
        .iter()
        .flat_map(|r| r.stack.reads.iter().cloned())
        .collect();
    let ctx = check::Ctx {
        repo: &opts.repo,
        config: cfg,
        binaries: inputs.binaries,
        marks: &marks,
        accept: &opts.accept_state,
        timeout: opts.timeout,
        pending: opts.pending,
        knowledge: inputs.knowledge,
        env: &opts.env,
        path: opts.path.as_deref(),
        allow: &allow,
        torn_down: inputs.torn_down,
        read: &read,
        outputs: Mutex::new(BTreeMap::new()),
    };
    results.extend(check_all(opts, &ctx, waves));
    results.sort_by(|a, b| a.path.cmp(&b.path).then(a.name.cmp(&b.name)));
    let failed_set = found.roots.is_empty();
    let mut report = record::record(
        store,
        opts,
        cfg,
        results,
        record::Counted {
            discovered,
            excluded,
            declared_missing,
            problems,
            expired_ignores,
            zero_roots: failed_set,
            token,
            started,
        },
    )?;
    if let Some(url) = &opts.notify {
        if let Err(e) = notify::deliver_as(store, url, opts.notify_format, &report, &now) {
            report.webhook_failed(&e);
        }
    }
    Ok(report)
}

/// Checks every group, wave by wave, `opts.jobs` groups at once; the sites of a group one after
/// another.
fn check_all(
    opts: &Options,
    ctx: &check::Ctx<'_>,
    waves: Vec<Vec<Vec<Instance>>>,
) -> Vec<RootResult> {
    let total: usize = waves.iter().flatten().map(Vec::len).sum();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    for wave in waves {
        let groups = wave.len();
        let queue = Mutex::new(wave.into_iter());
        std::thread::scope(|s| {
            for _ in 0..opts.jobs.max(1).min(groups.max(1)) {
                s.spawn(|| loop {
                    let group = match queue.lock() {
                        Ok(mut q) => q.next(),
                        Err(_) => None,
                    };
                    let Some(group) = group else { break };
                    for inst in group {
                        let t0 = Instant::now();
                        let mut r = check::check_instance(ctx, &inst);
                        r.millis = t0.elapsed().as_millis();
                        let n = finished.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                        if let Some(told) = opts.progress {
                            told(n, total, &r);
                        }
                        if let Ok(mut d) = done.lock() {
                            d.push(r);
                        }
                    }
                });
            }
        });
    }
    done.into_inner().unwrap_or_default()
}

/// The outputs of the instances other roots read, by `root/site`, as they were checked in this
/// run (or why they could not be read).
type ReadOutputs = Mutex<BTreeMap<String, Result<Outputs, String>>>;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

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
