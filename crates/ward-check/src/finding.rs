//! Findings and the report that carries them.

use crate::catalog::Severity;
use serde::Serialize;

/// One thing a rule found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Finding {
    /// Repository-relative file (`.` for the repository as a whole).
    pub file: String,
    /// 1-based line (0 when the finding is about the file or directory as a whole).
    pub line: usize,
    /// Rule ID.
    pub rule: String,
    /// Severity after `ward.hcl` tuning.
    pub severity: Severity,
    /// What is wrong here, in one sentence.
    pub message: String,
    /// The module directory it concerns, when it concerns one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// Extra lines (e.g. the source × directory × ref matrix).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub detail: Vec<String>,
}

impl Finding {
    /// A finding with the rule's default severity (tuning is applied later).
    pub fn new(rule: &str, file: &str, line: usize, message: impl Into<String>) -> Finding {
        Finding {
            file: file.to_string(),
            line,
            rule: rule.to_string(),
            severity: crate::catalog::rule(rule)
                .map(|r| r.severity)
                .unwrap_or(Severity::Error),
            message: message.into(),
            dir: None,
            detail: Vec::new(),
        }
    }

    /// Sets the directory.
    pub fn in_dir(mut self, dir: &str) -> Finding {
        self.dir = Some(dir.to_string());
        self
    }

    /// Adds detail lines.
    pub fn with_detail(mut self, detail: Vec<String>) -> Finding {
        self.detail = detail;
        self
    }

    /// `file:line` (or `file` when the line is unknown).
    pub fn location(&self) -> String {
        if self.line > 0 {
            format!("{}:{}", self.file, self.line)
        } else {
            self.file.clone()
        }
    }
}

/// A finding hidden by a `ward:ignore` comment.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Suppressed {
    /// The finding.
    pub finding: Finding,
    /// The reason given.
    pub reason: String,
    /// The expiry, when given (`YYYY-MM-DD`, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// Where the comment is (`file:line`).
    pub at: String,
}

/// One row of the module source matrix: which directory uses which package at which ref.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct MatrixRow {
    /// The package (normalized git repository or registry address).
    pub package: String,
    /// The directory calling it.
    pub dir: String,
    /// Root or module.
    pub kind: String,
    /// The ref (git) or version (registry), `(none)` when missing.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Ref class: commit, tag, branch, none, unknown (git), or exact/range/none (registry).
    pub class: String,
    /// `file:line` of the source.
    pub at: String,
}

/// A directory with Terraform files, as the report accounts for it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct DirEntry {
    /// Repository-relative directory.
    pub dir: String,
    /// `root` or `module`.
    pub kind: String,
    /// Why.
    pub reasons: Vec<String>,
    /// Number of Terraform files read.
    pub files: usize,
}

/// Counts for the summary line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Directories with Terraform files.
    pub directories: usize,
    /// Of which roots.
    pub roots: usize,
    /// Of which modules.
    pub modules: usize,
    /// Terraform files parsed.
    pub files: usize,
    /// Findings at error severity.
    pub errors: usize,
    /// Findings at warning severity.
    pub warnings: usize,
    /// Findings at info severity.
    pub infos: usize,
    /// Findings suppressed inline.
    pub suppressed: usize,
    /// The failing severity.
    pub fail_on: Severity,
    /// Whether the run fails.
    pub failed: bool,
}

/// Everything ward check concluded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The repository path as given.
    pub repository: String,
    /// `ward.hcl`, when one was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    /// Counts.
    pub summary: Summary,
    /// Findings, sorted by file, line, rule.
    pub findings: Vec<Finding>,
    /// Suppressed findings with their reasons.
    pub suppressed: Vec<Suppressed>,
    /// Every directory with Terraform files.
    pub directories: Vec<DirEntry>,
    /// Every non-local module source use.
    pub matrix: Vec<MatrixRow>,
    /// Rules turned off in `ward.hcl`.
    pub disabled_rules: Vec<String>,
}
