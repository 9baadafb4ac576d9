//! Every page's HTML, and the static report, from the fixture history at a fixed time, against
//! the files under `tests/snapshots/` (`WARD_BLESS=1 cargo test -p ward-serve --test pages`
//! rewrites them; review the diff). A change to a template or a view shows here as a diff of
//! the page a user reads.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use ward_report::dashboard::{self, Page};
use ward_serve::views::{self, Filter, Layers, Paging, ReportScope, Staleness};
use ward_store::Store;

const RUNS: usize = 13;

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite");
    let mut s = Store::open(&db).unwrap();
    ward_serve::fixture::write(&mut s, &ward_serve::fixture::root_names(7), RUNS).unwrap();
    (dir, s)
}

fn layers() -> Layers {
    let cfg = ward_config::Config::parse(
        "layer \"network\" {\n  level = 0\n}\nroot \"live/net\" {\n  path = \"live/net\"\n  layer = \"network\"\n}\n",
        "ward.hcl",
        Path::new("."),
    )
    .unwrap();
    Layers::from_config(Some(&cfg))
}

fn staleness() -> Staleness {
    let now = ward_time::parse_timestamp(&ward_serve::fixture::run_time(RUNS - 1)).unwrap();
    Staleness::new(now, "6h").unwrap()
}

fn snapshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// Compares `html` with the kept snapshot `name` (or rewrites it under WARD_BLESS).
fn check(name: &str, html: &str) -> Option<String> {
    let path = snapshots().join(name);
    if std::env::var_os("WARD_BLESS").is_some() {
        std::fs::create_dir_all(snapshots()).unwrap();
        std::fs::write(&path, html).unwrap();
        return None;
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    if kept == html {
        return None;
    }
    let line = kept
        .lines()
        .zip(html.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(kept.lines().count().min(html.lines().count()));
    Some(format!(
        "{name} differs from the kept snapshot from line {}:\n  kept: {:?}\n  now:  {:?}",
        line + 1,
        kept.lines().nth(line).unwrap_or("(end)"),
        html.lines().nth(line).unwrap_or("(end)")
    ))
}

#[test]
fn every_page_matches_its_snapshot() {
    let (_dir, s) = store();
    let (layers, stale) = (layers(), staleness());
    let mut pages: Vec<(&str, String)> = Vec::new();
    let o = views::overview(&s, &layers, &stale, &Filter::default(), Paging::default()).unwrap();
    pages.push((
        "overview.html",
        dashboard::render_page(Page::Overview(&o)).unwrap(),
    ));
    let f = Filter::from_params(Some("failed"), None, None).unwrap();
    let o = views::overview(&s, &layers, &stale, &f, Paging::default()).unwrap();
    pages.push((
        "overview-failed.html",
        dashboard::render_page(Page::Overview(&o)).unwrap(),
    ));
    let f = Filter::from_params(None, Some("1"), Some("FLEET")).unwrap();
    let o = views::overview(&s, &layers, &stale, &f, Paging::default()).unwrap();
    pages.push((
        "overview-stale-fleet.html",
        dashboard::render_page(Page::Overview(&o)).unwrap(),
    ));
    let t = views::timeline(&s, "live/net", 100).unwrap().unwrap();
    pages.push((
        "root.html",
        dashboard::render_page(Page::Timeline(&t)).unwrap(),
    ));
    let f = views::findings(&s).unwrap();
    pages.push((
        "findings.html",
        dashboard::render_page(Page::Findings(&f)).unwrap(),
    ));
    let a = views::approvals(&s, None, stale.now).unwrap();
    pages.push((
        "approvals.html",
        dashboard::render_page(Page::Approvals(&a)).unwrap(),
    ));
    let st = views::stack_runs(&s).unwrap();
    pages.push((
        "stacks.html",
        dashboard::render_page(Page::StackRuns(&st)).unwrap(),
    ));
    let (_, title, kinds) = views::RECORD_PAGES[0];
    let now = ward_time::rfc3339(stale.now);
    let r = views::records(&s, title, kinds, &now).unwrap();
    pages.push((
        "imports.html",
        dashboard::render_page(Page::Records(&r, "/imports")).unwrap(),
    ));
    pages.push((
        "error.html",
        dashboard::render_page(Page::Error(404, "no such page <x>")).unwrap(),
    ));
    let scope = ReportScope {
        all_roots: false,
        max_roots: 500,
        runs: 5,
        recent_runs: 4,
    };
    let report = views::report(&s, &layers, &stale, &scope).unwrap();
    pages.push(("report.html", dashboard::render_report(&report).unwrap()));
    let all = ReportScope {
        all_roots: true,
        max_roots: 0,
        ..scope
    };
    let report = views::report(&s, &layers, &stale, &all).unwrap();
    pages.push((
        "report-all-roots.html",
        dashboard::render_report(&report).unwrap(),
    ));
    // A page of the overview among several has its pager.
    let o = views::overview(
        &s,
        &layers,
        &stale,
        &Filter::default(),
        Paging {
            number: 2,
            per_page: 3,
        },
    )
    .unwrap();
    pages.push((
        "overview-page-2.html",
        dashboard::render_page(Page::Overview(&o)).unwrap(),
    ));
    let problems: Vec<String> = pages.iter().filter_map(|(n, h)| check(n, h)).collect();
    assert!(
        problems.is_empty(),
        "{}\nrewrite with WARD_BLESS=1 cargo test -p ward-serve --test pages, and review the diff",
        problems.join("\n")
    );
}

#[test]
fn empty_history_pages_say_what_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(&dir.path().join("h.sqlite")).unwrap();
    let stale = staleness();
    let o = views::overview(
        &s,
        &Layers::default(),
        &stale,
        &Filter::default(),
        Paging::default(),
    )
    .unwrap();
    let html = dashboard::render_page(Page::Overview(&o)).unwrap();
    assert!(html.contains("No runs recorded yet"), "{html}");
    let a = views::approvals(&s, None, stale.now).unwrap();
    let html = dashboard::render_page(Page::Approvals(&a)).unwrap();
    assert!(html.contains("No approvals recorded") && html.contains("No gate decisions recorded"));
    let st = views::stack_runs(&s).unwrap();
    let html = dashboard::render_page(Page::StackRuns(&st)).unwrap();
    assert!(html.contains("No stack runs recorded"), "{html}");
}

#[test]
fn a_filter_value_is_shown_escaped() {
    let (_dir, s) = store();
    let evil = "\"><script>alert(1)</script>";
    let f = Filter::from_params(None, None, Some(evil)).unwrap();
    let o = views::overview(&s, &layers(), &staleness(), &f, Paging::default()).unwrap();
    assert_eq!(o.shown, 0, "no root has that in its name");
    let html = dashboard::render_page(Page::Overview(&o)).unwrap();
    assert!(!html.contains(evil), "{html}");
    assert!(
        html.contains("value=\"&quot;&gt;&lt;script&gt;alert(1)&lt;&#x2f;script&gt;\""),
        "{html}"
    );
    assert!(html.contains("No root matches this filter"), "{html}");
    // The script-named root is found by a part of its name, as text.
    let f = Filter::from_params(None, None, Some("<SCRIPT>")).unwrap();
    let o = views::overview(&s, &layers(), &staleness(), &f, Paging::default()).unwrap();
    assert_eq!(o.shown, 1);
}

#[test]
fn filters_refuse_what_they_do_not_know() {
    for (status, stale) in [(Some("banana"), None), (None, Some("maybe"))] {
        let e = Filter::from_params(status, stale, None).unwrap_err();
        assert!(e.contains("give"), "{e}");
    }
    assert!(Filter::from_params(Some("missing-state"), Some("0"), Some("  ")).is_ok());
    let e = Staleness::new(ward_time::Clock::System.now(), "0s").unwrap_err();
    assert!(e.contains("positive"), "{e}");
    assert!(Staleness::new(ward_time::Clock::System.now(), "two days").is_err());
}

#[test]
fn a_root_is_stale_only_past_the_threshold() {
    let (_dir, s) = store();
    let at = |h: &str| {
        let now = ward_time::parse_timestamp(&ward_serve::fixture::run_time(RUNS - 1)).unwrap();
        let o = views::overview(
            &s,
            &Layers::default(),
            &Staleness::new(now, h).unwrap(),
            &Filter::default(),
            Paging::default(),
        )
        .unwrap();
        let stale: Vec<String> = o
            .layers
            .iter()
            .flat_map(|g| &g.roots)
            .filter(|r| r.stale)
            .map(|r| format!("{} {}", r.root, r.age.clone().unwrap_or_default()))
            .collect();
        (o.stale, stale)
    };
    // fleet/root0005 was last checked 8 hours before the clock, the others in the last run.
    assert_eq!(at("6h"), (1, vec!["fleet/root0005 8h 0m".to_string()]));
    assert_eq!(
        at("8h"),
        (0, vec![]),
        "exactly the threshold is not past it"
    );
    assert_eq!(at("7h59m"), (1, vec!["fleet/root0005 8h 0m".to_string()]));
}

/// A run's steps are read by its own key: ten thousand steps of a newer run do not push an older
/// run's steps out of a global limit (it then showed them `not-reached`).
#[test]
fn an_old_run_keeps_its_steps_behind_many_newer_ones() {
    use serde_json::json;
    use ward_store::NewRecord;
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("h.sqlite")).unwrap();
    let run = |id: &str, order: &[String]| json!({"run": id, "command": "apply", "status": "pass", "exit_code": 0, "order": order});
    let step = |id: &str, root: &str| {
        json!({"run": id, "report": {"root": root, "site": "default", "layer": "l", "level": 0,
               "path": root, "outcome": "applied"}})
    };
    let old_order = vec!["old-root/default".to_string()];
    let (old_run, old_step) = (run("r-old", &old_order), step("r-old", "old-root"));
    s.append_records(&[
        NewRecord {
            kind: "stack-run",
            root: "(stack)",
            key: "r-old",
            recorded_at: "2026-11-01T00:00:00Z",
            body: &old_run,
        },
        NewRecord {
            kind: "stack-step",
            root: "old-root",
            key: "r-old/default",
            recorded_at: "2026-11-01T00:00:01Z",
            body: &old_step,
        },
    ])
    .unwrap();
    let roots: Vec<String> = (0..10_001).map(|i| format!("r{i:05}")).collect();
    let order: Vec<String> = roots.iter().map(|r| format!("{r}/default")).collect();
    let new_run = run("r-new", &order);
    let bodies: Vec<serde_json::Value> = roots.iter().map(|r| step("r-new", r)).collect();
    let mut records = vec![NewRecord {
        kind: "stack-run",
        root: "(stack)",
        key: "r-new",
        recorded_at: "2026-11-02T00:00:00Z",
        body: &new_run,
    }];
    for (r, b) in roots.iter().zip(&bodies) {
        records.push(NewRecord {
            kind: "stack-step",
            root: r,
            key: "r-new/default",
            recorded_at: "2026-11-02T00:00:01Z",
            body: b,
        });
    }
    s.append_records(&records).unwrap();
    let st = views::stack_runs(&s).unwrap();
    assert_eq!(st.runs.len(), 2);
    let old = st.runs.iter().find(|r| r.run == "r-old").unwrap();
    assert_eq!(old.steps.len(), 1);
    assert_eq!(
        old.steps[0].outcome, "applied",
        "the old run's step is still read"
    );
    let new = st.runs.iter().find(|r| r.run == "r-new").unwrap();
    assert!(new.steps.iter().all(|s| s.outcome == "applied"));
}

/// The roots of an overview page by page, concatenated, are the whole list in its order (worst
/// first within each layer); every page carries the counts over every root; a page past the end
/// is the last; a bad page parameter is refused saying what is accepted.
#[test]
fn overview_pages_are_the_whole_list_cut_in_order() {
    let (_dir, s) = store();
    let (layers, stale) = (layers(), staleness());
    let names = |o: &ward_report::dashboard::Overview| -> Vec<String> {
        o.layers
            .iter()
            .flat_map(|g| g.roots.iter().map(|r| r.root.clone()))
            .collect()
    };
    let whole = views::overview(&s, &layers, &stale, &Filter::default(), Paging::ALL).unwrap();
    let all = names(&whole);
    assert_eq!(all.len(), 7);
    assert_eq!(whole.page.pages, 1);
    let mut joined = Vec::new();
    for number in 1..=3 {
        let o = views::overview(
            &s,
            &layers,
            &stale,
            &Filter::default(),
            Paging {
                number,
                per_page: 3,
            },
        )
        .unwrap();
        assert_eq!((o.page.number, o.page.pages, o.page.total), (number, 3, 7));
        assert_eq!(o.page.first, (number - 1) * 3 + 1);
        assert_eq!(
            o.statuses, whole.statuses,
            "counts over every root on page {number}"
        );
        assert_eq!((o.roots, o.shown, o.stale), (7, 7, whole.stale));
        joined.extend(names(&o));
    }
    assert_eq!(joined, all);
    let past = views::overview(
        &s,
        &layers,
        &stale,
        &Filter::default(),
        Paging {
            number: 99,
            per_page: 3,
        },
    )
    .unwrap();
    assert_eq!((past.page.number, names(&past)), (3, all[6..].to_vec()));
    assert_eq!(Paging::from_params(None, None).unwrap(), Paging::default());
    assert_eq!(
        Paging::from_params(Some("2"), Some("50")).unwrap(),
        Paging {
            number: 2,
            per_page: 50
        }
    );
    for (p, pp, says) in [
        (Some("0"), None, "page=0: give a page number from 1"),
        (Some("x"), None, "page=x"),
        (None, Some("0"), "per_page=0: give a number from 1 to 1000"),
        (None, Some("100000"), "per_page=100000"),
    ] {
        let e = Paging::from_params(p, pp).unwrap_err();
        assert!(e.contains(says), "{e}");
    }
}

/// The report lists the roots that need attention (not clean, stale, or with an open finding),
/// worst first, at most `max_roots` of them, each with its timeline; `all_roots` lists every
/// root; the counts are over every root either way.
#[test]
fn the_report_lists_the_roots_that_need_attention() {
    let (_dir, s) = store();
    let (layers, stale) = (layers(), staleness());
    let scope = ReportScope {
        all_roots: false,
        max_roots: 0,
        runs: 5,
        recent_runs: 3,
    };
    let r = views::report(&s, &layers, &stale, &scope).unwrap();
    let listed: Vec<&ward_report::dashboard::RootSummary> =
        r.overview.layers.iter().flat_map(|g| &g.roots).collect();
    assert!(!listed.is_empty() && listed.len() < 7, "{}", listed.len());
    for root in &listed {
        assert!(
            root.severity != "ok" || root.stale || root.open_findings > 0,
            "{} needs no attention",
            root.root
        );
    }
    let timelines: Vec<&str> = r.timelines.iter().map(|t| t.root.as_str()).collect();
    let names: Vec<&str> = listed.iter().map(|x| x.root.as_str()).collect();
    assert_eq!(
        timelines, names,
        "a timeline for each listed root, in its order"
    );
    assert_eq!(r.overview.roots, 7);
    assert_eq!(r.recent.len(), 3);
    assert!(
        r.recent.windows(2).all(|w| w[0].run > w[1].run),
        "newest first"
    );
    let cut = views::report(
        &s,
        &layers,
        &stale,
        &ReportScope {
            max_roots: 1,
            ..scope
        },
    )
    .unwrap();
    assert_eq!(cut.timelines.len(), 1);
    assert_eq!(cut.timelines[0].root, names[0], "the worst one");
    assert_eq!(cut.overview.shown, listed.len());
    let every = views::report(
        &s,
        &layers,
        &stale,
        &ReportScope {
            all_roots: true,
            ..scope
        },
    )
    .unwrap();
    assert_eq!(every.timelines.len(), 7);
    assert_eq!(every.overview.statuses, r.overview.statuses);
}
