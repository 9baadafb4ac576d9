//! Errors: every one says what was wrong and what to do about it.

/// Something the gate could not do. All of these end a command with exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// The root is being adopted with `ward import`, has no acceptance yet, and the plan
    /// changes more than imports: the refusal's lines for standard error (exit 1).
    #[error("{0}")]
    Adopting(String),
    /// A file could not be read or written.
    #[error("cannot {action} `{path}`: {source}")]
    Io {
        /// The file.
        path: String,
        /// What ward was doing, e.g. "read the approvals file".
        action: &'static str,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A file could not be written safely or its update lock could not be had.
    #[error("{0}")]
    Fs(#[from] ward_fs::FsError),
    /// `ward.hcl` could not be found or read, or holds an invalid block (`file:line:column`).
    #[error("{0}")]
    Config(#[from] ward_config::ConfigError),
    /// The approvals file is not in the documented format.
    #[error("{file}: {problem}")]
    Approvals {
        /// The file.
        file: String,
        /// What is wrong and how to fix it.
        problem: String,
    },
    /// The protection record is not in the documented format.
    #[error("{file}: {problem}")]
    Protection {
        /// The file.
        file: String,
        /// What is wrong and how to fix it.
        problem: String,
    },
    /// A Terraform file of the root could not be read for `prevent_destroy`.
    #[error("{file}: cannot read for `prevent_destroy`: {problem}")]
    Terraform {
        /// The file.
        file: String,
        /// What is wrong.
        problem: String,
    },
    /// `ward approve` was asked for something it cannot approve.
    #[error("{0}")]
    Approve(String),
    /// `ward verify` could not run the check (not: the check failed).
    #[error("{0}")]
    Verify(String),
    /// Any other usage problem.
    #[error("{0}")]
    Usage(String),
}
