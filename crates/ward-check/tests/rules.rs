//! Every rule of the catalog has a failing and a passing fixture under
//! `tests/fixtures/rules/<ID>/{fail,pass}`: the failing one must produce at least one finding of
//! that rule (snapshotted), the passing one none.
//!
//! Fixtures are copied to a temporary directory first (so the ward checkout's own git does not
//! see them). A `.setup` file in a fixture lists steps run in the copy: `write PATH CONTENT`
//! and `git-init` (init, add everything, commit).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use ward_check::catalog::RULES;
use ward_check::knowledge::TypeList;
use ward_check::{check, CheckOptions};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules")
}

fn setup(dir: &Path) {
    let Ok(steps) = std::fs::read_to_string(dir.join(".setup")) else {
        return;
    };
    std::fs::remove_file(dir.join(".setup")).unwrap();
    for step in steps.lines() {
        if let Some(rest) = step.strip_prefix("write ") {
            let (path, content) = rest.split_once(' ').unwrap();
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, content).unwrap();
        } else if step == "git-init" {
            ward_rig::git(dir, &["init", "-q"]).unwrap();
            ward_rig::git(dir, &["add", "-A"]).unwrap();
            ward_rig::git(dir, &["commit", "-q", "-m", "fixture"]).unwrap();
        } else if !step.trim().is_empty() {
            panic!("unknown setup step {step}");
        }
    }
}

/// The Terraform for the --exec fixtures: `WARD_CHECK_TERRAFORM`, else the newest one
/// `scripts/install-tools` put in `.tools/terraform/`, else `terraform` on `PATH`.
fn terraform() -> Option<PathBuf> {
    let works = |p: &Path| {
        Command::new(p)
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if let Some(p) = std::env::var_os("WARD_CHECK_TERRAFORM") {
        return Some(PathBuf::from(p)).filter(|p| works(p));
    }
    let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.tools/terraform");
    let mut found: Vec<(Vec<u64>, PathBuf)> = std::fs::read_dir(tools)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            let v = e
                .file_name()
                .to_string_lossy()
                .split('.')
                .map(|x| x.parse().unwrap_or(0))
                .collect();
            (v, e.path().join("terraform"))
        })
        .filter(|(_, p)| works(p))
        .collect();
    found.sort();
    if let Some((_, p)) = found.pop() {
        return Some(p);
    }
    let p = PathBuf::from("terraform");
    works(&p).then_some(p)
}

/// Runs the check over a copy of a fixture; returns the findings of `id` as terminal text and
/// whether any was found.
/// Runs the catalog on a discovered repository, on the fixtures' date, without network.
fn check_repo(
    repo: &ward_repo::Repo,
    config: Option<&ward_config::Config>,
    knowledge: &TypeList,
    exec: Option<ward_check::exec::ExecOptions>,
) -> ward_check::finding::Report {
    check(
        repo,
        CheckOptions {
            config,
            resolver: None,
            knowledge,
            today: ward_check::scan::parse_date("2026-06-01").unwrap(),
            fail_on: None,
            exec,
        },
    )
    .unwrap()
}

fn run(id: &str, variant: &str, terraform: Option<&Path>) -> (bool, String) {
    let src = fixtures().join(id).join(variant);
    assert!(
        src.is_dir(),
        "rule {id} has no {variant} fixture at {}",
        src.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    ward_rig::copy_dir(&src, &root).unwrap();
    setup(&root);
    let config = ward_config::discover(None, &root)
        .unwrap()
        .map(|f| ward_config::Config::load_found(&f).unwrap());
    let repo = ward_repo::discover(
        &root,
        &ward_config::repo_options(config.as_ref(), Vec::new()),
    )
    .unwrap();
    let knowledge = TypeList {
        types: vec!["fake_volume".to_string()],
        origin: "fixture".to_string(),
    };
    let exec = terraform
        .filter(|_| id.starts_with("WARD-EXEC-"))
        .map(ward_check::exec::ExecOptions::new);
    let report = check_repo(&repo, config.as_ref(), &knowledge, exec);
    let mut text = String::new();
    let mut found = false;
    for f in report.findings.iter().filter(|f| f.rule == id) {
        found = true;
        ward_report::check::finding_line(&mut text, f);
    }
    for s in report.suppressed.iter().filter(|s| s.finding.rule == id) {
        text.push_str(&format!(
            "(suppressed) {} {}\n",
            s.finding.location(),
            s.reason
        ));
    }
    let text = text.replace(&root.display().to_string(), "<repo>");
    // The determinism fixture draws at random: where two renders first differ depends on the
    // draw (the file does not), so the snapshot keeps the file and masks the position.
    let text = if id == "WARD-RENDER-002" {
        regex::Regex::new(r"at byte \d+ \(line \d+, column \d+\)")
            .unwrap()
            .replace_all(&text, "at byte N (line L, column C)")
            .into_owned()
    } else {
        text
    };
    (found, text)
}

#[test]
fn every_rule_fails_its_failing_fixture_and_passes_its_passing_one() {
    let terraform = terraform();
    let mut checked = 0;
    for rule in RULES {
        if rule.id.as_str().starts_with("WARD-EXEC-") && terraform.is_none() {
            println!(
                "skipped {}: no Terraform (WARD_CHECK_TERRAFORM, .tools/terraform, PATH)",
                rule.id
            );
            continue;
        }
        let (found, text) = run(rule.id.as_str(), "fail", terraform.as_deref());
        assert!(
            found,
            "{}: the failing fixture produced no finding",
            rule.id
        );
        insta::assert_snapshot!(rule.id.as_str(), text);
        let (found, text) = run(rule.id.as_str(), "pass", terraform.as_deref());
        assert!(
            !found,
            "{}: the passing fixture produced findings:\n{text}",
            rule.id
        );
        checked += 1;
    }
    println!("{checked} rules checked against their fixtures");
}

#[test]
fn every_fixture_directory_names_a_rule() {
    for e in std::fs::read_dir(fixtures()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            ward_check::catalog::rule(&name).is_some(),
            "fixture directory {name} names no rule"
        );
    }
}

/// A YAML file nested 20,000 deep overflowed the stack of `ward check`; it is a WARD-PARSE-001
/// finding now, and the rest of the repository is still checked.
#[test]
fn deeply_nested_yaml_is_a_parse_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::write(
        root.join("requirements.yml"),
        format!("{}x\n", "- ".repeat(20_000)),
    )
    .unwrap();
    std::fs::write(
        root.join("main.tf"),
        "terraform {\n  backend \"local\" {}\n}\n",
    )
    .unwrap();
    let repo = ward_repo::discover(root, &ward_repo::Options::default()).unwrap();
    let knowledge = TypeList {
        types: Vec::new(),
        origin: "test".to_string(),
    };
    let report = check_repo(&repo, None, &knowledge, None);
    let parse: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == "WARD-PARSE-001")
        .collect();
    assert_eq!(parse.len(), 1, "{:?}", report.findings);
    assert_eq!(parse[0].file, "requirements.yml");
    assert!(
        parse[0].message.contains("nested more than 128 levels"),
        "{}",
        parse[0].message
    );
    assert!(report.findings.iter().any(|f| f.rule == "WARD-VER-001"));
}
