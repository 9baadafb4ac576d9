//! The edges of ward-rules' public API that the pack and resolve tests do not reach: user rules
//! handed over as parsed blocks, attribute patterns with quoted keys, and ties between attribute
//! entries. Each test names the mistake it catches
//! (written against cargo-mutants' missed mutants: docs/testing.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_model::{AttrPath, Impact};
use ward_rules::{Knowledge, RuleOrigin, Target, UserRules};

fn target<'a>(type_name: &'a str, address: &'a str) -> Target<'a> {
    Target {
        type_name,
        address,
        module: None,
        provider: "registry.terraform.io/example/x",
    }
}

fn user(text: &str) -> Knowledge {
    let mut k = Knowledge::empty();
    k.load_user_str("rules.hcl", text).unwrap();
    k
}

#[test]
fn the_embedded_packs_are_cited_by_their_file() {
    let k = Knowledge::builtin().unwrap();
    let packs = k.pack_details();
    assert_eq!(packs.len(), k.packs().len());
    let aws = packs.iter().find(|p| p.name == "aws").unwrap();
    assert_eq!(aws.file, "crates/ward-rules/packs/aws.hcl");
    for p in packs {
        assert_eq!(
            p.file,
            format!(
                "crates/ward-rules/packs/{}",
                p.file.rsplit('/').next().unwrap()
            )
        );
        assert!(p.file.ends_with(".hcl"), "{}", p.file);
        assert!(!p.version.is_empty() && !p.provider.is_empty(), "{p:?}");
    }
}

#[test]
fn user_rules_read_from_parsed_blocks() {
    let text = "# ward.hcl\nresource \"x_disk\" {\n  holds_data = true\n}\n\nresource \"x_vm\" {\n  on_update = \"interrupt\"\n}\n";
    let body = ward_hcl::parse_body(text).unwrap();
    let u = UserRules::from_blocks("ward.hcl", text, body.blocks()).unwrap();
    assert_eq!(u.file(), "ward.hcl");
    assert_eq!(u.len(), 2);
    assert!(!u.is_empty());
    let mut k = Knowledge::empty();
    k.add_user_rules(&u);
    assert_eq!(k.user_files(), vec!["ward.hcl".to_string()]);
    let r = k.resolve(&target("x_disk", "x_disk.d"));
    let d = r.holds_data();
    assert!(d.value && d.stated);
    assert_eq!(
        d.rule.unwrap().origin,
        RuleOrigin::User {
            file: "ward.hcl".into(),
            line: 2
        }
    );
    let r = k.resolve(&target("x_vm", "x_vm.v"));
    assert_eq!(r.entry().unwrap().to_string(), "ward.hcl:6:x_vm");
    assert_eq!(r.cost(ward_rules::Cost::OnUpdate).value, Impact::Interrupt);
}

#[test]
fn parsed_blocks_that_are_not_rules_are_refused_at_their_line() {
    let text = "resource \"x_disk\" {\n  holds_data = true\n}\n\npolicy {\n}\n";
    let body = ward_hcl::parse_body(text).unwrap();
    let e = UserRules::from_blocks("ward.hcl", text, body.blocks()).unwrap_err();
    assert_eq!(e.file, "ward.hcl");
    assert_eq!((e.line, e.column), (Some(5), Some(1)), "{e}");
    assert!(e.message.contains("`policy` is not a rule block"), "{e}");
    assert!(e.help.is_some());
    // No blocks: nothing to read, and nothing refused.
    let u = UserRules::from_blocks("ward.hcl", "", std::iter::empty()).unwrap();
    assert_eq!((u.len(), u.is_empty()), (0, true));
}

#[test]
fn a_rule_file_counts_its_entries() {
    let u = UserRules::parse(
        "team.hcl",
        "resource \"x_a\" {\n  holds_data = true\n}\nresource \"x_b\" {\n  holds_data = false\n}\nresource \"x_c\" {\n  grants_access = true\n}\n",
    )
    .unwrap();
    assert_eq!((u.len(), u.is_empty(), u.file()), (3, false, "team.hcl"));
    let none = UserRules::parse("empty.hcl", "# nothing yet\n").unwrap();
    assert_eq!(
        (none.len(), none.is_empty(), none.file()),
        (0, true, "empty.hcl")
    );
    let one = UserRules::parse("one.hcl", "resource \"x_a\" {\n  holds_data = true\n}\n").unwrap();
    assert_eq!((one.len(), one.is_empty()), (1, false));
}

#[test]
fn one_final_snapshot_attribute_is_enough_to_decide() {
    let k = user(
        r#"
resource "x_db" {
  final_snapshot_skip = "skip_final_snapshot"
}
resource "x_cache" {
  final_snapshot_name = "final_snapshot_identifier"
}
"#,
    );
    let d = k.resolve(&target("x_db", "x_db.a")).final_snapshot();
    assert!(d.stated);
    assert_eq!(d.value, (Some("skip_final_snapshot".into()), None));
    let d = k.resolve(&target("x_cache", "x_cache.a")).final_snapshot();
    assert!(d.stated);
    assert_eq!(d.value, (None, Some("final_snapshot_identifier".into())));
}

#[test]
fn an_entry_inside_a_covered_block_raises_it_only_when_it_costs_more() {
    let k = user(
        r#"
resource "x_vm" {
  attribute "disk" {
    impact = "interrupt"
    why    = "the disk is detached"
  }
  attribute "disk.label" {
    impact = "free"
  }
  attribute "disk.size" {
    impact = "interrupt"
    why    = "the disk is resized"
  }
}
"#,
    );
    let r = k.resolve(&target("x_vm", "x_vm.v"));
    // `disk` changed whole: it covers itself; `disk.label` (cheaper) and `disk.size` (the same
    // cost) lie inside and do not take the decision from it.
    let d = r.attribute(&AttrPath::dotted("disk")).unwrap();
    assert_eq!(d.impact, Impact::Interrupt);
    assert_eq!(d.rule.attribute.as_deref(), Some("disk"));
    assert_eq!(d.why.as_deref(), Some("the disk is detached"));
}

/// Which of two attribute entries (first, second, in file order) decides a changed path.
fn decider(first: &str, second: &str, changed: &str) -> String {
    let text = format!(
        "resource \"x_vm\" {{\n  attribute \"{first}\" {{\n    impact = \"free\"\n  }}\n  attribute \"{second}\" {{\n    impact = \"replace\"\n  }}\n}}\n"
    );
    let k = user(&text);
    let r = k.resolve(&target("x_vm", "x_vm.v"));
    let d = r.attribute(&AttrPath::dotted(changed)).unwrap();
    d.rule.attribute.clone().unwrap()
}

#[test]
fn the_longest_pattern_then_the_most_literal_then_the_first_decides() {
    // Longer beats more literal.
    assert_eq!(decider("net", "*.*", "net.mac"), "*.*");
    assert_eq!(decider("*.*", "net", "net.mac"), "*.*");
    // One length: more literal beats file order.
    assert_eq!(decider("net.*", "net.mtu", "net.mtu"), "net.mtu");
    assert_eq!(decider("net.mtu", "net.*", "net.mtu"), "net.mtu");
    assert_eq!(decider("net.*", "net.mtu", "net.mac"), "net.*");
    // Alike in both: the first in the file.
    assert_eq!(decider("net.*", "*.mtu", "net.mtu"), "net.*");
    assert_eq!(decider("*.mtu", "net.*", "net.mtu"), "*.mtu");
}

#[test]
fn a_quoted_key_is_one_segment_and_what_follows_it_is_read() {
    let k = user(
        r#"
resource "x_app" {
  attribute "labels[\"app.example/tier\"].value" {
    impact = "interrupt"
  }
  attribute "annotations[\"k\"]" {
    impact = "replace"
  }
}
"#,
    );
    let r = k.resolve(&target("x_app", "x_app.a"));
    let d = r.attribute(&AttrPath::dotted("labels")).unwrap();
    assert_eq!(d.impact, Impact::Interrupt, "{d:?}");
    let step = |s: &str| ward_model::PathStep::Key(s.into());
    let tier = AttrPath::dotted("labels")
        .child(step("app.example/tier"))
        .child(step("value"));
    let d = r.attribute(&tier).unwrap();
    assert_eq!(
        d.rule.attribute.as_deref(),
        Some("labels[\"app.example/tier\"].value")
    );
    let k2 = AttrPath::dotted("annotations").child(step("k"));
    assert_eq!(r.attribute(&k2).unwrap().impact, Impact::Replace);
    assert!(r
        .attribute(&AttrPath::dotted("annotations.other"))
        .is_none());
}

#[test]
fn a_quoted_key_with_a_backslash_or_quote_is_refused() {
    for pattern in [r#"a[\"x\\y\"]"#, r#"a[\"x\"y\"]"#] {
        let text = format!("resource \"x_app\" {{\n  attribute \"{pattern}\" {{\n    impact = \"free\"\n  }}\n}}\n");
        let e = UserRules::parse("rules.hcl", &text).unwrap_err();
        assert!(e.message.contains("cannot contain"), "{pattern}: {e}");
        assert_eq!(e.line, Some(2), "{e}");
    }
}

#[test]
fn an_escaped_interpolation_is_a_plain_string() {
    let k = user(
        "resource \"x_vm\" {\n  summary    = \"costs $${x} to run\"\n  holds_data = true\n}\n",
    );
    let r = k.resolve(&target("x_vm", "x_vm.v"));
    assert_eq!(r.summary(), Some("costs ${x} to run"));
    let e = UserRules::parse(
        "rules.hcl",
        "resource \"x_vm\" {\n  summary    = \"costs ${x}\"\n  holds_data = true\n}\n",
    )
    .unwrap_err();
    assert!(e.message.contains("must be a plain string"), "{e}");
}
