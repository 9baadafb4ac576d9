//! #31 item 4, system-managed metadata: tag and label sets that the provider or the platform
//! computes are not a user's change. For every provider whose schema has one, a hand-written plan
//! (format 1.2) where only that set changes is `free`; the same plan with an ordinary attribute
//! changed as well is not (so each case can fail).
//!
//! | provider | computed set | why it is free |
//! |---|---|---|
//! | aws | `tags_all` | `tags` merged with the provider's `default_tags` |
//! | google, google-beta | `effective_labels`, `terraform_labels`, `label_fingerprint` | labels merged with `default_labels` and those set outside; Google's hash of them |
//! | oci | `system_tags` | written by Oracle; the provider only reads them back |
//! | openstack | `all_tags` | the tags set here and those set outside |
//! | upcloud | `system_labels` | written by UpCloud (keys prefixed with `_`, read-only to users) |
//! | tfe | `effective_tags` | the workspace's tags with those it inherits from its project |
//! | databricks | `effective_custom_tags` | a database instance's tags as the service applied them |
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod one_change;

use serde_json::{json, Value};
use ward_classify::Verdict;
use ward_model::Impact;

/// The verdict of an in-place update of `type_name` from `before` to `after`, with `unknown` the
/// attributes that become known only after apply.
fn update(
    provider: &str,
    type_name: &str,
    before: Value,
    after: Value,
    unknown: &[&str],
) -> Verdict {
    one_change::verdict(provider, type_name, &["update"], (before, after), unknown)
}

/// `base` with `changes` applied (a shallow merge of top-level attributes).
fn with(base: &Value, changes: Value) -> Value {
    let mut out = base.clone();
    if let (Some(o), Some(c)) = (out.as_object_mut(), changes.as_object()) {
        for (k, v) in c {
            o.insert(k.clone(), v.clone());
        }
    }
    out
}

/// Only the computed set changes: free. The same change plus `ordinary`: not free.
fn check(provider: &str, type_name: &str, base: Value, metadata: Value, ordinary: Value) {
    let v = update(
        provider,
        type_name,
        base.clone(),
        with(&base, metadata.clone()),
        &[],
    );
    assert_eq!(
        v.impact,
        Impact::Free,
        "{type_name}: a change of {metadata} alone: {:#?}",
        v.explanation
    );
    let after = with(&with(&base, metadata), ordinary.clone());
    let v = update(provider, type_name, base, after, &[]);
    assert!(
        v.impact > Impact::Free,
        "{type_name}: {ordinary} changed too, yet {:?}: {:#?}",
        v.impact,
        v.explanation
    );
}

#[test]
fn aws_tags_all_alone_is_free() {
    // The provider's default_tags changed: every resource's tags_all follows, its tags do not.
    let base = json!({"id": "i-0abc", "instance_type": "t3.small",
        "tags": {"team": "web"}, "tags_all": {"team": "web", "env": "prod"}});
    check(
        "hashicorp/aws",
        "aws_instance",
        base,
        json!({"tags_all": {"team": "web", "env": "production"}}),
        json!({"instance_type": "t3.large"}),
    );
    let base = json!({"id": "analyzer", "analyzer_name": "org", "type": "ACCOUNT",
        "tags": {}, "tags_all": {"env": "prod"}});
    let v = update(
        "hashicorp/aws",
        "aws_accessanalyzer_analyzer",
        base.clone(),
        with(&base, json!({"tags_all": {"env": "production"}})),
        &[],
    );
    assert_eq!(v.impact, Impact::Free, "{:#?}", v.explanation);
}

#[test]
fn google_effective_and_terraform_labels_alone_are_free() {
    // default_labels changed in the provider block: the merged sets change, labels do not.
    let base = json!({"id": "projects/p/global/images/base", "name": "base",
        "description": "base image", "labels": {"team": "web"},
        "terraform_labels": {"team": "web", "env": "prod"},
        "effective_labels": {"team": "web", "env": "prod"}, "label_fingerprint": "abc="});
    check(
        "hashicorp/google",
        "google_compute_image",
        base.clone(),
        json!({"terraform_labels": {"team": "web", "env": "production"},
               "effective_labels": {"team": "web", "env": "production"}}),
        json!({"description": "new base image"}),
    );
    // label_fingerprint, Google's hash of the labels, becoming unknown with them: still free.
    let after = with(
        &base,
        json!({"labels": {"team": "api"}, "terraform_labels": {"team": "api", "env": "prod"},
               "effective_labels": {"team": "api", "env": "prod"}, "label_fingerprint": null}),
    );
    let v = update(
        "hashicorp/google",
        "google_compute_image",
        base,
        after,
        &["label_fingerprint"],
    );
    assert_eq!(v.impact, Impact::Free, "{:#?}", v.explanation);
    // The same on a curated type (a disk holds data; its labels are still metadata).
    let base = json!({"id": "d", "name": "d", "size": 10, "labels": {"team": "web"},
        "terraform_labels": {"team": "web"}, "effective_labels": {"team": "web"},
        "label_fingerprint": "abc="});
    let after = with(
        &base,
        json!({"labels": {"team": "api"}, "terraform_labels": {"team": "api"},
               "effective_labels": {"team": "api"}, "label_fingerprint": null}),
    );
    let v = update(
        "hashicorp/google",
        "google_compute_disk",
        base,
        after,
        &["label_fingerprint"],
    );
    assert_eq!(v.impact, Impact::Free, "{:#?}", v.explanation);
    // A curated type: the bucket holds data, its merged labels are still metadata.
    let base = json!({"id": "b", "name": "b", "storage_class": "STANDARD", "labels": {},
        "terraform_labels": {"env": "prod"}, "effective_labels": {"env": "prod"}});
    check(
        "hashicorp/google",
        "google_storage_bucket",
        base,
        json!({"terraform_labels": {"env": "production"},
               "effective_labels": {"env": "production"}}),
        json!({"storage_class": "NEARLINE"}),
    );
}

#[test]
fn google_beta_only_types_free_their_computed_labels_too() {
    // google_workstations_workstation exists only in google-beta; its catalog inherits the
    // google table's free names.
    let base = json!({"id": "w", "workstation_id": "w", "display_name": "dev",
        "labels": {}, "terraform_labels": {"env": "dev"}, "effective_labels": {"env": "dev"}});
    check(
        "hashicorp/google-beta",
        "google_workstations_workstation",
        base,
        json!({"terraform_labels": {"env": "development"},
               "effective_labels": {"env": "development"}}),
        json!({"display_name": "dev box"}),
    );
}

#[test]
fn oci_system_tags_alone_are_free() {
    // Oracle wrote a new system tag (the provider only reads them back).
    let base = json!({"id": "ocid1.instance.oc1..a", "shape": "VM.Standard.E4.Flex",
        "freeform_tags": {"team": "web"}, "defined_tags": {},
        "system_tags": {"orcl-cloud": {"free-tier-retained": "true"}}});
    check(
        "oracle/oci",
        "oci_core_instance",
        base,
        json!({"system_tags": {"orcl-cloud": {"free-tier-retained": "false"}}}),
        json!({"shape": "VM.Standard.E5.Flex"}),
    );
}

#[test]
fn openstack_all_tags_alone_are_free() {
    // A tag set outside Terraform shows in all_tags only.
    let base = json!({"id": "net-1", "name": "app", "mtu": 1450,
        "tags": ["app"], "all_tags": ["app"]});
    check(
        "terraform-provider-openstack/openstack",
        "openstack_networking_network_v2",
        base,
        json!({"all_tags": ["app", "scanned"]}),
        json!({"mtu": 9000}),
    );
}

#[test]
fn upcloud_system_labels_alone_are_free() {
    let base = json!({"id": "01a", "title": "data", "size": 50,
        "labels": {"team": "web"}, "system_labels": {"_managed_by": "upcloud"}});
    check(
        "UpCloudLtd/upcloud",
        "upcloud_storage",
        base,
        json!({"system_labels": {"_managed_by": "upcloud", "_backup": "daily"}}),
        json!({"size": 100}),
    );
}

#[test]
fn tfe_effective_tags_alone_are_free() {
    // The project's tags changed: the workspace's effective_tags follow.
    let base = json!({"id": "ws-1", "name": "app", "terraform_version": "1.9.8",
        "tags": {"team": "web"}, "effective_tags": {"team": "web", "cost": "a"}});
    check(
        "hashicorp/tfe",
        "tfe_workspace",
        base,
        json!({"effective_tags": {"team": "web", "cost": "b"}}),
        json!({"terraform_version": "1.10.0"}),
    );
}

#[test]
fn databricks_effective_custom_tags_alone_are_free() {
    let base = json!({"id": "db-1", "name": "app", "capacity": "CU_1",
        "custom_tags": [{"key": "team", "value": "web"}],
        "effective_custom_tags": [{"key": "team", "value": "web"}]});
    check(
        "databricks/databricks",
        "databricks_database_instance",
        base,
        json!({"effective_custom_tags": [{"key": "team", "value": "api"}]}),
        json!({"capacity": "CU_2"}),
    );
}
