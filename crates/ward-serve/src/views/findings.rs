//! The open findings, worst first.

use ward_report::dashboard::{FindingView, Findings, API_VERSION};
use ward_store::{impact_order, FindingRow, Store, StoreError};

pub(super) fn finding_view(f: FindingRow) -> FindingView {
    let (resolved_run, resolved_at) = match f.resolved {
        Some((r, a)) => (Some(r), Some(a)),
        None => (None, None),
    };
    FindingView {
        root: f.root,
        address: f.address,
        attribute: f.attribute,
        impact: f.impact,
        first_run: f.first_seen.0,
        first_seen: f.first_seen.1,
        last_run: f.last_seen.0,
        last_seen: f.last_seen.1,
        resolved_run,
        resolved_at,
    }
}

/// Worst impact first, then root, address, attribute.
pub(super) fn worst_first(a: &FindingView, b: &FindingView) -> std::cmp::Ordering {
    impact_order(&b.impact)
        .cmp(&impact_order(&a.impact))
        .then_with(|| a.root.cmp(&b.root))
        .then_with(|| a.address.cmp(&b.address))
        .then_with(|| a.attribute.cmp(&b.attribute))
}

/// Every open finding, worst first.
pub fn findings(store: &Store) -> Result<Findings, StoreError> {
    let mut findings: Vec<FindingView> = store
        .open_findings()?
        .into_iter()
        .map(finding_view)
        .collect();
    findings.sort_by(worst_first);
    Ok(Findings {
        schema_version: API_VERSION,
        findings,
    })
}
