//! `ward stack approve`'s refusals, before any plan is read (#33: reached only by the Terraform
//! tests, which approve what a real teardown waits on): the instance it names, and a step that
//! waits for nothing, or for what the arguments do not fit.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_stack::journal::Journal;
use ward_stack::report::{PendingApproval, RootOutcome};
use ward_stack::{approve, ApproveArgs};

mod common;

fn args(root: &str, site: Option<&str>, address: &str, all: bool) -> ApproveArgs {
    ApproveArgs {
        root: root.into(),
        site: site.map(str::to_string),
        address: address.into(),
        all,
        reason: "test".into(),
        expires: None,
        by: Some("tester".into()),
    }
}

/// `ward stack approve` in a history whose `network/dc0` (and `dns/default`) last step is
/// `every_change` (a teardown's) or not, waiting on `pending` (a saved plan when `Some`).
fn refusal(a: &ApproveArgs, pending: Option<&[&str]>, every_change: bool) -> String {
    let t = tempfile::tempdir().unwrap();
    let opts = common::options(t.path());
    let mut j = Journal::open_location(&opts.db).unwrap();
    for (root, site) in [("network", "dc0"), ("dns", "default")] {
        let mut s = common::step("r1", root, site, RootOutcome::ApprovalRequired);
        s.every_change = every_change;
        if let Some(addresses) = pending {
            s.pending_plan = Some(t.path().join("plan.json").display().to_string());
            s.report.approvals = addresses
                .iter()
                .map(|address| PendingApproval {
                    address: address.to_string(),
                    action: "delete".into(),
                    impact: "destructive".into(),
                    digest: "sha256:00".into(),
                    status: "missing".into(),
                    command: String::new(),
                })
                .collect();
        }
        j.step(&s, "2026-12-01T00:00:00Z").unwrap();
    }
    drop(j);
    let e = approve(&opts, a, &|_: &str| None).unwrap_err();
    assert_eq!(e.exit(), ward_model::Exit::Usage);
    e.to_string()
}

#[test]
fn the_instance_is_a_root_of_the_stack_at_one_of_its_sites() {
    let e = refusal(&args("nope", None, "a.b", false), Some(&[]), false);
    assert_eq!(
        e,
        "--root nope: no root of the stack has that name; the roots are: app, dns, network"
    );
    let e = refusal(&args("network", None, "a.b", false), Some(&[]), false);
    assert_eq!(
        e,
        "root \"network\" has several sites (dc0, dc1): pass --site"
    );
    let e = refusal(
        &args("network", Some("dc9"), "a.b", false),
        Some(&[]),
        false,
    );
    assert_eq!(
        e,
        "unknown site \"dc9\" for root \"network\"; its sites: dc0, dc1"
    );
}

#[test]
fn an_instance_without_a_saved_plan_waits_for_no_approval() {
    for a in [
        args("network", Some("dc1"), "a.b", false),
        args("network", Some("dc0"), "a.b", false),
        args("dns", None, "a.b", false),
    ] {
        let e = refusal(&a, None, false);
        assert!(
            e.ends_with("waits for no approval: run `ward stack apply` or `ward stack teardown` first; the changes that need one are listed in its report"),
            "{e}"
        );
    }
    // The site named is the one looked at: dc1 has no step, dc0 has.
    let e = refusal(
        &args("network", Some("dc1"), "a.b", false),
        Some(&[]),
        false,
    );
    assert!(e.starts_with("network/dc1 waits for no approval"), "{e}");
}

#[test]
fn the_arguments_fit_what_the_step_waits_on() {
    let e = refusal(&args("dns", None, " ", false), Some(&["a.b"]), true);
    assert_eq!(
        e,
        "give the change to approve with --address, or --all for every destroy a teardown waits on"
    );
    let e = refusal(&args("dns", None, "", true), Some(&["a.b"]), false);
    assert_eq!(
        e,
        "--all approves the destroys a `ward stack teardown` waits on; dns/default waits on an apply's changes: approve each with --address (the report lists the commands)"
    );
    let e = refusal(&args("dns", None, "a.b", true), Some(&["a.b"]), true);
    assert_eq!(e, "give --address or --all, not both");
    let e = refusal(&args("network", Some("dc0"), "", true), Some(&[]), true);
    assert_eq!(
        e,
        "network/dc0 waits for no approval: run `ward stack teardown` first"
    );
}

/// An approval given through `ward stack approve` is recorded in the stack's history under the
/// instance and the run that waited for it; a step recorded without a run records none.
#[test]
fn an_approval_is_recorded_with_the_run_that_waited_for_it() {
    let plan =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans/destroy.json");
    for (run, recorded) in [("r1", Some("r1")), ("", None)] {
        let t = tempfile::tempdir().unwrap();
        let opts = common::options(t.path());
        std::fs::create_dir_all(opts.repo.join("dns")).unwrap();
        std::fs::write(opts.repo.join("dns").join("main.tf"), "").unwrap();
        let mut s = common::step(run, "dns", "default", RootOutcome::ApprovalRequired);
        s.pending_plan = Some(plan.display().to_string());
        let mut j = Journal::open_location(&opts.db).unwrap();
        j.step(&s, "2026-12-01T00:00:00Z").unwrap();
        drop(j);
        let a = args("dns", None, "fakecloud_bucket.backups", false);
        approve(&opts, &a, &|_: &str| None).unwrap();
        let store = ward_store::Store::open_location(&opts.db).unwrap();
        let rows = store
            .approvals(&ward_store::AuditQuery {
                root: Some("dns"),
                limit: 0,
            })
            .unwrap();
        assert_eq!(rows.len(), 1, "run {run:?}");
        let r = &rows[0].approval;
        assert_eq!(
            (r.address.as_str(), r.site.as_deref(), r.run.as_deref()),
            ("fakecloud_bucket.backups", Some("default"), recorded),
            "run {run:?}"
        );
    }
}
