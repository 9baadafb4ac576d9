//! `ward import` end to end with real Terraform and fakecloud (through ward-rig): objects
//! pre-created in the fake cloud, an inventory, an exact model; Terraform 1.15.5 through import
//! blocks, 1.0.3 through the `terraform import` commands ward writes. The check passes, accept
//! records the acceptance and the next plan is empty; a differing `image` is refused naming it, a
//! differing tag unless allowed, a duplicate id and an id another root manages are refused; a
//! managed change before acceptance is refused by `ward gate`.
//!
//! Skipped (with a message) when the tools are not installed; run `scripts/test` to install them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use ward_rig::{Rig, RigError, Root, Terraform};

const PROVIDER: &str = r#"
terraform {
  required_providers {
    fakecloud = {
      source = "ward/fakecloud"
    }
  }
}

provider "fakecloud" {}
"#;

/// The model of the fleet, exactly as built.
const MODEL: &str = r#"
resource "fakecloud_network" "main" {
  name = "main"
  cidr = "10.30.0.0/16"
}

resource "fakecloud_instance" "web" {
  for_each   = toset(["a", "b"])
  name       = "web-${each.key}"
  size       = "small"
  image      = "debian-12"
  network_id = fakecloud_network.main.id
  tags = {
    role = "web"
  }
}

resource "fakecloud_volume" "data" {
  name    = "data"
  size_gb = 10
}
"#;

struct Fleet {
    root: Root,
    inventory: PathBuf,
    db: PathBuf,
    tf: Terraform,
    cli_config: PathBuf,
}

fn ward(fleet: &Fleet, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(args)
        .current_dir(fleet.root.dir())
        .env("TF_CLI_CONFIG_FILE", &fleet.cli_config)
        .env("FAKECLOUD_DIR", fleet.root.cloud_dir())
        .env("CHECKPOINT_DISABLE", "1")
        .env_remove("TF_CLI_ARGS")
        .env_remove("TF_CLI_ARGS_plan")
        .output()
        .expect("ward runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A root with the model, its cloud holding the live objects, and the inventory of them.
fn fleet(rig: &Rig, tf: &Terraform, image_b: &str, role_b: &str) -> Result<Fleet, RigError> {
    let root = rig.root(tf)?;
    root.write_file("main.tf", &format!("{PROVIDER}{MODEL}"))?;
    let cloud = root.cloud();
    cloud.create(
        "network",
        "net-live1",
        json!({"name": "main", "cidr": "10.30.0.0/16"}),
    )?;
    for (k, id, image, role) in [
        ("a", "i-live-a", "debian-12", "web"),
        ("b", "i-live-b", image_b, role_b),
    ] {
        cloud.create(
            "instance",
            id,
            json!({"name": format!("web-{k}"), "size": "small", "image": image,
                   "network_id": "net-live1", "tags": {"role": role},
                   "ip": "10.30.0.9", "mac": "02:00:00:00:00:09", "restarts": 0}),
        )?;
    }
    cloud.create(
        "volume",
        "vol-live1",
        json!({"name": "data", "size_gb": 10}),
    )?;
    let inventory = root.path("inventory.json");
    std::fs::write(
        &inventory,
        serde_json::to_string_pretty(&json!({"objects": {
            "fakecloud_network.main": {"id": "net-live1", "attributes": {"name": "main", "cidr": "10.30.0.0/16", "tags": null}},
            "fakecloud_instance.web[\"a\"]": "i-live-a",
            "fakecloud_instance.web[\"b\"]": "i-live-b",
            "fakecloud_volume.data": "vol-live1"
        }}))
        .unwrap(),
    )
    .unwrap();
    // What ward knows about fakecloud (the gate classifies the plan): its rule file.
    root.write_file("ward.hcl", &ward_rig::rules::ward_hcl(""))?;
    root.init()?;
    Ok(Fleet {
        db: root.path("history.sqlite"),
        inventory,
        tf: tf.clone(),
        cli_config: rig.cli_config().to_path_buf(),
        root,
    })
}

/// `ward import plan`, then the imports: 1.5 and later through the import blocks written into
/// the root, older through the commands written (run as written, with `terraform` on PATH).
fn write_imports(f: &Fleet) -> Result<(), RigError> {
    let tf = s(&f.tf.path);
    let blocks = f.tf.at_least(1, 5);
    let out = if blocks {
        f.root.path("imports.tf")
    } else {
        f.root.path("imports.sh")
    };
    let (code, _, err) = ward(
        f,
        &[
            "import",
            "plan",
            &s(&f.root.dir()),
            "--inventory",
            &s(&f.inventory),
            "--terraform",
            &tf,
            "--db",
            &s(&f.db),
            "-o",
            &s(&out),
            "--scratch",
            &s(&f.root.path("scratch.hcl")),
        ],
    );
    assert_eq!(code, 0, "ward import plan: {err}");
    let text = std::fs::read_to_string(&out).unwrap();
    if blocks {
        assert!(text.contains("import {"), "{text}");
        assert!(text.contains("for_each"), "{text}");
    } else {
        assert!(
            text.contains("terraform import 'fakecloud_instance.web[\"a\"]' i-live-a"),
            "{text}"
        );
        let dir = f.tf.path.parent().unwrap();
        let path = format!(
            "{}:{}",
            dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let run = Command::new("sh")
            .arg(&out)
            .current_dir(f.root.dir())
            .env("PATH", path)
            .env("TF_CLI_CONFIG_FILE", &f.cli_config)
            .env("FAKECLOUD_DIR", f.root.cloud_dir())
            .env("CHECKPOINT_DISABLE", "1")
            .env("TF_IN_AUTOMATION", "1")
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "the import commands failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let scratch = std::fs::read_to_string(f.root.path("scratch.hcl")).unwrap();
    assert!(
        scratch.contains("cidr = \"10.30.0.0/16\"") && !scratch.contains("tags"),
        "{scratch}"
    );
    Ok(())
}

fn check(f: &Fleet, json: &Path, extra: &[&str]) -> (i32, String) {
    let record = f.root.path("check.json");
    let mut args = vec![
        "import".to_string(),
        "check".into(),
        s(json),
        "--inventory".into(),
        s(&f.inventory),
        "--record".into(),
        s(&record),
    ];
    args.extend(extra.iter().map(|x| x.to_string()));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = ward(f, &a);
    assert!(
        code == 0 || code == 1,
        "ward import check: exit {code}: {err}"
    );
    (code, out)
}

#[test]
fn an_exact_model_is_adopted_and_accepted_then_plans_are_empty() {
    let Some(rig) = Rig::for_tests() else { return };
    rig.for_each_terraform(|tf| {
        let f = fleet(&rig, tf, "debian-12", "web")?;
        write_imports(&f)?;
        let plan = f.root.plan()?;
        if tf.at_least(1, 5) {
            // An import-only plan exits 2 with -detailed-exitcode; that is not a failure.
            assert_eq!(plan.exit_code, 2, "{}", plan.output.stdout);
        } else {
            assert_eq!(plan.exit_code, 0, "{}", plan.output.stdout);
        }
        let json = plan.write_json()?;
        let (code, out) = check(&f, &json, &[]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("result: pass"), "{out}");
        // Imports alone pass the gate while the root is being adopted.
        let (code, _, err) = ward(
            &f,
            &[
                "gate",
                &s(&json),
                "--root",
                &s(&f.root.dir()),
                "--db",
                &s(&f.db),
            ],
        );
        assert_eq!(code, 0, "ward gate on the import plan: {err}");
        let (code, out, err) = ward(
            &f,
            &[
                "import",
                "accept",
                &s(&f.root.dir()),
                "--plan",
                &s(&plan.file),
                "--record",
                &s(&f.root.path("check.json")),
                "--terraform",
                &s(&tf.path),
                "--db",
                &s(&f.db),
                "--format",
                "json",
            ],
        );
        assert_eq!(code, 0, "ward import accept: {out}\n{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["accepted"], true, "{out}");
        // The acceptance is in the history store.
        let store = ward_store::Store::open(&f.db).unwrap();
        let rows = store
            .records(&ward_store::RecordQuery {
                kind: "import-acceptance",
                root: None,
                key: None,
                limit: 0,
            })
            .unwrap();
        assert_eq!(rows.len(), 1);
        let body = &rows[0].body;
        assert_eq!(
            body["ids"]["fakecloud_instance.web[\"b\"]"], "i-live-b",
            "{body}"
        );
        assert_eq!(body["version"], tf.version.to_string());
        assert!(body["lineage"].as_str().is_some_and(|l| !l.is_empty()));
        // The next plan is empty.
        let after = f.root.plan()?;
        assert_eq!(after.exit_code, 0, "{}", after.output.stdout);
        // A managed change after the acceptance is the gate's ordinary business again.
        let again = f.root.refresh_only()?;
        assert!(again
            .json
            .get("resource_drift")
            .is_none_or(|d| d.as_array().is_none_or(Vec::is_empty)));
        // Running `ward import plan` again would silently put the accepted root back into
        // adoption: refused, unless asked for with --readopt (#33 item 16).
        let again_args = |extra: &[&str]| {
            let mut v = vec![
                "import".to_string(),
                "plan".to_string(),
                s(&f.root.dir()),
                "--inventory".to_string(),
                s(&f.inventory),
                "--terraform".to_string(),
                s(&tf.path),
                "--db".to_string(),
                s(&f.db),
                "-o".to_string(),
                s(&f.root.path("imports-again.txt")),
            ];
            v.extend(extra.iter().map(|x| x.to_string()));
            v
        };
        let args = again_args(&[]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = ward(&f, &args);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("was adopted and accepted") && err.contains("--readopt"),
            "{err}"
        );
        assert!(!f.root.path("imports-again.txt").exists());
        let args = again_args(&["--readopt"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = ward(&f, &args);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("is now being adopted"), "{err}");
        // The same saved plan cannot be accepted twice (it is stale, or the record is bound).
        Ok(())
    });
}

#[test]
fn a_differing_image_is_refused_naming_image() {
    let Some(rig) = Rig::for_tests() else { return };
    let Some(tf) = rig.newest_terraform() else {
        return;
    };
    let f = fleet(&rig, tf, "debian-13", "web").unwrap();
    write_imports(&f).unwrap();
    let plan = f.root.plan().unwrap();
    let (code, out) = check(&f, &plan.write_json().unwrap(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("fakecloud_instance.web[\"b\"] replace [image]"),
        "the refusal names image: {out}"
    );
    assert!(out.contains("import id"), "{out}");
    // accept refuses the record of a refused check.
    let (code, out, _) = ward(
        &f,
        &[
            "import",
            "accept",
            &s(&f.root.dir()),
            "--plan",
            &s(&plan.file),
            "--record",
            &s(&f.root.path("check.json")),
            "--terraform",
            &s(&tf.path),
            "--db",
            &s(&f.db),
        ],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("did not pass"), "{out}");
    assert!(
        f.root.state_addresses().unwrap().is_empty(),
        "nothing was applied"
    );
}

#[test]
fn a_differing_tag_is_refused_unless_allowed() {
    let Some(rig) = Rig::for_tests() else { return };
    let Some(tf) = rig.newest_terraform() else {
        return;
    };
    let f = fleet(&rig, tf, "debian-12", "legacy").unwrap();
    write_imports(&f).unwrap();
    let plan = f.root.plan().unwrap();
    let json = plan.write_json().unwrap();
    let (code, out) = check(&f, &json, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("update [tags.role]"), "{out}");
    // With an allowance (and its reason) the same plan passes.
    let mut inv: Value =
        serde_json::from_str(&std::fs::read_to_string(&f.inventory).unwrap()).unwrap();
    inv["allow"] = json!([{"address": "fakecloud_instance.web[\"b\"]", "attribute": "tags", "reason": "role tags are normalised to web"}]);
    std::fs::write(&f.inventory, inv.to_string()).unwrap();
    let (code, out) = check(&f, &json, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("allowed: tags.role: role tags are normalised to web"),
        "{out}"
    );
}

#[test]
fn a_duplicate_id_and_an_id_managed_by_another_root_are_refused() {
    let Some(rig) = Rig::for_tests() else { return };
    let Some(tf) = rig.newest_terraform() else {
        return;
    };
    let f = fleet(&rig, tf, "debian-12", "web").unwrap();
    // The same id twice in the inventory: `ward import plan` refuses to write it.
    let mut inv: Value =
        serde_json::from_str(&std::fs::read_to_string(&f.inventory).unwrap()).unwrap();
    let good = inv.clone();
    inv["objects"]["fakecloud_instance.web[\"b\"]"] = json!("i-live-a");
    std::fs::write(&f.inventory, inv.to_string()).unwrap();
    let (code, _, err) = ward(
        &f,
        &[
            "import",
            "plan",
            &s(&f.root.dir()),
            "--inventory",
            &s(&f.inventory),
            "--terraform",
            &s(&tf.path),
            "--db",
            &s(&f.db),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("listed twice") && err.contains("i-live-a"),
        "{err}"
    );
    // Written by hand, Terraform plans both imports of one id without a word; the check refuses.
    f.root
        .write_file(
            "imports.tf",
            "import {\n  to = fakecloud_network.main\n  id = \"net-live1\"\n}\nimport {\n  to = fakecloud_instance.web[\"a\"]\n  id = \"i-live-a\"\n}\nimport {\n  to = fakecloud_instance.web[\"b\"]\n  id = \"i-live-a\"\n}\nimport {\n  to = fakecloud_volume.data\n  id = \"vol-live1\"\n}\n",
        )
        .unwrap();
    let plan = f.root.plan().unwrap();
    let json = plan.write_json().unwrap();
    let (code, out) = check(&f, &json, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("duplicate-id"), "{out}");
    // Another root already manages the volume.
    std::fs::write(&f.inventory, good.to_string()).unwrap();
    let other = rig.root(tf).unwrap();
    other
        .write_file(
            "main.tf",
            &format!("{PROVIDER}\nresource \"fakecloud_volume\" \"shared\" {{\n  name    = \"data\"\n  size_gb = 10\n}}\n"),
        )
        .unwrap();
    other.init().unwrap();
    // Its cloud is its own: put the same object there and import it.
    other
        .cloud()
        .create(
            "volume",
            "vol-live1",
            json!({"name": "data", "size_gb": 10}),
        )
        .unwrap();
    other
        .import("fakecloud_volume.shared", "vol-live1")
        .unwrap();
    let state = other.path("pulled.tfstate");
    std::fs::write(
        &state,
        serde_json::to_string(&other.state_file().unwrap().unwrap()).unwrap(),
    )
    .unwrap();
    f.root
        .write_file(
            "imports.tf",
            "import {\n  to = fakecloud_network.main\n  id = \"net-live1\"\n}\nimport {\n  to = fakecloud_instance.web[\"a\"]\n  id = \"i-live-a\"\n}\nimport {\n  to = fakecloud_instance.web[\"b\"]\n  id = \"i-live-b\"\n}\nimport {\n  to = fakecloud_volume.data\n  id = \"vol-live1\"\n}\n",
        )
        .unwrap();
    let plan = f.root.plan().unwrap();
    let json = plan.write_json().unwrap();
    let (code, out) = check(&f, &json, &[]);
    assert_eq!(code, 0, "{out}");
    let st = format!("storage={}", s(&state));
    let (code, out) = check(&f, &json, &["--state", &st]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("managed by root \"storage\" (as fakecloud_volume.shared)"),
        "{out}"
    );
}

#[test]
fn a_managed_change_before_acceptance_is_refused_by_the_gate() {
    let Some(rig) = Rig::for_tests() else { return };
    rig.for_each_terraform(|tf| {
        let f = fleet(&rig, tf, "debian-12", "web")?;
        write_imports(&f)?;
        // A managed change beside the imports: a new bucket.
        f.root.write_file(
            "bucket.tf",
            "resource \"fakecloud_bucket\" \"logs\" {\n  name = \"logs\"\n}\n",
        )?;
        let plan = f.root.plan()?;
        let json = plan.write_json()?;
        let (code, out, err) = ward(
            &f,
            &[
                "gate",
                &s(&json),
                "--root",
                &s(&f.root.dir()),
                "--db",
                &s(&f.db),
            ],
        );
        assert_eq!(code, 1, "{out}\n{err}");
        assert!(
            err.contains("being adopted") && err.contains("fakecloud_bucket.logs (create)"),
            "{err}"
        );
        // And the import check refuses it too.
        let (code, out) = check(&f, &json, &[]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("fakecloud_bucket.logs create"), "{out}");
        Ok(())
    });
}

#[test]
fn ids_in_the_states_of_other_declared_roots_are_refused() {
    let Some(rig) = Rig::for_tests() else { return };
    let Some(tf) = rig.newest_terraform() else {
        return;
    };
    let f = fleet(&rig, tf, "debian-12", "web").unwrap();
    write_imports(&f).unwrap();
    let other = rig.root(tf).unwrap();
    other
        .write_file(
            "main.tf",
            &format!("{PROVIDER}\nresource \"fakecloud_network\" \"core\" {{\n  name = \"main\"\n  cidr = \"10.30.0.0/16\"\n}}\n"),
        )
        .unwrap();
    other.init().unwrap();
    other
        .cloud()
        .create(
            "network",
            "net-live1",
            json!({"name": "main", "cidr": "10.30.0.0/16"}),
        )
        .unwrap();
    other.import("fakecloud_network.core", "net-live1").unwrap();
    // A repository declaring both roots (linked in), and a third that has no state yet.
    let repo = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(f.root.dir(), repo.path().join("fleet")).unwrap();
    std::os::unix::fs::symlink(other.dir(), repo.path().join("network")).unwrap();
    let empty = rig.root(tf).unwrap();
    empty.write_file("main.tf", PROVIDER).unwrap();
    empty.init().unwrap();
    std::os::unix::fs::symlink(empty.dir(), repo.path().join("empty")).unwrap();
    let hcl = repo.path().join("ward.hcl");
    std::fs::write(
        &hcl,
        "root \"fleet\" {\n  path = \"fleet\"\n}\nroot \"network\" {\n  path = \"network\"\n}\nroot \"empty\" {\n  path = \"empty\"\n}\n",
    )
    .unwrap();
    let plan = f.root.plan().unwrap();
    let json = plan.write_json().unwrap();
    let (code, out) = check(
        &f,
        &json,
        &[
            "--other-roots",
            "--config",
            &s(&hcl),
            "--root",
            &s(&f.root.dir()),
            "--terraform",
            &s(&tf.path),
        ],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("already managed by root \"network\" (as fakecloud_network.core)"),
        "{out}"
    );
    assert_eq!(out.matches("managed-elsewhere").count(), 1, "{out}");
}
