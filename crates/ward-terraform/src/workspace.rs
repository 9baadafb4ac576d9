//! A [`Workspace`]: one root, one binary, one scratch directory, and each Terraform subcommand
//! ward runs there, with typed results.
//!
//! Whether a command runs the binary directly or through `terragrunt` is decided here, once, for
//! every command that runs Terraform in a root ([`runner_for`]): a Terragrunt unit with no `.tf`
//! files of its own ([`ward_repo::terragrunt::is_unit_only`]) runs each command as
//! `terragrunt run --non-interactive --tf-path BINARY -- ARGS...`
//! ([`ward_repo::terragrunt::run_args`]) from the unit's directory.

use crate::binary::{self, Binary, ChooseError, Selection};
use crate::exec::{self, ExecError, Finished};
use crate::state::{self, StateInfo};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// [`exec::run`]'s signature, whatever it returns.
type Run<T> =
    fn(&Path, &[&str], &Path, &[(&str, &str)], &[String], &Path, Instant) -> Result<T, ExecError>;

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
        /// Who holds it, from Terraform's lock-info lines ([`lock_info`]; empty unless
        /// `locked`).
        lock_info: Vec<String>,
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
    /// The root is a Terragrunt unit and no `terragrunt` was found to run it with.
    #[error("{dir} is a Terragrunt unit (terragrunt.hcl, no .tf files of its own): ward runs it through `terragrunt run --`, and no `terragrunt` is on PATH; install Terragrunt (a release with the `run` command) on PATH")]
    NoTerragrunt {
        /// The unit's directory.
        dir: String,
    },
}

/// Why [`Workspace::open`] gave no workspace: no binary could be chosen for the root, or the
/// chosen binary's workspace could not be opened (with the [`Selection`], so a caller can still
/// say which binary it chose, and why). Each keeps the text of the error it wraps.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// [`binary::choose`] failed: the root's files could not be read, or the evidence and the
    /// binaries found decide nothing.
    #[error(transparent)]
    Choose(#[from] ChooseError),
    /// A binary was chosen; its workspace could not be opened (no scratch directory, a
    /// Terragrunt unit without `terragrunt`).
    #[error("{error}")]
    Workspace {
        /// The binary chosen, and why.
        selection: Box<Selection>,
        /// Why the workspace could not be opened.
        error: Box<TfError>,
    },
}

impl OpenError {
    /// The binary chosen before the workspace failed to open; `None` when none was chosen.
    pub fn selection(&self) -> Option<&Selection> {
        match self {
            OpenError::Choose(_) => None,
            OpenError::Workspace { selection, .. } => Some(selection.as_ref()),
        }
    }
}

/// How [`Workspace::open`] opens a root's workspace, besides the binary it chooses.
#[derive(Debug, Clone)]
pub struct OpenOptions<'a> {
    /// Each command's limit.
    pub timeout: Duration,
    /// One budget every command must end by, instead of each having `timeout`
    /// ([`Workspace::deadline`]).
    pub deadline: Option<Instant>,
    /// Variables set for every command ([`Workspace::env`]).
    pub env: &'a [(String, String)],
    /// More inherited `TF_*` variables kept ([`Workspace::allow_env`]).
    pub allow: &'a [String],
    /// The `PATH` ward runs with, as its caller read it: where `terragrunt` is looked for when
    /// `env` sets none ([`runner_for`]).
    pub path: Option<&'a OsStr>,
    /// Runs the binary directly ([`Runner::Direct`]) even in a Terragrunt unit, as
    /// [`Workspace::new`] does (`ward import`), instead of deciding by [`runner_for`].
    pub direct: bool,
}

impl OpenOptions<'_> {
    /// Each command limited to `timeout`; no deadline, no extra variables, no `PATH`, the
    /// runner decided by [`runner_for`].
    pub fn new(timeout: Duration) -> OpenOptions<'static> {
        OpenOptions {
            timeout,
            deadline: None,
            env: &[],
            allow: &[],
            path: None,
            direct: false,
        }
    }
}

/// How a workspace's commands reach Terraform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runner {
    /// The binary runs in the root's directory.
    Direct,
    /// The root is a Terragrunt unit: every command runs through this `terragrunt`, from the
    /// unit's directory, as [`ward_repo::terragrunt::run_args`] builds it, with the workspace's
    /// binary as Terragrunt's `--tf-path`.
    Terragrunt(PathBuf),
}

/// How commands in the root `dir` must run: [`Runner::Direct`], or, when `dir` is a Terragrunt
/// unit with no `.tf` files of its own ([`ward_repo::terragrunt::is_unit_only`]), through
/// `terragrunt` ([`Runner::Terragrunt`]) found on `PATH`: the `PATH` in `env` (the extra
/// environment the commands run with) when it sets one, else `path`, the `PATH` ward runs with as
/// its caller read it (ward reads no environment here; `None`: unset). A unit without a
/// `terragrunt` is [`TfError::NoTerragrunt`]. The one place this is decided: `ward drift` and
/// `ward stack` both open their workspaces through [`Workspace::open`] (then
/// [`Workspace::for_root`], which calls it), and `ward stack` calls it before a run to refuse
/// such a root before anything changes.
pub fn runner_for(
    dir: &Path,
    env: &[(String, String)],
    path: Option<&OsStr>,
) -> Result<Runner, TfError> {
    if !ward_repo::terragrunt::is_unit_only(dir) {
        return Ok(Runner::Direct);
    }
    let from_env = env.iter().rev().find(|(k, _)| k == "PATH");
    let path = match from_env {
        Some((_, v)) => OsStr::new(v.as_str()),
        None => path.unwrap_or_default(),
    };
    crate::binary::which_in("terragrunt", path)
        .map(Runner::Terragrunt)
        .ok_or_else(|| TfError::NoTerragrunt {
            dir: dir.display().to_string(),
        })
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
    /// Its JSON, read through ward-plan with every change's content fingerprint
    /// (`ward_plan::ReadOptions::default()`).
    pub plan: ward_model::Plan,
    /// What the plan destroys, as liveness guards are told it
    /// (`ward_plan::ReadOptions::objects`), read in the same pass as [`SavedPlan::plan`]: a
    /// gate of this plan need not read its JSON again for its guards.
    pub objects: ward_plan::BeforeObjects,
    /// `-detailed-exitcode` said there are changes.
    pub has_changes: bool,
    /// `sha256:` of the JSON.
    pub json_sha256: String,
}

/// What [`Workspace::show_read`] read of a saved plan.
#[derive(Debug)]
pub struct Shown {
    /// Its `show -json` output, on disk (owner only).
    pub json_path: PathBuf,
    /// The plan, without the changes handed to the callback.
    pub plan: ward_model::Plan,
    /// What the plan destroys, when the read options asked for it.
    pub objects: ward_plan::BeforeObjects,
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

/// The directory holding the configuration Terraform runs for the root `dir`, for reading its
/// code (e.g. `prevent_destroy` for the gate): `dir` itself, or for a Terragrunt unit with no
/// `.tf` files of its own, Terragrunt's working copy of its module: the one directory under
/// `dir/.terragrunt-cache` that holds a `.terraform/` directory (Terragrunt runs `init` there).
/// Call it after `init`. A unit with no such copy (a `download_dir` elsewhere, not initialised)
/// or several (older source versions cached) is an error saying what to do.
pub fn config_dir(dir: &Path) -> Result<PathBuf, TfError> {
    if !ward_repo::terragrunt::is_unit_only(dir) {
        return Ok(dir.to_path_buf());
    }
    let cache = dir.join(".terragrunt-cache");
    // Directories at most `READ` below the cache are searched for a `.terraform` directory;
    // nothing below a `.terraform` is. The walk follows no symlink (it stays inside the cache),
    // enters the directories other walks skip, and passes over a part it cannot read.
    const READ: usize = 12;
    let terraform = OsStr::new(".terraform");
    let mut found: Vec<PathBuf> = ward_repo::walk::Walk::new(&cache)
        .skip_dirs(false)
        .filter_entry(move |e| {
            let in_terraform = e.path().parent().and_then(Path::file_name) == Some(terraform);
            !in_terraform && (e.depth() <= READ || e.file_name() == terraform)
        })
        .into_iter()
        .flatten()
        .filter(|e| e.depth() > 0 && e.is_dir() && e.file_name() == terraform)
        .filter_map(|e| e.path().parent().map(Path::to_path_buf))
        .collect();
    found.sort();
    found.dedup();
    let problem = |message: String| TfError::Output {
        product: "terragrunt".to_string(),
        command: "init".to_string(),
        dir: dir.display().to_string(),
        message,
    };
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(problem(format!(
            "no initialised working copy of the unit's module under {} (ward reads the configuration Terragrunt ran there; a `download_dir` elsewhere is not supported)",
            cache.display()
        ))),
        n => Err(problem(format!(
            "{n} initialised working copies of the unit's module under {} (older source versions): ward cannot tell which one ran; remove that directory (Terragrunt recreates it) and run again",
            cache.display()
        ))),
    }
}

/// One root, run with one binary: every subcommand through [`exec::run`] with the workspace's
/// timeout, environment and allow-list, files in its owner-only scratch directory, directly or
/// through `terragrunt` ([`Runner`]).
#[derive(Debug)]
pub struct Workspace {
    binary: Binary,
    dir: PathBuf,
    env: Vec<(String, String)>,
    allow: Vec<String>,
    timeout: Duration,
    deadline: Option<Instant>,
    runner: Runner,
    scratch: ward_exec::ScratchDir,
}

/// The most lines of Terraform's error kept in [`TfError::Failed`].
const SUMMARY_LINES: usize = 4;

impl Workspace {
    /// A workspace that runs `binary` directly in `dir` ([`Runner::Direct`]), each command
    /// limited to `timeout`. The scratch directory (owner only) is removed when the workspace is
    /// dropped. [`Workspace::for_root`] also decides whether the root needs `terragrunt`.
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
            deadline: None,
            runner: Runner::Direct,
            scratch,
        })
    }

    /// A workspace for the root in `dir` with `env` set for every command, run the way the root
    /// needs ([`runner_for`]: directly, or through `terragrunt` for a Terragrunt unit, looked for
    /// in `env`'s `PATH`, else in `path`, the `PATH` ward runs with as its caller read it).
    pub fn for_root(
        binary: &Binary,
        dir: &Path,
        timeout: Duration,
        env: &[(String, String)],
        path: Option<&OsStr>,
    ) -> Result<Workspace, TfError> {
        let runner = runner_for(dir, env, path)?;
        let mut ws = Workspace::new(binary, dir, timeout)?;
        ws.runner = runner;
        for (k, v) in env {
            ws = ws.env(k, v);
        }
        Ok(ws)
    }

    /// The workspace of the root in `dir`: its binary chosen among `found` by evidence and `pin`
    /// ([`binary::choose`]), then opened with `opts` ([`Workspace::for_root`], or
    /// [`Workspace::new`] when [`OpenOptions::direct`]), with the [`Selection`] that chose it.
    /// The one choose-then-open every command that runs Terraform in a root uses (`ward drift`,
    /// `ward stack`, `ward import`).
    pub fn open(
        dir: &Path,
        pin: Option<&ward_version::Pin>,
        found: &[Binary],
        opts: &OpenOptions<'_>,
    ) -> Result<(Workspace, Selection), OpenError> {
        let selection = binary::choose(dir, pin, found)?;
        let opened = if opts.direct {
            Workspace::new(&selection.binary, dir, opts.timeout)
                .map(|ws| opts.env.iter().fold(ws, |ws, (k, v)| ws.env(k, v)))
        } else {
            Workspace::for_root(&selection.binary, dir, opts.timeout, opts.env, opts.path)
        };
        match opened {
            Ok(ws) => {
                let ws = ws.allow_env(opts.allow.iter().cloned());
                let ws = match opts.deadline {
                    Some(d) => ws.deadline(d),
                    None => ws,
                };
                Ok((ws, selection))
            }
            Err(error) => Err(OpenError::Workspace {
                selection: Box::new(selection),
                error: Box::new(error),
            }),
        }
    }

    /// Every command must end by `deadline` (one budget for the whole root, as `ward drift`
    /// gives), instead of each having its own `timeout`.
    pub fn deadline(mut self, deadline: Instant) -> Workspace {
        self.deadline = Some(deadline);
        self
    }

    /// How the commands reach Terraform.
    pub fn runner(&self) -> &Runner {
        &self.runner
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

    /// Runs the Terraform command `args` (through `terragrunt` for a unit); the caller judges
    /// the exit code.
    pub fn run(&self, args: &[&str]) -> Result<Finished, ExecError> {
        self.run_by(args, exec::run)
    }

    /// [`Workspace::run`], leaving the standard output in an owner-only file of the scratch
    /// directory instead of memory ([`exec::run_keeping_stdout`]): for output read as a stream.
    pub fn run_keeping_stdout(&self, args: &[&str]) -> Result<(Finished, PathBuf), ExecError> {
        self.run_by(args, exec::run_keeping_stdout)
    }

    /// Runs `args` through `run` ([`exec::run`] or [`exec::run_keeping_stdout`]), directly or
    /// through `terragrunt`.
    fn run_by<T>(&self, args: &[&str], run: Run<T>) -> Result<T, ExecError> {
        let env: Vec<(&str, &str)> = self
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let deadline = self
            .deadline
            .unwrap_or_else(|| Instant::now() + self.timeout);
        match &self.runner {
            Runner::Direct => run(
                &self.binary.path,
                args,
                &self.dir,
                &env,
                &self.allow,
                self.scratch.path(),
                deadline,
            ),
            Runner::Terragrunt(tg) => {
                let tf_path = self.binary.path.display().to_string();
                let full = ward_repo::terragrunt::run_args(&tf_path, args);
                let refs: Vec<&str> = full.iter().map(String::as_str).collect();
                run(
                    tg,
                    &refs,
                    &self.dir,
                    &env,
                    &self.allow,
                    self.scratch.path(),
                    deadline,
                )
            }
        }
    }

    /// `terraform`, or `terragrunt run -- terraform` for a unit: how messages name the program.
    fn product(&self) -> String {
        match self.runner {
            Runner::Direct => self.binary.product.to_string(),
            Runner::Terragrunt(_) => format!("terragrunt run -- {}", self.binary.product),
        }
    }

    fn failed(&self, command: &str, f: &Finished) -> TfError {
        let locked = is_lock_error(&f.stderr);
        TfError::Failed {
            product: self.product(),
            command: command.to_string(),
            dir: self.dir.display().to_string(),
            code: f.code.unwrap_or(-1),
            summary: f.stderr_tail(SUMMARY_LINES),
            lock_info: if locked {
                lock_info(&f.stderr)
            } else {
                Vec::new()
            },
            locked,
        }
    }

    fn bad_output(&self, command: &str, message: String) -> TfError {
        TfError::Output {
            product: self.product(),
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

    /// `-var-file=...` arguments for `files` (relative ones are the root's: Terraform runs in
    /// the root's directory; Terragrunt runs it in its cache directory, so there they are made
    /// absolute).
    pub fn var_file_args(&self, files: &[PathBuf]) -> Vec<String> {
        files
            .iter()
            .map(|v| match self.runner {
                Runner::Terragrunt(_) if v.is_relative() => self.dir.join(v),
                _ => v.clone(),
            })
            .map(|v| format!("-var-file={}", v.display()))
            .collect()
    }

    /// `plan -out` into the scratch directory, then `show -json` of it into an owner-only file
    /// there (`NAME.json`), read through ward-plan once, as a stream: the plan with its content
    /// fingerprints, the objects it destroys and the JSON's digest come from that one pass, and
    /// the JSON is never held in memory. The whole plan model is kept: a caller that needs only
    /// some of it (counts, a gate) calls [`Workspace::plan_file`] and [`Workspace::show_read`].
    pub fn plan(&self, p: &PlanArgs) -> Result<SavedPlan, TfError> {
        let (path, has_changes) = self.plan_file(p)?;
        let name = p.name.as_deref().unwrap_or("plan");
        let options = ward_plan::ReadOptions {
            content: true,
            objects: true,
            ..ward_plan::ReadOptions::default()
        };
        let shown = self.show_read(&path, name, options, None)?;
        Ok(SavedPlan {
            path,
            json_path: shown.json_path,
            plan: shown.plan,
            objects: shown.objects,
            has_changes,
            json_sha256: shown.json_sha256,
        })
    }

    /// Where [`Workspace::show_read`] leaves the `show -json` output of plan `name`.
    pub fn json_path(&self, name: &str) -> PathBuf {
        self.scratch().join(format!("{name}.json"))
    }

    /// `show -json PLANFILE` with its output left in [`Workspace::json_path`] of `name` (owner
    /// only; an error when it exists), read through ward-plan once, as a stream, with
    /// `options`, as it is hashed. Each change is handed to `on_change` as it is read and is
    /// then not in the plan returned (with no callback every change is kept): a caller that
    /// counts or gates the changes holds none of them.
    pub fn show_read(
        &self,
        planfile: &Path,
        name: &str,
        options: ward_plan::ReadOptions,
        on_change: Option<&mut dyn FnMut(ward_model::ResourceChange)>,
    ) -> Result<Shown, TfError> {
        let json_path = self.json_path(name);
        let arg = planfile.display().to_string();
        let (f, out) = self.run_keeping_stdout(&["show", "-json", "-no-color", &arg])?;
        let scratch_error = |e: std::io::Error| TfError::Scratch {
            dir: self.dir.display().to_string(),
            message: format!("{}: {e}", json_path.display()),
        };
        let kept = if !f.ok() {
            Err(self.failed("show", &f))
        } else if json_path.exists() {
            Err(scratch_error(std::io::ErrorKind::AlreadyExists.into()))
        } else {
            std::fs::rename(&out, &json_path).map_err(scratch_error)
        };
        if let Err(e) = kept {
            let _ = std::fs::remove_file(&out);
            return Err(e);
        }
        let file = std::fs::File::open(&json_path).map_err(scratch_error)?;
        let mut hashed = Hashing::new(file);
        let (plan, objects) = ward_plan::read_reader_with(&mut hashed, &arg, options, on_change)
            .map_err(|e| {
                self.bad_output("show -json", format!("cannot read the plan JSON: {e}"))
            })?;
        // What the reader left unread (nothing, for a whole plan) is hashed too.
        std::io::copy(&mut hashed, &mut std::io::sink()).map_err(scratch_error)?;
        Ok(Shown {
            json_path,
            plan,
            objects,
            json_sha256: hashed.finish(),
        })
    }

    /// `plan -out` into the scratch directory (`NAME.tfplan`), never waiting for a lock
    /// (`-lock-timeout=0s`), with `-detailed-exitcode`: the plan file and whether it holds
    /// changes. A held lock is [`TfError::Failed`] with `locked` set.
    pub fn plan_file(&self, p: &PlanArgs) -> Result<(PathBuf, bool), TfError> {
        let name = p.name.as_deref().unwrap_or("plan");
        let path = self.scratch().join(format!("{name}.tfplan"));
        let out_arg = format!("-out={}", path.display());
        let var_args = self.var_file_args(&p.var_files);
        let mut args = vec!["plan"];
        if p.destroy {
            args.push("-destroy");
        }
        if p.refresh_only {
            args.push("-refresh-only");
        }
        args.extend([
            "-input=false",
            "-no-color",
            "-detailed-exitcode",
            "-lock-timeout=0s",
        ]);
        args.extend(var_args.iter().map(String::as_str));
        args.push(&out_arg);
        let f = self.run(&args)?;
        let has_changes = match f.code {
            Some(0) => false,
            Some(2) => true,
            _ => return Err(self.failed("plan", &f)),
        };
        Ok((path, has_changes))
    }

    /// `show -json PLANFILE` read through ward-plan as a stream with `options` (bounded memory:
    /// the output stays in an owner-only scratch file, removed afterwards). A plan file
    /// `NAME.tfplan` is read under the name `SCRATCH/NAME.json` in ward-plan's errors.
    pub fn read_plan(
        &self,
        planfile: &Path,
        options: ward_plan::ReadOptions,
    ) -> Result<ward_model::Plan, TfError> {
        let arg = planfile.display().to_string();
        let (f, out) = self.run_keeping_stdout(&["show", "-json", "-no-color", &arg])?;
        let read = || {
            if !f.ok() {
                return Err(self.failed("show", &f));
            }
            let file = std::fs::File::open(&out).map_err(|e| {
                self.bad_output("show -json", format!("cannot read {}: {e}", out.display()))
            })?;
            let stem = planfile
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "plan".to_string());
            let source = format!("{}/{stem}.json", self.scratch().display());
            ward_plan::read_reader_with(file, &source, options, None)
                .map(|(plan, _)| plan)
                .map_err(|e| {
                    self.bad_output("show -json", format!("cannot read the plan JSON: {e}"))
                })
        };
        let plan = read();
        let _ = std::fs::remove_file(&out);
        plan
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
        self.apply_planfile(&plan.path)
    }

    /// `apply` of exactly the saved plan file `planfile` ([`Workspace::plan_file`]).
    pub fn apply_planfile(&self, planfile: &Path) -> Result<(), TfError> {
        let arg = planfile.display().to_string();
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
        let bytes = self.state_pull_bytes()?;
        let info = if bytes.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            Some(state::parse(&bytes).map_err(|e| self.bad_output("state pull", e))?)
        };
        Ok(PulledState {
            sha256: crate::digest::sha256(&bytes),
            bytes,
            info,
        })
    }

    /// `state pull`: exactly what Terraform printed (empty without a state), unread. A held
    /// lock is [`TfError::Failed`] with `locked` set.
    pub fn state_pull_bytes(&self) -> Result<Vec<u8>, TfError> {
        self.ok("state pull", &["state", "pull"]).map(|f| f.stdout)
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
            sha256: crate::digest::sha256(&f.stdout),
            bytes: f.stdout,
            json,
        })
    }

    /// The `init` arguments that give the root a backend configuration as values (a stack
    /// site's `backend_config`): written as `backend.hcl` in the owner-only scratch directory
    /// (never in argv, where other users could read a secret), with `-reconfigure`, since one
    /// directory serves several sites: its backend is switched, its state never migrated. No
    /// arguments for an empty configuration. `ward stack` and `ward drift` both init a site this
    /// way.
    pub fn backend_args(
        &self,
        config: &std::collections::BTreeMap<String, String>,
    ) -> Result<Vec<String>, TfError> {
        if config.is_empty() {
            return Ok(Vec::new());
        }
        let mut body = ward_repo::write::Body::new();
        for (k, v) in config {
            // A name that is not an identifier would be rewritten by the writer: refused.
            let key =
                ward_repo::write::Ident::try_new(k.as_str()).map_err(|_| TfError::Scratch {
                    dir: self.dir.display().to_string(),
                    message: format!(
                        "backend.hcl: {k:?} is not a backend setting's name (an HCL identifier)"
                    ),
                })?;
            body.push(ward_repo::write::Attribute::new(
                key,
                ward_repo::write::string(v),
            ));
        }
        let text = ward_repo::write::format(&body);
        let f = self.scratch_file("backend.hcl", text.as_bytes())?;
        Ok(vec![
            "-reconfigure".to_string(),
            format!("-backend-config={}", f.display()),
        ])
    }

    /// The outputs of the roots a root reads (`(id, outputs)`, the id `root/site`), as the
    /// generated `-var-file` in the scratch directory: each read root's outputs as one variable
    /// named after it ([`variable_name`]). Returns the file and the `sha256:` over the lines
    /// `id=<outputs sha256>` (the upstream context `ward stack` binds into approval digests).
    pub fn upstream_var_file(
        &self,
        reads: &[(String, Outputs)],
    ) -> Result<(PathBuf, String), TfError> {
        let mut vars = serde_json::Map::new();
        let mut lines = String::new();
        for (id, o) in reads {
            let root = id.split('/').next().unwrap_or(id);
            vars.insert(variable_name(root), serde_json::Value::Object(o.values()));
            lines.push_str(&format!("{id}={}\n", o.sha256));
        }
        let bytes =
            serde_json::to_vec(&serde_json::Value::Object(vars)).map_err(|e| TfError::Scratch {
                dir: self.dir.display().to_string(),
                message: e.to_string(),
            })?;
        let f = self.scratch_file("ward-upstream.tfvars.json", &bytes)?;
        Ok((f, crate::digest::sha256(lines.as_bytes())))
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

/// A reader that hashes (SHA-256) every byte read through it.
struct Hashing<R> {
    inner: R,
    hash: sha2::Sha256,
}

impl<R: std::io::Read> Hashing<R> {
    fn new(inner: R) -> Self {
        use sha2::Digest;
        Hashing {
            inner,
            hash: sha2::Sha256::new(),
        }
    }

    /// `sha256:` and the hex digest of every byte read, as [`crate::sha256`] writes it.
    fn finish(self) -> String {
        use sha2::Digest;
        crate::digest::digest_text(&self.hash.finalize())
    }
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        let n = self.inner.read(buf)?;
        self.hash.update(buf.get(..n).unwrap_or_default());
        Ok(n)
    }
}

/// The variable a read root's outputs are passed as: its name, every character other than a
/// letter, digit or `_` written `_`.
pub fn variable_name(root: &str) -> String {
    root.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
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

/// The lines of Terraform's "Lock Info:" naming who holds the lock (`ID:`, `Operation:`,
/// `Who:`, `Created:`, `Path:`), each with its spacing collapsed: "ID: 4f0c…".
pub fn lock_info(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '│'))
        .filter(|l| {
            ["ID:", "Operation:", "Who:", "Created:", "Path:"]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
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

    /// A site's backend configuration goes to an owner-only file, never argv, escaped so a
    /// template sequence stays literal; the upstream var file names each read root's variable.
    #[test]
    fn site_backend_and_upstream_var_file() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let b = fake(d.path(), "exit 0");
        let ws = Workspace::new(&b, d.path(), Duration::from_secs(10)).unwrap();
        assert!(ws
            .backend_args(&std::collections::BTreeMap::new())
            .unwrap()
            .is_empty());
        let cfg = std::collections::BTreeMap::from([
            ("path".to_string(), "../state/${x}.tfstate".to_string()),
            ("password".to_string(), "s3cret\"q".to_string()),
        ]);
        let args = ws.backend_args(&cfg).unwrap();
        assert_eq!(args[0], "-reconfigure");
        assert!(!args.iter().any(|a| a.contains("s3cret")), "{args:?}");
        let file = args[1].strip_prefix("-backend-config=").unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        assert_eq!(
            text,
            "password = \"s3cret\\\"q\"\npath = \"../state/$${x}.tfstate\"\n"
        );
        assert_eq!(
            std::fs::metadata(file).unwrap().permissions().mode() & 0o777,
            0o600
        );
        // A value with a newline, a template directive and a backslash stays one string; a
        // name that is not an identifier is refused, never rewritten into another setting.
        let ws2 = Workspace::new(&b, d.path(), Duration::from_secs(10)).unwrap();
        let cfg = std::collections::BTreeMap::from([(
            "key".to_string(),
            "a\nb = \"c\" %{x} \\".to_string(),
        )]);
        let args = ws2.backend_args(&cfg).unwrap();
        let file = args[1].strip_prefix("-backend-config=").unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        assert_eq!(text, "key = \"a\\nb = \\\"c\\\" %%{x} \\\\\"\n");
        for bad in ["a b", "x\ny", "p = \"1\"\nq", ""] {
            let cfg = std::collections::BTreeMap::from([(bad.to_string(), "v".to_string())]);
            let e = ws2.backend_args(&cfg).unwrap_err().to_string();
            assert!(
                e.contains("is not a backend setting's name"),
                "{bad:?}: {e}"
            );
        }
        let out = |v: &str| Outputs {
            json: serde_json::json!({"id": {"value": v}}),
            bytes: v.as_bytes().to_vec(),
            sha256: crate::digest::sha256(v.as_bytes()),
        };
        let (f, sha) = ws
            .upstream_var_file(&[("my-net/dc0".to_string(), out("n-1"))])
            .unwrap();
        let vars: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        assert_eq!(vars, serde_json::json!({"my_net": {"id": "n-1"}}));
        let line = format!("my-net/dc0={}\n", crate::digest::sha256(b"n-1"));
        assert_eq!(sha, crate::digest::sha256(line.as_bytes()));
        assert_eq!(
            ws.var_file_args(&[PathBuf::from("dc0.tfvars")]),
            ["-var-file=dc0.tfvars"]
        );
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
        assert_eq!(s.sha256, crate::digest::sha256(&s.bytes));
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

    /// A unit without .tf files runs through the `terragrunt` on the commands' PATH, as
    /// `run --non-interactive --tf-path BINARY -- ARGS`, its relative var files made the unit's;
    /// a plain root runs directly; a unit with no `terragrunt` is refused, saying what to install.
    #[test]
    fn a_unit_runs_through_terragrunt_on_the_commands_path() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let b = fake(d.path(), "exit 0");
        let unit = d.path().join("unit");
        std::fs::create_dir_all(&unit).unwrap();
        std::fs::write(unit.join("terragrunt.hcl"), "terraform {}\n").unwrap();
        let bin = d.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let log = d.path().join("args");
        let tg = bin.join("terragrunt");
        std::fs::write(
            &tg,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > {}\necho 'Error: no' >&2\nexit 1\n",
                log.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&tg, std::fs::Permissions::from_mode(0o755)).unwrap();
        let env = vec![(
            "PATH".to_string(),
            format!("{}:/bin:/usr/bin", bin.display()),
        )];
        assert_eq!(
            runner_for(&unit, &env, None).unwrap(),
            Runner::Terragrunt(tg.clone())
        );
        assert_eq!(runner_for(d.path(), &env, None).unwrap(), Runner::Direct);
        // Without a PATH in the commands' environment, the caller's `path` (ward's own PATH, as
        // ward-cli read it) is searched; the commands' PATH wins over it; neither: refused.
        let tg_path = format!("{}:/bin:/usr/bin", bin.display());
        assert_eq!(
            runner_for(&unit, &[], Some(OsStr::new(&tg_path))).unwrap(),
            Runner::Terragrunt(tg.clone())
        );
        let elsewhere = vec![("PATH".to_string(), "/nonexistent".to_string())];
        assert!(matches!(
            runner_for(&unit, &elsewhere, Some(OsStr::new(&tg_path))),
            Err(TfError::NoTerragrunt { .. })
        ));
        assert!(matches!(
            runner_for(&unit, &[], None),
            Err(TfError::NoTerragrunt { .. })
        ));

        let ws = Workspace::for_root(&b, &unit, Duration::from_secs(10), &env, None).unwrap();
        let e = ws
            .plan(&PlanArgs {
                var_files: vec![PathBuf::from("dc0.tfvars")],
                ..PlanArgs::default()
            })
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("`terragrunt run -- terraform plan` in "),
            "{e}"
        );
        let args = std::fs::read_to_string(&log).unwrap();
        let args: Vec<&str> = args.lines().collect();
        let tf = b.path.display().to_string();
        assert_eq!(
            args[..8],
            [
                "run",
                "--non-interactive",
                "--tf-path",
                tf.as_str(),
                "--",
                "plan",
                "-input=false",
                "-no-color"
            ]
        );
        let var = format!("-var-file={}", unit.join("dc0.tfvars").display());
        assert!(args.contains(&var.as_str()), "{args:?}");

        // No terragrunt on the commands' PATH: refused, naming what to install.
        let empty = d.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let env = vec![("PATH".to_string(), empty.display().to_string())];
        let e = Workspace::for_root(&b, &unit, Duration::from_secs(10), &env, None).unwrap_err();
        assert!(matches!(e, TfError::NoTerragrunt { .. }), "{e}");
        assert!(e.to_string().contains("install Terragrunt"), "{e}");
        // A root with .tf files beside terragrunt.hcl runs directly.
        std::fs::write(unit.join("main.tf"), "").unwrap();
        assert_eq!(runner_for(&unit, &env, None).unwrap(), Runner::Direct);
    }

    /// `config_dir`: a root with `.tf` files is itself; a Terragrunt unit is the one directory
    /// under its `.terragrunt-cache` holding a `.terraform/` directory, found at most 12
    /// directories down, never inside a `.terraform/`, through a symlink, or from a file named
    /// `.terraform`; none or several is an error saying so.
    #[test]
    fn config_dir_is_the_one_initialised_copy_in_the_unit_cache() {
        let d = tempfile::tempdir().unwrap();
        let mkdir = |p: &Path| std::fs::create_dir_all(p).unwrap();
        let root = d.path().join("root");
        mkdir(&root);
        std::fs::write(root.join("main.tf"), "").unwrap();
        assert_eq!(config_dir(&root).unwrap(), root);

        let unit = d.path().join("unit");
        mkdir(&unit);
        std::fs::write(unit.join("terragrunt.hcl"), "terraform {}\n").unwrap();
        let none = config_dir(&unit).unwrap_err().to_string();
        assert!(none.contains("no initialised working copy"), "{none}");

        let cache = unit.join(".terragrunt-cache");
        let copy = cache.join("h1/h2/modules/app");
        mkdir(&copy.join(".terraform/modules/m/.terraform"));
        mkdir(&cache.join("h1/other"));
        std::fs::write(cache.join("h1/other/.terraform"), "").unwrap();
        let outside = d.path().join("outside");
        mkdir(&outside.join("x/.terraform"));
        std::os::unix::fs::symlink(&outside, cache.join("h1/link")).unwrap();
        std::os::unix::fs::symlink(
            outside.join("x/.terraform"),
            cache.join("h1/other/.terraform2"),
        )
        .unwrap();
        // A directory 12 below the cache is read (d1/2/.../12 below); one 13 below is not.
        let at13 = (2..=13).fold(cache.join("deep"), |p, i| p.join(i.to_string()));
        mkdir(&at13.join(".terraform"));
        assert_eq!(config_dir(&unit).unwrap(), copy);

        let at12 = (2..=12).fold(cache.join("d1"), |p, i| p.join(i.to_string()));
        mkdir(&at12.join(".terraform"));
        let two = config_dir(&unit).unwrap_err().to_string();
        assert!(two.contains("2 initialised working copies"), "{two}");
        std::fs::remove_dir_all(cache.join("d1")).unwrap();

        // The cache itself may be a link (Terragrunt's cache elsewhere): it is read through.
        std::fs::rename(&cache, d.path().join("cache")).unwrap();
        std::os::unix::fs::symlink(d.path().join("cache"), &cache).unwrap();
        assert_eq!(config_dir(&unit).unwrap(), copy);
    }

    /// `Workspace::open` chooses, then opens: no binary to choose is [`OpenError::Choose`] with
    /// `binary::choose`'s text and no selection; a chosen binary whose workspace cannot open (a
    /// Terragrunt unit, no `terragrunt`) is [`OpenError::Workspace`] with the selection and the
    /// workspace's text; opened, the options are the workspace's; `direct` runs a unit directly.
    #[test]
    fn open_chooses_a_binary_then_opens_and_says_which_step_failed() {
        let d = tempfile::tempdir().unwrap();
        let b = fake(d.path(), "exit 0");
        let root = d.path().join("root");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("main.tf"), "").unwrap();
        let opts = OpenOptions::new(Duration::from_secs(10));

        let e = Workspace::open(&root, None, &[], &opts).unwrap_err();
        assert!(
            matches!(e, OpenError::Choose(ChooseError::Select(_))),
            "{e}"
        );
        assert!(e.selection().is_none());
        let chose = binary::choose(&root, None, &[]).unwrap_err();
        assert_eq!(e.to_string(), chose.to_string());
        assert!(
            e.to_string()
                .starts_with("cannot choose terraform or tofu: "),
            "{e}"
        );

        let env = vec![("WARD_X".to_string(), "1".to_string())];
        let allow = vec!["TF_X_*".to_string()];
        let by = Instant::now() + Duration::from_secs(60);
        let (ws, sel) = Workspace::open(
            &root,
            None,
            std::slice::from_ref(&b),
            &OpenOptions {
                env: &env,
                allow: &allow,
                deadline: Some(by),
                ..opts.clone()
            },
        )
        .unwrap();
        assert_eq!(sel.binary, b);
        assert_eq!(ws.binary(), &b);
        assert_eq!(ws.dir(), root.as_path());
        assert_eq!(ws.runner(), &Runner::Direct);
        assert_eq!(ws.env, env);
        assert!(ws.allow.ends_with(&allow), "{:?}", ws.allow);
        assert_eq!(ws.deadline, Some(by));

        let unit = d.path().join("unit");
        std::fs::create_dir_all(&unit).unwrap();
        std::fs::write(unit.join("terragrunt.hcl"), "terraform {}\n").unwrap();
        let e = Workspace::open(&unit, None, std::slice::from_ref(&b), &opts).unwrap_err();
        match &e {
            OpenError::Workspace { selection, error } => {
                assert!(matches!(**error, TfError::NoTerragrunt { .. }), "{error}");
                assert_eq!(selection.binary, b);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(e.selection().map(|s| &s.binary), Some(&b));
        let opened = Workspace::for_root(&b, &unit, opts.timeout, &[], None).unwrap_err();
        assert_eq!(e.to_string(), opened.to_string());
        let direct = OpenOptions {
            direct: true,
            ..opts.clone()
        };
        let (ws, _) = Workspace::open(&unit, None, std::slice::from_ref(&b), &direct).unwrap();
        assert_eq!(ws.runner(), &Runner::Direct);
    }

    /// `plan_file`: the flags right after `plan`, exit 2 is changes; a held lock is `locked`
    /// with who holds it. `read_plan` streams `show -json` and removes its output.
    #[test]
    fn plan_file_and_read_plan() {
        let d = tempfile::tempdir().unwrap();
        let log = d.path().join("args");
        let b = fake(
            d.path(),
            &format!(
                r#"echo "$@" >> {}
case "$1" in
  plan) case "$2" in -destroy) printf 'Error: Error acquiring the state lock
 Lock Info:
   ID:   abc
   Who:  me
' >&2; exit 1 ;; esac; exit 2 ;;
  show) printf '{{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{{}}}}' ;;
esac"#,
                log.display()
            ),
        );
        let ws = Workspace::new(&b, d.path(), Duration::from_secs(10)).unwrap();
        let (path, changes) = ws
            .plan_file(&PlanArgs {
                refresh_only: true,
                name: Some("refresh".into()),
                ..PlanArgs::default()
            })
            .unwrap();
        assert!(changes);
        assert_eq!(path, ws.scratch().join("refresh.tfplan"));
        let options = ward_plan::ReadOptions {
            content: false,
            objects: false,
            ..ward_plan::ReadOptions::default()
        };
        let plan = ws.read_plan(&path, options).unwrap();
        assert_eq!(plan.terraform_version.as_deref(), Some("1.9.0"));
        let args = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = args.lines().collect();
        assert_eq!(
            lines,
            [
                format!("plan -refresh-only -input=false -no-color -detailed-exitcode -lock-timeout=0s -out={}", path.display()),
                format!("show -json -no-color {}", path.display()),
            ]
        );
        assert_eq!(
            std::fs::read_dir(ws.scratch()).unwrap().count(),
            0,
            "show's output is removed"
        );
        let e = ws
            .plan_file(&PlanArgs {
                destroy: true,
                ..PlanArgs::default()
            })
            .unwrap_err();
        assert!(
            matches!(&e, TfError::Failed { locked: true, lock_info, .. } if lock_info == &["ID: abc", "Who: me"]),
            "{e:?}"
        );
    }

    /// `show_read` hands each change to its callback as it reads it and keeps none of them (what
    /// ward stack's gate and counts read), reads only what its options ask for, and keeps the
    /// JSON where `json_path` says, hashed.
    #[test]
    fn show_read_hands_each_change_over_and_keeps_none() {
        let d = tempfile::tempdir().unwrap();
        let json = r#"{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"p","change":{"actions":["delete"],"before":{"id":"x-1"},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false}},{"address":"a.c","mode":"managed","type":"a","name":"c","provider_name":"p","change":{"actions":["create"],"before":null,"after":{"id":"y"},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}"#;
        let b = fake(
            d.path(),
            &format!("case \"$1\" in\n  plan) exit 2 ;;\n  show) printf '%s' '{json}' ;;\nesac"),
        );
        let ws = Workspace::new(&b, d.path(), Duration::from_secs(10)).unwrap();
        let (planfile, has_changes) = ws.plan_file(&PlanArgs::default()).unwrap();
        assert!(has_changes);
        let mut seen = Vec::new();
        let only = ward_plan::ReadOptions {
            content: false,
            objects: false,
            ..ward_plan::ReadOptions::default()
        };
        let shown = ws
            .show_read(
                &planfile,
                "counted",
                only,
                Some(&mut |c| seen.push((c.address.clone(), c.content.is_some()))),
            )
            .unwrap();
        assert_eq!(
            seen,
            [("a.b".to_string(), false), ("a.c".to_string(), false)]
        );
        assert!(shown.plan.changes.is_empty());
        assert!(shown.objects.is_empty());
        assert_eq!(shown.json_path, ws.json_path("counted"));
        assert_eq!(std::fs::read_to_string(&shown.json_path).unwrap(), json);
        assert_eq!(shown.json_sha256, crate::digest::sha256(json.as_bytes()));
        // With the objects asked for, the destroyed one is read in the same pass.
        let mut n = 0;
        let both = ward_plan::ReadOptions {
            content: true,
            objects: true,
            ..ward_plan::ReadOptions::default()
        };
        let again = ws
            .show_read(
                &planfile,
                "gated",
                both,
                Some(&mut |c| {
                    assert!(c.content.is_some());
                    n += 1;
                }),
            )
            .unwrap();
        assert_eq!(n, 2);
        assert_eq!(again.objects.len(), 1);
    }

    /// `plan` reads `show -json` once, from the owner-only file it keeps: the plan with its
    /// content fingerprints, the objects it destroys (for the gate's guards, #34) and the digest
    /// of the very bytes kept.
    #[test]
    fn plan_keeps_the_json_and_reads_plan_and_objects_in_one_pass() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let json = r#"{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{},"resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"p","change":{"actions":["delete"],"before":{"id":"x-1","size":3},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false}}]}"#;
        let b = fake(
            d.path(),
            &format!("case \"$1\" in\n  plan) exit 2 ;;\n  show) printf '%s' '{json}' ;;\nesac"),
        );
        let ws = Workspace::new(&b, d.path(), Duration::from_secs(10)).unwrap();
        let saved = ws.plan(&PlanArgs::default()).unwrap();
        assert!(saved.has_changes);
        assert_eq!(saved.json_path, ws.scratch().join("plan.json"));
        assert_eq!(std::fs::read_to_string(&saved.json_path).unwrap(), json);
        let mode = std::fs::metadata(&saved.json_path)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(saved.json_sha256, crate::digest::sha256(json.as_bytes()));
        assert_eq!(saved.plan.changes.len(), 1);
        assert!(saved.plan.changes.iter().all(|c| c.content.is_some()));
        let object = saved.objects.get(&("a.b".to_string(), None)).unwrap();
        assert_eq!(object.get("id"), Some(&serde_json::json!("x-1")));
        // The stdout file was moved, not copied: only the plan files are left.
        let mut left: Vec<String> = std::fs::read_dir(ws.scratch())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["plan.json"]);
        // A second plan of the same name does not replace the JSON the first one kept.
        let e = ws.plan(&PlanArgs::default()).unwrap_err();
        assert!(matches!(&e, TfError::Scratch { .. }), "{e:?}");
        assert_eq!(std::fs::read_to_string(&saved.json_path).unwrap(), json);
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
