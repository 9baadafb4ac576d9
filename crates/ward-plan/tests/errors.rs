//! A `PlanError`'s parts, one by one, are what its `Display` is made of: the input's name, what
//! was wrong, what to do.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_plan::{read_reader, PlanErrorKind};

#[test]
fn an_error_names_the_input_the_problem_and_the_help() {
    let e = read_reader(
        &br#"{"serial": 3, "lineage": "x"}"#[..],
        "live/terraform.tfstate",
    )
    .unwrap_err();
    assert_eq!(e.kind(), PlanErrorKind::StateFile);
    assert_eq!(e.source_name(), "live/terraform.tfstate");
    assert_eq!(
        e.problem(),
        "this is a Terraform/OpenTofu state file (`terraform.tfstate`), not a plan"
    );
    assert!(
        e.help()
            .starts_with("give ward the JSON form of a saved plan: "),
        "{}",
        e.help()
    );
    assert_eq!(
        e.to_string(),
        format!(
            "cannot read plan `live/terraform.tfstate`: {}\n  help: {}",
            e.problem(),
            e.help()
        )
    );
}
