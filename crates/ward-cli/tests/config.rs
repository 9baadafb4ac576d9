//! `ward.hcl` through the binary: every command finds the same file by the same rule, and every
//! mistake in it, at any depth, stops every command with exit 2, `ward.hcl:LINE:COL` and a
//! did-you-mean.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn plan() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/noop.json")
        .display()
        .to_string()
}

fn ward_in(dir: &Path, args: &[&str], state: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .env("XDG_STATE_HOME", state)
        .env_remove("WARD_APPROVAL_KEY")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A repository (`.git`) with `ward.hcl` at its top and a subdirectory `live/net` to run in.
fn repo(ward_hcl: &str) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let top = t.path().join("repo");
    let sub = top.join("live/net");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(top.join(".git")).unwrap();
    std::fs::write(top.join("ward.hcl"), ward_hcl).unwrap();
    (t, sub)
}

/// Every command that reads configuration, run from `dir`.
fn commands() -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("plan", vec!["plan".into(), plan()]),
        ("gate", vec!["gate".into(), plan()]),
        ("check", vec!["check".into(), ".".into()]),
        ("drift", vec!["drift".into(), ".".into()]),
        ("rules", vec!["rules".into(), "list".into()]),
    ]
}

#[test]
fn every_command_finds_the_same_ward_hcl_from_a_subdirectory() {
    // A typo only ward-config reports: whoever reads the file fails on it, citing the file
    // found two directories up.
    let (t, sub) = repo("check {\n  enabeld = false\n}\n");
    for (name, args) in commands() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ward_in(&sub, &args, t.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "ward {name}: {err}");
        assert!(
            err.contains("../../ward.hcl:2:3: unknown key `enabeld`"),
            "ward {name}: {err}"
        );
    }
}

#[test]
fn a_typo_at_any_depth_exits_2_with_line_column_and_a_suggestion() {
    for (text, at, suggestion) in [
        (
            "check {\n  enabeld = false\n}\n",
            "ward.hcl:2:3:",
            "`enabled`",
        ),
        (
            "check {\n  terraform_flor = \"1.6.0\"\n}\n",
            "ward.hcl:2:3:",
            "`terraform_floor`",
        ),
        (
            "check {\n  rule \"WARD-MOD-004\" {\n    enabeld = false\n  }\n}\n",
            "ward.hcl:3:5:",
            "`enabled`",
        ),
        (
            "check {\n  release \"p\" {\n    variable = []\n  }\n}\n",
            "ward.hcl:3:5:",
            "`variables`",
        ),
        (
            "drift {\n  exclud \"x\" {\n    reason = \"r\"\n  }\n}\n",
            "ward.hcl:2:3:",
            "`exclude`",
        ),
        (
            "drift {\n  ignore {\n    adress = \"a\"\n  }\n}\n",
            "ward.hcl:3:5:",
            "`address`",
        ),
        (
            "root \"net\" {\n  path = \"live/net\"\n  layr = \"base\"\n}\n",
            "ward.hcl:3:3:",
            "`layer`",
        ),
        (
            "layer \"base\" {\n  levle = 0\n}\n",
            "ward.hcl:2:3:",
            "`level`",
        ),
        (
            "policy {\n  protetc = []\n}\n",
            "ward.hcl:2:3:",
            "`protect`",
        ),
        (
            "guard \"g\" {\n  comand = [\"true\"]\n}\n",
            "ward.hcl:2:3:",
            "`command`",
        ),
    ] {
        let (t, sub) = repo(text);
        let top = sub.parent().unwrap().parent().unwrap().to_path_buf();
        for (name, args) in commands() {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = ward_in(&top, &args, t.path());
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "ward {name} on {text:?}: {err}");
            assert!(err.contains(at), "ward {name} on {text:?}: {err}");
            assert!(
                err.contains(&format!("did you mean {suggestion}")),
                "ward {name} on {text:?}: {err}"
            );
        }
    }
}

#[test]
fn config_flag_wins_and_must_exist() {
    let (t, sub) = repo("check {\n  enabeld = false\n}\n");
    let good = t.path().join("good.hcl");
    std::fs::write(&good, "").unwrap();
    let good = good.display().to_string();
    let missing = t.path().join("missing.hcl").display().to_string();
    for (name, args) in commands() {
        let mut with: Vec<&str> = args.iter().map(String::as_str).collect();
        with.extend(["--config", good.as_str()]);
        let o = ward_in(&sub, &with, t.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("enabeld"), "ward {name} --config: {err}");
        let mut with: Vec<&str> = args.iter().map(String::as_str).collect();
        with.extend(["--config", missing.as_str()]);
        let o = ward_in(&sub, &with, t.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            o.status.code(),
            Some(2),
            "ward {name} --config missing: {err}"
        );
        assert!(err.contains("does not exist"), "ward {name}: {err}");
    }
}

/// `plan { fail_on }` sets the threshold once; `--fail-on` overrides it.
#[test]
fn plan_block_sets_the_threshold_and_the_flag_overrides_it() {
    let hazards = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/plans/hazards.json")
        .display()
        .to_string();
    let (t, sub) = repo(&ward_rig::rules::ward_hcl(
        "plan {\n  fail_on = \"replace\"\n}\n",
    ));
    let state = t.path().join("state");
    let out = ward_in(&sub, &["plan", &hazards], &state);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--fail-on replace"), "{text}");
    // The flag overrides the block: data-loss is above everything tags-only.json does.
    let tags = hazards.replace("hazards.json", "tags-only.json");
    let (t3, sub3) = repo(&ward_rig::rules::ward_hcl(
        "plan {\n  fail_on = \"free\"\n}\n",
    ));
    let state3 = t3.path().join("state");
    assert_eq!(
        ward_in(&sub3, &["plan", &tags], &state3).status.code(),
        Some(1)
    );
    let out = ward_in(&sub3, &["plan", &tags, "--fail-on", "data-loss"], &state3);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Without the block there is no threshold: exit 0, the costs lead.
    let (t2, sub2) = repo(&ward_rig::rules::ward_hcl(""));
    let out = ward_in(&sub2, &["plan", &hazards], &t2.path().join("state"));
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("result: 1 data-loss, 3 replace"), "{text}");
}

/// The README's first command, at the top of the checkout: fakecloud's rules are the user rule
/// file examples/rules/fakecloud.hcl, loaded by examples/ward.hcl; the header names that file,
/// and `ward rules list` lists it under user rules, not as a pack. Without the configuration no
/// fakecloud type is known (exit 3).
#[test]
fn the_readme_command_loads_the_fakecloud_rule_file() {
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let state = tempfile::tempdir().unwrap();
    let args = [
        "plan",
        "--config",
        "examples/ward.hcl",
        "examples/plans/hazards.json",
    ];
    let out = ward_in(&top, &args, state.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.lines()
            .any(|l| l == "decided by rule files: examples/rules/fakecloud.hcl"),
        "{text}"
    );
    assert!(
        text.contains("result: 1 data-loss, 3 replace, 1 interrupt"),
        "{text}"
    );
    let rules = ward_in(
        &top,
        &["rules", "list", "--config", "examples/ward.hcl"],
        state.path(),
    );
    let list = String::from_utf8_lossy(&rules.stdout);
    assert!(
        list.contains("user rules: examples/ward.hcl, examples/rules/fakecloud.hcl"),
        "{list}"
    );
    assert!(!list.contains("fakecloud 2026"), "{list}");
    // The plan alone, outside any configuration: every fakecloud type is unclassified.
    let bare = ward_in(
        state.path(),
        &[
            "plan",
            top.join("examples/plans/hazards.json").to_str().unwrap(),
        ],
        state.path(),
    );
    let text = String::from_utf8_lossy(&bare.stdout);
    assert_eq!(bare.status.code(), Some(3), "{text}");
    assert!(text.contains("fakecloud_volume"), "{text}");
}
