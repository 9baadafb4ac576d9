//! Approvals from pull-request reviews (`ward_gate::review`) against a fake forge on the
//! loopback: a review approves exactly the digests ward's comment listed at the reviewed commit;
//! a push after the review, another digest, the author's own review, an expired review, a later
//! request for changes, too few team members, an unknown team, an outage and a rate limit do
//! not approve.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::time::Duration;
use ward_forge::{Client, Kind, Options};
use ward_gate::review::{self, ReviewSource, Settle, MARKER};
use ward_gate::testkit::{assessment, policy_of, verdict, Fixture};
use ward_gate::{run_guards, ApprovalStatus, GateReport, Outcome};
use ward_model::{Action, Impact};
use ward_rig::forge::{unreachable_base, FakeForge};

const PR: &str = "/repos/acme/infra/pulls/7";
const REVIEWS: &str = "/repos/acme/infra/pulls/7/reviews?per_page=100";
const COMMENTS: &str = "/repos/acme/infra/issues/7/comments?per_page=100";
const BOT: &str = "github-actions[bot]";

/// The forge with pull request 7 at `head` by `dev`.
fn forge(head: &str) -> FakeForge {
    let f = FakeForge::start().unwrap();
    f.json(
        PR,
        &json!({"head": {"sha": head}, "user": {"login": "dev"}}),
    );
    f.json(REVIEWS, &json!([]));
    f.json(COMMENTS, &json!([]));
    f
}

fn source(base: &str) -> ReviewSource {
    ReviewSource {
        client: Client::new(
            Kind::GitHub,
            Options {
                base: base.into(),
                token: Some("t0ken".into()),
                timeout: Duration::from_secs(5),
            },
        ),
        source: "github:acme/infra#7".parse().unwrap(),
    }
}

fn review(by: &str, state: &str, commit: &str, at: &str) -> serde_json::Value {
    json!({"user": {"login": by}, "state": state, "commit_id": commit, "submitted_at": at})
}

fn comment(by: &str, listings: &[(&str, &str, &str)]) -> serde_json::Value {
    let mut body = format!("<!-- ward-gate:default -->\n## ward gate\n{MARKER}\n");
    for (commit, at, digest) in listings {
        body.push_str(&format!("listed {commit} {at} {digest}\n"));
    }
    body.push_str("-->\n");
    json!({"user": {"login": by}, "body": body, "updated_at": "2026-11-29T12:00:00Z"})
}

/// The gate's report on one data-loss delete at `fakecloud_volume.db`, with `reviewers`.
fn report(reviewers: &str) -> (Fixture, ward_classify::Assessment, GateReport) {
    let mut f = Fixture::new();
    f.policy = policy_of(reviewers);
    let a = assessment(vec![verdict(
        "fakecloud_volume.db",
        Action::Delete,
        Impact::DataLoss,
    )]);
    let r = f.gate(&a);
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    (f, a, r)
}

/// Settles the report from the forge at `base`, for root `live/prod/db`.
fn settle(f: &Fixture, a: &ward_classify::Assessment, mut r: GateReport, base: &str) -> GateReport {
    let src = source(base);
    let s = Settle::new(&src, Some("live/prod/db".into()));
    s.apply(&mut r, &f.policy);
    run_guards(
        &mut r,
        a,
        &f.policy.guards,
        &Default::default(),
        &|_: &str| None,
    );
    r
}

fn status(r: &GateReport) -> &ApprovalStatus {
    &r.required[0].approval
}

fn awaiting(r: &GateReport) -> String {
    match status(r) {
        ApprovalStatus::Awaiting { needs, not_counted } => {
            format!("{}\n{}", needs.join("\n"), not_counted.join("\n"))
        }
        other => panic!("not awaiting: {other:?}"),
    }
}

const AUTHOR: &str = "reviewers {\n  comment_author = \"github-actions[bot]\"\n}\n";

#[test]
fn a_review_at_the_head_after_ward_listed_the_digest_approves_it() {
    let (f, a, r) = report(AUTHOR);
    let d = r.required[0].digest.clone();
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", &d)])]),
    );
    fg.json(
        REVIEWS,
        &json!([review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z")]),
    );
    let r = settle(&f, &a, r, &fg.base());
    assert_eq!(r.outcome, Outcome::Pass, "{:?}", status(&r));
    match status(&r) {
        ApprovalStatus::Approved {
            by,
            reason,
            approved_at,
            ..
        } => {
            assert_eq!(by, "alice");
            assert!(reason.contains("github:acme/infra#7 at c2"), "{reason}");
            assert_eq!(approved_at, "2026-11-29T11:00:00Z");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_push_after_the_review_needs_a_new_review() {
    let (f, a, r) = report(AUTHOR);
    let d = r.required[0].digest.clone();
    let fg = forge("c3");
    fg.json(
        COMMENTS,
        &json!([comment(
            BOT,
            &[
                ("c2", "2026-11-29T10:00:00Z", &d),
                ("c3", "2026-11-29T12:00:00Z", &d)
            ]
        )]),
    );
    fg.json(
        REVIEWS,
        &json!([review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z")]),
    );
    let r = settle(&f, &a, r, &fg.base());
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    let why = awaiting(&r);
    assert!(
        why.contains("alice: approved at c2, the head is now c3 (pushed since"),
        "{why}"
    );
}

#[test]
fn a_review_approves_only_the_digests_listed_before_it() {
    let (f, a, r) = report(AUTHOR);
    let d = r.required[0].digest.clone();
    // The reviewer saw another digest at this commit (a plan since re-made against drifted
    // state); the current digest was listed only after the review.
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment(
            BOT,
            &[
                ("c2", "2026-11-29T10:00:00Z", "aaaa"),
                ("c2", "2026-11-29T12:00:00Z", &d)
            ]
        )]),
    );
    fg.json(
        REVIEWS,
        &json!([review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z")]),
    );
    let r = settle(&f, &a, r, &fg.base());
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    let why = awaiting(&r);
    assert!(
        why.contains("alice: the review approved other digests"),
        "{why}"
    );
}

#[test]
fn a_listing_in_someone_elses_comment_does_not_count() {
    let (f, a, r) = report(AUTHOR);
    let d = r.required[0].digest.clone();
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment("mallory", &[("c2", "2026-11-29T10:00:00Z", &d)])]),
    );
    fg.json(
        REVIEWS,
        &json!([review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z")]),
    );
    let r = settle(&f, &a, r, &fg.base());
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(awaiting(&r).contains("no ward comment listed digests at c2"));
}

#[test]
fn the_authors_own_review_does_not_count_unless_the_policy_allows_it() {
    for (allow, want) in [(false, Outcome::ApprovalRequired), (true, Outcome::Pass)] {
        let (f, a, r) = report(&format!(
            "reviewers {{\n  comment_author = \"{BOT}\"\n  allow_author = {allow}\n}}\n"
        ));
        let d = r.required[0].digest.clone();
        let fg = forge("c2");
        fg.json(
            COMMENTS,
            &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", &d)])]),
        );
        fg.json(
            REVIEWS,
            &json!([review("dev", "APPROVED", "c2", "2026-11-29T11:00:00Z")]),
        );
        let r = settle(&f, &a, r, &fg.base());
        assert_eq!(r.outcome, want, "allow_author = {allow}");
        if !allow {
            assert!(awaiting(&r).contains("dev: the pull request's author"));
        }
    }
}

#[test]
fn an_expired_review_or_a_later_request_for_changes_does_not_count() {
    let (f, a, r) = report(&format!(
        "policy {{\n  approval_expiry = \"1h\"\n}}\n{AUTHOR}"
    ));
    let d = r.required[0].digest.clone();
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", &d)])]),
    );
    fg.json(
        REVIEWS,
        &json!([review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z")]),
    );
    let expired = settle(&f, &a, r.clone(), &fg.base());
    assert!(awaiting(&expired).contains("alice: the review of 2026-11-29T11:00:00Z has expired"));

    let (f, a, r) = report(AUTHOR);
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", &d)])]),
    );
    fg.json(
        REVIEWS,
        &json!([
            review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z"),
            review("alice", "COMMENTED", "c2", "2026-11-29T11:10:00Z"),
            review("alice", "CHANGES_REQUESTED", "c2", "2026-11-29T11:30:00Z")
        ]),
    );
    let r = settle(&f, &a, r, &fg.base());
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
}

const DBA: &str = "reviewers {\n  comment_author = \"github-actions[bot]\"\n  require \"dba\" {\n    impact = [\"data-loss\"]\n    root = [\"live/prod/*\"]\n    from = [\"@acme/dba\"]\n    count = 2\n  }\n}\n";

/// The forge with team acme/dba (alice, bob, over two pages) and reviews by `approvers`.
fn dba_forge(d: &str, approvers: &[&str]) -> FakeForge {
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", d)])]),
    );
    let reviews: Vec<_> = approvers
        .iter()
        .map(|a| review(a, "APPROVED", "c2", "2026-11-29T11:00:00Z"))
        .collect();
    fg.json(REVIEWS, &json!(reviews));
    let page2 = format!(
        "{}/orgs/acme/teams/dba/members?per_page=100&page=2",
        fg.base()
    );
    fg.route(
        "/orgs/acme/teams/dba/members?per_page=100",
        200,
        &[("Link", &format!("<{page2}>; rel=\"next\""))],
        &json!([{"login": "alice"}]).to_string(),
    );
    fg.json(
        "/orgs/acme/teams/dba/members?per_page=100&page=2",
        &json!([{"login": "bob"}]),
    );
    fg
}

#[test]
fn two_of_a_team_read_across_pages_approve_a_data_loss_in_prod() {
    let (f, a, r) = report(DBA);
    let d = r.required[0].digest.clone();
    let fg = dba_forge(&d, &["alice", "carol"]);
    let one = settle(&f, &a, r.clone(), &fg.base());
    assert_eq!(one.outcome, Outcome::ApprovalRequired);
    let why = awaiting(&one);
    assert!(
        why.contains("`dba` needs 2 approving review(s) at c2 from @acme/dba (have 1: alice)"),
        "{why}"
    );
    assert!(
        why.contains("carol: not among those a requirement names"),
        "{why}"
    );

    let fg = dba_forge(&d, &["alice", "bob"]);
    let two = settle(&f, &a, r, &fg.base());
    assert_eq!(two.outcome, Outcome::Pass, "{:?}", status(&two));
    assert!(matches!(status(&two), ApprovalStatus::Approved { by, .. } if by == "alice, bob"));
}

#[test]
fn a_requirement_for_another_root_does_not_apply() {
    let (f, a, r) = report(DBA);
    let d = r.required[0].digest.clone();
    let fg = dba_forge(&d, &["carol"]);
    let src = source(&fg.base());
    let mut r = r;
    Settle::new(&src, Some("live/dev/db".into())).apply(&mut r, &f.policy);
    run_guards(&mut r, &a, &[], &Default::default(), &|_: &str| None);
    assert_eq!(r.outcome, Outcome::Pass, "{:?}", status(&r));
}

#[test]
fn an_unknown_team_an_outage_and_a_rate_limit_refuse_with_the_reason() {
    let (f, a, r) = report(DBA);
    let d = r.required[0].digest.clone();
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", &d)])]),
    );
    fg.json(
        REVIEWS,
        &json!([review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z")]),
    );
    let unknown = settle(&f, &a, r.clone(), &fg.base());
    assert_eq!(unknown.outcome, Outcome::ApprovalRequired);
    assert!(
        matches!(status(&unknown), ApprovalStatus::Refused { why, .. } if why.contains("team @acme/dba was not found")),
        "{:?}",
        status(&unknown)
    );

    let down = settle(&f, &a, r.clone(), &unreachable_base().unwrap());
    assert_eq!(down.outcome, Outcome::ApprovalRequired);
    assert!(
        matches!(status(&down), ApprovalStatus::Refused { why, .. } if why.contains("could not be reached") && !why.contains("t0ken")),
        "{:?}",
        status(&down)
    );

    let limited = forge("c2");
    limited.route(PR, 429, &[], "{}");
    let r = settle(&f, &a, r, &limited.base());
    assert_eq!(r.outcome, Outcome::ApprovalRequired);
    assert!(
        matches!(status(&r), ApprovalStatus::Refused { why, .. } if why.contains("rate limit"))
    );
}

#[test]
fn nothing_is_read_when_nothing_needs_an_approval() {
    let f = Fixture::new();
    let a = assessment(vec![verdict(
        "fakecloud_volume.db",
        Action::Update,
        Impact::None,
    )]);
    let mut r = f.gate(&a);
    let fg = forge("c2");
    let src = source(&fg.base());
    let s = Settle::new(&src, None);
    s.apply(&mut r, &f.policy);
    assert!(fg.requests().is_empty());
    assert!(s.reviews().is_none());
}

#[test]
fn the_marker_carries_earlier_listings_and_adds_the_head_once() {
    let (f, a, r) = report(AUTHOR);
    let d = r.required[0].digest.clone();
    let fg = forge("c3");
    fg.json(
        COMMENTS,
        &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", "abcd")])]),
    );
    let src = source(&fg.base());
    let s = Settle::new(&src, None);
    let mut r = r;
    s.apply(&mut r, &f.policy);
    run_guards(&mut r, &a, &[], &Default::default(), &|_: &str| None);
    let reviews = s.reviews().unwrap().as_ref().unwrap();
    let m = review::marker(reviews, &f.policy.reviewers, &r);
    assert_eq!(
        m,
        format!(
            "{MARKER}\nlisted c2 2026-11-29T10:00:00Z abcd\nlisted c3 {} {d}\n-->\n",
            r.now
        )
    );
    assert_eq!(review::parse(&m).len(), 2);
    // Posted, and read back: the same listing at the head is not added again.
    fg.json(
        COMMENTS,
        &json!([{"user": {"login": BOT}, "body": m, "updated_at": "2026-11-29T12:00:00Z"}]),
    );
    let s2 = Settle::new(&src, None);
    let (_, _, mut r2) = report(AUTHOR);
    s2.apply(&mut r2, &f.policy);
    let again = review::marker(
        s2.reviews().unwrap().as_ref().unwrap(),
        &f.policy.reviewers,
        &r2,
    );
    assert_eq!(again, m);
}

/// `ward verify`'s re-check ([`ward_gate::verify_reviews`]): the gate passes on a review, its
/// binding is checked again at apply time; a push, a withdrawn review, an expiry since the gate
/// and an outage are each a difference with the reason.
#[test]
fn verify_re_checks_the_bound_reviews_at_apply_time() {
    use ward_gate::verify_reviews::{binding, check};
    let (f, a, r) = report(AUTHOR);
    let d = r.required[0].digest.clone();
    let fg = forge("c2");
    fg.json(
        COMMENTS,
        &json!([comment(BOT, &[("c2", "2026-11-29T10:00:00Z", &d)])]),
    );
    let approved = json!([review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z")]);
    fg.json(REVIEWS, &approved);
    let src = source(&fg.base());
    let s = Settle::new(&src, Some("live/prod/db".into()));
    let mut gated = r.clone();
    s.apply(&mut gated, &f.policy);
    run_guards(
        &mut gated,
        &a,
        &f.policy.guards,
        &Default::default(),
        &|_: &str| None,
    );
    assert_eq!(gated.outcome, Outcome::Pass, "{:?}", status(&gated));
    let b = binding(&s, &gated, &f.policy).expect("a binding");
    assert_eq!((b.head.as_str(), b.changes.len()), ("c2", 1));
    assert_eq!(b.changes[0].approved_by, "alice");
    assert_eq!(b.changes[0].digest, d);
    let now = gated.now.clone();

    // The history row keeps the review: the pull request and the commit it approved.
    let audit = ward_gate::audit::Audit {
        history: ward_store::Location::Sqlite("unused.db".into()),
        source: ward_store::AuditSource::Gate,
        root: None,
        site: None,
        run: None,
    };
    let row = ward_gate::audit::gate_record(&gated, ward_model::Exit::Pass, &audit, "db", Some(&b));
    let c = &row.changes[0];
    assert_eq!(c.by.as_deref(), Some("alice"));
    let rv = c.review.as_ref().expect("the review in the history row");
    assert_eq!(
        (
            rv.source.as_str(),
            rv.commit.as_str(),
            rv.approved_at.as_str()
        ),
        ("github:acme/infra#7", "c2", "2026-11-29T11:00:00Z")
    );
    let json = serde_json::to_value(c).unwrap();
    assert_eq!(json["review"]["commit"], "c2", "{json}");
    // A gate without reviews, or with another digest bound, records none.
    let row = ward_gate::audit::gate_record(&gated, ward_model::Exit::Pass, &audit, "db", None);
    assert!(row.changes[0].review.is_none());
    assert!(serde_json::to_value(&row.changes[0])
        .unwrap()
        .get("review")
        .is_none());
    let mut other = b.clone();
    other.changes[0].digest = "sha256:other".into();
    let row =
        ward_gate::audit::gate_record(&gated, ward_model::Exit::Pass, &audit, "db", Some(&other));
    assert!(row.changes[0].review.is_none());

    // Nothing changed: the approvals hold.
    assert_eq!(check(&b, &src, &now), Vec::<String>::new());

    // A push after the gate.
    fg.json(
        PR,
        &json!({"head": {"sha": "c3"}, "user": {"login": "dev"}}),
    );
    let diffs = check(&b, &src, &now);
    assert!(
        diffs.len() == 1
            && diffs[0].contains("pushed to since the gate (gated at c2, the head is now c3)"),
        "{diffs:?}"
    );
    fg.json(
        PR,
        &json!({"head": {"sha": "c2"}, "user": {"login": "dev"}}),
    );

    // The review withdrawn (dismissed), or changes requested since.
    for later in ["DISMISSED", "CHANGES_REQUESTED"] {
        fg.json(
            REVIEWS,
            &json!([
                review("alice", "APPROVED", "c2", "2026-11-29T11:00:00Z"),
                review("alice", later, "c2", "2026-11-29T11:30:00Z")
            ]),
        );
        let diffs = check(&b, &src, &now);
        assert!(
            diffs.len() == 1
                && diffs[0].starts_with("fakecloud_volume.db: its review approval no longer holds: `any reviewer` needs 1"),
            "{later}: {diffs:?}"
        );
    }
    fg.json(REVIEWS, &approved);

    // Expired between the gate and the apply (the gate's expiry is in the binding).
    let mut b1 = b.clone();
    b1.expiry_seconds = Some(3600);
    assert!(check(&b1, &src, "2026-11-29T11:30:00Z").is_empty());
    let diffs = check(&b1, &src, "2026-11-29T12:30:00Z");
    assert!(
        diffs.len() == 1
            && diffs[0].contains("alice: the review of 2026-11-29T11:00:00Z has expired"),
        "{diffs:?}"
    );

    // Another pull request than the one gated.
    let other = ReviewSource {
        client: source(&fg.base()).client,
        source: "github:acme/infra#8".parse().unwrap(),
    };
    let diffs = check(&b, &other, &now);
    assert!(
        diffs[0].contains("the gate took its approvals from github:acme/infra#7"),
        "{diffs:?}"
    );

    // The forge down at apply time.
    let down = source(&unreachable_base().unwrap());
    let diffs = check(&b, &down, &now);
    assert!(
        diffs.len() == 1
            && diffs[0].contains("could not be read again")
            && diffs[0].contains("could not be reached"),
        "{diffs:?}"
    );
}

/// The binding is in the gate record and its signature covers it: an edit of the binding is
/// refused by `ward verify` with the key.
#[test]
fn the_binding_is_signed_with_the_record() {
    use ward_gate::verify_reviews::{bind, BoundChange, ReviewBinding};
    let plan = ward_plan::read_reader(
        br#"{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[]}"#.as_slice(),
        "plan.json",
    )
    .unwrap();
    let key = b"k".as_slice();
    let mut rec = ward_gate::record::build_keyed(&plan, "plan.json", Outcome::Pass, Some(key));
    let b = ReviewBinding {
        source: "github:acme/infra#7".into(),
        forge: "http://127.0.0.1:1".into(),
        head: "c2".into(),
        root: None,
        comment_author: Some(BOT.into()),
        allow_author: false,
        expiry_seconds: None,
        changes: vec![BoundChange {
            address: "fakecloud_volume.db".into(),
            deposed: None,
            impact: Impact::DataLoss,
            digest: "sha256:00".into(),
            requires: Vec::new(),
            approved_by: "alice".into(),
            approved_at: "2026-11-29T11:00:00Z".into(),
        }],
    };
    bind(&mut rec, Some(b), Some(key));
    assert!(rec.check_signature(key).is_ok());
    let text = serde_json::to_string(&rec).unwrap();
    let back: ward_gate::record::GateRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(back, rec);
    let mut edited = rec.clone();
    if let Some(b) = edited.reviews.as_mut() {
        b.changes[0]
            .requires
            .push(ward_gate::verify_reviews::BoundRequirement {
                name: "x".into(),
                from: vec!["mallory".into()],
                count: 1,
            });
    }
    assert!(edited.check_signature(key).is_err());
}

/// GitLab: merge request !7 of grp/infra at `head` by `dev`, versions `(commit, created_at)`,
/// approvals `(username, approved_at)`, ward's note listing `d` at `listed_at` on `head`, and
/// the project's `reset_approvals_on_push`.
mod gitlab {
    use super::*;

    const P: &str = "/projects/grp%2Finfra";
    const MR: &str = "/projects/grp%2Finfra/merge_requests/7";
    const NOTES: &str =
        "/projects/grp%2Finfra/merge_requests/7/notes?sort=asc&order_by=created_at&per_page=100";

    pub fn forge(head: &str, versions: &[(&str, &str)], approvals: &[(&str, &str)]) -> FakeForge {
        let f = FakeForge::start().unwrap();
        f.json(
            &format!("{P}/approvals"),
            &json!({"reset_approvals_on_push": true}),
        );
        f.json(MR, &json!({"sha": head, "author": {"username": "dev"}}));
        let v: Vec<_> = versions
            .iter()
            .rev()
            .map(|(c, at)| json!({"head_commit_sha": c, "created_at": at}))
            .collect();
        f.json(&format!("{MR}/versions?per_page=100"), &json!(v));
        let a: Vec<_> = approvals
            .iter()
            .map(|(u, at)| json!({"user": {"username": u}, "approved_at": at}))
            .collect();
        f.json(&format!("{MR}/approvals"), &json!({ "approved_by": a }));
        f.json(NOTES, &json!([]));
        f
    }

    /// ward's note listing `d` at `commit` (`listed_at`), as GitLab returns a note.
    pub fn listed(f: &FakeForge, commit: &str, listed_at: &str, d: &str) {
        let body = format!("## ward gate\n{MARKER}\nlisted {commit} {listed_at} {d}\n-->\n");
        f.json(
            NOTES,
            &json!([{"author": {"username": "ward-bot"}, "body": body, "system": false, "created_at": listed_at}]),
        );
    }

    pub fn settle_gl(
        f: &Fixture,
        a: &ward_classify::Assessment,
        mut r: GateReport,
        base: &str,
    ) -> GateReport {
        let src = ReviewSource {
            client: Client::new(
                Kind::GitLab,
                Options {
                    base: base.into(),
                    token: Some("glpat".into()),
                    timeout: Duration::from_secs(5),
                },
            ),
            source: "gitlab:grp/infra!7".parse().unwrap(),
        };
        let s = Settle::new(&src, Some("live/prod/db".into()));
        s.apply(&mut r, &f.policy);
        run_guards(
            &mut r,
            a,
            &f.policy.guards,
            &Default::default(),
            &|_: &str| None,
        );
        r
    }

    pub const BOT: &str = "reviewers {\n  comment_author = \"ward-bot\"\n}\n";
    pub const V1: (&str, &str) = ("c1", "2026-11-29T09:00:00Z");
    pub const V2: (&str, &str) = ("c2", "2026-11-29T10:00:00Z");
}

#[test]
fn gitlab_an_approval_after_wards_note_at_the_head_approves_the_listed_digest() {
    let (f, a, r) = report(gitlab::BOT);
    let d = r.required[0].digest.clone();
    let fg = gitlab::forge(
        "c2",
        &[gitlab::V1, gitlab::V2],
        &[("alice", "2026-11-29T11:00:00.000Z")],
    );
    gitlab::listed(&fg, "c2", "2026-11-29T10:30:00Z", &d);
    let r = gitlab::settle_gl(&f, &a, r, &fg.base());
    assert_eq!(r.outcome, Outcome::Pass, "{:?}", status(&r));
    assert!(
        matches!(status(&r), ApprovalStatus::Approved { by, reason, .. } if by == "alice" && reason.contains("gitlab:grp/infra!7 at c2")),
        "{:?}",
        status(&r)
    );
}

#[test]
fn gitlab_a_push_after_the_approval_a_self_approval_and_an_approval_before_the_note_do_not_count() {
    let (f, a, r) = report(gitlab::BOT);
    let d = r.required[0].digest.clone();
    // (approver, approved at, ward's note at commit, listed at, why it does not count)
    let cases = [
        // alice approved c1 before c2 was pushed (GitLab had not reset it yet).
        (
            "alice",
            "2026-11-29T09:30:00Z",
            "c1",
            "2026-11-29T09:10:00Z",
            "alice: approved at c1, the head is now c2 (pushed since",
        ),
        (
            "dev",
            "2026-11-29T11:00:00Z",
            "c2",
            "2026-11-29T10:30:00Z",
            "dev: the pull request's author",
        ),
        // At the head, but before ward's note listed the digest there.
        (
            "alice",
            "2026-11-29T10:10:00Z",
            "c2",
            "2026-11-29T10:30:00Z",
            "alice: no ward comment listed digests at c2 before the review",
        ),
    ];
    for (by, at, commit, listed_at, why) in cases {
        let fg = gitlab::forge("c2", &[gitlab::V1, gitlab::V2], &[(by, at)]);
        gitlab::listed(&fg, commit, listed_at, &d);
        let got = gitlab::settle_gl(&f, &a, r.clone(), &fg.base());
        assert_eq!(got.outcome, Outcome::ApprovalRequired, "{why}");
        assert!(awaiting(&got).contains(why), "{}", awaiting(&got));
    }
}

#[test]
fn gitlab_a_project_keeping_approvals_on_push_or_down_is_refused_with_the_reason() {
    let (f, a, r) = report(gitlab::BOT);
    let d = r.required[0].digest.clone();
    let fg = gitlab::forge("c2", &[gitlab::V2], &[("alice", "2026-11-29T11:00:00Z")]);
    gitlab::listed(&fg, "c2", "2026-11-29T10:30:00Z", &d);
    fg.json(
        "/projects/grp%2Finfra/approvals",
        &json!({"reset_approvals_on_push": false}),
    );
    let off = gitlab::settle_gl(&f, &a, r.clone(), &fg.base());
    assert_eq!(off.outcome, Outcome::ApprovalRequired);
    assert!(
        matches!(status(&off), ApprovalStatus::Refused { why, .. } if why.contains("reset_approvals_on_push is false") && why.contains("Remove all approvals when commits are added")),
        "{:?}",
        status(&off)
    );
    let down = gitlab::settle_gl(&f, &a, r, &unreachable_base().unwrap());
    assert!(
        matches!(status(&down), ApprovalStatus::Refused { why, .. } if why.contains("could not be reached")),
        "{:?}",
        status(&down)
    );
}

#[test]
fn gitlab_wards_note_on_the_second_page_is_found() {
    let (f, a, r) = report(gitlab::BOT);
    let d = r.required[0].digest.clone();
    let fg = gitlab::forge("c2", &[gitlab::V2], &[("alice", "2026-11-29T11:00:00Z")]);
    let notes =
        "/projects/grp%2Finfra/merge_requests/7/notes?sort=asc&order_by=created_at&per_page=100";
    fg.route(
        notes,
        200,
        &[("X-Next-Page", "2")],
        &json!([{"author": {"username": "carol"}, "body": "looks fine", "system": false, "created_at": "2026-11-29T10:20:00Z"}]).to_string(),
    );
    let body = format!("{MARKER}\nlisted c2 2026-11-29T10:30:00Z {d}\n-->\n");
    fg.json(
        &format!("{notes}&page=2"),
        &json!([{"author": {"username": "ward-bot"}, "body": body, "system": false, "created_at": "2026-11-29T10:30:00Z"}]),
    );
    let r = gitlab::settle_gl(&f, &a, r, &fg.base());
    assert_eq!(r.outcome, Outcome::Pass, "{:?}", status(&r));
}

/// A gate with `--approvals-from` where nothing needs an approval binds no change, and verify
/// then reads nothing.
#[test]
fn a_binding_without_changes_reads_nothing_at_verify() {
    use ward_gate::verify_reviews::{binding, check};
    let f = Fixture::new();
    let a = assessment(vec![]);
    let r = f.gate(&a);
    let fg = forge("c2");
    let src = source(&fg.base());
    let s = Settle::new(&src, None);
    let mut gated = r.clone();
    s.apply(&mut gated, &f.policy);
    let b = binding(&s, &gated, &f.policy).expect("a binding");
    assert!(b.changes.is_empty() && b.head.is_empty(), "{b:?}");
    assert!(check(&b, &src, &gated.now).is_empty());
    assert!(fg.requests().is_empty());
}
