//! The gate's audit trail in the history: each approval as it is given and each decision as it
//! is made, as `ward_store` rows ([`ward_store::ApprovalRecord`], [`ward_store::GateOutcomeRecord`]).
//!
//! The approvals file stays what the gate reads; these rows are the record beside it, written
//! only when the caller says where ([`Audit`]: `ward gate --db`, `history { url }` in `ward.hcl`,
//! every gate of `ward stack`). A history that cannot be written is an error: a configured audit
//! trail with a hole in it would be worse than none. Nothing secret is written: no signature,
//! key or attribute value.

use crate::error::GateError;
use crate::record::ReviewBinding;
use crate::{ApprovalStatus, GateReport, Required};
use ward_model::{Action, Exit};
use ward_store::{
    ApprovalRecord, AuditSource, GateChange, GateOutcomeRecord, GateReview, Location, Store,
};

/// Where and as what the gate records its decisions and the approvals it is given.
#[derive(Debug, Clone)]
pub struct Audit {
    /// The history to write to.
    pub history: Location,
    /// Which command records.
    pub source: AuditSource,
    /// The root as recorded; `None`: as the gate names it (the root's name in `ward.hcl`, else
    /// its path; empty when the gate knows no root).
    pub root: Option<String>,
    /// The stack site.
    pub site: Option<String>,
    /// The stack run.
    pub run: Option<String>,
}

/// An action's name as the gate's JSON report spells it (`delete`, `replace-delete-first`...).
pub fn action_name(a: Action) -> String {
    serde_json::to_value(a)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| a.as_terraform().to_string())
}

/// Why a report blocks other than approvals, one plain line each: the plan's errors, the
/// guards that refused, the unclassified types that block, the budgets exceeded.
pub fn problems(rep: &GateReport) -> Vec<String> {
    let mut out: Vec<String> = rep.errors.clone();
    for g in rep.guards.iter().filter(|g| g.status.blocks()) {
        out.push(format!(
            "guard {} on {}: {}",
            g.guard,
            g.address,
            g.status.name()
        ));
    }
    for t in &rep.coverage_blocking {
        out.push(format!(
            "unclassified resource type {t}: add a rule for it (ward docs rules)"
        ));
    }
    for b in rep.budgets.iter().filter(|b| b.exceeded) {
        out.push(format!(
            "budget exceeded: {} {} > {}",
            b.count, b.kind, b.limit
        ));
    }
    out
}

/// The approver and expiry an approval status names, when it names one.
fn who(s: &ApprovalStatus) -> (Option<String>, Option<String>) {
    match s {
        ApprovalStatus::Approved { by, expires_at, .. } => (Some(by.clone()), expires_at.clone()),
        ApprovalStatus::Stale { by, .. }
        | ApprovalStatus::Expired { by, .. }
        | ApprovalStatus::Refused { by, .. } => (Some(by.clone()), None),
        ApprovalStatus::Missing | ApprovalStatus::Awaiting { .. } => (None, None),
    }
}

/// The review that approved `r`, when `bound` (the review approvals the gate used) holds one for
/// exactly this change: same address, deposed key and digest, approved at the gate.
fn review(r: &Required, bound: Option<&ReviewBinding>) -> Option<GateReview> {
    let b = bound?;
    if !r.approval.is_approved() {
        return None;
    }
    let c = b.changes.iter().find(|c| {
        c.address == r.address
            && c.deposed == r.deposed
            && c.digest == r.digest
            && !c.approved_by.is_empty()
    })?;
    Some(GateReview {
        source: b.source.clone(),
        commit: b.head.clone(),
        approved_at: c.approved_at.clone(),
    })
}

fn change(r: &Required, bound: Option<&ReviewBinding>) -> GateChange {
    let (by, expires_at) = who(&r.approval);
    GateChange {
        review: review(r, bound),
        address: r.address.clone(),
        deposed: r.deposed.clone(),
        action: action_name(r.action),
        impact: r.impact.as_str().to_string(),
        digest: r.digest.clone(),
        status: r.approval.name().to_string(),
        by,
        expires_at,
    }
}

/// The history row of one gate decision. `root` names the root when `a.root` does not; `bound`
/// is the review approvals the gate used (`ward gate --approvals-from`), so each change a review
/// approved keeps the pull request and the commit it was approved at.
pub fn gate_record(
    rep: &GateReport,
    exit: Exit,
    a: &Audit,
    root: &str,
    bound: Option<&ReviewBinding>,
) -> GateOutcomeRecord {
    let mut reasons = problems(rep);
    for r in rep.required.iter().filter(|r| !r.approval.is_approved()) {
        reasons.push(format!(
            "{}{} ({}, {}): approval {}",
            r.address,
            r.deposed
                .as_deref()
                .map(|d| format!(" deposed {d}"))
                .unwrap_or_default(),
            action_name(r.action),
            r.impact,
            r.approval.name()
        ));
    }
    GateOutcomeRecord {
        source: a.source,
        root: a.root.clone().unwrap_or_else(|| root.to_string()),
        site: a.site.clone(),
        plan: rep.plan.clone(),
        outcome: outcome_name(rep.outcome),
        exit_code: i64::from(exit.code()),
        decided_at: rep.now.clone(),
        reasons,
        changes: rep.required.iter().map(|r| change(r, bound)).collect(),
        run: a.run.clone(),
    }
}

/// An outcome's name as the gate's JSON report spells it (`pass`, `approval-required`...).
fn outcome_name(o: crate::Outcome) -> String {
    serde_json::to_value(o)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{o:?}"))
}

fn open(a: &Audit) -> Result<Store, GateError> {
    Store::open_location(&a.history)
        .map_err(|e| GateError::Usage(format!("cannot record in the history {}: {e}", a.history)))
}

/// Writes one gate decision to the history.
pub(crate) fn record_gate(a: &Audit, row: &GateOutcomeRecord) -> Result<(), GateError> {
    open(a)?.record_gate_outcome(row).map(|_| ()).map_err(|e| {
        GateError::Usage(format!(
            "cannot record the gate's decision in the history {}: {e}",
            a.history
        ))
    })
}

/// Writes approvals as given to the history, all or none.
pub(crate) fn record_approvals(a: &Audit, rows: &[ApprovalRecord]) -> Result<(), GateError> {
    if rows.is_empty() {
        return Ok(());
    }
    let written = |e: ward_store::StoreError| {
        GateError::Usage(format!(
            "the approvals file was written, but the history {} could not record the approval: {e}; approve again once it is reachable",
            a.history
        ))
    };
    Store::open_location(&a.history)
        .map_err(written)?
        .record_approvals(rows)
        .map(|_| ())
        .map_err(written)
}
