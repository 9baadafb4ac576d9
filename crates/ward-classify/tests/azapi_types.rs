//! `azapi_resource` entries narrowed by ARM type (`when = { type = "...@*" }` in the azapi pack):
//! an update of a listed type is costed as the pack's entry for that type says, every other type
//! (not listed, a child type, spelled in another case, unknown until apply) keeps the worst case,
//! and the type-only entry still answers what the narrowed one does not (a delete).
//! `fixtures/azapi_types.json` is a hand-written plan of such changes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_classify::{Assessment, Verdict};
use ward_model::Impact;
use ward_rules::Knowledge;

mod common;
use common::verdict;

fn assessed(k: &Knowledge) -> Assessment {
    common::assess_fixture_with("azapi_types.json", k)
}

fn decided_by(v: &Verdict) -> String {
    v.decided_by
        .as_ref()
        .map(|r| r.to_string())
        .unwrap_or_default()
}

#[test]
fn listed_arm_types_update_in_place() {
    let a = assessed(&Knowledge::builtin().unwrap());
    for address in [
        "azapi_resource.automation",
        "azapi_resource.storage",
        "azapi_resource.vault",
        "azapi_resource.group",
    ] {
        let v = verdict(&a, address);
        assert!(v.classified, "{address}: {:#?}", v.explanation);
        assert_eq!(v.impact, Impact::InPlace, "{address}: {:#?}", v.explanation);
        assert!(
            decided_by(v).starts_with("azapi@"),
            "{address}: decided by {}",
            decided_by(v)
        );
    }
}

#[test]
fn other_arm_types_keep_the_worst_case() {
    let a = assessed(&Knowledge::builtin().unwrap());
    for address in [
        "azapi_resource.site",
        "azapi_resource.vm",
        "azapi_resource.blobs",
        "azapi_resource.lowercase",
        "azapi_resource.unknown_type",
    ] {
        let v = verdict(&a, address);
        assert!(v.classified, "{address}: {:#?}", v.explanation);
        assert_eq!(
            v.impact,
            Impact::Interrupt,
            "{address}: {:#?}",
            v.explanation
        );
    }
}

#[test]
fn a_narrowed_entry_leaves_other_questions_to_the_type_entry() {
    let a = assessed(&Knowledge::builtin().unwrap());
    // The Automation entry says nothing of data: deleting the account is the type entry's
    // data-loss.
    let v = verdict(&a, "azapi_resource.gone");
    assert_eq!(v.impact, Impact::DataLoss, "{:#?}", v.explanation);
    assert!(v.holds_data);
}

/// The narrowed entries are what changes the answer: without them (the type-only entry alone,
/// as a user file), the listed types are costed as the worst case again.
#[test]
fn without_the_narrowed_entries_every_type_is_the_worst_case() {
    let pack = "pack {\n  name = \"azapi\"\n  version = \"1\"\n  provider = \"Azure/azapi\"\n  schema = \"unavailable: test\"\n}\nresource \"azapi_resource\" {\n  holds_data = true\n  on_update = \"interrupt\"\n}\n";
    let k = Knowledge::from_pack_sources(&[("azapi.hcl", pack)]).unwrap();
    let a = assessed(&k);
    for address in ["azapi_resource.automation", "azapi_resource.storage"] {
        assert_eq!(verdict(&a, address).impact, Impact::Interrupt, "{address}");
    }
}

/// A user rule narrowed by value outranks the pack's, and one narrowed to another type does not
/// apply.
#[test]
fn a_user_rule_narrowed_by_value() {
    let mut k = Knowledge::builtin().unwrap();
    k.load_user_str(
        "ward.hcl",
        "resource \"azapi_resource\" {\n  when      = { type = \"Microsoft.Web/sites@*\" }\n  on_update = \"in-place\"\n}\nresource \"azapi_resource\" {\n  when      = { type = \"Microsoft.Storage/storageAccounts@*\" }\n  on_update = \"interrupt\"\n}\n",
    )
    .unwrap();
    let a = assessed(&k);
    let site = verdict(&a, "azapi_resource.site");
    assert_eq!(site.impact, Impact::InPlace, "{:#?}", site.explanation);
    assert!(
        decided_by(site).starts_with("ward.hcl:"),
        "{}",
        decided_by(site)
    );
    assert_eq!(
        verdict(&a, "azapi_resource.storage").impact,
        Impact::Interrupt
    );
    assert_eq!(verdict(&a, "azapi_resource.vm").impact, Impact::Interrupt);
}
