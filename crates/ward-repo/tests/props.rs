//! The parsers never panic, whatever the input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use ward_repo::ansible::{read_pins, AnsibleFileKind};
use ward_repo::source::{classify_ref_by_shape, named_version};
use ward_repo::ModuleSource;

proptest! {
    #[test]
    fn module_sources(s in "\\PC*") {
        let m = ModuleSource::parse(&s);
        let _ = m.package();
        let _ = classify_ref_by_shape(&s);
        let _ = named_version(&s);
    }

    #[test]
    fn source_like(s in "(git::)?(https://|git@|ssh://)?[a-z.:/@_-]{0,30}(//[a-z/]{0,10})?(\\?ref=[a-z0-9./-]{0,12})?") {
        let _ = ModuleSource::parse(&s).package();
    }

    #[test]
    fn yaml(s in "\\PC*") {
        for k in [AnsibleFileKind::Requirements, AnsibleFileKind::Galaxy, AnsibleFileKind::Vars, AnsibleFileKind::IniInventory] {
            let _ = read_pins(k, &s, "x.yml");
        }
    }
}

proptest! {
    #[test]
    fn terraform_files(s in "\\PC*") {
        let _ = ward_repo::parse_file_text("m/main.tf", &s);
        let _ = ward_repo::parse_file_text("m/main.tf.json", &s);
    }

    #[test]
    fn terraform_like(s in "(resource|module|terraform|provider|data) (\"[a-z_]{0,6}\" ){0,2}\\{[a-z_ =\"{}\\[\\]\n.$/:?0-9-]{0,60}\\}?") {
        let _ = ward_repo::parse_file_text("m/main.tf", &s);
    }
}

/// One generated resource block: mode, type, name, `prevent_destroy`, `ignore_changes`.
type GenResource = (bool, String, String, Option<bool>, Vec<String>);

/// One generated module call: name, source, version.
type GenCall = (String, String, Option<String>);

fn gen_resources() -> impl Strategy<Value = Vec<GenResource>> {
    prop::collection::btree_map(
        ("[a-z][a-z0-9]{0,4}_[a-z]{1,6}", "[a-z][a-z0-9_]{0,6}"),
        (
            any::<bool>(),
            prop::option::of(any::<bool>()),
            prop::collection::vec("[a-z][a-z_]{0,6}", 0..3),
        ),
        0..5,
    )
    .prop_map(|m| {
        m.into_iter()
            .map(|((t, n), (data, pd, ic))| {
                (
                    data,
                    t,
                    n,
                    if data { None } else { pd },
                    if data { vec![] } else { ic },
                )
            })
            .collect()
    })
}

fn gen_calls() -> impl Strategy<Value = Vec<GenCall>> {
    prop::collection::btree_map(
        "[a-z][a-z0-9_]{0,6}",
        (
            prop_oneof![
                "\\./modules/[a-z]{1,6}",
                "git::https://example\\.com/[a-z]{1,6}\\.git\\?ref=v[0-9]\\.[0-9]\\.[0-9]",
                "[a-z]{1,5}/[a-z]{1,5}/aws",
            ],
            prop::option::of("~> [0-9]\\.[0-9]"),
        ),
        0..3,
    )
    .prop_map(|m| m.into_iter().map(|(n, (s, v))| (n, s, v)).collect())
}

/// The native syntax of the generated blocks, with the line each resource starts on.
fn write_hcl(rs: &[GenResource], calls: &[GenCall], required: &str) -> (String, Vec<usize>) {
    let mut t = format!("terraform {{\n  required_version = \"{required}\"\n}}\n");
    let mut lines = Vec::new();
    for (data, ty, name, pd, ic) in rs {
        lines.push(t.lines().count() + 1);
        let mode = if *data { "data" } else { "resource" };
        t.push_str(&format!("{mode} \"{ty}\" \"{name}\" {{\n  name = \"x\"\n"));
        if pd.is_some() || !ic.is_empty() {
            t.push_str("  lifecycle {\n");
            if let Some(p) = pd {
                t.push_str(&format!("    prevent_destroy = {p}\n"));
            }
            if !ic.is_empty() {
                t.push_str(&format!("    ignore_changes = [{}]\n", ic.join(", ")));
            }
            t.push_str("  }\n");
        }
        t.push_str("}\n");
    }
    for (name, source, version) in calls {
        t.push_str(&format!("module \"{name}\" {{\n  source = \"{source}\"\n"));
        if let Some(v) = version {
            t.push_str(&format!("  version = \"{v}\"\n"));
        }
        t.push_str("}\n");
    }
    (t, lines)
}

/// The same blocks in the JSON syntax.
fn write_json(rs: &[GenResource], calls: &[GenCall], required: &str) -> String {
    use serde_json::{json, Map, Value};
    let mut resource: Map<String, Value> = Map::new();
    let mut data: Map<String, Value> = Map::new();
    for (is_data, ty, name, pd, ic) in rs {
        let mut body = json!({"name": "x"});
        let mut lc = Map::new();
        if let Some(p) = pd {
            lc.insert("prevent_destroy".into(), json!(p));
        }
        if !ic.is_empty() {
            lc.insert("ignore_changes".into(), json!(ic));
        }
        if !lc.is_empty() {
            body["lifecycle"] = Value::Object(lc);
        }
        let into = if *is_data { &mut data } else { &mut resource };
        let by_type = into.entry(ty.clone()).or_insert_with(|| json!({}));
        by_type[name.as_str()] = body;
    }
    let mut module = Map::new();
    for (name, source, version) in calls {
        let mut b = json!({"source": source});
        if let Some(v) = version {
            b["version"] = json!(v);
        }
        module.insert(name.clone(), b);
    }
    let mut top = json!({"terraform": {"required_version": required}});
    for (k, v) in [("resource", resource), ("data", data), ("module", module)] {
        if !v.is_empty() {
            top[k] = Value::Object(v);
        }
    }
    top.to_string()
}

/// What both syntaxes must agree on (no lines: JSON has one).
fn facts(m: &ward_repo::Module) -> (Vec<String>, Vec<GenResource>, Vec<GenCall>) {
    let mut rs: Vec<GenResource> = m
        .resources
        .iter()
        .map(|r| {
            (
                r.mode == "data",
                r.type_name.clone(),
                r.name.clone(),
                r.prevent_destroy,
                r.ignore_changes.clone(),
            )
        })
        .collect();
    rs.sort();
    let mut calls: Vec<GenCall> = m
        .module_calls
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.source.as_ref().map(|s| s.raw.clone()).unwrap_or_default(),
                c.version.clone(),
            )
        })
        .collect();
    calls.sort();
    (
        m.required_version.iter().map(|(v, _)| v.clone()).collect(),
        rs,
        calls,
    )
}

proptest! {
    /// A generated valid `.tf` file reads back what was written, at the lines it was written on,
    /// and its `.tf.json` twin reads to the same facts.
    #[test]
    fn valid_terraform_reads_back(rs in gen_resources(), calls in gen_calls(), required in "(>= |~> |= )?1\\.[0-9]{1,2}(\\.[0-9])?") {
        let (hcl, lines) = write_hcl(&rs, &calls, &required);
        let m = ward_repo::parse_file_text("m/main.tf", &hcl).map_err(|p| TestCaseError::fail(format!("{p:?}\n{hcl}")))?;
        let mut want_rs = rs.clone();
        want_rs.sort();
        let mut want_calls = calls.clone();
        want_calls.sort();
        let got = facts(&m);
        prop_assert_eq!(&got, &(vec![required.clone()], want_rs, want_calls));
        let mut at: Vec<usize> = m.resources.iter().map(|r| r.loc.line).collect();
        at.sort();
        prop_assert_eq!(at, lines);
        let json = write_json(&rs, &calls, &required);
        let j = ward_repo::parse_file_text("m/main.tf.json", &json).map_err(|p| TestCaseError::fail(format!("{p:?}\n{json}")))?;
        prop_assert_eq!(facts(&j), got);
    }
}
