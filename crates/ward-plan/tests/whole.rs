//! The whole-document reference (`fuzzing::read_whole`, one serde_json pass through the
//! parser's own top-level visitor) must refuse what is not a plan object as the walk does: the
//! same kind and the same words, for every JSON type and for UI logs given as an array. (The
//! walk hands a top-level value that is not an object to the same visitor.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_plan::{fuzzing, read_reader, PlanErrorKind};

#[test]
fn the_reference_refuses_what_is_not_a_plan_object_as_the_walk_does() {
    for (text, kind, what) in [
        ("\"plan\"", PlanErrorKind::NotAPlan, "a string"),
        ("true", PlanErrorKind::NotAPlan, "a boolean"),
        ("-1", PlanErrorKind::NotAPlan, "a number"),
        ("1", PlanErrorKind::NotAPlan, "a number"),
        ("1.5", PlanErrorKind::NotAPlan, "a number"),
        ("null", PlanErrorKind::NotAPlan, "null"),
        ("[]", PlanErrorKind::NotAPlan, "an array"),
        ("[1]", PlanErrorKind::NotAPlan, "an array"),
        (r#"[{"x": 1}]"#, PlanErrorKind::NotAPlan, "an array"),
        (r#"[{"@level": "info"}]"#, PlanErrorKind::UiLog, ""),
        (
            r#"[{"@message": "Terraform 1.9.0"}]"#,
            PlanErrorKind::UiLog,
            "",
        ),
    ] {
        let walk = read_reader(text.as_bytes(), "t").unwrap_err();
        let whole = fuzzing::read_whole(text.as_bytes()).unwrap_err();
        assert_eq!(walk.kind(), kind, "{text}: {walk}");
        assert_eq!(whole.kind(), kind, "{text}: {whole}");
        assert_eq!(whole.problem(), walk.problem(), "{text}");
        if !what.is_empty() {
            assert_eq!(
                walk.problem(),
                format!("the input is {what} in JSON, not a plan object"),
                "{text}"
            );
        }
    }
}
