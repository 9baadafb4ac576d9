//! Builders for test plans (ward_model::Plan constructed directly).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use std::collections::BTreeSet;
use ward_model::{
    Action, AttrChange, AttrPath, Importing, Mode, Plan, Product, ResourceChange, Shown, TypeRef,
};
use ward_rules::Knowledge;

pub const FAKECLOUD: &str = "registry.terraform.io/ward/fakecloud";
/// Knowledge with only the fakecloud rule file (examples/rules/fakecloud.hcl): stable across
/// changes to the packs.
pub fn fakecloud() -> Knowledge {
    ward_rig::rules::knowledge_alone().unwrap()
}

pub fn path(s: &str) -> AttrPath {
    AttrPath::dotted(s)
}

pub fn known(v: Value) -> Shown {
    Shown::Known(v)
}

pub fn attr(p: &str, before: Shown, after: Shown) -> AttrChange {
    AttrChange {
        path: path(p),
        before,
        after,
        hidden: None,
    }
}

pub fn s(v: &str) -> Shown {
    known(json!(v))
}

/// A managed change with no attributes.
pub fn change(address: &str, action: Action) -> ResourceChange {
    let (module, rest) = match address.rfind("module.") {
        Some(_) => {
            // module.a.module.b.type.name → module part is everything before the last two parts.
            let parts: Vec<&str> = address.split('.').collect();
            let n = parts.len();
            (Some(parts[..n - 2].join(".")), parts[n - 2..].join("."))
        }
        None => (None, address.to_string()),
    };
    let mut it = rest.splitn(2, '.');
    let type_name = it.next().unwrap().to_string();
    let name = it.next().unwrap_or("x").to_string();
    ResourceChange {
        address: address.to_string(),
        previous_address: None,
        module_address: module,
        mode: Mode::Managed,
        type_name,
        name,
        index: None,
        provider_name: FAKECLOUD.to_string(),
        deposed: None,
        action,
        action_reason: None,
        replace_paths: Vec::new(),
        changed: Vec::new(),
        importing: None,
        content: None,
        before_scalars: Vec::new(),
        after_scalars: Vec::new(),
        changed_left_out: 0,
    }
}

pub fn with_attrs(mut c: ResourceChange, attrs: Vec<AttrChange>) -> ResourceChange {
    c.changed = attrs;
    c
}

pub fn replaced_by(mut c: ResourceChange, paths: &[&str], reason: &str) -> ResourceChange {
    c.replace_paths = paths.iter().map(|p| path(p)).collect();
    c.action_reason = Some(reason.to_string());
    c
}

pub fn importing(mut c: ResourceChange, id: &str) -> ResourceChange {
    c.importing = Some(Importing {
        id: Some(id.to_string()),
    });
    c
}

pub fn plan(changes: Vec<ResourceChange>) -> Plan {
    let mut configured = BTreeSet::new();
    for c in &changes {
        configured.insert(TypeRef {
            mode: c.mode,
            type_name: c.type_name.clone(),
            provider: Some(c.provider_name.clone()),
        });
    }
    Plan {
        terraform_version: Some("1.11.4".into()),
        product: Product::Terraform,
        changes,
        configured_types: configured,
        ..Plan::default()
    }
}

/// `tests/fixtures/<name>` (a `show -json` plan) assessed with the built-in packs; every type in
/// it must be classified.
pub fn assess_fixture(name: &str) -> ward_classify::Assessment {
    let a = assess_fixture_with(name, &Knowledge::builtin().unwrap());
    assert!(a.coverage.unclassified.is_empty(), "{:?}", a.coverage);
    a
}

/// `tests/fixtures/<name>` (a `show -json` plan) assessed with `k`.
pub fn assess_fixture_with(name: &str, k: &Knowledge) -> ward_classify::Assessment {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let plan = ward_plan::read_file(std::path::Path::new(&path)).unwrap();
    ward_classify::assess(&plan, k, &ward_classify::Options::default())
}

/// The verdict of `address`; panics when the assessment has none.
pub fn verdict<'a>(a: &'a ward_classify::Assessment, address: &str) -> &'a ward_classify::Verdict {
    a.verdicts
        .iter()
        .find(|v| v.address == address)
        .unwrap_or_else(|| panic!("no verdict for {address}"))
}

/// The first line of the verdict's explanation that contains `needle`.
pub fn line<'a>(v: &'a ward_classify::Verdict, needle: &str) -> Option<&'a String> {
    v.explanation.iter().find(|l| l.contains(needle))
}
