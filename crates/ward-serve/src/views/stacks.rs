//! The stack-runs page: each run's status, its root instances' steps and its backups.

use super::records::record_view;
use super::RECORDS_PER_KIND;
use std::collections::BTreeMap;
use ward_report::dashboard::{StackRunView, StackRuns, StepView, API_VERSION};
use ward_report::stack::RootOutcome;
use ward_store::{RecordQuery, Store, StoreError};

/// At most this many stack runs on the stack-runs page (newest first).
pub const STACK_RUNS: usize = 200;

/// The severity of a stack run's status: `running` is `other`, `pass` is `ok`, any other exit
/// (a failure, a refusal, an approval awaited, an interruption) is `failed`.
fn run_severity(status: &str) -> &'static str {
    match status {
        "running" => "other",
        "pass" => "ok",
        _ => "failed",
    }
}

/// The step outcomes that stop a run (the rest that did not finish are `other`).
const STOPPING_STEPS: &[RootOutcome] = &[
    RootOutcome::ApprovalRequired,
    RootOutcome::GateRefused,
    RootOutcome::PreDestroyRefused,
    RootOutcome::Refused,
    RootOutcome::Failed,
];

/// The severity of a step's outcome: finished (or nothing to do) `ok`, stopping `failed`,
/// the rest (changes planned, not reached, in progress) `other`.
fn step_severity(outcome: &str) -> &'static str {
    let parsed: Option<RootOutcome> =
        serde_json::from_value(serde_json::Value::String(outcome.to_string())).ok();
    match parsed {
        Some(o) if o.finished() || o == RootOutcome::NoChanges => "ok",
        Some(o) if STOPPING_STEPS.contains(&o) => "failed",
        _ => "other",
    }
}

fn text(v: &serde_json::Value, key: &str) -> Option<String> {
    v.get(key).and_then(|x| x.as_str()).map(str::to_string)
}

/// The strings of the list at `key` (none when it is absent or not a list).
fn strings(v: &serde_json::Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(|x| x.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A `sha256:` digest cut to its first 12 hex digits, for reading (the API keeps it whole).
pub fn short_digest(d: &str) -> String {
    let (prefix, hex) = d.split_once(':').unwrap_or(("", d));
    let cut: String = hex.chars().take(12).collect();
    if prefix.is_empty() {
        cut
    } else {
        format!("{prefix}:{cut}")
    }
}

/// One step as the stack-runs page shows it, from a `stack-step` record's body.
fn step_view(body: &serde_json::Value, recorded_at: &str) -> Option<StepView> {
    let report = body.get("report")?;
    let outcome = text(report, "outcome")?;
    let changes = report.get("changes").and_then(|c| {
        let n = |k: &str| c.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
        let parts: Vec<String> = [
            ("create", "+"),
            ("update", "~"),
            ("replace", "±"),
            ("delete", "-"),
        ]
        .iter()
        .filter(|(k, _)| n(k) > 0)
        .map(|(k, sign)| format!("{sign}{} {k}", n(k)))
        .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    });
    Some(StepView {
        root: text(report, "root")?,
        site: text(report, "site").unwrap_or_default(),
        layer: text(report, "layer").unwrap_or_default(),
        severity: step_severity(&outcome).to_string(),
        outcome,
        detail: strings(report, "detail"),
        binary: text(report, "binary"),
        changes,
        pending_approvals: report
            .get("approvals")
            .and_then(|a| a.as_array())
            .map_or(0, Vec::len),
        recorded_at: Some(recorded_at.to_string()),
    })
}

/// The stack runs, newest first: one per run (its latest `stack-run` record: the status), with
/// its root instances in visiting order (each one's latest `stack-step`; `not-reached` when the
/// run recorded none) and the backups it took.
pub fn stack_runs(store: &Store) -> Result<StackRuns, StoreError> {
    let query = |kind, limit| {
        store.records(&RecordQuery {
            kind,
            limit,
            ..Default::default()
        })
    };
    // Newest first: the first record seen of a run is its state, the last its start.
    let mut runs: Vec<StackRunView> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for r in query("stack-run", RECORDS_PER_KIND * 4)? {
        let run = text(&r.body, "run").unwrap_or_else(|| r.key.clone());
        if let Some(&i) = index.get(&run) {
            runs[i].started_at = r.recorded_at;
            continue;
        }
        if runs.len() == STACK_RUNS {
            continue;
        }
        let status = text(&r.body, "status").unwrap_or_else(|| "unknown".into());
        index.insert(run.clone(), runs.len());
        runs.push(StackRunView {
            severity: run_severity(&status).to_string(),
            ended_at: (status != "running").then(|| r.recorded_at.clone()),
            process: (status == "running")
                .then(|| {
                    let p = r.body.get("process")?;
                    let pid = p.get("pid").and_then(serde_json::Value::as_u64)?;
                    let host = text(p, "host").unwrap_or_default();
                    Some(format!("process {pid} on {host}"))
                })
                .flatten(),
            started_at: r.recorded_at,
            command: text(&r.body, "command").unwrap_or_default(),
            site: text(&r.body, "site"),
            root: text(&r.body, "root"),
            exit_code: r.body.get("exit_code").and_then(serde_json::Value::as_i64),
            resumes: text(&r.body, "resumes"),
            order: strings(&r.body, "order"),
            status,
            run,
            steps: Vec::new(),
            backups: Vec::new(),
        });
    }
    // Each shown run's steps, by the key ward-stack gives them (`RUN/SITE`): one query per site
    // of the run, so an old run never loses its steps to a global limit, and the page reads the
    // steps (and the saved plans some of them hold) of the runs it shows only.
    let mut steps: BTreeMap<String, BTreeMap<String, StepView>> = BTreeMap::new();
    for run in &runs {
        let sites: std::collections::BTreeSet<&str> = run
            .order
            .iter()
            .filter_map(|id| id.rsplit_once('/').map(|(_, site)| site))
            .collect();
        for site in sites {
            let key = format!("{}/{site}", run.run);
            for r in store.records(&RecordQuery {
                kind: "stack-step",
                key: Some(&key),
                ..Default::default()
            })? {
                if let Some(step) = step_view(&r.body, &r.recorded_at) {
                    let id = format!("{}/{}", step.root, step.site);
                    steps
                        .entry(run.run.clone())
                        .or_default()
                        .entry(id)
                        .or_insert(step);
                }
            }
        }
    }
    for r in query("stack-backup", RECORDS_PER_KIND * 4)? {
        let Some(&i) = text(&r.body, "run").and_then(|run| index.get(&run)) else {
            continue;
        };
        runs[i].backups.push(record_view(r, ""));
    }
    for run in &mut runs {
        let mut mine = steps.remove(&run.run).unwrap_or_default();
        for id in &run.order {
            let step = mine.remove(id).unwrap_or_else(|| {
                let (root, site) = id.rsplit_once('/').unwrap_or((id, ""));
                StepView {
                    root: root.to_string(),
                    site: site.to_string(),
                    layer: String::new(),
                    outcome: "not-reached".into(),
                    severity: "other".into(),
                    detail: Vec::new(),
                    binary: None,
                    changes: None,
                    pending_approvals: 0,
                    recorded_at: None,
                }
            });
            run.steps.push(step);
        }
        // Steps of instances outside the recorded order (an older journal): after it.
        run.steps.extend(mine.into_values());
        run.backups.reverse();
    }
    runs.sort_by(|a, b| {
        b.started_at
            .cmp(&a.started_at)
            .then_with(|| b.run.cmp(&a.run))
    });
    Ok(StackRuns {
        schema_version: API_VERSION,
        runs,
    })
}
