//! `ward stack approve`.

use crate::gate::{self, ApproveArgs};
use crate::journal::Journal;
use crate::order::{instances, Instance};
use crate::report::PendingApproval;
use crate::{usage, Env, Options, StackError};
use std::collections::BTreeSet;
use std::path::Path;

/// What `ward stack approve` recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approved {
    /// The one change named by its address.
    One(ward_gate::run::Approved),
    /// `--all`: every destroy the instance's teardown waited on, sorted by address, each as
    /// listed (with the digest the teardown saw) and as approved, in that order.
    All {
        /// The instance (`root/site`).
        instance: String,
        /// Each destroy and its approval.
        each: Vec<(PendingApproval, ward_gate::run::Approved)>,
    },
}

/// `ward stack approve`: approves one change of the plan a root instance waits on (the last
/// `ward stack apply` or `teardown` that stopped there), with the same binding the gate used;
/// with [`ApproveArgs::all`], every destroy a teardown waits on, listed with its digest first,
/// each approved (and recorded in the history) on its own. Returns what was approved
/// (`ward_report::stack::approved` renders it as `ward approve` does).
pub fn approve(opts: &Options, a: &ApproveArgs, env: Env<'_>) -> Result<Approved, StackError> {
    let all = instances(&opts.config, &opts.repo)?;
    let inst = chosen(&all, a)?;
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
            opts,
            Path::new(&plan),
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
        return one(&a.address).map(Approved::One);
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
    let mut each = Vec::new();
    for p in pending {
        let done = one(&p.address)?;
        each.push((p, done));
    }
    Ok(Approved::All {
        instance: inst.id(),
        each,
    })
}

/// The instance `ward stack approve` names: `--root`, at `--site` (needed when the root has
/// several).
fn chosen<'a>(all: &'a [Instance], a: &ApproveArgs) -> Result<&'a Instance, StackError> {
    let Some(decl) = all.iter().find(|i| i.root == a.root) else {
        let names: BTreeSet<&str> = all.iter().map(|i| i.root.as_str()).collect();
        return Err(usage(format!(
            "--root {}: no root of the stack has that name; the roots are: {}",
            a.root,
            names.into_iter().collect::<Vec<_>>().join(", ")
        )));
    };
    let sites: Vec<&Instance> = all.iter().filter(|i| i.root == a.root).collect();
    let site_names = || {
        sites
            .iter()
            .map(|i| i.site.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &a.site {
        Some(s) => sites
            .iter()
            .find(|i| &i.site.name == s)
            .copied()
            .ok_or_else(|| {
                usage(format!(
                    "unknown site \"{s}\" for root \"{}\"; its sites: {}",
                    a.root,
                    site_names()
                ))
            }),
        None if sites.len() == 1 => Ok(decl),
        None => Err(usage(format!(
            "root \"{}\" has several sites ({}): pass --site",
            a.root,
            site_names()
        ))),
    }
}
