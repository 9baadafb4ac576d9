//! Running Terraform/OpenTofu with a deadline: each command in its own process group, killed as
//! a group (providers included) when the root's time is up.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Instant;

/// What a finished command left.
#[derive(Debug)]
pub struct Finished {
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Everything it printed on stdout.
    pub stdout: Vec<u8>,
    /// Everything it printed on stderr.
    pub stderr: String,
}

impl Finished {
    /// True on exit code 0.
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// What Terraform's error said, in at most `n` non-empty lines joined by ` | `: from the
    /// first `Error:` line when there is one (the cause), else the last `n` lines.
    pub fn stderr_tail(&self, n: usize) -> String {
        let lines: Vec<&str> = self
            .stderr
            .lines()
            .map(|l| {
                l.trim_matches(|c: char| c.is_whitespace() || c == '│' || c == '╷' || c == '╵')
            })
            .filter(|l| !l.is_empty())
            .collect();
        let start = match lines.iter().position(|l| l.starts_with("Error:")) {
            Some(i) => i,
            None => lines.len().saturating_sub(n),
        };
        let end = (start + n).min(lines.len());
        lines[start..end].join(" | ")
    }
}

/// Why a command did not finish.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// It could not be started.
    #[error("cannot run {program}: {message}")]
    Spawn {
        /// The program.
        program: String,
        /// The OS error.
        message: String,
    },
    /// The deadline passed: the process group was killed.
    #[error("timed out: `{command}` was still running at the root's deadline; its process group was killed")]
    Timeout {
        /// The command line.
        command: String,
    },
}

/// Runs `program args...` in `dir` with extra `env`, until `deadline`. Stdout and stderr are
/// written to files in `scratch` (no pipe can fill up and block the child).
pub fn run(
    program: &Path,
    args: &[&str],
    dir: &Path,
    env: &[(&str, &str)],
    scratch: &Path,
    deadline: Instant,
) -> Result<Finished, ExecError> {
    let command = format!("{} {}", program.display(), args.join(" "));
    let spawn_err = |e: std::io::Error| ExecError::Spawn {
        program: program.display().to_string(),
        message: e.to_string(),
    };
    let tag = args.first().copied().unwrap_or("cmd");
    let out_path = scratch.join(format!("{tag}.stdout"));
    let err_path = scratch.join(format!("{tag}.stderr"));
    let out_f = std::fs::File::create(&out_path).map_err(spawn_err)?;
    let err_f = std::fs::File::create(&err_path).map_err(spawn_err)?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out_f)
        .stderr(err_f)
        .process_group(0);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().map_err(spawn_err)?;
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let timeout = deadline.saturating_duration_since(Instant::now());
    let status = match rx.recv_timeout(timeout) {
        Ok(Ok(status)) => status,
        Ok(Err(e)) => return Err(spawn_err(e)),
        Err(_) => {
            kill_group(pid);
            // Reap it (the waiting thread does) before returning.
            let _ = rx.recv_timeout(std::time::Duration::from_secs(5));
            return Err(ExecError::Timeout { command });
        }
    };
    let stdout = std::fs::read(&out_path).map_err(spawn_err)?;
    let stderr =
        String::from_utf8_lossy(&std::fs::read(&err_path).map_err(spawn_err)?).into_owned();
    Ok(Finished {
        code: status.code(),
        stdout,
        stderr,
    })
}

/// Kills the whole process group led by `pid` (Terraform and its provider plugins).
fn kill_group(pid: u32) {
    if let Ok(p) = i32::try_from(pid) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(p),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
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
            d.path(),
            Instant::now() + Duration::from_millis(300),
        )
        .unwrap_err();
        assert!(matches!(e, ExecError::Timeout { .. }));
        assert!(t0.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!marker.exists(), "the background child outlived the kill");
    }
}
