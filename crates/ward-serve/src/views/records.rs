//! The record pages (imports) and the approvals page (the gate's audit trail).

use super::RECORDS_PER_KIND;
use ward_report::dashboard::{
    ApprovalView, Approvals, GateChangeView, GateReviewView, GateView, RecordView, Records,
    API_VERSION,
};
use ward_store::{AuditQuery, RecordQuery, Store, StoreError};
use ward_time::Timestamp;

/// The record pages: path, title, kinds.
pub const RECORD_PAGES: &[(&str, &str, &[&str])] =
    &[("/imports", "Imports", &["import-plan", "import-acceptance"])];

/// At most this many approvals, and as many gate decisions, on the approvals page.
pub const AUDIT_ROWS: usize = 500;

/// A record as the pages show it; `now` (RFC 3339, UTC) decides whether it has expired.
pub(super) fn record_view(r: ward_store::RecordRow, now: &str) -> RecordView {
    let expires = ["expires", "expires_at"]
        .iter()
        .find_map(|k| r.body.get(*k).and_then(|v| v.as_str()))
        .map(str::to_string);
    let expired = !now.is_empty() && expires.as_deref().is_some_and(|e| expired(e, now));
    let fields = r
        .body
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), compact(v)))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    RecordView {
        id: r.id,
        kind: r.kind,
        root: r.root,
        key: r.key,
        recorded_at: r.recorded_at,
        expires,
        expired,
        fields,
        body: r.body,
    }
}

/// The records of `kinds`, newest first; `now` (RFC 3339, UTC) decides which have expired.
pub fn records(
    store: &Store,
    title: &str,
    kinds: &[&str],
    now: &str,
) -> Result<Records, StoreError> {
    let mut out = Vec::new();
    for kind in kinds {
        for r in store.records(&RecordQuery {
            kind,
            limit: RECORDS_PER_KIND,
            ..Default::default()
        })? {
            out.push(record_view(r, now));
        }
    }
    out.sort_by(|a, b| {
        b.recorded_at
            .cmp(&a.recorded_at)
            .then_with(|| b.id.cmp(&a.id))
    });
    Ok(Records {
        schema_version: API_VERSION,
        title: title.to_string(),
        kinds: kinds.iter().map(|k| k.to_string()).collect(),
        records: out,
    })
}

/// The gate's audit trail, newest first: approvals given (expired ones marked, judged at `now`)
/// and gate decisions; only `root`'s when one is given.
pub fn approvals(
    store: &Store,
    root: Option<&str>,
    now: Timestamp,
) -> Result<Approvals, StoreError> {
    let now = ward_time::rfc3339(now);
    let q = AuditQuery {
        root,
        limit: AUDIT_ROWS,
    };
    let approvals = store
        .approvals(&q)?
        .into_iter()
        .map(|r| {
            let a = r.approval;
            ApprovalView {
                id: r.id,
                source: a.source.as_str().to_string(),
                expired: a.expires_at.as_deref().is_some_and(|e| expired(e, &now)),
                root: a.root,
                site: a.site,
                address: a.address,
                deposed: a.deposed,
                action: a.action,
                impact: a.impact,
                digest: a.digest,
                by: a.by,
                reason: a.reason,
                approved_at: a.approved_at,
                expires_at: a.expires_at,
                signed: a.signed,
                plan: a.plan,
                run: a.run,
            }
        })
        .collect();
    let gates = store
        .gate_outcomes(&q)?
        .into_iter()
        .map(|r| {
            let g = r.outcome;
            GateView {
                id: r.id,
                source: g.source.as_str().to_string(),
                severity: if g.outcome == "pass" { "ok" } else { "failed" }.to_string(),
                root: g.root,
                site: g.site,
                plan: g.plan,
                outcome: g.outcome,
                exit_code: g.exit_code,
                decided_at: g.decided_at,
                reasons: g.reasons,
                changes: g
                    .changes
                    .into_iter()
                    .map(|c| GateChangeView {
                        address: c.address,
                        deposed: c.deposed,
                        action: c.action,
                        impact: c.impact,
                        digest: c.digest,
                        status: c.status,
                        by: c.by,
                        expires_at: c.expires_at,
                        review: c.review.map(|r| GateReviewView {
                            source: r.source,
                            commit: r.commit,
                            approved_at: r.approved_at,
                        }),
                    })
                    .collect(),
                run: g.run,
            }
        })
        .collect();
    Ok(Approvals {
        schema_version: API_VERSION,
        root: root.map(str::to_string),
        now,
        approvals,
        gates,
    })
}

/// Whether an expiry (a `YYYY-MM-DD` date, inclusive, or an RFC 3339 UTC time) is before `now`.
fn expired(expires: &str, now: &str) -> bool {
    if expires.len() == 10 {
        expires < now.get(..10).unwrap_or(now)
    } else {
        expires < now
    }
}

/// A JSON value on one line, strings without their quotes, cut at 300 characters.
fn compact(v: &serde_json::Value) -> String {
    let s = match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if s.chars().count() > 300 {
        let mut cut: String = s.chars().take(300).collect();
        cut.push('…');
        cut
    } else {
        s
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn expiry_is_inclusive_for_dates() {
        let now = "2026-12-01T10:00:00Z";
        assert!(!expired("2026-12-01", now));
        assert!(expired("2026-11-30", now));
        assert!(expired("2026-12-01T09:59:59Z", now));
        assert!(!expired("2026-12-01T10:00:01Z", now));
    }
}
