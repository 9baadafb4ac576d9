//! `ward stack approve`.

use crate::gate::{self, ApproveArgs};
use crate::journal::Journal;
use crate::order::{instances, Instance};
use crate::{usage, Env, Options, StackError};
use std::collections::BTreeSet;
use std::path::Path;

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

/// Notes, one line each.
pub(crate) fn lines(notes: &[String]) -> String {
    notes.iter().map(|n| format!("{n}\n")).collect()
}
