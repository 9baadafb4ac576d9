//! `interrupt`: what ward does when it is told to stop. Its own test binary, because it stops
//! every run in the process for good.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};
use ward_exec::{Command, ExecError, ScratchDir};

#[test]
fn interrupt_stops_running_groups_removes_scratch_and_refuses_new_runs() {
    let scratch = ScratchDir::new("ward-exec-interrupt-").unwrap();
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join("state.json"), "secret state").unwrap();
    let marker = std::env::temp_dir().join(format!("ward-exec-survived-{}", std::process::id()));
    let script = format!("(sleep 2; touch {}) & sleep 60", marker.display());
    let runner = std::thread::spawn(move || {
        Command::new("/bin/sh", Duration::from_secs(60))
            .args(["-c", &script])
            .run()
    });
    std::thread::sleep(Duration::from_millis(300));
    let t0 = Instant::now();
    ward_exec::interrupt();
    let out = runner.join().unwrap().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert_eq!(out.signal, Some(15), "SIGTERM first: {out:?}");
    assert!(!dir.exists(), "the scratch directory was left behind");
    std::thread::sleep(Duration::from_millis(2500));
    assert!(!marker.exists(), "a child outlived the interrupt");
    let e = Command::new("/bin/true", Duration::from_secs(5))
        .run()
        .unwrap_err();
    assert!(matches!(e, ExecError::Interrupted { .. }), "{e}");
    drop(scratch);
}
