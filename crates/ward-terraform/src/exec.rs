//! Running Terraform/OpenTofu with a deadline, through ward's one runner ([`ward_exec`]): each
//! command in its own process group, killed as a group (providers included) when the root's time
//! is up, without the caller's `TF_*` variables (`TF_CLI_ARGS_plan` and the like) except those on
//! the allow-list.

use std::path::{Path, PathBuf};
use std::time::Instant;

/// `TF_*` variables passed through to Terraform by default ([`ward_exec::TERRAFORM_ALLOWED_TF`]);
/// `ward drift --allow-env NAME` adds more.
pub const DEFAULT_ALLOWED_TF: &[&str] = ward_exec::TERRAFORM_ALLOWED_TF;

/// The most stdout a command may print (`state pull`, `show -json`): 4 GiB.
const STDOUT_CAP: u64 = 4 << 30;

/// What a finished command left.
#[derive(Debug)]
pub struct Finished {
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Everything it printed on stdout.
    pub stdout: Vec<u8>,
    /// What it printed on stderr (at most 1 MiB).
    pub stderr: String,
}

impl Finished {
    /// True on exit code 0.
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// What Terraform's error said, in at most `n` non-empty lines joined by ` | `: from the
    /// first `Error:` line when there is one (the cause), else the last `n` lines
    /// ([`ward_exec::error_summary`]).
    pub fn stderr_tail(&self, n: usize) -> String {
        ward_exec::error_summary(&self.stderr, n)
    }
}

/// Why a command did not finish.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// It could not be started (or its output could not be kept).
    #[error("{message}")]
    Spawn {
        /// The program.
        program: String,
        /// What went wrong, and what to do.
        message: String,
    },
    /// The deadline passed: the process group was killed.
    #[error("timed out: `{command}` was still running at the root's deadline; its process group was killed (raise the per-root limit with --timeout SECONDS)")]
    Timeout {
        /// The command line.
        command: String,
    },
}

/// Runs `program args...` in `dir` with extra `env`, until `deadline`. Inherited `TF_*`
/// variables are removed unless `allow` names them. Stdout goes to a file in `scratch` (owner
/// only), so no pipe can fill up and block the child.
pub fn run(
    program: &Path,
    args: &[&str],
    dir: &Path,
    env: &[(&str, &str)],
    allow: &[String],
    scratch: &Path,
    deadline: Instant,
) -> Result<Finished, ExecError> {
    let (mut f, out_path) = run_keeping_stdout(program, args, dir, env, allow, scratch, deadline)?;
    f.stdout = std::fs::read(&out_path).map_err(|e| ExecError::Spawn {
        program: program.display().to_string(),
        message: format!("cannot read {}: {e}", out_path.display()),
    })?;
    let _ = std::fs::remove_file(&out_path);
    Ok(f)
}

/// [`run`], leaving the standard output in its owner-only file in `scratch` (returned with
/// the result, whose `stdout` is empty) instead of reading it into memory: for output read as
/// a stream (`show -json` of a large plan, read by ward-plan in blocks). The caller removes the
/// file when done (the scratch directory is removed in any case). The same deadline and cap
/// as [`run`].
pub fn run_keeping_stdout(
    program: &Path,
    args: &[&str],
    dir: &Path,
    env: &[(&str, &str)],
    allow: &[String],
    scratch: &Path,
    deadline: Instant,
) -> Result<(Finished, PathBuf), ExecError> {
    let tag = args.first().copied().unwrap_or("cmd");
    let out_path = scratch.join(format!("{tag}.stdout"));
    let timeout = deadline.saturating_duration_since(Instant::now());
    let cmd = ward_exec::Command::new(program, timeout)
        .args(args)
        .current_dir(dir)
        .terraform()
        .allow_tf(allow)
        .envs(env.iter().copied())
        .stdout_to_file(&out_path)
        .stdout_cap(STDOUT_CAP);
    let spawn_err = |message: String| ExecError::Spawn {
        program: program.display().to_string(),
        message,
    };
    let out = match cmd.run() {
        Ok(o) => o,
        Err(ward_exec::ExecError::TimedOut { command, .. }) => {
            return Err(ExecError::Timeout { command })
        }
        Err(e) => return Err(spawn_err(e.to_string())),
    };
    let stderr = out.stderr_text();
    let code = out.code;
    if out.stdout_cut > 0 {
        return Err(spawn_err(
            out.require_whole()
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default(),
        ));
    }
    Ok((
        Finished {
            code,
            stdout: Vec::new(),
            stderr,
        },
        out_path,
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn runs_and_times_out_killing_the_group() {
        let d = tempfile::tempdir().unwrap();
        let sh = Path::new("/bin/sh");
        let f = run(
            sh,
            &["-c", "echo hi; echo err >&2; exit 3"],
            d.path(),
            &[],
            &[],
            d.path(),
            Instant::now() + Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(f.code, Some(3));
        assert_eq!(f.stdout, b"hi\n");
        assert_eq!(f.stderr_tail(1), "err");
        let g = Finished {
            code: Some(1),
            stdout: vec![],
            stderr:
                "\n╷\n│ Error: Failed to install provider\n│\n│ the cause\n│ more\n│ and more\n╵\n"
                    .into(),
        };
        assert_eq!(
            g.stderr_tail(2),
            "Error: Failed to install provider | the cause"
        );
        // A grandchild sleeping in the background is killed with the group.
        let marker = d.path().join("survived");
        let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let t0 = Instant::now();
        let e = run(
            sh,
            &["-c", &script],
            d.path(),
            &[],
            &[],
            d.path(),
            Instant::now() + Duration::from_millis(300),
        )
        .unwrap_err();
        assert!(matches!(e, ExecError::Timeout { .. }));
        assert!(t0.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!marker.exists(), "the background child outlived the kill");
    }

    #[test]
    fn keeping_stdout_leaves_it_in_an_owner_only_file() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let (f, out) = run_keeping_stdout(
            Path::new("/bin/sh"),
            &["-c", r#"printf '{"a":1}'; exit 0"#],
            d.path(),
            &[],
            &[],
            d.path(),
            Instant::now() + Duration::from_secs(10),
        )
        .unwrap();
        assert!(f.ok() && f.stdout.is_empty());
        assert!(out.starts_with(d.path()));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "{\"a\":1}");
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
        // The deadline holds as for `run`.
        let e = run_keeping_stdout(
            Path::new("/bin/sh"),
            &["-c", "sleep 30"],
            d.path(),
            &[],
            &[],
            d.path(),
            Instant::now() + Duration::from_millis(300),
        )
        .unwrap_err();
        assert!(matches!(e, ExecError::Timeout { .. }));
    }
}
