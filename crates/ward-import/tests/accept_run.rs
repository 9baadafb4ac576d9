//! `ward import accept`'s steps (`accept::run`) against a stand-in `terraform`: a shell script
//! that answers `show -json`, `apply`, `plan` and `state pull` from files the test writes, and
//! logs every command it is given. Each test makes one step fail (or none) and checks that the
//! run stops there, says why, runs nothing after it and records nothing unless every step
//! passed. ward-cli's `tests/import_e2e.rs` runs the same steps against real Terraform; these
//! are here so that the crate's own tests reach `run` (docs/testing.md: mutation testing runs a
//! crate's own tests).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_import::accept::{run, AcceptInput, AcceptReport, Acceptance, KIND};
use ward_import::check::{CheckReport, Object, Status};
use ward_store::{RecordQuery, Store};
use ward_terraform::binary::{Binary, Product};
use ward_terraform::Workspace;

const NOW: &str = "2026-12-04T10:00:00Z";

/// One resource change of the stand-in's plans.
fn rc(address: &str, actions: &[&str], importing: Option<&str>) -> Value {
    let (t, n) = address.split_once('.').unwrap();
    let mut change = json!({"actions": actions, "before": {"id": "net-1"}, "after": {"id": "net-1"}, "after_unknown": {}});
    if let Some(id) = importing {
        change["importing"] = json!({"id": id});
    }
    json!({
        "address": address, "mode": "managed", "type": t, "name": n,
        "provider_name": "registry.terraform.io/ward/fakecloud",
        "change": change
    })
}

fn plan_json(changes: Vec<Value>, drift: Vec<Value>) -> String {
    json!({
        "format_version": "1.2", "terraform_version": "1.15.5",
        "resource_changes": changes, "resource_drift": drift
    })
    .to_string()
}

fn state_json(version: u64, id: &str) -> String {
    json!({
        "version": version, "terraform_version": "1.15.5", "serial": 3, "lineage": "l-1",
        "resources": [{
            "mode": "managed", "type": "fakecloud_network", "name": "main",
            "provider": "provider[\"registry.terraform.io/ward/fakecloud\"]",
            "instances": [{"attributes": {"id": id}}]
        }]
    })
    .to_string()
}

/// A root, a stand-in `terraform` answering from files in `ctl`, and a history.
struct Rig {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    ctl: PathBuf,
    binary: Binary,
    planfile: PathBuf,
    db: PathBuf,
}

impl Rig {
    /// Every step passes: the saved plan imports `fakecloud_network.main` (id `net-1`), the
    /// plans after the apply are empty, the state holds the network with its id.
    fn new() -> Rig {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        let ctl = tmp.path().join("ctl");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&ctl).unwrap();
        let script = tmp.path().join("terraform");
        let c = ctl.display();
        std::fs::write(
            &script,
            format!(
                r#"#!/bin/sh
echo "$*" >> '{c}/calls'
case "$1" in
  show)
    for a; do last="$a"; done
    cat '{c}'/show-"$(basename "$last")"
    exit "$(cat '{c}/show.rc' 2>/dev/null || echo 0)" ;;
  apply)
    echo 'Error: apply failed here' >&2
    exit "$(cat '{c}/apply.rc' 2>/dev/null || echo 0)" ;;
  plan)
    for a; do case "$a" in -out=*) : > "${{a#-out=}}" ;; esac; done
    echo 'Error: plan failed here' >&2
    exit "$(cat '{c}/plan.rc' 2>/dev/null || echo 0)" ;;
  state)
    cat '{c}/state.json' ;;
esac
"#
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let planfile = root.join("import.tfplan");
        std::fs::write(&planfile, "saved plan").unwrap();
        let r = Rig {
            root,
            binary: Binary {
                product: Product::Terraform,
                path: script,
                version: ward_version::Version::parse("1.15.5").unwrap(),
            },
            planfile,
            db: tmp.path().join("history.db"),
            ctl,
            _tmp: tmp,
        };
        let net = "fakecloud_network.main";
        r.write(
            "show-import.tfplan",
            &plan_json(vec![rc(net, &["no-op"], Some("net-1"))], vec![]),
        );
        r.write(
            "show-after-plan.tfplan",
            &plan_json(vec![rc(net, &["no-op"], None)], vec![]),
        );
        r.write(
            "show-after-refresh-only.tfplan",
            &plan_json(vec![], vec![rc(net, &["no-op"], None)]),
        );
        r.write("state.json", &state_json(4, "net-1"));
        r
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.ctl.join(name), text).unwrap();
    }

    /// The check record: passed, bound to digest `d1` (the stand-in's saved plan has one
    /// change; the digest is the number of changes), the network with id `net-1`.
    fn check(passed: bool, digest: &str) -> CheckReport {
        CheckReport {
            plan: "import.json".into(),
            inventory: "inventory.json".into(),
            plan_digest: digest.into(),
            terraform_version: Some("1.15.5".into()),
            passed,
            objects: vec![Object {
                address: "fakecloud_network.main".into(),
                id: "net-1".into(),
                status: Status::Import,
                allowed: vec![],
            }],
            problems: vec![],
        }
    }

    fn run(&self, record: &CheckReport) -> AcceptReport {
        let ws = Workspace::new(&self.binary, &self.root, Duration::from_secs(30)).unwrap();
        let digest = |p: &ward_model::Plan| format!("d{}", p.changes.len());
        let mut store = Store::open(&self.db).unwrap();
        run(
            &AcceptInput {
                workspace: &ws,
                planfile: &self.planfile,
                record,
                root: "live/net",
                digest: &digest,
                now: NOW,
            },
            &mut store,
        )
    }

    /// The subcommands the stand-in ran, in order (`show`, `apply`, `plan`, `plan
    /// -refresh-only`, `state`).
    fn calls(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.ctl.join("calls")).unwrap_or_default();
        text.lines()
            .map(|l| {
                let mut words = l.split(' ');
                let first = words.next().unwrap_or_default().to_string();
                if first == "plan" && words.any(|w| w == "-refresh-only") {
                    format!("{first} -refresh-only")
                } else {
                    first
                }
            })
            .collect()
    }

    fn recorded(&self) -> Vec<Acceptance> {
        let store = Store::open(&self.db).unwrap();
        store
            .records(&RecordQuery {
                kind: KIND,
                root: Some("live/net"),
                key: None,
                limit: 0,
            })
            .unwrap()
            .into_iter()
            .map(|r| serde_json::from_value(r.body).unwrap())
            .collect()
    }
}

/// `name:ok` or `name:FAILED`, for each step in order.
fn steps(r: &AcceptReport) -> Vec<String> {
    r.steps
        .iter()
        .map(|s| format!("{}:{}", s.name, if s.ok { "ok" } else { "FAILED" }))
        .collect()
}

/// The failing step's lines, the last step.
fn detail(r: &AcceptReport) -> String {
    r.steps.last().unwrap().detail.join("\n")
}

fn path_of(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn every_step_passes_and_the_acceptance_is_recorded() {
    let rig = Rig::new();
    let r = rig.run(&Rig::check(true, "d1"));
    assert_eq!(
        steps(&r),
        [
            "bind:ok",
            "apply:ok",
            "plan:ok",
            "refresh-only:ok",
            "state:ok",
            "record:ok"
        ]
    );
    assert!(r.accepted);
    assert!(r.steps.iter().all(|s| s.detail.is_empty()), "{r:?}");
    assert_eq!(
        rig.calls(),
        [
            "show",
            "apply",
            "plan",
            "show",
            "plan -refresh-only",
            "show",
            "state"
        ]
    );
    let a = r.acceptance.clone().unwrap();
    assert_eq!(a.root, "live/net");
    assert_eq!(a.plan_digest, "d1");
    assert_eq!((a.lineage.as_str(), a.serial), ("l-1", 3));
    assert_eq!(a.product, "terraform");
    assert_eq!(a.version, "1.15.5");
    assert_eq!(a.binary, path_of(&rig.binary.path));
    assert_eq!(a.accepted_at, NOW);
    assert_eq!(
        a.ids.into_iter().collect::<Vec<_>>(),
        [("fakecloud_network.main".to_string(), "net-1".to_string())]
    );
    assert_eq!(rig.recorded(), [r.acceptance.unwrap()]);
    // The saved plan itself is what is applied.
    let calls = std::fs::read_to_string(rig.ctl.join("calls")).unwrap();
    let apply = calls.lines().find(|l| l.starts_with("apply")).unwrap();
    assert!(
        apply.ends_with(&format!(" {}", path_of(&rig.planfile))),
        "{apply}"
    );
}

#[test]
fn a_saved_plan_that_cannot_be_shown_stops_at_bind() {
    let rig = Rig::new();
    rig.write("show.rc", "1");
    let r = rig.run(&Rig::check(true, "d1"));
    assert_eq!(steps(&r), ["bind:FAILED"]);
    assert!(!r.accepted && r.acceptance.is_none());
    assert!(!detail(&r).is_empty());
    assert_eq!(rig.calls(), ["show"]);
    assert!(rig.recorded().is_empty());
}

#[test]
fn a_saved_plan_other_than_the_checked_one_is_not_applied() {
    let rig = Rig::new();
    let r = rig.run(&Rig::check(true, "d2"));
    assert_eq!(steps(&r), ["bind:FAILED"]);
    assert!(
        detail(&r).contains("is not the plan that was checked"),
        "{r:?}"
    );
    assert_eq!(rig.calls(), ["show"]);
    assert!(!r.accepted);
    assert!(rig.recorded().is_empty());
}

#[test]
fn a_check_that_did_not_pass_is_not_applied() {
    let rig = Rig::new();
    let r = rig.run(&Rig::check(false, "d1"));
    assert_eq!(steps(&r), ["bind:FAILED"]);
    assert!(detail(&r).contains("did not pass"), "{r:?}");
    assert_eq!(rig.calls(), ["show"]);
    assert!(rig.recorded().is_empty());
}

#[test]
fn a_failed_apply_stops_before_planning_again() {
    let rig = Rig::new();
    rig.write("apply.rc", "1");
    let r = rig.run(&Rig::check(true, "d1"));
    assert_eq!(steps(&r), ["bind:ok", "apply:FAILED"]);
    assert!(detail(&r).contains("apply failed here"), "{r:?}");
    assert_eq!(rig.calls(), ["show", "apply"]);
    assert!(!r.accepted);
    assert!(rig.recorded().is_empty());
}

#[test]
fn a_plan_after_the_apply_that_still_changes_something_stops_there() {
    let rig = Rig::new();
    rig.write(
        "show-after-plan.tfplan",
        &plan_json(
            vec![rc("fakecloud_network.main", &["update"], None)],
            vec![],
        ),
    );
    let r = rig.run(&Rig::check(true, "d1"));
    assert_eq!(steps(&r), ["bind:ok", "apply:ok", "plan:FAILED"]);
    assert_eq!(r.steps[2].detail, ["fakecloud_network.main: update"]);
    assert_eq!(rig.calls(), ["show", "apply", "plan", "show"]);
    assert!(!r.accepted);
    assert!(rig.recorded().is_empty());
}

#[test]
fn a_plan_that_fails_after_the_apply_stops_there() {
    let rig = Rig::new();
    rig.write("plan.rc", "1");
    let r = rig.run(&Rig::check(true, "d1"));
    assert_eq!(steps(&r), ["bind:ok", "apply:ok", "plan:FAILED"]);
    assert!(detail(&r).contains("plan failed here"), "{r:?}");
    assert_eq!(rig.calls(), ["show", "apply", "plan"]);
    assert!(rig.recorded().is_empty());
}

#[test]
fn drift_in_the_refresh_only_plan_stops_before_the_state() {
    let rig = Rig::new();
    rig.write(
        "show-after-refresh-only.tfplan",
        &plan_json(
            vec![],
            vec![rc("fakecloud_network.main", &["update"], None)],
        ),
    );
    let r = rig.run(&Rig::check(true, "d1"));
    assert_eq!(
        steps(&r),
        ["bind:ok", "apply:ok", "plan:ok", "refresh-only:FAILED"]
    );
    assert_eq!(
        r.steps[3].detail,
        ["fakecloud_network.main: drift (update)"]
    );
    assert_eq!(
        rig.calls(),
        [
            "show",
            "apply",
            "plan",
            "show",
            "plan -refresh-only",
            "show"
        ]
    );
    assert!(rig.recorded().is_empty());
}

#[test]
fn a_state_without_the_adopted_id_is_not_accepted() {
    let rig = Rig::new();
    rig.write("state.json", &state_json(4, "net-9"));
    let r = rig.run(&Rig::check(true, "d1"));
    assert_eq!(
        steps(&r),
        [
            "bind:ok",
            "apply:ok",
            "plan:ok",
            "refresh-only:ok",
            "state:FAILED"
        ]
    );
    assert!(detail(&r).contains("fakecloud_network.main"), "{r:?}");
    assert!(!r.accepted && r.acceptance.is_none());
    assert!(rig.recorded().is_empty());
}

#[test]
fn a_state_that_cannot_be_read_is_not_accepted() {
    for (state, says) in [
        (state_json(3, "net-1"), "format version 4"),
        ("".to_string(), "did not print JSON"),
        ("{\"serial\": 3}".to_string(), "lineage"),
    ] {
        let rig = Rig::new();
        rig.write("state.json", &state);
        let r = rig.run(&Rig::check(true, "d1"));
        assert_eq!(
            steps(&r),
            [
                "bind:ok",
                "apply:ok",
                "plan:ok",
                "refresh-only:ok",
                "state:FAILED"
            ],
            "{state}"
        );
        assert!(detail(&r).contains(says), "{state}: {r:?}");
        assert!(rig.recorded().is_empty());
    }
}
