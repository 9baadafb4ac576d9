//! A section of the wrong shape is refused (or, for a context section, skipped with a note)
//! with a message that says what the reader expected there, section by section.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_plan::{read_reader, PlanErrorKind};

/// A plan with `extra` added to its top-level object.
fn doc(extra: &str) -> String {
    format!(r#"{{"format_version": "1.2", "planned_values": {{}}, {extra}}}"#)
}

fn change(change: &str) -> String {
    doc(&format!(
        r#""resource_changes": [{{"address": "a.b", "type": "a", "name": "b", {change}}}]"#
    ))
}

fn cases() -> Vec<(String, &'static str)> {
    vec![
        (
            doc(r#""resource_changes": {}"#),
            "expected a list of resource changes",
        ),
        (
            doc(r#""resource_changes": [1]"#),
            "expected a resource change object",
        ),
        (change(r#""change": 1"#), "expected a change object"),
        (
            change(r#""change": {"actions": "create"}"#),
            "expected a sequence",
        ),
        (change(r#""change": {"actions": [1]}"#), "expected a string"),
        (
            change(r#""mode": 1, "change": {"actions": ["create"]}"#),
            "expected a string",
        ),
        (
            doc(r#""configuration": 1"#),
            "expected a configuration object",
        ),
        (
            doc(r#""configuration": {"root_module": 1}"#),
            "expected a configuration module object",
        ),
        (
            doc(r#""configuration": {"root_module": {"resources": 1}}"#),
            "expected a list of configuration resources",
        ),
        (
            doc(r#""configuration": {"root_module": {"module_calls": 1}}"#),
            "expected a module_calls object",
        ),
        (
            doc(r#""configuration": {"root_module": {"module_calls": {"m": 1}}}"#),
            "expected a module call object",
        ),
        (doc(r#""prior_state": 1"#), "expected a prior_state object"),
        (
            doc(r#""prior_state": {"values": 1}"#),
            "expected a prior_state.values object",
        ),
        (
            doc(r#""prior_state": {"values": {"root_module": 1}}"#),
            "expected a state module object",
        ),
        (
            doc(r#""prior_state": {"values": {"root_module": {"child_modules": 1}}}"#),
            "expected a list of child modules",
        ),
        (
            doc(r#""prior_state": {"values": {"root_module": {"resources": 1}}}"#),
            "expected a list of state resources",
        ),
    ]
}

#[test]
fn each_wrong_shape_says_what_was_expected() {
    for (text, says) in cases() {
        let e = read_reader(text.as_bytes(), "plan.json").unwrap_err();
        assert!(
            matches!(e.kind(), PlanErrorKind::Malformed { .. }),
            "{text}: {e}"
        );
        assert!(e.problem().ends_with(says), "{text}: {e}");
    }
}

#[test]
fn a_context_section_of_the_wrong_shape_is_skipped_with_what_it_was() {
    for (section, value, was) in [
        ("resource_drift", "1", "it is a number, not a list"),
        ("output_changes", "1", "it is a number, not an object"),
        ("resource_drift", "\"x\"", "it is a string, not a list"),
        ("output_changes", "[]", "it is a list, not an object"),
        ("resource_drift", "true", "it is a boolean, not a list"),
        ("output_changes", "-1", "it is a number, not an object"),
        ("resource_drift", "2.5", "it is a number, not a list"),
        ("resource_drift", "{}", "it is an object, not a list"),
    ] {
        let text = doc(&format!(r#""{section}": {value}"#));
        let plan = read_reader(text.as_bytes(), "plan.json").unwrap();
        assert_eq!(
            plan.reader_notes,
            [format!(
                "{section} was skipped ({was}); it is context only, every verdict was made without it"
            )],
            "{text}"
        );
    }
}

/// A plan-shaped entry without `mode` (a hand-trimmed plan) takes its mode from the address,
/// past any module prefixes; a `mode` given is read as written.
#[test]
fn the_mode_comes_from_the_address_when_it_is_missing() {
    use ward_model::Mode;
    let entries: Vec<serde_json::Value> = [
        ("module.a.module.b.data.x.y", None, Mode::Data),
        ("module.a.ephemeral.x.y", None, Mode::Ephemeral),
        ("module.data.x.y", None, Mode::Managed),
        ("x.y", None, Mode::Managed),
        ("x.y", Some("data"), Mode::Data),
        ("x.y", Some("ephemeral"), Mode::Ephemeral),
        ("data.x.y", Some("managed"), Mode::Managed),
    ]
    .iter()
    .map(|(address, mode, _)| {
        let mut e = serde_json::json!({"address": address, "type": "x", "name": "y",
            "change": {"actions": ["read"]}});
        if let Some(m) = mode {
            e["mode"] = serde_json::json!(m);
        }
        e
    })
    .collect();
    let text = doc(&format!(
        r#""resource_changes": {}"#,
        serde_json::Value::from(entries)
    ));
    let plan = read_reader(text.as_bytes(), "plan.json").unwrap();
    let modes: Vec<Mode> = plan.changes.iter().map(|c| c.mode).collect();
    assert_eq!(
        modes,
        [
            Mode::Data,
            Mode::Ephemeral,
            Mode::Managed,
            Mode::Managed,
            Mode::Data,
            Mode::Ephemeral,
            Mode::Managed
        ]
    );
}

/// An output is sensitive when either side is marked, anywhere in it.
#[test]
fn an_output_marked_on_either_side_is_sensitive() {
    let text = doc(r#""output_changes": {
            "after_only": {"actions": ["create"], "before": null, "after": "s", "after_sensitive": true},
            "before_only": {"actions": ["delete"], "before": "s", "after": null, "before_sensitive": true},
            "nested": {"actions": ["update"], "before": {"k": 1}, "after": {"k": 2},
                       "before_sensitive": {"k": false}, "after_sensitive": {"k": true}},
            "plain": {"actions": ["update"], "before": 1, "after": 2,
                      "before_sensitive": false, "after_sensitive": {"k": false}}
        }"#);
    let plan = read_reader(text.as_bytes(), "plan.json").unwrap();
    let sensitive: Vec<(&str, bool)> = plan
        .output_changes
        .iter()
        .map(|o| (o.name.as_str(), o.sensitive))
        .collect();
    assert_eq!(
        sensitive,
        [
            ("after_only", true),
            ("before_only", true),
            ("nested", true),
            ("plain", false)
        ]
    );
}

/// A `replace_paths` step is a key or a non-negative whole index; anything else is refused.
#[test]
fn a_replace_paths_step_must_be_a_key_or_an_index() {
    let with_paths = |paths: &str| {
        change(&format!(
            r#""change": {{"actions": ["delete", "create"], "before": {{"l": [1]}}, "after": {{"l": [2]}},
               "replace_paths": {paths}}}"#
        ))
    };
    let plan = read_reader(with_paths(r#"[["l", 0]]"#).as_bytes(), "plan.json").unwrap();
    assert_eq!(plan.changes[0].replace_paths[0].to_string(), "l[0]");
    for step in ["-1", "1.5", "true", "null"] {
        let text = with_paths(&format!(r#"[["l", {step}]]"#));
        let e = read_reader(text.as_bytes(), "plan.json").unwrap_err();
        assert!(
            matches!(e.kind(), PlanErrorKind::Malformed { .. }),
            "{step}: {e}"
        );
        assert!(
            e.problem().contains(&format!(
                "has a replace_paths step {step}, which is neither a key nor an index"
            )),
            "{step}: {e}"
        );
    }
}
