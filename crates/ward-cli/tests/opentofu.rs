//! OpenTofu's own golden `show -json` outputs (`WARD_OPENTOFU`, set by `.ci/run` to
//! `../shared/opentofu`): no OpenTofu binary can be installed on the machines ward is tested on,
//! so these files are how the OpenTofu paths are tested against what `tofu show -json` really
//! writes. Every plan is read and classified by the real binary, in every format, with a rule for
//! OpenTofu's test provider (`test_instance`); every state is refused as a state; no value marked
//! sensitive appears in any output; the product is OpenTofu; each file's characteristic change
//! (delete, replacement forced by an attribute, move, drift, errored plan) is reported as such.
//! Skipped, and says so, when `WARD_OPENTOFU` is unset; fails when it is set but holds no file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A rule for OpenTofu's test provider: classified, nothing more is claimed about it.
const RULES: &str = r#"resource "test_instance" {
  summary   = "OpenTofu's test provider instance (its golden show -json outputs)."
  on_update = "in-place"
}
"#;

/// (file, kind) from the directory's MANIFEST.tsv.
fn manifest(root: &Path) -> Vec<(PathBuf, String)> {
    let text = std::fs::read_to_string(root.join("MANIFEST.tsv"))
        .unwrap_or_else(|e| panic!("WARD_OPENTOFU={} has no MANIFEST.tsv: {e}", root.display()));
    let mut out: Vec<(PathBuf, String)> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let file = cols.next()?.trim_start_matches("./");
            let kind = cols.next()?;
            Some((root.join(file), kind.to_string()))
        })
        .collect();
    out.sort();
    out
}

fn ward(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .env_remove("WARD_APPROVAL_KEY")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Every string (and number) leaf of `value` that `mask` (an `*_sensitive` object) marks
/// sensitive: a `true` mask covers the whole subtree.
fn sensitive_leaves(value: &Value, mask: &Value, out: &mut BTreeSet<String>) {
    match (value, mask) {
        (_, Value::Bool(true)) => leaves(value, out),
        (Value::Object(v), Value::Object(m)) => {
            for (k, mk) in m {
                if let Some(vk) = v.get(k) {
                    sensitive_leaves(vk, mk, out);
                }
            }
        }
        (Value::Array(v), Value::Array(m)) => {
            for (vk, mk) in v.iter().zip(m) {
                sensitive_leaves(vk, mk, out);
            }
        }
        _ => {}
    }
}

fn leaves(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::String(s) if s.len() >= 3 => {
            out.insert(s.clone());
        }
        Value::Number(n) if n.to_string().len() >= 3 => {
            out.insert(n.to_string());
        }
        Value::Array(a) => a.iter().for_each(|v| leaves(v, out)),
        Value::Object(o) => o.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

/// The values a plan marks sensitive (resource changes, drift, outputs, variables).
fn sensitive_values(raw: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for list in ["resource_changes", "resource_drift"] {
        for rc in raw
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let change = &rc["change"];
            for (side, mask) in [("before", "before_sensitive"), ("after", "after_sensitive")] {
                sensitive_leaves(&change[side], &change[mask], &mut out);
            }
        }
    }
    for (_, oc) in raw
        .get("output_changes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (side, mask) in [("before", "before_sensitive"), ("after", "after_sensitive")] {
            sensitive_leaves(&oc[side], &oc[mask], &mut out);
        }
    }
    for (_, v) in raw
        .get("planned_values")
        .and_then(|p| p.get("outputs"))
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if v["sensitive"] == Value::Bool(true) {
            leaves(&v["value"], &mut out);
        }
    }
    out
}

/// What each golden plan is about, checked in the JSON report: (file name, action, impact) that
/// must appear among its changes (`*` for any impact).
const CHARACTERISTIC: &[(&str, &str, &str)] = &[
    ("show-json__basic-create.json", "create", "free"),
    ("show-json__basic-delete.json", "delete", "replace"),
    ("show-json__basic-update.json", "no-op", "none"),
    (
        "show-json__requires-replace.json",
        "delete,create",
        "replace",
    ),
    ("show-json__multi-resource-update.json", "create", "free"),
    ("show-json-identity__create.json", "create", "free"),
    ("show-json-identity__update.json", "update", "in-place"),
    ("show-json-identity__destroy.json", "delete", "replace"),
];

#[test]
fn opentofu_golden_outputs_are_read_classified_and_refused_as_they_should_be() {
    let Some(root) = std::env::var_os("WARD_OPENTOFU") else {
        eprintln!("skipped: WARD_OPENTOFU is not set (.ci/run sets it to ../shared/opentofu)");
        return;
    };
    let root = PathBuf::from(root);
    let files = manifest(&root);
    assert!(!files.is_empty(), "no file in {}", root.display());
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("ward.hcl");
    std::fs::write(&config, RULES).unwrap();
    let config = config.to_str().unwrap();

    let (mut plans, mut states, mut changes, mut hidden) = (0, 0, 0, 0);
    let mut characteristic_seen = BTreeSet::new();
    for (path, kind) in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let file = path.to_str().unwrap();
        match kind.as_str() {
            "state" => {
                let out = ward(&["plan", "--config", config, file]);
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "{name}: {err}");
                assert!(
                    err.contains("output of a state, not of a plan") || err.contains("empty state"),
                    "{name} is not refused as a state: {err}"
                );
                states += 1;
            }
            "plan" => {
                let raw: Value =
                    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
                let errored = raw["errored"] == Value::Bool(true);
                let secrets = sensitive_values(&raw);
                hidden += secrets.len();
                let json = ward(&["plan", "--config", config, file, "--format", "json"]);
                let report: Value = serde_json::from_slice(&json.stdout).unwrap_or_else(|e| {
                    panic!(
                        "{name}: no JSON report ({e}): {}",
                        String::from_utf8_lossy(&json.stderr)
                    )
                });
                // OpenTofu's registry host names the product, unless the file says an older
                // version wrote it: its golden files keep stale `terraform_version`s (1.2.0-dev,
                // 0.13.0), and the reader trusts a version before OpenTofu's first (1.6) first.
                let stale = raw["terraform_version"].as_str().is_some_and(|v| {
                    let mut p = v.split(['.', '-']).map(|n| n.parse::<u32>().unwrap_or(0));
                    (p.next().unwrap_or(0), p.next().unwrap_or(0)) < (1, 6)
                });
                let product = if stale { "terraform" } else { "opentofu" };
                assert_eq!(report["plan"]["product"], product, "{name}");
                assert_eq!(
                    json.status.code(),
                    Some(if errored { 2 } else { 0 }),
                    "{name}: {}",
                    String::from_utf8_lossy(&json.stderr)
                );
                assert_eq!(report["plan"]["errored"], Value::Bool(errored), "{name}");
                let list = report["changes"].as_array().unwrap();
                let raw_count = raw["resource_changes"].as_array().map_or(0, Vec::len);
                assert_eq!(list.len(), raw_count, "{name}: one verdict per change");
                for c in list {
                    assert_eq!(c["classified"], Value::Bool(true), "{name}: {c}");
                    assert!(
                        c["explanation"].as_array().is_some_and(|e| !e.is_empty()),
                        "{name}: {c}"
                    );
                    let row = (c["action"].as_str(), c["impact"].as_str());
                    for (f, action, impact) in CHARACTERISTIC {
                        if *f == name
                            && row.0 == Some(action)
                            && (*impact == "*" || row.1 == Some(impact))
                        {
                            characteristic_seen.insert(*f);
                        }
                    }
                }
                let drift = raw["resource_drift"].as_array().map_or(0, Vec::len);
                assert_eq!(
                    report["drift"].as_array().map_or(0, Vec::len),
                    drift,
                    "{name}: drift"
                );
                if name == "show-json__moved.json" {
                    let text = json.stdout.clone();
                    assert!(
                        String::from_utf8_lossy(&text).contains("\"fact\": \"move\""),
                        "{name}: the move is not reported"
                    );
                }
                changes += list.len();
                let mut outputs = vec![json];
                for format in ["terminal", "markdown"] {
                    outputs.push(ward(&[
                        "plan", "--config", config, file, "--format", format,
                    ]));
                }
                for out in &outputs {
                    let text = String::from_utf8_lossy(&out.stdout);
                    for s in &secrets {
                        assert!(
                            !text.contains(s.as_str()),
                            "{name}: the sensitive value {s:?} is in the output"
                        );
                    }
                }
                plans += 1;
            }
            other => panic!("{name}: unknown kind {other} in MANIFEST.tsv"),
        }
    }
    let expected: BTreeSet<&str> = CHARACTERISTIC.iter().map(|c| c.0).collect();
    assert_eq!(
        characteristic_seen, expected,
        "characteristic changes found"
    );
    assert!(plans > 0 && states > 0);
    assert!(
        hidden > 0,
        "no sensitive value found to look for: the check would be vacuous"
    );
    eprintln!(
        "opentofu: {plans} plans ({changes} changes) classified, {states} states refused, \
         {hidden} sensitive values absent from every format"
    );
}
