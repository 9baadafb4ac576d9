//! One meaning of a version constraint: `ward check`'s floor rule (WARD-VER-002) and `ward
//! drift`'s binary selection agree on every constraint, `~> 1` first among them, because both
//! ask ward-version.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use std::path::PathBuf;
use ward_drift::binary::{select, Binary, Evidence, Product, Version};

/// The WARD-VER-002 messages `ward check` reports against `floor` for a root requiring
/// `constraint`.
fn check_messages(constraint: &str, floor: &str) -> Vec<String> {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("main.tf"),
        format!(
            "terraform {{\n  required_version = \"{constraint}\"\n  backend \"local\" {{}}\n}}\n"
        ),
    )
    .unwrap();
    let repo = ward_repo::discover(d.path(), &ward_repo::Options::default()).unwrap();
    let mut out = Vec::new();
    ward_check::rules::versions(&repo, Some(floor), &mut out).unwrap();
    out.into_iter()
        .filter(|f| f.rule == "WARD-VER-002")
        .map(|f| f.message)
        .collect()
}

/// Whether `ward check` accepts `version` as the floor of a root requiring `constraint`.
fn check_admits(constraint: &str, version: &str) -> bool {
    check_messages(constraint, version).is_empty()
}

/// `ward drift`'s choice for a root requiring `constraint` when one Terraform of `version` is
/// installed.
fn drift_select(constraint: &str, version: &str) -> Result<Version, String> {
    let ev = Evidence {
        required_version: vec![constraint.to_string()],
        ..Evidence::default()
    };
    let found = [Binary {
        product: Product::Terraform,
        path: PathBuf::from("/opt/terraform"),
        version: Version::parse(version).unwrap(),
    }];
    select(None, &ev, &found).map(|s| s.binary.version)
}

/// Whether `ward drift` selects a Terraform binary of `version` for a root requiring
/// `constraint`.
fn drift_admits(constraint: &str, version: &str) -> bool {
    match drift_select(constraint, version) {
        Ok(v) => v == Version::parse(version).unwrap(),
        Err(e) => {
            assert!(e.contains("nothing installed satisfies"), "{e}");
            false
        }
    }
}

#[test]
fn pessimistic_one_part_has_an_upper_bound_in_both() {
    for (v, want) in [
        ("1.0.0", true),
        ("1.15.5", true),
        ("2.0.0", false),
        ("0.15.5", false),
    ] {
        assert_eq!(check_admits("~> 1", v), want, "check: ~> 1 admits {v}?");
        assert_eq!(drift_admits("~> 1", v), want, "drift: ~> 1 admits {v}?");
    }
}

#[test]
fn huge_numbers_are_errors_not_overflows_in_both() {
    // The largest u64 parses; its `~>` bound must not overflow (it panicked in both before).
    let max = format!("~> {}.0", u64::MAX);
    assert!(!check_admits(&max, "1.0.0"));
    assert!(!drift_admits(&max, "1.0.0"));
    // A 30-digit number is an error that names it.
    let big = "999999999999999999999999999999";
    let c = format!(">= 1.{big}");
    let m = check_messages(&c, "1.0.0");
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].contains(&format!("the number {big} is too large")),
        "{}",
        m[0]
    );
    let e = drift_select(&c, "1.0.0").unwrap_err();
    assert!(e.contains(&format!("the number {big} is too large")), "{e}");
}

fn clause() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            Just(""),
            Just("= "),
            Just("!= "),
            Just("> "),
            Just(">= "),
            Just("< "),
            Just("<= "),
            Just("~> ")
        ],
        proptest::collection::vec(0u64..3, 1..=3),
    )
        .prop_map(|(op, parts)| {
            let v: Vec<String> = parts.iter().map(u64::to_string).collect();
            format!("{op}{}", v.join("."))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn check_and_drift_agree(
        clauses in proptest::collection::vec(clause(), 1..3),
        v in (0u64..3, 0u64..3, 0u64..3),
    ) {
        let constraint = clauses.join(", ");
        let version = format!("{}.{}.{}", v.0, v.1, v.2);
        let want = ward_version::admits(&constraint, &ward_version::Version::parse(&version).unwrap()).unwrap();
        prop_assert_eq!(check_admits(&constraint, &version), want, "check: {} admits {}?", constraint, version);
        prop_assert_eq!(drift_admits(&constraint, &version), want, "drift: {} admits {}?", constraint, version);
    }
}
