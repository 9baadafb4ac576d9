//! The gate's evaluation at its edges, on assessments built by hand: why a change needs an
//! approval, shell quoting in the approve command, what differs from an approved change, expiry
//! at the clock's very second, budgets at their limit, which outcome wins, the reasons an
//! approval is unused, and the warnings. Each test pins a boundary a mutation of ward-gate
//! crosses (docs/testing.md, "Mutation testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::collections::BTreeMap;
use ward_classify::{Assessment, AttrVerdict, Coverage, Verdict};
use ward_gate::digest::{ChangeMaterial, DecidingAttr};
use ward_gate::policy::Policy;
use ward_gate::protect::{CodeProtection, ProtectedBy, Protection};
use ward_gate::testkit::{approval_for, assessment, verdict, Fixture};
use ward_gate::{
    differences, evaluate, needs_approval, shell_quote, ApprovalStatus, Because, GateContext,
    GateReport, Outcome,
};
use ward_model::{Action, HiddenDigest, Impact, Mode, Shown};

/// An attribute verdict with these shown values (the testkit's `attr` takes known values).
fn attr(path: &str, before: Shown, after: Shown, impact: Impact, forces: bool) -> AttrVerdict {
    let mut a = ward_gate::testkit::attr(path, json!(null), json!(null), impact, forces);
    a.change.before = before;
    a.change.after = after;
    a
}

/// The gate's evaluation alone (no guard is run), with the testkit fixture's inputs.
fn run(f: &Fixture, a: &Assessment) -> GateReport {
    evaluate(a, &f.context())
}

fn data_volume(address: &str, action: Action) -> Verdict {
    let mut v = verdict(address, action, Impact::DataLoss);
    v.holds_data = true;
    v
}

#[test]
fn shell_quote_leaves_plain_words_and_quotes_the_rest() {
    assert_eq!(shell_quote("a_-./:@+9Z"), "a_-./:@+9Z");
    assert_eq!(shell_quote(""), "''");
    assert_eq!(shell_quote("a b"), "'a b'");
    // shlex also quotes `=` and `,` (brace expansion) and picks double quotes around a `'`.
    assert_eq!(shell_quote("a=b,c"), "'a=b,c'");
    assert_eq!(shell_quote("it's"), "\"it's\"");
    assert_eq!(shell_quote("x[\"k\"]"), "'x[\"k\"]'");
    assert_eq!(shell_quote("é"), "'é'");
    // History expansion: `!` is never left where an interactive shell expands it.
    assert_eq!(shell_quote("it's!"), "\"it's\"'!'");
}

#[test]
fn the_approve_command_quotes_each_word() {
    let g = Fixture::new();
    let ctx = GateContext {
        approve_extra: vec!["--config".into(), "my dir/ward.hcl".into()],
        ..g.context()
    };
    let mut v = data_volume("fakecloud_volume.d[\"a b\"]", Action::Delete);
    v.deposed = Some("0a1b".into());
    let r = evaluate(&assessment(vec![v]), &ctx);
    assert_eq!(
        r.required[0].approve_command,
        "ward approve plan.json --config 'my dir/ward.hcl' --address 'fakecloud_volume.d[\"a b\"]' --deposed 0a1b --reason '<why>'"
    );
}

#[test]
fn what_needs_an_approval_and_why() {
    let policy = Policy::default();
    let mut protection = Protection {
        config_patterns: vec!["fakecloud_network.*".into()],
        ..Protection::default()
    };
    let why = |v: &Verdict, p: &Protection| needs_approval(v, &policy, p);
    // A data source or an inert action never.
    let mut data = data_volume("data.fakecloud_volume.d", Action::Delete);
    data.mode = Mode::Data;
    assert!(why(&data, &protection).is_empty());
    for action in [Action::NoOp, Action::Read] {
        let v = data_volume("fakecloud_volume.d", action);
        assert!(why(&v, &protection).is_empty(), "{action}");
    }
    // The class and the data it holds.
    let v = data_volume("fakecloud_volume.d", Action::Delete);
    assert_eq!(
        why(&v, &protection),
        [
            Because::Class {
                impact: Impact::DataLoss
            },
            Because::DestroysData
        ]
    );
    // An update of the approved class that destroys nothing: the class only.
    let v = data_volume("fakecloud_volume.d", Action::Update);
    assert_eq!(
        why(&v, &protection),
        [Because::Class {
            impact: Impact::DataLoss
        }]
    );
    // Unclassified: no class, but a destroy needs approval.
    let mut v = verdict("mystery.x", Action::Delete, Impact::DataLoss);
    v.classified = false;
    assert_eq!(why(&v, &protection), [Because::Unclassified]);
    let mut v = verdict("mystery.x", Action::Update, Impact::DataLoss);
    v.classified = false;
    assert!(why(&v, &protection).is_empty());
    // Holding data without destroying it: nothing.
    let mut v = verdict("fakecloud_volume.d", Action::Update, Impact::InPlace);
    v.holds_data = true;
    assert!(why(&v, &protection).is_empty());
    // Protected: any destroy.
    let v = verdict(
        "fakecloud_network.n",
        Action::ReplaceCreateFirst,
        Impact::Replace,
    );
    assert_eq!(
        why(&v, &protection),
        [Because::Protected {
            by: ProtectedBy::Config {
                pattern: "fakecloud_network.*".into()
            }
        }]
    );
    protection.config_patterns.clear();
    assert!(why(&v, &protection).is_empty());
    // Without approve_destroy_of_data, holding data alone is no reason.
    let policy = Policy {
        approve_destroy_of_data: false,
        approve: Default::default(),
        ..Policy::default()
    };
    let v = data_volume("fakecloud_volume.d", Action::Delete);
    assert!(needs_approval(&v, &policy, &protection).is_empty());
}

fn material_with(attrs: Vec<DecidingAttr>) -> ChangeMaterial {
    ChangeMaterial {
        address: "a.b".into(),
        deposed: None,
        type_name: "a".into(),
        action: "update".into(),
        action_reason: None,
        impact: Impact::Interrupt,
        attributes: attrs,
        object: None,
        context: None,
    }
}

fn deciding(path: &str, before: serde_json::Value, binding: Option<&str>) -> DecidingAttr {
    DecidingAttr {
        path: path.into(),
        before,
        after: json!({"kind": "known", "value": 2}),
        binding: binding.map(str::to_string),
    }
}

#[test]
fn differences_name_every_field_that_changed() {
    let base = material_with(vec![]);
    assert_eq!(
        differences(&base, &base),
        ["the recorded digest differs from the change (the approval was edited)"]
    );
    let mut now = base.clone();
    now.action = "delete".into();
    now.impact = Impact::DataLoss;
    now.type_name = "b".into();
    now.object = Some("id=vol-1".into());
    now.context = Some("sha256:up".into());
    now.action_reason = Some("delete_because_no_resource_config".into());
    assert_eq!(
        differences(&base, &now),
        [
            "action: approved update, now delete",
            "impact: approved interrupt, now data-loss",
            "type: approved a, now b",
            "object destroyed: approved (not identified), now id=vol-1",
            "context: approved under none, now sha256:up (ward stack: the upstream outputs this root reads changed)",
            "action reason: approved none, now delete_because_no_resource_config",
        ]
    );
    assert_eq!(
        differences(&now, &base),
        [
            "action: approved delete, now update",
            "impact: approved data-loss, now interrupt",
            "type: approved b, now a",
            "object destroyed: approved id=vol-1, now (not identified)",
            "context: approved under sha256:up, now none (ward stack: the upstream outputs this root reads changed)",
            "action reason: approved delete_because_no_resource_config, now none",
        ]
    );
}

#[test]
fn differences_name_every_attribute_that_changed() {
    let known1 = json!({"kind": "known", "value": 1});
    let secret = json!({"kind": "sensitive"});
    let approved = material_with(vec![
        deciding("same", known1.clone(), None),
        deciding("changed", known1.clone(), None),
        deciding("gone", known1.clone(), None),
        deciding("keyless", secret.clone(), None),
        deciding("keyed", secret.clone(), Some("hmac-sha256:aa")),
        deciding("rebound", secret.clone(), Some("hmac-sha256:aa")),
        deciding("long", known1.clone(), Some("hmac-sha256:aa")),
    ]);
    let now = material_with(vec![
        deciding("same", known1.clone(), None),
        deciding("changed", json!({"kind": "known", "value": 3}), None),
        deciding("keyless", secret.clone(), Some("hmac-sha256:bb")),
        deciding("keyed", secret.clone(), None),
        deciding("rebound", secret.clone(), Some("hmac-sha256:bb")),
        deciding("long", known1.clone(), Some("hmac-sha256:bb")),
        deciding("new", json!({"kind": "absent"}), None),
    ]);
    let mut got = differences(&approved, &now);
    got.sort();
    let mut want = vec![
        "approved changed: 1 → 2; now changed: 3 → 2".to_string(),
        "approved gone: 1 → 2; now not changing".into(),
        "approved keyless: (sensitive) → 2 without WARD_APPROVAL_KEY, so the approval is not bound to its sensitive value; approve again".into(),
        "approved keyed: (sensitive) → 2 bound to its sensitive value with WARD_APPROVAL_KEY, which is not set now: set it to check the approval".into(),
        "approved rebound: (sensitive) → 2 (sensitive value changed)".into(),
        "approved long: 1 → 2 (value beyond the shown length changed)".into(),
        "not approved: new: null → 2".into(),
    ];
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn an_approval_expiring_at_the_clocks_second_has_expired() {
    let v = data_volume("fakecloud_volume.d", Action::Delete);
    let a = assessment(vec![v.clone()]);
    let status = |expires: &str| {
        let mut g = Fixture::new();
        g.approvals.approvals.push(approval_for(&v, Some(expires)));
        run(&g, &a).required[0].approval.clone()
    };
    assert_eq!(
        status("2026-11-29T18:00:00Z"),
        ApprovalStatus::Expired {
            by: "alice".into(),
            expired_at: "2026-11-29T18:00:00Z".into()
        }
    );
    assert!(status("2026-11-29T18:00:01Z").is_approved());
    assert_eq!(status("2026-11-29T17:59:59Z").name(), "expired");
    assert_eq!(status("soon").name(), "refused");
}

#[test]
fn an_approval_of_another_change_at_the_address_is_stale() {
    let v = data_volume("fakecloud_volume.d", Action::Delete);
    let mut other = v.clone();
    other.action = Action::ReplaceDeleteFirst;
    let mut g = Fixture::new();
    g.approvals.approvals.push(approval_for(&other, None));
    let r = run(&g, &assessment(vec![v]));
    match &r.required[0].approval {
        ApprovalStatus::Stale { differences, .. } => {
            assert_eq!(differences, &["action: approved delete,create, now delete"])
        }
        s => panic!("{s:?}"),
    }
    assert!(r.unused_approvals.is_empty());
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
}

#[test]
fn budgets_are_exceeded_only_past_their_limit() {
    let mut g = Fixture::new();
    g.policy.approve.clear();
    g.policy.approve_destroy_of_data = false;
    g.policy.budgets.all.max_deletes = Some(2);
    g.policy.budgets.all.max_replaces = Some(1);
    let per_type = ward_gate::policy::Budget {
        max_deletes: Some(0),
        ..Default::default()
    };
    g.policy
        .budgets
        .per_type
        .insert("fakecloud_network".into(), per_type);
    let mut dep = verdict("fakecloud_volume.b", Action::Delete, Impact::Replace);
    dep.deposed = Some("00aa".into());
    let mut data = verdict("data.fakecloud_volume.r", Action::Delete, Impact::None);
    data.mode = Mode::Data;
    let a = assessment(vec![
        verdict("fakecloud_volume.c", Action::Delete, Impact::Replace),
        dep,
        data,
        verdict(
            "fakecloud_instance.r",
            Action::ReplaceCreateFirst,
            Impact::Replace,
        ),
        verdict("fakecloud_instance.u", Action::Update, Impact::InPlace),
    ]);
    let r = run(&g, &a);
    type Row<'a> = (Option<&'a str>, &'a str, u64, u64, Vec<&'a str>, bool);
    let got: Vec<Row> = r
        .budgets
        .iter()
        .map(|b| {
            (
                b.type_name.as_deref(),
                b.kind,
                b.limit,
                b.count,
                b.addresses.iter().map(String::as_str).collect(),
                b.exceeded,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (None, "replaces", 1, 1, vec!["fakecloud_instance.r"], false),
            (
                None,
                "deletes",
                2,
                2,
                vec!["fakecloud_volume.b (deposed 00aa)", "fakecloud_volume.c"],
                false
            ),
            (Some("fakecloud_network"), "deletes", 0, 0, vec![], false),
        ]
    );
    assert_eq!(r.outcome, Outcome::Pass);
    let mut over = a.clone();
    over.verdicts.push(verdict(
        "fakecloud_network.n",
        Action::Delete,
        Impact::Replace,
    ));
    let r = run(&g, &over);
    assert_eq!(
        r.budgets.iter().map(|b| b.exceeded).collect::<Vec<_>>(),
        [false, true, true]
    );
    assert_eq!(r.budgets[2].addresses, ["fakecloud_network.n"]);
    assert_eq!(r.outcome, Outcome::BudgetExceeded);
}

#[test]
fn the_most_severe_outcome_wins() {
    let g = Fixture::new();
    let blocked = data_volume("fakecloud_volume.d", Action::Delete);
    let mut a = assessment(vec![blocked]);
    assert_eq!(run(&g, &a).outcome, Outcome::ApprovalRequired);
    a.coverage = Coverage {
        blocking: vec!["mystery".into()],
        unclassified: BTreeMap::from([("mystery".into(), vec!["resource_changes".into()])]),
        ..Coverage::default()
    };
    let r = run(&g, &a);
    assert_eq!(r.outcome, Outcome::CoverageFailure);
    assert_eq!(r.coverage_blocking, ["mystery"]);
    assert!(!r.coverage_relaxed);
    a.coverage.relaxed = true;
    let r = run(&g, &a);
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(r.coverage_relaxed);
    a.coverage.relaxed = false;
    a.plan.errored = true;
    let r = run(&g, &a);
    assert_eq!(r.outcome, Outcome::Error);
    assert_eq!(r.errors.len(), 1);
    assert!(r.errors[0].starts_with("the plan is errored"));
    // Nothing to approve, nothing blocking: pass.
    let a = assessment(vec![verdict(
        "fakecloud_volume.d",
        Action::Create,
        Impact::Free,
    )]);
    let r = run(&g, &a);
    assert_eq!(r.outcome, Outcome::Pass);
    assert!(r.required.is_empty());
    assert!(r.errors.is_empty() && r.warnings.is_empty(), "{r:?}");
}

#[test]
fn a_pending_guard_blocks_until_it_has_run() {
    let mut g = Fixture::new();
    g.policy = ward_config::Config::parse(
        "guard \"idle\" {\n types = [\"fakecloud_instance\"]\n command = [\"true\"]\n}\n",
        "ward.hcl",
        std::path::Path::new(""),
    )
    .unwrap()
    .policy;
    let a = assessment(vec![
        verdict("fakecloud_instance.a", Action::Delete, Impact::Replace),
        verdict("fakecloud_volume.v", Action::Delete, Impact::Replace),
    ]);
    let r = run(&g, &a);
    assert_eq!(r.guards_pending.len(), 1);
    assert_eq!(r.guards_pending[0].address, "fakecloud_instance.a");
    assert_eq!(r.outcome, Outcome::GuardRefused);
    let mut r = r;
    ward_gate::run_guards(&mut r, &a, &g.policy.guards, &Default::default(), &|_| None);
    assert!(r.guards_pending.is_empty());
    assert_eq!(r.guards.len(), 1);
    assert_eq!(r.outcome, Outcome::Pass);
}

#[test]
fn an_unused_approval_says_why() {
    let mut g = Fixture::new();
    g.key = Some(b"k".to_vec());
    let gone = data_volume("fakecloud_volume.gone", Action::Delete);
    let kept = verdict("fakecloud_volume.kept", Action::NoOp, Impact::None);
    let cheap = verdict("fakecloud_volume.cheap", Action::Update, Impact::InPlace);
    for v in [&gone, &kept, &cheap] {
        let mut a = approval_for(v, None);
        a.sign(b"k");
        g.approvals.approvals.push(a);
    }
    let mut forged = approval_for(&cheap, None);
    forged.by = "mallory".into();
    forged.signature = Some("hmac-sha256:00".into());
    g.approvals.approvals.push(forged);
    let r = run(&g, &assessment(vec![kept, cheap]));
    let why: Vec<(&str, &str, &str)> = r
        .unused_approvals
        .iter()
        .map(|u| (u.address.as_str(), u.by.as_str(), u.why.as_str()))
        .collect();
    assert_eq!(
        why,
        [
            ("fakecloud_volume.gone", "alice", "no change at this address in this plan"),
            ("fakecloud_volume.kept", "alice", "this plan does not change this address"),
            (
                "fakecloud_volume.cheap",
                "alice",
                "the change here (update, in-place) does not need approval under the policy"
            ),
            (
                "fakecloud_volume.cheap",
                "mallory",
                "the change here (update, in-place) does not need approval under the policy; its signature does not match (edited after signing?)"
            ),
        ]
    );
    assert_eq!(r.outcome, Outcome::Pass);
}

#[test]
fn the_warnings_say_what_was_not_checked() {
    let mut g = Fixture::new();
    g.protection.root_read = None;
    g.protection.removed_from_code = vec![CodeProtection {
        address: "fakecloud_volume.d".into(),
        file: "main.tf".into(),
    }];
    let mut v = data_volume("fakecloud_volume.d", Action::Update);
    let mut hidden = attr(
        "secret",
        Shown::Sensitive,
        Shown::Sensitive,
        Impact::DataLoss,
        false,
    );
    hidden.change.hidden = Some(HiddenDigest::new([7; 32]));
    v.attributes = vec![
        hidden,
        attr(
            "size",
            Shown::Known(json!(1)),
            Shown::Known(json!(2)),
            Impact::DataLoss,
            false,
        ),
    ];
    let mut signed = approval_for(&v, None);
    signed.sign(b"k");
    g.approvals.approvals.push(signed);
    let mut a = assessment(vec![v]);
    a.plan.complete = Some(false);
    let r = run(&g, &a);
    assert_eq!(
        r.warnings,
        [
            "the plan is incomplete (deferred changes): another plan/apply round will follow and needs its own gate".to_string(),
            "fakecloud_volume.d: deciding attribute(s) secret hide their values (sensitive or shortened), so a change of value alone would not void an approval: set WARD_APPROVAL_KEY to bind approvals to sensitive values".into(),
            "approval signatures were not checked: WARD_APPROVAL_KEY is not set".into(),
            "prevent_destroy for fakecloud_volume.d was removed from the code (last seen in main.tf); ward still protects it. To drop the protection, remove it from the protection record.".into(),
            "no Terraform root was read (no .tf files here; pass --root DIR): prevent_destroy in code was not checked".into(),
        ]
    );
    assert!(r.required[0].approval.is_approved());
    // With the key, no hidden-value or unchecked-signature warning.
    g.key = Some(b"k".to_vec());
    a.plan.complete = Some(true);
    g.protection.root_read = Some(".".into());
    g.protection.removed_from_code.clear();
    let r = run(&g, &a);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // Signed approvals required and no key: the signature is not checked, so it is refused,
    // and the "not checked" warning is not given (the refusal says it).
    g.key = None;
    g.policy.require_signed_approvals = true;
    let r = run(&g, &a);
    assert_eq!(r.required[0].approval.name(), "refused");
    assert!(!r
        .warnings
        .iter()
        .any(|w| w.starts_with("approval signatures were not checked")));
}

#[test]
fn guards_run_only_when_nothing_else_blocks() {
    let mut g = Fixture::new();
    g.policy = ward_gate::testkit::policy_of(
        "policy {\n budget { max_deletes = 3 }\n}\nguard \"idle\" {\n types = [\"fakecloud_instance\"]\n command = [\"sh\", \"-c\", \"test \\\"$WARD_ADDRESS\\\" = fakecloud_instance.b\"]\n}\nguard \"other\" {\n types = [\"fakecloud_network\"]\n command = [\"false\"]\n}\n",
    );
    let mut b = verdict("fakecloud_instance.b", Action::Delete, Impact::Replace);
    b.deposed = Some("00ab".into());
    let vol = data_volume("fakecloud_volume.d", Action::Delete);
    let a = assessment(vec![
        verdict("fakecloud_instance.a", Action::Update, Impact::InPlace),
        b,
        vol.clone(),
    ]);
    // Blocked by a missing approval: no guard runs, it stays pending.
    let r = g.gate(&a);
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(r.guards.is_empty());
    assert_eq!(r.guards_pending.len(), 1);
    // Approved: the guard runs, for the deposed object it names, and passes.
    g.approvals.approvals.push(approval_for(&vol, None));
    let r = g.gate(&a);
    assert!(r.guards_pending.is_empty());
    let ran: Vec<(&str, &str, &str)> = r
        .guards
        .iter()
        .map(|x| (x.guard.as_str(), x.address.as_str(), x.status.name()))
        .collect();
    assert_eq!(ran, [("idle", "fakecloud_instance.b", "passed")]);
    assert_eq!(r.outcome, Outcome::Pass);
    // Coverage, unless relaxed; a budget; an errored plan: no guard runs.
    let mut unclassified = a.clone();
    unclassified.coverage.blocking = vec!["mystery".into()];
    let r = g.gate(&unclassified);
    assert!(r.guards.is_empty());
    assert_eq!(r.outcome, Outcome::CoverageFailure);
    unclassified.coverage.relaxed = true;
    let r = g.gate(&unclassified);
    assert_eq!(r.guards.len(), 1);
    assert_eq!(r.outcome, Outcome::Pass);
    let mut over = a.clone();
    for e in ["fakecloud_volume.e", "fakecloud_volume.f"] {
        over.verdicts
            .push(verdict(e, Action::Delete, Impact::Replace));
    }
    let r = g.gate(&over);
    assert!(r.guards.is_empty());
    assert_eq!(r.outcome, Outcome::BudgetExceeded);
    let mut errored = a.clone();
    errored.plan.errored = true;
    let r = g.gate(&errored);
    assert!(r.guards.is_empty());
    assert_eq!(r.outcome, Outcome::Error);
    // A guard that fails blocks.
    let mut net = a.clone();
    net.verdicts.push(verdict(
        "fakecloud_network.n",
        Action::Delete,
        Impact::Replace,
    ));
    let r = g.gate(&net);
    let names: Vec<(&str, &str)> = r
        .guards
        .iter()
        .map(|x| (x.guard.as_str(), x.status.name()))
        .collect();
    assert_eq!(names, [("idle", "passed"), ("other", "failed")]);
    assert_eq!(r.outcome, Outcome::GuardRefused);
}

#[test]
fn outcomes_and_reasons_in_words() {
    use ward_model::Exit;
    let all = [
        (
            Outcome::Error,
            Exit::Usage,
            "error: this plan cannot be gated",
        ),
        (
            Outcome::CoverageFailure,
            Exit::Coverage,
            "blocked: coverage failure (unclassified resource types)",
        ),
        (
            Outcome::BudgetExceeded,
            Exit::BudgetExceeded,
            "blocked: budget exceeded",
        ),
        (
            Outcome::ApprovalRequired,
            Exit::ApprovalRequired,
            "blocked: approval required",
        ),
        (
            Outcome::GuardRefused,
            Exit::GuardRefused,
            "blocked: a liveness guard refused",
        ),
        (Outcome::Pass, Exit::Pass, "pass"),
    ];
    for (o, exit, words) in all {
        assert_eq!(o.exit(), exit, "{o:?}");
        assert_eq!(o.describe(), words);
    }
    let said: Vec<String> = [
        Because::Class {
            impact: Impact::DataLoss,
        },
        Because::DestroysData,
        Because::Protected {
            by: ProtectedBy::Config {
                pattern: "a.*".into(),
            },
        },
        Because::Protected {
            by: ProtectedBy::PreventDestroy {
                file: "main.tf".into(),
            },
        },
        Because::Protected {
            by: ProtectedBy::Record {
                file: "old.tf".into(),
            },
        },
        Because::Unclassified,
    ]
    .iter()
    .map(Because::describe)
    .collect();
    assert_eq!(
        said,
        [
            "impact class data-loss needs approval",
            "destroys an object that holds data",
            "protected by `a.*` in ward.hcl",
            "protected by prevent_destroy in main.tf",
            "protected: prevent_destroy was removed from old.tf, ward still protects it",
            "destroys an object of an unclassified type",
        ]
    );
}

#[test]
fn any_approval_that_holds_approves_and_the_newest_refusal_is_reported() {
    let v = data_volume("fakecloud_volume.d", Action::Delete);
    let a = assessment(vec![v.clone()]);
    let expired = approval_for(&v, Some("2026-11-29T17:30:00Z"));
    let mut edited = approval_for(&v, None);
    edited.change.impact = Impact::Replace;
    edited.by = "mallory".into();
    let mut g = Fixture::new();
    g.approvals.approvals = vec![expired.clone(), approval_for(&v, None), edited.clone()];
    let r = run(&g, &a);
    assert!(r.required[0].approval.is_approved(), "{:?}", r.required[0]);
    assert!(r.unused_approvals.is_empty(), "{:?}", r.unused_approvals);
    // Only refusals: the newest (last in the file) is the one reported, and both are used.
    g.approvals.approvals = vec![expired, edited];
    let r = run(&g, &a);
    match &r.required[0].approval {
        ApprovalStatus::Refused { by, why } => {
            assert_eq!(by, "mallory");
            assert!(why.contains("edited by hand"), "{why}");
        }
        s => panic!("{s:?}"),
    }
    assert!(r.unused_approvals.is_empty());
}
