//! Every command's JSON validates against its JSON Schema in `docs/`: `ward plan`
//! (report.schema.json), `ward rules` (rules.schema.json), `ward gate` (gate.schema.json),
//! `ward verify` (verify.schema.json), `ward drift` (drift.schema.json), `ward drift history`
//! (drift-history.schema.json), `ward import check` and `accept` (import-check.schema.json,
//! import-accept.schema.json) and `ward check`
//! (check.schema.json). Live output of the binary, plus the renderers' snapshots (which cover
//! fields a test run without Terraform cannot reach: drift items, transitions, guards); and each
//! schema rejects a report that lost its `schema_version` or gained an undocumented field.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::data;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schema(name: &str) -> jsonschema::Validator {
    let path = root().join("docs").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft202012::new(&schema).expect("the schema is a valid JSON Schema")
}

/// Asserts `json` is valid, that it has `schema_version`, and that the schema rejects it without
/// `schema_version` and with a field it does not document.
fn check(v: &jsonschema::Validator, what: &str, json: &Value) {
    check_versioned(v, what, json, 1);
}

/// [`check`] for a report of schema version `version`.
fn check_versioned(v: &jsonschema::Validator, what: &str, json: &Value, version: u32) {
    let errors: Vec<String> = v
        .iter_errors(json)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}\n{json:#}");
    assert_eq!(json["schema_version"], version, "{what}");
    let mut bad = json.clone();
    bad.as_object_mut().unwrap().remove("schema_version");
    assert!(!v.is_valid(&bad), "{what}: valid without schema_version");
    let mut bad = json.clone();
    bad["undocumented"] = Value::from(1);
    assert!(
        !v.is_valid(&bad),
        "{what}: valid with an undocumented field"
    );
}

/// Runs ward in `dir`; returns its standard output as JSON.
fn ward_json(dir: &Path, args: &[&str]) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "ward {args:?}: not JSON ({e}); exit {:?}, stderr: {}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

/// The JSON body of an insta snapshot file.
fn snapshot(path: &str) -> Value {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let body = text.splitn(3, "---\n").nth(2).expect("an insta header");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn plan_json_matches_its_schema() {
    let v = schema("report.schema.json");
    let dir = tempfile::tempdir().unwrap();
    for plan in [
        "noop.json",
        "replace.json",
        "unclassified.json",
        "sensitive.json",
    ] {
        let json = ward_json(dir.path(), &["plan", &data(plan), "--format", "json"]);
        check_versioned(&v, plan, &json, 2);
    }
}

#[test]
fn rules_json_matches_its_schema() {
    let v = schema("rules.schema.json");
    let dir = tempfile::tempdir().unwrap();
    check(
        &v,
        "rules list",
        &ward_json(dir.path(), &["rules", "list", "--format", "json"]),
    );
    let config = data("ward-acme.hcl");
    check(
        &v,
        "rules list --config",
        &ward_json(
            dir.path(),
            &["rules", "list", "--config", &config, "--format", "json"],
        ),
    );
    for ty in ["aws_instance", "aws_db_instance", "kubernetes_deployment"] {
        let json = ward_json(dir.path(), &["rules", "show", ty, "--format", "json"]);
        check(&v, ty, &json);
    }
}

#[test]
fn gate_json_matches_its_schema() {
    let v = schema("gate.schema.json");
    let dir = tempfile::tempdir().unwrap();
    for plan in [
        "noop.json",
        "replace.json",
        "unclassified.json",
        "errored.json",
    ] {
        let json = ward_json(dir.path(), &["gate", &data(plan), "--format", "json"]);
        check(&v, plan, &json);
    }
    for snap in ["blocked_json", "pass_json"] {
        let path =
            format!("crates/ward-report/src/snapshots/ward_report__gate__tests__{snap}.snap");
        check(&v, snap, &snapshot(&path));
    }
}

#[test]
fn verify_json_matches_its_schema() {
    let v = schema("verify.schema.json");
    let replace = ward_plan::read_file(Path::new(&data("replace.json"))).unwrap();
    let noop = ward_plan::read_file(Path::new(&data("noop.json"))).unwrap();
    let gated = ward_gate::record::build(&replace, "replace.json", ward_gate::Outcome::Pass);
    let blocked = ward_gate::record::build(
        &replace,
        "replace.json",
        ward_gate::Outcome::ApprovalRequired,
    );
    for (what, record, plan) in [
        ("verified", &gated, &replace),
        ("another plan", &gated, &noop),
        ("not passed", &blocked, &replace),
    ] {
        let report = ward_gate::verify::compare(record, plan);
        let json: Value = serde_json::from_str(&ward_report::gate::verify_json(&report)).unwrap();
        check(&v, what, &json);
    }
}

#[test]
fn drift_json_matches_its_schema() {
    let v = schema("drift.schema.json");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("drift.sqlite");
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    let (db, repo) = (db.to_str().unwrap(), repo.to_str().unwrap());
    for extra in [&[][..], &["--timestamps"][..]] {
        let mut args = vec![
            "drift",
            repo,
            "--db",
            db,
            "--no-progress",
            "--format",
            "json",
        ];
        args.extend(extra);
        check(&v, "zero roots", &ward_json(dir.path(), &args));
    }
    check(
        &v,
        "snapshot",
        &snapshot("crates/ward-report/src/snapshots/ward_report__drift__tests__json.snap"),
    );
}

#[test]
fn drift_history_json_matches_its_schema() {
    use ward_store::{Finding, OutcomeRow, StateMark, Store};
    let v = schema("drift-history.schema.json");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("drift.sqlite");
    {
        let mut s = Store::open(&db).unwrap();
        let finding = Finding {
            address: "fake_bucket.logs".into(),
            attribute: "versioning".into(),
            impact: "data-loss".into(),
        };
        // Run 1 finds drift in `network`; run 2 finds it gone; run 3 never finishes.
        for (i, observed) in [vec![finding], vec![]].into_iter().enumerate() {
            let now = format!("2026-11-2{}T01:00:00Z", i + 1);
            let run = s.begin_run(&now, Some("1/2")).unwrap();
            let row = OutcomeRow {
                root: "network".into(),
                outcome: if observed.is_empty() {
                    "clean"
                } else {
                    "drifted"
                }
                .into(),
                detail: String::new(),
                state: Some(StateMark {
                    lineage: "5f1c".into(),
                    serial: 3,
                }),
                binary: Some("terraform 1.15.5".into()),
            };
            s.record_outcome(run, &row).unwrap();
            let missing = OutcomeRow {
                root: "data".into(),
                outcome: "missing-state".into(),
                detail: "no state".into(),
                state: None,
                binary: None,
            };
            s.record_outcome(run, &missing).unwrap();
            s.apply_findings(run, &now, "network", &observed).unwrap();
            s.finish_run(run, &now, if i == 0 { 8 } else { 0 }).unwrap();
        }
        s.begin_run("2026-11-23T01:00:00Z", None).unwrap();
    }
    let db = db.to_str().unwrap();
    let all = ward_json(
        dir.path(),
        &["drift", "history", "--db", db, "--format", "json"],
    );
    assert_eq!(all["runs"].as_array().unwrap().len(), 3, "{all:#}");
    assert!(all["findings"][0]["resolved"].is_array(), "{all:#}");
    check(&v, "history", &all);
    for root in ["network", "data"] {
        let one = ward_json(
            dir.path(),
            &["drift", "history", root, "--db", db, "--format", "json"],
        );
        assert_eq!(one["runs"].as_array().unwrap().len(), 2, "{one:#}");
        check(&v, root, &one);
    }
    // A run row is not a root's run row: the schema tells them apart by `root`.
    let mut mixed = all.clone();
    mixed["root"] = Value::from("network");
    assert!(!v.is_valid(&mixed), "run rows valid under a root");
}

#[test]
fn check_json_matches_its_schema() {
    let v = schema("check.schema.json");
    let sample = root().join("crates/ward-check/tests/fixtures/sample");
    let json = ward_json(
        &sample,
        &["check", ".", "--today", "2026-06-01", "--format", "json"],
    );
    check(&v, "sample", &json);
    check(
        &v,
        "snapshot",
        &snapshot("crates/ward-check/tests/snapshots/cli__json.snap"),
    );
}

#[test]
fn import_json_matches_its_schemas() {
    let v = schema("import-check.schema.json");
    check(
        &v,
        "import check snapshot",
        &snapshot("crates/ward-report/tests/snapshots/import__import_check_json.snap"),
    );
    // Live: a plan that imports exactly the inventory, read from tests/data.
    let dir = tempfile::tempdir().unwrap();
    let json = ward_json(
        dir.path(),
        &[
            "import",
            "check",
            &data("import-plan.json"),
            "--inventory",
            &data("import-inventory.json"),
            "--format",
            "json",
        ],
    );
    check(&v, "ward import check", &json);
    assert_eq!(json["passed"], true, "{json:#}");
    let v = schema("import-accept.schema.json");
    check(
        &v,
        "import accept snapshot",
        &snapshot("crates/ward-report/tests/snapshots/import__import_accept_json.snap"),
    );
}
