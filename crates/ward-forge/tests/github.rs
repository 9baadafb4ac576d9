//! The GitHub client against a fake forge on the loopback: pagination, teams, the token,
//! and every way the forge fails (each a typed error, never an empty answer).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::time::Duration;
use ward_forge::{Client, ForgeError, Kind, Options, ReviewState, Source};
use ward_rig::forge::{unreachable_base, FakeForge};

fn client(base: &str) -> Client {
    Client::new(
        Kind::GitHub,
        Options {
            base: base.to_string(),
            token: Some("tok-123".into()),
            timeout: Duration::from_secs(5),
        },
    )
}

fn source() -> Source {
    "github:acme/infra#7".parse().unwrap()
}

fn review(login: &str, state: &str, commit: &str) -> serde_json::Value {
    json!({"user": {"login": login}, "state": state, "commit_id": commit, "submitted_at": "2026-12-01T10:00:00Z"})
}

fn pr_routes(f: &FakeForge) {
    f.json(
        "/repos/acme/infra/pulls/7",
        &json!({"head": {"sha": "c1"}, "user": {"login": "author"}}),
    );
    f.json(
        "/repos/acme/infra/issues/7/comments?per_page=100",
        &json!([{"user": {"login": "bot"}, "body": "hello", "updated_at": "2026-12-01T09:00:00Z"}]),
    );
}

#[test]
fn reviews_are_read_across_pages_with_the_token_in_the_header() {
    let f = FakeForge::start().unwrap();
    pr_routes(&f);
    let page2 = format!(
        "{}/repos/acme/infra/pulls/7/reviews?per_page=100&page=2",
        f.base()
    );
    f.route(
        "/repos/acme/infra/pulls/7/reviews?per_page=100",
        200,
        &[(
            "Link",
            &format!("<{page2}>; rel=\"next\", <{page2}>; rel=\"last\""),
        )],
        &json!([review("alice", "APPROVED", "c1")]).to_string(),
    );
    f.json(
        "/repos/acme/infra/pulls/7/reviews?per_page=100&page=2",
        &json!([
            review("bob", "CHANGES_REQUESTED", "c1"),
            review("carol", "COMMENTED", "c0")
        ]),
    );
    let pr = client(&f.base()).pull_request(&source()).unwrap();
    assert_eq!((pr.head.as_str(), pr.author.as_str()), ("c1", "author"));
    let got: Vec<(&str, ReviewState)> = pr
        .reviews
        .iter()
        .map(|r| (r.by.as_str(), r.state))
        .collect();
    assert_eq!(
        got,
        [
            ("alice", ReviewState::Approved),
            ("bob", ReviewState::ChangesRequested),
            ("carol", ReviewState::Commented)
        ]
    );
    assert_eq!(pr.comments[0].body, "hello");
    for r in f.requests() {
        assert_eq!(r.authorization.as_deref(), Some("Bearer tok-123"));
        assert!(!r.path.contains("tok-123"));
    }
}

#[test]
fn a_next_page_outside_the_api_base_is_not_followed() {
    let f = FakeForge::start().unwrap();
    pr_routes(&f);
    f.route(
        "/repos/acme/infra/pulls/7/reviews?per_page=100",
        200,
        &[(
            "Link",
            "<http://elsewhere.invalid/steal?page=2>; rel=\"next\"",
        )],
        "[]",
    );
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(matches!(e, ForgeError::Malformed { .. }), "{e}");
}

#[test]
fn team_members_across_pages_and_an_unknown_team() {
    let f = FakeForge::start().unwrap();
    let page2 = format!(
        "{}/orgs/acme/teams/dba/members?per_page=100&page=2",
        f.base()
    );
    f.route(
        "/orgs/acme/teams/dba/members?per_page=100",
        200,
        &[("Link", &format!("<{page2}>; rel=\"next\""))],
        &json!([{"login": "zed"}, {"login": "alice"}]).to_string(),
    );
    f.json(
        "/orgs/acme/teams/dba/members?per_page=100&page=2",
        &json!([{"login": "bob"}]),
    );
    let c = client(&f.base());
    assert_eq!(c.team_members("acme/dba").unwrap(), ["alice", "bob", "zed"]);
    let e = c.team_members("acme/nope").unwrap_err();
    assert!(matches!(e, ForgeError::NotFound { .. }), "{e}");
    assert!(e.to_string().contains("team @acme/nope"), "{e}");
}

#[test]
fn rate_limits_and_denials_are_errors() {
    let f = FakeForge::start().unwrap();
    f.route(
        "/repos/acme/infra/pulls/7",
        403,
        &[
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "1800000000"),
        ],
        r#"{"message":"API rate limit exceeded"}"#,
    );
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(
        matches!(e, ForgeError::RateLimited { status: 403, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("resets at 1800000000"), "{e}");
    f.route("/repos/acme/infra/pulls/7", 429, &[], "{}");
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(
        matches!(e, ForgeError::RateLimited { status: 429, .. }),
        "{e}"
    );
    f.route(
        "/repos/acme/infra/pulls/7",
        403,
        &[("x-ratelimit-remaining", "10")],
        "{}",
    );
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(matches!(e, ForgeError::Denied { status: 403, .. }), "{e}");
    f.route("/repos/acme/infra/pulls/7", 502, &[], "{}");
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(matches!(e, ForgeError::Status { status: 502, .. }), "{e}");
    f.route("/repos/acme/infra/pulls/7", 200, &[], "{not json");
    let e = client(&f.base()).pull_request(&source()).unwrap_err();
    assert!(matches!(e, ForgeError::Malformed { .. }), "{e}");
    assert!(!e.to_string().contains("tok-123"));
}

#[test]
fn an_unreachable_forge_is_an_error_that_does_not_quote_the_token() {
    let base = unreachable_base().unwrap();
    let e = client(&base).pull_request(&source()).unwrap_err();
    assert!(matches!(e, ForgeError::Unreachable { .. }), "{e}");
    assert!(!e.to_string().contains("tok-123"));
}

#[test]
fn a_github_client_refuses_a_gitlab_source_without_asking() {
    let f = FakeForge::start().unwrap();
    let s: Source = "gitlab:grp/proj!3".parse().unwrap();
    let e = client(&f.base()).pull_request(&s).unwrap_err();
    assert!(matches!(e, ForgeError::Unsupported(_)), "{e}");
    assert!(f.requests().is_empty());
}
