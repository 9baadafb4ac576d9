//! Every external process ward starts has a timeout: `ward check --exec` and `ward verify` with a
//! Terraform that hangs end at their timeout, with a clear error and their documented exit code.
//! And when ward itself is stopped, it stops what it started and removes its scratch files.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::process::{logged_n, program_gone, scratch_removed, sleeping_pid, stop};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ward_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A "terraform" that never answers; each start appends a line to `started` beside it.
fn hanging_terraform(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("terraform");
    let log = dir.join("started");
    std::fs::write(
        &p,
        format!("#!/bin/sh\necho \"$*\" >> {}\nsleep 120\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn check_exec_ends_at_its_timeout() {
    let d = tempfile::tempdir().unwrap();
    let repo = d.path().join("repo");
    std::fs::create_dir_all(repo.join("modules/a")).unwrap();
    std::fs::write(repo.join("main.tf"), "locals {\n  a = 1\n}\n").unwrap();
    std::fs::write(repo.join("modules/a/main.tf"), "locals {\n  b = 1\n}\n").unwrap();
    let tf = hanging_terraform(d.path());
    let t0 = Instant::now();
    let o = ward_in(
        d.path(),
        &[
            "check",
            repo.to_str().unwrap(),
            "--exec",
            "--binary",
            tf.to_str().unwrap(),
            "--exec-timeout",
            "1",
            "--format",
            "json",
        ],
    );
    // One command timed out and nothing more was started (not 2 roots × 3 commands); the
    // hanging command itself was stopped long before its own end (120 s). Counted, not timed,
    // so a loaded machine cannot fail it.
    let started = std::fs::read_to_string(d.path().join("started")).unwrap();
    assert_eq!(started.lines().count(), 1, "{started}");
    assert!(t0.elapsed() < Duration::from_secs(60), "{:?}", t0.elapsed());
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("fmt -check -list=true -no-color` timed out after 1 s"),
        "{out}"
    );
    assert!(out.contains("--exec-timeout SECONDS"), "{out}");
    assert!(
        out.contains("the remaining --exec checks were not run"),
        "{out}"
    );
    assert_eq!(out.matches("timed out").count(), 1, "{out}");
}

#[test]
fn verify_ends_at_its_timeout() {
    let d = tempfile::tempdir().unwrap();
    let plans = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans");
    let record = d.path().join("gate.json");
    std::fs::write(d.path().join("ward.hcl"), ward_rig::rules::ward_hcl("")).unwrap();
    let o = ward_in(
        d.path(),
        &[
            "gate",
            plans.join("tags-only.json").to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
            "--no-record-protection",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    std::fs::write(d.path().join("tfplan"), "binary plan").unwrap();
    let tf = hanging_terraform(d.path());
    let t0 = Instant::now();
    let o = ward_in(
        d.path(),
        &[
            "verify",
            "tfplan",
            "--record",
            record.to_str().unwrap(),
            "--binary",
            tf.to_str().unwrap(),
            "--timeout",
            "1",
        ],
    );
    // Stopped at its timeout, long before the fake's own end (120 s).
    assert!(t0.elapsed() < Duration::from_secs(60), "{:?}", t0.elapsed());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("show -json"), "{err}");
    assert!(err.contains("timed out after 1 s"), "{err}");
    assert!(err.contains("--timeout SECONDS"), "{err}");
}

/// Where a drift run is stopped: Terraform's `init`, its `plan -refresh-only`, or ward writing
/// the run to the history (every Terraform command done, the history's write lock held by the
/// test).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Init,
    Plan,
    Record,
}

/// A one-root repository under `dir` and a "terraform" for it that answers `version`, `init`,
/// `state pull` (a state with one resource), `plan` and `show -json` (a plan with no drift),
/// logging each command's first word to `dir/log`; at `hang` it writes its pid to
/// `dir/terraform.pid` and sleeps; its `plan` waits for `dir/go` to exist. (repo, terraform).
fn drift_fixture(dir: &Path, hang: Option<Step>) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("live/app")).unwrap();
    std::fs::write(
        repo.join("live/app/main.tf"),
        "terraform {\n  backend \"local\" {}\n}\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("ward.hcl"),
        "root \"app\" {\n  path = \"live/app\"\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("state.json"),
        r#"{"version":4,"terraform_version":"1.15.5","serial":1,"lineage":"L1","outputs":{},"resources":[{"mode":"managed","type":"null_resource","name":"a","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[]}]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("plan.json"),
        r#"{"format_version":"1.2","terraform_version":"1.15.5","planned_values":{"root_module":{}},"configuration":{"root_module":{}}}"#,
    )
    .unwrap();
    let d = dir.display();
    let hang_at = |step: Step| {
        if hang == Some(step) {
            format!("echo $$ > {d}/terraform.pid.tmp && mv {d}/terraform.pid.tmp {d}/terraform.pid && exec sleep 120; ")
        } else {
            String::new()
        }
    };
    let p = dir.join("terraform");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\necho \"$1\" >> {d}/log\ncase \"$1\" in\n  version) echo '{{\"terraform_version\":\"1.15.5\"}}'; exit 0;;\n  init) {}exit 0;;\n  state) cat {d}/state.json; exit 0;;\n  plan) {}while [ ! -e {d}/go ]; do sleep 0.05; done; exit 0;;\n  show) cat {d}/plan.json; echo shown >> {d}/log; exit 0;;\nesac\nexit 0\n",
            hang_at(Step::Init),
            hang_at(Step::Plan),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    (repo, p)
}

/// `ward drift` on [`drift_fixture`]'s repository, history `dir/h.sqlite`, scratch in `tmp`.
fn ward_drift(dir: &Path, repo: &Path, tf: &Path, tmp: &Path) -> Command {
    std::fs::create_dir_all(tmp).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ward"));
    c.args([
        "drift",
        repo.to_str().unwrap(),
        "--terraform",
        tf.to_str().unwrap(),
        "--db",
    ])
    .arg(dir.join("h.sqlite"))
    .args(["--format", "json"])
    .env("TMPDIR", tmp)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    c
}

/// Waits until `dir/log` has the line `line`.
fn logged(dir: &Path, line: &str) {
    logged_n(&dir.join("log"), line, 1);
}

/// Starts `ward drift` (see [`drift_fixture`]) and waits until it is at `step`: Terraform
/// hanging in `init` or `plan` (its pid returned), or ward waiting for the history's write
/// lock, which the returned store holds, after every Terraform command finished.
fn drift_stopped_at(
    dir: &Path,
    tmp: &Path,
    step: Step,
) -> (
    std::process::Child,
    Option<String>,
    Option<ward_store::Store>,
) {
    let (repo, tf) = drift_fixture(dir, (step != Step::Record).then_some(step));
    let ward = ward_drift(dir, &repo, &tf, tmp).spawn().unwrap();
    if step == Step::Record {
        // ward has opened the history before it ran Terraform: take its write lock, then let
        // the plan go on; ward checks the root and waits for the lock to write the run.
        logged(dir, "plan");
        let mut store = ward_store::Store::open(&dir.join("h.sqlite")).unwrap();
        store.begin_batch().unwrap();
        std::fs::write(dir.join("go"), "").unwrap();
        logged(dir, "shown");
        std::thread::sleep(Duration::from_millis(300));
        return (ward, None, Some(store));
    }
    let tf_pid = sleeping_pid(&dir.join("terraform.pid"));
    (ward, Some(tf_pid), None)
}

/// Stops `ward drift` at `step` with `signal` (`INT`, `TERM` or `KILL`), then checks the truth:
/// ward's exit (128 + the signal, or killed), its Terraform gone (INT/TERM: ward ends it), its
/// scratch directory removed (INT/TERM), no run in the history (the run is written in one
/// transaction once every root is checked, #33 item 12: a run stopped before leaves nothing,
/// never a run without an end), `ward drift history` listing it as interrupted (its `running`
/// journal record, its process gone); and the next run, undisturbed, says the run before it was
/// interrupted, checks the root and is the history's one run.
fn drift_killed(step: Step, signal: &str) {
    let d = tempfile::tempdir().unwrap();
    let tmp = d.path().join("tmp");
    let t0 = Instant::now();
    let (mut ward, tf_pid, lock) = drift_stopped_at(d.path(), &tmp, step);
    if step != Step::Record {
        let scratch: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
        assert_eq!(
            scratch.len(),
            1,
            "drift's scratch directory, while Terraform runs"
        );
    }
    let what = format!("{signal} at {step:?}");
    stop(&mut ward, signal, &what);
    if let Some(pid) = &tf_pid {
        program_gone(pid, signal, &what);
    }
    scratch_removed(&tmp, signal, &what);
    drop(lock);
    no_run_recorded(&d.path().join("h.sqlite"));
    let db = d.path().join("h.sqlite");
    let history = |root: Option<&str>| {
        let mut a = vec![
            "drift",
            "history",
            "--db",
            db.to_str().unwrap(),
            "--format",
            "json",
        ];
        a.extend(root);
        let o = ward_in(d.path(), &a);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    // The history says what happened: no run ended; one started and was interrupted.
    let h = history(None);
    assert_eq!(h["runs"], serde_json::json!([]), "{what}");
    let unfinished = h["unfinished"].as_array().unwrap();
    assert_eq!(unfinished.len(), 1, "{what}: {h}");
    assert_eq!(unfinished[0]["state"], "interrupted", "{what}: {h}");
    assert_eq!(unfinished[0]["pid"], ward.id(), "{what}: {h}");
    // The next run is not confused by the one stopped: it checks the root, and is the only run.
    std::fs::remove_file(d.path().join("log")).unwrap();
    let (repo, tf) = drift_fixture(d.path(), None);
    std::fs::write(d.path().join("go"), "").unwrap();
    let o = ward_drift(d.path(), &repo, &tf, &tmp)
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{what}: {report}");
    assert_eq!(report["roots"][0]["outcome"], "clean", "{what}: {report}");
    // It recognised the run before it as interrupted, and says so once.
    let problems = report["problems"].to_string();
    assert!(
        problems.contains(&format!("(pid {} on ", ward.id()))
            && problems.contains("was interrupted"),
        "{what}: {problems}"
    );
    let h = history(None);
    assert_eq!(
        h["unfinished"].as_array().map(Vec::len),
        Some(1),
        "{what}: {h}"
    );
    assert_eq!(h["unfinished"][0]["state"], "interrupted", "{what}: {h}");
    let runs = h["runs"].clone();
    assert_eq!(runs.as_array().map(Vec::len), Some(1), "{what}: {runs}");
    assert_eq!(runs[0]["exit_code"], 0, "{what}: {runs}");
    let app = history(Some("app"))["runs"].clone();
    assert_eq!(app[0]["outcome"]["outcome"], "clean", "{what}: {app}");
    assert!(
        t0.elapsed() < Duration::from_secs(10),
        "{what} took {:?}",
        t0.elapsed()
    );
}

/// `ward drift` stopped by SIGINT, SIGTERM and SIGKILL while Terraform runs `init`.
#[test]
fn drift_stopped_in_init_leaves_a_true_history() {
    if !Path::new("/proc/self/stat").exists() {
        return; // reads process state from /proc
    }
    for signal in ["INT", "TERM", "KILL"] {
        drift_killed(Step::Init, signal);
    }
}

/// `ward drift` stopped by SIGINT, SIGTERM and SIGKILL while Terraform runs the refresh-only
/// plan.
#[test]
fn drift_stopped_in_plan_leaves_a_true_history() {
    if !Path::new("/proc/self/stat").exists() {
        return;
    }
    for signal in ["INT", "TERM", "KILL"] {
        drift_killed(Step::Plan, signal);
    }
}

/// `ward drift` stopped by SIGINT, SIGTERM and SIGKILL while it waits to write the run to the
/// history, every root checked: the run's one transaction never began, nothing is half written.
#[test]
fn drift_stopped_while_recording_leaves_a_true_history() {
    if !Path::new("/proc/self/stat").exists() {
        return;
    }
    for signal in ["INT", "TERM", "KILL"] {
        drift_killed(Step::Record, signal);
    }
}

/// The history at `db`, if there is one, holds no run.
fn no_run_recorded(db: &Path) {
    if db.exists() {
        let store = ward_store::Store::open(db).unwrap();
        let runs = store.runs(10).unwrap();
        assert!(runs.is_empty(), "an interrupted run was recorded: {runs:?}");
    }
}
