//! `-o FILE`, `--color` and a closed pipe on the commands that got them last (#36 item 6):
//! `rules list|show`, `import check`, `verify`, `drift` (and `drift history`'s `-o`), `stack`.
//! For each: `-o` writes the report (the same bytes as standard output, nothing on standard
//! output), `--color always` colours only the terminal report and changes no word, `never`
//! and a file under `auto` do not colour; a reader that closed the pipe (`ward … | head -1`)
//! ends the command quietly with its documented exit code. And one `--format` vocabulary: a
//! format a command does not write is refused by the parser (exit 2) naming the ones it does.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{data, plain};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ESC: &str = "\u{1b}[";

/// Runs ward in `dir` with standard output captured, NO_COLOR unset.
fn ward(dir: &Path, args: &[&str]) -> Output {
    ward_env(dir, args, &[])
}

/// [`ward`] with these environment variables set.
fn ward_env(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs ward in `dir` writing into a pipe whose reader is closed before ward writes (as
/// `ward … | head -0`); returns its exit code and standard error.
fn ward_into_closed_pipe(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &Path)],
) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The command's report through `-o`, `--color` and a closed pipe, as the module says; `code`
/// is its exit code for these arguments.
fn conventions(dir: &Path, args: &[&str], code: i32) {
    conventions_env(dir, args, code, &[]);
}

/// [`conventions`] with these environment variables set.
fn conventions_env(dir: &Path, args: &[&str], code: i32, env: &[(&str, &Path)]) {
    let run = |extra: &[&str]| {
        let mut a = args.to_vec();
        a.extend(extra);
        let o = ward_env(dir, &a, env);
        assert_eq!(
            o.status.code(),
            Some(code),
            "ward {a:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o
    };
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let plain_report = text(&run(&[]));
    assert!(!plain_report.is_empty(), "ward {args:?} wrote no report");
    assert!(!plain_report.contains(ESC), "not a terminal: no colour");
    // --color always: coloured, and the same words.
    let coloured = text(&run(&["--color", "always"]));
    assert!(coloured.contains(ESC), "ward {args:?} --color always");
    assert_eq!(plain(&coloured), plain_report, "ward {args:?}: same words");
    assert!(!text(&run(&["--color", "never"])).contains(ESC));
    // JSON is never coloured.
    let json = text(&run(&["--format", "json", "--color", "always"]));
    assert!(!json.contains(ESC), "ward {args:?} --format json");
    serde_json::from_str::<serde_json::Value>(&json).unwrap();
    // -o FILE: the same bytes, nothing on standard output; not coloured under auto.
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("report.txt");
    let o = run(&["-o", file.to_str().unwrap()]);
    assert!(o.stdout.is_empty(), "ward {args:?} -o: {}", text(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), plain_report);
    let o = run(&["--output", file.to_str().unwrap(), "--color", "always"]);
    assert!(o.stdout.is_empty());
    assert!(std::fs::read_to_string(&file).unwrap().contains(ESC));
    // A closed pipe: quiet, the same exit.
    let (c, err) = ward_into_closed_pipe(dir, args, env);
    assert_eq!(c, Some(code), "ward {args:?} | head -0: {err}");
    assert!(
        !err.contains("error") && !err.to_lowercase().contains("broken pipe"),
        "ward {args:?} | head -0: {err}"
    );
}

/// `rules show` through every convention; `rules list` (every pack's every entry: slow in a
/// debug build) through `-o` and a closed pipe.
#[test]
fn rules_list_and_show() {
    let tmp = tempfile::tempdir().unwrap();
    conventions(tmp.path(), &["rules", "show", "aws_instance"], 0);
    let file = tmp.path().join("list.txt");
    let o = ward(
        tmp.path(),
        &[
            "rules",
            "list",
            "--color",
            "always",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    let list = std::fs::read_to_string(&file).unwrap();
    assert!(
        list.contains(ESC) && plain(&list).starts_with("packs ("),
        "{list}"
    );
    let (c, err) = ward_into_closed_pipe(tmp.path(), &["rules", "list"], &[]);
    assert_eq!(c, Some(0), "{err}");
    assert!(!err.contains("error"), "{err}");
}

#[test]
fn import_check() {
    let tmp = tempfile::tempdir().unwrap();
    let (plan, inv) = (data("import-plan.json"), data("import-inventory.json"));
    conventions(
        tmp.path(),
        &["import", "check", &plan, "--inventory", &inv],
        0,
    );
}

#[test]
fn drift_and_its_history() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let db = tmp.path().join("drift.sqlite");
    let (repo, db) = (repo.to_str().unwrap(), db.to_str().unwrap());
    // No root: exit 8 (zero roots), a report all the same.
    conventions(tmp.path(), &["drift", repo, "--db", db, "--no-progress"], 8);
    // `drift history` has no colour; -o and a closed pipe.
    let file = tmp.path().join("history.txt");
    let direct = ward(tmp.path(), &["drift", "history", "--db", db]);
    assert_eq!(direct.status.code(), Some(0));
    let o = ward(
        tmp.path(),
        &["drift", "history", "--db", db, "-o", file.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read(&file).unwrap(), direct.stdout);
    let (c, err) = ward_into_closed_pipe(tmp.path(), &["drift", "history", "--db", db], &[]);
    assert_eq!(c, Some(0), "{err}");
    assert!(!err.contains("error"), "{err}");
}

#[test]
fn verify() {
    // The gate's record of a plan, and a stand-in binary whose `show -json` prints that plan.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let noop = data("noop.json");
    let record = dir.join("gate.json");
    let db = dir.join("h.sqlite");
    let o = ward(
        dir,
        &[
            "gate",
            &noop,
            "--record",
            record.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let fake = dir.join("terraform");
    std::fs::write(&fake, format!("#!/bin/sh\ncat '{noop}'\n")).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(dir.join("tfplan"), b"saved plan").unwrap();
    conventions(
        dir,
        &[
            "verify",
            "tfplan",
            "--record",
            record.to_str().unwrap(),
            "--binary",
            fake.to_str().unwrap(),
        ],
        0,
    );
}

/// `ward stack plan` on the example stack through the conventions (a plan changes nothing, so
/// each run reports the same). Real Terraform and fakecloud: skipped when the rig is not
/// installed.
#[test]
fn stack_plan() {
    let Some(rig) = ward_rig::Rig::for_tests() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    ward_rig::example_stack(tmp.path()).unwrap();
    let repo: PathBuf = tmp.path().join("site");
    let db = tmp.path().join("history.sqlite").display().to_string();
    let tf = rig
        .newest_terraform()
        .expect("a Terraform")
        .path
        .display()
        .to_string();
    let cloud = tmp.path().join("cloud");
    let env: [(&str, &Path); 3] = [
        ("TF_CLI_CONFIG_FILE", rig.cli_config()),
        ("FAKECLOUD_DIR", &cloud),
        ("CHECKPOINT_DISABLE", Path::new("1")),
    ];
    conventions_env(
        &repo,
        &[
            "stack",
            "plan",
            "--site",
            "dc0",
            "--db",
            &db,
            "--terraform",
            &tf,
        ],
        0,
        &env,
    );
}

/// One vocabulary, from one list: a format a command does not write is a usage error naming
/// exactly the formats it does write; `text` is `terminal` everywhere.
#[test]
fn formats_come_from_one_list() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (args, formats) in [
        (vec!["rules", "list"], "terminal, json"),
        (vec!["plan", "-"], "terminal, json, markdown"),
        (vec!["check", "."], "terminal, json, sarif, junit"),
        (vec!["stack", "status"], "terminal, json, markdown"),
        (
            vec!["import", "check", "-", "--inventory", "x"],
            "terminal, json, markdown",
        ),
    ] {
        let mut a = args.clone();
        a.extend(["--format", "html"]);
        let o = ward(dir, &a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "ward {a:?}: {err}");
        assert!(
            err.contains(&format!("[possible values: {formats}]")),
            "ward {a:?}: {err}"
        );
    }
    let terminal = ward(
        dir,
        &["rules", "show", "aws_instance", "--format", "terminal"],
    );
    let text = ward(dir, &["rules", "show", "aws_instance", "--format", "text"]);
    assert_eq!(text.status.code(), Some(0));
    assert_eq!(terminal.stdout, text.stdout);
}

/// The commands that print a document rather than a report end quietly into a closed pipe too
/// (`ward completions bash | head` printed "Broken pipe" and exited 2 before its output went
/// through the one stdout writer), with the exit a full read gives.
#[test]
fn documents_into_a_closed_pipe_end_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["completions", "fish"],
        &["man"],
        &["docs", "gate"],
    ] {
        let (c, err) = ward_into_closed_pipe(tmp.path(), args, &[]);
        assert_eq!(c, Some(0), "ward {args:?} | head -0: {err}");
        assert!(
            !err.contains("error") && !err.to_lowercase().contains("broken pipe"),
            "ward {args:?} | head -0: {err}"
        );
    }
}
