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
pub use crate::record::{BoundChange, BoundRequirement, ReviewBinding};
use crate::review::{self, ReviewSource, Settle, Wanted};
use crate::{ApprovalStatus, GateReport};
use std::collections::BTreeSet;
use std::time::Duration;
use ward_config::review::{Requirement, Reviewers};

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

/// The review re-check of `ward verify` ([`crate::run::verify_with_reviews`]): when the record
/// holds a [`ReviewBinding`] (`bound`), the reviews are read again through the source `open`
/// builds for it (the caller holds the token) and every reason they no longer hold is a
/// difference. `expect` is the pull request the caller says the approvals come from (`ward
/// verify --approvals-from`): a record without a binding is then refused. `now` is the run's
/// clock (RFC 3339). Returns the differences, and the note to print when there is none.
pub fn recheck(
    bound: Option<&ReviewBinding>,
    now: &str,
    expect: Option<&str>,
    open: &dyn Fn(&ReviewBinding) -> Result<ReviewSource, String>,
) -> (Vec<String>, Option<String>) {
    let diffs = match (bound, expect) {
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
    let note = match (bound, diffs.is_empty()) {
        (Some(b), true) if b.changes.is_empty() => Some(format!(
            "note: no change needed an approval from the reviews of {}",
            b.source
        )),
        (Some(b), true) => Some(format!(
            "note: the review approvals of {} at {} still hold",
            b.source, b.head
        )),
        _ => None,
    };
    (diffs, note)
}
