//! The gate's audit trail: every approval given (`ward approve`, `ward stack approve`) and every
//! gate decision (`ward gate` with a history configured, each gate of `ward stack`), as typed
//! rows of their own tables (`approvals`, `gate_outcomes`, schema version 4).
//!
//! The approvals file (`.ward/approvals.json`) stays what the gate reads in a checkout; these
//! rows are the history beside it, which the dashboard's Approvals page and `ward report --html`
//! show. Rows are appended, never updated. Nothing secret is kept: no signature or key, no
//! attribute value (an approval is its address, action, impact and digest).

use crate::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// Which command recorded an approval or a gate outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuditSource {
    /// `ward gate` / `ward approve`.
    Gate,
    /// `ward stack` (its gates) / `ward stack approve`.
    Stack,
}

impl AuditSource {
    /// Its name as stored: `gate`, `stack`.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditSource::Gate => "gate",
            AuditSource::Stack => "stack",
        }
    }

    /// The source a stored name means.
    pub(crate) fn parse(s: &str) -> Result<AuditSource, StoreError> {
        match s {
            "gate" => Ok(AuditSource::Gate),
            "stack" => Ok(AuditSource::Stack),
            other => Err(StoreError::Record(format!(
                "an audit row has source `{other}`, which this ward does not write (gate, stack)"
            ))),
        }
    }
}

/// One approval as given: what the history keeps of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRecord {
    /// Which command gave it.
    pub source: AuditSource,
    /// The root, as the gate names it (its name in `ward.hcl`, else its path); empty when the
    /// gate knew no root.
    pub root: String,
    /// The stack site, for `ward stack approve`.
    pub site: Option<String>,
    /// The resource instance address.
    pub address: String,
    /// The deposed key, for a deposed object.
    pub deposed: Option<String>,
    /// The action, as the gate's JSON report spells it (`delete`, `replace-delete-first`...).
    pub action: String,
    /// The impact class (`data-loss`, `replace`...).
    pub impact: String,
    /// The digest the approval is bound to (`sha256:...`).
    pub digest: String,
    /// Who approved.
    pub by: String,
    /// Why (the approver's words).
    pub reason: String,
    /// When (UTC, RFC 3339).
    pub approved_at: String,
    /// When it stops counting (UTC, RFC 3339); `None`: never.
    pub expires_at: Option<String>,
    /// Signed with `WARD_APPROVAL_KEY` (the signature itself is not kept).
    pub signed: bool,
    /// The plan JSON it was given against, as named.
    pub plan: String,
    /// The stack run that waited for it.
    pub run: Option<String>,
}

/// A stored approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApprovalRow {
    /// Its id: increasing in the order rows were appended.
    pub id: i64,
    /// The approval.
    #[serde(flatten)]
    pub approval: ApprovalRecord,
}

/// One change a gate decision looked at: a change that needed an approval, and whether it had
/// one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateChange {
    /// The resource instance address.
    pub address: String,
    /// The deposed key.
    pub deposed: Option<String>,
    /// The action (the gate's JSON spelling).
    pub action: String,
    /// The impact class.
    pub impact: String,
    /// The change's approval digest.
    pub digest: String,
    /// The approval's state: `approved`, `missing`, `stale`, `expired`, `refused`.
    pub status: String,
    /// Who approved it (or the earlier change an approval names), when one does.
    pub by: Option<String>,
    /// When the approval that counted expires.
    pub expires_at: Option<String>,
    /// The pull-request review that approved it, when one did (`ward gate --approvals-from`).
    /// Absent in rows written before #37.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<GateReview>,
}

/// The pull-request review(s) that approved a gated change: where they were read and the commit
/// they approved (the head the gate saw); the reviewers are the change's `by`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateReview {
    /// The pull or merge request (`github:OWNER/REPO#N`, `gitlab:GROUP/PROJECT!IID`).
    pub source: String,
    /// The commit the reviews approved.
    pub commit: String,
    /// When the latest review that counted was given (RFC 3339).
    pub approved_at: String,
}

/// One gate decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateOutcomeRecord {
    /// Which command gated.
    pub source: AuditSource,
    /// The root, as the gate names it; empty when it knew none.
    pub root: String,
    /// The stack site.
    pub site: Option<String>,
    /// The plan JSON, as named.
    pub plan: String,
    /// The outcome: `pass`, `approval-required`, `budget-exceeded`, `coverage-failure`,
    /// `guard-refused`, `error`.
    pub outcome: String,
    /// The exit code that outcome ends with.
    pub exit_code: i64,
    /// When it was decided (UTC, RFC 3339).
    pub decided_at: String,
    /// Why it was blocked, one plain line each; empty on a pass.
    pub reasons: Vec<String>,
    /// The changes that needed an approval, sorted by address.
    pub changes: Vec<GateChange>,
    /// The stack run it belongs to.
    pub run: Option<String>,
}

/// A stored gate decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateOutcomeRow {
    /// Its id: increasing in the order rows were appended.
    pub id: i64,
    /// The decision.
    #[serde(flatten)]
    pub outcome: GateOutcomeRecord,
}

/// Which approvals or gate outcomes to read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuditQuery<'a> {
    /// Only rows about this root.
    pub root: Option<&'a str>,
    /// At most this many, newest first; 0 means no limit.
    pub limit: usize,
}

/// The audit tables (schema 4), written once for both backends in PostgreSQL's types; SQLite
/// takes them through [`sqlite_ddl`].
pub(crate) const AUDIT_TABLES: &str = "
CREATE TABLE IF NOT EXISTS approvals(
    id BIGSERIAL PRIMARY KEY,
    source TEXT NOT NULL,
    root TEXT NOT NULL,
    site TEXT,
    address TEXT NOT NULL,
    deposed TEXT,
    action TEXT NOT NULL,
    impact TEXT NOT NULL,
    digest TEXT NOT NULL,
    approved_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    approved_at TEXT NOT NULL,
    expires_at TEXT,
    signed BOOLEAN NOT NULL,
    plan TEXT NOT NULL,
    run TEXT
);
CREATE INDEX IF NOT EXISTS approvals_by_root ON approvals(root, id);
CREATE TABLE IF NOT EXISTS gate_outcomes(
    id BIGSERIAL PRIMARY KEY,
    source TEXT NOT NULL,
    root TEXT NOT NULL,
    site TEXT,
    plan TEXT NOT NULL,
    outcome TEXT NOT NULL,
    exit_code BIGINT NOT NULL,
    decided_at TEXT NOT NULL,
    reasons TEXT NOT NULL,
    changes TEXT NOT NULL,
    run TEXT
);
CREATE INDEX IF NOT EXISTS gate_outcomes_by_root ON gate_outcomes(root, id);
";

/// PostgreSQL DDL as SQLite takes it: an id column is SQLite's rowid (`BIGINT` and `BOOLEAN`
/// are integer types to SQLite already).
pub(crate) fn sqlite_ddl(ddl: &str) -> String {
    ddl.replace("BIGSERIAL PRIMARY KEY", "INTEGER PRIMARY KEY AUTOINCREMENT")
}

/// Refuses an approval the history could not be trusted with: no address, digest, approver or
/// time.
fn check_approval(a: &ApprovalRecord) -> Result<(), StoreError> {
    for (what, v) in [
        ("address", &a.address),
        ("digest", &a.digest),
        ("approver (by)", &a.by),
        ("approval time", &a.approved_at),
    ] {
        if v.trim().is_empty() {
            return Err(StoreError::Record(format!(
                "an approval with no {what} cannot be recorded"
            )));
        }
    }
    Ok(())
}

/// A gate outcome's two list columns as stored (JSON text), after checking what makes it one.
pub(crate) fn gate_columns(g: &GateOutcomeRecord) -> Result<(String, String), StoreError> {
    if g.outcome.trim().is_empty() || g.decided_at.trim().is_empty() {
        return Err(StoreError::Record(
            "a gate outcome with no outcome or time cannot be recorded".into(),
        ));
    }
    let enc = |e: serde_json::Error| StoreError::Record(format!("a gate outcome: {e}"));
    Ok((
        serde_json::to_string(&g.reasons).map_err(enc)?,
        serde_json::to_string(&g.changes).map_err(enc)?,
    ))
}

/// A gate outcome's list columns read back.
pub(crate) fn gate_lists(
    id: i64,
    reasons: &str,
    changes: &str,
) -> Result<(Vec<String>, Vec<GateChange>), StoreError> {
    let bad = |e: serde_json::Error| {
        StoreError::Record(format!("gate outcome {id} cannot be read back: {e}"))
    };
    Ok((
        serde_json::from_str(reasons).map_err(bad)?,
        serde_json::from_str(changes).map_err(bad)?,
    ))
}

impl Store {
    /// Records approvals as given, in one transaction (all land, or none does); returns their
    /// ids in order.
    pub fn record_approvals(&mut self, a: &[ApprovalRecord]) -> Result<Vec<i64>, StoreError> {
        for x in a {
            check_approval(x)?;
        }
        self.backend.append_approvals(a)
    }

    /// Records one gate decision; returns its id.
    pub fn record_gate_outcome(&mut self, g: &GateOutcomeRecord) -> Result<i64, StoreError> {
        let (reasons, changes) = gate_columns(g)?;
        self.backend.append_gate_outcome(g, &reasons, &changes)
    }

    /// The approvals that match `q`, newest first.
    pub fn approvals(&self, q: &AuditQuery<'_>) -> Result<Vec<ApprovalRow>, StoreError> {
        self.backend.approvals(q)
    }

    /// The gate decisions that match `q`, newest first.
    pub fn gate_outcomes(&self, q: &AuditQuery<'_>) -> Result<Vec<GateOutcomeRow>, StoreError> {
        self.backend.gate_outcomes(q)
    }
}
