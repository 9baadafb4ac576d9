//! End-to-end tests of the `ward` binary: every exit code, bad inputs, formats, determinism and
//! sensitive values.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output, Stdio};

mod common;

use common::{data, ward_on_tty};

/// Runs ward in a temporary directory with no ward.hcl above it, colour unset.
fn ward(args: &[&str]) -> Output {
    ward_in(&std::env::temp_dir(), args)
}

fn ward_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally, not by a signal")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

// ---- bad input and usage: exit 2 ----

#[test]
fn missing_file_exits_2() {
    let o = ward(&["plan", "/nonexistent/plan.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}

#[test]
fn directory_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let o = ward(&["plan", dir.path().to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("directory"), "{}", stderr(&o));
}

#[test]
fn not_json_exits_2() {
    let o = ward(&["plan", &data("not-json.json")]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("help:"), "{}", stderr(&o));
}

#[test]
fn empty_stdin_exits_2() {
    let o = ward(&["plan", "-"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec![],
        vec!["plan"],
        vec!["plan", "x.json", "--fail-on", "sometimes"],
        vec!["plan", "x.json", "--format", "yaml"],
        vec!["plan", "x.json", "--markdown-limit", "10"],
        vec!["plan", "x.json", "--color", "maybe"],
        vec!["plan", "x.json", "--no-such-flag"],
        vec!["frobnicate"],
        vec!["rules"],
    ] {
        let o = ward(&args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn bad_config_exits_2() {
    let o = ward(&[
        "plan",
        &data("noop.json"),
        "--config",
        &data("ward-broken.hcl"),
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("ward-broken.hcl:2"), "{}", stderr(&o));
    let o = ward(&[
        "plan",
        &data("noop.json"),
        "--config",
        "/nonexistent/ward.hcl",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
}

#[test]
fn unwritable_output_exits_2() {
    let o = ward(&[
        "plan",
        &data("noop.json"),
        "-o",
        "/nonexistent/dir/report.txt",
    ]);
    assert_eq!(code(&o), 2);
}

#[test]
fn help_teaches_exit_codes_and_classes() {
    let o = ward(&["--help"]);
    assert_eq!(code(&o), 0);
    let s = stdout(&o);
    for needle in [
        "Exit codes",
        "coverage failure",
        "data-loss",
        "plan",
        "rules",
    ] {
        assert!(s.contains(needle), "--help lacks {needle}");
    }
    let o = ward(&["plan", "--help"]);
    assert_eq!(code(&o), 0);
    let s = stdout(&o);
    for needle in [
        "--fail-on",
        "--allow-unclassified",
        "--allow-errored",
        "NO_COLOR",
        "terraform show -json",
    ] {
        assert!(s.contains(needle), "plan --help lacks {needle}");
    }
}

// ---- ward rules ----

#[test]
fn rules_list_is_deterministic_and_has_json() {
    let a = ward(&["rules", "list"]);
    let b = ward(&["rules", "list"]);
    assert_eq!(code(&a), 0);
    assert_eq!(a.stdout, b.stdout);
    assert!(stdout(&a).contains("aws_instance"));
    let j = ward(&["rules", "list", "--format", "json"]);
    assert_eq!(code(&j), 0);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert!(v["packs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "aws"));
}

#[test]
fn rules_with_config_and_show() {
    let o = ward(&[
        "rules",
        "show",
        "acme_widget",
        "--config",
        &data("ward-acme.hcl"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("A test widget."));
    let o = ward(&[
        "rules",
        "show",
        "acme_widget",
        "--format",
        "json",
        "--config",
        &data("ward-acme.hcl"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["type"], "acme_widget");
    let o = ward(&["rules", "show", "acme_widget"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("unclassified"), "{}", stderr(&o));
}

// ---- ward plan, end to end through the reader and the classifier ----

#[test]
fn noop_plan_passes() {
    let o = ward(&["plan", &data("noop.json"), "--fail-on", "free"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("result: PASS"));
}

#[test]
fn fail_on_threshold_exits_1() {
    let o = ward(&["plan", &data("replace.json"), "--fail-on", "replace"]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    // Below the threshold: pass.
    let o = ward(&["plan", &data("tags.json"), "--fail-on", "in-place"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    // No threshold: pass whatever the class.
    let o = ward(&["plan", &data("replace.json")]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn unclassified_type_exits_3_and_beats_1() {
    let o = ward(&["plan", &data("unclassified.json"), "--fail-on", "replace"]);
    assert_eq!(code(&o), 3, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("acme_widget"));
    // Relaxed: the threshold decides, and the report counts what was unclassified.
    let o = ward(&["plan", &data("unclassified.json"), "--allow-unclassified"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("1 of"), "{}", stdout(&o));
    let o = ward(&[
        "plan",
        &data("unclassified.json"),
        "--allow-unclassified",
        "--fail-on",
        "replace",
    ]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    // Classified by ward.hcl: passes the gate.
    let o = ward(&[
        "plan",
        &data("unclassified.json"),
        "--config",
        &data("ward-acme.hcl"),
    ]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn errored_plan_exits_2_unless_allowed() {
    let o = ward(&["plan", &data("errored.json")]);
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("errored"));
    let o = ward(&["plan", &data("errored.json"), "--allow-errored"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn sensitive_values_never_printed_in_any_format() {
    for format in ["terminal", "json", "markdown"] {
        for color in ["never", "always"] {
            let o = ward(&[
                "plan",
                &data("sensitive.json"),
                "--format",
                format,
                "--color",
                color,
            ]);
            assert!(matches!(code(&o), 0 | 1), "{}", stderr(&o));
            let all = format!("{}{}", stdout(&o), stderr(&o));
            assert!(
                !all.contains("hunter2"),
                "{format}: sensitive value printed"
            );
        }
    }
}

#[test]
fn same_input_same_bytes_every_format() {
    for format in ["terminal", "json", "markdown"] {
        let a = ward(&["plan", &data("unclassified.json"), "--format", format]);
        let b = ward(&["plan", &data("unclassified.json"), "--format", format]);
        assert_eq!(a.stdout, b.stdout, "{format}");
        assert!(!a.stdout.is_empty());
    }
}

#[test]
fn json_report_has_schema_and_exit_code() {
    let o = ward(&[
        "plan",
        &data("replace.json"),
        "--format",
        "json",
        "--fail-on",
        "replace",
    ]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["outcome"]["exit_code"], 1);
    assert_eq!(v["changes"][0]["address"], "aws_instance.web");
}

/// The JSON report is written while the plan is read: a plan found unreadable part-way (here
/// cut off after its first change) exits 2 with the reader's error, leaves no `--output` file,
/// and writes no part of a report to standard output (what was buffered is dropped).
#[test]
fn json_report_of_a_plan_unreadable_part_way() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(data("replace.json")).unwrap();
    let cut = text.find("\"resource_changes\"").unwrap() + 200;
    let plan = dir.path().join("cut.json");
    std::fs::write(&plan, &text[..cut.min(text.len() - 1)]).unwrap();
    let plan = plan.to_str().unwrap();
    let o = ward(&["plan", plan, "--format", "json"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    assert!(stderr(&o).contains("cut.json"), "{}", stderr(&o));
    let out = dir.path().join("report.json");
    let o = ward(&[
        "plan",
        plan,
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!out.exists());
    assert!(
        !stderr(&o).contains("cannot write the report"),
        "{}",
        stderr(&o)
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn stdin_and_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.md");
    let plan = std::fs::read(data("replace.json")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args([
            "plan",
            "-",
            "--format",
            "markdown",
            "-o",
            out.to_str().unwrap(),
        ])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&plan).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(md.starts_with("### ward plan:"), "{md}");
    assert!(stderr(&o).contains("report.md"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    // Not a terminal (captured): auto means no colour.
    let o = ward(&["plan", &data("replace.json")]);
    assert!(!stdout(&o).contains('\u{1b}'));
    let o = ward(&["plan", &data("replace.json"), "--color", "always"]);
    assert!(stdout(&o).contains('\u{1b}'));
    let o = ward(&["plan", &data("replace.json"), "--color", "never"]);
    assert!(!stdout(&o).contains('\u{1b}'));
}

#[test]
fn markdown_limit_is_honoured() {
    let o = ward(&[
        "plan",
        &data("unclassified.json"),
        "--format",
        "markdown",
        "--markdown-limit",
        "1000",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(!o.stdout.is_empty());
    assert!(stdout(&o).chars().count() <= 1000);
}

#[test]
fn colour_on_a_terminal_unless_no_color() {
    let plan = data("replace.json");
    assert!(ward_on_tty(&format!("plan {plan}"), None).contains('\u{1b}'));
    assert!(!ward_on_tty(&format!("plan {plan}"), Some("1")).contains('\u{1b}'));
    // An empty NO_COLOR does not count (no-color.org).
    assert!(ward_on_tty(&format!("plan {plan}"), Some("")).contains('\u{1b}'));
    assert!(!ward_on_tty(&format!("plan {plan} --color never"), None).contains('\u{1b}'));
    // JSON is never coloured.
    assert!(
        !ward_on_tty(&format!("plan {plan} --format json --color always"), None).contains('\u{1b}')
    );
}

#[test]
fn stdin_on_a_terminal_is_refused_not_awaited() {
    let out = ward_on_tty("plan -", None);
    assert!(out.contains("standard input is a terminal"), "{out}");
}

// ---- standard output that cannot be written ----

/// Runs ward with standard output on `/dev/full` (every write fails with "no space left").
#[cfg(target_os = "linux")]
fn ward_to_full(dir: &std::path::Path, args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Every command that prints a report fails (exit 2, a clear error) when standard output cannot
/// be written, instead of passing with the report lost. `ward drift` used to exit as if the
/// report had been written.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_an_error_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("drift.sqlite");
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    let noop = data("noop.json");
    let replace = data("replace.json");
    let cases: Vec<Vec<&str>> = vec![
        vec!["plan", &noop],
        vec!["plan", &noop, "--format", "json"],
        vec!["plan", &noop, "--format", "markdown"],
        vec!["rules", "list"],
        vec!["gate", &replace],
        vec!["gate", &replace, "--format", "json"],
        vec![
            "drift",
            repo.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
        vec!["drift", "history", "--db", db.to_str().unwrap()],
        vec!["check", repo.to_str().unwrap()],
        vec!["check", "--list-rules"],
    ];
    for args in cases {
        let o = ward_to_full(dir.path(), &args);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "ward {args:?} > /dev/full: {err}");
        assert!(
            err.contains("error: cannot write") && err.contains("standard output"),
            "ward {args:?} > /dev/full: {err}"
        );
    }
}

/// The exit-code table in `ward --help` is the one generated from the exit type.
#[test]
fn help_exit_codes_come_from_the_exit_type() {
    let o = ward(&["--help"]);
    assert_eq!(code(&o), 0);
    let s = stdout(&o);
    assert!(
        s.contains(&ward_report::Exit::help_table()),
        "ward --help lacks the generated exit-code table:\n{s}"
    );
}

/// The `Exit codes:` lines of `gate`, `verify` and `drift --help` are generated from the exit
/// type: each names its command's codes and the signal codes, with the type's words.
#[test]
fn subcommand_help_exit_codes_come_from_the_exit_type() {
    use ward_report::Exit;
    // The codes each command documents (docs/exit-codes.md), and words the type gives them.
    let cases: [(&str, &[u8], &[&str]); 3] = [
        (
            "gate",
            &[0, 1, 2, 3, 4, 5, 6],
            &[
                "1 a change other than an import in a root being adopted",
                "4 approval required",
                "5 budget exceeded",
                "6 a liveness guard refused",
            ],
        ),
        ("verify", &[0, 1, 2], &["0 verified"]),
        (
            "drift",
            &[0, 2, 7, 8],
            &["7 drift alert (new or escalated drift)"],
        ),
    ];
    for (cmd, exits, words) in cases {
        let help = stdout(&ward(&[cmd, "--help"]));
        // clap wraps long lines: read the help as one line.
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let start = flat.find("Exit codes: ");
        assert!(
            start.is_some(),
            "ward {cmd} --help has no Exit codes line:\n{help}"
        );
        let start = start.unwrap();
        let line = &flat[start..];
        let line = &line[..line
            .find(" stopped by a signal.")
            .expect("the signal codes")];
        let codes: Vec<String> = line["Exit codes: ".len()..]
            .split("; ")
            .map(|p| p.split(' ').next().unwrap().to_string())
            .collect();
        let mut want: Vec<String> = exits.iter().map(|c| c.to_string()).collect();
        let signals: Vec<String> = Exit::SIGNALS
            .iter()
            .map(|(_, e)| e.code().to_string())
            .collect();
        want.push(signals.join("/"));
        assert_eq!(codes, want, "ward {cmd} --help: {line}");
        for w in words {
            assert!(line.contains(w), "ward {cmd} --help lacks {w:?}: {line}");
        }
    }
}

/// One `--format` vocabulary: `terminal` for every command's terminal report; `text`, the old
/// name for gate, verify and drift, is still accepted (hidden) and prints the same bytes.
#[test]
fn terminal_format_everywhere_text_still_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("drift.sqlite");
    let (db, repo) = (db.to_str().unwrap(), dir.path().to_str().unwrap());
    let replace = data("replace.json");
    let commands: Vec<Vec<&str>> = vec![
        vec!["gate", &replace],
        vec!["drift", repo, "--db", db, "--no-progress"],
        vec!["drift", "history", "--db", db],
    ];
    for args in commands {
        let run = |format: &str| {
            let mut a = args.clone();
            a.extend(["--format", format]);
            ward_in(dir.path(), &a)
        };
        let (t, x) = (run("terminal"), run("text"));
        assert_ne!(
            code(&t),
            2,
            "ward {args:?} --format terminal: {}",
            stderr(&t)
        );
        assert_eq!(code(&t), code(&x), "ward {args:?}");
        assert_eq!(stdout(&t), stdout(&x), "ward {args:?}");
        let help = stdout(&ward(&[args[0], "--help"]));
        assert!(help.contains("terminal"), "{help}");
        assert!(!help.contains("- text:"), "{help}");
    }
    for cmd in ["plan", "rules list", "check", "verify"] {
        let mut a: Vec<&str> = cmd.split(' ').collect();
        a.push("--help");
        let help = stdout(&ward(&a));
        assert!(help.contains("terminal"), "ward {cmd} --help: {help}");
    }
}
