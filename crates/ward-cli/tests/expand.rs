//! `ward plan --expand`: each value lists its class's changes with their attributes, in the
//! terminal and Markdown reports; `plan { expand }` in ward.hcl is the default the flag
//! overrides; any other class is a usage error.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn hazards() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/plans/hazards.json")
        .display()
        .to_string()
}

/// `ward plan hazards.json ARGS` in a repository whose ward.hcl loads the fakecloud rules and
/// adds `plan_block`.
fn plan(plan_block: &str, args: &[&str]) -> Output {
    let t = tempfile::tempdir().unwrap();
    let top = t.path().join("repo");
    std::fs::create_dir_all(top.join(".git")).unwrap();
    std::fs::write(top.join("ward.hcl"), ward_rig::rules::ward_hcl(plan_block)).unwrap();
    let hazards = hazards();
    let mut all = vec!["plan", hazards.as_str()];
    all.extend_from_slice(args);
    run(&top, &all, t.path())
}

fn run(dir: &Path, args: &[&str], state: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .env("XDG_STATE_HOME", state)
        .env_remove("WARD_APPROVAL_KEY")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const FREE_DIFF: &str = "        ~ tags.team: null → \"platform\"\n";
const NOOP: &str = "    fakecloud_bucket.backups  no change\n";

#[test]
fn each_expand_value_lists_its_class() {
    let plain = plan("", &[]);
    assert_eq!(plain.status.code(), Some(0), "{plain:?}");
    let plain = text(&plain);
    assert!(
        !plain.contains(FREE_DIFF) && !plain.contains(NOOP),
        "{plain}"
    );
    let free = text(&plan("", &["--expand", "free"]));
    assert!(free.contains(FREE_DIFF) && !free.contains(NOOP), "{free}");
    let none = text(&plan("", &["--expand", "none"]));
    assert!(!none.contains(FREE_DIFF) && none.contains(NOOP), "{none}");
    let both = text(&plan("", &["--expand", "free,none"]));
    assert!(both.contains(FREE_DIFF) && both.contains(NOOP), "{both}");
    let md = text(&plan("", &["--expand", "free", "--format", "markdown"]));
    assert!(
        md.contains("<details><summary><b>free</b> <code>fakecloud_network.main</code>"),
        "{md}"
    );
}

/// A create that costs more than free lists what it sets without `--expand`: the reader builds
/// a create's attributes for `ward plan` only where its type's rules may make it cost, and a
/// user rule raising a type's create cost is one of those. A free create lists them only when
/// expanded.
#[test]
fn a_costly_create_lists_what_it_sets_and_a_free_one_only_when_expanded() {
    const SETS: &str = "    + name = \"logs\"\n    + tags.env = \"prod\"\n";
    let costly = plan(
        "resource \"fakecloud_bucket\" {\n  on_create = \"interrupt\"\n}\n",
        &[],
    );
    let costly = text(&costly);
    assert!(
        costly.contains("INTERRUPT  fakecloud_bucket.logs  create\n") && costly.contains(SETS),
        "{costly}"
    );
    let free = text(&plan("", &[]));
    assert!(
        free.contains("    fakecloud_bucket.logs  create\n") && !free.contains("+ name = \"logs\""),
        "{free}"
    );
    let expanded = text(&plan("", &["--expand", "free"]));
    assert!(expanded.contains("+ name = \"logs\""), "{expanded}");
}

#[test]
fn the_plan_block_sets_the_default_and_the_flag_overrides_it() {
    let block = "plan {\n  expand = [\"free\"]\n}\n";
    let by_config = text(&plan(block, &[]));
    assert!(
        by_config.contains(FREE_DIFF) && !by_config.contains(NOOP),
        "{by_config}"
    );
    let by_flag = text(&plan(block, &["--expand", "none"]));
    assert!(
        !by_flag.contains(FREE_DIFF) && by_flag.contains(NOOP),
        "{by_flag}"
    );
}

#[test]
fn a_class_above_free_cannot_be_expanded() {
    let o = plan("", &["--expand", "replace"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("possible values: free, none"), "{err}");
    let o = plan("plan {\n  expand = [\"replace\"]\n}\n", &[]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not a class that can be expanded"), "{err}");
}

/// A `free` delete lists what it removes when `free` is expanded, in the terminal and Markdown
/// reports, and only then (the reader leaves a delete's attributes out for a report that shows
/// none of them: #35 item 1); the JSON report always carries them.
#[test]
fn an_expanded_free_delete_lists_what_it_removes() {
    let t = tempfile::tempdir().unwrap();
    let top = t.path().join("repo");
    std::fs::create_dir_all(top.join(".git")).unwrap();
    let plan = top.join("plan.json");
    std::fs::write(
        &plan,
        r#"{"format_version":"1.2","terraform_version":"1.9.5","resource_changes":[
 {"address":"null_resource.old","mode":"managed","type":"null_resource","name":"old",
  "provider_name":"registry.terraform.io/hashicorp/null",
  "change":{"actions":["delete"],"before":{"id":"1234","triggers":{"build":"41"}},
   "after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false}}]}"#,
    )
    .unwrap();
    let plan = plan.display().to_string();
    let ward = |args: &[&str]| {
        let mut all = vec!["plan", plan.as_str()];
        all.extend_from_slice(args);
        let o = run(&top, &all, t.path());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
        text(&o)
    };
    let line = "        - triggers.build = \"41\"\n";
    assert!(!ward(&[]).contains(line));
    assert!(ward(&["--expand", "free"]).contains(line));
    let md = "- `triggers.build` was `\"41\"`";
    assert!(!ward(&["--format", "markdown"]).contains(md));
    assert!(ward(&["--expand", "free", "--format", "markdown"]).contains(md));
    let json = ward(&["--format", "json"]);
    assert!(json.contains(r#""path": "triggers.build""#), "{json}");
}
