//! Types whose create changes an object that exists outside this root without taking it over
//! (`modifies` in the rule format): a rule added to a security group, a route to a route table,
//! a grant to a project's IAM policy, a role assignment on a scope. Such a create costs the
//! block's class when its target names an existing object, and nothing when the target is known
//! only after apply (the object is created by the same plan). `when_set` (on `overwrites` and
//! `modifies`): an adoption that sets none of the listed attributes changes nothing.
//! `fixtures/modifies.json` is a hand-written plan; the cases come from the labelled field set
//! (docs/field-set.md), where ward answered `free` for such creates.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assess_fixture, verdict};
use ward_classify::{Assessment, Verdict};
use ward_model::Impact;

fn assessed() -> Assessment {
    assess_fixture("modifies.json")
}

fn says(v: &Verdict, words: &str) -> bool {
    v.explanation.iter().any(|l| l.contains(words))
}

#[test]
fn a_create_that_changes_an_existing_object_costs_the_blocks_class() {
    let a = assessed();
    for (address, class, words) in [
        (
            "aws_security_group_rule.existing",
            Impact::InPlace,
            "creating it changes an object that exists outside this root, which costs at least in-place: adds a rule to an existing security group (security_group_id = \"sg-0123456789abcdef0\")",
        ),
        (
            "aws_route.existing",
            Impact::InPlace,
            "adds a route to an existing route table (route_table_id = \"rtb-00cf8381520103cfb\")",
        ),
        (
            "google_project_iam_member.existing",
            Impact::InPlace,
            "adds one grant to the IAM policy of an existing project (project = \"prod-123\")",
        ),
        (
            "azurerm_role_assignment.existing",
            Impact::InPlace,
            "grants a role on an existing scope",
        ),
        // A replacement grants again: at least the block's class (here its own, replace).
        (
            "google_project_iam_member.replaced",
            Impact::Replace,
            "the new object changes an object that exists outside this root again, which costs at least in-place",
        ),
    ] {
        let v = verdict(&a, address);
        assert_eq!(v.impact, class, "{address}: {:#?}", v.explanation);
        assert!(says(v, words), "{address}: `{words}` not in {:#?}", v.explanation);
        let rule = v
            .decided_by
            .as_ref()
            .map(|r| r.to_string())
            .unwrap_or_default();
        assert!(
            rule.ends_with(address.split('.').next().unwrap()),
            "{address}: decided by {rule}"
        );
        // Additive, not authoritative: the verdict names no `overwrites` rule, so the default
        // gate policy asks no approval for it.
        assert!(v.overwrites.is_none(), "{address}");
    }
}

#[test]
fn a_create_whose_target_is_created_by_the_same_plan_is_free() {
    let a = assessed();
    for (address, words) in [
        (
            "aws_security_group_rule.new_group",
            "changes nothing that exists yet: `security_group_id` is known only after apply",
        ),
        (
            "google_project_iam_member.new_project",
            "changes nothing that exists yet: `project` is known only after apply",
        ),
        // `gateway_id` is null: it names nothing, and the subnet is new.
        (
            "aws_route_table_association.new_subnet",
            "changes nothing that exists yet: `subnet_id` is known only after apply",
        ),
    ] {
        let v = verdict(&a, address);
        assert_eq!(v.impact, Impact::Free, "{address}: {:#?}", v.explanation);
        assert!(
            says(v, words),
            "{address}: `{words}` not in {:#?}",
            v.explanation
        );
        assert!(v.overwrites.is_none(), "{address}");
    }
}

#[test]
fn an_adoption_that_sets_nothing_changes_nothing() {
    let a = assessed();
    // Only the zone (and null tags): the default subnet is adopted as it is.
    let v = verdict(&a, "aws_default_subnet.as_is");
    assert_eq!(v.impact, Impact::Free, "{:#?}", v.explanation);
    assert!(v.overwrites.is_none());
    assert!(
        says(
            v,
            "overwrites nothing: it sets none of `map_public_ip_on_launch`"
        ),
        "{:#?}",
        v.explanation
    );
    // `false` is a setting (a default subnet maps public IPs): the adoption changes it.
    let v = verdict(&a, "aws_default_subnet.no_public_ips");
    assert_eq!(v.impact, Impact::InPlace, "{:#?}", v.explanation);
    assert!(v.overwrites.is_some());
    assert!(
        says(
            v,
            "adopts the existing default subnet of the availability zone"
        ),
        "{:#?}",
        v.explanation
    );
}

/// A target the plan does not give (null) is not printed when another is given: the line names
/// the subnet the association takes over, not `gateway_id = (not in the plan)`.
#[test]
fn only_the_targets_the_plan_gives_are_printed() {
    let a = assessed();
    let v = verdict(&a, "aws_route_table_association.existing_subnet");
    assert_eq!(v.impact, Impact::InPlace, "{:#?}", v.explanation);
    let line = v
        .explanation
        .iter()
        .find(|l| l.contains("replacing its current association"))
        .unwrap_or_else(|| panic!("{:#?}", v.explanation));
    assert!(line.contains("(subnet_id = \"subnet-0aa\")"), "{line}");
    assert!(!line.contains("gateway_id"), "{line}");
}

/// A target that names an object the plan creates earlier (Terraform writes `resource_changes`
/// sorted by address) changes nothing that exists: the binding on the bucket created above, the
/// attachment to the role created above. A name shared with a created object of another type
/// (the policy `app`, not a role) does not count.
#[test]
fn a_target_named_by_a_create_earlier_in_the_plan_is_new() {
    let a = assessed();
    for (address, words) in [
        (
            "google_storage_bucket_iam_binding.new_bucket",
            "overwrites nothing that exists yet: `bucket` = \"b-new\" names the google_storage_bucket this plan creates",
        ),
        (
            "aws_iam_role_policy_attachment.new_role",
            "changes nothing that exists yet: `role` = \"fresh-role\" names the aws_iam_role this plan creates",
        ),
    ] {
        let v = verdict(&a, address);
        assert_eq!(v.impact, Impact::Free, "{address}: {:#?}", v.explanation);
        assert!(says(v, words), "{address}: `{words}` not in {:#?}", v.explanation);
        assert!(v.overwrites.is_none(), "{address}");
    }
    let v = verdict(&a, "google_storage_bucket_iam_binding.old_bucket");
    assert_eq!(v.impact, Impact::Interrupt, "{:#?}", v.explanation);
    assert!(v.overwrites.is_some());
    let v = verdict(&a, "aws_iam_role_policy_attachment.existing_role");
    assert_eq!(v.impact, Impact::InPlace, "{:#?}", v.explanation);
}
