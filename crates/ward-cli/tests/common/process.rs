//! Stopping `ward` from a test and checking what it left: the kill tests of `ward drift`
//! (tests/processes.rs) and `ward stack` (tests/stack_kill.rs).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

/// Whether process `pid` still runs (a zombie does not).
pub fn alive(pid: &str) -> bool {
    Path::new("/proc").join(pid).join("cmdline").exists()
        && std::fs::read_to_string(Path::new("/proc").join(pid).join("stat"))
            .map(|s| !s.contains(") Z "))
            .unwrap_or(false)
}

/// Waits (at most 60 s) until the file `log` holds the line `line` at least `n` times.
pub fn logged_n(log: &Path, line: &str, n: usize) {
    let t0 = Instant::now();
    while std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| *l == line)
        .count()
        < n
    {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "never logged {line:?} ({n} times) in {}",
            log.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (at most 60 s) until `pid_file` names a process running `sleep` (a stand-in Terraform
/// that `exec`ed it to hang); returns its pid.
pub fn sleeping_pid(pid_file: &Path) -> String {
    let t0 = Instant::now();
    loop {
        if let Ok(p) = std::fs::read_to_string(pid_file) {
            let p = p.trim().to_string();
            let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmd).starts_with("sleep") {
                return p;
            }
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "{} never named a hanging process",
            pid_file.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` (`INT`, `TERM`, `HUP` or `KILL`) to `child`, waits (at most 20 s) for it to end
/// and checks how: 128 + the signal (ward's documented exits 130, 143 and 129), or killed.
pub fn stop(child: &mut Child, signal: &str, what: &str) -> ExitStatus {
    let st = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success(), "{what}: kill -{signal}");
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "{what}: ward did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    match signal {
        "INT" => assert_eq!(status.code(), Some(130), "{what}: 128 + SIGINT"),
        "TERM" => assert_eq!(status.code(), Some(143), "{what}: 128 + SIGTERM"),
        "HUP" => assert_eq!(status.code(), Some(129), "{what}: 128 + SIGHUP"),
        _ => assert_eq!(status.code(), None, "{what}: killed"),
    }
    status
}

/// After ward was stopped with `signal`: the program it ran (`pid`) is gone (INT, TERM and HUP:
/// ward ends it). SIGKILL runs no handler: the program, in its own process group, outlives ward
/// and is ended here.
pub fn program_gone(pid: &str, signal: &str, what: &str) {
    if signal == "KILL" {
        let _ = Command::new("kill").args(["-KILL", pid]).status();
        return;
    }
    let t0 = Instant::now();
    while alive(pid) && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !alive(pid),
        "{what}: the program ward ran (pid {pid}) outlived it"
    );
}

/// After ward was stopped with `signal`: its scratch directories under `tmp` (its `TMPDIR`)
/// are removed (INT, TERM and HUP; SIGKILL leaves them).
pub fn scratch_removed(tmp: &Path, signal: &str, what: &str) {
    if signal != "KILL" {
        let left: Vec<_> = std::fs::read_dir(tmp).unwrap().collect();
        assert!(left.is_empty(), "{what}: scratch left behind: {left:?}");
    }
}
