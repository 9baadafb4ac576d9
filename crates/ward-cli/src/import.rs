//! `ward import plan|check|accept`: adopt a live fleet into Terraform with a recorded zero-diff
//! acceptance. Arguments and wiring only; the work is in `ward-import`, Terraform runs in
//! `ward-terraform`, the reports in `ward_report::import`. See docs/import.md.

use crate::error::CliError;
use crate::output::Dest;
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_import::write::{self, Method};
use ward_import::{adoption, inventory, Budget};
use ward_report::format::Command as Report;
use ward_report::{Exit, Format};
use ward_terraform::binary::{self, Binary};
use ward_terraform::{OpenError, OpenOptions, Workspace};

fn after_help() -> String {
    let codes = Exit::help_line(&[Exit::Pass, Exit::Fail, Exit::Usage], |e| match e {
        Exit::Fail => Some("check refused / not accepted"),
        Exit::Usage => Some("error (bad input, Terraform failed)"),
        _ => None,
    });
    format!(
        "Workflow:\n  ward import plan live/fleet --inventory fleet.json -o live/fleet/imports.tf\n  terraform -chdir=live/fleet plan -out=tfplan && terraform -chdir=live/fleet show -json tfplan > plan.json\n  ward import check plan.json --inventory fleet.json --record check.json\n  ward import accept live/fleet --plan live/fleet/tfplan --record check.json\n\n{codes} See `ward docs import`."
    )
}

/// `ward import`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Write the imports for an inventory: import blocks, or `terraform import` commands.
    Plan(PlanArgs),
    /// Pass a plan only when it imports exactly the inventory and changes nothing.
    Check(CheckArgs),
    /// Apply the checked plan, require empty plans after it, and record the acceptance.
    Accept(AcceptArgs),
}

/// Which binary runs Terraform in the root.
#[derive(Debug, Clone, clap::Args)]
pub struct BinaryArgs {
    /// Terraform executable to use (default: chosen by evidence among those on PATH).
    #[arg(long, value_name = "PATH")]
    terraform: Option<PathBuf>,
    /// OpenTofu executable to use.
    #[arg(long, value_name = "PATH")]
    tofu: Option<PathBuf>,
    /// `ward.hcl` to use instead of the one found from the current directory.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// Where the adoption is recorded.
#[derive(Debug, Clone, clap::Args)]
pub struct DbArgs {
    /// The history (a SQLite file or a postgres:// URL), where the adoption is recorded and
    /// `ward gate` reads it (default: `history { url }` in ward.hcl, else
    /// $XDG_STATE_HOME/ward/drift.sqlite or ~/.local/state/ward/drift.sqlite).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<PathBuf>,
}

/// Arguments of `ward import plan`.
#[derive(Debug, clap::Args)]
#[command(after_help = after_help())]
pub struct PlanArgs {
    /// The Terraform root the objects are adopted into.
    #[arg(value_name = "ROOT")]
    root: PathBuf,
    /// The inventory (JSON: address -> import id, optional attributes).
    #[arg(long, value_name = "FILE")]
    inventory: PathBuf,
    /// Write the import blocks (or the commands) to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also write a normalised scratch configuration from the inventory's attributes.
    #[arg(long, value_name = "FILE")]
    scratch: Option<PathBuf>,
    /// Adopt more objects into a root that was already accepted: puts it back into adoption,
    /// where `ward gate` refuses every change but imports until the next `ward import accept`.
    #[arg(long)]
    readopt: bool,
    #[command(flatten)]
    bin: BinaryArgs,
    #[command(flatten)]
    store: DbArgs,
}

/// Arguments of `ward import check`.
#[derive(Debug, clap::Args)]
#[command(after_help = after_help())]
pub struct CheckArgs {
    /// The plan as JSON (`terraform show -json tfplan`), or `-` for standard input.
    #[arg(value_name = "PLAN_JSON")]
    plan: String,
    /// The inventory the plan must import exactly.
    #[arg(long, value_name = "FILE")]
    inventory: PathBuf,
    /// Another root's state (`terraform state pull` output) as NAME=FILE: none of its ids may be
    /// adopted here. Repeatable.
    #[arg(long = "state", value_name = "NAME=FILE")]
    states: Vec<String>,
    /// Also pull the state (`state pull`) of every root ward.hcl declares, except the root being
    /// adopted: none of their ids may be adopted here. Needs Terraform and initialised roots.
    #[arg(long)]
    other_roots: bool,
    /// The root being adopted (skipped by --other-roots; default: the current directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Seconds each `state pull` may take (--other-roots).
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    timeout: u64,
    /// Write the check record `ward import accept` requires to FILE (the JSON report).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Report::Import), default_value = "terminal")]
    format: Format,
    #[command(flatten)]
    dest: Dest,
    #[command(flatten)]
    bin: BinaryArgs,
}

/// Arguments of `ward import accept`.
#[derive(Debug, clap::Args)]
#[command(after_help = after_help())]
pub struct AcceptArgs {
    /// The Terraform root being adopted.
    #[arg(value_name = "ROOT")]
    root: PathBuf,
    /// The saved plan (`terraform plan -out FILE`) that passed `ward import check`.
    #[arg(long, value_name = "PLANFILE")]
    plan: PathBuf,
    /// The check record written by `ward import check --record`.
    #[arg(long, value_name = "FILE")]
    record: PathBuf,
    /// Seconds each Terraform command may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 1800)]
    timeout: u64,
    /// Keep this inherited TF_* variable (name or PREFIX*) for Terraform. Repeatable.
    #[arg(long, value_name = "NAME")]
    allow_env: Vec<String>,
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Report::Import), default_value = "terminal")]
    format: Format,
    #[command(flatten)]
    dest: Dest,
    #[command(flatten)]
    bin: BinaryArgs,
    #[command(flatten)]
    store: DbArgs,
}

/// Runs `ward import ...`.
pub fn run(cmd: Command) -> Result<Exit, CliError> {
    match cmd {
        Command::Plan(a) => plan(a),
        Command::Check(a) => check(a),
        Command::Accept(a) => accept(a),
    }
}

fn load_config(explicit: Option<&Path>) -> Result<Option<ward_config::Config>, CliError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    crate::context::read_config(explicit, &cwd)
}

fn root_dir(root: &Path) -> Result<(), CliError> {
    if root.is_dir() {
        Ok(())
    } else {
        Err(
            CliError::new(format!("{}: not a directory", root.display()))
                .hint("give the directory of the Terraform root being adopted"),
        )
    }
}

/// The binaries `--terraform`/`--tofu` and `PATH` give ([`crate::context::binaries`], the one
/// place the flags become binaries).
fn binaries(b: &BinaryArgs) -> Result<Vec<Binary>, CliError> {
    let path = crate::context::search_path();
    crate::context::binaries(b.terraform.as_ref(), b.tofu.as_ref(), path.as_deref())
}

/// The pin of `root`'s block in `ward.hcl`, if any.
fn pin_of(root: &Path, config: Option<&ward_config::Config>) -> Option<ward_config::Pin> {
    config.and_then(|c| {
        let key = adoption::root_key(Some(c), root);
        c.roots
            .iter()
            .find(|r| r.name == key)
            .and_then(|r| r.pin.clone())
    })
}

/// Why no binary could be chosen for `root`, as `ward import` says it.
fn choose_error(root: &Path, e: binary::ChooseError) -> CliError {
    match e {
        binary::ChooseError::Evidence(e) => CliError::new(e),
        binary::ChooseError::Select(e) => CliError::new(format!("{}: {e}", root.display()))
            .hint("pass --terraform PATH or --tofu PATH"),
    }
}

/// The binary for `root` among `found` ([`binaries`]): `--terraform`/`--tofu`, else by evidence
/// among those on PATH.
fn choose_binary(
    found: &[Binary],
    root: &Path,
    config: Option<&ward_config::Config>,
) -> Result<Binary, CliError> {
    let pin = pin_of(root, config);
    let sel = binary::choose(root, pin.as_ref(), found).map_err(|e| choose_error(root, e))?;
    Ok(sel.binary)
}

/// The workspace of `root`, its binary chosen among `found` as [`choose_binary`] chooses it, run
/// directly (`ward import` never goes through `terragrunt`); `opened` words an error opening it.
fn open_workspace(
    found: &[Binary],
    root: &Path,
    config: Option<&ward_config::Config>,
    opts: &OpenOptions<'_>,
    opened: impl FnOnce(String) -> CliError,
) -> Result<Workspace, CliError> {
    let pin = pin_of(root, config);
    let direct = OpenOptions {
        direct: true,
        ..opts.clone()
    };
    match Workspace::open(root, pin.as_ref(), found, &direct) {
        Ok((ws, _)) => Ok(ws),
        Err(OpenError::Choose(e)) => Err(choose_error(root, e)),
        Err(OpenError::Workspace { error, .. }) => Err(opened(error.to_string())),
    }
}

/// The history the adoption is recorded in: the one every command chooses the same way
/// ([`crate::context::history_location`]: `--db`, a SQLite file or a PostgreSQL URL, else
/// `history { url }` in ward.hcl, else the default file), so `ward gate` reads the adoption where
/// `ward import` wrote it.
fn open_store(
    db: Option<&Path>,
    config: Option<&ward_config::Config>,
) -> Result<ward_store::Store, CliError> {
    let location =
        crate::context::history_location(db, config).map_err(|e| CliError::new(e.to_string()))?;
    ward_store::Store::open_location(&location)
        .map_err(|e| CliError::new(format!("cannot open the history database {location}: {e}")))
}

fn read_inventory(path: &Path) -> Result<ward_import::Inventory, CliError> {
    inventory::read_file(path, &Budget::default()).map_err(|e| CliError::new(e.to_string()))
}

fn plan(a: PlanArgs) -> Result<Exit, CliError> {
    root_dir(&a.root)?;
    let config = load_config(a.bin.config.as_deref())?;
    let inv = read_inventory(&a.inventory)?;
    let dups = inv.duplicate_ids();
    if !dups.is_empty() {
        let list: Vec<String> = dups
            .iter()
            .map(|(t, id, addrs)| format!("{t} id {id:?} at {}", addrs.join(" and ")))
            .collect();
        return Err(CliError::new(format!(
            "{}: the same object is listed twice: {}",
            a.inventory.display(),
            list.join("; ")
        ))
        .hint("one live object has one address: remove all but one"));
    }
    // An accepted root goes back into adoption only when asked: done silently, every managed
    // change in it would be refused by `ward gate` from then on.
    let key = adoption::root_key(config.as_ref(), &a.root);
    let mut store = open_store(a.store.db.as_deref(), config.as_ref())?;
    if let adoption::Adoption::Accepted(acc) = adoption::status(&store, &key)
        .map_err(|e| CliError::new(format!("cannot read the adoption of {key}: {e}")))?
    {
        if !a.readopt {
            return Err(CliError::new(format!(
                "{key} was adopted and accepted at {} ({} objects); `ward import plan` would put it back into adoption, where `ward gate` refuses every change but imports until the next `ward import accept`",
                acc.accepted_at,
                acc.ids.len()
            ))
            .hint("to adopt more objects into it, run again with --readopt"));
        }
    }
    let bin = choose_binary(&binaries(&a.bin)?, &a.root, config.as_ref())?;
    let method = write::method_for(bin.product, &bin.version);
    let text = match method {
        Method::Commands => {
            let mut s = format!(
                "# Written by `ward import plan`: {bin} has no import blocks; run these in {}.\n",
                a.root.display()
            );
            for argv in write::commands(&inv, bin.product) {
                let q: Vec<String> = argv.iter().map(|x| ward_gate::shell_quote(x)).collect();
                s.push_str(&q.join(" "));
                s.push('\n');
            }
            s
        }
        m => write::import_blocks(&inv, m),
    };
    crate::output::write(&text, a.output.as_deref())?;
    if let Some(p) = &a.scratch {
        let (scratch, skipped) = write::scratch(&inv);
        crate::output::write(&scratch, Some(p))?;
        for s in skipped {
            eprintln!(
                "note: scratch configuration: {} skipped ({})",
                s.address, s.why
            );
        }
    }
    let now = ward_time::Clock::System.now_rfc3339();
    adoption::record_plan(&mut store, &key, &inv.ids(), &now)
        .map_err(|e| CliError::new(format!("cannot record the adoption: {e}")))?;
    let how = match method {
        Method::ForEachBlocks => "import blocks (for_each where several instances)",
        Method::Blocks => "import blocks",
        Method::Commands => "`import` commands",
    };
    eprintln!(
        "{} objects as {how} for {bin}; {key} is now being adopted: `ward gate` refuses other changes in it until `ward import accept`",
        inv.entries.len()
    );
    Ok(Exit::Pass)
}

fn check(a: CheckArgs) -> Result<Exit, CliError> {
    let plan = ward_plan::read_path_or_stdin(&a.plan)?;
    let inv = read_inventory(&a.inventory)?;
    let mut others = Vec::new();
    for s in &a.states {
        let Some((name, file)) = s.split_once('=') else {
            return Err(CliError::new(format!("--state {s}: expected NAME=FILE"))
                .hint("e.g. --state network=network.tfstate (from `terraform state pull`)"));
        };
        let bytes = std::fs::read(file)
            .map_err(|e| CliError::new(format!("--state {s}: cannot read {file}: {e}")))?;
        let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
            CliError::new(format!("--state {s}: {file} is not JSON: {e}"))
                .hint("give the output of `terraform state pull` in that root")
        })?;
        others.push(
            ward_import::state::managed_ids(name, &v)
                .map_err(|e| CliError::new(format!("--state {s}: {file}: {e}")))?,
        );
    }
    if a.other_roots {
        others.extend(pull_other_roots(&a)?);
    }
    let digest = ward_gate::digest::plan_digest(&plan);
    let inventory_name = a.inventory.display().to_string();
    let report = ward_import::check(&ward_import::CheckInput {
        plan: &plan,
        plan_name: &a.plan,
        inventory: &inv,
        inventory_name: &inventory_name,
        plan_digest: &digest,
        others: &others,
    });
    if let Some(r) = &a.record {
        crate::output::write(&ward_report::import::check_json(&report), Some(r))?;
    }
    a.dest.write(&ward_report::import::check(
        &report,
        a.format,
        a.dest.color(a.format),
    )?)?;
    Ok(if report.passed {
        Exit::Pass
    } else {
        Exit::Fail
    })
}

/// The managed ids of every root `ward.hcl` declares except `--root`, from `state pull`.
fn pull_other_roots(a: &CheckArgs) -> Result<Vec<ward_import::check::ManagedIds>, CliError> {
    let Some(config) = load_config(a.bin.config.as_deref())? else {
        return Err(CliError::new("--other-roots: no ward.hcl declares any root")
            .hint("declare the roots in ward.hcl (`root \"NAME\" { path = ... }`), or pass --state NAME=FILE"));
    };
    let this = a.root.clone().unwrap_or_else(|| PathBuf::from("."));
    let this = std::fs::canonicalize(&this).unwrap_or(this);
    let mut out = Vec::new();
    // Gathered once, when the first other root needs one.
    let mut found: Option<Vec<Binary>> = None;
    for r in &config.roots {
        let dir = config.dir.join(&r.path);
        if std::fs::canonicalize(&dir).is_ok_and(|d| d == this) {
            continue;
        }
        let fail = |e: String| {
            CliError::new(format!(
                "--other-roots: root {:?} ({}): {e}",
                r.name,
                dir.display()
            ))
            .hint("initialise that root (`init`), or pass its state with --state NAME=FILE")
        };
        let found: &[Binary] = match &mut found {
            Some(f) => f,
            slot @ None => slot.insert(binaries(&a.bin)?),
        };
        let opts = OpenOptions::new(Duration::from_secs(a.timeout));
        let ws = open_workspace(found, &dir, Some(&config), &opts, fail)?;
        let pulled = ws.state_pull().map_err(|e| fail(e.to_string()))?;
        if pulled.info.is_none() {
            continue; // no state yet: it manages nothing
        }
        let v: serde_json::Value = serde_json::from_slice(&pulled.bytes)
            .map_err(|e| fail(format!("`state pull` did not print JSON: {e}")))?;
        out.push(ward_import::state::managed_ids(&r.name, &v).map_err(fail)?);
    }
    Ok(out)
}

fn accept(a: AcceptArgs) -> Result<Exit, CliError> {
    root_dir(&a.root)?;
    let config = load_config(a.bin.config.as_deref())?;
    let text = std::fs::read_to_string(&a.record).map_err(|e| {
        CliError::new(format!(
            "cannot read the check record {}: {e}",
            a.record.display()
        ))
        .hint("write it with `ward import check PLAN.json --inventory FILE --record FILE`")
    })?;
    let record: ward_import::CheckReport = serde_json::from_str(&text).map_err(|e| {
        CliError::new(format!("{} is not a check record: {e}", a.record.display()))
            .hint("write it with `ward import check PLAN.json --inventory FILE --record FILE`")
    })?;
    if !a.plan.is_file() {
        return Err(CliError::new(format!("{}: no saved plan here", a.plan.display()))
            .hint("give the file `terraform plan -out FILE` wrote, the plan whose JSON passed `ward import check`"));
    }
    let opts = OpenOptions {
        allow: &a.allow_env,
        ..OpenOptions::new(Duration::from_secs(a.timeout))
    };
    let ws = open_workspace(
        &binaries(&a.bin)?,
        &a.root,
        config.as_ref(),
        &opts,
        CliError::new,
    )?;
    let key = adoption::root_key(config.as_ref(), &a.root);
    let mut store = open_store(a.store.db.as_deref(), config.as_ref())?;
    let now = ward_time::Clock::System.now_rfc3339();
    let planfile = std::fs::canonicalize(&a.plan).unwrap_or_else(|_| a.plan.clone());
    let report = ward_import::accept::run(
        &ward_import::accept::AcceptInput {
            workspace: &ws,
            planfile: &planfile,
            record: &record,
            root: &key,
            digest: &ward_gate::digest::plan_digest,
            now: &now,
        },
        &mut store,
    );
    a.dest.write(&ward_report::import::accept(
        &report,
        a.format,
        a.dest.color(a.format),
    )?)?;
    Ok(if report.accepted {
        Exit::Pass
    } else {
        Exit::Fail
    })
}
