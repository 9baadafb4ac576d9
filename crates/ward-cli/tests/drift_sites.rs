//! `ward drift` on a stack with sites (#33 item 14): every root at every site is its own check,
//! with that site's backend configuration and var files (and the outputs of the roots it
//! reads); a site a recorded `ward stack teardown` emptied is `torn-down`, naming that run, not
//! `missing-state`; once it holds resources again it is checked as usual. Against real
//! Terraform and fakecloud, on the three-layer, two-site example (`examples/stack`), through the
//! `ward` binary. Skipped (with a message) when the rig's tools are not installed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use ward_rig::{Cloud, Rig};

/// A copy of `examples/stack` (`site/`, its own checkout) with `rules/`, `cloud/`, and the
/// history beside it.
struct Stack {
    tmp: tempfile::TempDir,
    tf: PathBuf,
    cli_config: PathBuf,
}

impl Stack {
    fn new(rig: &Rig) -> Stack {
        let tmp = tempfile::tempdir().unwrap();
        ward_rig::example_stack(tmp.path()).unwrap();
        Stack {
            tmp,
            tf: rig.newest_terraform().expect("a Terraform").path.clone(),
            cli_config: rig.cli_config().to_path_buf(),
        }
    }
    fn repo(&self) -> PathBuf {
        self.tmp.path().join("site")
    }
    fn db(&self) -> PathBuf {
        self.tmp.path().join("history.sqlite")
    }
    fn cloud(&self) -> Cloud {
        Cloud::new(self.tmp.path().join("cloud"))
    }
    fn ward(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_ward"))
            .args(args)
            .current_dir(self.repo())
            .env("TF_CLI_CONFIG_FILE", &self.cli_config)
            .env("FAKECLOUD_DIR", self.tmp.path().join("cloud"))
            .env("CHECKPOINT_DISABLE", "1")
            .env("WARD_APPROVER", "tester")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
    /// `ward stack CMD ...` with this copy's history and Terraform, as JSON.
    fn stack(&self, args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
        let db = self.db().display().to_string();
        let tf = self.tf.display().to_string();
        let mut a = vec!["stack"];
        a.extend(args);
        a.extend(["--db", &db, "--terraform", &tf, "--format", "json"]);
        let o = self.ward(&a);
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        let json = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
        (o.status.code(), json, format!("{text}\n{err}"))
    }
    /// Tears down `site`: teardown, then approve every destroy it waits on and resume, until
    /// it passes. The ids of the runs (the teardown and its resumes).
    fn teardown(&self, site: &str) -> Vec<String> {
        let (mut code, mut json, mut out) = self.stack(&["teardown", "--site", site]);
        let mut runs = Vec::new();
        for _ in 0..12 {
            runs.extend(json["run"].as_str().map(str::to_string));
            if code == Some(0) {
                break;
            }
            assert_eq!(code, Some(4), "teardown stopped otherwise:\n{out}");
            for r in json["roots"].as_array().unwrap() {
                for a in r["approvals"].as_array().into_iter().flatten() {
                    let (c, _, o) = self.stack(&[
                        "approve",
                        "--site",
                        r["site"].as_str().unwrap(),
                        "--root",
                        r["root"].as_str().unwrap(),
                        "--address",
                        a["address"].as_str().unwrap(),
                        "--reason",
                        "site retired",
                    ]);
                    assert_eq!(c, Some(0), "{o}");
                }
            }
            (code, json, out) = self.stack(&["resume"]);
        }
        assert_eq!(code, Some(0), "{out}");
        runs.extend(json["run"].as_str().map(str::to_string));
        runs
    }
    /// `ward drift` on the copy: (exit, every root's (outcome, detail) by name).
    fn drift(&self) -> (Option<i32>, BTreeMap<String, (String, String)>, String) {
        let db = self.db().display().to_string();
        let tf = self.tf.display().to_string();
        let o = self.ward(&[
            "drift",
            ".",
            "--db",
            &db,
            "--terraform",
            &tf,
            "--format",
            "json",
            "--no-progress",
        ]);
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let err = String::from_utf8_lossy(&o.stderr);
        let json: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("drift printed no JSON ({e}):\n{text}\n{err}"));
        let roots = json["roots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let detail: Vec<&str> = r["detail"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|d| d.as_str())
                    .collect();
                (
                    r["name"].as_str().unwrap().to_string(),
                    (r["outcome"].as_str().unwrap().to_string(), detail.join(" ")),
                )
            })
            .collect();
        (o.status.code(), roots, text)
    }
}

fn outcomes(roots: &BTreeMap<String, (String, String)>) -> Vec<(String, String)> {
    roots
        .iter()
        .map(|(k, (o, _))| (k.clone(), o.clone()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn drift_checks_every_site_and_knows_a_site_the_stack_tore_down() {
    let Some(rig) = Rig::for_tests() else { return };
    let s = Stack::new(&rig);
    let (code, _, out) = s.stack(&["apply"]);
    assert_eq!(code, Some(0), "{out}");

    // Every root at every site, each against its own state: all clean.
    let (code, roots, text) = s.drift();
    assert_eq!(
        outcomes(&roots),
        pairs(&[
            ("instances/dc0", "clean"),
            ("instances/dc1", "clean"),
            ("network/dc0", "clean"),
            ("network/dc1", "clean"),
            ("volumes/dc0", "clean"),
            ("volumes/dc1", "clean"),
        ]),
        "{text}"
    );
    assert_eq!(code, Some(0), "{text}");

    // A change outside Terraform at one site is that site's drift only.
    let cloud = s.cloud();
    let id = cloud.id_by_name("instance", "dc1-app").unwrap();
    cloud.set("instance", &id, "size", "xlarge".into()).unwrap();
    let (code, roots, text) = s.drift();
    assert_eq!(roots["instances/dc1"].0, "drifted", "{text}");
    for clean in [
        "instances/dc0",
        "network/dc0",
        "network/dc1",
        "volumes/dc0",
        "volumes/dc1",
    ] {
        assert_eq!(roots[clean].0, "clean", "{clean}: {text}");
    }
    assert_eq!(code, Some(7), "a new finding alerts: {text}");

    // dc0 torn down by the stack: its three roots are torn down, naming the run; dc1 is checked
    // as before; the run does not fail.
    let runs = s.teardown("dc0");
    assert!(!runs.is_empty());
    let (code, roots, text) = s.drift();
    for gone in ["instances/dc0", "network/dc0", "volumes/dc0"] {
        let (outcome, detail) = &roots[gone];
        assert_eq!(outcome, "torn-down", "{gone}: {text}");
        assert!(detail.contains("ward stack teardown"), "{detail}");
        assert!(
            runs.iter().any(|r| detail.contains(&format!("run {r}"))),
            "{detail} should name one of {runs:?}"
        );
    }
    assert_eq!(roots["instances/dc1"].0, "drifted", "{text}");
    assert_eq!(roots["network/dc1"].0, "clean", "{text}");
    assert_eq!(
        code,
        Some(0),
        "torn down is no failure, the finding is not new: {text}"
    );

    // Applied again, dc0 is checked for drift as usual.
    let (code, _, out) = s.stack(&["apply", "--site", "dc0"]);
    assert_eq!(code, Some(0), "{out}");
    let (_, roots, text) = s.drift();
    for back in ["instances/dc0", "network/dc0", "volumes/dc0"] {
        assert_eq!(roots[back].0, "clean", "{back}: {text}");
    }
}
