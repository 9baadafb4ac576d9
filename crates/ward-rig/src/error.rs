//! The rig's error type.

use crate::INSTALL_COMMAND;
use std::path::PathBuf;

/// Everything that can go wrong in the rig. Each message says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum RigError {
    /// The fakecloud provider binary was not found.
    #[error("the fakecloud provider binary is not built (looked for {looked}): run `cargo build -p fakecloud` with PROTOC set (scripts/test does both), or set WARD_FAKECLOUD to the binary")]
    MissingProvider {
        /// Where the rig looked.
        looked: String,
    },
    /// No Terraform binary was found.
    #[error("no Terraform binary at {looked}: run `{INSTALL_COMMAND}` (scripts/test runs it), or set WARD_TERRAFORM to a terraform binary")]
    MissingTerraform {
        /// Where the rig looked.
        looked: String,
    },
    /// A Terraform command exited with an unexpected code.
    #[error("{0}")]
    Terraform(Box<TerraformFailure>),
    /// A file operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What the rig was doing.
        what: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Some JSON did not parse.
    #[error("cannot parse {what}: {source}")]
    Json {
        /// What was being parsed.
        what: String,
        /// The cause.
        source: serde_json::Error,
    },
    /// A rig function was used wrongly (e.g. a replacement text that is not in the file).
    #[error("{0}")]
    Usage(String),
    /// A command could not run, timed out or printed more than the rig keeps.
    #[error(transparent)]
    Exec(#[from] ward_exec::ExecError),
}

impl RigError {
    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> RigError {
        RigError::Io {
            what: what.into(),
            source,
        }
    }

    /// True when the error is a missing provider or Terraform binary (what
    /// [`crate::Rig::for_tests`] skips on outside CI).
    pub fn is_missing_tool(&self) -> bool {
        matches!(
            self,
            RigError::MissingProvider { .. } | RigError::MissingTerraform { .. }
        )
    }

    /// For [`RigError::Terraform`]: what Terraform printed on stderr; empty otherwise.
    pub fn stderr(&self) -> &str {
        match self {
            RigError::Terraform(failure) => &failure.stderr,
            _ => "",
        }
    }
}

/// What a failed Terraform command did (see [`RigError::Terraform`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`terraform {args}` ({terraform}) exited {code} in {}:\n{stderr}{stdout}", dir.display())]
pub struct TerraformFailure {
    /// Which binary, e.g. `Terraform 1.0.3`.
    pub terraform: String,
    /// The arguments, space-separated.
    pub args: String,
    /// The root directory it ran in.
    pub dir: PathBuf,
    /// Its exit code (-1 when killed by a signal).
    pub code: i32,
    /// What it printed on stderr.
    pub stderr: String,
    /// What it printed on stdout (its last 4000 bytes).
    pub stdout: String,
}
