//! Fuzz target: the drift history as `ward drift history` reads it (ward-drift over
//! ward-store's SQLite backend). The input drives a sequence of runs written through the store,
//! each recording outcomes and findings for a few roots with fuzzer-chosen text (any UTF-8:
//! quotes, NULs, SQL, bidi controls); then the history is read back, for every root and for
//! all. Beyond no panic:
//! - every run is read back, newest first, with the outcomes it recorded, text byte for byte;
//! - a root's history lists exactly the outcomes recorded for it, newest first;
//! - the open findings of a root are exactly those its last findings run observed.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::collections::{BTreeMap, BTreeSet};
use ward_store::{Finding, OutcomeRow, Store};

const ROOTS: [&str; 3] = ["live/a", "live/b", "x'; DROP TABLE runs; --"];
const IMPACTS: [&str; 4] = ["none", "free", "data-loss", "unclassified"];

fn text(u: &mut Unstructured<'_>) -> Result<String> {
    let s: String = u.arbitrary()?;
    Ok(s.chars().take(40).collect())
}

fn drive(u: &mut Unstructured<'_>) -> Result<()> {
    let Ok(mut store) = Store::open_in_memory() else {
        return Ok(());
    };
    let runs = u.int_in_range(1..=6)?;
    let mut recorded: Vec<Vec<OutcomeRow>> = Vec::new();
    let mut open: BTreeMap<&str, BTreeSet<Finding>> = BTreeMap::new();
    for i in 0..runs {
        let now = format!("2026-11-{:02}T00:00:00Z", i + 1);
        let run = store.begin_run(&now, None).expect("begin a run");
        let mut rows = Vec::new();
        for root in ROOTS {
            if !u.arbitrary::<bool>()? {
                continue;
            }
            let row = OutcomeRow {
                root: root.to_string(),
                outcome: u.choose(&["clean", "drifted", "error"])?.to_string(),
                detail: text(u)?,
                state: None,
                binary: if u.arbitrary()? { Some(text(u)?) } else { None },
            };
            store.record_outcome(run, &row).expect("record an outcome");
            rows.push(row);
            if u.arbitrary()? {
                // One finding per address and attribute (a second is an escalation).
                let mut observed = BTreeMap::new();
                for _ in 0..u.int_in_range(0..=3)? {
                    observed.insert((text(u)?, text(u)?), u.choose(&IMPACTS)?.to_string());
                }
                let observed: Vec<Finding> = observed
                    .into_iter()
                    .map(|((address, attribute), impact)| Finding {
                        address,
                        attribute,
                        impact,
                    })
                    .collect();
                store
                    .apply_findings(run, &now, root, &observed)
                    .expect("apply findings");
                open.insert(root, observed.into_iter().collect());
            }
        }
        store.finish_run(run, &now, 0).expect("finish a run");
        recorded.push(rows);
    }
    let limit = 100;
    match ward_drift::history::read(&store, None, limit).expect("read the history") {
        ward_drift::history::History::Runs { runs: got, .. } => {
            assert_eq!(got.len(), recorded.len(), "runs lost or invented");
            for w in got.windows(2) {
                assert!(w[0].id > w[1].id, "runs not newest first");
            }
        }
        other => panic!("asked for every run, got {other:?}"),
    }
    for root in ROOTS {
        let h = ward_drift::history::read(&store, Some(root), limit).expect("read a root");
        let ward_drift::history::History::Root { runs: got, .. } = &h else {
            panic!("asked for one root, got {h:?}");
        };
        let want: Vec<&OutcomeRow> = recorded
            .iter()
            .rev()
            .flat_map(|rows| rows.iter().filter(|r| r.root == root))
            .collect();
        let got_rows: Vec<&OutcomeRow> = got.iter().map(|r| &r.outcome).collect();
        assert_eq!(
            got_rows, want,
            "{root}: outcomes differ from those recorded"
        );
        let now_open: BTreeSet<Finding> = h
            .findings()
            .iter()
            .filter(|f| f.resolved.is_none())
            .map(|f| Finding {
                address: f.address.clone(),
                attribute: f.attribute.clone(),
                impact: f.impact.clone(),
            })
            .collect();
        let want_open = open.get(root).cloned().unwrap_or_default();
        assert_eq!(
            now_open, want_open,
            "{root}: open findings differ from the last observed"
        );
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = drive(&mut Unstructured::new(data));
});
