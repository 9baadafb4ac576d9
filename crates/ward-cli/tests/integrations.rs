//! What a team plugs ward into: shell completions and the man page (generated from the clap
//! definitions and kept current in `dist/`), `ward --version` with the packs, the CI script that
//! the GitHub action and the GitLab template run (against a fake API), and the pre-commit hooks
//! (`pre-commit try-repo`, with the pre-commit `scripts/install-tools` pins in `.tools/`).
//!
//! `WARD_BLESS=1 cargo test -p ward-cli --test integrations` rewrites `dist/`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ward(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .output()
        .unwrap()
}

/// Compares generated output with the file kept in the repository (or rewrites it).
fn current(generated: &[u8], kept: &str) {
    let path = top().join(kept);
    if std::env::var_os("WARD_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let on_disk = std::fs::read(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "{kept} is not what ward generates now: run WARD_BLESS=1 cargo test -p ward-cli --test integrations"
    );
}

#[test]
fn completions_and_man_page_are_generated_and_current() {
    for (shell, kept, needle) in [
        ("bash", "dist/completions/ward.bash", "_ward()"),
        ("zsh", "dist/completions/_ward", "#compdef ward"),
        ("fish", "dist/completions/ward.fish", "complete -c ward"),
    ] {
        let o = ward(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {o:?}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains(needle), "{shell}: {text}");
        // Every subcommand, and a flag of ward check, can be completed.
        for word in ["check", "gate", "drift", "completions", "man", "exclude"] {
            assert!(text.contains(word), "{shell} completion lacks {word}");
        }
        current(&o.stdout, kept);
    }
    let o = ward(&["completions", "powershell"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
    let o = ward(&["man"]);
    assert!(o.status.success(), "{o:?}");
    let page = String::from_utf8_lossy(&o.stdout);
    assert!(
        page.starts_with(".ie \\n(.g .ds Aq"),
        "{}",
        &page[..80.min(page.len())]
    );
    assert!(page.contains(".TH ward 1"), "{page}");
    assert!(page.contains("completions"), "{page}");
    current(&o.stdout, "dist/man/ward.1");
    // Every page a page refers to is shipped: `ward man --dir` writes ward.1 and one page per
    // subcommand, and dist/man/ holds exactly those.
    let tmp = tempfile::tempdir().unwrap();
    let o = ward(&["man", "--dir", tmp.path().to_str().unwrap()]);
    assert!(o.status.success(), "{o:?}");
    let mut written: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert!(
        written.contains(&"ward-stack-apply.1".to_string()),
        "{written:?}"
    );
    assert!(!written.contains(&"ward-help.1".to_string()), "{written:?}");
    for name in &written {
        let page = std::fs::read_to_string(tmp.path().join(name)).unwrap();
        for (i, _) in page.match_indices("(1)") {
            let start = page[..i]
                .rfind(|c: char| c.is_whitespace())
                .map_or(0, |s| s + 1);
            let referred = page[start..i].replace("\\-", "-");
            if referred.starts_with("ward") {
                assert!(
                    written.contains(&format!("{referred}.1")),
                    "{name} refers to {referred}(1), which is not generated"
                );
            }
        }
        current(
            &std::fs::read(tmp.path().join(name)).unwrap(),
            &format!("dist/man/{name}"),
        );
    }
    if std::env::var_os("WARD_BLESS").is_none() {
        let mut kept: Vec<String> = std::fs::read_dir(top().join("dist/man"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        kept.sort();
        assert_eq!(
            kept, written,
            "dist/man/ holds a page ward no longer generates"
        );
    }
    let o = ward(&["man", "--dir", "/nonexistent/man1"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

#[test]
fn version_names_every_pack() {
    let o = ward(&["--version"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with(&format!("ward {}\n", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    let k = ward_rules_packs();
    assert!(k > 10, "{text}");
    assert!(text.contains(&format!("packs ({k}):")), "{text}");
    for name in ["aws", "kubernetes", "null"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("{name} 20"))),
            "{name} missing: {text}"
        );
    }
    // ward's test provider is not shipped knowledge (its rules are examples/rules/fakecloud.hcl).
    assert!(!text.contains("fakecloud"), "{text}");
    let short = ward(&["check", "--version"]);
    assert!(short.status.success());
    assert!(!String::from_utf8_lossy(&short.stdout).contains("packs"));
}

/// How many packs `ward rules list` reports.
fn ward_rules_packs() -> usize {
    let o = ward(&["rules", "list"]);
    let text = String::from_utf8_lossy(&o.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("packs (")?.strip_suffix("):")?.parse().ok())
        .unwrap()
}

#[test]
fn ci_script_builds_the_comment_and_updates_one_comment_on_a_fake_api() {
    let python = which("python3").expect("python3 is needed for the CI script's tests");
    let o = Command::new(python)
        .arg(top().join("integrations/ci/test_ward_ci.py"))
        .env("WARD_BIN", env!("CARGO_BIN_EXE_ward"))
        .env("WARD_PLAN", top().join("examples/plans/hazards.json"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("Ran 8 tests"), "{err}");
}

#[test]
fn the_installer_verifies_the_pinned_checksum_against_a_loopback_release() {
    let python = which("python3").expect("python3 is needed for the installer's tests");
    let o = Command::new(python)
        .arg(top().join("integrations/ci/test_install_ward.py"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("Ran 5 tests"), "{err}");
}

/// The newest Terraform under `.tools/terraform/` (scripts/install-tools), if installed.
fn tools_terraform() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(top().join(".tools/terraform"))
        .ok()?
        .filter_map(|e| Some(e.ok()?.path().join("terraform")))
        .filter(|p| p.is_file())
        .collect();
    found.sort_by_key(|p| {
        let v = p.parent().and_then(|d| d.file_name()).unwrap_or_default();
        v.to_string_lossy()
            .split('.')
            .map(|n| n.parse::<u32>().unwrap_or(0))
            .collect::<Vec<_>>()
    });
    found.pop()
}

#[test]
fn the_atlantis_workflow_gates_plans_and_verifies_before_apply() {
    let Some(terraform) = tools_terraform() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Terraform under .tools/terraform: scripts/install-tools installs it"
        );
        println!("skipped: no Terraform under .tools/terraform (run scripts/install-tools)");
        return;
    };
    let python = which("python3").expect("python3 is needed for the Atlantis workflow's tests");
    let o = Command::new(python)
        .arg(top().join("integrations/atlantis/test_atlantis.py"))
        .env("WARD_BIN", env!("CARGO_BIN_EXE_ward"))
        .env("TERRAFORM", terraform)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("Ran 6 tests"), "{err}");
}

#[test]
fn the_action_and_the_template_run_the_script_and_never_paste_inputs_into_scripts() {
    let action = std::fs::read_to_string(top().join("integrations/github/action.yml")).unwrap();
    let template =
        std::fs::read_to_string(top().join("integrations/gitlab/ward.gitlab-ci.yml")).unwrap();
    assert!(action.contains("using: composite"));
    assert!(action.contains("ward_ci.py\" gate"), "{action}");
    assert!(action.contains("--post github"));
    assert!(action.contains("upload-sarif"));
    // SARIF upload is opt-in (it fails on private repositories without code scanning); the
    // report always reaches the step summary; the binary is checksum-verified.
    assert!(
        action.contains("sarif:") && action.contains("default: \"false\""),
        "{action}"
    );
    assert!(
        action.contains("--summary \"$GITHUB_STEP_SUMMARY\""),
        "{action}"
    );
    assert!(action.contains("install_ward.py"), "{action}");
    assert!(template.contains("--post gitlab"), "{template}");
    assert!(
        template.contains("${WARD_REVIEWS:+--reviews}"),
        "{template}"
    );
    assert!(template.contains("junit:"), "{template}");
    // An input pasted into a `run:` script is a script injection: inputs go through `env:`.
    let mut in_run = false;
    for line in action.lines() {
        let t = line.trim_start();
        if t.starts_with("run:") {
            in_run = true;
            assert!(!t.contains("${{"), "{line}");
            continue;
        }
        if in_run && (t.starts_with("- ") || t.starts_with("env:") || t.starts_with("with:")) {
            in_run = false;
        }
        if in_run {
            assert!(!line.contains("${{"), "input pasted into a script: {line}");
        }
    }
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

#[test]
fn pre_commit_try_repo_runs_the_hooks() {
    let pre_commit = top().join(".tools/pre-commit/bin/pre-commit");
    if !pre_commit.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing: scripts/install-tools installs it",
            pre_commit.display()
        );
        println!(
            "skipped: no {} (run scripts/install-tools)",
            pre_commit.display()
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // The hook repository: the hooks file and the script it names, committed.
    let hooks = tmp.path().join("hooks");
    std::fs::create_dir_all(hooks.join("integrations/pre-commit")).unwrap();
    std::fs::copy(
        top().join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    let each = "integrations/pre-commit/ward-plan-each";
    std::fs::copy(top().join(each), hooks.join(each)).unwrap();
    ward_rig::git(&hooks, &["init", "-q"]).unwrap();
    ward_rig::git(&hooks, &["add", "-A"]).unwrap();
    ward_rig::git(&hooks, &["commit", "-q", "-m", "hooks"]).unwrap();
    // A repository using them: two roots, one with a branch-pinned module source.
    let work = tmp.path().join("work");
    let w = |p: &str, c: &str| {
        let p = work.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, c).unwrap();
    };
    let root = "terraform {\n  required_version = \">= 1.5\"\n  backend \"s3\" {}\n}\n";
    w(
        "live/a/main.tf",
        &format!(
            "{root}module \"m\" {{\n  source = \"git::https://example.com/m.git?ref=v1.0.0\"\n}}\n"
        ),
    );
    w("live/a/.terraform.lock.hcl", "# lock\n");
    w(
        "live/b/main.tf",
        &format!(
            "{root}module \"n\" {{\n  source = \"git::https://example.com/n.git?ref=main\"\n}}\n"
        ),
    );
    w("live/b/.terraform.lock.hcl", "# lock\n");
    std::fs::copy(
        top().join("examples/plans/hazards.json"),
        work.join("plan.json"),
    )
    .unwrap();
    // The plan is of fakecloud, ward's test provider: the repository loads its rule file.
    w("ward.hcl", &ward_rig::rules::ward_hcl(""));
    ward_rig::git(&work, &["init", "-q"]).unwrap();
    ward_rig::git(&work, &["add", "-A"]).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_ward")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let try_repo = |hook: &str, files: &[&str]| {
        let mut c = Command::new(&pre_commit);
        c.args([
            "try-repo",
            "--verbose",
            hooks.to_str().unwrap(),
            hook,
            "--files",
        ])
        .args(files)
        .current_dir(&work)
        .env("PATH", &path)
        .env("PRE_COMMIT_HOME", tmp.path().join("cache"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
        let o = c.output().unwrap();
        (
            o.status.code(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        )
    };
    // A change in live/b: its branch-pinned source fails the hook.
    let (code, out) = try_repo("ward-check", &["live/b/main.tf"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("WARD-MOD-001"), "{out}");
    assert!(out.contains("live/b/main.tf"), "{out}");
    // A change in live/a only: the finding in live/b is not this change's, so it passes, and
    // says what it left out.
    let (code, out) = try_repo("ward-check", &["live/a/main.tf"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("WARD-MOD-001"), "{out}");
    // The plan hook explains the plan file.
    let (code, out) = try_repo("ward-plan", &["plan.json"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("data-loss"), "{out}");
}

/// Copies the four CI definitions scripts/lint-ci checks into `dir`, as the repository has them.
fn ci_definitions_into(dir: &Path) {
    for file in [
        ".github/workflows/release.yml",
        "integrations/github/action.yml",
        "integrations/gitlab/ward.gitlab-ci.yml",
        "dist/container/Dockerfile",
    ] {
        let to = dir.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(top().join(file), &to).unwrap();
    }
}

#[test]
fn the_release_workflow_action_template_and_image_pass_their_linters() {
    if !top().join(".tools/ci-lint/bin/zizmor").is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            ".tools/ci-lint is missing: scripts/install-tools installs it"
        );
        println!("skipped: no .tools/ci-lint (run scripts/install-tools)");
        return;
    }
    let lint = |tree: &Path| {
        Command::new("bash")
            .arg(top().join("scripts/lint-ci"))
            .arg(tree)
            .output()
            .unwrap()
    };
    let o = lint(&top());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "{}\n{err}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(err.contains("lint-ci: ok"), "{err}");
    // Each linter fails on a planted defect in its file (a lint that cannot fail proves nothing).
    for (file, from, to, says) in [
        (
            ".github/workflows/release.yml",
            "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
            "actions/checkout@v4",
            "unpinned-uses",
        ),
        (
            ".github/workflows/release.yml",
            "needs: build",
            "needs: bild",
            "bild",
        ),
        (
            "integrations/github/action.yml",
            "using: composite",
            "using: compost",
            "compost",
        ),
        (
            "integrations/gitlab/ward.gitlab-ci.yml",
            "    when: always",
            "    when: sometimes",
            "sometimes",
        ),
        (
            "dist/container/Dockerfile",
            "FROM scratch",
            "FROM debian:latest",
            "DL3007",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        ci_definitions_into(tmp.path());
        let path = tmp.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(from),
            "{file} no longer has {from:?}: update this test"
        );
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let o = lint(tmp.path());
        let out = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(1), "{file} with {to:?}: {out}");
        assert!(out.contains(says), "{file} with {to:?}: {out}");
    }
}
