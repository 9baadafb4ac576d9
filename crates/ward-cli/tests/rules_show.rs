//! `ward rules show TYPE` (terminal) says what an `overwrites` block and a directional attribute
//! entry decide: without them the text read "on create: free (default)" for an organization's
//! IAM policy and "retention_in_days → data-loss" for a change in either direction.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Stdio};

fn show(type_name: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(["rules", "show", type_name])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn show_names_the_overwrites_block_and_both_directions() {
    let text = show("google_organization_iam_policy");
    assert!(
        text.contains("  overwrites state outside this root: a create or replacement costs at least interrupt; replaces the whole IAM policy of the organization (target: org_id): every member and role not listed here is removed"),
        "{text}"
    );
    let text = show("aws_cloudwatch_log_group");
    assert!(
        text.contains("  attribute retention_in_days → decrease: data-loss, increase: in-place, no limit: 0, null: A shorter retention"),
        "{text}"
    );
}

/// A user rule's text reaches the terminal escaped, like every other report's: an escape
/// sequence or a bidi override in ward.hcl's `rationale` is shown, not obeyed (it was written
/// raw before `ward rules` was rendered by ward-report).
#[test]
fn user_text_is_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("ward.hcl");
    std::fs::write(
        &cfg,
        "resource \"fake_thing\" {\n  on_update = \"in-place\"\n  rationale = \"safe\\u001b[2J\\u202e now\"\n}\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args([
            "rules",
            "show",
            "fake_thing",
            "--config",
            cfg.to_str().unwrap(),
        ])
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("rationale: safe"), "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
}
