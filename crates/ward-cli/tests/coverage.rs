//! The plan coverage gate by change, coverage messages, and explanations that read the plan
//! (final snapshots, removed access, replacement attributes, unclassified diffs).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output, Stdio};

mod common;

use common::data;

fn ward(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn a_noop_plan_with_unclassified_types_in_state_passes_and_names_them() {
    let o = ward(&["plan", &data("coverage/noop-unclassified-state.json")]);
    let text = out(&o);
    assert_eq!(code(&o), 0, "{text}");
    assert!(
        text.contains("acme_widget  seen in configuration, prior_state, resource_changes"),
        "{text}"
    );
    assert!(
        text.contains("no change of this plan touches them"),
        "{text}"
    );
    // The paste-ready block, once.
    assert_eq!(
        text.matches("resource \"acme_widget\" {").count(),
        1,
        "{text}"
    );
}

#[test]
fn a_change_to_an_unclassified_type_fails_with_its_diff_and_a_block_to_paste() {
    let o = ward(&["plan", &data("coverage/update-unclassified.json")]);
    let text = out(&o);
    assert_eq!(code(&o), 3, "{text}");
    assert!(text.contains("changed `size`: 1 → 2"), "{text}");
    assert!(!text.contains("changed `color`"), "{text}");
    assert!(
        text.contains("# seen in resource_changes: acme_widget.w"),
        "{text}"
    );
    assert!(text.contains("attribute \"size\" {"), "{text}");
    // The suggestion is valid as pasted: loading it classifies the type.
    let block: String = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("resource \"acme_widget\""))
        .take_while(|l| l.trim() != "}" || l.starts_with("          "))
        .map(|l| format!("{}\n", l.trim_start()))
        .collect::<String>()
        + "}\n";
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("ward.hcl");
    std::fs::write(&cfg, &block).unwrap();
    let o = ward(&[
        "plan",
        "--config",
        cfg.to_str().unwrap(),
        &data("coverage/update-unclassified.json"),
    ]);
    assert_eq!(code(&o), 0, "{block}\n{}", out(&o));
    // The attribute's class is the block's (IN-PLACE): the line does not repeat it.
    assert!(
        out(&o).contains("IN-PLACE  acme_widget.w  update in place\n    ~ size: 1 → 2\n"),
        "{}",
        out(&o)
    );
}

#[test]
fn gate_fails_on_a_changed_unclassified_type_only() {
    let dir = tempfile::tempdir().unwrap();
    let approvals = dir.path().join("approvals.json");
    let noop = ward(&[
        "gate",
        "--approvals",
        approvals.to_str().unwrap(),
        &data("coverage/noop-unclassified-state.json"),
    ]);
    assert_ne!(code(&noop), 3, "{}", out(&noop));
    let changed = ward(&[
        "gate",
        "--approvals",
        approvals.to_str().unwrap(),
        &data("coverage/update-unclassified.json"),
    ]);
    assert_eq!(code(&changed), 3, "{}", out(&changed));
}

#[test]
fn explanations_read_final_snapshots_removed_access_and_replacement_attributes() {
    let o = ward(&[
        "plan",
        "--config",
        &data("coverage/ward.hcl"),
        &data("coverage/db-delete.json"),
    ]);
    let text = out(&o);
    assert_eq!(code(&o), 0, "{text}");
    assert!(
        text.contains("a final snapshot is taken before destroy: `skip_final_snapshot` is false, `final_snapshot_identifier` = \"kept-final\""),
        "{text}"
    );
    assert!(
        text.contains(
            "no final snapshot: `skip_final_snapshot` is true, so nothing is kept of the data"
        ),
        "{text}"
    );
    assert!(!text.contains("hunter2"), "{text}");
    assert!(
        text.contains("removes access: 1 rule(s) removed from `ingress`: {\"cidr\":\"10.0.0.0/8\",\"port\":22}"),
        "{text}"
    );
    assert!(
        text.contains("removes access: the access it grants stops"),
        "{text}"
    );
    // The attribute that forces a data-loss replacement is in the DATA-LOSS block, its line
    // tagged with what the block does not say.
    assert!(
        text.contains("DATA-LOSS  acme_db.swapped  destroy, then create replacement\n    ~ engine: \"mysql\" → \"postgres\"  [forces replacement]\n"),
        "{text}"
    );
}

/// The JSON report carries the changed attributes of every change (#31 item 2), an unclassified
/// update's too: what changes is known even when no rule says what it costs. The terminal
/// prints them once (in the explanation), and the gate takes none of them as deciding.
#[test]
fn the_json_report_carries_an_unclassified_changes_attributes() {
    let o = ward(&[
        "plan",
        &data("coverage/update-unclassified.json"),
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 3);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let change = &v["changes"][0];
    assert_eq!(change["classified"], false, "{change}");
    let attrs = change["attributes"].as_array().unwrap();
    assert_eq!(attrs.len(), 1, "{change}");
    assert_eq!(attrs[0]["path"], "size");
    assert_eq!(attrs[0]["before"]["value"], 1, "{change}");
    assert_eq!(attrs[0]["after"]["value"], 2, "{change}");
    let text = out(&ward(&["plan", &data("coverage/update-unclassified.json")]));
    assert_eq!(text.matches("1 → 2").count(), 1, "listed once: {text}");
}
