//! `ward gate` and `ward verify` take `-o FILE` and `ward gate` takes `--color` like `ward plan`
//! (#36 item 6): the report goes to the file (atomically, not to standard output), the exit code
//! is the gate's; `auto` colours only a terminal with NO_COLOR unset, `always`/`never` say so,
//! JSON and Markdown are never coloured, and the words are the same with or without colour.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::{plain, ward_on_tty};

fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn hazards() -> (String, String) {
    let t = top();
    (
        t.join("examples/ward.hcl").display().to_string(),
        t.join("examples/plans/hazards.json").display().to_string(),
    )
}

fn ward(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

const ESC: &str = "\u{1b}[";

#[test]
fn gate_writes_its_report_to_the_output_file_and_keeps_its_exit() {
    let (config, plan) = hazards();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("gate.txt");
    let o = ward(&[
        "gate",
        "--config",
        &config,
        &plan,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(4), "{o:?}");
    assert!(
        o.stdout.is_empty(),
        "the report went to the file, not stdout"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let direct = ward(&["gate", "--config", &config, &plan]);
    assert_eq!(
        text,
        String::from_utf8_lossy(&direct.stdout),
        "the same report"
    );
    assert!(text.contains("NOT APPROVED"), "{text}");
    assert!(!text.contains(ESC), "a file is not coloured under auto");
    // JSON to a file, too.
    let json = tmp.path().join("gate.json");
    let o = ward(&[
        "gate",
        "--config",
        &config,
        &plan,
        "--format",
        "json",
        "--output",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(4));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(v.get("schema_version").is_some(), "{v}");
    // A directory is not a report file: a clear error (exit 2), nothing replaced.
    let o = ward(&[
        "gate",
        "--config",
        &config,
        &plan,
        "-o",
        tmp.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(tmp.path().is_dir());
}

#[test]
fn gate_color_is_taken_like_plans() {
    let (config, plan) = hazards();
    let always = ward(&["gate", "--config", &config, &plan, "--color", "always"]);
    let never = ward(&["gate", "--config", &config, &plan, "--color", "never"]);
    let a = String::from_utf8_lossy(&always.stdout).into_owned();
    let n = String::from_utf8_lossy(&never.stdout).into_owned();
    assert_eq!(always.status.code(), Some(4));
    assert!(a.contains(ESC), "--color always colours: {a}");
    assert!(!n.contains(ESC), "--color never does not: {n}");
    assert_eq!(plain(&a), n, "colour changes no word");
    let md = ward(&[
        "gate", "--config", &config, &plan, "--format", "markdown", "--color", "always",
    ]);
    assert!(
        !String::from_utf8_lossy(&md.stdout).contains(ESC),
        "Markdown is never coloured"
    );
    let args = format!("gate --config {config} {plan}");
    assert!(
        ward_on_tty(&args, None).contains(ESC),
        "auto colours a terminal"
    );
    assert!(
        !ward_on_tty(&args, Some("1")).contains(ESC),
        "NO_COLOR turns auto off"
    );
}

#[test]
fn verify_writes_its_report_to_the_output_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("verify.txt");
    // No record: verify refuses (exit 2) before any report; -o is parsed and nothing is written.
    let o = ward(&[
        "verify",
        "tfplan",
        "--record",
        "missing.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(!out.exists());
    let help = ward(&["verify", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("-o, --output <FILE>"));
}
