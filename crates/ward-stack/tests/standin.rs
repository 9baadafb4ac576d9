//! `ward stack`'s Terraform steps against a stand-in `terraform`: a shell script that keeps each
//! root's "state" in files under the root (`.standin/`), so a run takes milliseconds instead of
//! the minutes of real Terraform (`tests/e2e.rs`, which runs the same commands against Terraform
//! and fakecloud). `plan` makes a create until the root is applied and a delete while it is;
//! `show -json` prints the matching plan; `apply` moves the state; `output -json` and `state
//! pull` print what the root holds. Each test scripts one path of apply, teardown, resume or the
//! gate and checks the outcome, the exit and what was run. Mutation testing runs a crate's own
//! tests, which these are (docs/testing.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use ward_model::Exit;
use ward_stack::report::{RootOutcome, StackReport};
use ward_stack::{ApproveArgs, Options};
use ward_terraform::binary::{Binary, Product};

const SCRIPT: &str = r#"#!/bin/sh
d="$(pwd -P)/.standin"
echo "$*" >> "$d/calls"
echo "${STANDIN_MARK:-unset}" >> "$d/env"
last=""
for a; do last="$a"; done
case "$1" in
  version) echo '{"terraform_version":"1.15.5"}' ;;
  init) exit 0 ;;
  plan)
    out=""; destroy=0
    for a; do
      case "$a" in
        -out=*) out="${a#-out=}" ;;
        -destroy) destroy=1 ;;
      esac
    done
    if [ -f "$d/plan.fail" ]; then echo 'Error: plan failed here' >&2; exit 1; fi
    for a; do
      case "$a" in
        -var-file=/*) cat "${a#-var-file=}" >> "$d/upstream"; echo >> "$d/upstream" ;;
      esac
    done
    if [ $destroy = 1 ]; then
      if [ -f "$d/state.json" ] && [ -f "$d/applied" ]; then echo destroy > "$out"; exit 2; fi
      echo none > "$out"; exit 0
    fi
    if [ -f "$d/applied" ] && [ ! -f "$d/diverge" ]; then echo none > "$out"; exit 0; fi
    echo create > "$out"; exit 2 ;;
  show) cat "$d/$(cat "$last").json" ;;
  apply)
    if [ -f "$d/apply.fail" ]; then echo 'Error: apply failed here' >&2; exit 1; fi
    case "$(cat "$last")" in
      create) touch "$d/applied"; cp "$d/state-applied.json" "$d/state.json" ;;
      destroy)
        rm -f "$d/applied"
        [ -f "$d/destroy.keeps" ] || cp "$d/state-empty.json" "$d/state.json" ;;
    esac ;;
  state) if [ -f "$d/state.json" ]; then cat "$d/state.json"; fi ;;
  output) if [ -f "$d/applied" ]; then cat "$d/outputs.json"; else echo '{}'; fi ;;
  *) echo "stand-in: $*" >&2; exit 1 ;;
esac
"#;

/// Two layers: `net` (L0) and `app` (L1, reads `net`), one site (`dc0`, with a var file), the
/// stand-in as the binary, the history and the backups outside the checkout.
struct Stack {
    tmp: tempfile::TempDir,
    binary: Binary,
    /// One fixed time for every run: what the history records them at.
    clock: ward_time::Clock,
}

fn plan_json(action: &str, root: &str) -> String {
    let (before, after) = match action {
        "create" => (json!(null), json!({"input": root})),
        "delete" => (
            json!({"id": format!("{root}-1"), "input": root}),
            json!(null),
        ),
        _ => (
            json!({"id": format!("{root}-1"), "input": root}),
            json!({"id": format!("{root}-1"), "input": root}),
        ),
    };
    let changes = if action == "none" {
        vec![]
    } else {
        vec![json!({
            "address": "terraform_data.main", "mode": "managed", "type": "terraform_data",
            "name": "main", "provider_name": "terraform.io/builtin/terraform",
            "change": {"actions": [action], "before": before, "after": after,
                       "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}}
        })]
    };
    json!({"format_version": "1.2", "terraform_version": "1.15.5", "resource_changes": changes})
        .to_string()
}

fn state_json(root: &str, serial: i64, resources: bool) -> String {
    let resources = if resources {
        json!([{"mode": "managed", "type": "terraform_data", "name": "main",
                "provider": "provider[\"terraform.io/builtin/terraform\"]",
                "instances": [{"attributes": {"id": format!("{root}-1"), "input": root}}]}])
    } else {
        json!([])
    };
    json!({"version": 4, "terraform_version": "1.15.5", "serial": serial,
           "lineage": format!("lineage-{root}"), "resources": resources})
    .to_string()
}

impl Stack {
    fn new() -> Stack {
        Stack::with("", &[])
    }

    /// [`Stack::new`] with `more` added to its `ward.hcl` and the roots `extra` made too.
    fn with(more: &str, extra: &[&str]) -> Stack {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(
            repo.join("ward.hcl"),
            r#"stack {
  backup_dir = "../backups"
}
layer "base" {
  level = 0
}
layer "apps" {
  level = 1
}
root "net" {
  path  = "net"
  layer = "base"
  site "dc0" {
    var_files = ["dc0.tfvars"]
  }
}
root "app" {
  path  = "app"
  layer = "apps"
  reads = ["net"]
  site "dc0" {
    var_files = ["dc0.tfvars"]
  }
  pre_destroy "drained" {
    command = ["sh", "-c", "test ! -e ../hold || { echo 'held: the site is on hold' >&2; echo; exit 1; }"]
    timeout = "30s"
  }
}
"#
            .to_string()
                + more,
        )
        .unwrap();
        for root in ["net", "app"].iter().chain(extra) {
            let root = *root;
            let dir = repo.join(root);
            let d = dir.join(".standin");
            std::fs::create_dir_all(&d).unwrap();
            let mut tf = "resource \"terraform_data\" \"main\" {}\n".to_string();
            if root == "app" {
                tf.push_str("variable \"net\" {}\n");
            }
            std::fs::write(dir.join("main.tf"), tf).unwrap();
            std::fs::write(dir.join("dc0.tfvars"), "").unwrap();
            std::fs::write(d.join("create.json"), plan_json("create", root)).unwrap();
            std::fs::write(d.join("destroy.json"), plan_json("delete", root)).unwrap();
            std::fs::write(d.join("none.json"), plan_json("none", root)).unwrap();
            std::fs::write(d.join("state-applied.json"), state_json(root, 1, true)).unwrap();
            std::fs::write(d.join("state-empty.json"), state_json(root, 2, false)).unwrap();
            std::fs::write(
                d.join("outputs.json"),
                json!({"id": {"value": format!("{root}-1"), "type": "string", "sensitive": false}})
                    .to_string(),
            )
            .unwrap();
        }
        let script = tmp.path().join("terraform");
        std::fs::write(&script, SCRIPT).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        Stack {
            binary: ward_terraform::binary::probe(&script, Some(Product::Terraform)).unwrap(),
            clock: ward_time::Clock::Fixed(ward_time::Clock::System.now()),
            tmp,
        }
    }

    fn repo(&self) -> PathBuf {
        self.tmp.path().join("repo")
    }

    fn opts(&self) -> Options {
        let path = self.repo().join("ward.hcl");
        let config = ward_config::Config::load(&path, "ward.hcl").unwrap();
        Options {
            knowledge: ward_config::knowledge(Some(&config)).unwrap(),
            approver: None,
            config,
            repo: self.repo(),
            site: None,
            root: None,
            binaries: vec![self.binary.clone()],
            db: ward_store::Location::Sqlite(self.tmp.path().join("history.sqlite")),
            clock: self.clock,
            progress: None,
            env: vec![("STANDIN_MARK".into(), "from-the-stack".into())],
            path: std::env::var_os("PATH"),
        }
    }

    fn standin(&self, root: &str) -> PathBuf {
        self.repo().join(root).join(".standin")
    }

    /// Makes `what` (`apply.fail`, `plan.fail`, `diverge`, `destroy.keeps`) hold for `root`.
    fn set(&self, root: &str, what: &str) {
        std::fs::write(self.standin(root).join(what), "").unwrap();
    }

    fn unset(&self, root: &str, what: &str) {
        let _ = std::fs::remove_file(self.standin(root).join(what));
    }

    /// The subcommands run in `root`, in order (`plan -destroy` marked).
    fn calls(&self, root: &str) -> Vec<String> {
        std::fs::read_to_string(self.standin(root).join("calls"))
            .unwrap_or_default()
            .lines()
            .map(|l| {
                let first = l.split(' ').next().unwrap_or_default();
                if first == "plan" && l.split(' ').any(|w| w == "-destroy") {
                    "plan -destroy".to_string()
                } else {
                    first.to_string()
                }
            })
            .collect()
    }

    /// The arguments of the `n`th `plan` run in `root`.
    fn plan_args(&self, root: &str, n: usize) -> String {
        std::fs::read_to_string(self.standin(root).join("calls"))
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("plan"))
            .nth(n)
            .unwrap()
            .to_string()
    }

    fn clear_calls(&self) {
        for root in ["net", "app"] {
            let _ = std::fs::remove_file(self.standin(root).join("calls"));
            let _ = std::fs::remove_file(self.standin(root).join("upstream"));
        }
    }

    /// What the stand-in was given as upstream outputs in `root` (the generated var files).
    fn upstream(&self, root: &str) -> String {
        std::fs::read_to_string(self.standin(root).join("upstream")).unwrap_or_default()
    }

    /// Each time the history recorded a step of the stack, when.
    fn step_times(&self) -> Vec<String> {
        let store = ward_store::Store::open_location(&self.opts().db).unwrap();
        store
            .records(&ward_store::RecordQuery {
                kind: "stack-step",
                root: None,
                key: None,
                limit: 0,
            })
            .unwrap()
            .into_iter()
            .map(|r| r.recorded_at)
            .collect()
    }

    fn applied(&self, root: &str) -> bool {
        self.standin(root).join("applied").exists()
    }

    /// Approves every change the roots of `r` wait on, one `ward stack approve` each.
    fn approve_all(&self, r: &StackReport) -> usize {
        let mut n = 0;
        for x in &r.roots {
            for a in &x.approvals {
                ward_stack::approve(
                    &self.opts(),
                    &ApproveArgs {
                        root: x.root.clone(),
                        site: Some(x.site.clone()),
                        address: a.address.clone(),
                        all: false,
                        reason: "stand-in teardown".into(),
                        expires: None,
                        by: Some("tester".into()),
                    },
                    &env,
                )
                .unwrap();
                n += 1;
            }
        }
        n
    }
}

fn env(_: &str) -> Option<String> {
    None
}

fn outcomes(r: &StackReport) -> Vec<(String, RootOutcome)> {
    r.roots
        .iter()
        .map(|x| (x.root.clone(), x.outcome))
        .collect()
}

/// A root's counts: (create, update, delete, replace).
fn kinds(r: &ward_stack::report::RootReport) -> (usize, usize, usize, usize) {
    let c = r.changes.unwrap();
    (c.create, c.update, c.delete, c.replace)
}

fn o(root: &str, outcome: RootOutcome) -> (String, RootOutcome) {
    (root.to_string(), outcome)
}

fn text(r: &StackReport) -> String {
    format!("{r:?}")
}

fn backups(dir: &Path) -> usize {
    walk(dir).iter().filter(|p| p.ends_with(".tfstate")).count()
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p.display().to_string());
            }
        }
    }
    out
}

/// What the progress callback was told: (done, total, instance, what).
static TOLD: std::sync::Mutex<Vec<(usize, usize, String, String)>> =
    std::sync::Mutex::new(Vec::new());

fn told(done: usize, total: usize, instance: &str, what: &str) {
    TOLD.lock()
        .unwrap()
        .push((done, total, instance.to_string(), what.to_string()));
}

/// What the progress callback of the apply test was told (a static of its own: the tests run
/// at the same time).
static TOLD_APPLY: std::sync::Mutex<Vec<(usize, usize, String, String)>> =
    std::sync::Mutex::new(Vec::new());

fn told_apply(done: usize, total: usize, instance: &str, what: &str) {
    TOLD_APPLY
        .lock()
        .unwrap()
        .push((done, total, instance.to_string(), what.to_string()));
}

#[test]
fn plan_blocks_a_downstream_root_whose_upstream_changes() {
    // A third root, `web`, in the upper layer but reading nobody: planned after `app` is
    // blocked.
    let s = Stack::with(
        "root \"web\" {\n  path  = \"web\"\n  layer = \"apps\"\n  site \"dc0\" {}\n}\n",
        &["web"],
    );
    // net's plan makes one change of each kind.
    let each: Vec<serde_json::Value> = [
        ("create", "a"),
        ("update", "b"),
        ("delete", "c"),
        ("no-op", "d"),
    ]
    .iter()
    .map(|(action, name)| {
        let mut v: serde_json::Value = serde_json::from_str(&plan_json(action, "net")).unwrap();
        let mut c = v["resource_changes"][0].take();
        c["address"] = json!(format!("terraform_data.{name}"));
        c["name"] = json!(name);
        c
    })
    .chain([{
        let v: serde_json::Value = serde_json::from_str(&plan_json("delete", "net")).unwrap();
        let mut c = v["resource_changes"][0].clone();
        c["address"] = json!("terraform_data.e");
        c["name"] = json!("e");
        c["change"]["actions"] = json!(["create", "delete"]);
        c
    }])
    .collect();
    std::fs::write(
        s.standin("net").join("create.json"),
        json!({"format_version": "1.2", "terraform_version": "1.15.5", "resource_changes": each})
            .to_string(),
    )
    .unwrap();
    let mut opts = s.opts();
    opts.progress = Some(told);
    let r = ward_stack::plan(&opts, &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("net", RootOutcome::Changes),
            o("app", RootOutcome::BlockedByUpstream),
            o("web", RootOutcome::Changes)
        ]
    );
    assert_eq!(kinds(&r.roots[0]), (1, 1, 1, 1));
    assert!(!s.applied("net") && !s.applied("app"));
    // Each plan with the site's var file.
    assert!(s.plan_args("net", 0).contains("-var-file=dc0.tfvars"));
    assert!(s.calls("app").is_empty());
    // Told of each root planned, with how many were done before it (app, blocked, counts).
    let told = TOLD.lock().unwrap().clone();
    assert_eq!(
        told,
        [
            (0, 3, "net/dc0".to_string(), "plan".to_string()),
            (2, 3, "web/dc0".to_string(), "plan".to_string())
        ]
    );
}

#[test]
fn apply_goes_forward_passes_outputs_down_and_converges() {
    let s = Stack::new();
    let mut opts = s.opts();
    opts.progress = Some(told_apply);
    let r = ward_stack::apply(&opts, &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", text(&r));
    // The run's id is its start and its command; nothing to resume.
    assert_eq!(r.run, Some(format!("{}-apply", s.clock.now_rfc3339())));
    assert_eq!(r.resume, None);
    let told: Vec<(usize, String)> = TOLD_APPLY
        .lock()
        .unwrap()
        .iter()
        .map(|(done, total, inst, _)| {
            assert_eq!(*total, 2);
            (*done, inst.clone())
        })
        .collect();
    assert_eq!(told.first(), Some(&(0, "net/dc0".to_string())), "{told:?}");
    assert_eq!(told.last(), Some(&(1, "app/dc0".to_string())), "{told:?}");
    assert_eq!(
        outcomes(&r),
        [
            o("net", RootOutcome::Applied),
            o("app", RootOutcome::Applied)
        ]
    );
    assert!(s.applied("net") && s.applied("app"));
    for x in &r.roots {
        assert_eq!(kinds(x), (1, 0, 0, 0), "{}", x.root);
        let st = x.state.as_ref().unwrap();
        assert_eq!((st.serial, st.resources), (1, 1), "{}", x.root);
        assert_eq!(st.lineage, format!("lineage-{}", x.root));
        assert!(x.outputs_sha256.is_some(), "{}", x.root);
    }
    // Plan, gate (show), apply, outputs, state, then a plan that must find nothing.
    assert_eq!(
        s.calls("net"),
        ["init", "plan", "show", "apply", "output", "state", "plan"]
    );
    // Each plan gets the site's var file; app's also net's outputs, through a var file of
    // their own, in the plan after the apply too.
    for (root, n, files) in [("net", 0, 1), ("net", 1, 1), ("app", 0, 2), ("app", 1, 2)] {
        let args = s.plan_args(root, n);
        assert!(args.contains("-var-file=dc0.tfvars"), "{root} {n}: {args}");
        assert_eq!(
            args.matches("-var-file=").count(),
            files,
            "{root} {n}: {args}"
        );
    }
    // app was given net's outputs; every command ran with the stack's variables.
    assert!(s.upstream("app").contains("net-1"), "{}", s.upstream("app"));
    for root in ["net", "app"] {
        let env = std::fs::read_to_string(s.standin(root).join("env")).unwrap();
        assert!(env.lines().all(|l| l == "from-the-stack"), "{root}: {env}");
    }
    // Each step recorded at the run's time.
    let times = s.step_times();
    assert!(!times.is_empty());
    assert!(
        times.iter().all(|t| *t == s.clock.now_rfc3339()),
        "{times:?}"
    );
    // Applied again: nothing to change, nothing shown or applied.
    s.clear_calls();
    let again = ward_stack::apply(&s.opts(), &env).unwrap();
    assert_eq!(again.exit, Exit::Pass, "{}", text(&again));
    assert_eq!(
        outcomes(&again),
        [
            o("net", RootOutcome::Unchanged),
            o("app", RootOutcome::Unchanged)
        ]
    );
    assert_eq!(s.calls("net"), ["init", "plan", "output", "state"]);
    // Counted, as nothing: the plan said there are no changes.
    for x in &again.roots {
        assert_eq!(kinds(x), (0, 0, 0, 0), "{}", x.root);
    }
    let status = ward_stack::status(&s.opts()).unwrap();
    assert_eq!(status.exit, Exit::Pass, "{}", text(&status));
}

#[test]
fn a_root_that_does_not_converge_stops_the_apply() {
    let s = Stack::new();
    s.set("net", "diverge");
    let r = ward_stack::apply(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::StackFailed, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("net", RootOutcome::Failed),
            o("app", RootOutcome::NotReached)
        ]
    );
    let why = r.roots[0].detail.join("\n");
    assert!(
        why.contains("does not converge") && why.contains("1 to create"),
        "{why}"
    );
    assert!(s.calls("app").is_empty());
}

#[test]
fn a_failed_apply_stops_the_stack_and_resume_finishes_it() {
    let s = Stack::new();
    s.set("app", "apply.fail");
    let r = ward_stack::apply(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::StackFailed, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("net", RootOutcome::Applied),
            o("app", RootOutcome::Failed)
        ]
    );
    assert!(r.roots[1].detail.join("\n").contains("apply failed here"));
    let status = ward_stack::status(&s.opts()).unwrap();
    assert_ne!(status.exit, Exit::Pass, "{}", text(&status));
    // Resumed: net, finished before, is checked again (no changes, same outputs); app applied.
    s.unset("app", "apply.fail");
    s.clear_calls();
    let r = ward_stack::resume(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("net", RootOutcome::Verified),
            o("app", RootOutcome::Applied)
        ]
    );
    assert!(!s.calls("net").contains(&"apply".to_string()));
    assert!(s.applied("app"));
    // A root finished in the resumed run that now plans changes is refused, not applied.
    let s = Stack::new();
    s.set("app", "apply.fail");
    ward_stack::apply(&s.opts(), &env).unwrap();
    s.unset("app", "apply.fail");
    s.set("net", "diverge");
    let r = ward_stack::resume(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::StackFailed, "{}", text(&r));
    assert_eq!(r.roots[0].outcome, RootOutcome::Failed);
    let why = r.roots[0].detail.join("\n");
    assert!(why.contains("now plans changes (1 to create,"), "{why}");
}

#[test]
fn teardown_goes_in_reverse_each_destroy_approved_each_state_backed_up() {
    let s = Stack::new();
    assert_eq!(ward_stack::apply(&s.opts(), &env).unwrap().exit, Exit::Pass);
    s.clear_calls();
    // app first (the upper layer); its destroy needs its own approval.
    let r = ward_stack::teardown(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("app", RootOutcome::ApprovalRequired),
            o("net", RootOutcome::NotReached)
        ]
    );
    let app = &r.roots[0];
    assert_eq!(app.approvals.len(), 1);
    assert_eq!(app.approvals[0].address, "terraform_data.main");
    assert!(app.approvals[0].digest.starts_with("sha256:"));
    assert_eq!(
        app.approvals[0].command,
        "ward stack approve --config ward.hcl --site dc0 --root app --address terraform_data.main --reason \"...\""
    );
    assert_eq!(app.changes.unwrap().delete, 1);
    // The destroy plan with the site's var file and net's outputs.
    let destroy = s.plan_args("app", 0);
    assert!(
        destroy.contains("-destroy") && destroy.contains("-var-file=dc0.tfvars"),
        "{destroy}"
    );
    // Its destroy plan was given net's outputs, read now (net is not torn down yet).
    let given = s.upstream("app");
    assert!(
        given.contains("net-1") && !given.contains("app-1"),
        "{given}"
    );
    assert!(s.applied("app"), "nothing destroyed before the approval");
    assert_eq!(backups(&s.tmp.path().join("backups")), 1);
    // The plan waiting for approval is kept beside the backups for `ward stack approve`.
    assert!(walk(&s.tmp.path().join("backups"))
        .iter()
        .any(|p| p.ends_with("destroy.plan.json")));
    assert_eq!(r.resume.as_deref(), Some("ward stack resume"));
    assert_eq!(s.approve_all(&r), 1);
    let r = ward_stack::resume(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("app", RootOutcome::Destroyed),
            o("net", RootOutcome::ApprovalRequired)
        ]
    );
    assert!(!s.applied("app"));
    assert_eq!(r.roots[0].state.as_ref().unwrap().resources, 0);
    assert_eq!(s.approve_all(&r), 1);
    let r = ward_stack::resume(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", text(&r));
    assert_eq!(r.roots[1].outcome, RootOutcome::Destroyed);
    assert!(!s.applied("net"));
    assert_eq!(backups(&s.tmp.path().join("backups")), 2);
    assert_eq!(r.resume, None);
    // The plans kept for `ward stack approve` are spent once applied.
    let left = walk(&s.tmp.path().join("backups"));
    assert!(!left.iter().any(|p| p.ends_with(".plan.json")), "{left:?}");
    // Torn down again: each root is already empty, nothing planned.
    s.clear_calls();
    let r = ward_stack::teardown(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("app", RootOutcome::AlreadyEmpty),
            o("net", RootOutcome::AlreadyEmpty)
        ]
    );
    assert!(!s.calls("net").iter().any(|c| c.starts_with("plan")));
}

#[test]
fn a_destroy_that_leaves_resources_is_a_failure_with_the_backup_named() {
    let s = Stack::new();
    assert_eq!(ward_stack::apply(&s.opts(), &env).unwrap().exit, Exit::Pass);
    let mut o2 = s.opts();
    o2.root = Some("app".into());
    let r = ward_stack::teardown(&o2, &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", text(&r));
    s.approve_all(&r);
    s.set("app", "destroy.keeps");
    let r = ward_stack::resume(&o2, &env).unwrap();
    assert_eq!(r.exit, Exit::StackFailed, "{}", text(&r));
    let why = r.roots[0].detail.join("\n");
    assert!(why.contains("still holds 1 resource(s)"), "{why}");
    assert!(why.contains("backups"), "{why}");
}

#[test]
fn a_failed_plan_is_the_roots_failure() {
    let s = Stack::new();
    s.set("net", "plan.fail");
    for r in [
        ward_stack::plan(&s.opts(), &env).unwrap(),
        ward_stack::apply(&s.opts(), &env).unwrap(),
    ] {
        assert_eq!(r.exit, Exit::StackFailed, "{}", text(&r));
        assert_eq!(r.roots[0].outcome, RootOutcome::Failed);
        assert!(r.roots[0].detail.join("\n").contains("plan failed here"));
    }
    // A failed apply can be resumed; a plan is never resumed.
    let plan = ward_stack::plan(&s.opts(), &env).unwrap();
    assert_eq!(plan.resume, None);
    let apply = ward_stack::apply(&s.opts(), &env).unwrap();
    assert_eq!(apply.resume.as_deref(), Some("ward stack resume"));
}

#[test]
fn teardown_of_one_root_proves_the_others_unchanged_and_refuses_what_is_still_read() {
    let s = Stack::new();
    assert_eq!(ward_stack::apply(&s.opts(), &env).unwrap().exit, Exit::Pass);
    let only = |root: &str| {
        let mut o = s.opts();
        o.root = Some(root.into());
        o
    };
    // No such root: refused, naming the roots there are.
    let e = ward_stack::teardown(&only("nope"), &env).unwrap_err();
    assert!(
        e.to_string()
            .contains("--root nope: no root of the stack has that name; the roots are: app, net"),
        "{e}"
    );
    // net is still read by app, which holds resources: refused before anything changes.
    let r = ward_stack::teardown(&only("net"), &env).unwrap();
    assert_eq!(r.exit, Exit::StackRefused, "{}", text(&r));
    assert_eq!(r.roots[0].outcome, RootOutcome::Refused);
    let why = r.roots[0].detail.join("\n");
    assert!(
        why.contains("app/dc0 reads net/dc0 and still holds 1 resource(s)"),
        "{why}"
    );
    assert!(s.applied("net") && s.applied("app"));
    // app alone: destroyed once approved; net, left, must plan with no changes (with its var
    // files), and says so.
    let r = ward_stack::teardown(&only("app"), &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", text(&r));
    s.approve_all(&r);
    s.clear_calls();
    let r = ward_stack::resume(&only("app"), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", text(&r));
    assert_eq!(
        outcomes(&r),
        [
            o("app", RootOutcome::Destroyed),
            o("net", RootOutcome::Unchanged)
        ]
    );
    assert_eq!(r.roots[1].detail, ["remains; plans with no changes"]);
    assert!(s.plan_args("net", 0).contains("-var-file=dc0.tfvars"));
    assert!(s.applied("net") && !s.applied("app"));
    // Once net would change again, the proof fails.
    let s2 = Stack::new();
    assert_eq!(
        ward_stack::apply(&s2.opts(), &env).unwrap().exit,
        Exit::Pass
    );
    let mut o2 = s2.opts();
    o2.root = Some("app".into());
    let r = ward_stack::teardown(&o2, &env).unwrap();
    s2.approve_all(&r);
    s2.set("net", "diverge");
    let r = ward_stack::resume(&o2, &env).unwrap();
    assert_eq!(r.exit, Exit::StackFailed, "{}", text(&r));
    assert_eq!(r.roots[1].outcome, RootOutcome::Failed);
    let why = r.roots[1].detail.join("\n");
    assert!(
        why.contains("it remains and now plans changes (1 to create,"),
        "{why}"
    );
}

#[test]
fn a_pre_destroy_that_refuses_stops_the_teardown_before_anything_is_destroyed() {
    let s = Stack::new();
    assert_eq!(ward_stack::apply(&s.opts(), &env).unwrap().exit, Exit::Pass);
    std::fs::write(s.repo().join("hold"), "").unwrap();
    s.clear_calls();
    let r = ward_stack::teardown(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::GuardRefused, "{}", text(&r));
    assert_eq!(r.roots[0].outcome, RootOutcome::PreDestroyRefused);
    let why = r.roots[0].detail.join("\n");
    // The last line it wrote that is not blank, on standard error first.
    assert!(
        why.starts_with("pre_destroy \"drained\" refused (")
            && why.contains("): held: the site is on hold; nothing was destroyed."),
        "{why}"
    );
    assert!(!s.calls("app").iter().any(|c| c.starts_with("plan")));
    assert!(s.applied("app"));
    // Backed up first all the same.
    assert!(r.roots[0].backup.is_some());
    std::fs::remove_file(s.repo().join("hold")).unwrap();
    let r = ward_stack::resume(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", text(&r));
    assert_eq!(r.roots[0].outcome, RootOutcome::ApprovalRequired);
}

/// A Terragrunt unit (a `terragrunt.hcl`, no `.tf` of its own) runs through the `terragrunt`
/// found on the `PATH` the caller gave (`Options::path`), here a stand-in that hands the
/// command to the `--tf-path` binary.
#[test]
fn a_terragrunt_unit_runs_through_the_terragrunt_on_the_callers_path() {
    let s = Stack::with(
        "root \"unit\" {\n  path  = \"unit\"\n  layer = \"base\"\n  site \"dc0\" {}\n}\n",
        &["unit"],
    );
    std::fs::remove_file(s.repo().join("unit/main.tf")).unwrap();
    std::fs::write(
        s.repo().join("unit/terragrunt.hcl"),
        "terraform {\n  source = \"../net\"\n}\n",
    )
    .unwrap();
    let bin = s.tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let tg = bin.join("terragrunt");
    std::fs::write(
        &tg,
        "#!/bin/sh\ntf=\"\"\nwhile [ $# -gt 0 ]; do\n  case \"$1\" in\n    --tf-path) tf=\"$2\"; shift 2 ;;\n    --) shift; break ;;\n    *) shift ;;\n  esac\ndone\nexec \"$tf\" \"$@\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&tg, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut opts = s.opts();
    opts.path = Some(bin.into_os_string());
    let r = ward_stack::plan(&opts, &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", text(&r));
    let unit = r.roots.iter().find(|x| x.root == "unit").unwrap();
    assert_eq!(unit.outcome, RootOutcome::Changes, "{}", text(&r));
    assert!(s.calls("unit").contains(&"plan".to_string()));
}
