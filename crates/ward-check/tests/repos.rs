//! Whole repositories in the shapes teams have: a module repository, a Terragrunt live
//! repository, an atmos-style repository with generated backends and lock files, and a root with
//! state but no backend block. Each fixture under `tests/fixtures/repos/<name>/` is checked the
//! way `ward check` runs (its `ward.hcl` read, ward's built-in knowledge), its terminal report
//! snapshotted, and the findings it must and must not produce asserted.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use ward_check::finding::Report;
use ward_check::output::Output;
use ward_report::Format;

mod common;
use common::run_check;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/repos")
        .join(name)
}

/// Copies the fixture, applies its `.setup` (`write PATH CONTENT` lines), makes it a git work
/// tree (nothing committed: ward.hcl discovery stops there), and runs `ward check` on it.
/// `NO-WARD-HCL` in `extra` removes the fixture's `ward.hcl` first.
fn check(name: &str, extra: &[&str]) -> (Report, String) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join(name);
    ward_rig::copy_dir(&fixture(name), &root).unwrap();
    if let Ok(steps) = std::fs::read_to_string(root.join(".setup")) {
        std::fs::remove_file(root.join(".setup")).unwrap();
        for step in steps.lines().filter(|l| !l.trim().is_empty()) {
            let (path, content) = step
                .strip_prefix("write ")
                .and_then(|r| r.split_once(' '))
                .unwrap_or_else(|| panic!("unknown setup step {step}"));
            std::fs::write(root.join(path), content).unwrap();
        }
    }
    if extra.contains(&"NO-WARD-HCL") {
        std::fs::remove_file(root.join("ward.hcl")).unwrap();
    }
    let st = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&root)
        .status()
        .unwrap();
    assert!(st.success());
    let mut excludes = Vec::new();
    let mut args = extra.iter().filter(|s| **s != "NO-WARD-HCL");
    while let Some(a) = args.next() {
        assert_eq!(*a, "--exclude", "only --exclude PATH is given here");
        excludes.push(*args.next().unwrap());
    }
    let report = run_check(&root, &excludes);
    let out = Output::Report(Box::new(report));
    let text = ward_report::check::render(&out, Format::Terminal, true)
        .unwrap()
        .replace(&root.display().to_string(), "<repo>");
    let Output::Report(report) = out else {
        panic!("no report")
    };
    (*report, text)
}

fn rules(r: &Report) -> BTreeSet<&str> {
    r.findings.iter().map(|f| f.rule.as_str()).collect()
}

fn kind_of<'a>(r: &'a Report, dir: &str) -> &'a str {
    r.directories
        .iter()
        .find(|d| d.dir == dir)
        .map(|d| d.kind.as_str())
        .unwrap_or_else(|| panic!("no directory {dir}: {:?}", r.directories))
}

fn assert_none(r: &Report, ids: &[&str]) {
    for id in ids {
        let hits: Vec<String> = r
            .findings
            .iter()
            .filter(|f| f.rule == *id)
            .map(|f| format!("{}: {}", f.location(), f.message))
            .collect();
        assert!(hits.is_empty(), "{id} must not be raised: {hits:#?}");
    }
}

#[test]
fn module_repository() {
    let (r, text) = check("module-repo", &[]);
    insta::assert_snapshot!("module_repo", text);
    assert_eq!(r.repository_kind, "module");
    assert_eq!(kind_of(&r, "."), "module");
    assert_eq!(kind_of(&r, "examples/complete"), "example");
    assert_eq!(kind_of(&r, "tests/basic"), "example");
    assert_eq!(kind_of(&r, "modules/parameter-group"), "module");
    assert_eq!(r.summary.roots, 0);
    assert_eq!(r.summary.examples, 2);
    // Examples are checked for pins and versions (what a user copying one inherits: the
    // required_version of the module tests/basic calls is inherited through the call)...
    let found = rules(&r);
    assert!(found.contains("WARD-MOD-004"), "{text}");
    assert!(!found.contains("WARD-VER-001"), "{text}");
    // ...but not as production roots, and a reusable module is not asked to protect.
    assert_none(&r, &["WARD-VER-004", "WARD-STATE-002", "WARD-DATA-001"]);
    let not_raised: BTreeSet<&str> = r.not_raised.iter().map(|n| n.rule.as_str()).collect();
    assert_eq!(
        not_raised,
        BTreeSet::from([
            "WARD-DATA-001",
            "WARD-STATE-002",
            "WARD-VER-001",
            "WARD-VER-004"
        ])
    );
}

#[test]
fn terragrunt_live_repository() {
    let (r, text) = check("terragrunt-live", &[]);
    insta::assert_snapshot!("terragrunt_live", text);
    assert_eq!(r.repository_kind, "live");
    assert_eq!(kind_of(&r, "live/prod/vpc"), "root");
    assert_eq!(kind_of(&r, "live/prod/app"), "root");
    let found = rules(&r);
    // The branch-pinned source, the two refs of one package, the upward dependency.
    for id in ["WARD-MOD-001", "WARD-MOD-005", "WARD-LAYER-001"] {
        assert!(found.contains(id), "{id} missing:\n{text}");
    }
    let branch: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule == "WARD-MOD-001")
        .collect();
    assert_eq!(branch.len(), 1, "{text}");
    assert_eq!(branch[0].file, "live/prod/vpc/terragrunt.hcl");
    let layer: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule == "WARD-LAYER-001")
        .collect();
    assert_eq!(layer.len(), 1, "only the upward read: {text}");
    assert_eq!(layer[0].dir.as_deref(), Some("live/prod/vpc"));
    // remote_state in root.hcl is the backend; the versions live in the source modules; the
    // parent configuration files are not units.
    assert_none(
        &r,
        &[
            "WARD-DISC-001",
            "WARD-DISC-003",
            "WARD-STATE-002",
            "WARD-VER-001",
            "WARD-VER-004",
            "WARD-PARSE-001",
        ],
    );
    assert_eq!(r.summary.roots, 2, "{text}");
}

#[test]
fn atmos_style_repository_with_generated_backends() {
    let (r, text) = check("atmos", &[]);
    insta::assert_snapshot!("atmos", text);
    // The one real problem: a label module at two versions, one grouped finding naming the
    // minority use and the majority version.
    let split: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule == "WARD-MOD-005")
        .collect();
    assert_eq!(split.len(), 1, "{text}");
    assert_eq!(split[0].file, "components/terraform/dns/context.tf");
    assert!(
        split[0].message.contains("the majority, 2, at 0.25.0"),
        "{}",
        split[0].message
    );
    assert_eq!(split[0].detail.len(), 2, "one minority row and the count");
    // The generator owns backends and lock files; deprecated/ is not read.
    assert_none(
        &r,
        &[
            "WARD-STATE-002",
            "WARD-VER-004",
            "WARD-MOD-001",
            "WARD-DATA-001",
        ],
    );
    assert_eq!(r.excluded.len(), 1);
    assert_eq!(r.excluded[0].path, "deprecated");
    let generated: usize = r
        .not_raised
        .iter()
        .filter(|n| n.why.contains("atmos"))
        .map(|n| n.count)
        .sum();
    assert_eq!(
        generated, 6,
        "3 backends + 3 lock files: {:?}",
        r.not_raised
    );
    // Without the setting, they are raised.
    let (plain, _) = check("atmos", &["NO-WARD-HCL"]);
    let plain_rules = rules(&plain);
    for id in ["WARD-STATE-002", "WARD-VER-004", "WARD-MOD-001"] {
        assert!(plain_rules.contains(id), "{id} without ward.hcl");
    }
}

#[test]
fn exclude_on_the_command_line() {
    let (r, _) = check("atmos", &["NO-WARD-HCL", "--exclude", "deprecated/"]);
    assert_none(&r, &["WARD-MOD-001"]);
    assert_eq!(r.excluded[0].reason, "--exclude on the command line");
    // A path outside the repository is refused by the command: ward-cli's tests/check_cli.rs.
}

#[test]
fn root_with_state_and_no_backend() {
    let (r, text) = check("state-no-backend", &[]);
    insta::assert_snapshot!("state_no_backend", text);
    assert_eq!(kind_of(&r, "legacy"), "root", "{text}");
    let found = rules(&r);
    for id in ["WARD-STATE-002", "WARD-STATE-004", "WARD-VER-004"] {
        assert!(found.contains(id), "{id} missing:\n{text}");
    }
    assert_none(&r, &["WARD-VER-001", "WARD-DISC-001"]);
}
