//! The end of a run: ignore rules applied, findings and their transitions, state marks and
//! outcomes written to the history in one transaction, the run's exit decided.

use crate::config::{self, Config};
use crate::outcome::{self, Outcome};
use crate::{Exit, Options, Report, RootResult, SCHEMA_VERSION};
use std::collections::BTreeMap;
use ward_store::Store;

/// What the run counted before checking.
pub(crate) struct Counted {
    pub(crate) discovered: usize,
    pub(crate) excluded: usize,
    pub(crate) declared_missing: usize,
    pub(crate) problems: Vec<String>,
    pub(crate) expired_ignores: Vec<String>,
    /// No root was discovered at all: the run fails.
    pub(crate) zero_roots: bool,
    /// The run's token in the journal.
    pub(crate) token: String,
    /// Its `running` mark.
    pub(crate) started: crate::journal::RunMark,
}

/// Applies the ignore rules, records the run and returns its report.
pub(crate) fn record(
    store: &mut Store,
    opts: &Options,
    cfg: &Config,
    mut results: Vec<RootResult>,
    c: Counted,
) -> Result<Report, ward_store::StoreError> {
    let now = opts.clock.now_rfc3339();
    let today = opts.clock.today();
    let shard_s = opts.shard.map(|(k, n)| format!("{k}/{n}"));
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
        if r.outcome.checked_drift() || r.outcome == Outcome::TornDown {
            if r.outcome != Outcome::TornDown {
                let active = r.drift.len() - r.suppressed;
                r.outcome = outcome::decide(active, &r.outputs, &r.pending);
            }
            // A torn-down root has no objects left to drift: its open findings are resolved.
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
    let failed = results.iter().any(|r| r.outcome.fails()) || c.zero_roots;
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
    let finished = crate::journal::RunMark {
        status: "finished".into(),
        run: Some(run_id),
        exit_code: Some(i32::from(exit.code())),
        ..c.started
    };
    crate::journal::mark(store, &c.token, &now, &finished)?;
    store.commit_batch()?;
    Ok(Report {
        schema_version: SCHEMA_VERSION,
        shard: shard_s,
        discovered: c.discovered,
        checked: c.discovered - c.excluded,
        excluded: c.excluded,
        declared_missing: c.declared_missing,
        roots: results,
        counts,
        transitions,
        suppressed,
        expired_ignores: c.expired_ignores,
        problems: c.problems,
        exit,
        run_id,
        started_at: None,
    })
}
