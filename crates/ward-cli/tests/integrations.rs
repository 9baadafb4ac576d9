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
    assert!(err.contains("Ran 4 tests"), "{err}");
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
    assert!(template.contains("--post gitlab"), "{template}");
    assert!(template.contains("--format sarif"));
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
