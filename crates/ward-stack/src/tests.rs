#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use crate::backup::{backup_dir, private_dir_under, safe_name};
use crate::journal::{self, Journal, RunRecord, StepRecord};
use crate::order::{at_site, instances, Instance};
use crate::report::{Command, RootOutcome, RootReport};
use crate::{resume, status, variable_name, Options};
use std::path::Path;
use ward_config::Config;
use ward_model::Exit;

fn cfg(text: &str) -> Config {
    Config::parse(text, "ward.hcl", Path::new("/repo")).unwrap()
}

const HCL: &str = r#"
layer "substrate" {
  level = 0
}
layer "nodes" {
  level = 1
}
root "network" {
  path = "network"
  layer = "substrate"
  site "dc0" {}
  site "dc1" {}
}
root "dns" {
  path = "dns"
  layer = "substrate"
}
root "instances" {
  path = "instances"
  layer = "nodes"
  reads = ["network", "dns"]
  site "dc0" {}
  site "dc1" {}
}
"#;

#[test]
fn order_sites_and_reads() {
    let c = cfg(HCL);
    let all = instances(&c, Path::new("/repo")).unwrap();
    let ids: Vec<String> = all.iter().map(Instance::id).collect();
    assert_eq!(
        ids,
        [
            "dns/default",
            "network/dc0",
            "network/dc1",
            "instances/dc0",
            "instances/dc1"
        ]
    );
    assert_eq!(all[3].reads, ["network/dc0", "dns/default"]);
    let dc1 = at_site(all.clone(), Some("dc1")).unwrap();
    let ids: Vec<String> = dc1.iter().map(Instance::id).collect();
    assert_eq!(ids, ["dns/default", "network/dc1", "instances/dc1"]);
    let e = at_site(all, Some("dc2")).unwrap_err().to_string();
    assert!(
        e.contains("unknown site \"dc2\"") && e.contains("did you mean"),
        "{e}"
    );
    assert!(e.contains("dc0, dc1"), "{e}");
}

#[test]
fn a_read_of_a_site_the_upstream_lacks_is_refused() {
    let c = cfg(&HCL.replace("  site \"dc1\" {}\n}\nroot \"dns\"", "}\nroot \"dns\""));
    let e = instances(&c, Path::new("/repo")).unwrap_err().to_string();
    assert!(e.contains("has no site \"dc1\""), "{e}");
}

#[test]
fn a_symlink_below_backup_dir_is_never_followed() {
    let t = tempfile::tempdir().unwrap();
    let checkout = t.path().join("repo");
    std::fs::create_dir_all(&checkout).unwrap();
    let base = t.path().join("backups");
    std::fs::create_dir_all(&base).unwrap();
    // backup_dir/<root> planted as a link into the checkout.
    std::os::unix::fs::symlink(&checkout, base.join("live_net")).unwrap();
    let e = private_dir_under(&base, &["live_net", "default"]).unwrap_err();
    assert!(e.contains("is a symbolic link"), "{e}");
    assert!(
        !checkout.join("default").exists(),
        "created inside the checkout"
    );
    // A file where a directory belongs is refused too; real directories are made 0700.
    std::fs::write(base.join("file"), "x").unwrap();
    let e = private_dir_under(&base, &["file", "s"]).unwrap_err();
    assert!(e.contains("not a directory"), "{e}");
    let d = private_dir_under(&base, &["live_app", "eu"]).unwrap();
    assert_eq!(d, base.join("live_app").join("eu"));
    use std::os::unix::fs::PermissionsExt;
    for p in [base.join("live_app"), d.clone()] {
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", p.display());
    }
    // Again: the existing directories are used as they are.
    assert_eq!(private_dir_under(&base, &["live_app", "eu"]).unwrap(), d);
}

/// Options over `HCL` in a checkout `dir/repo` (a `.git` in it), with `backup_dir = b` and the
/// history `dir/h.sqlite`.
fn options_in(dir: &Path, b: &str) -> Options {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let mut c = Config::parse(
        &format!("stack {{\n  backup_dir = \"{b}\"\n}}\n{HCL}"),
        "ward.hcl",
        &repo,
    )
    .unwrap();
    c.path = repo.join("ward.hcl");
    Options {
        config: c,
        knowledge: ward_rules::Knowledge::default(),
        approver: None,
        repo,
        site: None,
        root: None,
        binaries: vec![],
        db: ward_store::Location::Sqlite(dir.join("h.sqlite")),
        clock: ward_time::Clock::System,
        progress: None,
        env: vec![],
        path: None,
    }
}

#[test]
fn backup_dir_must_lie_outside_the_checkout() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    let mk = |b: &str| options_in(t.path(), b);
    let e = backup_dir(&mk("backups")).unwrap_err().to_string();
    assert!(e.contains("inside the checkout"), "{e}");
    // `..` that comes back in, and a symlink that points in, are inside too.
    let e = backup_dir(&mk("../repo/b")).unwrap_err().to_string();
    assert!(e.contains("inside the checkout"), "{e}");
    std::os::unix::fs::symlink(&repo, t.path().join("link")).unwrap();
    let e = backup_dir(&mk("../link/b")).unwrap_err().to_string();
    assert!(e.contains("inside the checkout"), "{e}");
    assert_eq!(
        backup_dir(&mk("../backups")).unwrap(),
        std::fs::canonicalize(t.path()).unwrap().join("backups")
    );
    let mut o = mk("../backups");
    o.config.stack.backup_dir = None;
    assert!(backup_dir(&o).unwrap_err().to_string().contains("not set"));
}

/// A run whose process is gone without recording its end (SIGKILL, a cancelled CI job) is
/// reported as interrupted, at the root it had reached, and `resume` takes it up; a run
/// whose process still runs is neither (#33 item 5).
#[test]
fn a_killed_run_is_reported_interrupted_and_resumable() {
    let t = tempfile::tempdir().unwrap();
    let opts = options_in(t.path(), "../backups");
    // The killed run's process: this one's pid with another start time, which is how a
    // pid reused after the run died looks (ward-exec's ProcessMark tests the other cases).
    let me = journal::Process::current();
    let gone = journal::Process {
        start: me.start + 1,
        ..me.clone()
    };
    let record = |process: journal::Process| RunRecord {
        run: "r1".into(),
        command: Command::Apply,
        site: None,
        root: None,
        status: "running".into(),
        exit_code: None,
        resumes: None,
        order: vec!["network/dc0".into(), "dns/default".into()],
        process: Some(process),
    };
    let mut j = Journal::open_location(&opts.db).unwrap();
    j.run(&record(gone), "2026-12-01T00:00:00Z").unwrap();
    let mut at = RootReport {
        root: "network".into(),
        site: "dc0".into(),
        layer: "substrate".into(),
        level: 0,
        path: "network".into(),
        outcome: RootOutcome::InProgress,
        detail: vec![],
        binary: None,
        changes: None,
        upstream_sha256: None,
        outputs_sha256: None,
        state: None,
        backup: None,
        approvals: vec![],
    };
    at.detail.push("ward stack apply reached this root".into());
    j.step(
        &StepRecord {
            run: "r1".into(),
            report: at,
            pending_plan: None,
            context: None,
            every_change: false,
        },
        "2026-12-01T00:00:01Z",
    )
    .unwrap();
    drop(j);
    let st = status(&opts).unwrap();
    assert_eq!(st.exit, Exit::StackFailed);
    let why = st.stopped.clone().unwrap();
    assert!(
        why.contains("was interrupted") && why.contains("network/dc0"),
        "{why}"
    );
    assert_eq!(st.resume.as_deref(), Some("ward stack resume"));
    assert_eq!(st.roots[0].outcome, RootOutcome::InProgress);
    assert_eq!(st.roots[1].outcome, RootOutcome::NotReached);
    // resume takes it up (it then fails here for want of a Terraform binary, not because
    // the run "is recorded as still running").
    let e = resume(&opts, &|_: &str| None).err().map(|e| e.to_string());
    assert!(
        !e.as_deref().unwrap_or("").contains("still running"),
        "{e:?}"
    );
    // The same record made by this very process: still running, not resumable.
    let mut j = Journal::open_location(&opts.db).unwrap();
    j.run(&record(me), "2026-12-01T00:00:02Z").unwrap();
    drop(j);
    let st = status(&opts).unwrap();
    assert!(st.stopped.unwrap().contains("is still running"));
    assert!(st.resume.is_none());
    let e = resume(&opts, &|_: &str| None).unwrap_err().to_string();
    assert!(e.contains("is still running"), "{e}");
}

#[test]
fn backend_values_stay_literal() {
    assert_eq!(variable_name("my-net.work"), "my_net_work");
    assert_eq!(safe_name("../etc"), ".._etc");
    assert_eq!(safe_name(".."), "___");
    assert_eq!(safe_name("a/b"), "a_b");
    assert_eq!(safe_name("dc-0.x"), "dc-0.x");
}
