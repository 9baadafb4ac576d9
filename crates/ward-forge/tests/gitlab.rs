//! The GitLab client against a fake forge on the loopback: a merge request's approvals read as
//! reviews bound to the commit of the version current when each was given, notes paged with
//! `X-Next-Page`, group members, the token only in the header, and the project setting that
//! must be on (every failure a typed error, never an empty answer).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::time::Duration;
use ward_forge::{Client, ForgeError, Kind, Options, ReviewState, Source};
use ward_rig::forge::{unreachable_base, FakeForge};

const P: &str = "/projects/grp%2Finfra";
const MR: &str = "/projects/grp%2Finfra/merge_requests/7";

fn client(base: &str) -> Client {
    Client::new(
        Kind::GitLab,
        Options {
            base: base.to_string(),
            token: Some("glpat-123".into()),
            timeout: Duration::from_secs(5),
        },
    )
}

fn source() -> Source {
    "gitlab:grp/infra!7".parse().unwrap()
}

/// Merge request 7 at head `c2` (version c1 at 09:00, c2 at 10:00) by `dev`, resetting
/// approvals on push.
fn routes(f: &FakeForge) {
    f.json(
        &format!("{P}/approvals"),
        &json!({"reset_approvals_on_push": true}),
    );
    f.json(MR, &json!({"sha": "c2", "author": {"username": "dev"}}));
    f.json(
        &format!("{MR}/versions?per_page=100"),
        &json!([
            {"head_commit_sha": "c2", "created_at": "2026-12-01T10:00:00.000Z"},
            {"head_commit_sha": "c1", "created_at": "2026-12-01T09:00:00.000Z"}
        ]),
    );
    f.json(
        &format!("{MR}/notes?sort=asc&order_by=created_at&per_page=100"),
        &json!([]),
    );
    f.json(&format!("{MR}/approvals"), &json!({"approved_by": []}));
}

fn note(by: &str, body: &str, system: bool, at: &str) -> serde_json::Value {
    json!({"author": {"username": by}, "body": body, "system": system, "created_at": at, "updated_at": at})
}

#[test]
fn approvals_are_bound_to_the_version_current_when_given() {
    let f = FakeForge::start().unwrap();
    routes(&f);
    f.json(
        &format!("{MR}/approvals"),
        &json!({"approved_by": [
            {"user": {"username": "alice"}, "approved_at": "2026-12-01T10:30:00.000Z"},
            {"user": {"username": "bob"}, "approved_at": "2026-12-01T09:30:00Z"},
            {"user": {"username": "carol"}},
            {"user": {"username": "dave"}}
        ]}),
    );
    // carol's time comes from her system note; dave has none.
    f.json(
        &format!("{MR}/notes?sort=asc&order_by=created_at&per_page=100"),
        &json!([
            note(
                "bot",
                "<!-- ward-review-digests v1\n-->",
                false,
                "2026-12-01T10:05:00Z"
            ),
            note(
                "carol",
                "approved this merge request",
                true,
                "2026-12-01T10:40:00Z"
            )
        ]),
    );
    let pr = client(&f.base()).pull_request(&source()).unwrap();
    assert_eq!((pr.head.as_str(), pr.author.as_str()), ("c2", "dev"));
    let got: Vec<(&str, Option<&str>, Option<&str>)> = pr
        .reviews
        .iter()
        .map(|r| {
            assert_eq!(r.state, ReviewState::Approved);
            (
                r.by.as_str(),
                r.commit.as_deref(),
                r.submitted_at.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("alice", Some("c2"), Some("2026-12-01T10:30:00.000Z")),
            // Given before the push of c2: bound to c1, so the gate says "pushed since".
            ("bob", Some("c1"), Some("2026-12-01T09:30:00Z")),
            ("carol", Some("c2"), Some("2026-12-01T10:40:00Z")),
            ("dave", None, None),
        ]
    );
    // Only the note that is not a system note is a comment.
    assert_eq!(pr.comments.len(), 1);
    assert_eq!(pr.comments[0].by, "bot");
    let reqs = f.requests();
    assert!(reqs
        .iter()
        .all(|r| r.authorization.as_deref() == Some("Bearer glpat-123")));
    assert!(reqs.iter().all(|r| !r.path.contains("glpat")));
}

#[test]
fn notes_are_read_across_pages_by_x_next_page() {
    let f = FakeForge::start().unwrap();
    routes(&f);
    let first = format!("{MR}/notes?sort=asc&order_by=created_at&per_page=100");
    f.route(
        &first,
        200,
        &[("X-Next-Page", "2"), ("X-Page", "1")],
        &json!([note("bot", "one", false, "2026-12-01T10:01:00Z")]).to_string(),
    );
    f.route(
        &format!("{first}&page=2"),
        200,
        &[("X-Next-Page", ""), ("X-Page", "2")],
        &json!([note("bot", "two", false, "2026-12-01T10:02:00Z")]).to_string(),
    );
    let pr = client(&f.base()).pull_request(&source()).unwrap();
    let bodies: Vec<&str> = pr.comments.iter().map(|c| c.body.as_str()).collect();
    assert_eq!(bodies, ["one", "two"]);
}

#[test]
fn a_project_that_keeps_approvals_on_push_is_refused_naming_the_setting() {
    for settings in [
        json!({"reset_approvals_on_push": false}),
        json!({"approvals_before_merge": 1}),
    ] {
        let f = FakeForge::start().unwrap();
        routes(&f);
        f.json(&format!("{P}/approvals"), &settings);
        let e = client(&f.base()).pull_request(&source()).unwrap_err();
        assert!(
            matches!(&e, ForgeError::Unsupported(m) if m.contains("Remove all approvals when commits are added to the source branch")),
            "{e}"
        );
        // Refused before the merge request was read.
        assert!(f
            .requests()
            .iter()
            .all(|r| !r.path.contains("merge_requests")));
    }
}

#[test]
fn group_members_are_read_with_inherited_ones() {
    let f = FakeForge::start().unwrap();
    f.json(
        "/groups/grp%2Fdba/members/all?per_page=100",
        &json!([{"username": "bob"}, {"username": "alice"}, {"username": "bob"}]),
    );
    let m = client(&f.base()).team_members("grp/dba").unwrap();
    assert_eq!(m, ["alice", "bob"]);
    let e = client(&f.base()).team_members("grp/none").unwrap_err();
    assert!(matches!(e, ForgeError::NotFound { .. }), "{e}");
}

#[test]
fn an_outage_a_rate_limit_and_a_refused_token_are_errors() {
    let e = client(&unreachable_base().unwrap())
        .pull_request(&source())
        .unwrap_err();
    assert!(matches!(e, ForgeError::Unreachable { .. }), "{e}");

    let f = FakeForge::start().unwrap();
    routes(&f);
    f.route(
        &format!("{P}/approvals"),
        429,
        &[("RateLimit-Reset", "1764583200")],
        "{}",
    );
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(
        matches!(&e, ForgeError::RateLimited { reset, .. } if reset.contains("1764583200")),
        "{e}"
    );

    f.route(&format!("{P}/approvals"), 401, &[], "{}");
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(e.to_string().contains("read_api"), "{e}");
    assert!(!e.to_string().contains("glpat-123"));

    // A client of the other forge refuses the source instead of reading the wrong API.
    let gh = Client::new(
        Kind::GitHub,
        Options {
            base: f.base(),
            token: None,
            timeout: Duration::from_secs(5),
        },
    );
    assert!(matches!(
        gh.pull_request(&source()),
        Err(ForgeError::Unsupported(_))
    ));
}
