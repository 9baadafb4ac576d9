//! `ward stack status`.

use crate::journal::{self, Journal};
use crate::report::{Command, RootOutcome, RootReport, StackReport};
use crate::{usage, Options, StackError};
use ward_model::Exit;

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
    // What the last run is: ended (its own exit), still running, or interrupted (stopped by a
    // signal, which it recorded, or its process gone without recording an end: killed).
    let in_progress = || {
        roots
            .iter()
            .filter(|r| r.outcome == RootOutcome::InProgress)
            .map(RootReport::id)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let at = match in_progress() {
        w if w.is_empty() => String::new(),
        w => format!("; it was at {w}, whose state may be partly changed"),
    };
    let (exit, stopped) = if last.status == "running" {
        let who = last
            .process
            .as_ref()
            .map(|p| format!("process {} on {}", p.pid, p.host))
            .unwrap_or_else(|| "a process ward did not record".to_string());
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
    } else if let Some(signal) = last.stopped_by_signal() {
        // Told to stop (a cancelled CI job, Ctrl-C): it recorded so, wherever it ran.
        (
            Exit::StackFailed,
            Some(format!(
                "the last run (ward stack {}) was interrupted: it was stopped by a signal ({}, exit {}){at}",
                last.command.as_str(),
                signal.as_str(),
                signal.code()
            )),
        )
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
