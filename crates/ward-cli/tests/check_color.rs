//! `ward check --color` (#32 item 4), taken like `ward plan --color`: `auto` colours only a
//! terminal with `NO_COLOR` unset or empty, `always` and `never` say so, JSON and the other
//! formats are never coloured, and the words and columns are the same with or without colour.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Output, Stdio};

mod common;
use common::{plain, ward_on_tty};

/// A repository with one error (a module on a branch) and one warning (a registry range).
fn repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    std::fs::write(
        d.path().join("main.tf"),
        "terraform {\n  required_version = \">= 1.5\"\n}\nmodule \"a\" {\n  source = \"git::https://example.invalid/a.git?ref=main\"\n}\nmodule \"b\" {\n  source  = \"acme/b/aws\"\n  version = \"~> 1.0\"\n}\n",
    )
    .unwrap();
    d
}

fn ward(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn check_colours_when_asked_and_only_the_terminal_report() {
    let d = repo();
    let dir = d.path().to_str().unwrap();
    let always = ward(&["check", dir, "--color", "always"]);
    assert_eq!(always.status.code(), Some(1), "{}", stdout(&always));
    let coloured = stdout(&always);
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    // Severities and the verdict are styled.
    assert!(
        coloured.contains("\u{1b}[1m\u{1b}[31merror"),
        "{coloured:?}"
    );
    assert!(coloured.contains("\u{1b}[33mwarning"), "{coloured:?}");
    assert!(coloured.contains("FAILED\u{1b}[0m"), "{coloured:?}");
    // Same words and columns as without colour.
    let never = ward(&["check", dir, "--color", "never"]);
    assert_eq!(never.status.code(), Some(1));
    assert!(!stdout(&never).contains('\u{1b}'));
    assert_eq!(plain(&coloured), stdout(&never));
    // auto into a pipe: no colour.
    assert!(!stdout(&ward(&["check", dir])).contains('\u{1b}'));
    // Machine formats are never coloured.
    for f in ["json", "sarif", "junit"] {
        let o = ward(&["check", dir, "--format", f, "--color", "always"]);
        assert!(!stdout(&o).contains('\u{1b}'), "{f}");
    }
    // A file gets colour only when asked.
    let out = d.path().join("report.txt");
    let out = out.to_str().unwrap();
    ward(&["check", dir, "--output", out]);
    assert!(!std::fs::read_to_string(out).unwrap().contains('\u{1b}'));
    ward(&["check", dir, "--output", out, "--color", "always"]);
    assert!(std::fs::read_to_string(out).unwrap().contains('\u{1b}'));
}

#[test]
fn check_color_takes_only_its_three_values() {
    let d = repo();
    let o = ward(&["check", d.path().to_str().unwrap(), "--color", "maybe"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("auto") && err.contains("always") && err.contains("never"),
        "{err}"
    );
}

#[test]
fn check_on_a_terminal_colours_unless_no_color() {
    let d = repo();
    let dir = d.path().to_str().unwrap();
    assert!(ward_on_tty(&format!("check {dir}"), None).contains('\u{1b}'));
    assert!(!ward_on_tty(&format!("check {dir}"), Some("1")).contains('\u{1b}'));
    // An empty NO_COLOR does not count (no-color.org).
    assert!(ward_on_tty(&format!("check {dir}"), Some("")).contains('\u{1b}'));
    assert!(!ward_on_tty(&format!("check {dir} --color never"), None).contains('\u{1b}'));
}
