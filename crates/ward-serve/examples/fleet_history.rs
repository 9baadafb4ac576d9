//! A fleet's year of history, synthesized through the store's own API (not a timed test, not in
//! the shipped binary): ROOTS roots checked by SHARDS `ward drift --shard K/SHARDS` runs a day for
//! DAYS days, written the way `ward drift` writes them (each run's `drift-run` journal records,
//! its rows in one batch, findings compared and their transitions' `alert` records), for
//! `scripts/bench-fleet` to time the dashboard, `ward report --html` and `ward drift history` on.
//!
//! `cargo run --release -p ward-serve --example fleet_history -- DB [ROOTS] [DAYS] [SHARDS]`
//! (defaults 10000, 365, 16). DB is a SQLite file or a postgres:// URL of an empty database.
//!
//! What a root does on a day is a deterministic function of (root, day): about 2.5% of root-days
//! start a drift episode (one or two attributes, 1 to 5 days, sometimes escalating), 0.5% fail
//! (`error`), 0.2% are `locked`, 0.1% `missing-state`; the rest are clean. The store sees what
//! `ward drift` would hand it, with two shortcuts that leave the tables' contents the same for
//! every reader: findings are compared only for roots with open or new findings (for the others
//! the comparison writes nothing), and a root's trusted state mark is written when its serial
//! changes (every 30 days) instead of every run (the mark's `run_id`/`updated_at` are then
//! older than `ward drift` would leave them; no page reads them).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};
use ward_store::{Finding, Location, NewRecord, OutcomeRow, StateMark, Store};

/// A stable pseudo-random number for (root, day, salt): SplitMix64 of the three.
fn rand(i: usize, d: usize, salt: u64) -> u64 {
    let mut z = (i as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((d as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(salt.wrapping_mul(0x94D0_49BB_1331_11EB));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const IMPACTS: [&str; 5] = ["free", "in-place", "interrupt", "replace", "data-loss"];

/// Appends a `drift-run` journal record, as `ward drift` does when a run starts and ends.
fn journal(store: &mut Store, token: &str, at: &str, body: &serde_json::Value) {
    store
        .append_record(&NewRecord {
            kind: "drift-run",
            root: "(drift)",
            key: token,
            recorded_at: at,
            body,
        })
        .unwrap();
}

/// A drift episode in progress: days left and what drifted.
#[derive(Clone, Default)]
struct Episode {
    left: usize,
    findings: Vec<Finding>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let db = args
        .first()
        .expect("usage: fleet_history DB [ROOTS] [DAYS] [SHARDS]");
    let roots: usize = args.get(1).map_or(10_000, |s| s.parse().unwrap());
    let days: usize = args.get(2).map_or(365, |s| s.parse().unwrap());
    let shards: usize = args.get(3).map_or(16, |s| s.parse().unwrap());
    let location = Location::parse(db, None, "DB").unwrap();
    let mut store = Store::open_location(&location).unwrap();
    assert!(
        store.runs(1).unwrap().is_empty(),
        "{location} already holds runs: give an empty database"
    );
    let names = ward_serve::fixture::root_names(roots);
    // The year ends today, so the newest runs are fresh.
    let now = ward_time::Clock::System.now();
    let start =
        ward_time::parse_timestamp(&format!("{}T02:00:00Z", ward_time::utc_date(now))).unwrap();
    let day_secs = 86_400u64;
    let first = ward_time::Timestamp::from_second(
        start.as_second() - i64::try_from(day_secs * days as u64).unwrap(),
    )
    .unwrap();
    let mut episodes: Vec<Episode> = vec![Episode::default(); roots];
    let mut open: Vec<bool> = vec![false; roots];
    let t0 = Instant::now();
    let (mut outcomes, mut calls, mut transitions) = (0usize, 0usize, 0usize);
    for d in 0..days {
        for k in 0..shards {
            let at = ward_time::rfc3339(
                ward_time::add(
                    first,
                    Duration::from_secs(day_secs * d as u64 + 120 * k as u64),
                )
                .unwrap(),
            );
            let shard = format!("{}/{shards}", k + 1);
            let token = format!("{at}/{}/{k}", 40_000 + k);
            let mark = |status: &str, run: Option<i64>| {
                serde_json::json!({
                    "status": status,
                    "started_at": at,
                    "shard": shard,
                    "process": {"pid": 40_000 + k, "host": format!("ci-{k}"), "start": 1000 + d},
                    "run": run,
                    "exit_code": run.map(|_| 0),
                })
            };
            journal(&mut store, &token, &at, &mark("running", None));
            store.begin_batch().unwrap();
            let run = store.begin_run(&at, Some(&shard)).unwrap();
            let mut run_transitions = 0;
            for (i, root) in names.iter().enumerate().filter(|(i, _)| i % shards == k) {
                let r = rand(i, d, 1) % 1000;
                let ep = &mut episodes[i];
                if ep.left == 0 && r < 25 {
                    let n = 1 + (rand(i, d, 2) % 2) as usize;
                    ep.left = 1 + (rand(i, d, 3) % 5) as usize;
                    ep.findings = (0..n)
                        .map(|j| Finding {
                            address: format!("terraform_data.item[{}]", (i + j) % 7),
                            attribute: if j == 0 { "input" } else { "triggers_replace" }.into(),
                            impact: IMPACTS[(rand(i, d, 4 + j as u64) % 5) as usize].into(),
                        })
                        .collect();
                } else if ep.left > 0 && rand(i, d, 9) % 10 == 0 {
                    // Sometimes an episode escalates.
                    for f in &mut ep.findings {
                        f.impact = "data-loss".into();
                    }
                }
                let outcome = if ep.left > 0 {
                    "drifted"
                } else {
                    match r {
                        25..=29 => "error",
                        30 => "missing-state",
                        31..=32 => "locked",
                        _ => "clean",
                    }
                };
                let checked = matches!(outcome, "clean" | "drifted");
                let observed: &[Finding] = if outcome == "drifted" {
                    &ep.findings
                } else {
                    &[]
                };
                if checked && (open[i] || !observed.is_empty()) {
                    let t = store.apply_findings(run, &at, root, observed).unwrap();
                    run_transitions += t.len();
                    calls += 1;
                    open[i] = !observed.is_empty();
                }
                let serial = (d / 30) as i64 + 1;
                let state = (outcome != "missing-state").then(|| StateMark {
                    lineage: format!("{:08x}-0000-4000-8000-{:012x}", i, rand(i, 0, 7) >> 16),
                    serial,
                });
                if let Some(m) = &state {
                    if d % 30 == 0 || d == 0 {
                        store.set_state_mark(run, &at, root, m).unwrap();
                    }
                }
                let detail = match outcome {
                    "drifted" => format!(
                        "{} drifted: {}",
                        ep.findings.len(),
                        ep.findings
                            .iter()
                            .map(|f| format!("{} ({})", f.address, f.attribute))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    "error" => {
                        "terraform plan -refresh-only failed: Error acquiring the state lock".into()
                    }
                    "locked" => "the state is locked by another run".into(),
                    "missing-state" => "terraform state pull printed no state".into(),
                    _ => String::new(),
                };
                store
                    .record_outcome(
                        run,
                        &OutcomeRow {
                            root: root.clone(),
                            outcome: outcome.into(),
                            detail,
                            state,
                            binary: Some("terraform 1.15.5".into()),
                        },
                    )
                    .unwrap();
                outcomes += 1;
                ep.left = ep.left.saturating_sub(1);
            }
            journal(&mut store, &token, &at, &mark("finished", Some(run)));
            store.finish_run(run, &at, 0).unwrap();
            store.commit_batch().unwrap();
            if run_transitions > 0 {
                transitions += run_transitions;
                let body = serde_json::json!({"delivered": true});
                store
                    .append_record(&NewRecord {
                        kind: "alert",
                        root: &shard,
                        key: &run.to_string(),
                        recorded_at: &at,
                        body: &body,
                    })
                    .unwrap();
            }
        }
        if d % 30 == 29 || d + 1 == days {
            eprintln!(
                "day {}/{days}: {outcomes} outcomes, {calls} finding comparisons, {transitions} transitions, {:.0} s",
                d + 1,
                t0.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "wrote {roots} roots x {days} days x {shards} shards ({outcomes} outcomes, {} runs, {transitions} transitions) to {location} in {:.1} s",
        days * shards,
        t0.elapsed().as_secs_f64()
    );
}
