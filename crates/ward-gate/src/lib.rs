//! ward's apply gate: nothing dangerous is applied until someone approved that exact change.
//!
//! ```text
//! Assessment (ward-classify) ──▶ policy (which changes need approval), budgets, protection
//!                              ──▶ approvals (bound to a per-change digest) ──▶ guards ──▶ GateReport
//! ```
//!
//! - [`policy`]: the `policy { }` and `guard "name" { }` blocks of `ward.hcl`;
//! - [`digest`]: what an approval is bound to;
//! - [`approvals`]: the approvals file, signing;
//! - [`audit`]: approvals and decisions recorded in the history (the audit trail);
//! - [`protect`]: `prevent_destroy` in code, config patterns, and the protection record;
//! - [`guard`]: liveness guards;
//! - [`record`] and [`verify`]: what was gated, and checking a saved plan against it;
//! - rendering is `ward_report::gate`'s (terminal, Markdown, JSON): this crate returns typed
//!   reports;
//! - [`run`]: the pipelines behind `ward gate`, `ward approve` and `ward verify` (options in,
//!   typed result and [`Exit`] out; the entry point for another crate that gates a plan).
//! - [`adoption`]: a root being adopted with `ward import` takes only imports until accepted;
//!
//! Exit codes (see `docs/gate.md` and `docs/exit-codes.md`): 0 pass, 2 error, 3 coverage
//! failure, 4 approval required, 5 budget exceeded, 6 a guard refused.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod adoption;
pub mod approvals;
pub mod audit;
pub mod digest;
pub mod error;
pub mod guard;
pub mod policy;
pub mod protect;
pub mod record;
pub mod review;
pub mod run;
pub mod verify;
pub mod verify_reviews;

#[cfg(any(test, feature = "testkit"))]
pub mod testkit;
#[cfg(test)]
mod tests;

pub use error::GateError;

use approvals::{Approval, ApprovalsFile, SignatureState};
use digest::{deciding, digest_material, material_in, ChangeMaterial};
use guard::GuardRun;
use policy::{Guard, Policy};
use protect::{ProtectedBy, Protection};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use ward_classify::{Assessment, Verdict};
use ward_model::{Action, Exit, Impact, Mode};
use ward_time::Timestamp;

/// The gate's conclusion, most severe first when several apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The plan itself cannot be gated (it is errored: planning failed part-way). Exit 2.
    Error,
    /// A managed resource type is unclassified. Exit 3.
    CoverageFailure,
    /// A budget is exceeded. No approval lifts a budget. Exit 5.
    BudgetExceeded,
    /// At least one change needs an approval it does not have. Exit 4.
    ApprovalRequired,
    /// A liveness guard failed, timed out or could not start. Exit 6.
    GuardRefused,
    /// Everything is approved, within budget, and every guard passed. Exit 0.
    Pass,
}

impl Outcome {
    /// The exit this outcome ends the process with.
    pub fn exit(self) -> Exit {
        match self {
            Outcome::Pass => Exit::Pass,
            Outcome::Error => Exit::Usage,
            Outcome::CoverageFailure => Exit::Coverage,
            Outcome::ApprovalRequired => Exit::ApprovalRequired,
            Outcome::BudgetExceeded => Exit::BudgetExceeded,
            Outcome::GuardRefused => Exit::GuardRefused,
        }
    }

    /// A short phrase for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Error => "error: this plan cannot be gated",
            Outcome::CoverageFailure => "blocked: coverage failure (unclassified resource types)",
            Outcome::BudgetExceeded => "blocked: budget exceeded",
            Outcome::ApprovalRequired => "blocked: approval required",
            Outcome::GuardRefused => "blocked: a liveness guard refused",
        }
    }
}

/// Why a change needs an approval.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "because", rename_all = "kebab-case")]
pub enum Because {
    /// Its impact class is listed in `policy.approve`.
    Class {
        /// The class.
        impact: Impact,
    },
    /// It destroys or replaces an object that holds data.
    DestroysData,
    /// It destroys or replaces a protected address.
    Protected {
        /// What protects it.
        by: ProtectedBy,
    },
    /// It destroys an object of a type no rule classifies (the coverage gate was relaxed).
    Unclassified,
    /// It creates, updates or replaces an object of a type that overwrites state outside this
    /// root (`policy.approve_overwrites`).
    Overwrites,
}

impl Because {
    /// Plain words.
    pub fn describe(&self) -> String {
        match self {
            Because::Class { impact } => format!("impact class {impact} needs approval"),
            Because::DestroysData => "destroys an object that holds data".into(),
            Because::Protected { by } => match by {
                ProtectedBy::Config { pattern } => {
                    format!("protected by `{pattern}` in ward.hcl")
                }
                ProtectedBy::PreventDestroy { file } => {
                    format!("protected by prevent_destroy in {file}")
                }
                ProtectedBy::Record { file } => format!(
                    "protected: prevent_destroy was removed from {file}, ward still protects it"
                ),
            },
            Because::Unclassified => "destroys an object of an unclassified type".into(),
            Because::Overwrites => {
                "overwrites state that exists outside this root (an authoritative or adopting type)"
                    .into()
            }
        }
    }
}

/// The state of the approval for one change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum ApprovalStatus {
    /// Approved, for exactly this change.
    Approved {
        /// Who.
        by: String,
        /// Why.
        reason: String,
        /// When.
        approved_at: String,
        /// Until when.
        #[serde(skip_serializing_if = "Option::is_none")]
        expires_at: Option<String>,
        /// The signature was checked and holds.
        signed: bool,
    },
    /// No approval names this address.
    Missing,
    /// An approval names this address, but for a different change.
    Stale {
        /// Who approved the earlier change.
        by: String,
        /// When.
        approved_at: String,
        /// What differs, in plain lines.
        differences: Vec<String>,
    },
    /// An approval for exactly this change has expired.
    Expired {
        /// Who approved it.
        by: String,
        /// When it expired.
        expired_at: String,
    },
    /// An approval for exactly this change is refused: bad or missing signature, or a digest
    /// that does not match the recorded change (hand-edited).
    Refused {
        /// Who it claims approved it.
        by: String,
        /// Why it is refused.
        why: String,
    },
    /// Approvals come from pull-request reviews ([`review`]) and the ones that count do not
    /// meet what `ward.hcl`'s `reviewers` block requires.
    #[serde(rename = "awaiting-review")]
    Awaiting {
        /// Each requirement not met: how many approving reviews from whom, and who approved.
        needs: Vec<String>,
        /// Reviews that do not count for this change, and why (a push since, the author's own,
        /// expired, another digest).
        not_counted: Vec<String>,
    },
}

impl ApprovalStatus {
    /// True when the change is approved.
    pub fn is_approved(&self) -> bool {
        matches!(self, ApprovalStatus::Approved { .. })
    }

    /// Its name, as the JSON report's `status` spells it: `approved`, `missing`, `stale`,
    /// `expired`, `refused`.
    pub fn name(&self) -> &'static str {
        match self {
            ApprovalStatus::Approved { .. } => "approved",
            ApprovalStatus::Missing => "missing",
            ApprovalStatus::Stale { .. } => "stale",
            ApprovalStatus::Expired { .. } => "expired",
            ApprovalStatus::Refused { .. } => "refused",
            ApprovalStatus::Awaiting { .. } => "awaiting-review",
        }
    }
}

/// One change that needs an approval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Required {
    /// Address.
    pub address: String,
    /// Deposed key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Action.
    pub action: Action,
    /// Impact class.
    pub impact: Impact,
    /// Why it needs an approval.
    pub because: Vec<Because>,
    /// The approval digest.
    pub digest: String,
    /// What the digest covers.
    pub change: ChangeMaterial,
    /// The approval's state.
    pub approval: ApprovalStatus,
    /// The command that approves it.
    pub approve_command: String,
}

/// One budget checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BudgetCheck {
    /// The resource type, or `None` for the whole plan.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    /// `replaces` or `deletes`.
    pub kind: &'static str,
    /// The limit.
    pub limit: u64,
    /// How many the plan has.
    pub count: u64,
    /// Which addresses count.
    pub addresses: Vec<String>,
    /// `count > limit`.
    pub exceeded: bool,
}

/// An approval that no change in this plan uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnusedApproval {
    /// Address.
    pub address: String,
    /// Deposed key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// Who approved.
    pub by: String,
    /// When.
    pub approved_at: String,
    /// Why it is unused.
    pub why: String,
}

/// A guard that would run once everything else passes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PendingGuard {
    /// Guard name.
    pub guard: String,
    /// Address.
    pub address: String,
    /// Deposed key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
}

/// Everything the gate concluded about one plan. Deterministic for the same inputs and clock
/// (guard durations are kept out of the text and Markdown renderings).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateReport {
    /// The outcome.
    pub outcome: Outcome,
    /// The plan, as given.
    pub plan: String,
    /// The approvals file read.
    pub approvals_file: String,
    /// The gate's clock, UTC.
    pub now: String,
    /// Every change that needs an approval, sorted by address and deposed key.
    pub required: Vec<Required>,
    /// Budgets with a limit.
    pub budgets: Vec<BudgetCheck>,
    /// Guard runs.
    pub guards: Vec<GuardRun>,
    /// Guards not run because the gate was already blocked.
    pub guards_pending: Vec<PendingGuard>,
    /// Unclassified managed types (coverage), with where each was seen.
    pub unclassified: BTreeMap<String, Vec<String>>,
    /// The unclassified types a change of this plan touches: these block (types seen only in
    /// configuration or state are listed in `unclassified` but do not).
    pub coverage_blocking: Vec<String>,
    /// The coverage gate was relaxed.
    pub coverage_relaxed: bool,
    /// Approvals in the file that this plan does not use (stale ones are shown with their change).
    pub unused_approvals: Vec<UnusedApproval>,
    /// Things a reviewer must know that do not block.
    pub warnings: Vec<String>,
    /// Why the plan cannot be gated, when the outcome is an error.
    pub errors: Vec<String>,
}

/// An address and deposed key: what identifies one change in a plan.
type ChangeKey = (String, Option<String>);

/// Inputs to [`evaluate`] besides the plan's assessment.
#[derive(Debug, Clone)]
pub struct GateContext<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// Protection from config, code and record, built with [`Protection::combine`] (the gate
    /// reads protection only from here, not from `policy.protect`).
    pub protection: &'a Protection,
    /// The approvals.
    pub approvals: &'a ApprovalsFile,
    /// The approvals file's name, for reports.
    pub approvals_path: String,
    /// The signing key (`WARD_APPROVAL_KEY`), when set.
    pub key: Option<&'a [u8]>,
    /// The clock.
    pub now: Timestamp,
    /// The plan as the user named it (for reports and approve commands).
    pub plan_name: String,
    /// Extra arguments the approve command needs (e.g. `--config ward.hcl`).
    pub approve_extra: Vec<String>,
    /// Bound into every approval digest ([`digest::ChangeMaterial::context`]); `None` for
    /// `ward gate` itself.
    pub context: Option<String>,
}

/// Why a verdict needs approval under the policy (empty: it does not).
pub fn needs_approval(v: &Verdict, policy: &Policy, protection: &Protection) -> Vec<Because> {
    if v.mode != Mode::Managed || v.action.is_inert() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if v.classified && policy.approve.contains(&v.impact) {
        out.push(Because::Class { impact: v.impact });
    }
    if policy.approve_overwrites && v.overwrites.is_some() && v.action != Action::Delete {
        out.push(Because::Overwrites);
    }
    if v.action.destroys() {
        if policy.approve_destroy_of_data && v.holds_data {
            out.push(Because::DestroysData);
        }
        for by in protection.protects(&v.address) {
            out.push(Because::Protected { by });
        }
        if !v.classified {
            out.push(Because::Unclassified);
        }
    }
    out
}

/// Quotes a word for a shell when it needs it, with shlex: POSIX quoting that also keeps clear of
/// interactive shells' history expansion (`!`, `^`) and of Fish's backslash in single quotes.
pub fn shell_quote(s: &str) -> String {
    // With NUL bytes allowed (no argument can hold one, but the word is still shown), shlex's
    // only error cannot happen; the empty word stands in for it all the same.
    shlex::Quoter::new()
        .allow_nul(true)
        .quote(s)
        .map_or_else(|_| String::from("''"), std::borrow::Cow::into_owned)
}

fn approve_command(ctx: &GateContext<'_>, v: &Verdict) -> String {
    let mut parts = vec![
        "ward".to_string(),
        "approve".to_string(),
        shell_quote(&ctx.plan_name),
    ];
    parts.extend(ctx.approve_extra.iter().map(|s| shell_quote(s)));
    parts.push("--address".into());
    parts.push(shell_quote(&v.address));
    if let Some(d) = &v.deposed {
        parts.push("--deposed".into());
        parts.push(shell_quote(d));
    }
    parts.push("--reason".into());
    parts.push("'<why>'".into());
    parts.join(" ")
}

/// Compares an approved change with the current one, in plain lines.
pub fn differences(approved: &ChangeMaterial, now: &ChangeMaterial) -> Vec<String> {
    let mut out = Vec::new();
    if approved.action != now.action {
        out.push(format!(
            "action: approved {}, now {}",
            approved.action, now.action
        ));
    }
    if approved.impact != now.impact {
        out.push(format!(
            "impact: approved {}, now {}",
            approved.impact, now.impact
        ));
    }
    if approved.type_name != now.type_name {
        out.push(format!(
            "type: approved {}, now {}",
            approved.type_name, now.type_name
        ));
    }
    if approved.object != now.object {
        let show = |o: &Option<String>| o.clone().unwrap_or_else(|| "(not identified)".into());
        out.push(format!(
            "object destroyed: approved {}, now {}",
            show(&approved.object),
            show(&now.object)
        ));
    }
    if approved.context != now.context {
        out.push(format!(
            "context: approved under {}, now {} (ward stack: the upstream outputs this root reads changed)",
            approved.context.as_deref().unwrap_or("none"),
            now.context.as_deref().unwrap_or("none")
        ));
    }
    if approved.action_reason != now.action_reason {
        out.push(format!(
            "action reason: approved {}, now {}",
            approved.action_reason.as_deref().unwrap_or("none"),
            now.action_reason.as_deref().unwrap_or("none")
        ));
    }
    let a: BTreeMap<&str, _> = approved
        .attributes
        .iter()
        .map(|x| (x.path.as_str(), x))
        .collect();
    let b: BTreeMap<&str, _> = now
        .attributes
        .iter()
        .map(|x| (x.path.as_str(), x))
        .collect();
    for (p, x) in &a {
        match b.get(p) {
            Some(y) if y == x => {}
            Some(y) if y.before == x.before && y.after == x.after => {
                let what = if y.is_sensitive() {
                    "sensitive value"
                } else {
                    "value beyond the shown length"
                };
                if x.binding.is_none() {
                    out.push(format!(
                        "approved {} without WARD_APPROVAL_KEY, so the approval is not bound to its {what}; approve again",
                        x.describe()
                    ));
                } else if y.binding.is_none() {
                    out.push(format!(
                        "approved {} bound to its {what} with WARD_APPROVAL_KEY, which is not set now: set it to check the approval",
                        x.describe()
                    ));
                } else {
                    out.push(format!("approved {} ({what} changed)", x.describe()));
                }
            }
            Some(y) => out.push(format!("approved {}; now {}", x.describe(), y.describe())),
            None => out.push(format!("approved {}; now not changing", x.describe())),
        }
    }
    for (p, y) in &b {
        if !a.contains_key(p) {
            out.push(format!("not approved: {}", y.describe()));
        }
    }
    if out.is_empty() {
        out.push("the recorded digest differs from the change (the approval was edited)".into());
    }
    out
}

/// The state of the approval for `m` (digest `d`) among `candidates` (same address and deposed).
fn approval_status(
    m: &ChangeMaterial,
    d: &str,
    candidates: &[&Approval],
    ctx: &GateContext<'_>,
) -> (ApprovalStatus, Vec<usize>) {
    // Returns the status and the indices (into candidates) it accounts for.
    let mut refusal: Option<(ApprovalStatus, usize)> = None;
    for (i, a) in candidates.iter().enumerate().rev() {
        if a.digest != d {
            continue;
        }
        let refuse = |why: String| ApprovalStatus::Refused {
            by: a.by.clone(),
            why,
        };
        let status = if !a.digest_consistent() {
            refuse("its digest does not match the change it records: the approval was edited by hand; approve again".into())
        } else {
            match (a.signature_state(ctx.key), ctx.policy.require_signed_approvals) {
                (SignatureState::Invalid, _) => refuse(
                    "its signature does not match (edited after signing, or signed with another key); approve again".into(),
                ),
                (SignatureState::Unsigned, true) | (SignatureState::Unchecked, true) => refuse(
                    "policy requires signed approvals and this one is not signed (or WARD_APPROVAL_KEY is not set to check it)".into(),
                ),
                (state, _) => match a.expires() {
                    Err(e) => refuse(e),
                    Ok(Some(t)) if t <= ctx.now => ApprovalStatus::Expired {
                        by: a.by.clone(),
                        expired_at: t.to_string(),
                    },
                    Ok(_) => {
                        return (
                            ApprovalStatus::Approved {
                                by: a.by.clone(),
                                reason: a.reason.clone(),
                                approved_at: a.approved_at.clone(),
                                expires_at: a.expires_at.clone(),
                                signed: state == SignatureState::Valid,
                            },
                            (0..candidates.len()).collect(),
                        )
                    }
                },
            }
        };
        if refusal.is_none() {
            refusal = Some((status, i));
        }
    }
    if let Some((s, _)) = refusal {
        return (s, (0..candidates.len()).collect());
    }
    if let Some(a) = candidates.last() {
        return (
            ApprovalStatus::Stale {
                by: a.by.clone(),
                approved_at: a.approved_at.clone(),
                differences: differences(&a.change, m),
            },
            (0..candidates.len()).collect(),
        );
    }
    let _ = digest_material;
    (ApprovalStatus::Missing, Vec::new())
}

/// Applies policy, protection, budgets and approvals to an assessment. Guards are run
/// separately by [`run_guards`].
pub fn evaluate(assessment: &Assessment, ctx: &GateContext<'_>) -> GateReport {
    let mut report = GateReport {
        outcome: Outcome::Pass,
        plan: ctx.plan_name.clone(),
        approvals_file: ctx.approvals_path.clone(),
        now: ctx.now.to_string(),
        required: Vec::new(),
        budgets: Vec::new(),
        guards: Vec::new(),
        guards_pending: Vec::new(),
        unclassified: assessment.coverage.unclassified.clone(),
        coverage_blocking: assessment.coverage.blocking.clone(),
        coverage_relaxed: assessment.coverage.relaxed,
        unused_approvals: Vec::new(),
        warnings: Vec::new(),
        errors: Vec::new(),
    };
    plan_notes(assessment, &mut report);
    let mut verdicts: Vec<&Verdict> = assessment.verdicts.iter().collect();
    verdicts.sort_by(|a, b| (&a.address, &a.deposed).cmp(&(&b.address, &b.deposed)));
    let used = required(&verdicts, ctx, &mut report);
    unused_approvals(assessment, ctx, &used, &mut report);
    protection_notes(ctx, &mut report);
    report.budgets = budgets(assessment, ctx.policy);
    pending_guards(&verdicts, ctx, &mut report);
    report.outcome = decide(&report);
    report
}

/// An errored or incomplete plan.
fn plan_notes(assessment: &Assessment, report: &mut GateReport) {
    if assessment.plan.errored {
        report.errors.push(
            "the plan is errored: planning failed part-way, so it does not show everything apply would do; fix the errors and plan again".into(),
        );
    }
    if assessment.plan.complete == Some(false) {
        report.warnings.push(
            "the plan is incomplete (deferred changes): another plan/apply round will follow and needs its own gate".into(),
        );
    }
}

/// The changes that need approval, each with its digest and the approval that covers it (if
/// any), in address order; returns which approvals of the file were used.
fn required(verdicts: &[&Verdict], ctx: &GateContext<'_>, report: &mut GateReport) -> Vec<bool> {
    // Approvals by (address, deposed), in file order.
    let mut by_key: BTreeMap<ChangeKey, Vec<(usize, &Approval)>> = BTreeMap::new();
    for (i, a) in ctx.approvals.approvals.iter().enumerate() {
        by_key
            .entry((a.address.clone(), a.deposed.clone()))
            .or_default()
            .push((i, a));
    }
    let mut used = vec![false; ctx.approvals.approvals.len()];
    let mut unchecked_signatures = false;

    // Which changes need an approval, first: the report's entries are large (each with its
    // change's material, digest and approve command; 8,392 of them on the 500 MB bench plan),
    // and a vector grown by doubling would copy its last buffers at the end of the run, when
    // memory peaks (#35 item 2).
    let needing: Vec<(&Verdict, Vec<Because>)> = verdicts
        .iter()
        .filter_map(|v| {
            let because = needs_approval(v, ctx.policy, ctx.protection);
            (!because.is_empty()).then_some((*v, because))
        })
        .collect();
    report.required.reserve_exact(needing.len());
    for (v, because) in needing {
        let m = material_in(v, ctx.key, ctx.context.as_deref());
        let d = digest_material(&m);
        let cands: Vec<(usize, &Approval)> = by_key
            .get(&(v.address.clone(), v.deposed.clone()))
            .cloned()
            .unwrap_or_default();
        let only: Vec<&Approval> = cands.iter().map(|(_, a)| *a).collect();
        let (status, covered) = approval_status(&m, &d, &only, ctx);
        for c in covered {
            if let Some((i, a)) = cands.get(c) {
                used[*i] = true;
                if ctx.key.is_none() && a.signature.is_some() {
                    unchecked_signatures = true;
                }
            }
        }
        if ctx.key.is_none() {
            let hidden: Vec<String> = deciding(v)
                .filter(|a| a.change.hidden.is_some())
                .map(|a| a.change.path.to_string())
                .collect();
            if !hidden.is_empty() {
                report.warnings.push(format!(
                    "{}: deciding attribute(s) {} hide their values (sensitive or shortened), so a change of value alone would not void an approval: set WARD_APPROVAL_KEY to bind approvals to sensitive values",
                    v.address,
                    hidden.join(", ")
                ));
            }
        }
        report.required.push(Required {
            address: v.address.clone(),
            deposed: v.deposed.clone(),
            type_name: v.type_name.to_string(),
            action: v.action,
            impact: v.impact,
            because,
            digest: d,
            change: m,
            approval: status,
            approve_command: approve_command(ctx, v),
        });
    }
    if unchecked_signatures && !ctx.policy.require_signed_approvals {
        report
            .warnings
            .push("approval signatures were not checked: WARD_APPROVAL_KEY is not set".into());
    }
    used
}

/// Every approval not accounted for, with the reason it was not used.
fn unused_approvals(
    assessment: &Assessment,
    ctx: &GateContext<'_>,
    used: &[bool],
    report: &mut GateReport,
) {
    // Every approval not accounted for is reported.
    // The plan's change at each unused approval's address (the last one, for a key given
    // twice): only those addresses are looked up, so nothing is copied per change.
    let unused_at: std::collections::BTreeSet<&str> = ctx
        .approvals
        .approvals
        .iter()
        .zip(used)
        .filter(|(_, u)| !**u)
        .map(|(a, _)| a.address.as_str())
        .collect();
    let mut in_plan: BTreeMap<(&str, Option<&str>), &Verdict> = BTreeMap::new();
    if !unused_at.is_empty() {
        for v in &assessment.verdicts {
            if unused_at.contains(v.address.as_str()) {
                in_plan.insert((v.address.as_str(), v.deposed.as_deref()), v);
            }
        }
    }
    for (i, a) in ctx.approvals.approvals.iter().enumerate() {
        if used[i] {
            continue;
        }
        let why = match in_plan.get(&(a.address.as_str(), a.deposed.as_deref())) {
            None => "no change at this address in this plan".to_string(),
            Some(v) if !v.action.is_change() => {
                "this plan does not change this address".to_string()
            }
            Some(v) => format!(
                "the change here ({}, {}) does not need approval under the policy",
                v.action.as_terraform(),
                v.impact
            ),
        };
        let why = if ctx.key.is_some() && a.signature_state(ctx.key) == SignatureState::Invalid {
            format!("{why}; its signature does not match (edited after signing?)")
        } else {
            why
        };
        report.unused_approvals.push(UnusedApproval {
            address: a.address.clone(),
            deposed: a.deposed.clone(),
            by: a.by.clone(),
            approved_at: a.approved_at.clone(),
            why,
        });
    }
}

/// Protection removed from code, and a root that was not read.
fn protection_notes(ctx: &GateContext<'_>, report: &mut GateReport) {
    // Protection removed from code.
    for c in &ctx.protection.removed_from_code {
        report.warnings.push(format!(
            "prevent_destroy for {} was removed from the code (last seen in {}); ward still protects it. To drop the protection, remove it from the protection record.",
            c.address, c.file
        ));
    }
    if ctx.protection.root_read.is_none() {
        report.warnings.push(
            "no Terraform root was read (no .tf files here; pass --root DIR): prevent_destroy in code was not checked".into(),
        );
    }
}

/// The guards to run, per change they apply to.
fn pending_guards(verdicts: &[&Verdict], ctx: &GateContext<'_>, report: &mut GateReport) {
    // Guards to run.
    for v in verdicts {
        for g in &ctx.policy.guards {
            if guard::applies(g, v) {
                report.guards_pending.push(PendingGuard {
                    guard: g.name.clone(),
                    address: v.address.clone(),
                    deposed: v.deposed.clone(),
                });
            }
        }
    }
}

fn decide(r: &GateReport) -> Outcome {
    if !r.errors.is_empty() {
        Outcome::Error
    } else if !r.coverage_blocking.is_empty() && !r.coverage_relaxed {
        Outcome::CoverageFailure
    } else if r.budgets.iter().any(|b| b.exceeded) {
        Outcome::BudgetExceeded
    } else if r.required.iter().any(|x| !x.approval.is_approved()) {
        Outcome::ApprovalRequired
    } else if r.guards.iter().any(|g| g.status.blocks()) || !r.guards_pending.is_empty() {
        Outcome::GuardRefused
    } else {
        Outcome::Pass
    }
}

fn budgets(a: &Assessment, p: &Policy) -> Vec<BudgetCheck> {
    let count = |type_name: Option<&str>, pred: fn(Action) -> bool| -> Vec<String> {
        let mut v: Vec<String> = a
            .verdicts
            .iter()
            .filter(|v| v.mode == Mode::Managed && pred(v.action))
            .filter(|v| type_name.is_none_or(|t| t == &*v.type_name))
            .map(|v| match &v.deposed {
                Some(d) => format!("{} (deposed {d})", v.address),
                None => v.address.clone(),
            })
            .collect();
        v.sort();
        v
    };
    let is_replace: fn(Action) -> bool = Action::is_replace;
    let is_delete: fn(Action) -> bool = |x| x == Action::Delete;
    let mut out = Vec::new();
    let mut scopes: Vec<(Option<&str>, &policy::Budget)> = vec![(None, &p.budgets.all)];
    scopes.extend(
        p.budgets
            .per_type
            .iter()
            .map(|(t, b)| (Some(t.as_str()), b)),
    );
    for (t, b) in scopes {
        for (kind, limit, pred) in [
            ("replaces", b.max_replaces, is_replace),
            ("deletes", b.max_deletes, is_delete),
        ] {
            if let Some(limit) = limit {
                let addresses = count(t, pred);
                let n = addresses.len() as u64;
                out.push(BudgetCheck {
                    type_name: t.map(str::to_string),
                    kind,
                    limit,
                    count: n,
                    addresses,
                    exceeded: n > limit,
                });
            }
        }
    }
    out
}

/// Runs the pending guards when nothing else blocks, and settles the outcome. `lookup` reads
/// environment variables (the bypass variables).
pub fn run_guards(
    report: &mut GateReport,
    assessment: &Assessment,
    guards: &[Guard],
    objects: &guard::ObjectAttrs,
    lookup: &dyn Fn(&str) -> Option<String>,
) {
    let nothing_else_blocks = report.errors.is_empty()
        && (report.coverage_blocking.is_empty() || report.coverage_relaxed)
        && !report.budgets.iter().any(|b| b.exceeded)
        && report.required.iter().all(|x| x.approval.is_approved());
    if nothing_else_blocks && !report.guards_pending.is_empty() {
        let pending = std::mem::take(&mut report.guards_pending);
        for p in pending {
            let g = guards.iter().find(|g| g.name == p.guard);
            let v = assessment
                .verdicts
                .iter()
                .find(|v| v.address == p.address && v.deposed == p.deposed);
            if let (Some(g), Some(v)) = (g, v) {
                let object = objects.get(&(v.address.clone(), v.deposed.clone()));
                report
                    .guards
                    .push(guard::run_guard(g, v, &report.now, object, lookup));
            }
        }
    }
    report.outcome = decide(report);
}

/// Writes a file ward-gate owns (approvals, records), creating its directory: owner-only,
/// atomically, never through a symlink ([`ward_fs::write_atomic`]).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), GateError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// [`write_atomic`] for a file written piece by piece (the gate record: one line per change,
/// never held whole in memory).
pub(crate) fn write_atomic_with(
    path: &Path,
    emit: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), GateError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| GateError::Io {
            path: dir.display().to_string(),
            action: "create the directory",
            source: e,
        })?;
    }
    ward_fs::write_atomic_with(path, ward_fs::Mode::Private, emit).map_err(GateError::from)
}

/// Takes the update lock of a file ward-gate reads, changes and writes back.
pub(crate) fn lock(path: &Path) -> Result<ward_fs::Lock, GateError> {
    ward_fs::lock(path, ward_fs::DEFAULT_LOCK_WAIT).map_err(GateError::from)
}
