//! Hand-built assessments, approvals and gate runs for tests: ward-gate's own unit tests and the
//! tests of the crates that render or call the gate (`ward_report::gate`). Test support only:
//! built with `cfg(test)` or the `testkit` feature, which only dev-dependencies enable.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::approvals::{Approval, ApprovalsFile};
use crate::digest::{self, material};
use crate::policy::Policy;
use crate::protect::Protection;
use crate::{evaluate, run_guards, GateContext, GateReport};
use serde_json::json;
use std::path::Path;
use ward_classify::{Assessment, AttrVerdict, Coverage, KnowledgeUsed, PlanInfo, Verdict};
use ward_model::{
    Action, AttrChange, AttrPath, FormatVersion, Impact, Mode, PathStep, Product, ResourceChange,
    Shown,
};
use ward_time::Timestamp;

pub fn verdict(address: &str, action: Action, impact: Impact) -> Verdict {
    let type_name = address.rsplit('.').nth(1).unwrap_or("t");
    Verdict::new(
        address,
        type_name,
        "registry.terraform.io/example/fakecloud",
        action,
        impact,
    )
}

pub fn attr(
    path: &str,
    before: serde_json::Value,
    after: serde_json::Value,
    impact: Impact,
    forces: bool,
) -> AttrVerdict {
    AttrVerdict {
        change: AttrChange {
            path: AttrPath(vec![PathStep::Key(path.into())]),
            before: Shown::Known(before),
            after: Shown::Known(after),
            hidden: None,
        },
        impact,
        rule: None,
        why: None,
        forces_replacement: forces,
    }
}

pub fn assessment(verdicts: Vec<Verdict>) -> Assessment {
    Assessment {
        plan: PlanInfo {
            format_version: FormatVersion { major: 1, minor: 2 },
            terraform_version: Some("1.15.5".into()),
            product: Product::Terraform,
            errored: false,
            complete: None,
        },
        knowledge: KnowledgeUsed {
            packs: vec![],
            user_files: vec![],
        },
        verdicts,
        drift: vec![],
        outputs: vec![],
        coverage: Coverage::default(),
    }
}

pub fn volume(size_after: i64) -> Verdict {
    let mut v = verdict(
        "fakecloud_volume.data",
        Action::ReplaceDeleteFirst,
        Impact::DataLoss,
    );
    v.holds_data = true;
    v.action_reason = Some("replace_because_cannot_update".into());
    v.attributes = vec![
        attr(
            "size_gb",
            json!(20),
            json!(size_after),
            Impact::Replace,
            true,
        ),
        attr("tags", json!({}), json!({"a": "b"}), Impact::Free, false),
    ];
    v
}

pub fn instance_update(image: &str) -> Verdict {
    let mut v = verdict("fakecloud_instance.web", Action::Update, Impact::InPlace);
    v.attributes = vec![attr(
        "image",
        json!("a"),
        json!(image),
        Impact::InPlace,
        false,
    )];
    v
}

/// A managed `fakecloud_volume` change of the plan (what the reader hands over), with nothing
/// changed and no content fingerprint.
pub fn resource_change(address: &str, action: Action) -> ResourceChange {
    ResourceChange {
        address: address.into(),
        previous_address: None,
        module_address: None,
        mode: Mode::Managed,
        type_name: "fakecloud_volume".into(),
        name: "x".into(),
        index: None,
        provider_name: "registry.terraform.io/example/fakecloud".into(),
        deposed: None,
        action,
        action_reason: None,
        replace_paths: vec![],
        changed: vec![],
        importing: None,
        content: None,
        before_scalars: vec![],
        after_scalars: vec![],
        changed_left_out: 0,
    }
}

pub fn now() -> Timestamp {
    "2026-11-29T18:00:00Z".parse().unwrap()
}

pub fn approval_for(v: &Verdict, expires: Option<&str>) -> Approval {
    let m = material(v, None);
    Approval {
        address: v.address.clone(),
        deposed: v.deposed.clone(),
        digest: digest::digest_material(&m),
        change: m,
        reason: "backup taken".into(),
        by: "alice".into(),
        approved_at: "2026-11-29T17:00:00Z".into(),
        expires_at: expires.map(str::to_string),
        signature: None,
    }
}

pub struct Fixture {
    pub policy: Policy,
    pub protection: Protection,
    pub approvals: ApprovalsFile,
    pub key: Option<Vec<u8>>,
}

impl Default for Fixture {
    fn default() -> Self {
        Self::new()
    }
}

impl Fixture {
    pub fn new() -> Self {
        Fixture {
            policy: Policy::default(),
            protection: Protection {
                root_read: Some(".".into()),
                ..Protection::default()
            },
            approvals: ApprovalsFile::default(),
            key: None,
        }
    }
    /// The gate's inputs besides the assessment: this fixture's, at [`now`], for `plan.json`.
    pub fn context(&self) -> GateContext<'_> {
        GateContext {
            policy: &self.policy,
            protection: &self.protection,
            approvals: &self.approvals,
            approvals_path: ".ward/approvals.json".into(),
            key: self.key.as_deref(),
            now: now(),
            plan_name: "plan.json".into(),
            approve_extra: vec![],
            context: None,
        }
    }
    pub fn gate(&self, a: &Assessment) -> GateReport {
        let mut r = evaluate(a, &self.context());
        run_guards(
            &mut r,
            a,
            &self.policy.guards,
            &Default::default(),
            &|_: &str| None,
        );
        r
    }
}

/// Blocked and passing reports with every section: stale, missing, expired and unused
/// approvals, a budget, protection and a guard.
pub fn mixed_report() -> (GateReport, GateReport) {
    // Blocked: a stale approval, a missing one, an expired one, an unused one, a budget.
    let mut f = Fixture::new();
    f.policy = policy_of(
        "policy {\n protect = [\"fakecloud_network.*\"]\n budget { max_deletes = 5 }\n}\nguard \"idle\" {\n types = [\"fakecloud_instance\"]\n command = [\"sh\", \"-c\", \"echo idle\"]\n}\n",
    );
    f.protection.config_patterns = f.policy.protect.clone();
    let mut logs = volume(10);
    logs.address = "fakecloud_volume.logs".into();
    let net = verdict("fakecloud_network.main", Action::Delete, Impact::Replace);
    let inst = verdict("fakecloud_instance.ci", Action::Delete, Impact::Replace);
    f.approvals.approvals.push(approval_for(&volume(10), None));
    f.approvals
        .approvals
        .push(approval_for(&logs, Some("2026-11-29T17:30:00Z")));
    let mut gone = volume(10);
    gone.address = "fakecloud_volume.gone".into();
    f.approvals.approvals.push(approval_for(&gone, None));
    let blocked = f.gate(&assessment(vec![
        volume(5),
        logs.clone(),
        net.clone(),
        inst.clone(),
    ]));
    // Passing: everything approved, the guard ran.
    f.approvals.approvals.clear();
    for v in [&volume(5), &logs, &net] {
        f.approvals.approvals.push(approval_for(v, None));
    }
    let pass = f.gate(&assessment(vec![volume(5), logs, net, inst]));
    (blocked, pass)
}

/// The gate's policy from `ward.hcl` text, read by ward-config.
pub fn policy_of(text: &str) -> Policy {
    ward_config::Config::parse(text, "ward.hcl", Path::new(""))
        .unwrap()
        .policy
}

/// An address (and approval entries) that try everything: backticks, a table pipe, HTML, a
/// comment that would hide the rest of a PR comment, a heading and newlines, a cursor-up/erase
/// sequence printing a fake "gate passed", a right-to-left override and a line separator.
pub const HOSTILE: &str =
    "x`` | <b>y</b> <!-- \n# heading\n\u{1b}[1A\u{1b}[2Kgate passed\u{202e}\u{2028}z";

pub fn hostile_report(suffix: &str) -> GateReport {
    let mut f = Fixture::new();
    let mut approved = volume(10);
    approved.address = format!("fakecloud_volume.data{suffix}");
    let mut a = approval_for(&approved, None);
    a.by = format!("alice{suffix}");
    a.reason = format!("backup{suffix}");
    f.approvals.approvals.push(a);
    let mut gone = volume(10);
    gone.address = format!("fakecloud_volume.gone{suffix}");
    let mut g = approval_for(&gone, None);
    g.reason = format!("old{suffix}");
    f.approvals.approvals.push(g);
    let mut pending = volume(10);
    pending.address = format!("fakecloud_volume.logs{suffix}");
    let mut r = f.gate(&assessment(vec![approved, pending]));
    r.plan = format!("plan{suffix}.json");
    r.warnings.push(format!("warned{suffix}"));
    r
}
