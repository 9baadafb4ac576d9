//! The model's small pure functions against tables written from Terraform's documentation
//! (written to kill the mutants `scripts/mutants ward-model` found missed: each row is a
//! behaviour a caller relies on).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_model::{Action, FormatVersion};

/// Action, Terraform's `actions`, inert, change, replace, destroys.
type Row = (Action, &'static [&'static str], bool, bool, bool, bool);

const ACTIONS: [Row; 10] = [
    (Action::NoOp, &["no-op"], true, false, false, false),
    (Action::Create, &["create"], false, true, false, false),
    (Action::Read, &["read"], true, false, false, false),
    (Action::Update, &["update"], false, true, false, false),
    (
        Action::ReplaceDeleteFirst,
        &["delete", "create"],
        false,
        true,
        true,
        true,
    ),
    (
        Action::ReplaceCreateFirst,
        &["create", "delete"],
        false,
        true,
        true,
        true,
    ),
    (Action::Delete, &["delete"], false, true, false, true),
    (Action::Forget, &["forget"], true, true, false, false),
    (
        Action::CreateThenForget,
        &["create", "forget"],
        false,
        true,
        false,
        false,
    ),
    (Action::Open, &["open"], true, false, false, false),
];

#[test]
fn every_action_reads_spells_and_classifies_as_terraform_documents() {
    assert_eq!(ACTIONS.len(), Action::ALL.len());
    for (a, actions, inert, change, replace, destroys) in ACTIONS {
        assert_eq!(Action::from_actions(actions), Some(a), "{actions:?}");
        assert_eq!(a.as_terraform(), actions.join(","), "{a:?}");
        assert_eq!(a.to_string(), actions.join(","), "{a:?}");
        assert_eq!(a.is_inert(), inert, "{a:?} inert");
        assert_eq!(a.is_change(), change, "{a:?} change");
        assert_eq!(a.is_replace(), replace, "{a:?} replace");
        assert_eq!(a.destroys(), destroys, "{a:?} destroys");
        assert!(!a.describe().is_empty());
    }
    let described: std::collections::BTreeSet<&str> =
        Action::ALL.iter().map(|a| a.describe()).collect();
    assert_eq!(
        described.len(),
        Action::ALL.len(),
        "two actions described alike"
    );
}

#[test]
fn unknown_action_lists_are_refused() {
    for bad in [
        &[][..],
        &["delete", "delete"][..],
        &["create", "create"][..],
        &["Delete"][..],
        &["forget", "create"][..],
        &["update", "delete"][..],
        &["no-op", "create"][..],
    ] {
        assert_eq!(Action::from_actions(bad), None, "{bad:?}");
    }
}

#[test]
fn format_versions_print_as_written() {
    assert_eq!(FormatVersion { major: 1, minor: 2 }.to_string(), "1.2");
    assert_eq!(
        FormatVersion {
            major: 0,
            minor: 10
        }
        .to_string(),
        "0.10"
    );
}

#[test]
fn shown_values_print_as_reports_show_them() {
    use ward_model::Shown;
    assert_eq!(
        Shown::Known(serde_json::json!({"a": 1})).to_string(),
        r#"{"a":1}"#
    );
    assert_eq!(Shown::Known(serde_json::json!("x")).to_string(), r#""x""#);
    assert_eq!(Shown::Sensitive.to_string(), "(sensitive)");
    assert_eq!(Shown::Unknown.to_string(), "(known after apply)");
    assert_eq!(Shown::Absent.to_string(), "null");
}

#[test]
fn a_hidden_digest_keeps_its_bytes_and_never_shows_them() {
    use ward_model::HiddenDigest;
    let bytes: [u8; 32] = std::array::from_fn(|i| i as u8 + 7);
    let h = HiddenDigest::new(bytes);
    assert_eq!(h.bytes(), &bytes);
    let shown = format!("{h:?}");
    assert_eq!(shown, "HiddenDigest(..)");
    assert!(!shown.contains("07"));
}

#[test]
fn impacts_print_their_names_and_meanings() {
    use ward_model::Impact;
    let mut meanings = std::collections::BTreeSet::new();
    for i in Impact::ALL {
        assert_eq!(i.to_string(), i.as_str());
        assert!(i.meaning().len() > 10, "{i}");
        meanings.insert(i.meaning());
    }
    assert_eq!(meanings.len(), Impact::ALL.len());
    assert!(Impact::DataLoss.meaning().contains("data"));
    let e = "interrupts".parse::<Impact>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown impact class `interrupts`: expected one of none, free, in-place, interrupt, replace, data-loss"
    );
}

#[test]
fn exits_print_their_names_tables_and_codes() {
    use ward_model::Exit;
    for e in Exit::ALL {
        assert_eq!(e.to_string(), e.as_str());
        assert_eq!(
            format!("{:?}", std::process::ExitCode::from(e)),
            format!("{:?}", std::process::ExitCode::from(e.code()))
        );
    }
    let help = Exit::help_table();
    let md = Exit::markdown_table();
    assert!(
        help.starts_with("Exit codes (every subcommand):\n"),
        "{help}"
    );
    assert!(
        md.starts_with("| code | name | meaning |\n|---:|---|---|\n"),
        "{md}"
    );
    for e in Exit::ALL {
        assert!(
            help.contains(&format!("  {}  {}\n", e.code(), e.summary())),
            "{e}"
        );
        assert!(md.contains(&format!(
            "| {} | {} | {} |\n",
            e.code(),
            e.as_str(),
            e.meaning()
        )));
    }
    assert!(
        help.ends_with(
            "\nWhen several apply, ward exits with the first of 2, 3, 8, 9, 10, 5, 4, 6, 7, 1."
        ),
        "{help}"
    );
}

#[test]
fn the_worst_exit_wins_and_the_first_of_equals_stays() {
    use ward_model::Exit;
    for a in Exit::ALL {
        for b in Exit::ALL {
            let w = a.worst(b);
            assert_eq!(w.priority(), a.priority().max(b.priority()), "{a} {b}");
            if a.priority() == b.priority() {
                // Two signals: the first one that stopped the run is the one reported.
                assert_eq!(w, a, "{a} {b}");
            }
        }
    }
    assert_eq!(Exit::HungUp.worst(Exit::Terminated), Exit::HungUp);
}

#[test]
fn attribute_paths_build_and_nest() {
    use ward_model::{AttrPath, PathStep};
    let p = AttrPath::dotted("root_block_device.0.volume_size");
    assert_eq!(
        p.0,
        vec![
            PathStep::Key("root_block_device".into()),
            PathStep::Index(0),
            PathStep::Key("volume_size".into()),
        ]
    );
    assert_eq!(p.attribute(), Some("root_block_device"));
    assert_eq!(AttrPath::dotted("0.a").attribute(), None);
    assert_eq!(AttrPath::root().attribute(), None);
    assert!(AttrPath::root().0.is_empty());
    let c = AttrPath::dotted("tags").child(PathStep::Key("Name".into()));
    assert_eq!(c, AttrPath::dotted("tags.Name"));
    assert!(c.starts_with(&AttrPath::dotted("tags")));
    assert!(c.starts_with(&c));
    assert!(c.starts_with(&AttrPath::root()));
    assert!(!c.starts_with(&AttrPath::dotted("tag")));
    assert!(
        !AttrPath::dotted("tags").starts_with(&c),
        "a prefix does not lie inside its child"
    );
    assert!(!c.starts_with(&AttrPath::dotted("tags.Other")));
}

/// The plain recursive meaning of a pattern: `*` any run, every other character itself.
fn reference(p: &[char], t: &[char]) -> bool {
    match p.split_first() {
        None => t.is_empty(),
        Some(('*', rest)) => (0..=t.len()).any(|i| reference(rest, &t[i..])),
        Some((c, rest)) => t.first() == Some(c) && reference(rest, &t[1..]),
    }
}

/// Every string over `alphabet` up to `max` characters long.
fn strings(alphabet: &[char], max: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn patterns_agree_with_the_plain_definition_on_every_small_case() {
    use ward_model::pattern::{is_pattern, matches};
    let texts = strings(&['a', 'b'], 5);
    for p in strings(&['a', 'b', '*'], 4) {
        let pc: Vec<char> = p.chars().collect();
        assert_eq!(is_pattern(&p), p.contains('*'), "{p}");
        for t in &texts {
            let tc: Vec<char> = t.chars().collect();
            assert_eq!(
                matches(&p, t),
                reference(&pc, &tc),
                "pattern {p:?} text {t:?}"
            );
        }
    }
}

#[test]
fn instance_keys_strip_only_inside_brackets() {
    use ward_model::pattern::strip_instance_keys;
    assert_eq!(
        strip_instance_keys(r#"module.a["x]"].t.n[0]"#),
        "module.a.t.n"
    );
    assert_eq!(strip_instance_keys(r#"t.n["a\"]b"]"#), "t.n");
    // A quote outside brackets is an ordinary character: it starts no key.
    assert_eq!(strip_instance_keys(r#"a"b"c[1]"#), r#"a"b"c"#);
}
