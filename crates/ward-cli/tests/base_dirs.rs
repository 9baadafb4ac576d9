//! The history's default place through the binary (#34: ward-cli's `context::BaseDirs` computes
//! the state directory once; ward-store only names its file in it): an empty `XDG_STATE_HOME`
//! is unset, so the file is in `HOME/.local/state`, never in the directory ward runs in; with
//! neither `XDG_STATE_HOME` nor `HOME`, the clear error that says what to pass.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `ward drift history` in `cwd` (no ward.hcl, no --db), with `env` set and `unset` removed.
fn history(cwd: &Path, env: &[(&str, &Path)], unset: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ward"));
    c.args(["drift", "history"])
        .current_dir(cwd)
        .stdin(Stdio::null());
    for v in unset {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn neither_xdg_state_home_nor_home_is_the_clear_error() {
    let t = tempfile::tempdir().unwrap();
    let out = history(t.path(), &[], &["HOME", "XDG_STATE_HOME"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "no location for the drift history database: neither XDG_STATE_HOME nor HOME is set"
        ),
        "{err}"
    );
    assert!(err.contains("pass --db FILE"), "{err}");
    assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
}

#[test]
fn an_empty_xdg_state_home_is_unset() {
    let t = tempfile::tempdir().unwrap();
    let (home, cwd) = (t.path().join("home"), t.path().join("cwd"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let out = history(
        &cwd,
        &[("HOME", &home), ("XDG_STATE_HOME", Path::new(""))],
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    // No history yet: the error names where the default file is.
    assert_eq!(out.status.code(), Some(2), "{err}");
    let expected = home.join(".local/state/ward/drift.sqlite");
    assert!(err.contains(&expected.display().to_string()), "{err}");
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0, "{err}");
}

#[test]
fn xdg_state_home_comes_before_home() {
    let t = tempfile::tempdir().unwrap();
    let (home, state) = (t.path().join("home"), t.path().join("state"));
    std::fs::create_dir_all(&home).unwrap();
    let out = history(
        t.path(),
        &[("HOME", &home), ("XDG_STATE_HOME", &state)],
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let expected = state.join("ward/drift.sqlite");
    assert!(err.contains(&expected.display().to_string()), "{err}");
}
