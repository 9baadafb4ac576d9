//! `ward drift history` reads what its runs say: the newest runs, the findings open or seen or
//! resolved by them, and whether older runs were left out; `all` reads every finding.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_drift::history::{read_query, Query};
use ward_drift::ward_store::{Finding, Store};
use ward_drift::History;

fn finding(attribute: &str) -> Finding {
    Finding {
        address: "fakecloud_network.main".into(),
        attribute: attribute.into(),
        impact: "in-place".into(),
    }
}

/// Six daily runs: `early` drifts on day 1 and is resolved on day 2; `late` drifts on day 5 and
/// is still open; `mid` drifts on day 3 and is resolved on day 5.
fn history() -> Store {
    let mut s = Store::open_in_memory().unwrap();
    for day in 1..=6 {
        let at = format!("2026-11-0{day}T02:00:00Z");
        let run = s.begin_run(&at, None).unwrap();
        let mut seen = Vec::new();
        if day == 1 {
            seen.push(finding("early"));
        }
        if (3..5).contains(&day) {
            seen.push(finding("mid"));
        }
        if day >= 5 {
            seen.push(finding("late"));
        }
        s.apply_findings(run, &at, "net", &seen).unwrap();
        s.finish_run(run, &at, 0).unwrap();
    }
    s
}

fn attributes(h: &History) -> Vec<String> {
    h.findings().iter().map(|f| f.attribute.clone()).collect()
}

fn runs(h: &History) -> (Vec<i64>, bool) {
    match h {
        History::Runs { runs, more, .. } => (runs.iter().map(|r| r.id).collect(), *more),
        History::Root { .. } => panic!("runs"),
    }
}

#[test]
fn the_window_holds_the_shown_runs_findings_and_says_it_is_cut() {
    let s = history();
    let q = |limit, since, all| Query {
        root: None,
        limit,
        since,
        all,
    };
    // The newest two runs (days 5 and 6): mid resolved on day 5, late open; early is older.
    let h = read_query(&s, &q(2, None, false)).unwrap();
    assert_eq!(runs(&h), (vec![6, 5], true));
    assert_eq!(attributes(&h), ["late", "mid"]);
    // Every finding with --all, whatever the window.
    let h = read_query(&s, &q(2, None, true)).unwrap();
    assert_eq!(attributes(&h), ["early", "late", "mid"]);
    // Every run fits: nothing is cut, and the window is the whole history.
    let h = read_query(&s, &q(20, None, false)).unwrap();
    assert_eq!(runs(&h), (vec![6, 5, 4, 3, 2, 1], false));
    assert_eq!(attributes(&h), ["early", "late", "mid"]);
    // Since day 4 (a date sorts before every time of its day): runs 6, 5, 4, older cut.
    let h = read_query(&s, &q(20, Some("2026-11-04"), false)).unwrap();
    assert_eq!(runs(&h), (vec![6, 5, 4], true));
    assert_eq!(attributes(&h), ["late", "mid"]);
    // No run since then: the open findings only.
    let h = read_query(&s, &q(20, Some("2026-12-01"), false)).unwrap();
    assert_eq!(runs(&h), (vec![], true));
    assert_eq!(attributes(&h), ["late"]);
}
