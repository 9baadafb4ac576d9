//! `ward verify` re-checks the review approvals the gate used (`ward gate --approvals-from`).
//!
//! When the gate took its approvals from pull-request reviews and wrote a gate record, the
//! record carries a [`ReviewBinding`]: the pull request, the forge's API base, the head the gate
//! saw, who may approve each change (the `reviewers` requirements that covered it, resolved) and
//! each change's approval digest with who approved it and when. It is inside the record, so the
//! approval key's signature covers it.
//!
//! At apply time [`check`] reads the pull request again and settles each bound change with the
//! same rules as the gate ([`crate::review::settle_one`]) at the current time: a review
//! withdrawn (dismissed, or changes requested since), a push (the head is no longer the one
//! gated), an approval expired since the gate, or a forge that cannot be read is a difference,
//! and `ward verify` refuses with it. Nothing is approved that the gate did not approve: verify
//! only re-confirms.

use crate::record::GateRecord;
use crate::review::{self, ReviewSource, Settle, Wanted};
use crate::{ApprovalStatus, GateReport};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::time::Duration;
use ward_config::review::{Requirement, Reviewers};
use ward_model::Impact;

/// What a gate record says of the reviews that approved its changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewBinding {
    /// The pull request (`github:OWNER/REPO#N`, `gitlab:GROUP/PROJECT!IID`).
    pub source: String,
    /// The forge's API base the reviews were read from.
    pub forge: String,
    /// The head commit the gate saw.
    pub head: String,
    /// The gated root, relative to the directory of `ward.hcl` (`None`: unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// `reviewers.comment_author` at the gate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment_author: Option<String>,
    /// `reviewers.allow_author` at the gate.
    #[serde(default)]
    pub allow_author: bool,
    /// `policy.approval_expiry` at the gate, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiry_seconds: Option<u64>,
    /// Every change that needed an approval.
    pub changes: Vec<BoundChange>,
}

/// One change the reviews approved at the gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundChange {
    /// Address.
    pub address: String,
    /// Deposed key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// Impact class.
    pub impact: Impact,
    /// The approval digest ward's comment listed.
    pub digest: String,
    /// The `require` blocks that covered it (empty: one review from anyone but the author).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<BoundRequirement>,
    /// Who approved it at the gate (comma-separated logins).
    pub approved_by: String,
    /// When (the latest review that counted, RFC 3339).
    pub approved_at: String,
}

/// One `require` block, as it applied to a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundRequirement {
    /// Its name.
    pub name: String,
    /// Who may approve (logins, `@org/team`).
    pub from: Vec<String>,
    /// How many distinct approvers.
    pub count: u64,
}

impl ReviewBinding {
    /// The `reviewers` policy the gate applied, rebuilt from the binding: each change's
    /// requirements cover exactly that change ([`check`] settles change by change).
    fn reviewers(&self, c: &BoundChange) -> Reviewers {
        Reviewers {
            comment_author: self.comment_author.clone(),
            allow_author: self.allow_author,
            require: c
                .requires
                .iter()
                .map(|q| Requirement {
                    name: q.name.clone(),
                    impact: BTreeSet::new(),
                    address: Vec::new(),
                    root: Vec::new(),
                    from: q.from.clone(),
                    count: q.count,
                    line: 0,
                })
                .collect(),
        }
    }

    /// Every team any change's requirements name, as a `reviewers` block (for reading them).
    fn all_reviewers(&self) -> Reviewers {
        let mut r = Reviewers {
            comment_author: self.comment_author.clone(),
            allow_author: self.allow_author,
            require: Vec::new(),
        };
        for c in &self.changes {
            r.require.extend(self.reviewers(c).require);
        }
        r
    }
}

/// The binding of a gate that settled `report`'s changes from reviews through `settle`, under
/// `policy`: with no change and no head when nothing needed an approval (the forge was not
/// read), `None` when the forge could not be read (every change is then refused, so the gate
/// did not pass).
pub fn binding(
    settle: &Settle<'_>,
    report: &GateReport,
    policy: &ward_config::policy::Policy,
) -> Option<ReviewBinding> {
    let head = match settle.reviews() {
        None if report.required.is_empty() => String::new(),
        None => return None,
        Some(r) => r.as_ref().ok()?.pull.head.clone(),
    };
    let root = settle.root.as_deref();
    let changes = report
        .required
        .iter()
        .map(|r| {
            let (approved_by, approved_at) = match &r.approval {
                ApprovalStatus::Approved {
                    by, approved_at, ..
                } => (by.clone(), approved_at.clone()),
                _ => (String::new(), String::new()),
            };
            BoundChange {
                address: r.address.clone(),
                deposed: r.deposed.clone(),
                impact: r.impact,
                digest: r.digest.clone(),
                requires: policy
                    .reviewers
                    .require
                    .iter()
                    .filter(|q| q.covers(r.impact, &r.address, root))
                    .map(|q| BoundRequirement {
                        name: q.name.clone(),
                        from: q.from.clone(),
                        count: q.count,
                    })
                    .collect(),
                approved_by,
                approved_at,
            }
        })
        .collect();
    Some(ReviewBinding {
        source: settle.source.source.to_string(),
        forge: settle.source.client.base().to_string(),
        head,
        root: settle.root.clone(),
        comment_author: policy.reviewers.comment_author.clone(),
        allow_author: policy.reviewers.allow_author,
        expiry_seconds: policy.approval_expiry.map(|d| d.as_secs()),
        changes,
    })
}

/// Puts `binding` into the record, signing the record again under `key` when there is one (the
/// signature covers the binding).
pub fn bind(record: &mut GateRecord, binding: Option<ReviewBinding>, key: Option<&[u8]>) {
    record.reviews = binding;
    if let Some(k) = key {
        record.signature = None;
        record.signature = Some(record.compute_signature(k));
    }
}

/// Re-reads the reviews of `binding` from `src` and settles each bound change at `now` (RFC
/// 3339): every reason the approvals no longer hold, one line each (empty: they hold, or no
/// change needed one, and then nothing is read).
pub fn check(binding: &ReviewBinding, src: &ReviewSource, now: &str) -> Vec<String> {
    let mut diffs = Vec::new();
    let want = src.source.to_string();
    if want != binding.source {
        diffs.push(format!(
            "the gate took its approvals from {}, not {want}: verify against the pull request the gate read",
            binding.source
        ));
        return diffs;
    }
    if binding.changes.is_empty() {
        return diffs;
    }
    let reviews = match review::read(src, &binding.all_reviewers()) {
        Ok(r) => r,
        Err(e) => {
            diffs.push(format!(
                "the review approvals of {} could not be read again: {e}",
                binding.source
            ));
            return diffs;
        }
    };
    if reviews.pull.head != binding.head {
        diffs.push(format!(
            "{} was pushed to since the gate (gated at {}, the head is now {}): plan and gate the new head, and have it reviewed again",
            binding.source, binding.head, reviews.pull.head
        ));
        return diffs;
    }
    let expiry = binding.expiry_seconds.map(Duration::from_secs);
    for c in &binding.changes {
        let wanted = Wanted {
            digest: &c.digest,
            impact: c.impact,
            address: &c.address,
        };
        let name = match &c.deposed {
            Some(d) => format!("{} (deposed {d})", c.address),
            None => c.address.clone(),
        };
        let status = review::settle_one(
            wanted,
            &reviews,
            &binding.reviewers(c),
            expiry,
            binding.root.as_deref(),
            now,
        );
        match status {
            ApprovalStatus::Approved { .. } => {}
            ApprovalStatus::Awaiting { needs, not_counted } => {
                let mut why = needs;
                why.extend(not_counted);
                diffs.push(format!(
                    "{name}: its review approval no longer holds: {}",
                    why.join("; ")
                ));
            }
            ApprovalStatus::Refused { why, .. } => diffs.push(format!(
                "{name}: its review approval no longer holds: {why}"
            )),
            other => diffs.push(format!(
                "{name}: its review approval no longer holds ({})",
                other.name()
            )),
        }
    }
    diffs
}

/// `ward verify` ([`crate::run::verify_with_env`]) with the review re-check: when the record
/// holds a [`ReviewBinding`], the reviews are read again through the source `open` builds for it
/// (the caller holds the token) and every reason they no longer hold is a difference. `expect`
/// is the pull request the caller says the approvals come from (`ward verify --approvals-from`):
/// a record without a binding, or with another pull request's, is then refused. `now` is the
/// run's clock (RFC 3339).
pub fn verify(
    opts: &crate::run::VerifyOptions,
    env: crate::run::Env<'_>,
    now: &str,
    expect: Option<&str>,
    open: &dyn Fn(&ReviewBinding) -> Result<ReviewSource, String>,
) -> Result<crate::run::Verified, crate::GateError> {
    let mut v = crate::run::verify_with_env(opts, env)?;
    let rec = crate::record::load(&opts.record)?;
    let diffs = match (&rec.reviews, expect) {
        (None, None) => Vec::new(),
        (None, Some(s)) => vec![format!(
            "--approvals-from {s}: the gate record holds no review approvals (gated without --approvals-from, or by an older ward): gate again with `ward gate PLAN --approvals-from {s} --record FILE`"
        )],
        (Some(b), _) => match open(b) {
            Ok(src) => check(b, &src, now),
            Err(e) => vec![format!(
                "the review approvals of {} cannot be read again: {e}",
                b.source
            )],
        },
    };
    match (&rec.reviews, diffs.is_empty()) {
        (Some(b), true) if b.changes.is_empty() => v.notes.push(format!(
            "note: no change needed an approval from the reviews of {}",
            b.source
        )),
        (Some(b), true) => v.notes.push(format!(
            "note: the review approvals of {} at {} still hold",
            b.source, b.head
        )),
        _ => {}
    }
    if !diffs.is_empty() {
        v.report.differences.extend(diffs);
        v.report.ok = false;
        v.exit = v.report.exit();
    }
    Ok(v)
}
