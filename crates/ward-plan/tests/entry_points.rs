//! Every public way into the reader gives the same plan for the same input, and honours its
//! options: the content fingerprint only when asked (on by default), the destroyed objects only
//! when asked, every change handed to the callback and none kept by the `_each` readers, and
//! standard input read by `read_stdin`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::path::Path;
use std::time::Duration;
use ward_model::{Plan, ResourceChange};
use ward_plan::{
    read_file, read_path_or_stdin, read_path_or_stdin_each, read_reader, read_reader_each,
    read_reader_with, read_stdin, read_with, ReadOptions,
};

/// A plan with a create, an update and a delete: each gets a content fingerprint, the delete
/// an entry in the destroyed objects.
fn plan_bytes() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "planned_values": {"root_module": {}},
        "resource_changes": [
            {"address": "fake_thing.new", "mode": "managed", "type": "fake_thing", "name": "new",
             "provider_name": "registry.terraform.io/example/fake",
             "change": {"actions": ["create"], "before": null, "after": {"size": 1},
                        "after_unknown": {}, "after_sensitive": {}}},
            {"address": "fake_thing.grown", "mode": "managed", "type": "fake_thing", "name": "grown",
             "provider_name": "registry.terraform.io/example/fake",
             "change": {"actions": ["update"], "before": {"size": 1}, "after": {"size": 2},
                        "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}}},
            {"address": "fake_thing.gone", "mode": "managed", "type": "fake_thing", "name": "gone",
             "provider_name": "registry.terraform.io/example/fake",
             "change": {"actions": ["delete"], "before": {"size": 3, "name": "old"}, "after": null,
                        "before_sensitive": {}}}
        ],
        "applyable": true,
        "complete": true,
        "errored": false
    }))
    .unwrap()
}

fn plan_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.json");
    std::fs::write(&path, plan_bytes()).unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

/// The plan every reader must agree with: `read_file`'s.
fn reference(path: &str) -> Plan {
    let plan = read_file(Path::new(path)).unwrap();
    assert_eq!(plan.changes.len(), 3);
    assert!(plan.complete.is_some());
    plan
}

fn without_content(mut plan: Plan) -> Plan {
    for c in &mut plan.changes {
        c.content = None;
    }
    plan
}

#[test]
fn the_content_fingerprint_is_computed_by_default() {
    let (_dir, path) = plan_file();
    let plan = reference(&path);
    for c in &plan.changes {
        assert!(c.content.is_some(), "{}: no content fingerprint", c.address);
    }
    assert_eq!(read_path_or_stdin(&path).unwrap(), plan);
    assert_eq!(read_reader(&plan_bytes()[..], &path).unwrap(), plan);
    let (by_path, objects) = read_with(&path, ReadOptions::default(), None).unwrap();
    assert_eq!(by_path, plan);
    assert!(objects.is_empty(), "objects only when asked: {objects:?}");
    let (by_reader, objects) =
        read_reader_with(&plan_bytes()[..], &path, ReadOptions::default(), None).unwrap();
    assert_eq!(by_reader, plan);
    assert!(objects.is_empty(), "objects only when asked: {objects:?}");
}

#[test]
fn content_off_leaves_the_fingerprint_out_and_the_rest_unchanged() {
    let (_dir, path) = plan_file();
    let expected = without_content(reference(&path));
    let off = ReadOptions {
        content: false,
        ..ReadOptions::default()
    };
    let (by_path, _) = read_with(&path, off.clone(), None).unwrap();
    assert_eq!(by_path, expected);
    let (by_reader, _) = read_reader_with(&plan_bytes()[..], &path, off, None).unwrap();
    assert_eq!(by_reader, expected);
}

#[test]
fn objects_are_collected_by_every_reader_that_is_asked() {
    let (_dir, path) = plan_file();
    let plan = reference(&path);
    let with_objects = ReadOptions {
        objects: true,
        ..ReadOptions::default()
    };
    let (by_reader, objects) =
        read_reader_with(&plan_bytes()[..], &path, with_objects.clone(), None).unwrap();
    assert_eq!(by_reader, plan);
    let (by_path, same) = read_with(&path, with_objects, None).unwrap();
    assert_eq!(by_path, plan);
    assert_eq!(objects, same);
    let keys: Vec<_> = objects.keys().cloned().collect();
    assert_eq!(keys, [("fake_thing.gone".to_string(), None)]);
    let gone = &objects[&("fake_thing.gone".to_string(), None)];
    assert_eq!(gone["size"], json!(3));
    assert_eq!(gone["name"], json!("old"));
}

/// What the `_each` readers must return: the plan without its changes, and the changes in
/// the plan's order through the callback.
fn assert_each(read: impl FnOnce(&mut dyn FnMut(ResourceChange)) -> Plan, reference: &Plan) {
    let mut handed = Vec::new();
    let plan = read(&mut |c| handed.push(c));
    assert_eq!(handed, reference.changes);
    assert!(plan.changes.is_empty(), "{:?}", plan.changes);
    let mut whole = reference.clone();
    whole.changes.clear();
    assert_eq!(plan, whole);
}

#[test]
fn the_each_readers_hand_every_change_over_and_keep_none() {
    let (_dir, path) = plan_file();
    let plan = reference(&path);
    assert_each(|f| read_path_or_stdin_each(&path, f).unwrap(), &plan);
    assert_each(
        |f| read_reader_each(&plan_bytes()[..], &path, f).unwrap(),
        &plan,
    );
    assert_each(
        |f| read_with(&path, ReadOptions::default(), Some(f)).unwrap().0,
        &plan,
    );
}

#[test]
fn the_each_readers_fail_as_the_others_do() {
    let bad = br#"{"format_version":"9.0","planned_values":{}}"#;
    let e = read_reader_each(&bad[..], "bad.json", &mut |_| {}).unwrap_err();
    assert_eq!(e.kind(), ward_plan::PlanErrorKind::UnsupportedFormatVersion);
    let dir = tempfile::tempdir().unwrap();
    let e = read_path_or_stdin_each(dir.path().to_str().unwrap(), &mut |_| {}).unwrap_err();
    assert_eq!(e.kind(), ward_plan::PlanErrorKind::IsDirectory);
}

/// `read_stdin` reads standard input: this test runs the ignored `read_stdin_child` below (its
/// own test binary) with the plan on its standard input, through the one process runner with a
/// deadline.
#[test]
fn read_stdin_reads_standard_input() {
    let out = ward_exec::Command::new(std::env::current_exe().unwrap(), Duration::from_secs(300))
        .args([
            "--ignored",
            "--exact",
            "read_stdin_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("WARD_PLAN_STDIN_CHILD", "1")
        .stdin_bytes(plan_bytes())
        .run()
        .unwrap();
    let stdout = out.stdout_text();
    assert!(out.success(), "{stdout}\n{}", out.stderr_text());
    assert!(stdout.contains("1 passed"), "{stdout}");
}

#[test]
#[ignore = "run by read_stdin_reads_standard_input with a plan on standard input"]
fn read_stdin_child() {
    if std::env::var_os("WARD_PLAN_STDIN_CHILD").is_none() {
        return; // run directly (`--include-ignored`): there is no plan on standard input
    }
    let plan = read_stdin().unwrap();
    assert_eq!(plan, read_reader(&plan_bytes()[..], "<stdin>").unwrap());
    assert_eq!(plan.changes.len(), 3);
}
