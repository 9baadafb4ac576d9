//! The write helper's temporary file and the lock's bounded wait, seen from outside the crate:
//! the behaviours the unit tests did not pin (mutants of `parent_of`, `target_kind`'s error
//! guard and `lock`'s wait survived them; docs/testing.md, "Mutation testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use ward_fs::{lock, write_atomic, write_atomic_with, FsError, Mode};

/// The names in `dir`, sorted.
fn names(dir: &Path) -> std::collections::BTreeSet<String> {
    let entries = std::fs::read_dir(dir).unwrap();
    entries
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect()
}

#[test]
fn the_temporary_file_is_written_beside_the_target() {
    // The rename is atomic only within one directory (one file system): the temporary file
    // must be in the target's directory, not in the current one.
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("report.txt");
    let mut seen = std::collections::BTreeSet::new();
    write_atomic_with(&p, Mode::Public, |w| {
        seen = names(d.path());
        w.write_all(b"body")
    })
    .unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(
        seen.iter()
            .all(|n| n.starts_with(".report.txt.") && n.ends_with(".tmp")),
        "{seen:?}"
    );
    assert_eq!(names(d.path()), ["report.txt".to_string()].into());
    assert_eq!(std::fs::read(&p).unwrap(), b"body");
}

#[test]
fn a_public_report_is_readable_by_others() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.txt");
    write_atomic(&p, b"x", Mode::Public).unwrap();
    let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    // 0644 before the umask: at least the owner reads and writes, nobody executes.
    assert_eq!(mode & 0o600, 0o600, "{mode:o}");
    assert_eq!(mode & 0o111, 0, "{mode:o}");
}

#[test]
fn a_path_that_cannot_be_inspected_is_an_error_naming_the_step() {
    // `file/x` where `file` is a regular file: not "missing" (ENOTDIR), so not a new file.
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("file"), "keep").unwrap();
    let p = d.path().join("file/x");
    let e = write_atomic(&p, b"x", Mode::Public).unwrap_err();
    assert!(matches!(e, FsError::Io { .. }), "{e}");
    assert!(e.to_string().contains("cannot inspect"), "{e}");
    assert_eq!(
        std::fs::read_to_string(d.path().join("file")).unwrap(),
        "keep"
    );
}

#[test]
fn the_lock_creates_its_directory() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("new/dir/approvals.json");
    let held = lock(&p, Duration::from_secs(1)).unwrap();
    assert!(d.path().join("new/dir/approvals.json.lock").is_file());
    drop(held);
}

#[test]
fn the_lock_waits_for_a_holder_that_lets_go() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("approvals.json");
    let (taken, wait_taken) = mpsc::channel();
    let q = p.clone();
    let holder = std::thread::spawn(move || {
        let held = lock(&q, Duration::from_secs(5)).unwrap();
        taken.send(()).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        drop(held);
    });
    wait_taken.recv().unwrap();
    let start = Instant::now();
    let got = lock(&p, Duration::from_secs(60));
    assert!(got.is_ok(), "{:?}", got.err().map(|e| e.to_string()));
    assert!(
        start.elapsed() >= Duration::from_millis(100),
        "it did not wait"
    );
    holder.join().unwrap();
}

/// This thread's CPU time (user + system) in clock ticks, from `/proc/thread-self/stat`.
fn thread_cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // Fields after the command name (which is in parentheses): state is field 3, utime 14,
    // stime 15.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap()
}

#[test]
fn the_bounded_wait_sleeps_it_does_not_spin() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("approvals.json");
    let held = lock(&p, Duration::from_secs(1)).unwrap();
    let q = p.clone();
    let waiter = std::thread::spawn(move || {
        let before = thread_cpu_ticks();
        let e = lock(&q, Duration::from_secs(2)).unwrap_err();
        (thread_cpu_ticks() - before, e)
    });
    let (ticks, e) = waiter.join().unwrap();
    drop(held);
    assert!(matches!(e, FsError::LockTimeout { .. }), "{e}");
    // Two seconds of waiting in pauses of up to 50 ms cost a few milliseconds of CPU; a wait
    // that polls without pausing costs whatever CPU it is given (100 ticks a second).
    assert!(ticks < 10, "{ticks} ticks of CPU in a 2 s wait");
}
