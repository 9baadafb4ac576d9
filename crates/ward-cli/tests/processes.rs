//! Every external process ward starts has a timeout: `ward check --exec` and `ward verify` with a
//! Terraform that hangs end at their timeout, with a clear error and their documented exit code.
//! And when ward itself is stopped, it stops what it started and removes its scratch files.
#![allow(clippy::unwrap_used, clippy::expect_used)]

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

/// A "terraform" that answers `version -json` and hangs on anything else, after writing its
/// process id to `pid_file`.
fn terraform_that_hangs_after_version(dir: &Path, pid_file: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("terraform");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\ncase \"$1\" in\n  version) echo '{{\"terraform_version\":\"1.15.5\"}}'; exit 0;;\nesac\necho $$ > {}.tmp && mv {}.tmp {}\nexec sleep 120\n",
            pid_file.display(),
            pid_file.display(),
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

fn alive(pid: &str) -> bool {
    Path::new("/proc").join(pid).join("cmdline").exists()
        && std::fs::read_to_string(Path::new("/proc").join(pid).join("stat"))
            .map(|s| !s.contains(") Z "))
            .unwrap_or(false)
}

/// Starts `ward drift` on a one-root repository under `dir` (history `dir/h.sqlite`, scratch in
/// `tmp`) whose Terraform hangs after `version`, and waits until that Terraform is running:
/// (ward, Terraform's pid).
fn drift_while_terraform_hangs(dir: &Path, tmp: &Path) -> (std::process::Child, String) {
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
    std::fs::create_dir_all(tmp).unwrap();
    let pid_file = dir.join("terraform.pid");
    let tf = terraform_that_hangs_after_version(dir, &pid_file);
    let ward = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args([
            "drift",
            repo.to_str().unwrap(),
            "--terraform",
            tf.to_str().unwrap(),
            "--db",
        ])
        .arg(dir.join("h.sqlite"))
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let tf_pid = loop {
        if let Ok(p) = std::fs::read_to_string(&pid_file) {
            let p = p.trim().to_string();
            let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmd).starts_with("sleep") {
                break p;
            }
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "terraform init never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    (ward, tf_pid)
}

#[test]
fn sigterm_stops_drifts_terraform_and_removes_its_scratch_directory() {
    if !Path::new("/proc/self/stat").exists() {
        return; // reads process state from /proc
    }
    let d = tempfile::tempdir().unwrap();
    let tmp = d.path().join("tmp");
    let (mut ward, tf_pid) = drift_while_terraform_hangs(d.path(), &tmp);
    let scratch: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert_eq!(scratch.len(), 1, "drift's scratch directory");
    let st = Command::new("kill")
        .args(["-TERM", &ward.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let t1 = Instant::now();
    let status = loop {
        if let Some(s) = ward.try_wait().unwrap() {
            break s;
        }
        assert!(t1.elapsed() < Duration::from_secs(20), "ward did not stop");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(143), "128 + SIGTERM");
    assert!(
        !alive(&tf_pid),
        "terraform (pid {tf_pid}) kept running after ward stopped"
    );
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "scratch left behind: {left:?}");
    // The interrupted run left no half-written run in the history (#33 item 12).
    no_run_recorded(&d.path().join("h.sqlite"));
}

/// The history at `db`, if there is one, holds no run.
fn no_run_recorded(db: &Path) {
    if db.exists() {
        let store = ward_store::Store::open(db).unwrap();
        let runs = store.runs(10).unwrap();
        assert!(runs.is_empty(), "an interrupted run was recorded: {runs:?}");
    }
}

/// A drift run killed outright (SIGKILL: no handler runs) leaves no run without an end in the
/// history: the run is recorded in one transaction once its roots are checked (#33 item 12).
#[test]
fn a_killed_drift_run_leaves_no_half_run_in_the_history() {
    if !Path::new("/proc/self/stat").exists() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let (mut ward, tf_pid) = drift_while_terraform_hangs(d.path(), &d.path().join("tmp"));
    ward.kill().unwrap();
    let _ = ward.wait();
    // The hanging stand-in is in ward's process group, which SIGKILL does not reach: end it.
    let _ = Command::new("kill").args(["-KILL", &tf_pid]).status();
    no_run_recorded(&d.path().join("h.sqlite"));
}
