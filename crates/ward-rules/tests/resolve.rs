//! Resolving one instance against the built-in knowledge: the entry that decides and the base
//! that answers by default.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_rules::{Knowledge, RuleOrigin, Target};

#[test]
fn a_classified_instance_names_its_entry_and_base() {
    let k = Knowledge::builtin().unwrap();
    let target = Target {
        type_name: "aws_instance",
        address: "aws_instance.web",
        module: None,
        provider: "registry.terraform.io/hashicorp/aws",
    };
    let r = k.resolve(&target);
    assert!(r.is_classified());
    let entry = r.entry().unwrap();
    assert_eq!(entry.type_name, "aws_instance");
    assert!(entry.attribute.is_none());
    assert!(
        matches!(&entry.origin, RuleOrigin::Pack { name, .. } if name == "aws"),
        "{entry}"
    );
    assert_eq!(r.base().unwrap().type_name, "aws_instance");
    // The rules that apply are the type's own (all of them here: no narrowing), and the summary
    // is the first rule's that has one.
    let shown = k.show("aws_instance").unwrap();
    assert_eq!(r.rules().len(), shown.rules.len());
    let summary = shown.rules.iter().find_map(|r| r.summary.as_deref());
    assert!(summary.is_some_and(|s| !s.is_empty()));
    assert_eq!(r.summary(), summary);
    let rationale = shown.rules.iter().find_map(|r| r.rationale.as_deref());
    assert!(rationale.is_some_and(|s| !s.is_empty()));
    assert_eq!(r.rationale(), rationale);
    let unknown = Target {
        type_name: "nosuch_thing",
        address: "nosuch_thing.x",
        ..target
    };
    let r = k.resolve(&unknown);
    assert!(!r.is_classified());
    assert!(r.entry().is_none() && r.base().is_none() && r.summary().is_none());
    assert!(r.rationale().is_none());
}
