//! The explanation lines at their edges: the worst attribute among equals, what forces a
//! replacement (one path, nested paths, many), new identity values, final snapshots, removed
//! access, the diff of an unclassified change, rationale and identity-lost lines, drift. Each
//! test pins a boundary a mutation of the classifier crosses (docs/testing.md, "Mutation
//! testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use serde_json::{json, Value};
use ward_classify::{assess, explain, Options, Verdict};
use ward_model::{Action, Impact, ResourceChange, Shown};
use ward_rules::Knowledge;

/// Rules for made-up types, each with the one question its tests need.
const RULES: &str = r#"resource "t_db" {
  rationale           = "Holds the ledger."
  holds_data          = true
  identity            = ["id", "arn"]
  final_snapshot_skip = "skip_final_snapshot"
  final_snapshot_name = "final_snapshot_identifier"
}

resource "t_name_only" {
  final_snapshot_name = "final_snapshot_identifier"
}

resource "t_skip_only" {
  final_snapshot_skip = "skip_final_snapshot"
}

resource "t_fw" {
  identity      = ["arn"]
  access_rules  = ["ingress"]
  grants_access = true
}

resource "t_cheap" {
  rationale = "Scratch."
  identity  = ["id"]
  on_create = "interrupt"
  on_delete = "free"
}

resource "t_noid" {
  identity = []
}

resource "t_flag" {
  identity = ["enabled", "empty"]
}
"#;

fn knowledge() -> Knowledge {
    let mut k = Knowledge::empty();
    k.load_user_str("t.hcl", RULES).unwrap();
    k
}

fn one_with(k: &Knowledge, c: ResourceChange) -> Verdict {
    let a = assess(&plan(vec![c]), k, &Options::default());
    assert_eq!(a.verdicts.len(), 1);
    a.verdicts.into_iter().next().unwrap()
}

fn one(c: ResourceChange) -> Verdict {
    one_with(&fakecloud(), c)
}

fn t(c: ResourceChange) -> Verdict {
    one_with(&knowledge(), c)
}

fn lines_with<'v>(v: &'v Verdict, needle: &str) -> Vec<&'v str> {
    v.explanation
        .iter()
        .filter(|l| l.contains(needle))
        .map(String::as_str)
        .collect()
}

fn has(v: &Verdict, line: &str) {
    assert!(
        v.explanation.iter().any(|l| l == line),
        "no line {line:?} in {:#?}",
        v.explanation
    );
}

fn lacks(v: &Verdict, needle: &str) {
    assert!(
        lines_with(v, needle).is_empty(),
        "a line containing {needle:?} in {:#?}",
        v.explanation
    );
}

fn with_before(mut c: ResourceChange, before: &[(&str, Value)]) -> ResourceChange {
    c.before_scalars = before
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    c
}

#[test]
fn the_first_of_equally_costly_attributes_decides() {
    // admin_password and name both cost in-place; admin_password comes first in path order.
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![
            attr("name", s("a"), s("b")),
            attr("admin_password", Shown::Sensitive, Shown::Sensitive),
        ],
    ));
    assert_eq!(v.impact, Impact::InPlace);
    assert_eq!(
        v.decided_by.as_ref().unwrap().attribute.as_deref(),
        Some("admin_password")
    );
}

#[test]
fn a_recreating_update_of_a_data_holder_names_the_first_worst_attribute() {
    let k = ward_rig::rules::knowledge_under(
        "ward.hcl",
        "resource \"fakecloud_volume\" {\n  attribute \"name\" {\n    impact = \"replace\"\n  }\n  attribute \"size_gb\" {\n    impact = \"replace\"\n  }\n}\n",
    )
    .unwrap();
    let v = one_with(
        &k,
        with_attrs(
            change("fakecloud_volume.ledger", Action::Update),
            vec![
                attr("size_gb", known(json!(10)), known(json!(20))),
                attr("name", s("a"), s("b")),
            ],
        ),
    );
    assert_eq!(v.impact, Impact::DataLoss);
    assert_eq!(
        lines_with(&v, "holds data: `name` recreates the object").len(),
        1
    );
    lacks(&v, "holds data: `size_gb`");
}

#[test]
fn an_identity_attribute_updated_in_place_costs_on_update() {
    // `mac` is identity, but no attribute entry names it: on an update it costs on_update, not
    // replace (only a replacement gives it a new value as the new object's identity).
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![attr("mac", s("aa"), s("bb"))],
    ));
    assert_eq!(v.impact, Impact::InPlace);
    assert!(v.attributes[0].why.is_none());
    let ids: Vec<String> = v.identity_changes.iter().map(|p| p.to_string()).collect();
    assert_eq!(ids, ["mac"]);
}

#[test]
fn an_unnamed_attribute_of_a_replacement_costs_on_update() {
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::ReplaceDeleteFirst),
        vec![
            attr("user_data", s("a"), s("b")),
            attr("id", s("i-1"), Shown::Unknown),
        ],
    ));
    let by = |p: &str| {
        v.attributes
            .iter()
            .find(|a| a.change.path.to_string() == p)
            .unwrap()
    };
    assert_eq!(by("user_data").impact, Impact::InPlace);
    assert!(by("user_data").why.is_none());
    assert_eq!(by("id").impact, Impact::Replace);
    assert_eq!(
        by("id").why.as_deref(),
        Some("identity: the replacement object gets a new value")
    );
}

#[test]
fn a_forcing_attribute_as_costly_as_the_replacement_keeps_its_own_rule() {
    let v = one(replaced_by(
        with_attrs(
            change("fakecloud_instance.web", Action::ReplaceDeleteFirst),
            vec![
                attr("image", s("debian-12"), s("debian-13")),
                attr("size", s("small"), s("large")),
            ],
        ),
        &["image", "size"],
        "replace_because_cannot_update",
    ));
    assert_eq!(v.impact, Impact::Replace);
    let by = |p: &str| {
        v.attributes
            .iter()
            .find(|a| a.change.path.to_string() == p)
            .unwrap()
    };
    let image = by("image");
    assert_eq!(image.impact, Impact::Replace);
    assert_eq!(
        image.rule.as_ref().unwrap().attribute.as_deref(),
        Some("image")
    );
    assert_eq!(
        image.why.as_deref(),
        Some("A new boot image means a new instance: new id, ip and mac.")
    );
    // A cheaper forcing attribute is raised to the replacement's cost, and says so.
    let size = by("size");
    assert_eq!(size.impact, Impact::Replace);
    assert_eq!(size.rule, v.decided_by);
    assert_eq!(
        size.why.as_deref(),
        Some("forces replacement, which costs replace; The instance is restarted to change its size.")
    );
}

#[test]
fn a_forcing_path_lists_what_changed_under_it() {
    let c = replaced_by(
        with_attrs(
            change("fakecloud_network.n", Action::ReplaceDeleteFirst),
            vec![
                attr("subnet.0.cidr", s("10.0.0.0/24"), s("10.0.1.0/24")),
                attr("route.0.via", s("a"), s("b")),
                attr("route.1.via", s("c"), s("d")),
                attr("rule.0.port", known(json!(1)), known(json!(2))),
                attr("rule.1.port", known(json!(3)), known(json!(4))),
                attr("rule.2.port", known(json!(5)), known(json!(6))),
                attr("rule.3.port", known(json!(7)), known(json!(8))),
                attr("rule.4.port", known(json!(9)), known(json!(10))),
                attr("mtu", known(json!(1500)), known(json!(9000))),
            ],
        ),
        &["subnet", "route", "rule", "mtu", "zone"],
        "replace_because_cannot_update",
    );
    let v = one(c);
    // One change under the path, at a deeper path: named with its own path.
    has(
        &v,
        "`subnet` forces replacement (subnet[0].cidr: \"10.0.0.0/24\" → \"10.0.1.0/24\")",
    );
    // Two: both, with no "and 0 more".
    has(
        &v,
        "`route` forces replacement (route[0].via: \"a\" → \"b\"; route[1].via: \"c\" → \"d\")",
    );
    // Five: three, and how many more.
    has(
        &v,
        "`rule` forces replacement (rule[0].port: 1 → 2; rule[1].port: 3 → 4; rule[2].port: 5 → 6; and 2 more)",
    );
    // The path itself changed.
    has(&v, "`mtu` forces replacement: 1500 → 9000");
    // Nothing changed under it.
    has(&v, "`zone` forces replacement");
    // The attributes under a forcing path force the replacement.
    for a in &v.attributes {
        assert!(a.forces_replacement, "{}", a.change.path);
    }
}

#[test]
fn a_change_forces_replacement_when_it_holds_the_forcing_path() {
    // The change is a whole list, the forcing path one of its insides.
    let v = one(replaced_by(
        with_attrs(
            change("fakecloud_network.n", Action::ReplaceDeleteFirst),
            vec![
                attr("subnet", known(json!(["a"])), known(json!(["b"]))),
                attr("description", s("x"), s("y")),
            ],
        ),
        &["subnet.0.cidr"],
        "replace_because_cannot_update",
    ));
    let forcing: Vec<(String, bool)> = v
        .attributes
        .iter()
        .map(|a| (a.change.path.to_string(), a.forces_replacement))
        .collect();
    assert_eq!(
        forcing,
        [
            ("description".to_string(), false),
            ("subnet".to_string(), true)
        ]
    );
    has(
        &v,
        "`subnet[0].cidr` forces replacement (subnet: [\"a\"] → [\"b\"])",
    );
}

#[test]
fn a_replacement_names_the_identity_values_the_plan_already_knows() {
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::ReplaceCreateFirst),
        vec![
            attr("id", s("i-1"), Shown::Unknown),
            attr("ip", s("10.0.0.5"), s("10.0.0.9")),
            attr("name", s("a"), s("b")),
        ],
    ));
    has(&v, "new identity: id, mac will be known only after apply");
    has(&v, "new identity values: ip: \"10.0.0.5\" → \"10.0.0.9\"");

    // Every identity value known: no "known only after apply" line.
    let v = one(with_attrs(
        change("fakecloud_network.n", Action::ReplaceDeleteFirst),
        vec![attr("id", s("net-1"), s("net-2"))],
    ));
    lacks(&v, "new identity:");
    has(&v, "new identity values: id: \"net-1\" → \"net-2\"");

    // None known: no "new identity values" line.
    let v = one(change("fakecloud_network.n", Action::ReplaceDeleteFirst));
    has(&v, "new identity: id will be known only after apply");
    lacks(&v, "new identity values");
}

#[test]
fn a_destroyed_object_is_named_by_its_last_identity_values() {
    let before = [
        ("arn", json!("arn:db:1")),
        ("empty", json!("")),
        ("enabled", json!(true)),
        ("id", json!("db-1")),
        ("port", json!(5432)),
        ("size", json!("large")),
    ];
    // `id` always counts; arn is identity; size is not; numbers and empty strings never.
    let v = t(with_before(change("t_db.a", Action::Delete), &before));
    assert_eq!(v.destroyed_object.as_deref(), Some("arn=arn:db:1; id=db-1"));
    // t_fw's identity is only arn: id still counts.
    let v = t(with_before(
        change("t_fw.a", Action::ReplaceCreateFirst),
        &before,
    ));
    assert_eq!(v.destroyed_object.as_deref(), Some("arn=arn:db:1; id=db-1"));
    // A boolean identity value counts, an empty string does not.
    let v = t(with_before(change("t_flag.a", Action::Delete), &before));
    assert_eq!(v.destroyed_object.as_deref(), Some("enabled=true; id=db-1"));
    // Nothing identifies it: none.
    let v = t(with_before(
        change("t_db.a", Action::Delete),
        &[("port", json!(5432)), ("id", json!(""))],
    ));
    assert_eq!(v.destroyed_object, None);
    let v = t(change("t_db.a", Action::Delete));
    assert_eq!(v.destroyed_object, None);
    // Not destroyed: none.
    let v = t(with_before(change("t_db.a", Action::Update), &before));
    assert_eq!(v.destroyed_object, None);
}

#[test]
fn a_delete_says_whether_a_final_snapshot_is_taken() {
    let del = |ty: &str, before: &[(&str, Value)]| {
        t(with_before(
            change(&format!("{ty}.a"), Action::Delete),
            before,
        ))
    };
    let only_line = |v: &Verdict| -> String {
        let l = lines_with(v, "snapshot");
        assert_eq!(l.len(), 1, "{:#?}", v.explanation);
        l[0].to_string()
    };
    let v = del(
        "t_db",
        &[
            ("final_snapshot_identifier", json!("last")),
            ("skip_final_snapshot", json!(true)),
        ],
    );
    assert_eq!(
        only_line(&v),
        "no final snapshot: `skip_final_snapshot` is true, so nothing is kept of the data (per t.hcl:1:t_db)"
    );
    let v = del(
        "t_db",
        &[
            ("final_snapshot_identifier", json!("last")),
            ("skip_final_snapshot", json!(false)),
        ],
    );
    assert_eq!(
        only_line(&v),
        "a final snapshot is taken before destroy: `skip_final_snapshot` is false, `final_snapshot_identifier` = \"last\" (per t.hcl:1:t_db)"
    );
    for name in [json!(""), json!(7)] {
        let v = del(
            "t_db",
            &[
                ("final_snapshot_identifier", name),
                ("skip_final_snapshot", json!(false)),
            ],
        );
        assert_eq!(
            only_line(&v),
            "a final snapshot is requested (`skip_final_snapshot` is false) but `final_snapshot_identifier` is not set: the provider may refuse the destroy (per t.hcl:1:t_db)"
        );
    }
    let v = del("t_db", &[("final_snapshot_identifier", json!("last"))]);
    assert_eq!(
        only_line(&v),
        "final snapshot unknown: the plan has no known value for `skip_final_snapshot` (per t.hcl:1:t_db)"
    );

    let v = del(
        "t_name_only",
        &[("final_snapshot_identifier", json!("last"))],
    );
    assert_eq!(
        only_line(&v),
        "a final snapshot is taken before destroy: `final_snapshot_identifier` = \"last\" (per t.hcl:9:t_name_only)"
    );
    let v = del("t_name_only", &[("id", json!("x"))]);
    assert_eq!(
        only_line(&v),
        "no final snapshot: `final_snapshot_identifier` is not set (per t.hcl:9:t_name_only)"
    );
    let v = del("t_skip_only", &[("skip_final_snapshot", json!(false))]);
    assert_eq!(
        only_line(&v),
        "a final snapshot is taken before destroy: `skip_final_snapshot` is false (per t.hcl:13:t_skip_only)"
    );
    // A type whose rule names neither: no line.
    let v = t(with_before(
        change("t_fw.a", Action::Delete),
        &[("skip_final_snapshot", json!(true))],
    ));
    lacks(&v, "snapshot");
}

#[test]
fn destroying_what_grants_access_says_how_the_access_ends() {
    let v = t(change("t_fw.a", Action::Delete));
    has(
        &v,
        "removes access: the access it grants stops (per t.hcl:17:t_fw)",
    );
    let v = t(change("t_fw.a", Action::ReplaceDeleteFirst));
    has(
        &v,
        "removes access: the access it grants stops until the new rule is created (per t.hcl:17:t_fw)",
    );
    let v = t(change("t_fw.a", Action::ReplaceCreateFirst));
    has(
        &v,
        "removes access: the access it grants is replaced by the new rule's (check that the new rule allows the same) (per t.hcl:17:t_fw)",
    );
    let v = t(change("t_db.a", Action::Delete));
    lacks(&v, "removes access");
}

#[test]
fn removed_access_rules_are_named_entry_by_entry() {
    let gone = |p: &str| attr(p, known(json!(22)), Shown::Absent);
    // Leaves of ingress.0 and ingress.2 gone (two leaves of ingress.0: one entry); a leaf of
    // ingress.1 changed, not gone; egress is not an access list here.
    let v = t(with_attrs(
        change("t_fw.a", Action::Update),
        vec![
            gone("ingress.0.from_port"),
            attr("ingress.0.to_port", Shown::Sensitive, Shown::Absent),
            attr("ingress.1.from_port", known(json!(22)), known(json!(23))),
            attr("ingress.2.cidr", Shown::Unknown, Shown::Absent),
            gone("ingress.3.to_port"),
            gone("egress.0.from_port"),
        ],
    ));
    let l = lines_with(&v, "removes access");
    assert_eq!(
        l,
        ["removes access: 2 rule(s) removed from `ingress`: `ingress[0]`, `ingress[3]` (per t.hcl:17:t_fw)"]
    );

    // More than five: five, and how many more.
    let leaves: Vec<_> = (0..7).map(|i| gone(&format!("ingress.{i}.port"))).collect();
    let v = t(with_attrs(change("t_fw.a", Action::Update), leaves));
    assert_eq!(
        lines_with(&v, "removes access"),
        ["removes access: 7 rule(s) removed from `ingress`: `ingress[0]`, `ingress[1]`, `ingress[2]`, `ingress[3]`, `ingress[4]` and 2 more (per t.hcl:17:t_fw)"]
    );
    let leaves: Vec<_> = (0..5).map(|i| gone(&format!("ingress.{i}.port"))).collect();
    let v = t(with_attrs(change("t_fw.a", Action::Update), leaves));
    assert_eq!(
        lines_with(&v, "removes access"),
        ["removes access: 5 rule(s) removed from `ingress`: `ingress[0]`, `ingress[1]`, `ingress[2]`, `ingress[3]`, `ingress[4]` (per t.hcl:17:t_fw)"]
    );

    // Nothing removed: no line.
    let v = t(with_attrs(
        change("t_fw.a", Action::Update),
        vec![
            attr("ingress.0.from_port", known(json!(22)), known(json!(23))),
            gone("egress.0.from_port"),
        ],
    ));
    lacks(&v, "removes access");
}

#[test]
fn a_shrunk_access_list_names_the_entries_it_lost() {
    let list = |xs: &[i64]| known(json!(xs));
    let v = t(with_attrs(
        change("t_fw.a", Action::ReplaceDeleteFirst),
        vec![attr("ingress", list(&[1, 2, 3]), list(&[2]))],
    ));
    assert_eq!(
        lines_with(&v, "rule(s) removed"),
        ["removes access: 2 rule(s) removed from `ingress`: 1; 3 (per t.hcl:17:t_fw)"]
    );
    let v = t(with_attrs(
        change("t_fw.a", Action::Update),
        vec![attr("ingress", list(&[1, 2, 3, 4, 5, 6, 7, 8]), list(&[8]))],
    ));
    assert_eq!(
        lines_with(&v, "removes access"),
        ["removes access: 7 rule(s) removed from `ingress`: 1; 2; 3; 4; 5; and 2 more (per t.hcl:17:t_fw)"]
    );
    let v = t(with_attrs(
        change("t_fw.a", Action::Update),
        vec![attr("ingress", list(&[1, 2, 3, 4, 5, 6]), list(&[6]))],
    ));
    assert_eq!(
        lines_with(&v, "removes access"),
        ["removes access: 5 rule(s) removed from `ingress`: 1; 2; 3; 4; 5 (per t.hcl:17:t_fw)"]
    );
    // Grown, or shrunk only by a duplicate: nothing lost.
    for (b, a) in [(&[1][..], &[1, 2][..]), (&[1, 1][..], &[1][..])] {
        let v = t(with_attrs(
            change("t_fw.a", Action::Update),
            vec![attr("ingress", list(b), list(a))],
        ));
        lacks(&v, "removes access");
    }
}

#[test]
fn an_emptied_access_list_says_its_entries_are_removed() {
    for after in [Shown::Absent, known(json!([]))] {
        let v = t(with_attrs(
            change("t_fw.a", Action::Update),
            vec![attr("ingress", known(json!([])), after.clone())],
        ));
        if after == Shown::Absent {
            assert_eq!(
                lines_with(&v, "removes access"),
                ["removes access: entries of `ingress` are removed (per t.hcl:17:t_fw)"]
            );
        } else {
            lacks(&v, "removes access");
        }
    }
    // A whole list gone beside an entry gone: the entry is named, not "entries".
    let v = t(with_attrs(
        change("t_fw.a", Action::Update),
        vec![
            attr("ingress", known(json!({"x": 1})), Shown::Absent),
            attr("ingress.4.port", known(json!(1)), Shown::Absent),
        ],
    ));
    assert_eq!(
        lines_with(&v, "removes access"),
        ["removes access: 1 rule(s) removed from `ingress`: `ingress[4]` (per t.hcl:17:t_fw)"]
    );
    // A whole list that changed without losing an entry, nor gone: no line.
    let v = t(with_attrs(
        change("t_fw.a", Action::Update),
        vec![attr(
            "ingress",
            known(json!({"x": 1})),
            known(json!({"x": 2})),
        )],
    ));
    lacks(&v, "removes access");
}

#[test]
fn an_unclassified_change_lists_twenty_changed_attributes() {
    let attrs = |n: usize| -> Vec<_> {
        (0..n)
            .map(|i| attr(&format!("a{i:02}"), known(json!(i)), known(json!(i + 1))))
            .collect()
    };
    let v = one(replaced_by(
        with_attrs(change("mystery_thing.x", Action::Update), attrs(20)),
        &["a03"],
        "replace_because_cannot_update",
    ));
    assert!(!v.classified);
    assert_eq!(lines_with(&v, "changed `").len(), 20);
    has(&v, "changed `a03`: 3 → 4 (forces replacement)");
    has(&v, "changed `a04`: 4 → 5");
    lacks(&v, "more changed attribute(s)");
    let v = one(with_attrs(
        change("mystery_thing.x", Action::Update),
        attrs(22),
    ));
    assert_eq!(lines_with(&v, "changed `").len(), 20);
    has(&v, "and 2 more changed attribute(s)");
}

#[test]
fn a_costly_create_says_so_and_a_free_one_does_not() {
    let v = t(change("t_cheap.a", Action::Create));
    assert_eq!(v.impact, Impact::Interrupt);
    assert_eq!(
        lines_with(&v, "creating it costs"),
        ["creating it costs interrupt: ".to_string()
            + Impact::Interrupt.meaning()
            + " (per t.hcl:23:t_cheap)"]
    );
    has(&v, "rule rationale: Scratch.");
    let v = one(change("fakecloud_instance.web", Action::Create));
    assert_eq!(v.impact, Impact::Free);
    lacks(&v, "creating it costs");
    lacks(&v, "rule rationale");
}

#[test]
fn the_rationale_is_given_for_a_type_level_decision_that_costs_something() {
    // Decided by the type's rule (delete): the rationale is given.
    let v = one(change("fakecloud_instance.web", Action::Delete));
    has(
        &v,
        "rule rationale: A size change restarts the instance in place; image or network changes replace it with a new id, ip and mac.",
    );
    // Decided by an attribute entry: its `why` is given, not the rationale.
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![attr("size", s("small"), s("large"))],
    ));
    lacks(&v, "rule rationale");
    // Free: no rationale.
    let v = t(change("t_cheap.a", Action::Delete));
    assert_eq!(v.impact, Impact::Free);
    lacks(&v, "rule rationale");
}

#[test]
fn identity_lost_is_said_only_for_a_costly_delete_of_an_identified_object() {
    let v = t(change("t_cheap.a", Action::Delete));
    assert_eq!(v.impact, Impact::Free);
    lacks(&v, "identity lost");
    let v = t(change("t_noid.a", Action::Delete));
    assert_eq!(v.impact, Impact::Replace);
    assert!(v.identity_changes.is_empty());
    lacks(&v, "identity lost");
    let v = t(change("t_fw.a", Action::Delete));
    has(&v, "identity lost: arn will no longer exist");
}

#[test]
fn every_free_attribute_or_none_free_says_no_count_of_free_changes() {
    // Only free changes: the update is free, and there is no "more ... cost nothing" line.
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![attr("tags.env", s("dev"), s("prod"))],
    ));
    assert_eq!(v.impact, Impact::Free);
    lacks(&v, "cost nothing");
    // No free change: no "0 more" line.
    let v = one(with_attrs(
        change("fakecloud_instance.web", Action::Update),
        vec![attr("size", s("small"), s("large"))],
    ));
    lacks(&v, "cost nothing");
}

#[test]
fn drift_says_how_the_object_changed_outside_terraform() {
    let mut p = plan(vec![]);
    p.configured_types.insert(ward_model::TypeRef {
        mode: ward_model::Mode::Managed,
        type_name: "mystery_thing".into(),
        provider: None,
    });
    p.drift = vec![
        change("fakecloud_instance.gone", Action::Delete),
        change("fakecloud_instance.new", Action::Create),
        with_attrs(
            change("mystery_thing.x", Action::Update),
            vec![attr("a", s("1"), s("2"))],
        ),
    ];
    let a = assess(&p, &fakecloud(), &Options::default());
    let by = |addr: &str| a.drift.iter().find(|v| v.address == addr).unwrap();
    assert_eq!(
        by("fakecloud_instance.gone").explanation[0],
        "drift: deleted outside Terraform since the last apply"
    );
    assert_eq!(
        by("fakecloud_instance.new").explanation[0],
        "drift: found outside Terraform since the last apply"
    );
    // An unclassified drifted object: no action line (apply does not do it), and it is not what
    // the coverage suggestion shows.
    let m = by("mystery_thing.x");
    assert!(!m.classified);
    lacks(m, "will be updated in place");
    has(m, "changed `a`: \"1\" → \"2\"");
    assert!(
        a.coverage.suggestions["mystery_thing"].starts_with("# seen in configuration\nresource")
    );
}

#[test]
fn a_value_is_cut_only_past_the_limit() {
    // A JSON string of n characters prints as n + 2 (its quotes).
    let exactly = Shown::Known(json!("x".repeat(explain::MAX_VALUE_CHARS - 2)));
    assert_eq!(
        explain::value(&exactly).chars().count(),
        explain::MAX_VALUE_CHARS
    );
    assert!(!explain::value(&exactly).ends_with('…'));
    let over = Shown::Known(json!("x".repeat(explain::MAX_VALUE_CHARS - 1)));
    let v = explain::value(&over);
    assert!(v.ends_with('…'));
    assert_eq!(v.chars().count(), explain::MAX_VALUE_CHARS + 1);
}

#[test]
fn the_worst_impact_is_the_plans_impact() {
    let a = assess(
        &plan(vec![
            change("fakecloud_instance.web", Action::Create),
            change("fakecloud_volume.ledger", Action::Delete),
        ]),
        &fakecloud(),
        &Options::default(),
    );
    assert_eq!(a.max_impact(), Impact::DataLoss);
    let a = assess(
        &plan(vec![change("fakecloud_instance.web", Action::Create)]),
        &fakecloud(),
        &Options::default(),
    );
    assert_eq!(a.max_impact(), Impact::Free);
}
