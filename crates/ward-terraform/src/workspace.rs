//! A [`Workspace`]: one root, one binary, one scratch directory, and each Terraform subcommand
//! ward runs there, with typed results.

use crate::binary::Binary;
use crate::exec::{self, ExecError, Finished};
use crate::state::{self, StateInfo};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a Terraform command in a workspace gave no usable result.
#[derive(Debug, thiserror::Error)]
pub enum TfError {
    /// It did not finish: not started, or timed out.
    #[error("{0}")]
    Exec(#[from] ExecError),
    /// It ran and failed.
    #[error("`{product} {command}` in {dir} failed (exit {code}): {summary}")]
    Failed {
        /// `terraform` or `tofu`.
        product: String,
        /// The subcommand, e.g. `plan`.
        command: String,
        /// The root directory.
        dir: String,
        /// Exit code (`-1` when killed by a signal).
        code: i32,
        /// Terraform's error lines ([`ward_exec::error_summary`]).
        summary: String,
        /// True when the state lock is held by another run.
        locked: bool,
    },
    /// It succeeded but printed something ward cannot use.
    #[error("`{product} {command}` in {dir}: {message}")]
    Output {
        /// `terraform` or `tofu`.
        product: String,
        /// The subcommand.
        command: String,
        /// The root directory.
        dir: String,
        /// What was wrong.
        message: String,
    },
    /// The scratch directory could not be created or written.
    #[error("cannot prepare a scratch directory for {dir}: {message}")]
    Scratch {
        /// The root directory.
        dir: String,
        /// The operating system's error.
        message: String,
    },
}

/// What to plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanArgs {
    /// `-destroy`.
    pub destroy: bool,
    /// `-refresh-only`.
    pub refresh_only: bool,
    /// `-var-file=...` arguments, in order.
    pub var_files: Vec<PathBuf>,
    /// The plan's file name in the scratch directory (`NAME.tfplan`, `NAME.json`); default
    /// `plan`.
    pub name: Option<String>,
}

/// A saved plan (`plan -out`), with its JSON (`show -json`) in the same scratch directory.
#[derive(Debug, Clone)]
pub struct SavedPlan {
    /// The binary plan file.
    pub path: PathBuf,
    /// Its `show -json` output, on disk (owner only).
    pub json_path: PathBuf,
    /// Its JSON, read through ward-plan.
    pub plan: ward_model::Plan,
    /// `-detailed-exitcode` said there are changes.
    pub has_changes: bool,
    /// `sha256:` of the JSON.
    pub json_sha256: String,
}

/// `output -json`: the root's outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Outputs {
    /// The JSON as Terraform printed it (sensitive values included: keep it in scratch).
    pub json: serde_json::Value,
    /// The bytes printed.
    pub bytes: Vec<u8>,
    /// `sha256:` of the bytes.
    pub sha256: String,
}

impl Outputs {
    /// Each output's value (`{"name": value}`), as a `-var-file` in JSON takes it.
    pub fn values(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        if let Some(o) = self.json.as_object() {
            for (k, v) in o {
                m.insert(
                    k.clone(),
                    v.get("value").cloned().unwrap_or(serde_json::Value::Null),
                );
            }
        }
        m
    }
}

/// `state pull`: the bytes, their digest, and what they hold.
#[derive(Debug, Clone, PartialEq)]
pub struct PulledState {
    /// Exactly what Terraform printed.
    pub bytes: Vec<u8>,
    /// `sha256:` of the bytes.
    pub sha256: String,
    /// Lineage, serial and resources; `None` when there is no state at all (0 bytes).
    pub info: Option<StateInfo>,
}

impl PulledState {
    /// Resources in the state (0 without a state).
    pub fn resources(&self) -> usize {
        self.info.as_ref().map_or(0, |i| i.resources)
    }
}

/// One root, run with one binary: every subcommand through [`exec::run`] with the workspace's
/// timeout, environment and allow-list, files in its owner-only scratch directory.
#[derive(Debug)]
pub struct Workspace {
    binary: Binary,
    dir: PathBuf,
    env: Vec<(String, String)>,
    allow: Vec<String>,
    timeout: Duration,
    scratch: ward_exec::ScratchDir,
}

/// The most lines of Terraform's error kept in [`TfError::Failed`].
const SUMMARY_LINES: usize = 4;

impl Workspace {
    /// A workspace for the root in `dir`, each command limited to `timeout`. The scratch
    /// directory (owner only) is removed when the workspace is dropped.
    pub fn new(binary: &Binary, dir: &Path, timeout: Duration) -> Result<Workspace, TfError> {
        let scratch = ward_exec::ScratchDir::new("ward-tf-").map_err(|e| TfError::Scratch {
            dir: dir.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(Workspace {
            binary: binary.clone(),
            dir: dir.to_path_buf(),
            env: Vec::new(),
            allow: exec::DEFAULT_ALLOWED_TF
                .iter()
                .map(|s| s.to_string())
                .collect(),
            timeout,
            scratch,
        })
    }

    /// Sets a variable for every command (always passed, `TF_*` included).
    pub fn env(mut self, key: &str, value: &str) -> Workspace {
        self.env.push((key.to_string(), value.to_string()));
        self
    }

    /// Keeps more inherited `TF_*` variables (names or `PREFIX*` patterns) besides
    /// [`exec::DEFAULT_ALLOWED_TF`].
    pub fn allow_env<I: IntoIterator<Item = String>>(mut self, names: I) -> Workspace {
        self.allow.extend(names);
        self
    }

    /// The root directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The binary.
    pub fn binary(&self) -> &Binary {
        &self.binary
    }

    /// The owner-only scratch directory (removed with the workspace).
    pub fn scratch(&self) -> &Path {
        self.scratch.path()
    }

    /// Runs `args` as they are; the caller judges the exit code.
    pub fn run(&self, args: &[&str]) -> Result<Finished, TfError> {
        let env: Vec<(&str, &str)> = self
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        Ok(exec::run(
            &self.binary.path,
            args,
            &self.dir,
            &env,
            &self.allow,
            self.scratch.path(),
            Instant::now() + self.timeout,
        )?)
    }

    fn failed(&self, command: &str, f: &Finished) -> TfError {
        TfError::Failed {
            product: self.binary.product.to_string(),
            command: command.to_string(),
            dir: self.dir.display().to_string(),
            code: f.code.unwrap_or(-1),
            summary: f.stderr_tail(SUMMARY_LINES),
            locked: is_lock_error(&f.stderr),
        }
    }

    fn bad_output(&self, command: &str, message: String) -> TfError {
        TfError::Output {
            product: self.binary.product.to_string(),
            command: command.to_string(),
            dir: self.dir.display().to_string(),
            message,
        }
    }

    /// Runs `args`, requiring exit 0.
    fn ok(&self, command: &str, args: &[&str]) -> Result<Finished, TfError> {
        let f = self.run(args)?;
        if f.ok() {
            Ok(f)
        } else {
            Err(self.failed(command, &f))
        }
    }

    /// `init -input=false -no-color` with `extra` arguments (e.g. `-backend-config=K=V`).
    pub fn init(&self, extra: &[String]) -> Result<(), TfError> {
        let mut args = vec!["init", "-input=false", "-no-color"];
        args.extend(extra.iter().map(String::as_str));
        self.ok("init", &args).map(|_| ())
    }

    /// `plan -out` into the scratch directory, then `show -json` of it, read through ward-plan.
    pub fn plan(&self, p: &PlanArgs) -> Result<SavedPlan, TfError> {
        let name = p.name.as_deref().unwrap_or("plan");
        let path = self.scratch().join(format!("{name}.tfplan"));
        let out_arg = format!("-out={}", path.display());
        let var_args: Vec<String> = p
            .var_files
            .iter()
            .map(|v| format!("-var-file={}", v.display()))
            .collect();
        let mut args = vec![
            "plan",
            "-input=false",
            "-no-color",
            "-detailed-exitcode",
            "-lock-timeout=0s",
        ];
        if p.destroy {
            args.push("-destroy");
        }
        if p.refresh_only {
            args.push("-refresh-only");
        }
        args.extend(var_args.iter().map(String::as_str));
        args.push(&out_arg);
        let f = self.run(&args)?;
        let has_changes = match f.code {
            Some(0) => false,
            Some(2) => true,
            _ => return Err(self.failed("plan", &f)),
        };
        let (bytes, plan) = self.show_json(&path)?;
        let json_path = self.scratch().join(format!("{name}.json"));
        write_owner_only(&json_path, &bytes).map_err(|e| TfError::Scratch {
            dir: self.dir.display().to_string(),
            message: format!("{}: {e}", json_path.display()),
        })?;
        Ok(SavedPlan {
            path,
            json_path,
            plan,
            has_changes,
            json_sha256: crate::sha256(&bytes),
        })
    }

    /// `show -json PLANFILE`: the bytes and the plan ward-plan reads from them.
    pub fn show_json(&self, planfile: &Path) -> Result<(Vec<u8>, ward_model::Plan), TfError> {
        let arg = planfile.display().to_string();
        let f = self.ok("show", &["show", "-json", "-no-color", &arg])?;
        let plan = ward_plan::read_reader(f.stdout.as_slice(), &arg).map_err(|e| {
            self.bad_output("show -json", format!("cannot read the plan JSON: {e}"))
        })?;
        Ok((f.stdout, plan))
    }

    /// `apply` of exactly a saved plan.
    pub fn apply_saved(&self, plan: &SavedPlan) -> Result<(), TfError> {
        let arg = plan.path.display().to_string();
        self.ok(
            "apply",
            &[
                "apply",
                "-input=false",
                "-no-color",
                "-auto-approve",
                "-lock-timeout=0s",
                &arg,
            ],
        )
        .map(|_| ())
    }

    /// `state pull`: the bytes with their digest, lineage and serial.
    pub fn state_pull(&self) -> Result<PulledState, TfError> {
        let f = self.ok("state pull", &["state", "pull"])?;
        let info = if f.stdout.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            Some(state::parse(&f.stdout).map_err(|e| self.bad_output("state pull", e))?)
        };
        Ok(PulledState {
            sha256: crate::sha256(&f.stdout),
            bytes: f.stdout,
            info,
        })
    }

    /// `output -json`: every output, with the sha256 of what was printed.
    pub fn outputs(&self) -> Result<Outputs, TfError> {
        let f = self.ok("output", &["output", "-json", "-no-color"])?;
        let json: serde_json::Value = serde_json::from_slice(&f.stdout)
            .map_err(|e| self.bad_output("output -json", format!("did not print JSON ({e})")))?;
        if !json.is_object() {
            return Err(self.bad_output("output -json", "did not print a JSON object".to_string()));
        }
        Ok(Outputs {
            sha256: crate::sha256(&f.stdout),
            bytes: f.stdout,
            json,
        })
    }

    /// Writes `bytes` as `name` in the scratch directory (owner only); returns its path.
    pub fn scratch_file(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, TfError> {
        let p = self.scratch().join(name);
        write_owner_only(&p, bytes).map_err(|e| TfError::Scratch {
            dir: self.dir.display().to_string(),
            message: format!("{}: {e}", p.display()),
        })?;
        Ok(p)
    }
}

/// A new file, readable by its owner only (the scratch directory is fresh and owner-only).
fn write_owner_only(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// True only for Terraform's (and OpenTofu's) message that another run holds the lock: "Error
/// acquiring the state lock" followed by the holder's "Lock Info:". The same heading without lock
/// info (access denied on the lock table, a missing table) is an error to fix, not a held lock.
pub fn is_lock_error(stderr: &str) -> bool {
    match stderr.find("Error acquiring the state lock") {
        Some(i) => stderr[i..].contains("Lock Info:"),
        None => false,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::binary::Product;
    use ward_version::Version;

    /// A fake `terraform`: a shell script answering the subcommands the workspace runs.
    fn fake(dir: &Path, script: &str) -> Binary {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join("terraform");
        std::fs::write(&p, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        Binary {
            product: Product::Terraform,
            path: p,
            version: Version::parse("1.15.5").unwrap(),
        }
    }

    #[test]
    fn typed_results_and_errors() {
        let d = tempfile::tempdir().unwrap();
        let b = fake(
            d.path(),
            r#"case "$1" in
  state) printf '{"version":4,"serial":7,"lineage":"L1","resources":[{"provider":"provider[\"registry.terraform.io/ward/fakecloud\"]"}]}' ;;
  output) printf '{"cidr":{"sensitive":false,"type":"string","value":"10.0.0.0/16"}}' ;;
  init) echo "Error: nope" >&2; exit 1 ;;
esac"#,
        );
        let ws = Workspace::new(&b, d.path(), Duration::from_secs(10)).unwrap();
        let s = ws.state_pull().unwrap();
        let info = s.info.as_ref().unwrap();
        assert_eq!((info.serial, info.lineage.as_str()), (7, "L1"));
        assert_eq!(s.resources(), 1);
        assert_eq!(s.sha256, crate::sha256(&s.bytes));
        let o = ws.outputs().unwrap();
        assert_eq!(o.values()["cidr"], "10.0.0.0/16");
        assert!(o.sha256.starts_with("sha256:") && o.sha256.len() == 71);
        let e = ws.init(&[]).unwrap_err();
        assert!(
            matches!(&e, TfError::Failed { code: 1, summary, .. } if summary.contains("Error: nope")),
            "{e}"
        );
        // The scratch directory is owner-only and goes with the workspace.
        use std::os::unix::fs::PermissionsExt;
        let sp = ws.scratch().to_path_buf();
        let f = ws.scratch_file("v.json", b"{}").unwrap();
        assert_eq!(
            std::fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(
            std::fs::metadata(&sp).unwrap().permissions().mode() & 0o777,
            0o700
        );
        drop(ws);
        assert!(!sp.exists());
    }

    #[test]
    fn no_state_is_none_and_bad_output_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        let b = fake(
            d.path(),
            r#"case "$1" in state) ;; output) echo '[1]' ;; esac"#,
        );
        let ws = Workspace::new(&b, d.path(), Duration::from_secs(10)).unwrap();
        let s = ws.state_pull().unwrap();
        assert!(s.info.is_none());
        assert_eq!(s.resources(), 0);
        let e = ws.outputs().unwrap_err();
        assert!(e.to_string().contains("not print a JSON object"), "{e}");
    }

    #[test]
    fn lock_errors() {
        assert!(is_lock_error(
            "Error: Error acquiring the state lock\n\nLock Info:\n  ID: x"
        ));
        assert!(!is_lock_error(
            "Error: Error acquiring the state lock\n denied"
        ));
    }
}
