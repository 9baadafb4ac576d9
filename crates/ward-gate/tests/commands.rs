//! The command layer, `ward_gate::run::{gate, approve}`, on the example plans (real Terraform
//! output) without running Terraform: what each command passes on from its inputs, which
//! changes it chooses, what it writes and the notes it gives (docs/testing.md, "Mutation
//! testing": the mutants of `run.rs` these kill).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::time::Duration;
use ward_gate::run::{GateOptions, Inputs};
use ward_gate::{approvals, record, verify};

mod common;
use common::{example, json, T};

/// A plan JSON: `base` (an example plan) with `f` applied to its `resource_changes`.
fn plan_from(t: &T, base: &str, name: &str, f: impl FnOnce(&mut Vec<serde_json::Value>)) -> String {
    let mut plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example(base)).unwrap()).unwrap();
    f(plan["resource_changes"].as_array_mut().unwrap());
    let path = t.path(name);
    std::fs::write(&path, serde_json::to_vec(&plan).unwrap()).unwrap();
    path.display().to_string()
}

fn change_at<'a>(changes: &'a [serde_json::Value], address: &str) -> &'a serde_json::Value {
    changes.iter().find(|c| c["address"] == address).unwrap()
}

/// The addresses of the report's `required` entries, with their approval status.
fn required(out: &common::Out) -> Vec<(String, String)> {
    json(out)["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["address"].as_str().unwrap().to_string(),
                x["approval"]["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_approve_command_repeats_every_input_the_gate_was_given() {
    let t = T::new("");
    std::fs::write(t.path("main.tf"), "").unwrap();
    let mut i = t.inputs("data-loss.json");
    i.approvals = Some(t.path("approvals.json"));
    i.root = Some(t.dir.path().to_path_buf());
    i.allow_unclassified = true;
    let r = json(&t.gate_with(i, None).unwrap());
    assert_eq!(
        r["required"][0]["approve_command"],
        format!(
            "ward approve {} --config {} --approvals {} --root {} --allow-unclassified --address fakecloud_bucket.backups --reason '<why>'",
            example("data-loss.json"),
            t.path("ward.hcl").display(),
            t.path("approvals.json").display(),
            t.dir.path().display()
        )
    );
}

#[test]
fn newly_found_protection_is_recorded_unless_asked_not_to() {
    let t = T::new("");
    std::fs::write(
        t.path("main.tf"),
        "resource \"fakecloud_volume\" \"db_data\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
    )
    .unwrap();
    let opts = |no_record_protection: bool| GateOptions {
        inputs: Inputs {
            root: Some(t.dir.path().to_path_buf()),
            ..t.inputs("replace.json")
        },
        record: None,
        no_record_protection,
        audit: None,
        binding: Default::default(),
    };
    let record = t.path(".ward/protection.json");
    // Asked not to record: nothing written, nothing said.
    let out = t.gate_opts(&opts(true)).unwrap();
    assert_eq!(out.exit.code(), 0, "{}", out.stdout);
    assert_eq!(out.stderr, "");
    assert!(!record.exists());
    // Recorded, and said so.
    let out = t.gate_opts(&opts(false)).unwrap();
    assert_eq!(
        out.stderr,
        format!(
            "note: recorded 1 newly protected address(es) in {}: commit it, so removing prevent_destroy from code cannot silently drop the protection\n",
            record.display()
        )
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("fakecloud_volume.db_data"), "{text}");
    // Already recorded: nothing new to record, nothing said, the record as it was.
    let out = t.gate_opts(&opts(false)).unwrap();
    assert_eq!(out.stderr, "");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);
}

#[test]
fn a_root_being_adopted_refuses_each_change_but_the_import_by_name() {
    let t = T::new("");
    // hazards.json's changes with import.json's import among them.
    let import = {
        let p: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(example("import.json")).unwrap())
                .unwrap();
        change_at(
            p["resource_changes"].as_array().unwrap(),
            "fakecloud_bucket.archive",
        )
        .clone()
    };
    let plan = plan_from(&t, "hazards.json", "adopting.json", |c| c.insert(3, import));
    let inputs = Inputs {
        plan,
        history: Some(ward_store::Location::Sqlite(t.path("history.db"))),
        ..t.inputs("x")
    };
    let e = t.gate_with(inputs, None).unwrap_err();
    assert_eq!(
        e,
        "error: this root is being adopted with `ward import` and has no acceptance yet: the gate refuses every change other than an import\n\
         \x20 refused: fakecloud_attachment.db_data (delete,create)\n\
         \x20 refused: fakecloud_bucket.logs (create)\n\
         \x20 refused: fakecloud_instance.db (update)\n\
         \x20 refused: fakecloud_instance.web[0] (delete,create)\n\
         \x20 refused: fakecloud_instance.web[1] (delete,create)\n\
         \x20 refused: fakecloud_network.main (update)\n\
         \x20 refused: fakecloud_volume.db_data (delete,create)\n\
         \x20 help: plan only the imports, accept them with `ward import accept`, then plan the managed changes on their own (see `ward docs import`)\n"
    );
}

#[test]
fn a_gate_record_without_the_key_verifies_the_plan_it_was_written_for() {
    let mut t = T::new("");
    let rec = t.path("gate.json");
    let plan = ward_plan::read_path_or_stdin(&example("replace.json")).unwrap();
    // Without the key, then with it (signed, every value bound through it).
    for key in [None, Some("k1")] {
        if let Some(k) = key {
            t.set("WARD_APPROVAL_KEY", k);
        }
        let out = t.gate_with(t.inputs("replace.json"), Some(rec.clone()));
        assert_eq!(out.unwrap().exit.code(), 0);
        let r = record::load(&rec).unwrap();
        assert_eq!(r.signature.is_some(), key.is_some());
        assert_eq!(r.content.is_some(), key.is_none());
        let v = verify::compare_keyed(&r, &plan, key.map(str::as_bytes));
        assert!(v.ok, "{key:?}: {:?}", v.differences);
    }
}

#[test]
fn approving_again_replaces_the_earlier_approval_and_says_so() {
    let t = T::new("");
    let first = t.approve("data-loss.json", |_| {}).unwrap();
    assert_eq!(first.stderr, "");
    let second = t
        .approve("data-loss.json", |o| o.reason = "second snapshot".into())
        .unwrap();
    assert_eq!(
        second.stderr,
        "note: replaced the earlier approval for fakecloud_volume.db_data\n"
    );
    let file = approvals::load(&t.path(".ward/approvals.json")).unwrap();
    let reasons: Vec<(&str, &str)> = file
        .approvals
        .iter()
        .map(|a| (a.address.as_str(), a.reason.as_str()))
        .collect();
    assert_eq!(reasons, [("fakecloud_volume.db_data", "second snapshot")]);
}

#[test]
fn approving_what_is_not_there_lists_what_needs_approval() {
    let t = T::new("");
    let e = t
        .approve("data-loss.json", |o| o.address = "nothing.here".into())
        .unwrap_err();
    assert_eq!(
        e,
        format!(
            "no change at `nothing.here` in {}; changes that need approval: fakecloud_bucket.backups, fakecloud_volume.db_data",
            example("data-loss.json")
        )
    );
    let e = t
        .approve("replace.json", |o| o.address = "nothing.*".into())
        .unwrap_err();
    assert_eq!(
        e,
        "the pattern `nothing.*` matches no change that needs approval; nothing in this plan needs approval"
    );
}

#[test]
fn a_pattern_approves_deposed_objects_only_as_asked() {
    let t = T::new("policy {\n  approve = [\"replace\"]\n}\n");
    // replace.json, and a deposed object of web[0] left by an earlier create-before-destroy.
    let plan = plan_from(&t, "replace.json", "deposed.json", |c| {
        let mut d = change_at(c, "fakecloud_instance.web[0]").clone();
        d["deposed"] = "00aa".into();
        d["change"]["actions"] = serde_json::json!(["delete"]);
        d["change"]["after"] = serde_json::Value::Null;
        d["change"]["after_unknown"] = serde_json::json!({});
        d["change"]["after_sensitive"] = serde_json::json!(false);
        d["change"]["replace_paths"] = serde_json::Value::Null;
        d.as_object_mut().unwrap().remove("action_reason");
        c.push(d);
    });
    let approved = |deposed: Option<&str>| -> Vec<(String, Option<String>)> {
        let approvals = t.path(".ward/approvals.json");
        let _ = std::fs::remove_file(&approvals);
        t.approve("x", |o| {
            o.inputs.plan = plan.clone();
            o.address = "fakecloud_instance.web[*]".into();
            o.deposed = deposed.map(str::to_string);
        })
        .unwrap();
        let mut v: Vec<_> = approvals::load(&approvals)
            .unwrap()
            .approvals
            .into_iter()
            .map(|a| (a.address, a.deposed))
            .collect();
        v.sort();
        v
    };
    let web = |i: u8, d: Option<&str>| {
        (
            format!("fakecloud_instance.web[{i}]"),
            d.map(str::to_string),
        )
    };
    assert_eq!(
        approved(None),
        [web(0, None), web(0, Some("00aa")), web(1, None)]
    );
    assert_eq!(approved(Some("00aa")), [web(0, Some("00aa"))]);
}

/// fakecloud's rules, but changing an instance's size loses data (as a type whose resize
/// reformats its disk would): a data-loss update of a type that holds no data.
fn lossy_resize(t: &T) {
    let rules = std::fs::read_to_string(ward_rig::rules::file()).unwrap();
    let lossy = rules.replacen(
        "attribute \"size\" {\n    impact = \"interrupt\"",
        "attribute \"size\" {\n    impact = \"data-loss\"",
        1,
    );
    assert_ne!(rules, lossy);
    std::fs::write(t.path("rules.hcl"), lossy).unwrap();
    std::fs::write(
        t.path("ward.hcl"),
        "rules {\n  files = [\"rules.hcl\"]\n}\n",
    )
    .unwrap();
}

#[test]
fn a_pattern_never_approves_a_change_that_loses_data_even_in_place() {
    let t = T::new("");
    lossy_resize(&t);
    let out = t.gate("restart.json").unwrap();
    assert_eq!(
        required(&out),
        [("fakecloud_instance.db".to_string(), "missing".to_string())]
    );
    let e = t
        .approve("restart.json", |o| {
            o.address = "fakecloud_instance.*".into()
        })
        .unwrap_err();
    assert_eq!(
        e,
        "a pattern cannot approve a change that loses data: approve each one by its exact address (fakecloud_instance.db)"
    );
    t.approve("restart.json", |o| {
        o.address = "fakecloud_instance.db".into()
    })
    .unwrap();
    assert_eq!(t.gate("restart.json").unwrap().exit.code(), 0);
}

#[test]
fn an_approval_recorded_before_the_policy_needed_it_binds_what_decides_the_change() {
    let t = T::new("");
    std::fs::write(
        t.path("strict.hcl"),
        ward_rig::rules::ward_hcl("policy {\n  approve = [\"interrupt\"]\n}\n"),
    )
    .unwrap();
    let out = t
        .approve("restart.json", |o| {
            o.address = "fakecloud_instance.db".into()
        })
        .unwrap();
    assert_eq!(
        out.stderr,
        "note: fakecloud_instance.db (update, interrupt) does not need approval under the current policy; recorded anyway\n"
    );
    // Under a policy that needs it, the approval is for exactly this change: its size.
    let strict = Inputs {
        config: Some(t.path("strict.hcl")),
        ..t.inputs("restart.json")
    };
    let out = t.gate_with(strict, None).unwrap();
    assert_eq!(out.exit.code(), 0, "{}", out.stdout);
    let r = json(&out);
    assert_eq!(r["required"][0]["address"], "fakecloud_instance.db");
    assert_eq!(r["required"][0]["approval"]["status"], "approved");
    let attrs = &r["required"][0]["change"]["attributes"];
    assert_eq!(attrs.as_array().unwrap().len(), 1, "{attrs}");
    assert_eq!(attrs[0]["path"], "size");
}

/// What each guard the report lists printed.
fn guards_told(report: &serde_json::Value) -> Vec<&str> {
    report["guards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["stdout"].as_str().unwrap())
        .collect()
}

#[test]
fn a_guard_is_told_the_last_values_of_the_object_it_watches() {
    let t = T::new(
        "guard \"builds-idle\" {\n  types   = [\"fakecloud_instance\"]\n  command = [\"sh\", \"-c\", \"echo \\\"$WARD_ADDRESS $WARD_ATTR_NAME $WARD_ATTR_MAC\\\"\"]\n}\n",
    );
    let out = t.gate("replace.json").unwrap();
    assert_eq!(out.exit.code(), 0, "{}", out.stdout);
    let r = json(&out);
    let told = guards_told(&r);
    // `name` does not change: only the destroyed object's values tell it.
    assert_eq!(
        told,
        [
            "fakecloud_instance.web[0] web-0 02:fc:15:c1:3a:5e",
            "fakecloud_instance.web[1] web-1 02:fc:1a:ae:cc:61"
        ]
    );
}

/// A guard on a delete is told every leaf of the object destroyed (`tags.env` under `tags`), not
/// only its top-level values: the gate reads what a delete removes when a guard may be told it,
/// and only then (#35 item 1).
#[test]
fn a_guard_on_a_delete_is_told_the_leaves_of_the_object_destroyed() {
    let t = T::new(
        "guard \"volume-idle\" {\n  types   = [\"fakecloud_volume\"]\n  actions = [\"delete\"]\n  command = [\"sh\", \"-c\", \"echo \\\"$WARD_ADDRESS $WARD_ATTR_NAME $WARD_ATTR_TAGS_ENV\\\"\"]\n}\n",
    );
    // Guards run once every change that needs an approval has one.
    t.approve("destroy.json", |_| {}).unwrap();
    t.approve("destroy.json", |o| {
        o.address = "fakecloud_bucket.backups".into()
    })
    .unwrap();
    let out = t.gate("destroy.json").unwrap();
    let r = json(&out);
    let told = guards_told(&r);
    assert_eq!(told, ["fakecloud_volume.db_data db-data prod"], "{r}");
}

#[test]
fn show_json_refuses_a_plan_file_that_is_not_there() {
    let d = tempfile::tempdir().unwrap();
    let e = verify::show_json(
        "terraform",
        d.path(),
        Path::new("/nonexistent/tfplan"),
        Duration::from_secs(5),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("/nonexistent/tfplan: no such plan file"), "{e}");
}
