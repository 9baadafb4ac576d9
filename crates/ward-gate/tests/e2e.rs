//! End to end with real Terraform and the fakecloud provider (through ward-rig): plans that
//! replace a data-holding volume, approvals, guards and `ward verify`.
//!
//! Skipped (with a message) when the tools are not installed; run `scripts/test` to install them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use ward_gate::run::{self, ApproveOptions, GateOptions, Inputs, VerifyOptions};
use ward_report::Format;

mod common;
use ward_rig::{Rig, Root};

const MAIN_TF: &str = r#"
terraform {
  required_providers {
    fakecloud = {
      source = "ward/fakecloud"
    }
  }
}

provider "fakecloud" {}

data "fakecloud_image" "ci" {
  name = "debian-12"
}

resource "fakecloud_network" "main" {
  name = "main"
  cidr = "10.20.0.0/16"
}

resource "fakecloud_volume" "data" {
  name    = "data"
  size_gb = DATA_SIZE
}

resource "fakecloud_volume" "logs" {
  name    = "logs"
  size_gb = LOGS_SIZE
}

resource "fakecloud_instance" "ci" {
  name       = "ci"
  size       = "small"
  image      = data.fakecloud_image.ci.id
  network_id = fakecloud_network.main.id
  tags = {
    role = "TAG"
  }
}
"#;

const WARD_HCL: &str = r#"
guard "builds-idle" {
  types   = ["fakecloud_instance"]
  actions = ["delete"]
  command = ["sh", "-c", "echo \"2 builds running on $WARD_ADDRESS (name $WARD_ATTR_NAME, TZ $TZ)\"; exit 1"]
  timeout = "20s"
}
"#;

struct Env(BTreeMap<String, String>);

impl Env {
    fn new(now: &str) -> Self {
        let mut m = BTreeMap::new();
        m.insert("WARD_NOW".to_string(), now.to_string());
        m.insert("WARD_APPROVER".to_string(), "alice".to_string());
        Env(m)
    }
    fn with(mut self, k: &str, v: &str) -> Self {
        self.0.insert(k.to_string(), v.to_string());
        self
    }
    fn get(&self) -> impl Fn(&str) -> Option<String> + '_ {
        move |k: &str| self.0.get(k).cloned()
    }
}

struct Case<'a> {
    root: &'a Root,
}

impl Case<'_> {
    fn config(&self, data: u32, logs: u32, tag: &str) {
        let text = MAIN_TF
            .replace("DATA_SIZE", &data.to_string())
            .replace("LOGS_SIZE", &logs.to_string())
            .replace("TAG", tag);
        self.root.write_file("main.tf", &text).unwrap();
    }

    /// Plans and writes the JSON; returns (plan json path, saved plan file).
    fn plan(&self, name: &str) -> (String, PathBuf) {
        let plan = self.root.plan().unwrap();
        let path = self.root.path(name);
        std::fs::write(&path, plan.json.to_string()).unwrap();
        (path.display().to_string(), plan.file)
    }

    fn inputs(&self, plan: &str) -> Inputs {
        Inputs {
            plan: plan.to_string(),
            config: Some(self.root.path("ward.hcl")),
            approvals: None,
            root: Some(self.root.dir()),
            allow_unclassified: false,
            history: None,
        }
    }

    fn gate(&self, plan: &str, env: &Env, record: Option<PathBuf>) -> common::Out {
        common::gate(
            common::run_gate(
                &GateOptions {
                    inputs: self.inputs(plan),
                    record,
                    no_record_protection: false,
                    audit: None,
                    binding: Default::default(),
                },
                &env.get(),
            )
            .unwrap(),
            Format::Terminal,
        )
    }

    fn approve(
        &self,
        plan: &str,
        address: &str,
        expires: Option<&str>,
        env: &Env,
    ) -> Result<common::Out, ward_gate::GateError> {
        common::run_approve(
            &ApproveOptions {
                inputs: self.inputs(plan),
                address: address.to_string(),
                deposed: None,
                reason: "backup taken".into(),
                expires: expires.map(str::to_string),
                by: None,
                audit: None,
                binding: Default::default(),
            },
            &env.get(),
        )
        .map(common::approve)
    }

    fn approvals_path(&self) -> PathBuf {
        self.root.path(".ward/approvals.json")
    }
}

#[test]
fn approvals_bound_to_the_change_against_real_terraform() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        let root = rig.root(tf).unwrap();
        let c = Case { root: &root };
        root.write_file("ward.hcl", &ward_rig::rules::ward_hcl(WARD_HCL))
            .unwrap();
        c.config(20, 20, "ci");
        root.init().unwrap();
        root.apply().unwrap();
        let env = Env::new("2026-11-29T18:00:00Z");

        // Shrinking the data volume replaces it: data loss, blocked.
        c.config(10, 20, "ci");
        let (p10, _) = c.plan("p10.json");
        let out = c.gate(&p10, &env, None);
        assert_eq!(out.exit.code(), 4, "{tf:?}\n{}", out.stdout);
        assert!(
            out.stdout.contains("fakecloud_volume.data"),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout.contains("deciding: size_gb: 20 → 10"),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout.contains(&format!(
                "approve: ward approve {p10} --config {} --root {} --address fakecloud_volume.data --reason '<why>'",
                root.path("ward.hcl").display(),
                root.dir().display()
            )),
            "{}",
            out.stdout
        );

        // An approval for another change does not unblock it.
        c.config(20, 5, "ci");
        let (plogs, _) = c.plan("plogs.json");
        c.approve(&plogs, "fakecloud_volume.logs", None, &env)
            .unwrap();
        let out = c.gate(&p10, &env, None);
        assert_eq!(out.exit.code(), 4, "{}", out.stdout);
        assert!(out.stdout.contains("approvals in"), "{}", out.stdout);
        assert!(
            out.stdout.contains("fakecloud_volume.logs (by alice"),
            "{}",
            out.stdout
        );
        std::fs::remove_file(c.approvals_path()).unwrap();

        // Approving it unblocks it.
        let a = c
            .approve(&p10, "fakecloud_volume.data", None, &env)
            .unwrap();
        assert!(
            a.stdout
                .starts_with("approved fakecloud_volume.data (delete,create, data-loss) sha256:"),
            "{}",
            a.stdout
        );
        let out = c.gate(&p10, &env, None);
        assert_eq!(out.exit.code(), 0, "{}", out.stdout);
        assert!(out.stdout.contains("approved by alice"), "{}", out.stdout);

        // Changing the deciding attribute after approval blocks again, and says what differs.
        c.config(5, 20, "ci");
        let (p5, _) = c.plan("p5.json");
        let out = c.gate(&p5, &env, None);
        assert_eq!(out.exit.code(), 4, "{}", out.stdout);
        assert!(
            out.stdout.contains("was for a different change"),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout
                .contains("approved size_gb: 20 → 10; now size_gb: 20 → 5"),
            "{}",
            out.stdout
        );

        // An unrelated extra change elsewhere keeps the approval valid.
        c.config(10, 20, "build");
        let (pextra, _) = c.plan("pextra.json");
        let out = c.gate(&pextra, &env, None);
        assert_eq!(out.exit.code(), 0, "{}", out.stdout);

        // An expired approval blocks and says so.
        c.approve(&p10, "fakecloud_volume.data", Some("1h"), &env)
            .unwrap();
        let later = Env::new("2026-11-29T19:30:00Z");
        let out = c.gate(&p10, &later, None);
        assert_eq!(out.exit.code(), 4, "{}", out.stdout);
        assert!(
            out.stdout
                .contains("the approval by alice expired at 2026-11-29T19:00:00Z"),
            "{}",
            out.stdout
        );
        assert_eq!(c.gate(&p10, &env, None).exit.code(), 0);

        // Data loss cannot be approved by pattern.
        let err = c
            .approve(&p10, "fakecloud_volume.*", None, &env)
            .unwrap_err();
        assert!(err.to_string().contains("exact address"), "{err}");

        // A signed approval, edited by hand, is refused by a gate holding the key.
        let keyed = Env::new("2026-11-29T18:00:00Z").with("WARD_APPROVAL_KEY", "k3y");
        c.approve(&p10, "fakecloud_volume.data", Some("1h"), &keyed)
            .unwrap();
        assert_eq!(c.gate(&p10, &keyed, None).exit.code(), 0);
        let text = std::fs::read_to_string(c.approvals_path()).unwrap();
        assert!(text.contains("\"signature\": \"hmac-sha256:"));
        let edited = text.replace("\"2026-11-29T19:00:00Z\"", "\"2027-11-29T19:00:00Z\"");
        assert_ne!(edited, text);
        std::fs::write(c.approvals_path(), edited).unwrap();
        let out = c.gate(&p10, &keyed, None);
        assert_eq!(out.exit.code(), 4, "{}", out.stdout);
        assert!(
            out.stdout.contains("signature does not match"),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn guard_blocks_a_destroy_until_bypassed() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        let root = rig.root(tf).unwrap();
        let c = Case { root: &root };
        root.write_file("ward.hcl", &ward_rig::rules::ward_hcl(WARD_HCL))
            .unwrap();
        c.config(20, 20, "ci");
        root.init().unwrap();
        root.apply().unwrap();
        // Remove the instance from the configuration: a destroy.
        let text = root.read_file("main.tf").unwrap();
        let cut = text.find("resource \"fakecloud_instance\"").unwrap();
        root.write_file("main.tf", &text[..cut]).unwrap();
        let (pdel, _) = c.plan("pdel.json");
        let env = Env::new("2026-11-29T18:00:00Z");
        let out = c.gate(&pdel, &env, None);
        assert_eq!(out.exit.code(), 6, "{}", out.stdout);
        assert!(
            out.stdout.contains(
                "guard `builds-idle` for fakecloud_instance.ci (delete): REFUSED (exit code 1)"
            ),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout
                .contains("2 builds running on fakecloud_instance.ci (name ci, TZ UTC)"),
            "{}",
            out.stdout
        );

        let bypass = Env::new("2026-11-29T18:00:00Z")
            .with("WARD_BYPASS_GUARD_BUILDS_IDLE", "farm drained, INC-7");
        let out = c.gate(&pdel, &bypass, None);
        assert_eq!(out.exit.code(), 0, "{}", out.stdout);
        assert!(
            out.stdout
                .contains("BYPASSED by WARD_BYPASS_GUARD_BUILDS_IDLE: farm drained, INC-7"),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn verify_refuses_a_plan_file_that_differs_from_the_gated_one() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        let root = rig.root(tf).unwrap();
        let c = Case { root: &root };
        root.write_file("ward.hcl", &ward_rig::rules::ward_hcl(WARD_HCL))
            .unwrap();
        c.config(20, 20, "ci");
        root.init().unwrap();
        root.apply().unwrap();
        let env = Env::new("2026-11-29T18:00:00Z");

        c.config(20, 20, "build");
        let (pa, file_a) = c.plan("pa.json");
        let record = root.path("gate.json");
        assert_eq!(c.gate(&pa, &env, Some(record.clone())).exit.code(), 0);
        let verify = |file: &PathBuf| {
            run::verify_with_env(
                &VerifyOptions {
                    planfile: file.clone(),
                    record: record.clone(),
                    binary: Some(tf.path.display().to_string()),
                    chdir: Some(root.dir()),
                    timeout: None,
                    ..VerifyOptions::default()
                },
                &|_: &str| None,
            )
            .map(|v| common::verify(v, false))
            .unwrap()
        };
        let ok = verify(&file_a);
        assert_eq!(ok.exit.code(), 0, "{}", ok.stdout);
        assert!(ok.stdout.contains("verified"), "{}", ok.stdout);

        c.config(20, 20, "other");
        let (_, file_b) = c.plan("pb.json");
        let bad = verify(&file_b);
        assert_eq!(bad.exit.code(), 1, "{}", bad.stdout);
        assert!(
            bad.stdout
                .contains("fakecloud_instance.ci: the change differs"),
            "{}",
            bad.stdout
        );

        // A gated plan that did not pass does not verify either.
        c.config(10, 20, "ci");
        let (pc, file_c) = c.plan("pc.json");
        assert_eq!(c.gate(&pc, &env, Some(record.clone())).exit.code(), 4);
        let blocked = verify(&file_c);
        assert_eq!(blocked.exit.code(), 1, "{}", blocked.stdout);
        assert!(
            blocked.stdout.contains("the gate did not pass this plan"),
            "{}",
            blocked.stdout
        );
    }
}

#[test]
fn protection_survives_removing_prevent_destroy_from_code() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        let root = rig.root(tf).unwrap();
        let c = Case { root: &root };
        root.write_file(
            "ward.hcl",
            &ward_rig::rules::ward_hcl(
                "policy {\n  budget \"fakecloud_volume\" {\n    max_deletes = 0\n  }\n}\n",
            ),
        )
        .unwrap();
        c.config(20, 20, "ci");
        root.replace_in_file(
            "main.tf",
            "    role = \"ci\"\n  }\n",
            "    role = \"ci\"\n  }\n  lifecycle {\n    prevent_destroy = true\n  }\n",
        )
        .unwrap();
        root.init().unwrap();
        root.apply().unwrap();
        let env = Env::new("2026-11-29T18:00:00Z");

        // A plan with nothing dangerous passes, and records the protection found in code.
        c.config(20, 20, "build");
        root.replace_in_file(
            "main.tf",
            "    role = \"build\"\n  }\n",
            "    role = \"build\"\n  }\n  lifecycle {\n    prevent_destroy = true\n  }\n",
        )
        .unwrap();
        let (p1, _) = c.plan("p1.json");
        let out = c.gate(&p1, &env, None);
        assert_eq!(out.exit.code(), 0, "{}", out.stdout);
        assert!(
            out.stderr.contains("recorded 1 newly protected"),
            "{}",
            out.stderr
        );
        let rec = std::fs::read_to_string(root.path(".ward/protection.json")).unwrap();
        assert!(
            rec.contains("\"address\": \"fakecloud_instance.ci\""),
            "{rec}"
        );

        // Delete the resource block, prevent_destroy and all: still protected, and warned about.
        let text = root.read_file("main.tf").unwrap();
        let cut = text.find("resource \"fakecloud_instance\"").unwrap();
        root.write_file("main.tf", &text[..cut]).unwrap();
        let (p2, _) = c.plan("p2.json");
        let out = c.gate(&p2, &env, None);
        assert_eq!(out.exit.code(), 4, "{}", out.stdout);
        assert!(
            out.stdout.contains(
                "protected: prevent_destroy was removed from main.tf, ward still protects it"
            ),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout.contains(
                "warning: prevent_destroy for fakecloud_instance.ci was removed from the code"
            ),
            "{}",
            out.stdout
        );
        c.approve(&p2, "fakecloud_instance.ci", None, &env).unwrap();
        assert_eq!(c.gate(&p2, &env, None).exit.code(), 0);

        // Budgets: no approval lifts them.
        c.config(20, 20, "build");
        let text = root.read_file("main.tf").unwrap();
        let cut = text.find("resource \"fakecloud_volume\" \"logs\"").unwrap();
        let end = cut + text[cut..].find("}\n").unwrap() + 2;
        root.write_file("main.tf", &format!("{}{}", &text[..cut], &text[end..]))
            .unwrap();
        let (p3, _) = c.plan("p3.json");
        c.approve(&p3, "fakecloud_volume.logs", None, &env).unwrap();
        let out = c.gate(&p3, &env, None);
        assert_eq!(out.exit.code(), 5, "{}", out.stdout);
        assert!(
            out.stdout.contains(
                "fakecloud_volume deletes: 1 of at most 0  EXCEEDED: fakecloud_volume.logs"
            ),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn verify_reads_the_saved_plan_and_says_whether_the_record_was_checked() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        let root = rig.root(tf).unwrap();
        let c = Case { root: &root };
        root.write_file("ward.hcl", &ward_rig::rules::ward_hcl(""))
            .unwrap();
        c.config(20, 20, "ci");
        root.init().unwrap();
        root.apply().unwrap();
        c.config(20, 20, "build");
        let (pa, file) = c.plan("pa.json");
        let record = root.path("gate.json");
        let verify = |key: Option<&str>| {
            let env = move |k: &str| {
                (k == "WARD_APPROVAL_KEY")
                    .then(|| key.map(str::to_string))
                    .flatten()
            };
            run::verify_with_env(
                &VerifyOptions {
                    planfile: file.clone(),
                    record: record.clone(),
                    binary: Some(tf.path.display().to_string()),
                    chdir: Some(root.dir()),
                    timeout: None,
                    ..VerifyOptions::default()
                },
                &env,
            )
            .unwrap()
        };
        // An unsigned record: verified through its content binding, and the note says how.
        let env = Env::new("2026-11-29T18:00:00Z");
        assert_eq!(c.gate(&pa, &env, Some(record.clone())).exit.code(), 0);
        let v = verify(None);
        assert!(v.report.ok, "{tf:?}: {:?}", v.report.differences);
        assert_eq!(
            v.report.changes, 4,
            "every resource of the root, changed or not"
        );
        assert_eq!(
            v.notes,
            ["note: the gate record is not signed: set WARD_APPROVAL_KEY for `ward gate --record` and `ward verify` to detect edits of the record (without the key, its salted Argon2id binding ties it to every value of the plan; see `ward docs gate`)"]
        );
        // A signed record: checked under the key, and nothing to note.
        let keyed = Env::new("2026-11-29T18:00:00Z").with("WARD_APPROVAL_KEY", "k1");
        assert_eq!(c.gate(&pa, &keyed, Some(record.clone())).exit.code(), 0);
        let v = verify(Some("k1"));
        assert!(v.report.ok, "{tf:?}: {:?}", v.report.differences);
        assert!(v.notes.is_empty(), "{:?}", v.notes);
        // Without the key its signature cannot be checked (nor its keyed digests matched).
        let v = verify(None);
        assert!(!v.report.ok);
        assert_eq!(
            v.notes,
            ["note: the gate record is signed, but WARD_APPROVAL_KEY is not set: its signature was not checked"]
        );

        // show_json reads the saved plan as the binary shows it.
        let timeout = std::time::Duration::from_secs(120);
        let plan = ward_gate::verify::show_json(
            &tf.path.display().to_string(),
            &root.dir(),
            &file,
            timeout,
        )
        .unwrap();
        let changed: Vec<&str> = plan
            .changes
            .iter()
            .filter(|ch| ch.action.is_change())
            .map(|ch| ch.address.as_str())
            .collect();
        assert_eq!(changed, ["fakecloud_instance.ci"]);
        // A file that is not a saved plan: the binary fails, and the error says so.
        let junk = root.path("junk.tfplan");
        std::fs::write(&junk, "not a plan").unwrap();
        let e = ward_gate::verify::show_json(
            &tf.path.display().to_string(),
            &root.dir(),
            &junk,
            timeout,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("show -json") && e.contains("failed (exit status: 1)"),
            "{tf:?}: {e}"
        );
        assert!(e.contains("Run it in the root that made the plan"), "{e}");
    }
}
