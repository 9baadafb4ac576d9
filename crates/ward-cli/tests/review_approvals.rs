//! `ward gate --approvals-from github:OWNER/REPO#N` end to end, against a fake forge on the
//! loopback (#37): the Markdown comment lists the digests at the head; a review at that commit
//! passes the gate; a push after it refuses; the forge down refuses; the token is never printed.
//! docs/gate.md's "Review approvals" walks through the same steps.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::path::Path;
use std::process::{Command, Output};
use ward_rig::forge::{unreachable_base, FakeForge};

const TOKEN: &str = "ghp_sekrit_123";
const BOT: &str = "github-actions[bot]";

fn plan() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/plans/data-loss.json")
        .display()
        .to_string()
}

/// `ward ARGS` in `dir`, with the token in the environment only.
fn ward(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir.join("home"))
        .env("GITHUB_TOKEN", TOKEN)
        .output()
        .unwrap()
}

fn gate(dir: &Path, base: &str, format: &str) -> (i32, String, String) {
    let p = plan();
    let o = ward(
        dir,
        &[
            "gate",
            &p,
            "--format",
            format,
            "--approvals-from",
            "github:acme/infra#7",
            "--forge-url",
            base,
            "--no-record-protection",
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!out.contains(TOKEN) && !err.contains(TOKEN));
    (o.status.code().unwrap_or(-1), out, err)
}

fn pull(f: &FakeForge, head: &str) {
    f.json(
        "/repos/acme/infra/pulls/7",
        &json!({"head": {"sha": head}, "user": {"login": "dev"}}),
    );
}

#[test]
fn comment_review_pass_push_refusal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ward.hcl"),
        ward_rig::rules::ward_hcl(&format!("reviewers {{\n  comment_author = \"{BOT}\"\n}}\n")),
    )
    .unwrap();
    let f = FakeForge::start().unwrap();
    pull(&f, "c0ffee1");
    f.json("/repos/acme/infra/pulls/7/reviews?per_page=100", &json!([]));
    f.json(
        "/repos/acme/infra/issues/7/comments?per_page=100",
        &json!([]),
    );

    // 1. No review yet: refused, and the comment lists the digests at the head.
    let (code, comment, err) = gate(dir.path(), &f.base(), "markdown");
    assert_eq!(code, 4, "{err}");
    assert!(
        comment.contains(
            "needs 1 approving review(s) at c0ffee1 from anyone but the author (none yet)"
        ),
        "{comment}"
    );
    let listed = comment
        .lines()
        .find(|l| l.starts_with("listed c0ffee1 "))
        .unwrap_or_else(|| panic!("no listing in {comment}"))
        .to_string();
    let at = listed.split_whitespace().nth(2).unwrap().to_string();
    assert!(listed.contains("sha256:"), "{listed}");
    for r in &f.requests() {
        assert_eq!(
            r.authorization.as_deref(),
            Some(format!("Bearer {TOKEN}").as_str())
        );
    }

    // 2. ward's comment is posted; a reviewer approves at that commit: the gate passes.
    f.json(
        "/repos/acme/infra/issues/7/comments?per_page=100",
        &json!([{"user": {"login": BOT}, "body": comment, "updated_at": at}]),
    );
    f.json(
        "/repos/acme/infra/pulls/7/reviews?per_page=100",
        &json!([{"user": {"login": "alice"}, "state": "APPROVED", "commit_id": "c0ffee1", "submitted_at": at}]),
    );
    let (code, out, err) = gate(dir.path(), &f.base(), "json");
    assert_eq!(code, 0, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    for r in report["required"].as_array().unwrap() {
        assert_eq!(r["approval"]["status"], "approved");
        assert_eq!(r["approval"]["by"], "alice");
    }
    // With a history, the decision's row keeps each review: the pull request and its commit.
    let p = plan();
    let db = dir.path().join("history.db");
    let o = ward(
        dir.path(),
        &[
            "gate",
            &p,
            "--format",
            "json",
            "--approvals-from",
            "github:acme/infra#7",
            "--forge-url",
            &f.base(),
            "--no-record-protection",
            "--db",
            db.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let store = ward_store::Store::open(&db).unwrap();
    let rows = store
        .gate_outcomes(&ward_store::AuditQuery::default())
        .unwrap();
    assert_eq!(rows.len(), 1);
    let changes = &rows[0].outcome.changes;
    assert!(!changes.is_empty());
    for c in changes {
        assert_eq!(c.by.as_deref(), Some("alice"));
        let rv = c
            .review
            .as_ref()
            .unwrap_or_else(|| panic!("no review in {c:?}"));
        assert_eq!(
            (
                rv.source.as_str(),
                rv.commit.as_str(),
                rv.approved_at.as_str()
            ),
            ("github:acme/infra#7", "c0ffee1", at.as_str())
        );
    }

    // 3. A push after the review: refused until someone reviews the new head.
    pull(&f, "d00d2");
    let (code, out, _) = gate(dir.path(), &f.base(), "json");
    assert_eq!(code, 4);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let a = &report["required"][0]["approval"];
    assert_eq!(a["status"], "awaiting-review");
    assert!(a["not_counted"][0]
        .as_str()
        .unwrap()
        .contains("alice: approved at c0ffee1, the head is now d00d2 (pushed since"));

    // 4. The author approving their own push does not count.
    f.json(
        "/repos/acme/infra/pulls/7/reviews?per_page=100",
        &json!([{"user": {"login": "dev"}, "state": "APPROVED", "commit_id": "d00d2", "submitted_at": at}]),
    );
    let (code, _, _) = gate(dir.path(), &f.base(), "json");
    assert_eq!(code, 4);
}

#[test]
fn the_forge_down_refuses_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ward.hcl"), ward_rig::rules::ward_hcl("")).unwrap();
    let (code, out, _) = gate(dir.path(), &unreachable_base().unwrap(), "terminal");
    assert_eq!(code, 4);
    assert!(out.contains("could not be reached"), "{out}");
}

#[test]
fn a_bad_source_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan();
    let o = ward(
        dir.path(),
        &["gate", &p, "--approvals-from", "acme/infra#7"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--approvals-from: `acme/infra#7` names no forge"));
}

/// `ward verify ARGS` in `dir` (the stand-in binary prints the gated plan for `show -json`).
fn verify(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let fake = dir.join("terraform");
    let mut args = vec![
        "verify",
        "tfplan",
        "--record",
        "gate.json",
        "--binary",
        fake.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = ward(dir, &args);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!out.contains(TOKEN) && !err.contains(TOKEN));
    (o.status.code().unwrap_or(-1), out, err)
}

/// #37 item 4: the gate passes on a review and records it; `ward verify` at apply time reads
/// the reviews again: they still hold (exit 0); the review dismissed, a push, or the forge at
/// another address than the gate's is a refusal (exit 1) with the reason.
#[test]
fn verify_re_checks_the_reviews_the_gate_used() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("ward.hcl"),
        ward_rig::rules::ward_hcl(&format!("reviewers {{\n  comment_author = \"{BOT}\"\n}}\n")),
    )
    .unwrap();
    std::fs::write(d.join("tfplan"), "binary plan stand-in").unwrap();
    let fake = d.join("terraform");
    std::fs::write(&fake, format!("#!/bin/sh\ncat '{}'\n", plan())).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let f = FakeForge::start().unwrap();
    pull(&f, "c0ffee1");
    let reviews = "/repos/acme/infra/pulls/7/reviews?per_page=100";
    f.json(reviews, &json!([]));
    f.json(
        "/repos/acme/infra/issues/7/comments?per_page=100",
        &json!([]),
    );
    let (_, comment, _) = gate(d, &f.base(), "markdown");
    let at = comment
        .lines()
        .find(|l| l.starts_with("listed c0ffee1 "))
        .and_then(|l| l.split_whitespace().nth(2))
        .unwrap()
        .to_string();
    f.json(
        "/repos/acme/infra/issues/7/comments?per_page=100",
        &json!([{"user": {"login": BOT}, "body": comment, "updated_at": at}]),
    );
    let approved = json!([{"user": {"login": "alice"}, "state": "APPROVED", "commit_id": "c0ffee1", "submitted_at": at}]);
    f.json(reviews, &approved);
    let p = plan();
    let o = ward(
        d,
        &[
            "gate",
            &p,
            "--approvals-from",
            "github:acme/infra#7",
            "--forge-url",
            &f.base(),
            "--no-record-protection",
            "--record",
            "gate.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("gate.json")).unwrap()).unwrap();
    assert_eq!(rec["reviews"]["source"], "github:acme/infra#7");
    assert_eq!(rec["reviews"]["head"], "c0ffee1");
    assert_eq!(rec["reviews"]["changes"][0]["approved_by"], "alice");

    // Nothing changed: verified.
    let base = f.base();
    let (code, out, err) = verify(d, &["--forge-url", &base]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("review approvals of github:acme/infra#7 at c0ffee1 still hold"),
        "{err}"
    );

    // The review dismissed between the gate and the apply.
    f.json(
        reviews,
        &json!([
            {"user": {"login": "alice"}, "state": "APPROVED", "commit_id": "c0ffee1", "submitted_at": at},
            {"user": {"login": "alice"}, "state": "DISMISSED", "commit_id": "c0ffee1", "submitted_at": at}
        ]),
    );
    let (code, out, _) = verify(d, &["--forge-url", &base]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("its review approval no longer holds"), "{out}");
    f.json(reviews, &approved);

    // A push between the gate and the apply.
    pull(&f, "d00d2");
    let (code, out, _) = verify(d, &["--forge-url", &base]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("was pushed to since the gate (gated at c0ffee1, the head is now d00d2)"),
        "{out}"
    );
    pull(&f, "c0ffee1");

    // The forge at another address than the one the gate read: refused, the token not sent.
    let other = FakeForge::start().unwrap();
    let (code, out, _) = verify(d, &["--forge-url", &other.base()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the gate read the reviews from"), "{out}");
    assert!(other.requests().is_empty());

    // Another pull request named at apply time.
    let (code, out, _) = verify(
        d,
        &[
            "--forge-url",
            &base,
            "--approvals-from",
            "github:acme/infra#8",
        ],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the gate took its approvals from github:acme/infra#7"),
        "{out}"
    );

    // A record gated without reviews, verified with --approvals-from: refused.
    let o = ward(
        d,
        &[
            "gate",
            &p,
            "--no-record-protection",
            "--record",
            "gate.json",
        ],
    );
    assert_eq!(o.status.code(), Some(4), "{o:?}");
    let (code, out, _) = verify(d, &["--approvals-from", "github:acme/infra#7"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the gate record holds no review approvals"),
        "{out}"
    );
}

/// `--approvals-from gitlab:GROUP/PROJECT!IID` end to end: the token from GITLAB_TOKEN, ward's
/// note listing the digests, an approval after it passes; the project setting off refuses,
/// naming it.
#[test]
fn gitlab_merge_request_approvals_end_to_end() {
    const GL: &str = "glpat-sekrit-9";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ward.hcl"),
        ward_rig::rules::ward_hcl("reviewers {\n  comment_author = \"ward-bot\"\n}\n"),
    )
    .unwrap();
    let f = FakeForge::start().unwrap();
    let mr = "/projects/grp%2Finfra/merge_requests/7";
    let notes = format!("{mr}/notes?sort=asc&order_by=created_at&per_page=100");
    f.json(
        "/projects/grp%2Finfra/approvals",
        &json!({"reset_approvals_on_push": true}),
    );
    f.json(
        mr,
        &json!({"sha": "c0ffee1", "author": {"username": "dev"}}),
    );
    f.json(
        &format!("{mr}/versions?per_page=100"),
        &json!([{"head_commit_sha": "c0ffee1", "created_at": "2026-01-01T00:00:00Z"}]),
    );
    f.json(&format!("{mr}/approvals"), &json!({"approved_by": []}));
    f.json(&notes, &json!([]));
    let p = plan();
    let run = |format: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_ward"))
            .args([
                "gate",
                &p,
                "--format",
                format,
                "--approvals-from",
                "gitlab:grp/infra!7",
                "--forge-url",
                &f.base(),
                "--no-record-protection",
            ])
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", dir.path().join("home"))
            .env("GITLAB_TOKEN", GL)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(!out.contains(GL) && !String::from_utf8_lossy(&o.stderr).contains(GL));
        (o.status.code().unwrap_or(-1), out)
    };
    let (code, comment) = run("markdown");
    assert_eq!(code, 4, "{comment}");
    let at = comment
        .lines()
        .find(|l| l.starts_with("listed c0ffee1 "))
        .and_then(|l| l.split_whitespace().nth(2))
        .unwrap_or_else(|| panic!("no listing in {comment}"))
        .to_string();
    f.json(
        &notes,
        &json!([{"author": {"username": "ward-bot"}, "body": comment, "system": false, "created_at": at}]),
    );
    f.json(
        &format!("{mr}/approvals"),
        &json!({"approved_by": [{"user": {"username": "alice"}, "approved_at": at}]}),
    );
    let (code, out) = run("json");
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["required"][0]["approval"]["by"], "alice");
    assert!(f
        .requests()
        .iter()
        .all(|r| r.authorization.as_deref() == Some(format!("Bearer {GL}").as_str())));

    f.json(
        "/projects/grp%2Finfra/approvals",
        &json!({"reset_approvals_on_push": false}),
    );
    let (code, out) = run("terminal");
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("Remove all approvals when commits are added"),
        "{out}"
    );
}
