//! `prevent_destroy` is read with OpenTofu's file precedence (through ward-repo, the one reader of
//! configuration files): a `.tofu` file protects, hides the `.tf` file of the same name, and a
//! `.tofu`-only root is a root. On the committed example plans; no Terraform needed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use ward_gate::run::{self, GateOptions, Inputs};

const WEB: &str = "resource \"fakecloud_instance\" \"web\" {\n  count = 2\n  lifecycle {\n    prevent_destroy = PD\n  }\n}\n";

fn gate(root: &Path) -> Result<run::GateRun, String> {
    let plan = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/plans/replace.json")
        .display()
        .to_string();
    let mut env = BTreeMap::new();
    env.insert("WARD_NOW".to_string(), "2026-11-29T18:00:00Z".to_string());
    common::run_gate(
        &GateOptions {
            inputs: Inputs {
                plan,
                config: Some(root.join("ward.hcl")),
                approvals: None,
                root: Some(PathBuf::from(root)),
                allow_unclassified: false,
                history: None,
            },
            record: None,
            no_record_protection: true,
            audit: None,
            binding: Default::default(),
        },
        &move |k: &str| env.get(k).cloned(),
    )
    .map_err(|e| e.to_string())
}

fn root_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("ward.hcl"), ward_rig::rules::ward_hcl("")).unwrap();
    for (name, text) in files {
        std::fs::write(d.path().join(name), text).unwrap();
    }
    d
}

fn required(out: &run::GateRun) -> Vec<String> {
    out.report
        .required
        .iter()
        .map(|x| x.address.clone())
        .collect()
}

#[test]
fn a_tofu_only_root_is_accepted_and_its_prevent_destroy_protects() {
    // Without protection, replacing the stateless instances needs no approval.
    let d = root_with(&[("main.tofu", &WEB.replace("PD", "false"))]);
    let out = gate(d.path()).unwrap();
    assert_eq!(out.exit.code(), 0, "{:?}", out.report);

    let d = root_with(&[("main.tofu", &WEB.replace("PD", "true"))]);
    let out = gate(d.path()).unwrap();
    assert_eq!(out.exit.code(), 4, "{:?}", out.report);
    assert_eq!(
        required(&out),
        ["fakecloud_instance.web[0]", "fakecloud_instance.web[1]"]
    );
    let r = serde_json::to_value(&out.report).unwrap();
    assert_eq!(
        r["required"][0]["because"][0]["by"],
        serde_json::json!({"source": "prevent-destroy", "file": "main.tofu"})
    );
}

#[test]
fn a_tofu_file_hides_the_tf_file_of_the_same_name() {
    // main.tofu wins over main.tf: OpenTofu never reads the protecting main.tf.
    let d = root_with(&[
        ("main.tf", &WEB.replace("PD", "true")),
        ("main.tofu", &WEB.replace("PD", "false")),
    ]);
    assert_eq!(gate(d.path()).unwrap().exit.code(), 0);
    // ... and the other way round.
    let d = root_with(&[
        ("main.tf", &WEB.replace("PD", "false")),
        ("main.tofu", &WEB.replace("PD", "true")),
    ]);
    assert_eq!(gate(d.path()).unwrap().exit.code(), 4);
}

#[test]
fn an_override_file_decides_prevent_destroy() {
    let d = root_with(&[
        ("main.tf", &WEB.replace("PD", "false")),
        (
            "main_override.tf",
            "resource \"fakecloud_instance\" \"web\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
        ),
    ]);
    assert_eq!(gate(d.path()).unwrap().exit.code(), 4);
}

#[test]
fn a_root_without_configuration_files_is_refused() {
    let d = root_with(&[("notes.txt", "")]);
    let e = gate(d.path()).unwrap_err();
    assert!(
        e.contains("no .tf, .tf.json, .tofu or .tofu.json files here"),
        "{e}"
    );
}
