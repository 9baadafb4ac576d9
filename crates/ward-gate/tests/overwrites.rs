//! A change of a type that overwrites state outside this root (`overwrites` in the rules) needs
//! an approval under the default policy, whatever its class: an organization-wide IAM policy
//! create is `interrupt`, a class the default `approve` list does not hold, and must still not
//! pass silently. The plan is ward-classify's hand-written fixture, read and classified as
//! `ward gate` does.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use ward_classify::{assess, Assessment, Options};
use ward_gate::testkit::{verdict, Fixture};
use ward_gate::{evaluate, needs_approval, Because, Outcome};
use ward_model::{Action, Impact};
use ward_rules::Knowledge;

fn org_iam_policy() -> Assessment {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../ward-classify/tests/fixtures/authoritative/org_iam_policy.json");
    let plan = ward_plan::read_file(&path).unwrap();
    assess(&plan, &Knowledge::builtin().unwrap(), &Options::default())
}

#[test]
fn the_default_policy_does_not_pass_an_org_iam_policy_create() {
    let a = org_iam_policy();
    assert_eq!(a.verdicts[0].impact, Impact::Interrupt);
    let f = Fixture::new();
    assert!(!f.policy.approve.contains(&Impact::Interrupt));
    let r = evaluate(&a, &f.context());
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert_eq!(r.required.len(), 1);
    assert_eq!(r.required[0].address, "google_organization_iam_policy.x");
    assert_eq!(r.required[0].because, [Because::Overwrites]);
    assert!(Because::Overwrites
        .describe()
        .contains("overwrites state that exists outside this root"));
}

#[test]
fn approve_overwrites_false_lets_it_through() {
    let a = org_iam_policy();
    let mut f = Fixture::new();
    f.policy.approve_overwrites = false;
    assert_eq!(evaluate(&a, &f.context()).outcome, Outcome::Pass);
}

#[test]
fn creates_updates_and_replacements_need_it_deletes_do_not() {
    let f = Fixture::new();
    let rule = org_iam_policy().verdicts[0].overwrites.clone();
    assert!(rule.is_some());
    for (action, needs) in [
        (Action::Create, true),
        (Action::CreateThenForget, true),
        (Action::Update, true),
        (Action::ReplaceDeleteFirst, true),
        (Action::ReplaceCreateFirst, true),
        (Action::Delete, false),
        (Action::NoOp, false),
        (Action::Forget, false),
    ] {
        let mut v = verdict("google_organization_iam_policy.x", action, Impact::InPlace);
        v.overwrites = rule.clone();
        let why = needs_approval(&v, &f.policy, &f.protection);
        assert_eq!(
            why.contains(&Because::Overwrites),
            needs,
            "{action:?}: {why:?}"
        );
        // Without the rule, the same change needs nothing.
        v.overwrites = None;
        assert!(!needs_approval(&v, &f.policy, &f.protection).contains(&Because::Overwrites));
    }
}
