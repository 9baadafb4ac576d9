//! The reader's error: what file, what was wrong, what to do.

use std::fmt;

/// What kind of problem stopped the reader. Tests match on this; people read [`PlanError`]'s
/// `Display`, which says the same thing in full sentences.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlanErrorKind {
    /// The path does not exist.
    NotFound,
    /// The path is a directory.
    IsDirectory,
    /// The file exists but could not be opened or read (permissions, I/O error).
    Unreadable,
    /// The input is empty (or only whitespace).
    Empty,
    /// A binary plan file (a zip archive written by `terraform plan -out`).
    BinaryPlan,
    /// A state file: a raw `terraform.tfstate`, an encrypted OpenTofu state, or `show -json`
    /// output of a state rather than of a plan.
    StateFile,
    /// A machine-readable UI log (`terraform plan -json`, JSON lines of `@level`/`@message`).
    UiLog,
    /// Valid JSON, but not a plan (no `resource_changes`/`planned_values`; a provider schema...).
    NotAPlan,
    /// The input is not valid UTF-8 (and has no UTF-16 byte order mark).
    InvalidUtf8 {
        /// Byte offset of the first invalid byte, as far as it could be told.
        offset: u64,
    },
    /// The input is UTF-16 (it has a UTF-16 byte order mark, or its first bytes are
    /// UTF-16 text) but not valid UTF-16: a lone surrogate, or an odd byte at the end.
    InvalidUtf16 {
        /// Byte offset in the file of the first bad code unit.
        offset: u64,
    },
    /// The JSON ends before it is complete (a cut-off file or an interrupted redirect).
    Truncated {
        /// Byte offset at which the input ended.
        offset: u64,
    },
    /// Not valid JSON.
    InvalidJson {
        /// Byte offset of the first byte that is not valid JSON.
        offset: u64,
    },
    /// The JSON nests deeper than the reader allows (128 levels).
    TooDeep {
        /// Byte offset at which the limit was reached.
        offset: u64,
    },
    /// `format_version` has a major version ward does not know (or is not `MAJOR.MINOR`).
    UnsupportedFormatVersion,
    /// A change's `actions` list is not one ward knows: ward fails closed.
    UnknownAction,
    /// A resource's `mode` is not one ward knows: ward fails closed.
    UnknownMode,
    /// A JSON object that holds one key twice (anywhere in the input): Terraform and OpenTofu
    /// never write that, and which of the two apply would act on cannot be told.
    DuplicateKey {
        /// Byte offset near which the second one was found.
        offset: u64,
    },
    /// Plan-shaped JSON whose fields have the wrong type or shape.
    Malformed {
        /// Byte offset near which the problem was found.
        offset: u64,
    },
}

/// Why a plan could not be read. `Display` is the full message: which input, what was wrong
/// with it, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    source_name: String,
    kind: PlanErrorKind,
    problem: String,
    help: String,
}

impl PlanError {
    pub(crate) fn new(
        source_name: &str,
        kind: PlanErrorKind,
        problem: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        PlanError {
            source_name: source_name.to_string(),
            kind,
            problem: problem.into(),
            help: help.into(),
        }
    }

    /// The kind of problem.
    pub fn kind(&self) -> PlanErrorKind {
        self.kind.clone()
    }

    /// The input's name as given (a path, or `-` / `<stdin>`).
    pub fn source_name(&self) -> &str {
        &self.source_name
    }

    /// What was wrong, in one sentence.
    pub fn problem(&self) -> &str {
        &self.problem
    }

    /// What to do about it.
    pub fn help(&self) -> &str {
        &self.help
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read plan `{}`: {}\n  help: {}",
            self.source_name, self.problem, self.help
        )
    }
}

impl std::error::Error for PlanError {}

/// The help text shared by every "this is not JSON plan output" error.
pub(crate) const HOW_TO_MAKE_A_PLAN: &str = "give ward the JSON form of a saved plan: \
`terraform plan -out=tfplan && terraform show -json tfplan > plan.json` \
(or the same with `tofu`), then `ward plan plan.json`";
