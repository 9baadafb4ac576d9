//! What a JSON object that is not a plan is called, key by key: each state-file marker alone
//! makes it a state file, `version` only together with `resources` or `modules`; an object of a
//! format version alone (and `terraform_version`) is an empty state or schema; and the product a
//! plan is read as when only Terraform-only keys tell.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_model::Product;
use ward_plan::{read_reader, PlanError, PlanErrorKind};

fn err(text: &str) -> PlanError {
    match read_reader(text.as_bytes(), "doc.json") {
        Ok(p) => panic!("{text}: expected an error, got a plan: {p:?}"),
        Err(e) => e,
    }
}

fn assert_state(text: &str, says: &str) {
    let e = err(text);
    assert_eq!(e.kind(), PlanErrorKind::StateFile, "{text}: {e}");
    assert!(e.to_string().contains(says), "{text}: {e}");
}

fn assert_not_a_plan(text: &str, says: &str) {
    let e = err(text);
    assert_eq!(e.kind(), PlanErrorKind::NotAPlan, "{text}: {e}");
    assert!(e.to_string().contains(says), "{text}: {e}");
}

const STATE_FILE: &str = "a Terraform/OpenTofu state file (`terraform.tfstate`)";
const NONE_OF: &str = "it has none of `resource_changes`";

#[test]
fn each_state_marker_alone_makes_a_state_file() {
    assert_state(
        r#"{"values": {"root_module": {}}}"#,
        "`show -json` output of a state",
    );
    assert_state(r#"{"lineage": "3f2a"}"#, STATE_FILE);
    assert_state(r#"{"serial": 7}"#, STATE_FILE);
    assert_state(
        r#"{"encrypted_data": "AAAA", "encryption_version": "v0"}"#,
        "an encrypted OpenTofu state file",
    );
    assert_state(r#"{"encrypted_data": "AAAA"}"#, "encrypted OpenTofu state");
}

#[test]
fn version_makes_a_state_file_only_with_resources_or_modules() {
    assert_state(r#"{"version": 4, "resources": []}"#, STATE_FILE);
    assert_state(r#"{"version": 3, "modules": []}"#, STATE_FILE);
    assert_not_a_plan(r#"{"version": 4}"#, NONE_OF);
    assert_not_a_plan(r#"{"resources": []}"#, NONE_OF);
    assert_not_a_plan(r#"{"modules": []}"#, NONE_OF);
}

#[test]
fn a_format_version_alone_is_an_empty_state_or_schema() {
    const ONLY: &str = "holds only a format version";
    assert_not_a_plan(r#"{"format_version": "1.0"}"#, ONLY);
    assert_not_a_plan(
        r#"{"format_version": "1.0", "terraform_version": "1.9.0"}"#,
        ONLY,
    );
    // A third marker key: not only a format version any more.
    assert_not_a_plan(
        r#"{"format_version": "1.0", "terraform_version": "1.9.0", "errored": false}"#,
        NONE_OF,
    );
    // Without a format version, two keys are not "only a format version".
    assert_not_a_plan(
        r#"{"terraform_version": "1.9.0", "errored": false}"#,
        NONE_OF,
    );
}

#[test]
fn terraform_only_keys_alone_make_the_product_terraform() {
    let product = |extra: &str| {
        let text = format!(
            r#"{{"format_version": "1.2", "terraform_version": "1.9.0", "planned_values": {{}}{extra}}}"#
        );
        read_reader(text.as_bytes(), "plan.json").unwrap().product
    };
    assert_eq!(product(""), Product::Unknown);
    assert_eq!(product(r#", "applyable": true"#), Product::Terraform);
    assert_eq!(product(r#", "complete": true"#), Product::Terraform);
    assert_eq!(
        product(r#", "applyable": false, "complete": false"#),
        Product::Terraform
    );
}
