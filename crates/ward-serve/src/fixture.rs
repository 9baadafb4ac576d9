//! A deterministic history for tests, screenshots and the benchmark: `roots` roots checked in
//! `runs` runs, with every kind of outcome, findings that open, escalate and resolve, roots no
//! longer checked (every sixth: stale at the last run's time with a threshold of a few hours),
//! and records of every page in the shapes ward writes them (approvals with expiries and gate
//! outcomes through the store's audit API, stack runs journaled as they move with their steps and backups, import plans and
//! acceptances).

use serde_json::json;
use ward_store::{
    ApprovalRecord, AuditSource, Finding, GateChange, GateOutcomeRecord, NewRecord, OutcomeRow,
    StateMark, Store, StoreError,
};

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

/// Whether root `i` is checked in run `n` of `runs`: every sixth root (i = 5, 11...) only in the
/// first third, so it goes stale.
pub fn checked_in(i: usize, n: usize, runs: usize) -> bool {
    i % 6 != 5 || n < runs.div_ceil(3).max(1)
}

/// Writes the history of `roots` over `runs` runs into `store`, one batch per run.
pub fn write(store: &mut Store, roots: &[String], runs: usize) -> Result<(), StoreError> {
    for n in 0..runs {
        write_run(store, roots, n, runs)?;
    }
    for (i, root) in roots.iter().enumerate().take(5) {
        write_audit(store, i, root)?;
        write_acceptance(store, i, root)?;
    }
    if let Some(root) = roots.first() {
        // `ward import plan` before the acceptance: the root was being adopted.
        let ids =
            json!({"fakecloud_instance.web": "i-0123", "fakecloud_volume.data[\"0\"]": "vol-0000"});
        store.append_record(&NewRecord {
            kind: "import-plan",
            root,
            key: "",
            recorded_at: &run_time(2),
            body: &json!({"schema_version": 1, "root": root, "ids": ids}),
        })?;
    }
    write_stack_runs(store, roots)
}

/// Run `n` of `runs`: each root checked in it, with its findings, state mark and outcome.
fn write_run(store: &mut Store, roots: &[String], n: usize, runs: usize) -> Result<(), StoreError> {
    let impacts = ["free", "in-place", "interrupt", "replace", "data-loss"];
    let now = run_time(n);
    let run = store.begin_run(&now, None)?;
    store.begin_batch()?;
    let mut failed = false;
    for (i, root) in roots.iter().enumerate() {
        if !checked_in(i, n, runs) {
            continue;
        }
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
    Ok(())
}

/// Root `i`'s approval (expired for even `i`; from a stack teardown for `i` = 1, signed for
/// `i` = 3) and the gate decision that used it.
fn write_audit(store: &mut Store, i: usize, root: &str) -> Result<(), StoreError> {
    let expires = if i % 2 == 0 {
        "2026-10-31"
    } else {
        "2099-01-01"
    };
    let digest = format!("sha256:{:064x}", i + 1);
    let address = format!("fakecloud_volume.data[{}]", i % 3);
    let approval = ApprovalRecord {
        source: if i == 1 {
            AuditSource::Stack
        } else {
            AuditSource::Gate
        },
        root: root.to_string(),
        site: (i == 1).then(|| "dc0".to_string()),
        address: address.clone(),
        deposed: None,
        action: "delete".into(),
        impact: "data-loss".into(),
        digest: digest.clone(),
        by: "alice@example.com".into(),
        reason: "planned resize <ticket 42>".into(),
        approved_at: run_time(1),
        expires_at: Some(format!("{expires}T00:00:00Z")),
        signed: i == 3,
        plan: format!("plans/{i}.json"),
        run: (i == 1).then(|| "20261101T060000Z-teardown".to_string()),
    };
    store.record_approvals(&[approval])?;
    let blocked = i % 2 == 0;
    store.record_gate_outcome(&GateOutcomeRecord {
        source: AuditSource::Gate,
        root: root.to_string(),
        site: None,
        plan: format!("plans/{i}.json"),
        outcome: if blocked { "approval-required" } else { "pass" }.into(),
        exit_code: if blocked { 4 } else { 0 },
        decided_at: run_time(2),
        reasons: if blocked {
            vec![format!("{address}: the approval expired on {expires}")]
        } else {
            vec![]
        },
        changes: vec![GateChange {
            address,
            deposed: None,
            action: "delete".into(),
            impact: "data-loss".into(),
            digest: digest.clone(),
            status: if blocked { "expired" } else { "approved" }.into(),
            by: Some("alice@example.com".into()),
            expires_at: Some(format!("{expires}T00:00:00Z")),
            review: None,
        }],
        run: None,
    })?;
    Ok(())
}

/// Root `i`'s `ward import accept` record.
fn write_acceptance(store: &mut Store, i: usize, root: &str) -> Result<(), StoreError> {
    let plan_digest = format!("sha256:{:064x}", 100 + i);
    let import = json!({
        "schema_version": 1,
        "root": root,
        "ids": {
            "fakecloud_instance.web": "i-0123",
            format!("fakecloud_volume.data[\"{i}\"]"): format!("vol-{i:04}"),
        },
        "plan_digest": plan_digest,
        "lineage": format!("lineage-{i}"),
        "serial": 4,
        "binary": "/usr/local/bin/terraform",
        "product": "terraform",
        "version": "1.15.5",
        "accepted_at": run_time(3),
    });
    store.append_record(&NewRecord {
        kind: "import-acceptance",
        root,
        key: &plan_digest,
        recorded_at: &run_time(3),
        body: &import,
    })?;
    Ok(())
}

/// Three `ward stack` runs journaled as ward-stack writes them (a `stack-run` record when the run
/// starts and another when it ends, a `stack-step` per root instance, with `null`s where a
/// field is unset): an apply killed at its first instance (still `running`, its process named),
/// an apply that passed over the first two roots at two sites, and a teardown stopped for an
/// approval with a backup, one instance not reached.
fn write_stack_runs(store: &mut Store, roots: &[String]) -> Result<(), StoreError> {
    let (Some(net), Some(app)) = (roots.first(), roots.get(1)) else {
        return Ok(());
    };
    let order: Vec<String> = [net, app]
        .iter()
        .flat_map(|r| ["dc0", "dc1"].map(|s| format!("{r}/{s}")))
        .collect();
    write_killed_run(store, net, &order)?;
    let mut records = apply_records(net, &order);
    records.extend(teardown_records(app, &order));
    for (kind, root, key, at, body) in &records {
        store.append_records(&[NewRecord {
            kind,
            root,
            key,
            recorded_at: at,
            body,
        }])?;
    }
    Ok(())
}

/// A journal record: kind, root, key, recorded at, body.
type Journaled<'a> = (&'a str, &'a str, String, String, serde_json::Value);

/// A `stack-run` record's body.
fn stack_run(
    id: &str,
    command: &str,
    status: &str,
    exit: Option<u8>,
    order: &[String],
) -> serde_json::Value {
    json!({
        "run": id, "command": command, "site": null, "root": null, "status": status,
        "exit_code": exit, "resumes": null, "order": order,
    })
}

/// A `stack-step` record's body.
fn stack_step(
    id: &str,
    root: &str,
    site: &str,
    layer: &str,
    outcome: &str,
    detail: &[&str],
) -> serde_json::Value {
    json!({
        "run": id,
        "report": {
            "root": root, "site": site, "layer": layer, "level": 0, "path": root,
            "outcome": outcome, "detail": detail, "binary": "terraform 1.15.5",
            "changes": if id.ends_with("teardown") {
                json!({"create": 0, "update": 0, "replace": 0, "delete": 2})
            } else {
                json!({"create": 1, "update": 0, "replace": 0, "delete": 0})
            },
        },
        "pending_plan": null, "context": null, "every_change": false,
    })
}

/// A run killed at its first instance: `running` with its process, one step in progress.
fn write_killed_run(store: &mut Store, net: &str, order: &[String]) -> Result<(), StoreError> {
    let killed = "20261101T030000Z-apply";
    let mut killed_run = stack_run(killed, "apply", "running", None, &order[..1]);
    if let Some(o) = killed_run.as_object_mut() {
        o.insert(
            "process".into(),
            json!({"pid": 4711, "host": "ci-runner-7", "start": 123_456}),
        );
    }
    store.append_records(&[
        NewRecord {
            kind: "stack-run",
            root: "(stack)",
            key: killed,
            recorded_at: &run_time(3),
            body: &killed_run,
        },
        NewRecord {
            kind: "stack-step",
            root: net,
            key: &format!("{killed}/dc0"),
            recorded_at: &run_time(3),
            body: &stack_step(killed, net, "dc0", "network", "in-progress", &[]),
        },
    ])?;
    Ok(())
}

/// An apply that passed over every instance of `order` (`net`'s in the network layer).
fn apply_records<'a>(net: &str, order: &'a [String]) -> Vec<Journaled<'a>> {
    let apply = "20261101T040000Z-apply";
    let mut records: Vec<Journaled<'a>> = vec![(
        "stack-run",
        "(stack)",
        apply.into(),
        run_time(4),
        stack_run(apply, "apply", "running", None, order),
    )];
    for id in order {
        let (root, site) = id.rsplit_once('/').unwrap_or((id, ""));
        let layer = if root == net { "network" } else { "apps" };
        records.push((
            "stack-step",
            root,
            format!("{apply}/{site}"),
            run_time(4),
            stack_step(apply, root, site, layer, "applied", &[]),
        ));
    }
    records.push((
        "stack-run",
        "(stack)",
        apply.into(),
        run_time(5),
        stack_run(apply, "apply", "pass", Some(0), order),
    ));
    records
}

/// A teardown in reverse `order` stopped for an approval at `app`'s dc0, after backing up and
/// destroying its dc1.
fn teardown_records<'a>(app: &'a str, order: &[String]) -> Vec<Journaled<'a>> {
    let teardown = "20261101T060000Z-teardown";
    let reversed: Vec<String> = order.iter().rev().cloned().collect();
    vec![
        (
            "stack-run",
            "(stack)",
            teardown.into(),
            run_time(6),
            stack_run(teardown, "teardown", "running", None, &reversed),
        ),
        (
            "stack-backup",
            app,
            "dc1".into(),
            run_time(6),
            json!({"path": format!("/var/backups/ward/{app}/dc1.tfstate"), "sha256": format!("sha256:{:064x}", 7), "serial": 3, "lineage": "lineage-1", "run": teardown}),
        ),
        (
            "stack-step",
            app,
            format!("{teardown}/dc1"),
            run_time(6),
            stack_step(teardown, app, "dc1", "apps", "destroyed", &[]),
        ),
        (
            "stack-step",
            app,
            format!("{teardown}/dc0"),
            run_time(6),
            stack_step(
                teardown,
                app,
                "dc0",
                "apps",
                "approval-required",
                &["2 changes need an approval: run `ward stack approve`, then `ward stack resume`"],
            ),
        ),
        (
            "stack-run",
            "(stack)",
            teardown.into(),
            run_time(6),
            stack_run(
                teardown,
                "teardown",
                "approval-required",
                Some(4),
                &reversed,
            ),
        ),
    ]
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
