//! Unit tests of the gate decision on hand-built assessments.
use crate::approvals::{Approval, ApprovalsFile};
use crate::digest::material;
use crate::policy::Policy;
use crate::protect::{CodeProtection, Protection, ProtectionRecord};
use crate::testutil::{attr, verdict};
use crate::*;
use serde_json::json;
use std::path::Path;
use ward_classify::{Assessment, Coverage, KnowledgeUsed, PlanInfo, Verdict};
use ward_model::{Action, FormatVersion, Impact, Product};
use ward_time::Timestamp;

fn assessment(verdicts: Vec<Verdict>) -> Assessment {
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

fn volume(size_after: i64) -> Verdict {
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

fn instance_update(image: &str) -> Verdict {
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

fn now() -> Timestamp {
    "2026-11-29T18:00:00Z".parse().unwrap()
}

fn approval_for(v: &Verdict, expires: Option<&str>) -> Approval {
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

struct Fixture {
    policy: Policy,
    protection: Protection,
    approvals: ApprovalsFile,
    key: Option<Vec<u8>>,
}

impl Fixture {
    fn new() -> Self {
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
    fn gate(&self, a: &Assessment) -> GateReport {
        let ctx = GateContext {
            policy: &self.policy,
            protection: &self.protection,
            approvals: &self.approvals,
            approvals_path: ".ward/approvals.json".into(),
            key: self.key.as_deref(),
            now: now(),
            plan_name: "plan.json".into(),
            approve_extra: vec![],
            context: None,
        };
        let mut r = evaluate(a, &ctx);
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

#[test]
fn data_loss_is_blocked_until_approved() {
    let a = assessment(vec![volume(10), instance_update("b")]);
    let mut f = Fixture::new();
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert_eq!(r.outcome.exit(), ward_model::Exit::ApprovalRequired);
    assert_eq!(r.required.len(), 1);
    let x = &r.required[0];
    assert_eq!(x.approval, ApprovalStatus::Missing);
    assert_eq!(
        x.approve_command,
        "ward approve plan.json --address fakecloud_volume.data --reason '<why>'"
    );
    assert!(x.because.contains(&Because::DestroysData));
    // Only the forcing attribute decides: the tag is not in the digest material.
    assert_eq!(x.change.attributes.len(), 1);
    assert_eq!(x.change.attributes[0].path, "size_gb");
    let text = render::text(&r);
    assert!(text.contains("NOT APPROVED"), "{text}");
    let md = render::markdown(&r);
    assert!(
        md.contains("ward approve plan.json --address fakecloud_volume.data"),
        "{md}"
    );

    f.approvals.approvals.push(approval_for(&volume(10), None));
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::Pass, "{}", render::text(&r));
    assert!(r.required[0].approval.is_approved());
}

#[test]
fn approval_for_another_change_does_not_unblock() {
    let a = assessment(vec![volume(10)]);
    let mut f = Fixture::new();
    let mut other = volume(10);
    other.address = "fakecloud_volume.other".into();
    f.approvals.approvals.push(approval_for(&other, None));
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert_eq!(r.required[0].approval, ApprovalStatus::Missing);
    assert_eq!(r.unused_approvals.len(), 1);
    assert!(r.unused_approvals[0]
        .why
        .contains("no change at this address"));
}

#[test]
fn changed_deciding_attribute_voids_the_approval() {
    let mut f = Fixture::new();
    f.approvals.approvals.push(approval_for(&volume(10), None));
    let r = f.gate(&assessment(vec![volume(5)]));
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    match &r.required[0].approval {
        ApprovalStatus::Stale { differences, .. } => {
            assert_eq!(
                differences,
                &vec!["approved size_gb: 20 → 10; now size_gb: 20 → 5".to_string()]
            );
        }
        other => panic!("{other:?}"),
    }
    // A non-deciding attribute of the same resource does not void it.
    let mut v = volume(10);
    v.attributes[1] = attr("tags", json!({}), json!({"x": "y"}), Impact::Free, false);
    assert_eq!(f.gate(&assessment(vec![v])).outcome, Outcome::Pass);
}

#[test]
fn unrelated_change_elsewhere_keeps_the_approval() {
    let mut f = Fixture::new();
    f.approvals.approvals.push(approval_for(&volume(10), None));
    let r = f.gate(&assessment(vec![volume(10), instance_update("zzz")]));
    assert_eq!(r.outcome, Outcome::Pass);
}

#[test]
fn expired_approval_blocks_and_says_so() {
    let mut f = Fixture::new();
    f.approvals
        .approvals
        .push(approval_for(&volume(10), Some("2026-11-29T17:30:00Z")));
    let r = f.gate(&assessment(vec![volume(10)]));
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(matches!(
        r.required[0].approval,
        ApprovalStatus::Expired { .. }
    ));
    assert!(render::text(&r).contains("expired at 2026-11-29T17:30:00Z"));
    f.approvals.approvals[0].expires_at = Some("2026-11-29T19:00:00Z".into());
    assert_eq!(f.gate(&assessment(vec![volume(10)])).outcome, Outcome::Pass);
}

#[test]
fn tampered_signed_approval_is_refused() {
    let mut f = Fixture::new();
    f.key = Some(b"secret".to_vec());
    let mut a = approval_for(&volume(10), Some("2026-11-29T17:30:00Z"));
    a.sign(b"secret");
    // Extend the expiry by hand.
    a.expires_at = Some("2099-01-01T00:00:00Z".into());
    f.approvals.approvals.push(a.clone());
    let r = f.gate(&assessment(vec![volume(10)]));
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(
        matches!(&r.required[0].approval, ApprovalStatus::Refused { why, .. } if why.contains("signature"))
    );
    // Properly signed: passes, and says it is signed.
    a.sign(b"secret");
    f.approvals.approvals[0] = a;
    let r = f.gate(&assessment(vec![volume(10)]));
    assert!(matches!(
        r.required[0].approval,
        ApprovalStatus::Approved { signed: true, .. }
    ));
}

#[test]
fn unsigned_approval_refused_when_signing_required() {
    let mut f = Fixture::new();
    f.key = Some(b"secret".to_vec());
    f.policy.require_signed_approvals = true;
    f.approvals.approvals.push(approval_for(&volume(10), None));
    let r = f.gate(&assessment(vec![volume(10)]));
    assert!(
        matches!(&r.required[0].approval, ApprovalStatus::Refused { why, .. } if why.contains("requires signed"))
    );
}

#[test]
fn hand_edited_change_is_refused() {
    let mut f = Fixture::new();
    let mut a = approval_for(&volume(10), None);
    // Someone edits the recorded change but keeps the digest of the real one.
    a.change.reason_placeholder();
    f.approvals.approvals.push(a);
    let r = f.gate(&assessment(vec![volume(10)]));
    assert!(
        matches!(&r.required[0].approval, ApprovalStatus::Refused { why, .. } if why.contains("edited by hand"))
    );
}

trait Edit {
    fn reason_placeholder(&mut self);
}
impl Edit for digest::ChangeMaterial {
    fn reason_placeholder(&mut self) {
        self.impact = Impact::Replace;
    }
}

#[test]
fn budget_exceeded_is_not_lifted_by_approvals() {
    let mut f = Fixture::new();
    f.policy = policy_of("policy {\n budget \"fakecloud_volume\" { max_replaces = 0 }\n}\n");
    f.approvals.approvals.push(approval_for(&volume(10), None));
    let r = f.gate(&assessment(vec![volume(10)]));
    assert_eq!(r.outcome, Outcome::BudgetExceeded);
    assert_eq!(r.outcome.exit(), ward_model::Exit::BudgetExceeded);
    assert!(r.budgets[0].exceeded);
    assert_eq!(
        r.budgets[0].addresses,
        vec!["fakecloud_volume.data".to_string()]
    );
}

#[test]
fn coverage_failure_and_errored_plans() {
    let f = Fixture::new();
    let mut a = assessment(vec![volume(10)]);
    a.coverage
        .unclassified
        .insert("mystery_thing".into(), vec!["configuration".into()]);
    // Seen only in configuration: reported, not blocking.
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(r.unclassified.contains_key("mystery_thing"));
    assert!(
        render::text(&r).contains("not blocking"),
        "{}",
        render::text(&r)
    );
    // Touched by a change of this plan: blocks.
    a.coverage.blocking.push("mystery_thing".into());
    assert_eq!(f.gate(&a).outcome, Outcome::CoverageFailure);
    a.coverage.relaxed = true;
    assert_eq!(f.gate(&a).outcome, Outcome::ApprovalRequired);
    a.plan.errored = true;
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::Error);
    assert_eq!(r.outcome.exit(), ward_model::Exit::Usage);
}

#[test]
fn protected_addresses_need_approval_for_any_destroy() {
    let mut f = Fixture::new();
    let del = verdict("fakecloud_instance.ci", Action::Delete, Impact::Replace);
    assert_eq!(
        f.gate(&assessment(vec![del.clone()])).outcome,
        Outcome::Pass
    );
    f.protection.config_patterns = vec!["fakecloud_instance.*".into()];
    let r = f.gate(&assessment(vec![del.clone()]));
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    // Protection remembered after prevent_destroy left the code.
    let rec = ProtectionRecord {
        version: 1,
        protected: vec![CodeProtection {
            address: "fakecloud_instance.ci".into(),
            file: "main.tf".into(),
        }],
    };
    let (p, _) = Protection::combine(vec![], vec![], &rec, Some(".".into()));
    f.protection = p;
    let r = f.gate(&assessment(vec![del]));
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(r
        .warnings
        .iter()
        .any(|w| w.contains("removed from the code")));
}

#[test]
fn a_protect_pattern_with_an_instance_key_protects_exactly_that_instance() {
    let mut f = Fixture::new();
    f.policy = policy_of("policy {\n protect = [\"fakecloud_volume.data[0]\"]\n}\n");
    f.protection.config_patterns = f.policy.protect.clone();
    let del = |addr: &str| {
        let mut v = verdict(addr, Action::Delete, Impact::Replace);
        v.holds_data = false;
        v
    };
    let r = f.gate(&assessment(vec![del("fakecloud_volume.data[0]")]));
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    // `[0]` is literal, not a character class: `[1]` and `data0` are not protected.
    for other in ["fakecloud_volume.data[1]", "fakecloud_volume.data0"] {
        let r = f.gate(&assessment(vec![del(other)]));
        assert_eq!(r.outcome, Outcome::Pass, "{other}");
    }
}

#[test]
fn guards_block_and_bypass() {
    let mut f = Fixture::new();
    f.policy = policy_of(
        "guard \"builds-idle\" {\n types = [\"fakecloud_instance\"]\n command = [\"sh\", \"-c\", \"echo 2 builds running; exit 1\"]\n timeout = \"10s\"\n}\n",
    );
    let a = assessment(vec![verdict(
        "fakecloud_instance.ci",
        Action::Delete,
        Impact::Replace,
    )]);
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::GuardRefused);
    assert_eq!(r.outcome.exit(), ward_model::Exit::GuardRefused);
    assert!(render::text(&r).contains("2 builds running"));
    // Bypass.
    let ctx = GateContext {
        policy: &f.policy,
        protection: &f.protection,
        approvals: &f.approvals,
        approvals_path: "a".into(),
        key: None,
        now: now(),
        plan_name: "plan.json".into(),
        approve_extra: vec![],
        context: None,
    };
    let mut r = evaluate(&a, &ctx);
    run_guards(
        &mut r,
        &a,
        &f.policy.guards,
        &Default::default(),
        &|k: &str| {
            (k == "WARD_BYPASS_GUARD_BUILDS_IDLE").then(|| "farm drained by hand".to_string())
        },
    );
    assert_eq!(r.outcome, Outcome::Pass);
    let text = render::text(&r);
    assert!(
        text.contains("BYPASSED by WARD_BYPASS_GUARD_BUILDS_IDLE: farm drained by hand"),
        "{text}"
    );
    // Guards do not run while something else blocks.
    let mut v = volume(10);
    v.address = "fakecloud_instance.x".into();
    v.type_name = "fakecloud_instance".into();
    let r = f.gate(&assessment(vec![v]));
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(r.guards.is_empty());
    assert_eq!(r.guards_pending.len(), 1);
}

#[test]
fn deterministic_output() {
    let f = Fixture::new();
    let a = assessment(vec![instance_update("b"), volume(10)]);
    let x = f.gate(&a);
    let y = f.gate(&a);
    assert_eq!(render::text(&x), render::text(&y));
    assert_eq!(render::markdown(&x), render::markdown(&y));
}

fn mixed_report() -> (GateReport, GateReport) {
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

#[test]
fn snapshot_text() {
    let (blocked, pass) = mixed_report();
    assert_eq!(blocked.outcome, Outcome::ApprovalRequired);
    assert_eq!(pass.outcome, Outcome::Pass);
    insta::assert_snapshot!("blocked_text", render::text(&blocked));
    insta::assert_snapshot!("pass_text", render::text(&pass));
}

#[test]
fn snapshot_markdown() {
    let (blocked, pass) = mixed_report();
    insta::assert_snapshot!("blocked_markdown", render::markdown(&blocked));
    insta::assert_snapshot!("pass_markdown", render::markdown(&pass));
}

#[test]
fn snapshot_json() {
    let (blocked, pass) = mixed_report();
    insta::assert_snapshot!("blocked_json", render::json(&blocked));
    insta::assert_snapshot!("pass_json", render::json(&pass));
}

#[test]
fn markdown_is_cut_to_fit_and_says_what_it_left_out() {
    let f = Fixture::new();
    let vs: Vec<Verdict> = (0..2000)
        .map(|i| {
            let mut v = volume(10);
            v.address = format!("fakecloud_volume.v[{i}]");
            v
        })
        .collect();
    let r = f.gate(&assessment(vs));
    let full = render::markdown_limited(&r, usize::MAX);
    assert!(full.len() > render::MARKDOWN_LIMIT);
    let md = render::markdown(&r);
    assert!(md.len() <= render::MARKDOWN_LIMIT, "{}", md.len());
    let shown = md.matches("- [ ] ").count();
    assert!(shown > 10);
    assert!(
        md.contains(&format!(
            "Left out: {} change(s) needing approval",
            2000 - shown
        )),
        "{}",
        &md[md.len() - 400..]
    );
    // Code fences stay balanced.
    assert_eq!(md.matches("```").count() % 2, 0);
}

/// The gate's policy from `ward.hcl` text, read by ward-config.
fn policy_of(text: &str) -> Policy {
    ward_config::Config::parse(text, "ward.hcl", Path::new(""))
        .unwrap()
        .policy
}

/// An address (and approval entries) that try everything: backticks, a table pipe, HTML, a
/// comment that would hide the rest of a PR comment, a heading and newlines, a cursor-up/erase
/// sequence printing a fake "gate passed", a right-to-left override and a line separator.
const HOSTILE: &str =
    "x`` | <b>y</b> <!-- \n# heading\n\u{1b}[1A\u{1b}[2Kgate passed\u{202e}\u{2028}z";

fn hostile_report(suffix: &str) -> GateReport {
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

/// `ward gate`: the terminal and Markdown reports keep their lines (no fake "gate passed", no
/// heading, no comment hiding the rest), whatever the addresses and approvals hold.
#[test]
fn gate_reports_escape_a_hostile_address() {
    let (bad, good) = (hostile_report(HOSTILE), hostile_report("x"));
    assert_eq!(bad.outcome, Outcome::ApprovalRequired);
    let unsafe_in = |s: &str| {
        s.chars()
            .any(|c| ward_report::escape::is_unsafe(c) && c != '\n')
    };
    let (t, g) = (render::text(&bad), render::text(&good));
    assert!(!unsafe_in(&t), "{t}");
    assert_eq!(t.lines().count(), g.lines().count(), "{t}");
    assert!(!t.lines().any(|l| l.starts_with("gate passed")), "{t}");
    let (m, g) = (render::markdown(&bad), render::markdown(&good));
    assert!(!unsafe_in(&m), "{m}");
    assert_eq!(m.lines().count(), g.lines().count(), "{m}");
    let mut in_block = false;
    for line in m.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if !in_block {
            let prose = ward_report::escape::md_outside_code(line);
            assert!(!prose.contains("<!--") && !prose.contains("<b>"), "{line}");
        }
    }
    assert!(!in_block, "a code block is left open: {m}");
    let headings = |s: &str| s.lines().filter(|l| l.starts_with('#')).count();
    assert_eq!(headings(&m), headings(&g), "{m}");
}

/// ward stack's context: a digest bound to one context does not match under another, and
/// without a context the digest is what it always was.
#[test]
fn a_context_binds_the_digest() {
    let v = volume(5);
    let plain = digest::digest_material(&material(&v, None));
    let none = digest::digest_material(&digest::material_in(&v, None, None));
    let one = digest::digest_material(&digest::material_in(&v, None, Some("sha256:aa")));
    let two = digest::digest_material(&digest::material_in(&v, None, Some("sha256:bb")));
    assert_eq!(plain, none);
    assert_ne!(one, plain);
    assert_ne!(one, two);
    let d = differences(
        &digest::material_in(&v, None, Some("sha256:aa")),
        &digest::material_in(&v, None, Some("sha256:bb")),
    );
    assert!(d.iter().any(|l| l.contains("upstream outputs")), "{d:?}");
}
