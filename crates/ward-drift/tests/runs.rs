//! `ward drift`'s run over a repository where no root gets as far as a Terraform plan: the roots
//! found but not declared, declared but not found, excluded, in another shard, or pinned to a
//! Terraform that no binary is, and the history read back. What a run counts and decides from
//! discovery alone; the checks themselves (init, state pull, plans) are `e2e.rs`'s, against real
//! Terraform.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ward_drift::outcome::Outcome;
use ward_drift::{Exit, Options, Report};

mod common;

/// A root's configuration (a provider configuration says it is applied there); never planned
/// here: every root with it is undeclared or excluded.
const PLAIN: &str = "provider \"null\" {}\n";
/// A root no Terraform can run: its check stops at choosing the binary.
const PINNED: &str = "terraform {\n  required_version = \"= 0.0.1\"\n}\n";

fn write(repo: &Path, rel: &str, text: &str) {
    let p = repo.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn options(repo: &Path, db: PathBuf) -> common::Run {
    common::Run {
        opts: Options {
            repo: repo.to_path_buf(),
            jobs: 2,
            timeout: Duration::from_secs(60),
            shard: None,
            pending: false,
            accept_state: vec![],
            progress: None,
            clock: ward_time::Clock::Fixed("2026-11-29T00:00:00Z".parse().unwrap()),
            env: vec![],
            path: std::env::var_os("PATH"),
            allow_env: vec![],
            notify: None,
            notify_format: Default::default(),
        },
        config: None,
        terraform: None,
        db,
        torn_down: Default::default(),
    }
}

fn outcomes(r: &Report) -> BTreeMap<String, (Outcome, String)> {
    r.roots
        .iter()
        .map(|x| (x.name.clone(), (x.outcome, x.detail.join(" "))))
        .collect()
}

/// Four roots found (one excluded, one declared and pinned out of reach, two undeclared), a
/// module declared as a root, a declared root not on disk, and one excluded and not on disk.
fn repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    write(repo, "live/a/main.tf", PLAIN);
    write(repo, "live/b/main.tf", PLAIN);
    write(repo, "live/sandbox/main.tf", PLAIN);
    write(
        repo,
        "live/pinned/main.tf",
        &format!("{PINNED}module \"lib\" {{\n  source = \"../../modules/lib\"\n}}\n"),
    );
    write(repo, "modules/lib/main.tf", PINNED);
    write(repo, "modules/other/main.tf", PINNED);
    write(
        repo,
        "live/b/other.tf",
        "module \"other\" {\n  source = \"../../modules/other\"\n}\n",
    );
    write(
        repo,
        "ward.hcl",
        r#"
root "pinned" { path = "live/pinned" }
root "lib"    { path = "modules/lib" }
root "other"  { path = "modules/other" }
root "gone"   { path = "live/gone" }
root "old"    { path = "live/old" }
drift {
  exclude "live/sandbox" { reason = "scratch space" }
  exclude "live/old" { reason = "retired" }
}
"#,
    );
    tmp
}

#[test]
fn a_run_counts_what_discovery_found_and_fails_on_every_mismatch() {
    let tmp = repo();
    let r = common::run(&options(tmp.path(), tmp.path().join("h.db"))).unwrap();
    let o = outcomes(&r);
    let names: Vec<&str> = o.keys().map(String::as_str).collect();
    // `old` is declared and excluded: not a root, not missing. `other` is a module called by
    // live/b, and declared: ward.hcl makes it a root (ward-repo reads the `root` blocks), as
    // `lib` is.
    assert_eq!(
        names,
        [
            "gone",
            "lib",
            "live/a",
            "live/b",
            "live/sandbox",
            "other",
            "pinned"
        ],
        "{o:?}"
    );
    assert_eq!(o["live/a"].0, Outcome::Mismatch);
    assert!(o["live/a"].1.contains("not declared in ward.hcl"), "{o:?}");
    assert_eq!(o["live/b"].0, Outcome::Mismatch);
    assert_eq!(
        o["live/sandbox"],
        (Outcome::Excluded, "scratch space".into())
    );
    assert_eq!(o["gone"].0, Outcome::Mismatch);
    assert!(
        o["gone"]
            .1
            .contains("no Terraform/OpenTofu root was found there"),
        "{o:?}"
    );
    for checked in ["pinned", "lib", "other"] {
        assert_eq!(o[checked].0, Outcome::Error, "{checked}: {o:?}");
        assert!(
            o[checked].1.contains("cannot choose terraform or tofu"),
            "{o:?}"
        );
    }
    assert_eq!((r.discovered, r.checked, r.excluded), (6, 5, 1));
    assert_eq!(r.declared_missing, 1);
    assert_eq!(r.counts["mismatch"], 3);
    assert_eq!(r.counts["excluded"], 1);
    assert_eq!(r.counts["error"], 3);
    assert_eq!(r.counts.values().sum::<usize>(), 6 + 1);
    assert_eq!(r.counts["clean"], 0);
    assert_eq!(r.exit, Exit::RootFailed);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
}

#[test]
fn only_excluded_and_undeclared_roots_still_fail_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "live/a/main.tf", PLAIN);
    write(tmp.path(), "live/x/main.tf", PLAIN);
    write(
        tmp.path(),
        "ward.hcl",
        "drift {\n  exclude \"live/x\" { reason = \"not ours\" }\n}\n",
    );
    let r = common::run(&options(tmp.path(), tmp.path().join("h.db"))).unwrap();
    assert_eq!((r.discovered, r.checked, r.excluded), (2, 1, 1));
    assert_eq!(r.exit, Exit::RootFailed, "an undeclared root is a mismatch");
    // Everything excluded: nothing fails, nothing alerts.
    write(
        tmp.path(),
        "ward.hcl",
        "drift {\n  exclude \"live/x\" { reason = \"not ours\" }\n  exclude \"live/a\" { reason = \"nor this\" }\n}\n",
    );
    let r = common::run(&options(tmp.path(), tmp.path().join("h.db"))).unwrap();
    assert_eq!((r.discovered, r.checked, r.excluded), (2, 0, 2));
    assert_eq!(r.exit, Exit::Pass);
    assert_eq!(r.counts["excluded"], 2);
}

#[test]
fn a_repository_without_roots_fails() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "README.md", "no roots here\n");
    let r = common::run(&options(tmp.path(), tmp.path().join("h.db"))).unwrap();
    assert_eq!(r.discovered, 0);
    assert!(r.roots.is_empty());
    assert_eq!(r.exit, Exit::RootFailed);
    assert!(
        r.problems
            .iter()
            .any(|p| p.contains("zero roots discovered")),
        "{:?}",
        r.problems
    );
}

#[test]
fn shards_partition_the_roots_found_and_declared() {
    let tmp = tempfile::tempdir().unwrap();
    let roots: Vec<String> = (0..8).map(|i| format!("live/r{i}")).collect();
    for r in &roots {
        write(tmp.path(), &format!("{r}/main.tf"), PLAIN);
    }
    let declared: Vec<String> = (0..8).map(|i| format!("live/gone{i}")).collect();
    let hcl: String = declared
        .iter()
        .enumerate()
        .map(|(i, p)| format!("root \"gone{i}\" {{ path = \"{p}\" }}\n"))
        .collect();
    write(tmp.path(), "ward.hcl", &hcl);
    let mut seen: Vec<String> = Vec::new();
    for k in 1..=2 {
        let mut o = options(tmp.path(), tmp.path().join("h.db"));
        o.shard = Some((k, 2));
        let r = common::run(&o).unwrap();
        assert_eq!(r.shard.as_deref(), Some(format!("{k}/2").as_str()));
        let found: Vec<&String> = roots
            .iter()
            .filter(|p| ward_drift::shard_of(p, 2) == k)
            .collect();
        let missing: Vec<&String> = declared
            .iter()
            .filter(|p| ward_drift::shard_of(p, 2) == k)
            .collect();
        assert!(
            !found.is_empty() && found.len() < roots.len(),
            "a shard of each"
        );
        assert!(
            !missing.is_empty() && missing.len() < declared.len(),
            "a shard of each"
        );
        assert_eq!(r.discovered, found.len());
        assert_eq!(r.declared_missing, missing.len());
        let mut paths: Vec<String> = r.roots.iter().map(|x| x.path.clone()).collect();
        let mut want: Vec<String> = found
            .iter()
            .chain(&missing)
            .map(|s| s.to_string())
            .collect();
        paths.sort();
        want.sort();
        assert_eq!(paths, want, "shard {k}/2");
        seen.extend(paths);
    }
    seen.sort();
    let mut all: Vec<String> = roots.iter().chain(&declared).cloned().collect();
    all.sort();
    assert_eq!(seen, all, "the shards together are every root once");
}

#[test]
fn the_history_holds_the_findings_recorded() {
    use ward_store::{Finding, Location, Store};
    let tmp = tempfile::tempdir().unwrap();
    let mut store = Store::open_location(&Location::Sqlite(tmp.path().join("h.db"))).unwrap();
    let now = "2026-11-29T00:00:00Z";
    let run = store.begin_run(now, None).unwrap();
    let finding = |address: &str, attribute: &str| Finding {
        address: address.into(),
        attribute: attribute.into(),
        impact: "replace".into(),
    };
    store
        .apply_findings(
            run,
            now,
            "app",
            &[finding("fakecloud_volume.data", "size_gb")],
        )
        .unwrap();
    store
        .apply_findings(
            run,
            now,
            "net",
            &[finding("fakecloud_instance.web", "image")],
        )
        .unwrap();
    store.finish_run(run, now, 1).unwrap();
    let all = ward_drift::history::read(&store, None, 10).unwrap();
    let got: Vec<(&str, &str)> = all
        .findings()
        .iter()
        .map(|f| (f.root.as_str(), f.attribute.as_str()))
        .collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got.contains(&("app", "size_gb")) && got.contains(&("net", "image")));
    let app = ward_drift::history::read(&store, Some("app"), 10).unwrap();
    assert_eq!(app.findings().len(), 1);
    assert_eq!(app.findings()[0].address, "fakecloud_volume.data");
    assert!(app.findings()[0].resolved.is_none());
}

/// What [`progress_is_told_of_each_root_checked`]'s run told its `progress` (the only test that
/// sets [`told`]).
static TOLD: std::sync::Mutex<Vec<(usize, usize, String, Outcome)>> =
    std::sync::Mutex::new(Vec::new());

fn told(done: usize, total: usize, r: &ward_drift::RootResult) {
    TOLD.lock()
        .unwrap()
        .push((done, total, r.path.clone(), r.outcome));
}

/// The run tells `progress` of each root instance as its check finishes: how many have finished,
/// of how many, and its result (ward-cli prints the line; the library writes nothing).
#[test]
fn progress_is_told_of_each_root_checked() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["one", "two"] {
        write(tmp.path(), &format!("live/{name}/main.tf"), PINNED);
    }
    write(
        tmp.path(),
        "ward.hcl",
        "root \"one\" { path = \"live/one\" }\nroot \"two\" { path = \"live/two\" }\n",
    );
    let mut o = options(tmp.path(), tmp.path().join("h.db"));
    o.progress = Some(told);
    o.jobs = 1;
    common::run(&o).unwrap();
    let got = TOLD.lock().unwrap().clone();
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        (got[0].0, got[0].1, got[0].3),
        (1, 2, Outcome::Error),
        "{got:?}"
    );
    assert_eq!((got[1].0, got[1].1), (2, 2), "{got:?}");
    let mut paths: Vec<&str> = got.iter().map(|g| g.2.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["live/one", "live/two"]);
}

/// A --notify URL that cannot be a webhook is refused before anything runs: no history is
/// written (it used to be refused only when the POST failed, after the run was recorded).
#[test]
fn a_bad_notify_url_is_refused_before_the_history_is_written() {
    let tmp = repo();
    let db = tmp.path().join("h.db");
    let mut o = options(tmp.path(), db.clone());
    o.notify = Some("hooks.example/ward-drift".into());
    let e = common::run(&o).unwrap_err();
    assert!(
        e.to_string()
            .contains("the webhook must be an https:// (or http://) URL"),
        "{e}"
    );
    assert!(!db.exists(), "no history database was written");
    // The same run with a good URL writes its history (and has no transition to send).
    o.notify = Some("http://127.0.0.1:9/hook".into());
    let r = common::run(&o).unwrap();
    assert!(db.exists());
    assert!(r.transitions.is_empty());
    assert!(
        !r.problems.iter().any(|p| p.contains("--notify")),
        "{:?}",
        r.problems
    );
}

/// A run is journaled as it moves (running, then finished in its own transaction); a run whose
/// `running` record outlived its process is told as interrupted by the history and, once, by
/// the next run.
#[test]
fn a_run_whose_process_is_gone_is_told_as_interrupted() {
    use ward_store::{Location, NewRecord, Store};
    let tmp = repo();
    let db = tmp.path().join("h.db");
    // A run that recorded its start on this machine and never its end: its pid is gone.
    {
        let mut store = Store::open_location(&Location::Sqlite(db.clone())).unwrap();
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_string())
            .unwrap_or_else(|_| "unknown".into());
        let body = serde_json::json!({"status": "running", "started_at": "2026-11-28T00:00:00Z",
            "process": {"pid": u32::MAX - 1, "host": host, "start": 1}});
        store
            .append_record(&NewRecord {
                kind: ward_drift::journal::KIND,
                root: ward_drift::journal::ROOT,
                key: "killed",
                recorded_at: "2026-11-28T00:00:00Z",
                body: &body,
            })
            .unwrap();
    }
    let r = common::run(&options(tmp.path(), db.clone())).unwrap();
    let said: Vec<&String> = r
        .problems
        .iter()
        .filter(|p| p.contains("was interrupted"))
        .collect();
    if !std::path::Path::new("/proc/self/stat").exists() {
        return; // liveness is read from /proc
    }
    assert_eq!(said.len(), 1, "{:?}", r.problems);
    assert!(said[0].contains("started 2026-11-28T00:00:00Z"), "{said:?}");
    let store = Store::open_location(&Location::Sqlite(db.clone())).unwrap();
    let h = ward_drift::history::read(&store, None, 10).unwrap();
    let ward_drift::History::Runs {
        runs, unfinished, ..
    } = h
    else {
        panic!("runs")
    };
    assert_eq!(runs.len(), 1, "this run ended and is recorded");
    assert_eq!(unfinished.len(), 1, "{unfinished:?}");
    assert_eq!(unfinished[0].state, "interrupted");
    // Said once: the next run does not repeat it.
    let r = common::run(&options(tmp.path(), db)).unwrap();
    assert!(
        !r.problems.iter().any(|p| p.contains("was interrupted")),
        "{:?}",
        r.problems
    );
}
