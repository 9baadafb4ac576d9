//! `ward stack plan|apply|teardown|resume|status|approve`: layered roots applied forward and torn
//! down in reverse. The work is in `ward-stack`; see docs/stack.md.

use crate::context::Context;
use crate::error::CliError;
use crate::output::Dest;
use std::path::PathBuf;
use ward_report::format::Command;
use ward_report::{Exit, Format};

/// The text after `ward stack --help`; its exit codes are generated from [`Exit`].
fn after_help() -> String {
    let codes = Exit::help_line(
        &[
            Exit::Pass,
            Exit::Usage,
            Exit::Coverage,
            Exit::ApprovalRequired,
            Exit::BudgetExceeded,
            Exit::GuardRefused,
            Exit::StackFailed,
            Exit::StackRefused,
        ],
        |e| match e {
            Exit::Usage => Some(
                "usage or configuration error (backup_dir inside the checkout, unknown site...)",
            ),
            Exit::GuardRefused => Some("a pre_destroy command (or a gate guard) refused"),
            _ => None,
        },
    );
    format!(
        "Examples:\n  \
ward stack plan --site dc0\n  \
ward stack apply --site dc0\n  \
ward stack teardown --site dc0            # exits 4 until each destroy is approved\n  \
ward stack approve --site dc0 --root volumes --all --reason \"site retired\" --by alice\n  \
ward stack approve --site dc0 --root volumes --address fakecloud_volume.data --reason \"site retired\"\n  \
ward stack resume\n  \
ward stack status\n\n{codes} See `ward docs stack`."
    )
}

/// Options every `ward stack` command takes.
#[derive(Debug, clap::Args)]
struct Common {
    /// ward.hcl to read (default: the first ward.hcl walking up from the current directory to
    /// the repository root). Roots' paths are relative to its directory.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// A terraform binary to consider (besides `terraform` on PATH).
    #[arg(long, value_name = "PATH")]
    terraform: Option<PathBuf>,
    /// A tofu binary to consider (besides `tofu` on PATH).
    #[arg(long, value_name = "PATH")]
    tofu: Option<PathBuf>,
    /// The history: a SQLite file or a postgres:// URL (default: stack.history in ward.hcl,
    /// else history.url, else $XDG_STATE_HOME/ward/drift.sqlite or
    /// ~/.local/state/ward/drift.sqlite).
    #[arg(long, value_name = "FILE|URL")]
    db: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Command::Stack), default_value = "terminal")]
    format: Format,
    #[command(flatten)]
    dest: Dest,
}

/// `--site` and `--root`.
#[derive(Debug, clap::Args)]
struct Select {
    /// Only this site's instances (and roots without sites, which serve every site).
    #[arg(long, value_name = "SITE")]
    site: Option<String>,
}

/// Arguments of `ward stack`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Apply layered roots forward and tear them down in reverse, one approved destroy at a time",
    after_help = after_help()
)]
pub struct Args {
    #[command(subcommand)]
    sub: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Plan every root in layer order; a root whose upstream has changes is blocked-by-upstream.
    Plan {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        select: Select,
    },
    /// Per root, upwards: plan, gate, apply that plan, record outputs and state, plan again.
    Apply {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        select: Select,
    },
    /// Per root, downwards: verified backup, pre_destroy, destroy plan with every destroy
    /// approved on its own, apply, empty-state proof.
    Teardown {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        select: Select,
        /// Only this root (refused while a root that reads it holds resources).
        #[arg(long, value_name = "ROOT")]
        root: Option<String>,
    },
    /// Continue the last run that stopped; what it finished is checked again first.
    Resume {
        #[command(flatten)]
        common: Common,
    },
    /// The last run: each root's outcome, its backup and its outputs' hash.
    Status {
        #[command(flatten)]
        common: Common,
    },
    /// Approve one change of the plan a root waits on (or, with --all, each destroy of its
    /// teardown), bound to its digest and upstream outputs.
    Approve {
        #[command(flatten)]
        common: Common,
        /// The root.
        #[arg(long, value_name = "ROOT")]
        root: String,
        /// The site (needed when the root has several).
        #[arg(long, value_name = "SITE")]
        site: Option<String>,
        /// The exact resource address.
        #[arg(long, value_name = "ADDRESS", required_unless_present = "all")]
        address: Option<String>,
        /// Every destroy the instance's teardown waits on: listed with its digest, then each
        /// approved on its own (its own approval and history record).
        #[arg(long, conflicts_with = "address")]
        all: bool,
        /// Why this change is safe (recorded with the approval).
        #[arg(long)]
        reason: String,
        /// How long the approval lasts (`24h`, `7d`); default: the policy's approval_expiry.
        #[arg(long, value_name = "DURATION")]
        expires: Option<String>,
        /// Who approves (default: WARD_APPROVER, else USER, else LOGNAME; containers and CI
        /// jobs often set none of them: then pass --by or set WARD_APPROVER).
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
    },
}

fn options(
    c: &Common,
    site: Option<String>,
    root: Option<String>,
) -> Result<ward_stack::Options, CliError> {
    let ctx = Context::load(c.config.as_deref())?;
    let config = ctx.config.ok_or_else(|| {
        CliError::new("no ward.hcl found: ward stack runs the roots, layers and sites it declares")
            .hint(
            "create ward.hcl at the repository root (see `ward docs stack`), or pass --config FILE",
        )
    })?;
    let db = history(c.db.as_deref(), &config)?;
    let binaries =
        crate::context::binaries(c.terraform.as_ref(), c.tofu.as_ref(), ctx.path.as_deref())?;
    Ok(ward_stack::Options {
        repo: config.dir.clone(),
        config,
        knowledge: ctx.knowledge,
        approver: ctx.approver,
        site,
        root,
        binaries,
        db,
        clock: ctx.clock,
        progress: Some(progress),
        env: Vec::new(),
        path: ctx.path,
    })
}

/// The stack's history, chosen once for the run: `--db` (a file or a URL), else
/// `stack { history }` (a file), else `history { url }`, else the default file
/// ([`crate::context::history_location`] reads the last three the way every command does).
pub fn history(
    db: Option<&std::path::Path>,
    config: &ward_config::Config,
) -> Result<ward_store::Location, CliError> {
    let db = db
        .map(std::path::Path::to_path_buf)
        .or_else(|| config.stack.history.clone());
    crate::context::history_location(db.as_deref(), Some(config)).map_err(|e| {
        CliError::new(e.to_string()).hint(
            "pass --db FILE (or a postgres:// URL), or set stack { history = \"...\" } in ward.hcl",
        )
    })
}

/// A step starting, on standard error when it is a terminal: `[3/7] network/dc0: apply`.
fn progress(done: usize, total: usize, instance: &str, what: &str) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprintln!(
            "[{}/{total}] {}: {what}",
            done + 1,
            ward_report::escape::terminal(instance)
        );
    }
}

fn render(c: &Common, r: &ward_stack::report::StackReport) -> Result<Exit, CliError> {
    c.dest.write(&ward_report::stack::render(
        r,
        c.format,
        c.dest.color(c.format),
    )?)?;
    Ok(r.exit)
}

fn fail(e: ward_stack::StackError) -> CliError {
    CliError::new(e.to_string()).hint("see `ward docs stack`")
}

/// Runs `ward stack`.
pub fn run(args: Args) -> Result<Exit, CliError> {
    let env = crate::gate::process_env;
    match args.sub {
        Sub::Plan { common, select } => {
            let o = options(&common, select.site, None)?;
            render(&common, &ward_stack::plan(&o, &env).map_err(fail)?)
        }
        Sub::Apply { common, select } => {
            let o = options(&common, select.site, None)?;
            render(&common, &ward_stack::apply(&o, &env).map_err(fail)?)
        }
        Sub::Teardown {
            common,
            select,
            root,
        } => {
            let o = options(&common, select.site, root)?;
            render(&common, &ward_stack::teardown(&o, &env).map_err(fail)?)
        }
        Sub::Resume { common } => {
            let o = options(&common, None, None)?;
            render(&common, &ward_stack::resume(&o, &env).map_err(fail)?)
        }
        Sub::Status { common } => {
            let o = options(&common, None, None)?;
            render(&common, &ward_stack::status(&o).map_err(fail)?)
        }
        Sub::Approve {
            common,
            root,
            site,
            address,
            all,
            reason,
            expires,
            by,
        } => {
            let o = options(&common, None, None)?;
            let done = ward_stack::approve(
                &o,
                &ward_stack::ApproveArgs {
                    root,
                    site,
                    address: address.unwrap_or_default(),
                    all,
                    reason,
                    expires,
                    by,
                },
                &env,
            )
            .map_err(fail)?;
            let (out, notes) = ward_report::stack::approved(&done);
            eprint!("{notes}");
            common.dest.write(&out)?;
            Ok(Exit::Pass)
        }
    }
}
