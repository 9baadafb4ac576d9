//! `--resolve` against a real git repository on disk (a `file://` remote): refs the shape cannot
//! tell are classified by `git ls-remote`, and the answer is cached.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_check::knowledge::NoKnowledge;
use ward_check::resolve::Resolver;
use ward_check::{check, CheckOptions};
use ward_repo::RefKind;

#[test]
fn refs_resolved_on_the_remote_and_cached() {
    let t = tempfile::tempdir().unwrap();
    let remote = t.path().join("modules");
    std::fs::create_dir_all(&remote).unwrap();
    ward_rig::git(&remote, &["init", "-q", "-b", "trunk-line"]).unwrap();
    std::fs::write(remote.join("main.tf"), "locals {}\n").unwrap();
    ward_rig::git(&remote, &["add", "-A"]).unwrap();
    ward_rig::git(&remote, &["commit", "-q", "-m", "one"]).unwrap();
    ward_rig::git(&remote, &["tag", "stable-cut"]).unwrap();
    let url = format!("file://{}", remote.display());

    let cache = t.path().join("cache");
    let mut r = Resolver::new(Some(cache.clone()));
    assert_eq!(r.classify(&url, "stable-cut").unwrap(), RefKind::Tag);
    assert_eq!(r.classify(&url, "trunk-line").unwrap(), RefKind::Branch);
    assert!(r.classify(&url, "no-such-ref").is_err());
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1);
    // The cache answers even when the remote is gone.
    std::fs::rename(&remote, t.path().join("gone")).unwrap();
    let mut again = Resolver::new(Some(cache));
    assert_eq!(again.classify(&url, "stable-cut").unwrap(), RefKind::Tag);
    std::fs::rename(t.path().join("gone"), &remote).unwrap();

    // Through the whole check: offline the refs are unknown, with --resolve one is a branch.
    let repo_dir = t.path().join("repo");
    std::fs::create_dir_all(&repo_dir).unwrap();
    std::fs::write(
        repo_dir.join("main.tf"),
        format!(
            "module \"a\" {{\n  source = \"git::{url}?ref=stable-cut\"\n}}\n\nmodule \"b\" {{\n  source = \"git::{url}?ref=trunk-line\"\n}}\n"
        ),
    )
    .unwrap();
    let repo = ward_repo::discover(&repo_dir, &ward_repo::Options::default()).unwrap();
    let run = |resolver| {
        check(
            &repo,
            CheckOptions {
                config: None,
                resolver,
                knowledge: &NoKnowledge,
                today: ward_time::Date::new(1970, 1, 1).unwrap(),
                fail_on: None,
                exec: None,
            },
        )
        .unwrap()
    };
    let offline = run(None);
    let ids: Vec<(&str, usize)> = offline
        .findings
        .iter()
        .filter(|f| f.rule == "WARD-MOD-001" || f.rule == "WARD-MOD-002")
        .map(|f| (f.rule.as_str(), f.line))
        .collect();
    assert_eq!(ids, [("WARD-MOD-002", 2), ("WARD-MOD-002", 6)]);
    let resolved = run(Some(Resolver::new(None)));
    let ids: Vec<(&str, usize)> = resolved
        .findings
        .iter()
        .filter(|f| f.rule == "WARD-MOD-001" || f.rule == "WARD-MOD-002")
        .map(|f| (f.rule.as_str(), f.line))
        .collect();
    assert_eq!(ids, [("WARD-MOD-001", 6)]);
    assert!(resolved
        .matrix
        .iter()
        .any(|m| m.reference == "stable-cut" && m.class == "tag"));
}

#[test]
fn a_remote_that_never_answers_times_out() {
    // A remote whose transport hangs (git's `ext::` transport running `sleep`, allowed for this
    // process only; the other tests here use `file://`).
    std::env::set_var("GIT_CONFIG_COUNT", "1");
    std::env::set_var("GIT_CONFIG_KEY_0", "protocol.ext.allow");
    std::env::set_var("GIT_CONFIG_VALUE_0", "always");
    let mut r = Resolver::new(None).with_timeout(std::time::Duration::from_secs(1));
    let t0 = std::time::Instant::now();
    let e = r.classify("ext::sleep 30", "main").unwrap_err();
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        t0.elapsed()
    );
    assert!(e.contains("timed out after 1 s"), "{e}");
    assert!(e.contains("--resolve-timeout SECONDS"), "{e}");
}

#[test]
fn the_default_cache_is_built_from_the_directory_given() {
    use std::path::{Path, PathBuf};
    // The cache directory itself (XDG_CACHE_HOME, else HOME/.cache, an empty value unset) is
    // ward-cli's `context::BaseDirs::cache_dir`, tested there.
    assert_eq!(
        Resolver::default_cache_dir(Path::new("/c")),
        PathBuf::from("/c/ward/ls-remote")
    );
    assert_eq!(
        Resolver::default_cache_dir(Path::new("/h/.cache")),
        PathBuf::from("/h/.cache/ward/ls-remote")
    );
}
