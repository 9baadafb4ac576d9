//! The coverage gate's paste-ready suggestions at their limits: how many addresses they name,
//! which changed attributes get an `attribute` block, and where a type was seen.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use ward_classify::{assess, explain::Seen, Coverage, Options};
use ward_model::{Action, AttrChange, AttrPath, Mode, PathStep, TypeRef};

fn coverage_of(changes: Vec<ward_model::ResourceChange>) -> Coverage {
    assess(&plan(changes), &fakecloud(), &Options::default()).coverage
}

fn header(c: &Coverage, t: &str) -> String {
    c.suggestions[t].lines().next().unwrap().to_string()
}

#[test]
fn a_suggestion_names_three_addresses_then_how_many_more() {
    let n = |k: usize| -> Vec<_> {
        (0..k)
            .map(|i| change(&format!("mystery_thing.m{i}"), Action::Delete))
            .collect()
    };
    assert_eq!(
        header(&coverage_of(n(4)), "mystery_thing"),
        "# seen in configuration, resource_changes: mystery_thing.m0, mystery_thing.m1, mystery_thing.m2 and 1 more"
    );
    assert_eq!(
        header(&coverage_of(n(5)), "mystery_thing"),
        "# seen in configuration, resource_changes: mystery_thing.m0, mystery_thing.m1, mystery_thing.m2 and 2 more"
    );
    assert_eq!(
        header(&coverage_of(n(3)), "mystery_thing"),
        "# seen in configuration, resource_changes: mystery_thing.m0, mystery_thing.m1, mystery_thing.m2"
    );
    assert_eq!(
        header(&coverage_of(n(1)), "mystery_thing"),
        "# seen in configuration, resource_changes: mystery_thing.m0"
    );
}

#[test]
fn a_type_seen_only_in_state_gets_a_suggestion_without_addresses() {
    let mut p = plan(vec![]);
    p.state_types.insert(TypeRef {
        mode: Mode::Managed,
        type_name: "old_thing".into(),
        provider: None,
    });
    let c = assess(&p, &fakecloud(), &Options::default()).coverage;
    assert_eq!(header(&c, "old_thing"), "# seen in prior_state");
    assert!(c.suggestions["old_thing"].ends_with("on_replace = \"replace\"\n}"));
    assert!(c.blocking.is_empty());
}

/// The `attribute "NAME"` blocks of a suggestion, in order.
fn attribute_blocks(s: &str) -> Vec<String> {
    s.lines()
        .filter_map(|l| l.strip_prefix("  attribute \""))
        .map(|l| l.split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn only_plain_top_level_names_get_an_attribute_block() {
    let mut c = change("mystery_thing.x", Action::Update);
    let keyed = |k: &str| AttrChange {
        path: AttrPath(vec![
            PathStep::Key(k.to_string()),
            PathStep::Key("x".into()),
        ]),
        ..attr("x", s("a"), s("b"))
    };
    c.changed = vec![
        keyed("dash-ed"),
        keyed("under_score"),
        keyed("Name2"),
        keyed("bad key"),
        keyed("dot.ted"),
        keyed(""),
        keyed("é"),
        AttrChange {
            path: AttrPath(vec![PathStep::Index(0)]),
            ..attr("x", s("a"), s("b"))
        },
    ];
    let cov = coverage_of(vec![c]);
    let s = &cov.suggestions["mystery_thing"];
    assert_eq!(
        attribute_blocks(s),
        ["Name2", "dash-ed", "under_score"],
        "{s}"
    );
    assert!(
        s.contains("  attribute \"dash-ed\" {\n    impact = \"in-place\" # changed by this plan")
    );
}

#[test]
fn a_suggestion_offers_at_most_twelve_attribute_blocks() {
    let names: Vec<String> = (0..14).map(|i| format!("a{i:02}")).collect();
    let c = with_attrs(
        change("mystery_thing.x", Action::Update),
        names.iter().map(|n| attr(n, s("1"), s("2"))).collect(),
    );
    let cov = coverage_of(vec![c]);
    assert_eq!(
        attribute_blocks(&cov.suggestions["mystery_thing"]),
        names[..12].to_vec()
    );
    // Twelve: all twelve.
    let c = with_attrs(
        change("mystery_thing.x", Action::Update),
        names[..12]
            .iter()
            .map(|n| attr(n, s("1"), s("2")))
            .collect(),
    );
    let cov = coverage_of(vec![c]);
    assert_eq!(
        attribute_blocks(&cov.suggestions["mystery_thing"]),
        names[..12].to_vec()
    );
}

#[test]
fn seen_counts_every_change_and_keeps_three_addresses() {
    let mut seen = Seen::default();
    for i in 0..5 {
        seen.add(&format!("a.n{i}"), Action::Delete, &[]);
    }
    seen.add("a.u", Action::Update, &[attr("size", s("1"), s("2"))]);
    assert_eq!(seen.count, 6);
    assert_eq!(seen.addresses, ["a.n0", "a.n1", "a.n2"]);
    assert_eq!(seen.actions.len(), 2);
    assert!(seen.actions.contains(&Action::Update) && seen.actions.contains(&Action::Delete));
    assert_eq!(seen.attributes.iter().collect::<Vec<_>>(), ["size"]);
}
