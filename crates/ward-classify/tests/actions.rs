//! Every action, every fact, precedence and the coverage gate, on plans built directly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use serde_json::json;
use std::collections::BTreeSet;
use ward_classify::{assess, Assessment, Fact, Options, Verdict};
use ward_model::{Action, Impact, Mode, Product, Shown, TypeRef};

fn one(c: ward_model::ResourceChange) -> Verdict {
    let a = assess(&plan(vec![c]), &fakecloud(), &Options::default());
    assert_eq!(a.verdicts.len(), 1);
    a.verdicts.into_iter().next().unwrap()
}

fn has_line(v: &Verdict, needle: &str) {
    assert!(
        v.explanation.iter().any(|l| l.contains(needle)),
        "no line containing {needle:?} in {:#?}",
        v.explanation
    );
}

#[test]
fn nothing_happens_for_no_op_read_and_open() {
    for action in [Action::NoOp, Action::Read, Action::Open] {
        let v = one(change("fakecloud_instance.web", action));
        assert_eq!(v.impact, Impact::None, "{action}");
        assert!(v.classified);
        assert!(v.decided_by.is_none());
    }
}

#[test]
fn create_costs_on_create() {
    let v = one(change("fakecloud_instance.web", Action::Create));
    assert_eq!(v.impact, Impact::Free);
    assert_eq!(
        v.decided_by.as_ref().unwrap().to_string(),
        "examples/rules/fakecloud.hcl:10:fakecloud_instance"
    );
    assert!(v.identity_changes.is_empty());
    assert_eq!(v.explanation[0], "will be created");
}

#[test]
fn update_costs_the_worst_changed_attribute() {
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![
            attr("tags.env", s("dev"), s("prod")),
            attr("size", s("small"), s("large")),
            attr("name", s("a"), s("b")),
        ],
    ));
    assert_eq!(v.impact, Impact::Interrupt);
    assert_eq!(
        v.decided_by.as_ref().unwrap().to_string(),
        "examples/rules/fakecloud.hcl:10:fakecloud_instance[size]"
    );
    let attrs: Vec<(String, Impact)> = v
        .attributes
        .iter()
        .map(|a| (a.change.path.to_string(), a.impact))
        .collect();
    assert_eq!(
        attrs,
        [
            ("name".to_string(), Impact::InPlace),
            ("size".to_string(), Impact::Interrupt),
            ("tags.env".to_string(), Impact::Free),
        ]
    );
    has_line(
        &v,
        "`size` costs interrupt: \"small\" → \"large\" — The instance is restarted to change its size. (per examples/rules/fakecloud.hcl:10:fakecloud_instance[size])",
    );
    has_line(&v, "1 more attribute change(s) cost nothing (free)");
}

#[test]
fn tags_only_update_is_free() {
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![attr("tags.env", s("dev"), s("prod"))],
    ));
    assert_eq!(v.impact, Impact::Free);
    assert_eq!(
        v.decided_by.as_ref().unwrap().attribute.as_deref(),
        Some("tags")
    );
}

#[test]
fn an_update_that_changes_no_value_costs_nothing() {
    let v = one(change("fakecloud_instance.web", Action::Update));
    assert_eq!(v.impact, Impact::None);
    has_line(&v, "no attribute value changes");
}

#[test]
fn unnamed_attributes_cost_on_update() {
    let k = ward_rig::rules::knowledge_under(
        "ward.hcl",
        "resource \"fakecloud_network\" {\n  on_update = \"interrupt\"\n}\n",
    )
    .unwrap();
    let c = with_attrs(
        change("fakecloud_network.n", Action::Update),
        vec![attr("mtu", known(json!(1500)), Shown::Unknown)],
    );
    let a = assess(&plan(vec![c]), &k, &Options::default());
    let v = &a.verdicts[0];
    assert_eq!(v.impact, Impact::Interrupt);
    assert!(v.attributes[0].rule.is_none());
    assert_eq!(
        v.decided_by.as_ref().unwrap().to_string(),
        "ward.hcl:1:fakecloud_network"
    );
    has_line(
        v,
        "`mtu` costs interrupt: 1500 → (known after apply) (per ward.hcl:1:fakecloud_network)",
    );
}

#[test]
fn delete_costs_on_delete_and_loses_identity() {
    let mut c = change("fakecloud_instance.web", Action::Delete);
    c.action_reason = Some("delete_because_no_resource_config".into());
    let v = one(c);
    assert_eq!(v.impact, Impact::Replace);
    let ids: Vec<String> = v.identity_changes.iter().map(|p| p.to_string()).collect();
    assert_eq!(ids, ["id", "ip", "mac"]);
    has_line(&v, "identity lost: id, ip, mac");
    has_line(
        &v,
        "Terraform: delete_because_no_resource_config — its resource block is no longer in the configuration",
    );
}

#[test]
fn deleting_what_holds_data_is_data_loss() {
    let v = one(change("fakecloud_volume.ledger", Action::Delete));
    assert_eq!(v.impact, Impact::DataLoss);
    assert!(v.holds_data);
    assert_eq!(
        v.decided_by.as_ref().unwrap().to_string(),
        "examples/rules/fakecloud.hcl:40:fakecloud_volume"
    );
    has_line(
        &v,
        "holds data: destroying it loses the data it holds (per examples/rules/fakecloud.hcl:40:fakecloud_volume)",
    );
}

#[test]
fn replacement_explains_what_forces_it() {
    let c = replaced_by(
        with_attrs(
            change("fakecloud_instance.web", Action::ReplaceDeleteFirst),
            vec![
                attr("image", s("debian-12"), s("debian-13")),
                attr("ip", s("10.0.0.5"), Shown::Unknown),
                attr("id", s("i-1"), Shown::Unknown),
            ],
        ),
        &["image"],
        "replace_because_cannot_update",
    );
    let v = one(c);
    assert_eq!(v.impact, Impact::Replace);
    has_line(
        &v,
        "`image` forces replacement: \"debian-12\" → \"debian-13\"",
    );
    has_line(
        &v,
        "Terraform: replace_because_cannot_update — the provider cannot change this in place",
    );
    has_line(
        &v,
        "new identity: id, ip, mac will be known only after apply",
    );
    let image = v
        .attributes
        .iter()
        .find(|a| a.change.path.to_string() == "image")
        .unwrap();
    assert!(image.forces_replacement);
    assert_eq!(image.impact, Impact::Replace);
    assert!(
        !v.attributes
            .iter()
            .find(|a| a.change.path.to_string() == "ip")
            .unwrap()
            .forces_replacement
    );
    assert_eq!(v.identity_changes.len(), 3);
    // Identity attributes on a replacement cost what the replacement does, not in-place.
    let ip = v
        .attributes
        .iter()
        .find(|a| a.change.path.to_string() == "ip")
        .unwrap();
    assert_eq!(ip.impact, Impact::Replace);
    assert!(ip.rule.is_none());
}

#[test]
fn create_before_destroy_is_said() {
    let v = one(change("fakecloud_instance.web", Action::ReplaceCreateFirst));
    assert_eq!(v.impact, Impact::Replace);
    has_line(
        &v,
        "create_before_destroy: the new object is created before the old one is destroyed",
    );
}

#[test]
fn replacing_what_holds_data_is_data_loss() {
    for action in [Action::ReplaceDeleteFirst, Action::ReplaceCreateFirst] {
        let c = replaced_by(
            with_attrs(
                change("fakecloud_volume.ledger", action),
                vec![attr("size_gb", known(json!(20)), known(json!(10)))],
            ),
            &["size_gb"],
            "replace_because_cannot_update",
        );
        let v = one(c);
        assert_eq!(v.impact, Impact::DataLoss);
        has_line(&v, "holds data: replacing it loses the data it holds");
        has_line(&v, "`size_gb` forces replacement: 20 → 10");
    }
}

#[test]
fn forget_costs_nothing_and_is_a_fact() {
    let v = one(change("fakecloud_volume.ledger", Action::Forget));
    assert_eq!(v.impact, Impact::None);
    assert_eq!(v.facts, [Fact::Forget]);
    has_line(
        &v,
        "forget: the object is removed from state but left running",
    );

    let v = one(change("fakecloud_instance.web", Action::CreateThenForget));
    assert_eq!(v.impact, Impact::Free);
    assert_eq!(v.facts, [Fact::Forget]);
}

#[test]
fn import_and_move_are_facts() {
    let v = one(importing(
        change("fakecloud_network.n", Action::NoOp),
        "net-1",
    ));
    assert_eq!(v.impact, Impact::None);
    assert_eq!(
        v.facts,
        [Fact::Import {
            id: Some("net-1".into())
        }]
    );
    has_line(
        &v,
        "import: the existing object `net-1` is brought under management",
    );

    let mut c = change("fakecloud_network.new", Action::NoOp);
    c.previous_address = Some("fakecloud_network.old".into());
    let v = one(c);
    assert_eq!(v.impact, Impact::None);
    assert_eq!(
        v.facts,
        [Fact::Move {
            from: "fakecloud_network.old".into()
        }]
    );
    // An import with an update still costs the update.
    let v = one(importing(
        with_attrs(
            change("fakecloud_instance.web", Action::Update),
            vec![attr("size", s("small"), s("large"))],
        ),
        "i-9",
    ));
    assert_eq!(v.impact, Impact::Interrupt);
}

#[test]
fn a_deposed_data_holding_object_deleted_is_still_data_loss() {
    let mut c = change("fakecloud_volume.ledger", Action::Delete);
    c.deposed = Some("a1b2c3d4".into());
    let v = one(c);
    assert_eq!(v.impact, Impact::DataLoss);
    assert_eq!(v.deposed.as_deref(), Some("a1b2c3d4"));
    assert_eq!(
        v.facts,
        [Fact::Deposed {
            key: "a1b2c3d4".into()
        }]
    );
    has_line(&v, "deposed object a1b2c3d4");
}

#[test]
fn data_sources_are_never_gated() {
    let mut c = change("data.unknown_thing.x", Action::Read);
    c.mode = Mode::Data;
    c.type_name = "unknown_thing".into();
    c.action_reason = Some("read_because_config_unknown".into());
    let a = assess(&plan(vec![c]), &fakecloud(), &Options::default());
    let v = &a.verdicts[0];
    assert_eq!(v.impact, Impact::None);
    assert!(v.classified);
    has_line(v, "data source");
    has_line(v, "Terraform: read_because_config_unknown — ");
    assert!(a.coverage.unclassified.is_empty());
    assert_eq!(a.coverage.types_checked, 0);
    assert!(!a.coverage.fails());
}

#[test]
fn unclassified_types_fail_the_gate_by_name() {
    let c = change("mystery_thing.x", Action::Update);
    let mut p = plan(vec![c, change("fakecloud_instance.web", Action::NoOp)]);
    p.state_types.insert(TypeRef {
        mode: Mode::Managed,
        type_name: "old_thing".into(),
        provider: Some("registry.terraform.io/acme/old".into()),
    });
    p.state_types.insert(TypeRef {
        mode: Mode::Managed,
        type_name: "mystery_thing".into(),
        provider: None,
    });
    p.configured_types.insert(TypeRef {
        mode: Mode::Data,
        type_name: "data_only_thing".into(),
        provider: None,
    });
    let a = assess(&p, &fakecloud(), &Options::default());
    let v = a
        .verdicts
        .iter()
        .find(|v| v.address == "mystery_thing.x")
        .unwrap();
    assert!(!v.classified);
    assert_eq!(v.impact, Impact::None);
    has_line(v, "unclassified: no rule covers `mystery_thing`");
    let listed: Vec<(&str, Vec<&str>)> = a
        .coverage
        .unclassified
        .iter()
        .map(|(t, w)| (t.as_str(), w.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                "mystery_thing",
                vec!["configuration", "prior_state", "resource_changes"]
            ),
            ("old_thing", vec!["prior_state"]),
        ]
    );
    assert_eq!(a.coverage.types_checked, 3);
    assert!(a.coverage.fails());
    assert!(!a.coverage.relaxed);

    let relaxed = assess(
        &p,
        &fakecloud(),
        &Options {
            allow_unclassified: true,
        },
    );
    assert!(relaxed.coverage.relaxed);
    assert!(!relaxed.coverage.fails());
    assert_eq!(relaxed.coverage.unclassified.len(), 2);
}

#[test]
fn user_rules_win_and_the_verdict_names_them() {
    let k = ward_rig::rules::knowledge_under(
        "ward.hcl",
        r#"
resource "fakecloud_volume" {
  attribute "size_gb" {
    impact = "interrupt"
    why    = "The ledger service is restarted to see the new size."
  }
}

resource "fakecloud_volume" {
  address    = "module.scratch.*"
  holds_data = false
}
"#,
    )
    .unwrap();
    let grow = |address: &str| {
        with_attrs(
            change(address, Action::Update),
            vec![attr("size_gb", known(json!(10)), known(json!(20)))],
        )
    };
    let p = plan(vec![
        grow("fakecloud_volume.ledger"),
        change("module.scratch.fakecloud_volume.tmp", Action::Delete),
        change("fakecloud_volume.other", Action::Delete),
    ]);
    let a = assess(&p, &k, &Options::default());
    let by = |addr: &str| a.verdicts.iter().find(|v| v.address == addr).unwrap();
    let ledger = by("fakecloud_volume.ledger");
    assert_eq!(ledger.impact, Impact::Interrupt);
    assert_eq!(
        ledger.decided_by.as_ref().unwrap().to_string(),
        "ward.hcl:2:fakecloud_volume[size_gb]"
    );
    // The address glob beats the pack (and the type-only user rule) inside module.scratch...
    let tmp = by("module.scratch.fakecloud_volume.tmp");
    assert_eq!(tmp.impact, Impact::Replace);
    assert!(!tmp.holds_data);
    // ...where the delete cost itself is the default, cited as the pack entry's.
    assert_eq!(
        tmp.decided_by.as_ref().unwrap().to_string(),
        "examples/rules/fakecloud.hcl:40:fakecloud_volume"
    );
    // ...and nowhere else.
    let other = by("fakecloud_volume.other");
    assert_eq!(other.impact, Impact::DataLoss);
    assert_eq!(
        other.decided_by.as_ref().unwrap().to_string(),
        "examples/rules/fakecloud.hcl:40:fakecloud_volume"
    );
    assert_eq!(
        a.knowledge.user_files,
        ["ward.hcl", "examples/rules/fakecloud.hcl"]
    );
}

#[test]
fn an_in_place_update_that_recreates_a_data_holder_is_data_loss() {
    let k = ward_rig::rules::knowledge_under(
        "ward.hcl",
        "resource \"fakecloud_volume\" {\n  attribute \"name\" {\n    impact = \"replace\"\n    why = \"our volume driver recreates on rename\"\n  }\n}\n",
    )
    .unwrap();
    let c = with_attrs(
        change("fakecloud_volume.ledger", Action::Update),
        vec![attr("name", s("a"), s("b"))],
    );
    let a = assess(&plan(vec![c]), &k, &Options::default());
    assert_eq!(a.verdicts[0].impact, Impact::DataLoss);
    has_line(&a.verdicts[0], "holds data: `name` recreates the object");
}

#[test]
fn verdicts_are_sorted_and_deterministic() {
    let mut dep = change("fakecloud_volume.a", Action::Delete);
    dep.deposed = Some("00000002".into());
    let changes = vec![
        change("fakecloud_volume.b", Action::Create),
        dep,
        change("fakecloud_volume.a", Action::NoOp),
        change("fakecloud_instance.z", Action::Create),
    ];
    let a1 = assess(&plan(changes.clone()), &fakecloud(), &Options::default());
    let order: Vec<(String, Option<String>)> = a1
        .verdicts
        .iter()
        .map(|v| (v.address.clone(), v.deposed.clone()))
        .collect();
    assert_eq!(
        order,
        [
            ("fakecloud_instance.z".to_string(), None),
            ("fakecloud_volume.a".to_string(), None),
            (
                "fakecloud_volume.a".to_string(),
                Some("00000002".to_string())
            ),
            ("fakecloud_volume.b".to_string(), None),
        ]
    );
    let mut rev = changes;
    rev.reverse();
    let a2 = assess(&plan(rev), &fakecloud(), &Options::default());
    assert_eq!(
        serde_json::to_string(&a1).unwrap(),
        serde_json::to_string(&a2).unwrap()
    );
}

#[test]
fn drift_is_classified_as_context() {
    let mut p = plan(vec![]);
    p.drift = vec![with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![attr("size", s("small"), s("large"))],
    )];
    let a: Assessment = assess(&p, &fakecloud(), &Options::default());
    assert!(a.verdicts.is_empty());
    assert_eq!(a.drift[0].impact, Impact::Interrupt);
    assert_eq!(
        a.drift[0].explanation[0],
        "drift: changed outside Terraform since the last apply"
    );
    assert_eq!(a.max_impact(), Impact::None);
}

#[test]
fn every_reason_is_put_in_words_and_unknown_ones_verbatim() {
    for (action, reason) in [
        (Action::ReplaceDeleteFirst, "replace_because_tainted"),
        (Action::ReplaceDeleteFirst, "replace_by_request"),
        (Action::ReplaceCreateFirst, "replace_by_triggers"),
        (Action::Delete, "delete_because_wrong_repetition"),
        (Action::Delete, "delete_because_count_index"),
        (Action::Delete, "delete_because_each_key"),
        (Action::Delete, "delete_because_no_module"),
        (Action::Delete, "delete_because_no_move_target"),
        (Action::Read, "read_because_dependency_pending"),
        (Action::Read, "read_because_check_nested"),
    ] {
        let mut c = change("fakecloud_network.n", action);
        c.action_reason = Some(reason.into());
        let v = one(c);
        has_line(&v, &format!("Terraform: {reason} — "));
    }
    let mut c = change("fakecloud_network.n", Action::Delete);
    c.action_reason = Some("delete_because_the_moon".into());
    let v = one(c);
    assert!(v
        .explanation
        .contains(&"Terraform: delete_because_the_moon".to_string()));

    let mut c = change("fakecloud_network.n", Action::Delete);
    c.action_reason = Some("delete_because_count_index".into());
    let mut p = plan(vec![c]);
    p.product = Product::OpenTofu;
    let a = assess(&p, &fakecloud(), &Options::default());
    has_line(&a.verdicts[0], "OpenTofu: delete_because_count_index — ");
}

#[test]
fn the_assessment_names_the_knowledge() {
    let a = assess(&plan(vec![]), &fakecloud(), &Options::default());
    // fakecloud's rules are a user rule file, not a pack.
    assert!(a.knowledge.packs.is_empty());
    assert_eq!(a.knowledge.user_files, ["examples/rules/fakecloud.hcl"]);
    let _: BTreeSet<u8> = BTreeSet::new();
}

#[test]
fn the_builtin_knowledge_classifies_the_starter_types() {
    let k = ward_rules::Knowledge::builtin().unwrap();
    let mut changes = Vec::new();
    for (t, provider) in [
        ("null_resource", "registry.terraform.io/hashicorp/null"),
        ("random_password", "registry.terraform.io/hashicorp/random"),
        ("terraform_data", "terraform.io/builtin/terraform"),
        ("local_file", "registry.opentofu.org/hashicorp/local"),
        ("tls_private_key", "registry.terraform.io/hashicorp/tls"),
        ("time_sleep", "registry.terraform.io/hashicorp/time"),
    ] {
        let mut c = change(&format!("{t}.x"), Action::Delete);
        c.provider_name = provider.into();
        changes.push(c);
    }
    let a = assess(&plan(changes), &k, &Options::default());
    assert!(a.coverage.unclassified.is_empty(), "{:?}", a.coverage);
    let imp: Vec<(&str, Impact)> = a
        .verdicts
        .iter()
        .map(|v| (&*v.type_name, v.impact))
        .collect();
    assert_eq!(
        imp,
        [
            ("local_file", Impact::Replace),
            ("null_resource", Impact::Free),
            ("random_password", Impact::Free),
            ("terraform_data", Impact::Free),
            ("time_sleep", Impact::Free),
            ("tls_private_key", Impact::DataLoss),
        ]
    );
}

#[test]
fn an_update_names_the_identity_attributes_it_changes() {
    let k = ward_rig::rules::knowledge_under(
        "ward.hcl",
        "resource \"fakecloud_instance\" {\n  attribute \"ip\" {\n    impact = \"interrupt\"\n    why = \"re-addressed live\"\n  }\n}\n",
    )
    .unwrap();
    let c = with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![
            attr("ip", s("10.0.0.5"), s("10.0.0.6")),
            attr("name", s("a"), s("b")),
        ],
    );
    let a = assess(&plan(vec![c]), &k, &Options::default());
    let v = &a.verdicts[0];
    assert_eq!(v.impact, Impact::Interrupt);
    let ids: Vec<String> = v.identity_changes.iter().map(|p| p.to_string()).collect();
    assert_eq!(ids, ["ip"]);
    has_line(v, "identity changes: ip");
    has_line(v, "`ip` costs interrupt: \"10.0.0.5\" → \"10.0.0.6\" — re-addressed live (per ward.hcl:1:fakecloud_instance[ip])");
}
