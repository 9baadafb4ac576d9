//! Whole assessments, serialized to JSON, as snapshots: a change to any verdict, explanation or
//! rule reference shows up in review.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use serde_json::json;
use ward_classify::{assess, Options};
use ward_model::{Action, Mode, OutputChange, Shown, TypeRef};

fn mixed_plan() -> ward_model::Plan {
    let mut forget = change("fakecloud_bucket.archive", Action::Forget);
    forget.previous_address = None;
    let mut read = change("data.fakecloud_image.debian", Action::Read);
    read.mode = Mode::Data;
    read.type_name = "fakecloud_image".into();
    read.action_reason = Some("read_because_config_unknown".into());
    let mut moved = change("fakecloud_network.main", Action::NoOp);
    moved.previous_address = Some("fakecloud_network.default".into());
    let mut unclassified = change("acme_widget.w", Action::Delete);
    unclassified.provider_name = "registry.terraform.io/acme/acme".into();
    let mut p = plan(vec![
        with_attrs(
            change("fakecloud_instance.web", Action::Update),
            vec![
                attr("size", s("small"), s("large")),
                attr("admin_password", Shown::Sensitive, Shown::Sensitive),
                attr("tags.owner", s("ops"), s("platform")),
            ],
        ),
        replaced_by(
            with_attrs(
                change("fakecloud_instance.db", Action::ReplaceCreateFirst),
                vec![
                    attr("image", s("debian-12"), s("debian-13")),
                    attr("id", s("i-0001"), Shown::Unknown),
                    attr("ip", s("10.0.0.7"), Shown::Unknown),
                    attr("mac", s("02:00:00:00:00:07"), Shown::Unknown),
                ],
            ),
            &["image"],
            "replace_because_cannot_update",
        ),
        change("module.ledger.fakecloud_volume.data", Action::Delete),
        with_attrs(
            change("fakecloud_bucket.logs", Action::Update),
            vec![
                attr("force_destroy", known(json!(false)), known(json!(true))),
                attr("tags.env", Shown::Absent, s("prod")),
            ],
        ),
        importing(change("fakecloud_network.imported", Action::NoOp), "net-42"),
        forget,
        read,
        moved,
        unclassified,
    ]);
    p.output_changes = vec![
        OutputChange {
            name: "web_ip".into(),
            action: Action::NoOp,
            sensitive: false,
        },
        OutputChange {
            name: "admin_password".into(),
            action: Action::Update,
            sensitive: true,
        },
    ];
    p.state_types.insert(TypeRef {
        mode: Mode::Managed,
        type_name: "acme_gadget".into(),
        provider: Some("registry.terraform.io/acme/acme".into()),
    });
    p
}

#[test]
fn mixed_plan_with_the_fakecloud_rule_file() {
    let a = assess(&mixed_plan(), &fakecloud(), &Options::default());
    assert!(a.coverage.fails());
    insta::assert_json_snapshot!("mixed", a);
}

#[test]
fn user_rules_override_and_are_cited() {
    // ward.hcl's own rules first, then the fakecloud rule file, as `rules { files }` loads it.
    let mut k = ward_rules::Knowledge::empty();
    k.load_user_str(
        "ward.hcl",
        r#"
resource "fakecloud_volume" {
  module = "module.ledger"
  on_delete = "data-loss"
  rationale = "The ledger volume is the only copy of the ledger."
}

resource "fakecloud_instance" {
  attribute "size" {
    impact = "in-place"
    why    = "Our instances resize live."
  }
}

resource "acme_widget" {
  summary = "A widget; deleting one only stops a dashboard."
  on_delete = "free"
}
"#,
    )
    .unwrap();
    ward_rig::rules::add(&mut k).unwrap();
    let a = assess(
        &mixed_plan(),
        &k,
        &Options {
            allow_unclassified: true,
        },
    );
    assert!(!a.coverage.fails());
    insta::assert_json_snapshot!("user_rules", a);
}
