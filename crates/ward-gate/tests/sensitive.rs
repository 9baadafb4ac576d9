//! Approvals and sensitive deciding attributes: a replacement forced by a sensitive attribute
//! (`admin_password`) whose value alone changes after approval. Plans are the committed
//! `examples/plans/replace.json` with that attribute's values edited; the key is passed through
//! the gate's environment function, never the process environment.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use ward_gate::run::{ApproveOptions, GateOptions, Inputs};
use ward_report::Format;

mod common;

const ADDRESS: &str = "fakecloud_instance.web[0]";
const KEY: &str = "test-approval-key";

/// `examples/plans/replace.json` with `fakecloud_instance.web[0]` replaced because of its
/// sensitive `admin_password`, which changes from `before` to `after` (and `web[1]` unchanged).
fn plan_with_password(before: &str, after: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans/replace.json");
    let mut p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rcs = p["resource_changes"].as_array_mut().unwrap();
    let rc = rcs.iter_mut().find(|r| r["address"] == ADDRESS).unwrap();
    let c = &mut rc["change"];
    c["before"]["admin_password"] = before.into();
    c["after"]["admin_password"] = after.into();
    c["before"]["image"] = c["after"]["image"].clone();
    c["replace_paths"] = serde_json::json!([["admin_password"]]);
    // The other replacement in the example becomes a no-op, so only ours needs approval.
    let other = rcs
        .iter_mut()
        .find(|r| r["address"] == "fakecloud_instance.web[1]")
        .unwrap();
    other.as_object_mut().unwrap().remove("action_reason");
    let c = other["change"].as_object_mut().unwrap();
    c.insert("actions".into(), serde_json::json!(["no-op"]));
    c.insert("after".into(), c["before"].clone());
    c.insert("after_sensitive".into(), c["before_sensitive"].clone());
    c.insert("after_unknown".into(), serde_json::json!({}));
    c.remove("replace_paths");
    p.to_string()
}

struct T {
    dir: tempfile::TempDir,
    env: BTreeMap<String, String>,
}

impl T {
    fn new(key: Option<&str>) -> T {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("ward.hcl"),
            ward_rig::rules::ward_hcl("policy {\n  approve = [\"replace\", \"data-loss\"]\n}\n"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("old.json"),
            plan_with_password("SECRET-old-1", "SECRET-new-A"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("changed.json"),
            plan_with_password("SECRET-old-1", "SECRET-new-B"),
        )
        .unwrap();
        let mut env = BTreeMap::new();
        env.insert("WARD_NOW".into(), "2026-11-29T18:00:00Z".into());
        env.insert("WARD_APPROVER".into(), "alice".into());
        if let Some(k) = key {
            env.insert("WARD_APPROVAL_KEY".into(), k.into());
        }
        T { dir, env }
    }
    fn path(&self, n: &str) -> PathBuf {
        self.dir.path().join(n)
    }
    fn inputs(&self, plan: &str) -> Inputs {
        Inputs {
            plan: self.path(plan).display().to_string(),
            config: Some(self.path("ward.hcl")),
            approvals: None,
            root: None,
            allow_unclassified: false,
            history: None,
        }
    }
    fn gate(&self, plan: &str, format: Format) -> common::Out {
        let env = self.env.clone();
        let run = common::run_gate(
            &GateOptions {
                inputs: self.inputs(plan),
                record: None,
                no_record_protection: true,
                audit: None,
                binding: Default::default(),
            },
            &move |k: &str| env.get(k).cloned(),
        )
        .unwrap();
        common::gate(run, format)
    }
    fn approve(&self, plan: &str) {
        let env = self.env.clone();
        common::run_approve(
            &ApproveOptions {
                inputs: self.inputs(plan),
                address: ADDRESS.into(),
                deposed: None,
                reason: "rotating the admin password".into(),
                expires: None,
                by: None,
                audit: None,
                binding: Default::default(),
            },
            &move |k: &str| env.get(k).cloned(),
        )
        .unwrap();
    }
    fn approvals(&self) -> String {
        std::fs::read_to_string(self.path(".ward/approvals.json")).unwrap()
    }
}

fn required(r: &serde_json::Value) -> &serde_json::Value {
    r["required"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["address"] == ADDRESS)
        .unwrap_or_else(|| panic!("{ADDRESS} not required: {r:#}"))
}

fn assert_no_secret(what: &str, text: &str) {
    assert!(!text.contains("SECRET"), "{what} holds a secret:\n{text}");
}

#[test]
fn with_a_key_an_approval_for_the_old_sensitive_value_is_stale_and_blocks() {
    let t = T::new(Some(KEY));
    let out = t.gate("old.json", Format::Json);
    assert_eq!(out.exit.code(), 4, "{}", out.stdout);
    t.approve("old.json");
    let out = t.gate("old.json", Format::Json);
    assert_eq!(out.exit.code(), 0, "approved: {}", out.stdout);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(
        !out.stdout.contains("set WARD_APPROVAL_KEY"),
        "no warning with a key: {}",
        out.stdout
    );
    assert_no_secret("gate report", &out.stdout);
    assert_no_secret("approvals file", &t.approvals());
    // The recorded change binds the value with the keyed HMAC only.
    let approvals: serde_json::Value = serde_json::from_str(&t.approvals()).unwrap();
    let attrs = &approvals["approvals"][0]["change"]["attributes"];
    assert_eq!(attrs[0]["path"], "admin_password", "{attrs:#}");
    assert!(
        attrs[0]["binding"]
            .as_str()
            .unwrap()
            .starts_with("hmac-sha256:"),
        "{attrs:#}"
    );
    assert_eq!(required(&r)["approval"]["status"], "approved", "{r:#}");

    // Only the sensitive value differs: the approval is stale and blocks.
    let out = t.gate("changed.json", Format::Json);
    assert_eq!(out.exit.code(), 4, "{}", out.stdout);
    assert_no_secret("gate report", &out.stdout);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let a = &required(&r)["approval"];
    assert_eq!(a["status"], "stale", "{a:#}");
    let diffs = a["differences"].to_string();
    assert!(diffs.contains("(sensitive value changed)"), "{diffs}");
    assert!(diffs.contains("approved admin_password"), "{diffs}");

    // The same in text.
    let out = t.gate("changed.json", Format::Terminal);
    assert_eq!(out.exit.code(), 4);
    assert!(
        out.stdout.contains("(sensitive value changed)"),
        "{}",
        out.stdout
    );
    assert_no_secret("text report", &out.stdout);

    // Gating without the key an approval bound with it: the gate cannot check it, so it blocks.
    let mut t = t;
    t.env.remove("WARD_APPROVAL_KEY");
    let out = t.gate("old.json", Format::Json);
    assert_eq!(out.exit.code(), 4, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("with WARD_APPROVAL_KEY, which is not set now: set it to check the approval"),
        "{}",
        out.stdout
    );
}

#[test]
fn without_a_key_the_digest_is_unchanged_and_the_gate_warns() {
    let t = T::new(None);
    t.approve("old.json");
    let approvals = t.approvals();
    assert!(!approvals.contains("binding"), "{approvals}");
    assert_no_secret("approvals file", &approvals);
    // The approval cannot see the value: it still passes, with the precise warning.
    let out = t.gate("changed.json", Format::Json);
    assert_eq!(out.exit.code(), 0, "{}", out.stdout);
    assert!(
        out.stdout.contains(
            "admin_password hide their values (sensitive or shortened), so a change of value alone would not void an approval: set WARD_APPROVAL_KEY to bind approvals to sensitive values"
        ),
        "{}",
        out.stdout
    );
    assert_no_secret("gate report", &out.stdout);

    // Setting a key later: the approval made without it is not bound, so it is stale.
    let mut t = t;
    t.env.insert("WARD_APPROVAL_KEY".into(), KEY.into());
    let out = t.gate("old.json", Format::Json);
    assert_eq!(out.exit.code(), 4, "{}", out.stdout);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let diffs = required(&r)["approval"]["differences"].to_string();
    assert!(diffs.contains("without WARD_APPROVAL_KEY"), "{diffs}");
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn no_output_carries_the_fingerprint_or_the_secret() {
    let t = T::new(Some(KEY));
    let text = plan_with_password("SECRET-old-1", "SECRET-new-A");
    let plan = ward_plan::read_reader(text.as_bytes(), "old.json").unwrap();
    let rc = plan.changes.iter().find(|c| c.address == ADDRESS).unwrap();
    let pw = rc
        .changed
        .iter()
        .find(|a| a.path.to_string() == "admin_password")
        .unwrap();
    let fp = hex(pw.hidden.as_ref().expect("fingerprint set").bytes());
    // Neither the model's serialization...
    let model = serde_json::to_string(&plan).unwrap();
    assert!(
        !model.contains(&fp),
        "plan serialization holds the fingerprint"
    );
    assert_no_secret("plan serialization", &model);
    // ...nor the assessment, nor the JSON report...
    let knowledge = ward_rig::rules::knowledge().unwrap();
    let a = ward_classify::assess(&plan, &knowledge, &ward_classify::Options::default());
    let assessment = serde_json::to_string(&a).unwrap();
    assert!(
        !assessment.contains(&fp),
        "assessment holds the fingerprint"
    );
    assert_no_secret("assessment", &assessment);
    let outcome =
        ward_classify::outcome::evaluate(&a, &ward_classify::outcome::GateOptions::default());
    let report = ward_report::render_json(&a, &outcome);
    assert!(!report.contains(&fp), "JSON report holds the fingerprint");
    assert_no_secret("JSON report", &report);
    // ...nor the gate's report and approvals file.
    t.approve("old.json");
    let approvals = t.approvals();
    assert!(
        !approvals.contains(&fp),
        "approvals file holds the fingerprint"
    );
    for f in [Format::Json, Format::Terminal] {
        let out = t.gate("changed.json", f);
        assert!(
            !out.stdout.contains(&fp),
            "gate report holds the fingerprint"
        );
        assert_no_secret("gate report", &out.stdout);
    }
}
