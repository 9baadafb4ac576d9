//! `ward import`'s reports in every format (snapshots), escaped: an id from the live system
//! with control characters or Markdown cannot change what a terminal or a comment shows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use ward_import::accept::{AcceptReport, Acceptance, Step};
use ward_import::check::{CheckReport, Object, Problem, ProblemKind, Status};
use ward_report::import;

fn refused() -> CheckReport {
    CheckReport {
        plan: "plan.json".into(),
        inventory: "fleet.json".into(),
        plan_digest: "sha256:abc".into(),
        terraform_version: Some("1.15.5".into()),
        passed: false,
        objects: vec![
            Object {
                address: "fakecloud_instance.web[\"a\"]".into(),
                id: "i-a".into(),
                status: Status::ImportAllowedUpdate,
                allowed: vec!["tags.role: normalised".into()],
            },
            Object {
                address: "fakecloud_instance.web[\"b\"]".into(),
                id: "i-b\u{1b}[31m|*x*".into(),
                status: Status::Refused,
                allowed: vec![],
            },
        ],
        problems: vec![Problem {
            kind: ProblemKind::Replace,
            address: "fakecloud_instance.web[\"b\"]".into(),
            attributes: vec!["image".into()],
            message:
                "importing fakecloud_instance.web[\"b\"] would replace it: image forces replacement"
                    .into(),
            help: "model the attribute exactly as the live object has it".into(),
        }],
    }
}

fn accepted() -> AcceptReport {
    let mut ids = BTreeMap::new();
    ids.insert("fakecloud_network.main".to_string(), "net-1".to_string());
    AcceptReport {
        root: "fleet".into(),
        accepted: true,
        steps: ["bind", "apply", "plan", "refresh-only", "state", "record"]
            .iter()
            .map(|n| Step {
                name: n.to_string(),
                ok: true,
                detail: vec![],
            })
            .collect(),
        acceptance: Some(Acceptance {
            schema_version: 1,
            root: "fleet".into(),
            ids,
            plan_digest: "sha256:abc".into(),
            lineage: "l-1".into(),
            serial: 4,
            binary: "/usr/bin/terraform".into(),
            product: "terraform".into(),
            version: "1.15.5".into(),
            accepted_at: "2026-12-01T12:00:00Z".into(),
        }),
    }
}

#[test]
fn check_reports() {
    let r = refused();
    let t = import::check_terminal(&r);
    assert!(!t.contains('\u{1b}'), "{t}");
    insta::assert_snapshot!("import_check_terminal", t);
    insta::assert_snapshot!("import_check_json", import::check_json(&r));
    let md = import::check_markdown(&r);
    // The pipe cannot end the table cell; the escape character is shown, not sent.
    assert!(!md.contains('\u{1b}') && md.contains("\\|*x*"), "{md}");
    insta::assert_snapshot!("import_check_markdown", md);
}

#[test]
fn accept_reports() {
    let mut r = accepted();
    insta::assert_snapshot!("import_accept_terminal", import::accept_terminal(&r));
    insta::assert_snapshot!("import_accept_json", import::accept_json(&r));
    r.accepted = false;
    r.acceptance = None;
    r.steps.truncate(3);
    r.steps[2].ok = false;
    r.steps[2].detail = vec!["fakecloud_instance.web[\"b\"]: update".into()];
    insta::assert_snapshot!(
        "import_accept_markdown_refused",
        import::accept_markdown(&r)
    );
}
