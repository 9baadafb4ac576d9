//! Unit tests of the gate decision on hand-built assessments.
//!
//! The fixture is [`crate::testkit`]; the renderings of these reports are tested in
//! `ward_report::gate`.

use crate::digest::material;
use crate::guard::GuardStatus;
use crate::protect::{CodeProtection, Protection, ProtectionRecord};
use crate::testkit::*;
use crate::*;
use serde_json::json;
use ward_model::{Action, Impact};

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

    f.approvals.approvals.push(approval_for(&volume(10), None));
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::Pass, "{r:?}");
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
        &r.required[0].approval,
        ApprovalStatus::Expired { expired_at, .. } if expired_at == "2026-11-29T17:30:00Z"
    ));
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
    assert!(r.coverage_blocking.is_empty(), "{r:?}");
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
    assert!(r.guards[0].stdout.contains("2 builds running"), "{r:?}");
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
    assert!(
        matches!(&r.guards[0].status, GuardStatus::Bypassed { variable, reason }
            if variable == "WARD_BYPASS_GUARD_BUILDS_IDLE" && reason == "farm drained by hand"),
        "{r:?}"
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

/// `name()` is the JSON's `status`, for every approval and guard status.
#[test]
fn status_names_are_the_json_tags() {
    let approvals = [
        ApprovalStatus::Approved {
            by: "a".into(),
            reason: "r".into(),
            approved_at: "t".into(),
            expires_at: None,
            signed: false,
        },
        ApprovalStatus::Missing,
        ApprovalStatus::Stale {
            by: "a".into(),
            approved_at: "t".into(),
            differences: vec![],
        },
        ApprovalStatus::Expired {
            by: "a".into(),
            expired_at: "t".into(),
        },
        ApprovalStatus::Refused {
            by: "a".into(),
            why: "w".into(),
        },
    ];
    for a in &approvals {
        assert_eq!(serde_json::to_value(a).unwrap()["status"], a.name());
    }
    let guards = [
        GuardStatus::Passed,
        GuardStatus::Failed { code: Some(1) },
        GuardStatus::TimedOut { after_secs: 1 },
        GuardStatus::CannotStart { error: "e".into() },
        GuardStatus::Bypassed {
            variable: "v".into(),
            reason: "r".into(),
        },
    ];
    for g in &guards {
        assert_eq!(serde_json::to_value(g).unwrap()["status"], g.name());
    }
}
