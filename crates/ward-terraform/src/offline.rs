//! Terraform on a module without its backend, with a binary the caller names (not one chosen by
//! evidence): `ward check --exec`'s `fmt -check`, `init -backend=false` and `validate -json`,
//! each in a copy of the module with its own `TF_DATA_DIR`, so nothing is written into the
//! repository checked.
//!
//! Every command runs through [`ward_exec`]: its own process group, the caller's timeout, the
//! inherited `TF_*` variables removed except [`ward_exec::TERRAFORM_ALLOWED_TF`] and the caller's
//! allow-list. The caller judges the exit code and the output.

use std::path::Path;
use std::time::Duration;
use ward_exec::{ExecError, Output};

/// One directory and how its commands run.
#[derive(Debug, Clone)]
pub struct Offline<'a> {
    /// The binary: a name looked up on `PATH`, or a path.
    pub binary: &'a Path,
    /// Where the commands run.
    pub dir: &'a Path,
    /// The directory's own `TF_DATA_DIR`.
    pub data_dir: &'a Path,
    /// How long one command may run.
    pub timeout: Duration,
    /// Inherited `TF_*` variables kept besides [`ward_exec::TERRAFORM_ALLOWED_TF`].
    pub allow_env: &'a [String],
    /// What a timeout message adds (e.g. which flag raises the limit).
    pub timeout_hint: &'a str,
}

impl Offline<'_> {
    /// `fmt -check -list=true`: the files not formatted are listed on stdout.
    pub fn fmt_check(&self) -> Result<Output, ExecError> {
        self.run(&["fmt", "-check", "-list=true", "-no-color"])
    }

    /// `init -backend=false -input=false`: providers and modules, no state.
    pub fn init(&self) -> Result<Output, ExecError> {
        self.run(&["init", "-backend=false", "-input=false", "-no-color"])
    }

    /// `validate -json`: the diagnostics as JSON on stdout.
    pub fn validate_json(&self) -> Result<Output, ExecError> {
        self.run(&["validate", "-json", "-no-color"])
    }

    fn run(&self, args: &[&str]) -> Result<Output, ExecError> {
        ward_exec::Command::new(self.binary, self.timeout)
            .args(args)
            .current_dir(self.dir)
            .terraform()
            .allow_tf(ward_exec::TERRAFORM_ALLOWED_TF.iter().copied())
            .allow_tf(self.allow_env)
            .env("TF_DATA_DIR", self.data_dir)
            .timeout_hint(self.timeout_hint)
            .run()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Each command's argv, its directory and its `TF_DATA_DIR`.
    #[test]
    fn argv_directory_and_data_dir() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let bin = d.path().join("terraform");
        std::fs::write(&bin, "#!/bin/sh\necho \"$* | $(pwd -P) | $TF_DATA_DIR\"\n").unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        let data = d.path().join("data-0");
        let allow = ["TF_KEEP".to_string()];
        let o = Offline {
            binary: &bin,
            dir: d.path(),
            data_dir: &data,
            timeout: Duration::from_secs(10),
            allow_env: &allow,
            timeout_hint: "raise it with --exec-timeout SECONDS",
        };
        let dir = std::fs::canonicalize(d.path()).unwrap();
        let line = |r: Result<Output, ExecError>| r.unwrap().stdout_text();
        assert_eq!(
            line(o.fmt_check()),
            format!(
                "fmt -check -list=true -no-color | {} | {}\n",
                dir.display(),
                data.display()
            )
        );
        assert!(line(o.init()).starts_with("init -backend=false -input=false -no-color | "));
        assert!(line(o.validate_json()).starts_with("validate -json -no-color | "));
    }
}
