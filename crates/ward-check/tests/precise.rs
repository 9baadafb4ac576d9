//! The precise rules and one finding per cause (issue #32, items 1 and 3): for each behaviour
//! that changed, a fixture where the finding is right (it must be raised, and say the truth) and
//! one where it was noise (it must not be).
//!
//! Fixtures live under `tests/fixtures/precise/<case>/`; a `dot-gitignore` there becomes
//! `.gitignore` in the temporary copy the check runs on, so that it never acts on ward's own
//! checkout.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use ward_check::catalog::Severity;
use ward_check::finding::{Finding, Report};
use ward_check::knowledge::TypeList;
use ward_check::{check, CheckOptions};

fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/precise")
        .join(case)
}

fn rename_gitignores(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rename_gitignores(&p);
        } else if p.file_name().is_some_and(|n| n == "dot-gitignore") {
            std::fs::rename(&p, p.with_file_name(".gitignore")).unwrap();
        }
    }
}

fn run(case: &str) -> Report {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    ward_rig::copy_dir(&fixture(case), &root).unwrap();
    rename_gitignores(&root);
    let config = ward_config::discover(None, &root)
        .unwrap()
        .map(|f| ward_config::Config::load_found(&f).unwrap());
    let repo = ward_repo::discover(
        &root,
        &ward_config::repo_options(config.as_ref(), Vec::new()),
    )
    .unwrap();
    let knowledge = TypeList {
        types: vec!["fake_instance".to_string()],
        origin: "fixture".to_string(),
    };
    check(
        &repo,
        CheckOptions {
            config: config.as_ref(),
            resolver: None,
            knowledge: &knowledge,
            today: ward_check::scan::parse_date("2026-06-01").unwrap(),
            fail_on: None,
            exec: None,
        },
    )
    .unwrap()
}

fn of<'r>(r: &'r Report, rule: &str) -> Vec<&'r Finding> {
    r.findings.iter().filter(|f| f.rule == rule).collect()
}

fn show(fs: &[&Finding]) -> String {
    fs.iter()
        .map(|f| format!("{} {} {}: {}", f.severity, f.rule, f.location(), f.message))
        .collect::<Vec<_>>()
        .join("\n")
}

fn not_raised(r: &Report, rule: &str) -> usize {
    r.not_raised
        .iter()
        .filter(|n| n.rule == rule)
        .map(|n| n.count)
        .sum()
}

#[test]
fn ans_005_flags_secrets_by_name_or_source_and_says_where_the_value_comes_from() {
    let r = run("ans-005/fail");
    let f = of(&r, "WARD-ANS-005");
    assert_eq!(f.len(), 3, "{}", show(&f));
    let at = |line: usize| {
        f.iter()
            .find(|x| x.line == line)
            .unwrap_or_else(|| panic!("no finding at line {line}: {}", show(&f)))
    };
    // By name, from a variable: the message names the variable, not an "environment variable".
    assert!(
        at(3).message.contains("`-e vault_token=…`"),
        "{}",
        at(3).message
    );
    assert!(
        at(3).message.contains("the variable $VAULT_TOKEN"),
        "{}",
        at(3).message
    );
    // By source: a variable whose own name says it is a secret.
    assert!(
        at(4).message.contains("$DB_PASSWORD, whose name says"),
        "{}",
        at(4).message
    );
    // By name, from a positional argument: said so.
    assert!(
        at(5)
            .message
            .contains("the script's positional argument $1"),
        "{}",
        at(5).message
    );
    for x in &f {
        assert_eq!(x.severity, Severity::Error);
    }
}

#[test]
fn ans_005_leaves_ordinary_variables_positional_arguments_and_jinja_lookups_alone() {
    let r = run("ans-005/pass");
    let f = of(&r, "WARD-ANS-005");
    assert!(f.is_empty(), "{}", show(&f));
}

#[test]
fn ans_003_flags_a_fetch_without_a_retry_story() {
    let r = run("ans-003/fail");
    let f = of(&r, "WARD-ANS-003");
    assert_eq!(f.len(), 2, "{}", show(&f));
    let download = f.iter().find(|x| x.line == 4).unwrap();
    assert!(
        download.message.contains("it does not retry")
            && download
                .message
                .contains("get_url's default timeout of 10s"),
        "{}",
        download.message
    );
    assert!(
        !download.message.contains("no timeout"),
        "the module's default bounds each try: {}",
        download.message
    );
    let wait = f.iter().find(|x| x.line == 8).unwrap();
    assert!(
        wait.message.contains("retries 1 is below the minimum of 3")
            && !wait.message.contains("no delay"),
        "no delay is Ansible's 5 s: {}",
        wait.message
    );
}

#[test]
fn ans_003_honours_until_retries_delay_defaults_ignored_failures_and_molecule_verifiers() {
    let r = run("ans-003/pass");
    let f = of(&r, "WARD-ANS-003");
    assert!(f.is_empty(), "{}", show(&f));
}

#[test]
fn imp_001_is_an_error_in_a_root_being_adopted_documented_patterns_included() {
    let r = run("imp-001/adopted");
    let f = of(&r, "WARD-IMP-001");
    assert_eq!(f.len(), 3, "{}", show(&f));
    // The adopted root and the local module it calls: errors; a module nothing adopted calls:
    // not raised (its ignore_changes is its design; counted).
    for x in &f {
        assert_eq!(x.severity, Severity::Error, "{}", show(&f));
        assert!(x.message.contains("a root being adopted"), "{}", x.message);
    }
    assert!(
        f.iter()
            .any(|x| x.file == "modules/web/main.tf" && x.severity == Severity::Error),
        "{}",
        show(&f)
    );
    assert!(
        !f.iter().any(|x| x.file == "modules/unused/main.tf"),
        "{}",
        show(&f)
    );
    assert!(
        r.not_raised
            .iter()
            .any(|n| n.rule == "WARD-IMP-001"
                && n.why.contains("modules and examples outside adoption")),
        "{:?}",
        r.not_raised
    );
    let asg = f
        .iter()
        .find(|x| x.message.contains("aws_autoscaling_group.workers"))
        .unwrap();
    assert!(
        asg.detail
            .iter()
            .any(|d| d.contains("desired_capacity is documented")),
        "{:?}",
        asg.detail
    );
}

#[test]
fn imp_001_elsewhere_is_a_warning_and_knows_provider_documented_patterns() {
    let r = run("imp-001/elsewhere");
    let f = of(&r, "WARD-IMP-001");
    // Only the undocumented `image`; desired_capacity, load_balancers (after a comment),
    // azapi's `all` and attached_disk are documented.
    assert_eq!(f.len(), 1, "{}", show(&f));
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(f[0]
        .message
        .contains("fake_instance.web` ignores changes to image without"));
    assert_eq!(not_raised(&r, "WARD-IMP-001"), 4, "{:?}", r.not_raised);
}

#[test]
fn ver_004_lock_files_ignored_by_git_are_one_finding_at_the_gitignore_line() {
    let r = run("ver-004/ignored");
    let f = of(&r, "WARD-VER-004");
    assert_eq!(f.len(), 2, "{}", show(&f));
    let grouped = f.iter().find(|x| x.file == "live/.gitignore").unwrap();
    assert_eq!(grouped.line, 3);
    assert!(
        grouped.message.contains("3 root(s)") && grouped.message.contains("**/.terraform.lock.hcl"),
        "{}",
        grouped.message
    );
    assert_eq!(
        grouped.detail,
        vec!["root live/a", "root live/b", "root live/c"]
    );
    // A root the pattern does not reach keeps its own finding.
    assert!(
        f.iter().any(|x| x.dir.as_deref() == Some("other")),
        "{}",
        show(&f)
    );
    // A root in a directory git ignores is generated (vendored): nothing of it is committed.
    assert!(
        r.not_raised.iter().any(|n| n.rule == "WARD-VER-004"
            && n.why.contains("vendor/.gitignore:2")
            && n.count == 1),
        "{:?}",
        r.not_raised
    );
    assert!(
        r.not_raised
            .iter()
            .any(|n| n.rule == "WARD-STATE-002" && n.why.contains("vendor/.gitignore:2")),
        "{:?}",
        r.not_raised
    );
}

#[test]
fn ver_004_not_on_roots_without_providers_nor_on_a_lock_file_re_included() {
    let r = run("ver-004/pass");
    let f = of(&r, "WARD-VER-004");
    assert!(f.is_empty(), "{}", show(&f));
    assert!(
        r.not_raised
            .iter()
            .any(|n| n.rule == "WARD-VER-004" && n.why.contains("need no provider")),
        "{:?}",
        r.not_raised
    );
}

#[test]
fn ver_004_of_a_terragrunt_unit_points_at_the_unit_not_its_include() {
    let r = run("ver-004/terragrunt");
    let f = of(&r, "WARD-VER-004");
    assert_eq!(f.len(), 1, "{}", show(&f));
    assert_eq!(f[0].file, "live/prod/app/terragrunt.hcl", "{}", show(&f));
}

#[test]
fn state_002_not_where_git_ignores_a_generated_backend() {
    let r = run("state-002/generated");
    let f = of(&r, "WARD-STATE-002");
    assert!(f.is_empty(), "{}", show(&f));
    let why: Vec<&str> = r
        .not_raised
        .iter()
        .filter(|n| n.rule == "WARD-STATE-002")
        .map(|n| n.why.as_str())
        .collect();
    assert_eq!(not_raised(&r, "WARD-STATE-002"), 2, "{why:?}");
    assert!(why.iter().all(|w| w.contains(".gitignore:2")), "{why:?}");
}

#[test]
fn state_002_still_raised_when_the_ignore_pattern_does_not_name_a_backend() {
    let r = run("state-002/varfiles");
    let f = of(&r, "WARD-STATE-002");
    assert_eq!(f.len(), 1, "{}", show(&f));
}

#[test]
fn disc_001_not_when_ansible_was_checked() {
    let r = run("disc-001/ansible-only");
    assert!(of(&r, "WARD-DISC-001").is_empty(), "{:?}", r.findings);
}

#[test]
fn disc_001_when_nothing_at_all_was_checked() {
    let r = run("disc-001/nothing");
    assert_eq!(of(&r, "WARD-DISC-001").len(), 1, "{:?}", r.findings);
}

#[test]
fn mod_005_in_a_module_repository_the_module_s_own_uses_split() {
    let r = run("mod-005/split");
    assert_eq!(r.repository_kind, "module");
    let f = of(&r, "WARD-MOD-005");
    assert_eq!(f.len(), 1, "{}", show(&f));
    assert!(
        f[0].message.contains("4.0.0") && f[0].message.contains("3.1.0"),
        "{}",
        f[0].message
    );
    assert!(
        !f[0].message.contains("~> 4.0"),
        "examples take no part: {}",
        f[0].message
    );
}

#[test]
fn mod_005_examples_of_a_module_repository_split_nothing() {
    let r = run("mod-005/examples-only");
    assert_eq!(r.repository_kind, "module");
    let f = of(&r, "WARD-MOD-005");
    assert!(f.is_empty(), "{}", show(&f));
}

#[test]
fn ans_003_measures_ansible_s_defaults_against_the_rule_s_settings() {
    let r = run("ans-003/defaults");
    let f = of(&r, "WARD-ANS-003");
    assert_eq!(f.len(), 1, "{}", show(&f));
    let m = &f[0].message;
    for part in [
        "no timeout, and uri's own default of 30s is above the limit of 20s",
        "no retries, and Ansible's default of 3 is below the minimum of 5",
        "no delay, and Ansible's default of 5s is below the minimum of 10s",
    ] {
        assert!(m.contains(part), "{part}: {m}");
    }
}

#[test]
fn ans_002_a_file_that_pins_nothing_is_one_finding_listing_its_dependencies() {
    let r = run("ans-002/none");
    let f = of(&r, "WARD-ANS-002");
    assert_eq!(f.len(), 1, "{}", show(&f));
    assert_eq!((f[0].file.as_str(), f[0].line), ("requirements.yml", 2));
    assert!(
        f[0].message.contains("pins none of its 3"),
        "{}",
        f[0].message
    );
    assert_eq!(f[0].detail.len(), 3, "{:?}", f[0].detail);
}

#[test]
fn ans_002_a_file_that_pins_some_names_each_one_it_does_not() {
    let r = run("ans-002/mixed");
    let f = of(&r, "WARD-ANS-002");
    assert_eq!(f.len(), 1, "{}", show(&f));
    assert!(
        f[0].message.contains("ansible.posix has no version"),
        "{}",
        f[0].message
    );
}

/// Code under a `deprecated/` directory is not maintained: an old pin there splits nothing for
/// WARD-MOD-005, and its own errors are warnings (the cloudposse components monorepo keeps 40
/// such components: 31 of its 45 MOD-005 errors were theirs).
#[test]
fn deprecated_directories_split_nothing_and_are_warnings() {
    let r = run("deprecated/quiet");
    assert!(
        of(&r, "WARD-MOD-005").is_empty(),
        "{}",
        show(&of(&r, "WARD-MOD-005"))
    );
    let ver = of(&r, "WARD-VER-001");
    assert_eq!(ver.len(), 1, "{}", show(&ver));
    assert_eq!(ver[0].severity, Severity::Warning, "{}", show(&ver));
    assert!(
        ver[0].detail.iter().any(|d| d.contains("deprecated")),
        "{}",
        show(&ver)
    );
    assert!(r.findings.iter().all(|f| f.severity <= Severity::Warning));
}

/// Live roots that disagree still split, whatever the deprecated ones pin.
#[test]
fn live_roots_that_disagree_still_split() {
    let r = run("deprecated/split");
    let split = of(&r, "WARD-MOD-005");
    assert_eq!(split.len(), 1, "{}", show(&split));
    assert_eq!(split[0].severity, Severity::Error);
    assert!(split[0].file.starts_with("live/"), "{}", show(&split));
    assert!(
        !split[0].detail.iter().any(|d| d.contains("deprecated/old")),
        "{}",
        show(&split)
    );
}

/// A component library an atmos vendoring manifest pulls from (`//lib/{{ .Component }}`) is a
/// component, not a root: no lock file asked of it; a real root beside it still is asked.
#[test]
fn an_atmos_vendored_library_is_not_a_root() {
    let r = run("atmos-vendored");
    let ver = of(&r, "WARD-VER-004");
    assert_eq!(ver.len(), 1, "{}", show(&ver));
    assert!(ver[0].message.contains("live/vpc"), "{}", show(&ver));
}
