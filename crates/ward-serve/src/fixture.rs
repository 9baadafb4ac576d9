//! A deterministic history for tests, screenshots and the benchmark: `roots` roots checked in
//! `runs` runs, with every kind of outcome, findings that open, escalate and resolve, and
//! records of every page (approvals with expiries, stack runs and backups, import acceptances).

use serde_json::json;
use ward_store::{Finding, NewRecord, OutcomeRow, StateMark, Store, StoreError};

/// The time of run `n` (one an hour from 2026-11-01T00:00:00Z; at most 24 × 28 runs).
pub fn run_time(n: usize) -> String {
    let n = n.min(24 * 28 - 1);
    format!("2026-11-{:02}T{:02}:00:00Z", 1 + n / 24, n % 24)
}

/// The outcome of root `i` in run `n`: mostly clean, some drift, a few failures.
pub fn outcome_of(i: usize, n: usize) -> &'static str {
    match (i * 7 + n * 3) % 20 {
        0..=11 => "clean",
        12..=15 => "drifted",
        16 => "error",
        17 => "locked",
        18 => "missing-state",
        _ => "pending-change",
    }
}

/// Writes the history of `roots` over `runs` runs into `store`, one batch per run.
pub fn write(store: &mut Store, roots: &[String], runs: usize) -> Result<(), StoreError> {
    let impacts = ["free", "in-place", "interrupt", "replace", "data-loss"];
    for n in 0..runs {
        let now = run_time(n);
        let run = store.begin_run(&now, None)?;
        store.begin_batch()?;
        let mut failed = false;
        for (i, root) in roots.iter().enumerate() {
            let outcome = outcome_of(i, n);
            if matches!(outcome, "clean" | "drifted" | "pending-change") {
                let found: Vec<Finding> = if outcome == "drifted" {
                    vec![Finding {
                        address: format!("fakecloud_volume.data[{}]", i % 3),
                        attribute: "size".into(),
                        impact: impacts[(i + n) % impacts.len()].into(),
                    }]
                } else {
                    vec![]
                };
                store.apply_findings(run, &now, root, &found)?;
            }
            failed |= matches!(outcome, "error" | "missing-state");
            let state = (outcome != "missing-state").then(|| StateMark {
                lineage: format!("lineage-{i}"),
                serial: i64::try_from(n).unwrap_or(0),
            });
            if let Some(mark) = &state {
                store.set_state_mark(run, &now, root, mark)?;
            }
            store.record_outcome(
                run,
                &OutcomeRow {
                    root: root.clone(),
                    outcome: outcome.into(),
                    detail: match outcome {
                        "drifted" => format!("update fakecloud_volume.data[{}]: size", i % 3),
                        "error" => "terraform init failed: exit 1".into(),
                        _ => String::new(),
                    },
                    state,
                    binary: Some("terraform 1.15.5".into()),
                },
            )?;
        }
        store.finish_run(run, &now, if failed { 8 } else { 0 })?;
        store.commit_batch()?;
    }
    for (i, root) in roots.iter().enumerate().take(5) {
        let expires = if i % 2 == 0 {
            "2026-11-02"
        } else {
            "2099-01-01"
        };
        let approval = json!({
            "address": format!("fakecloud_volume.data[{}]", i % 3),
            "by": "alice@example.com",
            "reason": "planned resize <ticket 42>",
            "expires": expires,
        });
        let stack = json!({"command": "down", "site": "lab", "roots": [root], "outcome": "ok"});
        let backup =
            json!({"path": format!("/var/backups/{root}.tfstate"), "sha256": "ab12", "serial": 3});
        let import = json!({"ids": {"fakecloud_instance.web": "i-123"}, "plan_digest": "d1"});
        store.append_records(&[
            NewRecord {
                kind: "approval",
                root,
                key: "digest-1",
                recorded_at: &run_time(1),
                body: &approval,
            },
            NewRecord {
                kind: "stack-run",
                root,
                key: "run-1",
                recorded_at: &run_time(2),
                body: &stack,
            },
            NewRecord {
                kind: "stack-backup",
                root,
                key: "run-1",
                recorded_at: &run_time(2),
                body: &backup,
            },
            NewRecord {
                kind: "import-acceptance",
                root,
                key: "d1",
                recorded_at: &run_time(3),
                body: &import,
            },
        ])?;
    }
    Ok(())
}

/// `n` root names: `live/net`, `live/app`, the HTML one, then `fleet/rootNNNN`.
pub fn root_names(n: usize) -> Vec<String> {
    let fixed = ["live/net", "live/app", "<script>alert(1)</script>"];
    (0..n)
        .map(|i| match fixed.get(i) {
            Some(s) => s.to_string(),
            None => format!("fleet/root{i:04}"),
        })
        .collect()
}
