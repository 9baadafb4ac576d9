//! Discovery's unit tests: path joining, file precedence, one directory read, lifecycle
//! entries, symlinks.

use super::parse::{is_override, shadowed_name};
use crate::*;

#[test]
fn join_rel_stays_inside() {
    assert_eq!(
        join_rel("live/a", "../../modules/x").as_deref(),
        Some("modules/x")
    );
    assert_eq!(join_rel(".", "./m").as_deref(), Some("m"));
    assert_eq!(join_rel("a", "../..").as_deref(), None);
    assert_eq!(join_rel("a/b", "..").as_deref(), Some("a"));
}

#[test]
fn override_and_shadow_names() {
    assert!(is_override("override.tf"));
    assert!(is_override("backend_override.tf.json"));
    assert!(!is_override("main.tf"));
    assert_eq!(shadowed_name("main.tofu").as_deref(), Some("main.tf"));
    assert_eq!(shadowed_name("x.tofu.json").as_deref(), Some("x.tf.json"));
}

#[test]
fn read_module_keeps_precedence_and_evidence() {
    let d = tempfile::tempdir().unwrap();
    let w = |n: &str, t: &str| std::fs::write(d.path().join(n), t).unwrap();
    w(
        "main.tf",
        "resource \"x_volume\" \"a\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
    );
    w(
        "main.tofu",
        "terraform {\n  required_version = \">= 1.6\"\n  encryption {}\n}\nprovider \"p\" {\n  for_each = {}\n}\nresource \"x_volume\" \"b\" {\n  lifecycle {\n    prevent_destroy = var.keep\n  }\n}\nresource \"x_volume\" \"c\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
    );
    w(
        "c_override.tf",
        "resource \"x_volume\" \"c\" {\n  lifecycle {\n    prevent_destroy = false\n  }\n}\n",
    );
    w(
        ".terraform.lock.hcl",
        "provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.0.0\"\n}\n",
    );
    let r = read_module(d.path()).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(
        r.shadowed,
        [("main.tf".to_string(), "main.tofu".to_string())]
    );
    let m = &r.module;
    assert_eq!(m.files, ["c_override.tf", "main.tofu"]);
    assert_eq!(m.tofu_files().collect::<Vec<_>>(), ["main.tofu"]);
    let pd: Vec<(&str, Option<bool>)> = m
        .resources
        .iter()
        .map(|r| (r.name.as_str(), r.prevent_destroy))
        .collect();
    // `a` is only in the hidden main.tf; a non-literal protects; the override wins for `c`.
    assert_eq!(pd, [("b", Some(true)), ("c", Some(false))]);
    assert!(m.encryption.is_some());
    assert!(m.provider_configs[0].for_each);
    assert_eq!(m.lock_providers, ["registry.opentofu.org/hashicorp/null"]);
    assert_eq!(m.required_version[0].0, ">= 1.6");
    assert!(read_module(&d.path().join("missing")).is_err());
}

#[test]
fn ignore_changes_entries_as_written_and_overridden() {
    let d = tempfile::tempdir().unwrap();
    let w = |n: &str, t: &str| std::fs::write(d.path().join(n), t).unwrap();
    w(
        "main.tf",
        "resource \"x_vm\" \"a\" {\n  lifecycle {\n    ignore_changes = [tags, image, tags[\"env\"]]\n  }\n}\nresource \"x_vm\" \"b\" {\n  lifecycle {\n    ignore_changes = all\n  }\n}\nresource \"x_vm\" \"c\" {\n  lifecycle {\n    ignore_changes = [\"size\"]\n  }\n}\nresource \"x_vm\" \"d\" {}\n",
    );
    w(
        "json.tf.json",
        r#"{"resource": {"x_vm": {"e": {"lifecycle": {"ignore_changes": ["name"]}}}}}"#,
    );
    w(
        "b_override.tf",
        "resource \"x_vm\" \"b\" {\n  lifecycle {\n    ignore_changes = [name]\n  }\n}\n",
    );
    let r = read_module(d.path()).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let got: Vec<(&str, Vec<&str>)> = r
        .module
        .resources
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.ignore_changes.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("e", vec!["name"]),
            ("a", vec!["tags", "image", "tags[\"env\"]"]),
            ("b", vec!["name"]),
            ("c", vec!["size"]),
            ("d", vec![]),
        ]
    );
}

#[cfg(unix)]
#[test]
fn symlinked_files_inside_are_read_outside_ones_reported() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    let w = |p: &str, t: &str| {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    };
    w("live/main.tf", "terraform {\n  backend \"local\" {}\n}\n");
    w(
        "shared/versions.tf.txt",
        "terraform {\n  required_version = \">= 1.6\"\n}\nmodule \"m\" {\n  source = \"git::https://example.invalid/m.git?ref=main\"\n}\n",
    );
    std::fs::write(tmp.path().join("outside.tf"), "").unwrap();
    symlink("../shared/versions.tf.txt", root.join("live/versions.tf")).unwrap();
    symlink("../../outside.tf", root.join("live/outside.tf")).unwrap();
    symlink("loop.tf", root.join("live/loop.tf")).unwrap();
    symlink("missing.tf", root.join("live/broken.tf")).unwrap();
    symlink("live", root.join("linked-dir")).unwrap();
    symlink("../outside.tf", root.join("README.md")).unwrap();
    let repo = discover(&root, &Options::default()).unwrap();
    let live = repo.module("live").unwrap();
    assert_eq!(live.files, ["live/main.tf", "live/versions.tf"]);
    assert_eq!(live.required_version[0].0, ">= 1.6");
    assert_eq!(live.module_calls.len(), 1);
    assert!(repo.text_files.iter().any(|t| t.path == "live/versions.tf"));
    // A linked directory is not entered (no second copy of `live`, no loop).
    assert!(repo.module("linked-dir").is_none());
    let problems: Vec<(&str, &str)> = repo
        .problems
        .iter()
        .map(|p| (p.loc.file.as_str(), p.message.as_str()))
        .collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(
        problems[0].0 == "live/broken.tf" && problems[0].1.contains("cannot follow the symlink"),
        "{problems:?}"
    );
    assert!(
        problems[1].0 == "live/loop.tf" && problems[1].1.contains("cannot follow the symlink"),
        "{problems:?}"
    );
    assert!(
        problems[2].0 == "live/outside.tf" && problems[2].1.contains("outside the repository"),
        "{problems:?}"
    );
}
