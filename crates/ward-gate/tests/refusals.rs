//! Every refusal of `ward gate`, `ward approve` and `ward verify` that needs no Terraform: on the
//! example plans committed in `examples/plans` (real Terraform output).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use ward_gate::run::{self, ApproveOptions, Inputs, VerifyOptions};

mod common;
use common::{example, json, T};

#[test]
fn gate_blocks_each_data_loss_until_each_is_approved() {
    let t = T::new("");
    let out = t.gate("data-loss.json").unwrap();
    assert_eq!(out.exit.code(), 4);
    let r = json(&out);
    let addrs: Vec<&str> = r["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["address"].as_str().unwrap())
        .collect();
    assert_eq!(
        addrs,
        ["fakecloud_bucket.backups", "fakecloud_volume.db_data"]
    );
    t.approve("data-loss.json", |_| {}).unwrap();
    assert_eq!(
        t.gate("data-loss.json").unwrap().exit.code(),
        4,
        "one of two approved still blocks"
    );
    t.approve("data-loss.json", |o| {
        o.address = "fakecloud_bucket.backups".into()
    })
    .unwrap();
    assert_eq!(t.gate("data-loss.json").unwrap().exit.code(), 0);
    // The approvals file is stable: approving again in another order gives the same bytes
    // apart from the replaced entry's time.
    let text = std::fs::read_to_string(t.path(".ward/approvals.json")).unwrap();
    let a = text.find("fakecloud_bucket.backups").unwrap();
    let b = text.find("fakecloud_volume.db_data").unwrap();
    assert!(a < b, "sorted by address");
    // Unused approvals are reported, not ignored.
    let out = t.gate("replace.json").unwrap();
    let r = json(&out);
    assert_eq!(r["unused_approvals"].as_array().unwrap().len(), 2);
    assert_eq!(
        out.exit.code(),
        0,
        "replacing stateless instances needs no approval by default"
    );
}

#[test]
fn a_delete_approval_is_bound_to_the_object_it_deletes() {
    let t = T::new("");
    let mut plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example("destroy.json")).unwrap()).unwrap();
    let at = |plan: &serde_json::Value, path: &Path| {
        std::fs::write(path, serde_json::to_vec(plan).unwrap()).unwrap();
        path.display().to_string()
    };
    let status = |out: &common::Out| {
        json(out)["required"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["address"] == "fakecloud_volume.db_data")
            .map(|x| x["approval"].clone())
            .unwrap()
    };
    let first = at(&plan, &t.path("first.json"));
    let inputs = |p: &str| Inputs {
        plan: p.to_string(),
        ..t.inputs("destroy.json")
    };
    common::run_approve(
        &ApproveOptions {
            inputs: inputs(&first),
            address: "fakecloud_volume.db_data".into(),
            deposed: None,
            reason: "scratch volume".into(),
            expires: None,
            by: None,
            audit: None,
            binding: Default::default(),
        },
        &|k: &str| t.env.get(k).cloned(),
    )
    .unwrap();
    let approved = status(&t.gate_with(inputs(&first), None).unwrap());
    assert_eq!(approved["status"], "approved", "{approved}");
    // Later, another object is planned for deletion at the same address.
    for c in plan["resource_changes"].as_array_mut().unwrap() {
        if c["address"] == "fakecloud_volume.db_data" {
            c["change"]["before"]["id"] = "vol-ledger00".into();
        }
    }
    let second = at(&plan, &t.path("second.json"));
    let s = status(&t.gate_with(inputs(&second), None).unwrap());
    assert_eq!(s["status"], "stale", "{s}");
    let why = s["differences"].to_string();
    assert!(
        why.contains("object destroyed: approved id=vol-34d1b3ea")
            && why.contains("now id=vol-ledger00"),
        "{why}"
    );
}

#[test]
fn approve_refusals() {
    let t = T::new("");
    for (f, needle) in [
        (
            Box::new(|o: &mut ApproveOptions| o.reason = " ".into())
                as Box<dyn Fn(&mut ApproveOptions)>,
            "--reason is empty",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.address = "nothing.here".into()),
            "no change at `nothing.here`",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.address = "fakecloud_*".into()),
            "a pattern cannot approve a change that loses data",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.address = "zzz.*".into()),
            "matches no change that needs approval",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.address = "fakecloud_network.main".into()),
            "does not change in this plan",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.deposed = Some("00aa".into())),
            "has no change for that object",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.expires = Some("soon".into())),
            "invalid duration",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.expires = Some("0s".into())),
            "expire at once",
        ),
        (
            Box::new(|o: &mut ApproveOptions| o.inputs.plan = "/nonexistent/plan.json".into()),
            "plan.json",
        ),
        (
            Box::new(|o: &mut ApproveOptions| {
                o.inputs.root = Some(PathBuf::from("/nonexistent-root"))
            }),
            "no .tf, .tf.json, .tofu or .tofu.json files",
        ),
    ] {
        let err = t.approve("data-loss.json", |o| f(o)).unwrap_err();
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let mut t = T::new("");
    t.env.remove("WARD_APPROVER");
    let err = t.approve("data-loss.json", |_| {}).unwrap_err();
    assert!(err.contains("--by"), "{err}");
    t.set("WARD_APPROVAL_KEY", "");
    let err = t
        .approve("data-loss.json", |o| o.by = Some("a".into()))
        .unwrap_err();
    assert!(err.contains("set but empty"), "{err}");
    assert!(
        !t.path(".ward/approvals.json").exists(),
        "nothing written on refusal"
    );
}

#[test]
fn gate_input_refusals() {
    let mut t = T::new("");
    t.set("WARD_NOW", "yesterday");
    assert!(t.gate("data-loss.json").unwrap_err().contains("WARD_NOW"));

    let t = T::new("policy {\n  approve = [\"everything\"]\n}\n");
    let err = t.gate("data-loss.json").unwrap_err();
    assert!(err.contains("unknown impact class"), "{err}");

    let t = T::new("policy {\n  require_signed_approvals = true\n}\n");
    let err = t.gate("data-loss.json").unwrap_err();
    assert!(err.contains("WARD_APPROVAL_KEY is not set"), "{err}");

    let t = T::new("");
    std::fs::create_dir_all(t.path(".ward")).unwrap();
    std::fs::write(t.path(".ward/approvals.json"), "{\"approvals\": 3}").unwrap();
    let err = t.gate("data-loss.json").unwrap_err();
    assert!(err.contains("not a ward approvals file"), "{err}");

    let t = T::new("");
    let mut i = t.inputs("data-loss.json");
    i.config = Some(t.path("missing.hcl"));
    assert!(t.gate_with(i, None).unwrap_err().contains("does not exist"));
}

#[test]
fn signed_approvals_are_checked() {
    let mut t = T::new("policy {\n  require_signed_approvals = true\n}\n");
    t.set("WARD_APPROVAL_KEY", "k1");
    t.approve("data-loss.json", |_| {}).unwrap();
    t.approve("data-loss.json", |o| {
        o.address = "fakecloud_bucket.backups".into()
    })
    .unwrap();
    assert_eq!(t.gate("data-loss.json").unwrap().exit.code(), 0);
    // Another key: every approval refused.
    t.set("WARD_APPROVAL_KEY", "k2");
    let out = t.gate("data-loss.json").unwrap();
    assert_eq!(out.exit.code(), 4);
    assert!(
        out.stdout.contains("signature does not match"),
        "{}",
        out.stdout
    );
    // Hand-edited reason under the right key: refused.
    t.set("WARD_APPROVAL_KEY", "k1");
    let p = t.path(".ward/approvals.json");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replacen("snapshot taken", "trust me", 1)).unwrap();
    let out = t.gate("data-loss.json").unwrap();
    assert_eq!(out.exit.code(), 4);
    // Signature stripped: unsigned, refused under require_signed_approvals.
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    for a in v["approvals"].as_array_mut().unwrap() {
        a.as_object_mut().unwrap().remove("signature");
    }
    std::fs::write(&p, v.to_string()).unwrap();
    let out = t.gate("data-loss.json").unwrap();
    assert_eq!(out.exit.code(), 4, "{}", out.stdout);
    assert!(
        out.stdout.contains("requires signed approvals"),
        "{}",
        out.stdout
    );
}

#[test]
fn coverage_and_budget_exit_codes() {
    let t = T::new("policy {\n  budget {\n    max_replaces = 1\n  }\n}\n");
    let out = t.gate("replace.json").unwrap();
    assert_eq!(out.exit.code(), 5, "{}", out.stdout);
    let t = T::new("policy {\n  approve = [\"replace\"]\n}\n");
    let out = t.gate("replace.json").unwrap();
    assert_eq!(out.exit.code(), 4);
    // A pattern approves non-data-loss changes one by one, each with its own digest.
    let o = t
        .approve("replace.json", |o| {
            o.address = "fakecloud_instance.web[*]".into()
        })
        .unwrap();
    assert_eq!(
        o.stdout.matches("approved fakecloud_instance.web[").count(),
        2,
        "{}",
        o.stdout
    );
    assert_eq!(t.gate("replace.json").unwrap().exit.code(), 0);

    // An unclassified type fails coverage (3); relaxed, its destroy still needs approval (4).
    let plan = r#"{"format_version":"1.2","terraform_version":"1.15.5","resource_changes":[
      {"address":"mystery_thing.x","mode":"managed","type":"mystery_thing","name":"x",
       "provider_name":"registry.terraform.io/acme/mystery",
       "change":{"actions":["delete"],"before":{"id":"1"},"after":null,
                 "after_unknown":{},"before_sensitive":{},"after_sensitive":false}}]}"#;
    std::fs::write(t.path("mystery.json"), plan).unwrap();
    let mut i = t.inputs("x");
    i.plan = t.path("mystery.json").display().to_string();
    let out = t.gate_with(i.clone(), None).unwrap();
    assert_eq!(out.exit.code(), 3, "{}", out.stdout);
    i.allow_unclassified = true;
    let out = t.gate_with(i, None).unwrap();
    assert_eq!(out.exit.code(), 4, "{}", out.stdout);
    assert!(out.stdout.contains("unclassified"), "{}", out.stdout);
    // An errored plan is refused (2).
    let errored = plan.replacen(
        "\"resource_changes\"",
        "\"errored\":true,\"resource_changes\"",
        1,
    );
    std::fs::write(t.path("errored.json"), errored).unwrap();
    let mut i = t.inputs("x");
    i.plan = t.path("errored.json").display().to_string();
    i.allow_unclassified = true;
    let out = t.gate_with(i, None).unwrap();
    assert_eq!(out.exit.code(), 2, "{}", out.stdout);
}

#[test]
fn verify_refusals() {
    let t = T::new("");
    let missing = run::verify_with_env(
        &VerifyOptions {
            planfile: t.path("tfplan"),
            record: t.path("gate.json"),
            binary: None,
            chdir: None,
            timeout: None,
            ..VerifyOptions::default()
        },
        &|_: &str| None,
    )
    .unwrap_err()
    .to_string();
    assert!(missing.contains("gate record"), "{missing}");
    std::fs::write(t.path("gate.json"), "{\"version\": 9}").unwrap();
    let bad = run::verify_with_env(
        &VerifyOptions {
            planfile: t.path("tfplan"),
            record: t.path("gate.json"),
            binary: None,
            chdir: None,
            timeout: None,
            ..VerifyOptions::default()
        },
        &|_: &str| None,
    )
    .unwrap_err()
    .to_string();
    assert!(bad.contains("not a ward gate record"), "{bad}");
    // A real record, but no plan file / no binary.
    t.gate_with(t.inputs("replace.json"), Some(t.path("gate.json")))
        .unwrap();
    let no_plan = run::verify_with_env(
        &VerifyOptions {
            planfile: t.path("tfplan"),
            record: t.path("gate.json"),
            binary: Some("/nonexistent/terraform".into()),
            chdir: None,
            timeout: None,
            ..VerifyOptions::default()
        },
        &|_: &str| None,
    )
    .unwrap_err()
    .to_string();
    assert!(no_plan.contains("no such plan file"), "{no_plan}");
    std::fs::write(t.path("tfplan"), "x").unwrap();
    let no_bin = run::verify_with_env(
        &VerifyOptions {
            planfile: t.path("tfplan"),
            record: t.path("gate.json"),
            binary: Some("/nonexistent/terraform".into()),
            chdir: None,
            timeout: None,
            ..VerifyOptions::default()
        },
        &|_: &str| None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        no_bin.contains("cannot run `/nonexistent/terraform`"),
        "{no_bin}"
    );
}

/// The gate never writes outside the repository: not through `..` or an absolute path in
/// `policy`, not through a symlinked `.ward`.
#[cfg(unix)]
#[test]
fn gate_files_stay_inside_the_repository() {
    for key in ["approvals", "protection_record"] {
        for bad in ["../../../x.json", "/tmp/x.json"] {
            let t = T::new(&format!("policy {{\n  {key} = \"{bad}\"\n}}\n"));
            let err = t.gate("data-loss.json").unwrap_err();
            assert!(err.contains("ward.hcl:2:"), "{err}");
            assert!(err.contains("outside the repository"), "{err}");
        }
    }
    let t = T::new("");
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), t.path(".ward")).unwrap();
    let err = t.approve("data-loss.json", |_| {}).unwrap_err();
    assert!(err.contains("outside the directory of ward.hcl"), "{err}");
    let err = t.gate("data-loss.json").unwrap_err();
    assert!(err.contains("symlink"), "{err}");
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}
