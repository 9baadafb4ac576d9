//! `ward stack apply` and `ward stack teardown` stopped by SIGINT, SIGTERM, SIGHUP (a closed
//! terminal or SSH session) and SIGKILL at each step a run passes through (#33 item 5, "every
//! run is a state machine written as it moves ... tested by killing at every step" and
//! "Signals (INT, TERM, HUP) are handled"); after each: ward's exit, the Terraform it ran gone,
//! its scratch removed, `ward stack status` naming the run interrupted at the root it was at
//! (exit 9, never `result: pass`), `ward stack resume` taking it up to the end, and each root
//! applied or destroyed exactly once, its backup kept.
//!
//! A two-layer stack (`net`, then `app`, which reads `net`'s outputs) and a stand-in
//! `terraform` (a shell script) that keeps each root's "state" as a file, logs every command
//! (`ROOT COMMAND [PLAN]`, then the same line with ` done`), writes the plan JSON the gate reads,
//! and hangs (its pid in `tf.pid`) or pauses (until `go` exists) at one chosen command. A
//! step without a Terraform command (the gate, a journal write, the backup's record) is held by
//! the test taking the history's write lock while ward is just before it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::process::{logged_n, program_gone, scratch_removed, sleeping_pid, stop};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    Apply,
    Teardown,
}

/// Where the run is stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Terraform's `init` in the first root.
    Init,
    /// The teardown's verified backup written, its history record not yet (lock held).
    Backup,
    /// Terraform's `plan` (apply: the first root's; teardown: the first root's destroy plan).
    Plan,
    /// The gate on the first root's saved plan (its history record waits for the lock).
    Gate,
    /// The run stopped at an approval (exit 4, its end recorded); approved; the resume stopped
    /// at its first Terraform command.
    Approval,
    /// Terraform's `apply` of the saved plan (teardown: the destroy, after its approval).
    Apply,
    /// Every command of the first root done, its step's journal record not yet (lock held).
    Journal,
    /// Between the layers: the first root finished and recorded, the next one's `init`.
    NextRoot,
}

/// How the test holds the run at a step: Terraform hanging in a command, or Terraform paused
/// after a command while the test takes the history's write lock, so ward waits at its next
/// write. The command is `LINE#N`: the N-th time the stand-in logs LINE in the stopped run.
enum Hold {
    Hang(&'static str),
    Lock(&'static str),
}

/// The hold for `step` of `cmd`, and the root instance the run is then at.
fn hold(cmd: Cmd, step: Step) -> (Hold, &'static str) {
    use Hold::{Hang, Lock};
    match (cmd, step) {
        (Cmd::Apply, Step::Init) => (Hang("net init#1"), "net/default"),
        (Cmd::Apply, Step::Plan) => (Hang("net plan apply#1"), "net/default"),
        (Cmd::Apply, Step::Gate) => (Lock("net show apply#1"), "net/default"),
        (Cmd::Apply, Step::Apply) => (Hang("net apply apply#1"), "net/default"),
        // The plan after the apply is its last command: it plans no changes, so nothing is
        // shown (`show -json` runs only for a plan with changes).
        (Cmd::Apply, Step::Journal) => (Lock("net plan check#1"), "net/default"),
        (Cmd::Apply, Step::NextRoot) => (Hang("app init#1"), "app/default"),
        // The resume checks `net` again first.
        (Cmd::Apply, Step::Approval) => (Hang("net init#1"), "net/default"),
        (Cmd::Apply, Step::Backup) => unreachable!("apply takes no backup"),
        // Teardown: `app` first; its destroy plan reads `net`'s outputs (`net init#1`).
        (Cmd::Teardown, Step::Init) => (Hang("app init#1"), "app/default"),
        (Cmd::Teardown, Step::Backup) => (Lock("app state#1"), "app/default"),
        (Cmd::Teardown, Step::Plan) => (Hang("app plan destroy#1"), "app/default"),
        (Cmd::Teardown, Step::Gate) => (Lock("app show destroy#1"), "app/default"),
        (Cmd::Teardown, Step::Approval) => (Hang("app init#1"), "app/default"),
        (Cmd::Teardown, Step::Apply) => (Hang("app apply destroy#1"), "app/default"),
        (Cmd::Teardown, Step::Journal) => (Lock("app state#2"), "app/default"),
        (Cmd::Teardown, Step::NextRoot) => (Hang("net init#2"), "net/default"),
    }
}

const HCL: &str = r#"stack {
  backup_dir = "../backups"
}
layer "base" {
  level = 0
}
layer "top" {
  level = 1
}
root "net" {
  path  = "net"
  layer = "base"
}
root "app" {
  path  = "app"
  layer = "top"
  reads = ["net"]
}
"#;

/// The stand-in `terraform` (see the module's documentation); `$D` is the fixture directory.
const TERRAFORM: &str = r#"#!/bin/sh
PATH=/usr/bin:/bin
export PATH
root=$(basename "$PWD")
cmd=$1
name=
for a in "$@"; do
  case "$a" in
    -out=*) out=${a#-out=}; name=$(basename "$out" .tfplan);;
    *.tfplan) saved=$a; name=$(basename "$a" .tfplan);;
  esac
done
if [ "$cmd" = version ]; then echo '{"terraform_version":"1.15.5"}'; exit 0; fi
line="$root $cmd${name:+ $name}"
echo "$line" >> "$D/log"
at="$line#$(grep -cxF "$line" "$D/log")"
fin() { echo "$line done" >> "$D/log"; exit "$1"; }
if [ "$(cat "$D/hang" 2>/dev/null)" = "$at" ]; then
  echo $$ > "$D/tf.pid.tmp" && mv "$D/tf.pid.tmp" "$D/tf.pid" && exec sleep 120
fi
if [ "$(cat "$D/pause" 2>/dev/null)" = "$at" ]; then
  while [ ! -e "$D/go" ]; do sleep 0.02; done
fi
S="$D/state/$root"
case "$cmd" in
  init) fin 0;;
  plan)
    case " $* " in
      *" -destroy "*) if [ -e "$S" ]; then m=delete; else m=none; fi;;
      *) if [ -e "$S" ]; then m=none; else m=create; fi;;
    esac
    echo "$m" > "$out"
    if [ "$m" = none ]; then fin 0; fi
    fin 2;;
  show) cat "$D/plans/$root-$(cat "$saved").json"; fin 0;;
  apply)
    m=$(cat "$saved")
    if [ "$m" = create ]; then echo "$root" > "$S"; fi
    if [ "$m" = delete ]; then rm -f "$S"; fi
    echo "$root $m" >> "$D/done"
    fin 0;;
  output)
    if [ -e "$S" ]; then printf '{"id":{"sensitive":false,"type":"string","value":"%s-1"}}' "$root"; else echo '{}'; fi
    fin 0;;
  state)
    if [ -e "$S" ]; then cat "$D/states/$root-full.json"; else cat "$D/states/$root-empty.json"; fi
    fin 0;;
esac
fin 1
"#;

fn change(address: &str, action: &str, values: &str) -> String {
    let (ty, name) = address.split_once('.').unwrap();
    let (before, after, after_sensitive) = match action {
        "create" => ("null", values, "{}"),
        _ => (values, "null", "false"),
    };
    format!(
        r#"{{"address":"{address}","mode":"managed","type":"{ty}","name":"{name}","provider_name":"registry.terraform.io/ward/fakecloud","change":{{"actions":["{action}"],"before":{before},"after":{after},"after_unknown":{{}},"before_sensitive":{{}},"after_sensitive":{after_sensitive}}}}}"#
    )
}

fn plan_json(changes: &[String]) -> String {
    format!(
        r#"{{"format_version":"1.2","terraform_version":"1.15.5","planned_values":{{}},"resource_changes":[{}]}}"#,
        changes.join(",")
    )
}

/// A stack in a temporary directory: `repo/` (a checkout), the stand-in `terraform`, its
/// `state/`, `plans/`, `states/`, `log` and `done` (one line per finished apply: `ROOT create`
/// or `ROOT delete`), the history `h.sqlite`, `backups/` and ward's `TMPDIR` `tmp/`.
struct Fx {
    t: tempfile::TempDir,
}

impl Fx {
    /// `applied`: both roots hold their resource (a teardown's start). `approval`: `app`'s
    /// apply also deletes a volume, which needs an approval.
    fn new(applied: bool, approval: bool) -> Fx {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let repo = d.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        for dir in ["state", "plans", "states", "tmp"] {
            std::fs::create_dir_all(d.join(dir)).unwrap();
        }
        for root in ["net", "app"] {
            std::fs::create_dir_all(repo.join(root)).unwrap();
            std::fs::write(repo.join(root).join("main.tf"), "terraform {}\n").unwrap();
            let inst = format!("fakecloud_instance.{root}");
            let values = format!(r#"{{"id":"i-{root}","name":"{root}","size":"small"}}"#);
            let mut create = vec![change(&inst, "create", &values)];
            if approval && root == "app" {
                create.push(change(
                    "fakecloud_volume.old",
                    "delete",
                    r#"{"id":"v-1","name":"old","size_gb":1}"#,
                ));
            }
            let plans = d.join("plans");
            std::fs::write(
                plans.join(format!("{root}-create.json")),
                plan_json(&create),
            )
            .unwrap();
            std::fs::write(
                plans.join(format!("{root}-delete.json")),
                plan_json(&[change(&inst, "delete", &values)]),
            )
            .unwrap();
            std::fs::write(plans.join(format!("{root}-none.json")), plan_json(&[])).unwrap();
            let state = |serial: u32, resources: &str| {
                format!(
                    r#"{{"version":4,"terraform_version":"1.15.5","serial":{serial},"lineage":"L-{root}","outputs":{{}},"resources":[{resources}]}}"#
                )
            };
            let full = state(
                2,
                &format!(
                    r#"{{"mode":"managed","type":"fakecloud_instance","name":"{root}","provider":"provider[\"registry.terraform.io/ward/fakecloud\"]","instances":[{{"schema_version":0,"attributes":{values}}}]}}"#
                ),
            );
            let states = d.join("states");
            std::fs::write(states.join(format!("{root}-full.json")), full).unwrap();
            std::fs::write(states.join(format!("{root}-empty.json")), state(3, "")).unwrap();
            if applied {
                std::fs::write(d.join("state").join(root), root).unwrap();
            }
        }
        std::fs::write(repo.join("ward.hcl"), ward_rig::rules::ward_hcl(HCL)).unwrap();
        let script = TERRAFORM.replace("\"$D/", &format!("\"{}/", d.display()));
        assert!(!script.contains("$D"), "{script}");
        let tf = d.join("terraform");
        std::fs::write(&tf, script).unwrap();
        std::fs::set_permissions(&tf, std::fs::Permissions::from_mode(0o755)).unwrap();
        Fx { t }
    }

    fn d(&self) -> &Path {
        self.t.path()
    }

    fn tmp(&self) -> PathBuf {
        self.d().join("tmp")
    }

    /// `ward stack ARGS` on the fixture, JSON out (an empty `PATH`: no other Terraform).
    fn ward(&self, args: &[&str]) -> Command {
        let d = self.d();
        let mut c = Command::new(env!("CARGO_BIN_EXE_ward"));
        c.arg("stack")
            .args(args)
            .arg("--config")
            .arg(d.join("repo/ward.hcl"))
            .arg("--db")
            .arg(d.join("h.sqlite"))
            .arg("--terraform")
            .arg(d.join("terraform"))
            .current_dir(d)
            .env("PATH", "/nonexistent")
            .env("TMPDIR", self.tmp())
            .stdin(Stdio::null());
        c
    }

    /// Runs `ward stack ARGS --format json`: its exit code and report.
    fn run(&self, args: &[&str]) -> (Option<i32>, Value) {
        let o = self.ward(args).args(["--format", "json"]).output().unwrap();
        let report = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
            panic!(
                "ward stack {args:?} (exit {:?}) printed no report ({e}):\n{}{}",
                o.status.code(),
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        });
        (o.status.code(), report)
    }

    /// `ward stack status` as a terminal shows it.
    fn status_text(&self) -> String {
        let o = self.ward(&["status"]).output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Approves what the roots of `report` wait on, as a person would: each change of an apply
    /// with `--address`, a teardown's destroys with `--all`.
    fn approve(&self, report: &Value, what: &str) {
        let teardown = report["command"] == "teardown";
        for r in report["roots"].as_array().unwrap() {
            if r["outcome"] != "approval-required" {
                continue;
            }
            let root = r["root"].as_str().unwrap();
            let mut runs: Vec<Vec<&str>> = Vec::new();
            if teardown {
                runs.push(vec!["--all"]);
            } else {
                for a in r["approvals"].as_array().unwrap() {
                    runs.push(vec!["--address", a["address"].as_str().unwrap()]);
                }
            }
            for extra in runs {
                let o = self
                    .ward(&[
                        "approve",
                        "--root",
                        root,
                        "--reason",
                        "kill test",
                        "--by",
                        "tester",
                    ])
                    .args(extra)
                    .output()
                    .unwrap();
                assert_eq!(
                    o.status.code(),
                    Some(0),
                    "{what}: approve {root}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
            }
        }
    }

    /// A run stopped at an approval is what `status` says (exit 4, never `result: pass`, the
    /// root waiting named), and is approved.
    fn at_approval(&self, (code, report): (Option<i32>, Value), root: &str, what: &str) {
        assert_eq!(code, Some(4), "{what}: {report}");
        let at = instance(&report, root);
        assert_eq!(at["outcome"], "approval-required", "{what}: {report}");
        let (code, st) = self.run(&["status"]);
        assert_eq!(code, Some(4), "{what}: status at an approval: {st}");
        assert_eq!(
            instance(&st, root)["outcome"],
            "approval-required",
            "{what}: {st}"
        );
        assert_eq!(st["resume"], "ward stack resume", "{what}: {st}");
        let text = self.status_text();
        assert!(!text.contains("result: pass"), "{what}: {text}");
        self.approve(&report, what);
    }

    /// `ward stack resume`, approving what it stops at, until a run passes (the first resumes
    /// the run `interrupted`); returns the last report.
    fn resume_to_the_end(&self, interrupted: &Value, what: &str) -> Value {
        for i in 0..6 {
            let (code, report) = self.run(&["resume"]);
            if i == 0 {
                assert_eq!(&report["resumed"], interrupted, "{what}: {report}");
            }
            match code {
                Some(0) => return report,
                Some(4) => {
                    let root = report["roots"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|r| r["outcome"] == "approval-required")
                        .map(|r| r["root"].as_str().unwrap().to_string())
                        .unwrap();
                    self.at_approval((code, report), &root, what);
                }
                _ => panic!("{what}: resume exited {code:?}: {report}"),
            }
        }
        panic!("{what}: resume never finished");
    }

    /// The applies the stand-in finished, in order.
    fn done(&self) -> Vec<String> {
        std::fs::read_to_string(self.d().join("done"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The state backups kept for `root`.
    fn backups(&self, root: &str) -> Vec<PathBuf> {
        std::fs::read_dir(self.d().join("backups").join(root).join("default"))
            .map(|rd| {
                rd.map(|e| e.unwrap().path())
                    .filter(|p| p.extension().is_some_and(|x| x == "tfstate"))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The journal's latest `stack-run` record (the history `dir/h.sqlite`).
fn last_run_record(dir: &Path) -> Value {
    let store = ward_store::Store::open(&dir.join("h.sqlite")).unwrap();
    let rows = store
        .records(&ward_store::RecordQuery {
            kind: "stack-run",
            root: Some(ward_stack::journal::RUN_ROOT),
            key: None,
            limit: 1,
        })
        .unwrap();
    rows.into_iter().next().unwrap().body
}

/// The journal as another machine reads it: its latest `stack-run` record appended again, made
/// by a process on another host.
fn seen_from_another_machine(dir: &Path) {
    let mut body = last_run_record(dir);
    if let Some(p) = body.get_mut("process").filter(|p| p.is_object()) {
        p["host"] = "another-machine".into();
    }
    let mut store = ward_store::Store::open(&dir.join("h.sqlite")).unwrap();
    store
        .append_record(&ward_store::NewRecord {
            kind: "stack-run",
            root: ward_stack::journal::RUN_ROOT,
            key: body["run"].as_str().unwrap(),
            recorded_at: "2026-12-04T00:00:00Z",
            body: &body,
        })
        .unwrap();
}

/// The root instance `id` (`root/site`, or a root name) of a stack report.
fn instance<'a>(report: &'a Value, id: &str) -> &'a Value {
    let id = if id.contains('/') {
        id.to_string()
    } else {
        format!("{id}/default")
    };
    report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            format!(
                "{}/{}",
                r["root"].as_str().unwrap(),
                r["site"].as_str().unwrap()
            ) == id
        })
        .unwrap_or_else(|| panic!("{id} not in {report}"))
}

/// Stops `cmd` at `step` with `signal`, then checks the truth (see the module's documentation).
fn killed(cmd: Cmd, step: Step, signal: &str) {
    let t0 = Instant::now();
    let what = format!("{cmd:?} stopped by SIG{signal} at {step:?}");
    let fx = Fx::new(
        cmd == Cmd::Teardown,
        cmd == Cmd::Apply && step == Step::Approval,
    );
    let d = fx.d();
    // Up to the run to stop.
    let args: &[&str] = match (cmd, step) {
        (Cmd::Apply, Step::Approval) => {
            fx.at_approval(fx.run(&["apply"]), "app", &what);
            &["resume"]
        }
        (Cmd::Teardown, Step::Approval | Step::Apply | Step::Journal | Step::NextRoot) => {
            fx.at_approval(fx.run(&["teardown"]), "app", &what);
            &["resume"]
        }
        (Cmd::Apply, _) => &["apply"],
        (Cmd::Teardown, _) => &["teardown"],
    };
    let done_before = fx.done();
    let _ = std::fs::remove_file(d.join("log"));
    let (hold, at) = hold(cmd, step);
    let (trigger, file) = match hold {
        Hold::Hang(t) => (t, "hang"),
        Hold::Lock(t) => (t, "pause"),
    };
    std::fs::write(d.join(file), trigger).unwrap();
    let mut ward = fx
        .ward(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (line, n) = trigger.rsplit_once('#').unwrap();
    let n: usize = n.parse().unwrap();
    let mut lock = None;
    let tf_pid = match hold {
        Hold::Hang(_) => {
            let pid = sleeping_pid(&d.join("tf.pid"));
            let scratch = std::fs::read_dir(fx.tmp()).unwrap().count();
            assert!(scratch > 0, "{what}: ward's scratch, while Terraform runs");
            Some(pid)
        }
        Hold::Lock(_) => {
            // Terraform waits after the command; the test takes the history's write lock and
            // lets it end: ward goes on to its next write to the history and waits there.
            logged_n(&d.join("log"), line, n);
            let mut store = ward_store::Store::open(&d.join("h.sqlite")).unwrap();
            store.begin_batch().unwrap();
            lock = Some(store);
            std::fs::write(d.join("go"), "").unwrap();
            logged_n(&d.join("log"), &format!("{line} done"), n);
            std::thread::sleep(Duration::from_millis(300));
            // Held at its write: no Terraform command after the one it waited for.
            let log = std::fs::read_to_string(d.join("log")).unwrap();
            assert_eq!(
                log.lines().last(),
                Some(format!("{line} done").as_str()),
                "{what}: {log}"
            );
            None
        }
    };
    if step == Step::Backup {
        assert_eq!(fx.backups("app").len(), 1, "{what}: the backup, written");
    }
    stop(&mut ward, signal, &what);
    if let Some(pid) = &tf_pid {
        program_gone(pid, signal, &what);
    }
    scratch_removed(&fx.tmp(), signal, &what);
    drop(lock);
    for f in ["hang", "pause", "go", "tf.pid"] {
        let _ = std::fs::remove_file(d.join(f));
    }
    if tf_pid.is_some() && signal != "KILL" {
        // The journal itself says how the run ended, not only that its process is gone: a
        // machine that cannot look at that process (a cancelled CI job's retry, in a new
        // container) knows it too, and resumes it.
        let rec = last_run_record(d);
        let (name, code) = match signal {
            "INT" => ("interrupted", 130),
            "HUP" => ("hung-up", 129),
            _ => ("terminated", 143),
        };
        assert_eq!(rec["status"], name, "{what}: the journal's run: {rec}");
        assert_eq!(rec["exit_code"], code, "{what}: the journal's run: {rec}");
        seen_from_another_machine(d);
    }
    // Nothing was applied or destroyed by the stopped run but what it had finished.
    let done_now = fx.done();
    let finished_in_run = &done_now[done_before.len()..];
    match step {
        Step::Journal | Step::NextRoot => assert_eq!(finished_in_run.len(), 1, "{what}"),
        _ => assert!(finished_in_run.is_empty(), "{what}: {finished_in_run:?}"),
    }

    // `status`: the run was interrupted, at the root it had reached; never a pass.
    let (code, st) = fx.run(&["status"]);
    assert_eq!(code, Some(9), "{what}: status exits stack-failed: {st}");
    assert_eq!(st["exit"], "stack-failed", "{what}: {st}");
    let stopped = st["stopped"].as_str().unwrap_or_default();
    assert!(
        stopped.contains("was interrupted") && stopped.contains(&format!("it was at {at}")),
        "{what}: {stopped}"
    );
    assert_eq!(instance(&st, at)["outcome"], "in-progress", "{what}: {st}");
    assert_eq!(st["resume"], "ward stack resume", "{what}: {st}");
    if step == Step::NextRoot {
        let (first, outcome) = match cmd {
            Cmd::Apply => ("net", "applied"),
            Cmd::Teardown => ("app", "destroyed"),
        };
        assert_eq!(instance(&st, first)["outcome"], outcome, "{what}: {st}");
    }
    let text = fx.status_text();
    assert!(!text.contains("result: pass"), "{what}: {text}");
    assert!(text.contains("was interrupted"), "{what}: {text}");

    // `resume` takes it up, to the end.
    let last = fx.resume_to_the_end(&st["run"], &what);
    let (code, st) = fx.run(&["status"]);
    assert_eq!(code, Some(0), "{what}: status after the end: {st}");
    assert_eq!(st["run"], last["run"], "{what}");
    // Each root applied (or destroyed) exactly once; the stand-in's state says so too.
    let mut done = fx.done();
    done.sort();
    let state = |root: &str| d.join("state").join(root).exists();
    match cmd {
        Cmd::Apply => {
            assert_eq!(done, ["app create", "net create"], "{what}");
            assert!(state("net") && state("app"), "{what}");
            for root in ["net", "app"] {
                let o = instance(&st, root)["outcome"].as_str().unwrap().to_string();
                assert!(
                    ["applied", "unchanged", "verified"].contains(&o.as_str()),
                    "{what}: {root} {o}: {st}"
                );
            }
        }
        Cmd::Teardown => {
            assert_eq!(done, ["app delete", "net delete"], "{what}");
            assert!(!state("net") && !state("app"), "{what}");
            for root in ["net", "app"] {
                assert_eq!(fx.backups(root).len(), 1, "{what}: {root}'s backup");
                let o = instance(&st, root)["outcome"].as_str().unwrap().to_string();
                assert!(
                    ["destroyed", "already-empty"].contains(&o.as_str()),
                    "{what}: {root} {o}: {st}"
                );
            }
        }
    }
    eprintln!("{what}: {:?}", t0.elapsed());
}

fn every_signal(cmd: Cmd, step: Step) {
    if !Path::new("/proc/self/stat").exists() {
        return; // reads process state from /proc
    }
    for signal in ["INT", "TERM", "HUP", "KILL"] {
        killed(cmd, step, signal);
    }
}

#[test]
fn apply_stopped_in_init() {
    every_signal(Cmd::Apply, Step::Init);
}

#[test]
fn apply_stopped_in_plan() {
    every_signal(Cmd::Apply, Step::Plan);
}

#[test]
fn apply_stopped_at_the_gate() {
    every_signal(Cmd::Apply, Step::Gate);
}

#[test]
fn apply_stopped_in_apply() {
    every_signal(Cmd::Apply, Step::Apply);
}

#[test]
fn apply_stopped_before_the_journal_records_a_root() {
    every_signal(Cmd::Apply, Step::Journal);
}

#[test]
fn apply_stopped_between_layers() {
    every_signal(Cmd::Apply, Step::NextRoot);
}

#[test]
fn apply_stopped_resuming_from_an_approval() {
    every_signal(Cmd::Apply, Step::Approval);
}

#[test]
fn teardown_stopped_in_init() {
    every_signal(Cmd::Teardown, Step::Init);
}

#[test]
fn teardown_stopped_recording_its_backup() {
    every_signal(Cmd::Teardown, Step::Backup);
}

#[test]
fn teardown_stopped_in_the_destroy_plan() {
    every_signal(Cmd::Teardown, Step::Plan);
}

#[test]
fn teardown_stopped_at_the_gate() {
    every_signal(Cmd::Teardown, Step::Gate);
}

#[test]
fn teardown_stopped_resuming_from_an_approval() {
    every_signal(Cmd::Teardown, Step::Approval);
}

#[test]
fn teardown_stopped_in_the_destroy() {
    every_signal(Cmd::Teardown, Step::Apply);
}

#[test]
fn teardown_stopped_before_the_journal_records_a_root() {
    every_signal(Cmd::Teardown, Step::Journal);
}

#[test]
fn teardown_stopped_between_layers() {
    every_signal(Cmd::Teardown, Step::NextRoot);
}
