//! `show -json` of a saved plan file with a binary the caller names (not one chosen by
//! evidence): how `ward verify` reads the plan it is about to let through. The command runs
//! through [`ward_exec`] (its own process group, the caller's timeout, `TF_*` variables removed
//! except [`ward_exec::TERRAFORM_ALLOWED_TF`]); its output goes to an owner-only file in a
//! scratch directory, which ward-plan reads in bounded memory and which is removed on every
//! exit path.

use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

/// The most `show -json` may print: 4 GiB.
const SHOW_CAP: u64 = 4 << 30;

/// One `show -json` of a saved plan file.
#[derive(Debug, Clone)]
pub struct ShowPlan<'a> {
    /// The binary: a name looked up on `PATH`, or a path.
    pub binary: &'a OsStr,
    /// The root the plan was made in (passed as `-chdir=DIR`).
    pub dir: &'a Path,
    /// The saved plan file (absolute, or relative to `dir`).
    pub planfile: &'a Path,
    /// How long the command may run.
    pub timeout: Duration,
    /// What a timeout message adds (e.g. which flag raises the limit).
    pub timeout_hint: &'a str,
}

/// Why a saved plan could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    /// The scratch directory for the output could not be created.
    #[error("cannot create a scratch directory: {0}")]
    Scratch(std::io::Error),
    /// The command could not be started, timed out, or printed more than the cap.
    #[error("{0}")]
    Exec(ward_exec::ExecError),
    /// The command ran and failed.
    #[error("failed ({status}): {stderr}")]
    Failed {
        /// `exit status: N`, `killed by signal N`.
        status: String,
        /// What it printed on stderr, trimmed.
        stderr: String,
    },
    /// The output is not a plan ward-plan can read.
    #[error("{error}")]
    Read {
        /// ward-plan's error.
        error: ward_plan::PlanError,
        /// The scratch file the error names (the caller may name the command instead).
        path: String,
    },
}

/// Runs `BINARY -chdir=DIR show -json PLANFILE` and reads its output through ward-plan with
/// `options`, handing each change to `on_change` when given (memory then holds what the caller
/// keeps of each, not the plan). Returns the plan (without the changes handed over).
pub fn saved_plan(
    show: &ShowPlan<'_>,
    options: ward_plan::ReadOptions,
    on_change: Option<&mut dyn FnMut(ward_model::ResourceChange)>,
) -> Result<ward_model::Plan, ShowError> {
    let scratch = ward_exec::ScratchDir::new("ward-verify-").map_err(ShowError::Scratch)?;
    let json = scratch.path().join("plan.json");
    let out = ward_exec::Command::new(show.binary, show.timeout)
        .arg(format!("-chdir={}", show.dir.display()))
        .arg("show")
        .arg("-json")
        .arg(show.planfile)
        .terraform()
        .allow_tf(ward_exec::TERRAFORM_ALLOWED_TF.iter().copied())
        .stdout_to_file(&json)
        .stdout_cap(SHOW_CAP)
        .timeout_hint(show.timeout_hint)
        .run()
        .and_then(ward_exec::Output::require_whole)
        .map_err(ShowError::Exec)?;
    if !out.success() {
        let status = match (out.code, out.signal) {
            (Some(c), _) => format!("exit status: {c}"),
            (None, Some(s)) => format!("killed by signal {s}"),
            (None, None) => "unknown status".to_string(),
        };
        return Err(ShowError::Failed {
            status,
            stderr: out.stderr_text().trim().to_string(),
        });
    }
    let path = json.display().to_string();
    ward_plan::read_with(&path, options, on_change)
        .map(|(plan, _)| plan)
        .map_err(|error| ShowError::Read { error, path })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// A fake binary printing `stdout` for `show -json` and logging its arguments.
    fn fake(dir: &Path, script: &str) -> std::path::PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join("terraform");
        std::fs::write(&p, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn show<'a>(bin: &'a Path, dir: &'a Path, plan: &'a Path, timeout: Duration) -> ShowPlan<'a> {
        ShowPlan {
            binary: bin.as_os_str(),
            dir,
            planfile: plan,
            timeout,
            timeout_hint: "raise the limit with --timeout SECONDS",
        }
    }

    #[test]
    fn reads_the_plan_change_by_change_and_leaves_no_file() {
        let d = tempfile::tempdir().unwrap();
        let log = d.path().join("args");
        let bin = fake(
            d.path(),
            &format!(
                r#"printf '%s\n' "$@" > {}
printf '{{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"p","change":{{"actions":["delete"],"before":{{}},"after":null}}}}]}}'"#,
                log.display()
            ),
        );
        let plan = d.path().join("tfplan");
        let mut seen = Vec::new();
        let mut each = |c: ward_model::ResourceChange| seen.push(c.address);
        let p = saved_plan(
            &show(&bin, d.path(), &plan, Duration::from_secs(10)),
            ward_plan::ReadOptions::default(),
            Some(&mut each),
        )
        .unwrap();
        assert_eq!(p.terraform_version.as_deref(), Some("1.9.0"));
        assert!(p.changes.is_empty());
        assert_eq!(seen, ["a.b"]);
        let args = std::fs::read_to_string(&log).unwrap();
        assert_eq!(
            args,
            format!(
                "-chdir={}\nshow\n-json\n{}\n",
                d.path().display(),
                plan.display()
            )
        );
    }

    #[test]
    fn failures_are_typed() {
        let d = tempfile::tempdir().unwrap();
        let plan = d.path().join("tfplan");
        let fail = |bin: &Path, timeout: Duration| {
            saved_plan(
                &show(bin, d.path(), &plan, timeout),
                ward_plan::ReadOptions::default(),
                None,
            )
            .unwrap_err()
        };
        let secs = Duration::from_secs(10);
        let bin = fake(d.path(), "echo ' Error: not a plan ' >&2; exit 1");
        let e = fail(&bin, secs);
        assert!(
            matches!(&e, ShowError::Failed { status, stderr } if status == "exit status: 1" && stderr == "Error: not a plan"),
            "{e:?}"
        );
        let e = fail(&fake(d.path(), "echo '[1]'"), secs);
        assert!(
            matches!(&e, ShowError::Read { path, .. } if path.ends_with("plan.json")),
            "{e:?}"
        );
        let e = fail(&d.path().join("no-such-terraform"), secs);
        assert!(
            matches!(&e, ShowError::Exec(ward_exec::ExecError::NotFound { .. })),
            "{e:?}"
        );
        let e = fail(&fake(d.path(), "sleep 30"), Duration::from_millis(300));
        assert!(
            matches!(&e, ShowError::Exec(ward_exec::ExecError::TimedOut { .. })),
            "{e:?}"
        );
        assert!(e.to_string().contains("--timeout SECONDS"), "{e}");
    }
}
