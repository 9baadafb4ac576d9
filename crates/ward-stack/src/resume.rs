//! `ward stack resume`.

use crate::apply::apply_inner;
use crate::journal::{self, Journal};
use crate::report::{Command, StackReport};
use crate::teardown::teardown_inner;
use crate::{usage, Env, Options, StackError};
use ward_model::Exit;

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
        knowledge: opts.knowledge.clone(),
        approver: opts.approver.clone(),
        repo: opts.repo.clone(),
        site: last.site.clone(),
        root: last.root.clone(),
        binaries: opts.binaries.clone(),
        db: opts.db.clone(),
        clock: opts.clock,
        progress: opts.progress,
        env: opts.env.clone(),
        path: opts.path.clone(),
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
