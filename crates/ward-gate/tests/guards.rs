//! Liveness guards at their edges: which changes a guard watches, the environment it is told
//! and the one it inherits, and its bypass (docs/testing.md, "Mutation testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use ward_gate::guard::{applies, attr_var, guard_env, inherited_names, run_guard, GuardStatus};
use ward_gate::policy::{Guard, GuardOn};
use ward_gate::testkit::{attr, verdict};
use ward_model::{Action, Impact, Shown};

fn guard(on: &[GuardOn], types: &[&str], addresses: &[&str]) -> Guard {
    Guard {
        name: "idle".into(),
        addresses: addresses.iter().map(|s| s.to_string()).collect(),
        types: types.iter().map(|s| s.to_string()).collect(),
        on: on.iter().copied().collect::<BTreeSet<_>>(),
        command: vec!["sh".into(), "-c".into(), "exit 0".into()],
        timeout: Duration::from_secs(20),
        dir: Default::default(),
    }
}

#[test]
fn a_guard_watches_the_destroys_it_names() {
    let both = [GuardOn::Delete, GuardOn::Replace];
    let by_type = guard(&both, &["fakecloud_instance"], &[]);
    let by_address = guard(&both, &[], &["module.a.*"]);
    let del = verdict("fakecloud_instance.web", Action::Delete, Impact::Replace);
    let rep = verdict(
        "fakecloud_instance.web",
        Action::ReplaceCreateFirst,
        Impact::Replace,
    );
    let rep2 = verdict(
        "fakecloud_instance.web",
        Action::ReplaceDeleteFirst,
        Impact::Replace,
    );
    let upd = verdict("fakecloud_instance.web", Action::Update, Impact::Replace);
    let create = verdict("fakecloud_instance.web", Action::Create, Impact::Replace);
    assert!(applies(&by_type, &del));
    assert!(applies(&by_type, &rep));
    assert!(applies(&by_type, &rep2));
    assert!(!applies(&by_type, &upd));
    assert!(!applies(&by_type, &create));
    // Another type, another address.
    let vol = verdict("fakecloud_volume.v", Action::Delete, Impact::Replace);
    assert!(!applies(&by_type, &vol));
    assert!(!applies(&by_address, &vol));
    let in_a = verdict(
        "module.a.fakecloud_volume.v",
        Action::Delete,
        Impact::Replace,
    );
    assert!(applies(&by_address, &in_a));
    // Only the actions it is on.
    let deletes = guard(&[GuardOn::Delete], &["fakecloud_instance"], &[]);
    assert!(applies(&deletes, &del));
    assert!(!applies(&deletes, &rep));
    let replaces = guard(&[GuardOn::Replace], &["fakecloud_instance"], &[]);
    assert!(!applies(&replaces, &del));
    assert!(applies(&replaces, &rep));
}

#[test]
fn a_guard_inherits_the_base_list_and_the_named_variables_only() {
    let lookup = |k: &str| (k == "WARD_GUARD_ENV").then(|| "A_ONE,B_TWO  C_*,,".to_string());
    let names = inherited_names(&lookup);
    let base: Vec<String> = ward_exec::BASE_ALLOW_LIST
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert!(!base.is_empty());
    assert_eq!(names[..base.len()], base[..]);
    assert_eq!(names[base.len()..], ["A_ONE", "B_TWO", "C_*"]);
    // Never the approval key, however it is named.
    let lookup =
        |k: &str| (k == "WARD_GUARD_ENV").then(|| "WARD_APPROVAL_KEY WARD_* W* KEEP".to_string());
    let names = inherited_names(&lookup);
    assert_eq!(names[base.len()..], ["KEEP"]);
    assert_eq!(inherited_names(&|_| None), base);
}

#[test]
fn a_guard_is_told_the_change_and_the_known_values() {
    let g = guard(&[GuardOn::Delete], &["fakecloud_volume"], &[]);
    let mut v = verdict("fakecloud_volume.v", Action::Delete, Impact::DataLoss);
    v.deposed = Some("00ab".into());
    let mut secret = attr("password", json!(null), json!(null), Impact::Free, false);
    secret.change.before = Shown::Sensitive;
    let mut created = attr("zone", json!(null), json!("z1"), Impact::Free, false);
    created.change.before = Shown::Absent;
    let mut unknown = attr("id", json!(null), json!(null), Impact::Free, false);
    unknown.change.before = Shown::Unknown;
    unknown.change.after = Shown::Unknown;
    v.attributes = vec![
        attr("name", json!("old"), json!("new"), Impact::Free, false),
        attr("size_gb", json!(20), json!(10), Impact::Free, false),
        secret,
        created,
        unknown,
    ];
    let object = BTreeMap::from([
        ("WARD_ATTR_PASSWORD".to_string(), "leak".to_string()),
        ("WARD_ATTR_ID".to_string(), "vol-1".to_string()),
        ("WARD_ATTR_TAGS".to_string(), "{}".to_string()),
    ]);
    let env: BTreeMap<String, String> = guard_env(&g, &v, "2026-11-29T18:00:00Z", Some(&object))
        .into_iter()
        .collect();
    let want: BTreeMap<String, String> = [
        ("TZ", "UTC"),
        ("WARD_GUARD", "idle"),
        ("WARD_ADDRESS", "fakecloud_volume.v"),
        ("WARD_TYPE", "fakecloud_volume"),
        ("WARD_ACTION", "delete"),
        ("WARD_IMPACT", "data-loss"),
        ("WARD_NOW", "2026-11-29T18:00:00Z"),
        ("WARD_DEPOSED", "00ab"),
        ("WARD_ATTR_NAME", "old"),
        ("WARD_ATTR_SIZE_GB", "20"),
        ("WARD_ATTR_ZONE", "z1"),
        ("WARD_ATTR_TAGS", "{}"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(env, want);
    assert_eq!(attr_var("tags.Name"), "WARD_ATTR_TAGS_NAME");
}

#[test]
fn a_bypass_needs_a_reason() {
    let mut g = guard(&[GuardOn::Delete], &["fakecloud_volume"], &[]);
    g.command = vec!["sh".into(), "-c".into(), "exit 3".into()];
    let v = verdict("fakecloud_volume.v", Action::Delete, Impact::DataLoss);
    let var = g.bypass_var();
    let with = |reason: &'static str| {
        let var = var.clone();
        move |k: &str| (k == var).then(|| reason.to_string())
    };
    let r = run_guard(&g, &v, "now", None, &with("  maintenance window  "));
    assert_eq!(
        r.status,
        GuardStatus::Bypassed {
            variable: var.clone(),
            reason: "maintenance window".into()
        }
    );
    assert!(!r.status.blocks());
    assert_eq!(r.note, None);
    let r = run_guard(&g, &v, "now", None, &with("   "));
    assert_eq!(r.status, GuardStatus::Failed { code: Some(3) });
    assert!(r.status.blocks());
    assert!(r.note.unwrap().contains("set but empty"));
    let r = run_guard(&g, &v, "now", None, &|_| None);
    assert_eq!(r.status, GuardStatus::Failed { code: Some(3) });
    assert_eq!(r.note, None);
    assert_eq!(r.action, "delete");
    assert_eq!(r.command, g.command);
}

#[test]
fn a_guard_counts_what_it_cut_of_both_streams() {
    let mut g = guard(&[GuardOn::Delete], &["fakecloud_volume"], &[]);
    let v = verdict("fakecloud_volume.v", Action::Delete, Impact::DataLoss);
    let cap = ward_gate::guard::MAX_OUTPUT;
    let mut run = |script: String| {
        g.command = vec!["sh".into(), "-c".into(), script];
        run_guard(&g, &v, "now", None, &|_| None)
    };
    // `printf '%0Nd' 0` prints N zeros.
    let r = run(format!("printf '%0{}d' 0 >&2", cap + 300));
    assert_eq!(r.status, GuardStatus::Passed);
    assert_eq!((r.stdout.len(), r.stderr.len()), (0, cap));
    assert_eq!(r.output_cut, 300, "only stderr was cut");
    let r = run(format!(
        "printf '%0{}d' 0; printf '%0{}d' 0 >&2",
        cap + 500,
        cap + 200
    ));
    assert_eq!((r.stdout.len(), r.stderr.len()), (cap, cap));
    assert_eq!(r.output_cut, 700, "what was cut of both");
}
