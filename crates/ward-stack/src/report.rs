//! `ward stack`'s typed report: what each command did, root instance by root instance. Built
//! here (the stack decides), rendered by `ward_report::stack` (terminal, JSON, Markdown), and
//! journaled as it is (a [`RootReport`] per step, [`crate::journal::StepRecord`]).
//!
//! It holds no secret: upstream outputs and states appear only as their `sha256:` digests,
//! backups by path and digest.

use serde::{Deserialize, Serialize};
use ward_model::Exit;

/// Which `ward stack` command made the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Command {
    /// `ward stack plan`.
    Plan,
    /// `ward stack apply`.
    Apply,
    /// `ward stack teardown`.
    Teardown,
    /// `ward stack status`: the last run, as journaled.
    Status,
}

impl Command {
    /// `plan`, `apply`, `teardown`, `status`.
    pub fn as_str(self) -> &'static str {
        match self {
            Command::Plan => "plan",
            Command::Apply => "apply",
            Command::Teardown => "teardown",
            Command::Status => "status",
        }
    }
}

/// What happened to one root instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RootOutcome {
    /// `plan`: no changes.
    NoChanges,
    /// `plan`: changes to apply.
    Changes,
    /// `plan`: not planned, because a root it reads has changes not yet applied.
    BlockedByUpstream,
    /// `apply`: the saved plan was applied, and a second plan shows no changes.
    Applied,
    /// `apply`: nothing to apply; the plan shows no changes.
    Unchanged,
    /// `resume`: finished in the run being resumed, and checked again.
    Verified,
    /// `teardown`: backed up, destroyed, and its state is empty.
    Destroyed,
    /// `teardown`: its state was already empty.
    AlreadyEmpty,
    /// Stopped: a change needs an approval it does not have.
    ApprovalRequired,
    /// Stopped: the gate refused otherwise (budget, coverage, guard).
    GateRefused,
    /// Stopped: a `pre_destroy` command refused.
    PreDestroyRefused,
    /// Refused before anything was changed.
    Refused,
    /// Stopped: a step failed.
    Failed,
    /// Not reached: the run stopped earlier.
    NotReached,
    /// The run reached this root and had not finished it: recorded before its step, replaced by
    /// its outcome; left behind when the run was killed there (its state may be half changed).
    InProgress,
}

impl RootOutcome {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            RootOutcome::NoChanges => "no-changes",
            RootOutcome::Changes => "changes",
            RootOutcome::BlockedByUpstream => "blocked-by-upstream",
            RootOutcome::Applied => "applied",
            RootOutcome::Unchanged => "unchanged",
            RootOutcome::Verified => "verified",
            RootOutcome::Destroyed => "destroyed",
            RootOutcome::AlreadyEmpty => "already-empty",
            RootOutcome::ApprovalRequired => "approval-required",
            RootOutcome::GateRefused => "gate-refused",
            RootOutcome::PreDestroyRefused => "pre-destroy-refused",
            RootOutcome::Refused => "refused",
            RootOutcome::Failed => "failed",
            RootOutcome::NotReached => "not-reached",
            RootOutcome::InProgress => "in-progress",
        }
    }

    /// True when the root's step finished (a resume re-verifies it instead of redoing it).
    pub fn finished(self) -> bool {
        matches!(
            self,
            RootOutcome::Applied
                | RootOutcome::Unchanged
                | RootOutcome::Verified
                | RootOutcome::Destroyed
                | RootOutcome::AlreadyEmpty
        )
    }
}

/// How many changes of each kind a plan holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    /// Creates.
    pub create: usize,
    /// In-place updates.
    pub update: usize,
    /// Replacements (either order).
    pub replace: usize,
    /// Deletes.
    pub delete: usize,
}

impl Changes {
    /// `+1 ~0 ±1 -0`.
    pub fn describe(&self) -> String {
        format!(
            "{} to create, {} to update, {} to replace, {} to destroy",
            self.create, self.update, self.replace, self.delete
        )
    }
}

/// A state's lineage and serial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateMark {
    /// `serial`.
    pub serial: i64,
    /// `lineage`.
    pub lineage: String,
    /// Resources in the state.
    pub resources: usize,
}

/// A state backup taken before a destroy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backup {
    /// Where it was written.
    pub path: String,
    /// `sha256:` of the bytes, equal to `state pull`'s (re-read and compared).
    pub sha256: String,
    /// The state's serial.
    pub serial: i64,
    /// The state's lineage.
    pub lineage: String,
}

/// A change that waits for its approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingApproval {
    /// Resource address.
    pub address: String,
    /// Terraform's action, e.g. `delete`.
    pub action: String,
    /// Impact class.
    pub impact: String,
    /// The approval digest (bound to the upstream outputs' hash).
    pub digest: String,
    /// `missing`, `stale`, `expired`...
    pub status: String,
    /// The command that approves it.
    pub command: String,
}

/// One root at one site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootReport {
    /// The root's name in `ward.hcl`.
    pub root: String,
    /// The site (`default` for a root without `site` blocks).
    pub site: String,
    /// Its layer.
    pub layer: String,
    /// The layer's level.
    pub level: i64,
    /// Its directory, relative to the repository.
    pub path: String,
    /// What happened.
    pub outcome: RootOutcome,
    /// Why, and what to do (one sentence each).
    #[serde(default)]
    pub detail: Vec<String>,
    /// The binary that ran it (`terraform 1.15.5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
    /// What its plan holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    /// `sha256:` of the upstream outputs it was planned against (bound into its gate digests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream_sha256: Option<String>,
    /// `sha256:` of its `output -json` after the step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs_sha256: Option<String>,
    /// Its state after the step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateMark>,
    /// The backup taken before its destroy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<Backup>,
    /// Changes waiting for approval.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approvals: Vec<PendingApproval>,
}

impl RootReport {
    /// `root/site`.
    pub fn id(&self) -> String {
        format!("{}/{}", self.root, self.site)
    }
}

/// A whole `ward stack` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StackReport {
    /// The command.
    pub command: Command,
    /// The run's id in the history (`None` for `plan`, which records nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// The run this one resumed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed: Option<String>,
    /// `--site`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// `--root`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only_root: Option<String>,
    /// Every root instance, in the order the command visits them.
    pub roots: Vec<RootReport>,
    /// How the run ended.
    pub exit: Exit,
    /// Its process exit code.
    #[serde(serialize_with = "ward_model::exit::serialize_code")]
    pub exit_code: Exit,
    /// Why it stopped, and what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The command that continues it, when it stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume: Option<String>,
}
