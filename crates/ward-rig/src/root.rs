//! A scratch Terraform root with its own fake cloud.

use crate::error::TerraformFailure;
use crate::{Cloud, Rig, RigError, Terraform};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// What one Terraform command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The exit code (-1 when killed by a signal).
    pub code: i32,
    /// Everything printed on stdout.
    pub stdout: String,
    /// Everything printed on stderr.
    pub stderr: String,
}

/// A saved plan and its JSON (`terraform show -json <plan>`). The plan keeps its root's
/// directory alive, so `file` stays valid after the [`Root`] is dropped.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The plan as `show -json` printed it.
    pub json: Value,
    /// The saved plan file (inside the root), usable with [`Root::apply_plan`].
    pub file: PathBuf,
    /// The exit code of `plan -detailed-exitcode`: 0 no changes, 2 changes.
    pub exit_code: i32,
    /// What `plan` printed.
    pub output: Output,
    /// Keeps the root's directory (and so `file`) alive as long as the plan.
    _dir: Arc<tempfile::TempDir>,
}

impl Plan {
    /// Writes the plan JSON beside the saved plan (`plan-N.json`, as `show -json` printed it,
    /// pretty-printed) and returns its path: what a test hands to `ward plan`.
    pub fn write_json(&self) -> Result<PathBuf, RigError> {
        let path = self.file.with_extension("json");
        let text = serde_json::to_string_pretty(&self.json).map_err(|e| RigError::Json {
            what: "a plan to write".into(),
            source: e,
        })?;
        fs::write(&path, text + "\n")
            .map_err(|e| RigError::io(format!("cannot write {}", path.display()), e))?;
        Ok(path)
    }

    /// The `resource_changes` entry for `address`.
    pub fn change(&self, address: &str) -> Option<&Value> {
        find_address(self.json.get("resource_changes"), address)
    }

    /// The `resource_drift` entry for `address`.
    pub fn drift(&self, address: &str) -> Option<&Value> {
        find_address(self.json.get("resource_drift"), address)
    }

    /// `change.actions` of `address` in `resource_changes`; empty when absent.
    pub fn actions(&self, address: &str) -> Vec<String> {
        actions_of(self.change(address))
    }

    /// `change.actions` of `address` in `resource_drift`; empty when absent.
    pub fn drift_actions(&self, address: &str) -> Vec<String> {
        actions_of(self.drift(address))
    }

    /// Every `resource_changes` address whose actions are not `["no-op"]`, sorted, each with
    /// its actions joined by `,` (e.g. `fakecloud_instance.web[0] delete,create`).
    pub fn summary(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .json
            .get("resource_changes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|rc| {
                let address = rc.get("address")?.as_str()?;
                let actions = actions_of(Some(rc)).join(",");
                (actions != "no-op").then(|| format!("{address} {actions}"))
            })
            .collect();
        out.sort();
        out
    }
}

fn find_address<'a>(list: Option<&'a Value>, address: &str) -> Option<&'a Value> {
    list?
        .as_array()?
        .iter()
        .find(|rc| rc.get("address").and_then(Value::as_str) == Some(address))
}

fn actions_of(rc: Option<&Value>) -> Vec<String> {
    rc.and_then(|rc| rc.pointer("/change/actions"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A scratch root: a configuration directory and a cloud directory in one temporary
/// directory, deleted on drop. Every command runs with a clean Terraform environment
/// (inherited `TF_*` variables removed), the rig's CLI configuration, `CHECKPOINT_DISABLE=1`,
/// `TF_IN_AUTOMATION=1`, `TF_INPUT=0` and `FAKECLOUD_DIR` pointing at this root's cloud.
#[derive(Debug)]
pub struct Root {
    rig: Rig,
    tf: Terraform,
    tmp: Arc<tempfile::TempDir>,
    plans: AtomicUsize,
}

impl Root {
    /// An empty root run by `tf`.
    pub fn new(rig: &Rig, tf: &Terraform) -> Result<Root, RigError> {
        let tmp = tempfile::Builder::new()
            .prefix("ward-root-")
            .tempdir()
            .map_err(|e| RigError::io("cannot create a temporary directory", e))?;
        for sub in ["root", "cloud"] {
            let dir = tmp.path().join(sub);
            fs::create_dir_all(&dir)
                .map_err(|e| RigError::io(format!("cannot create {}", dir.display()), e))?;
        }
        Ok(Root {
            rig: rig.clone(),
            tf: tf.clone(),
            tmp: Arc::new(tmp),
            plans: AtomicUsize::new(0),
        })
    }

    /// A root holding a copy of the files of `examples/<name>/` (not sub-directories).
    pub fn from_example(rig: &Rig, tf: &Terraform, name: &str) -> Result<Root, RigError> {
        let src = rig.workspace().join("examples").join(name);
        let entries = fs::read_dir(&src).map_err(|e| {
            RigError::io(
                format!("cannot read the example {name:?} ({})", src.display()),
                e,
            )
        })?;
        let root = Root::new(rig, tf)?;
        let mut copied = 0;
        for entry in entries {
            let entry =
                entry.map_err(|e| RigError::io(format!("cannot list {}", src.display()), e))?;
            let path = entry.path();
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if path.is_file() && (file_name.ends_with(".tf") || file_name.ends_with(".tfvars")) {
                let to = root.dir().join(&file_name);
                fs::copy(&path, &to)
                    .map_err(|e| RigError::io(format!("cannot copy {}", path.display()), e))?;
                copied += 1;
            }
        }
        if copied == 0 {
            return Err(RigError::Usage(format!(
                "the example {name:?} ({}) has no .tf file",
                src.display()
            )));
        }
        Ok(root)
    }

    /// The configuration directory (the working directory of every command).
    pub fn dir(&self) -> PathBuf {
        self.tmp.path().join("root")
    }

    /// The cloud directory (`FAKECLOUD_DIR`).
    pub fn cloud_dir(&self) -> PathBuf {
        self.tmp.path().join("cloud")
    }

    /// The root's fake cloud, to read and edit behind Terraform's back.
    pub fn cloud(&self) -> Cloud {
        Cloud::new(self.cloud_dir())
    }

    /// The Terraform binary this root runs.
    pub fn terraform(&self) -> &Terraform {
        &self.tf
    }

    /// Writes (or replaces) `name` in the configuration directory.
    pub fn write_file(&self, name: &str, text: &str) -> Result<(), RigError> {
        let path = self.dir().join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| RigError::io(format!("cannot create {}", parent.display()), e))?;
        }
        fs::write(&path, text)
            .map_err(|e| RigError::io(format!("cannot write {}", path.display()), e))
    }

    /// Reads `name` from the configuration directory.
    pub fn read_file(&self, name: &str) -> Result<String, RigError> {
        let path = self.dir().join(name);
        fs::read_to_string(&path)
            .map_err(|e| RigError::io(format!("cannot read {}", path.display()), e))
    }

    /// Deletes `name` from the configuration directory; an error when it does not exist.
    pub fn remove_file(&self, name: &str) -> Result<(), RigError> {
        let path = self.dir().join(name);
        fs::remove_file(&path)
            .map_err(|e| RigError::io(format!("cannot delete {}", path.display()), e))
    }

    /// Replaces the one occurrence of `from` in `name` with `to`. An error when `from` occurs
    /// zero times or more than once, so a scenario can never silently change nothing.
    pub fn replace_in_file(&self, name: &str, from: &str, to: &str) -> Result<(), RigError> {
        let text = self.read_file(name)?;
        let count = text.matches(from).count();
        if count != 1 {
            return Err(RigError::Usage(format!(
                "{name} contains {from:?} {count} times, expected exactly once"
            )));
        }
        self.write_file(name, &text.replacen(from, to, 1))
    }

    /// Runs `terraform <args>` in the root and returns what it did, whatever its exit code.
    pub fn run(&self, args: &[&str]) -> Result<Output, RigError> {
        let out = ward_exec::Command::new(&self.tf.path, crate::RUN_TIMEOUT)
            .args(args)
            .current_dir(self.dir())
            .terraform()
            .env("TF_CLI_CONFIG_FILE", self.rig.cli_config())
            .env("FAKECLOUD_DIR", self.cloud_dir())
            .stdout_cap(crate::STDOUT_CAP)
            .run()?
            .require_whole()?;
        Ok(Output {
            code: out.code.unwrap_or(-1),
            stdout: out.stdout_text(),
            stderr: out.stderr_text(),
        })
    }

    /// Runs `terraform <args>` and fails unless the exit code is one of `ok`.
    pub fn run_expect(&self, args: &[&str], ok: &[i32]) -> Result<Output, RigError> {
        let out = self.run(args)?;
        if ok.contains(&out.code) {
            Ok(out)
        } else {
            let mut stdout = out.stdout.clone();
            if stdout.len() > 4000 {
                let mut cut = stdout.len() - 4000;
                while !stdout.is_char_boundary(cut) {
                    cut += 1;
                }
                stdout = format!("[...]{}", &stdout[cut..]);
            }
            Err(RigError::Terraform(Box::new(TerraformFailure {
                terraform: self.tf.to_string(),
                args: args.join(" "),
                dir: self.dir(),
                code: out.code,
                stderr: out.stderr,
                stdout,
            })))
        }
    }

    /// `terraform init`; must succeed.
    pub fn init(&self) -> Result<Output, RigError> {
        self.run_expect(&["init", "-no-color", "-input=false"], &[0])
    }

    /// `terraform plan -detailed-exitcode -out=…` then `terraform show -json` of that plan.
    pub fn plan(&self) -> Result<Plan, RigError> {
        self.plan_with(&[])
    }

    /// [`Root::plan`] with extra arguments, e.g. `&["-destroy"]` or `&["-replace=ADDR"]`.
    pub fn plan_with(&self, extra: &[&str]) -> Result<Plan, RigError> {
        let n = self.plans.fetch_add(1, Ordering::SeqCst) + 1;
        let file = self.dir().join(format!("plan-{n}.tfplan"));
        let out_arg = format!("-out={}", file.display());
        let mut args = vec!["plan", "-no-color", "-input=false", "-detailed-exitcode"];
        args.extend_from_slice(extra);
        args.push(&out_arg);
        let output = self.run_expect(&args, &[0, 2])?;
        let file_arg = file.display().to_string();
        let shown = self.run_expect(&["show", "-json", "-no-color", &file_arg], &[0])?;
        let json = serde_json::from_str(&shown.stdout).map_err(|e| RigError::Json {
            what: format!("`terraform show -json {file_arg}` ({})", self.tf),
            source: e,
        })?;
        Ok(Plan {
            json,
            file,
            exit_code: output.code,
            output,
            _dir: Arc::clone(&self.tmp),
        })
    }

    /// `terraform plan -refresh-only` (drift: exit code 2 and `resource_drift` when the cloud
    /// changed behind Terraform's back).
    pub fn refresh_only(&self) -> Result<Plan, RigError> {
        self.plan_with(&["-refresh-only"])
    }

    /// `terraform plan -destroy`.
    pub fn plan_destroy(&self) -> Result<Plan, RigError> {
        self.plan_with(&["-destroy"])
    }

    /// `terraform apply -auto-approve`; must succeed.
    pub fn apply(&self) -> Result<Output, RigError> {
        self.run_expect(
            &["apply", "-no-color", "-input=false", "-auto-approve"],
            &[0],
        )
    }

    /// `terraform apply <saved plan>`; must succeed.
    pub fn apply_plan(&self, plan: &Plan) -> Result<Output, RigError> {
        let file = plan.file.display().to_string();
        self.run_expect(&["apply", "-no-color", "-input=false", &file], &[0])
    }

    /// `terraform import <address> <id>`; must succeed (use [`Root::run`] to see a failure).
    pub fn import(&self, address: &str, id: &str) -> Result<Output, RigError> {
        self.run_expect(&["import", "-no-color", "-input=false", address, id], &[0])
    }

    /// `terraform destroy -auto-approve`; must succeed.
    pub fn destroy(&self) -> Result<Output, RigError> {
        self.run_expect(
            &["destroy", "-no-color", "-input=false", "-auto-approve"],
            &[0],
        )
    }

    /// The state as `terraform show -json` prints it (`values` is absent when it is empty).
    pub fn state_json(&self) -> Result<Value, RigError> {
        let out = self.run_expect(&["show", "-json", "-no-color"], &[0])?;
        serde_json::from_str(&out.stdout).map_err(|e| RigError::Json {
            what: format!("`terraform show -json` ({})", self.tf),
            source: e,
        })
    }

    /// The addresses of the managed resources in state (`show -json`), sorted.
    pub fn state_addresses(&self) -> Result<Vec<String>, RigError> {
        let state = self.state_json()?;
        let mut out = Vec::new();
        collect_addresses(state.pointer("/values/root_module"), &mut out);
        out.sort();
        Ok(out)
    }

    /// The raw local state file `terraform.tfstate`, or `None` when there is none.
    pub fn state_file(&self) -> Result<Option<Value>, RigError> {
        let path = self.state_path();
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| RigError::Json {
                    what: path.display().to_string(),
                    source: e,
                }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(RigError::io(format!("cannot read {}", path.display()), e)),
        }
    }

    /// Where the local state lives.
    pub fn state_path(&self) -> PathBuf {
        self.dir().join("terraform.tfstate")
    }

    /// The path of a file in the configuration directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir().join(name)
    }

    /// Keeps the temporary directory on disk (for debugging a failing test) and returns it.
    pub fn keep(self) -> PathBuf {
        match Arc::try_unwrap(self.tmp) {
            Ok(tmp) => tmp.keep(),
            // Plans still hold it: leak one reference so it is never deleted.
            Err(shared) => {
                let path = shared.path().to_path_buf();
                std::mem::forget(shared);
                path
            }
        }
    }

    /// The directory holding both `root/` and `cloud/`.
    pub fn base(&self) -> &Path {
        self.tmp.path()
    }
}

fn collect_addresses(module: Option<&Value>, out: &mut Vec<String>) {
    let Some(module) = module else { return };
    for r in module
        .get("resources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if r.get("mode").and_then(Value::as_str) == Some("managed") {
            if let Some(a) = r.get("address").and_then(Value::as_str) {
                out.push(a.to_string());
            }
        }
    }
    for child in module
        .get("child_modules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect_addresses(Some(child), out);
    }
}
