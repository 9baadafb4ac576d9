//! Where a root stands in its adoption, read from ward's history store: `ward import plan`
//! records that a root is being adopted (`import-plan`), `ward import accept` that it was
//! (`import-acceptance`). `ward gate` asks [`status`] and refuses, with [`refusals`], every
//! change other than an import in a root being adopted and not yet accepted.

use crate::accept::{Acceptance, KIND};
use std::path::Path;
use ward_model::{Action, Mode, Plan, ResourceChange};
use ward_store::{NewRecord, RecordQuery, Store, StoreError};

/// The record kind `ward import plan` writes.
pub const PLAN_KIND: &str = "import-plan";

/// The name a root's records are kept under: its `root` block's name in `ward.hcl` when one
/// declares its directory, else its canonical path.
pub fn root_key(config: Option<&ward_config::Config>, dir: &Path) -> String {
    let canon = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if let Some(c) = config {
        let base = std::fs::canonicalize(&c.dir).unwrap_or_else(|_| c.dir.clone());
        if let Ok(rel) = canon.strip_prefix(&base) {
            let rel = ward_config::normalize_rel(&rel.to_string_lossy());
            if let Some(r) = c.root_at(&rel) {
                return r.name.clone();
            }
        }
    }
    canon.display().to_string()
}

/// A root's adoption.
#[derive(Debug, Clone, PartialEq)]
pub enum Adoption {
    /// Accepted: the newest acceptance.
    Accepted(Box<Acceptance>),
    /// `ward import plan` ran for it, and no acceptance came after.
    Adopting,
    /// Nothing recorded.
    NotStarted,
}

/// Reads the root's adoption from the store.
pub fn status(store: &Store, root: &str) -> Result<Adoption, StoreError> {
    let newest = |kind| {
        store.records(&RecordQuery {
            kind,
            root: Some(root),
            key: None,
            limit: 1,
        })
    };
    let accepted = newest(KIND)?.into_iter().next();
    let planned = newest(PLAN_KIND)?.into_iter().next();
    Ok(match (accepted, planned) {
        (Some(a), p) if p.as_ref().is_none_or(|p| p.id < a.id) => {
            match serde_json::from_value::<Acceptance>(a.body) {
                Ok(acc) => Adoption::Accepted(Box::new(acc)),
                Err(e) => {
                    return Err(StoreError::Record(format!(
                        "record {} ({KIND}) is not an acceptance: {e}",
                        a.id
                    )))
                }
            }
        }
        (_, Some(_)) => Adoption::Adopting,
        (None, None) => Adoption::NotStarted,
        // An acceptance newer than every plan record was handled above.
        (Some(_), None) => Adoption::NotStarted,
    })
}

/// Records that `ward import plan` began adopting `root` with these address → id pairs.
pub fn record_plan(
    store: &mut Store,
    root: &str,
    ids: &std::collections::BTreeMap<String, String>,
    now: &str,
) -> Result<(), StoreError> {
    let body = serde_json::json!({ "schema_version": 1, "root": root, "ids": ids });
    store
        .append_record(&NewRecord {
            kind: PLAN_KIND,
            root,
            key: "",
            recorded_at: now,
            body: &body,
        })
        .map(|_| ())
}

/// Whether a plan imports anything.
pub fn imports_anything(plan: &Plan) -> bool {
    plan.changes.iter().any(|c| c.importing.is_some())
}

/// The changes of `plan` that are not imports (or inert), one line each: what `ward gate`
/// refuses in a root being adopted. An import that also updates in place is an import
/// (`ward import check` decides whether the update is allowed); an import that replaces is not.
pub fn refusals(plan: &Plan) -> Vec<String> {
    plan.changes
        .iter()
        .filter(|c| is_refused(c))
        .map(refusal)
        .collect()
}

/// Whether `ward gate` refuses this change in a root being adopted (see [`refusals`]): a
/// managed change that is neither inert nor an import. For a caller that reads the plan change
/// by change.
pub fn is_refused(c: &ResourceChange) -> bool {
    let inert = matches!(c.action, Action::NoOp | Action::Read | Action::Open);
    let import = c.importing.is_some() && matches!(c.action, Action::NoOp | Action::Update);
    c.mode == Mode::Managed && !(inert || import)
}

/// The line [`refusals`] gives a refused change.
pub fn refusal(c: &ResourceChange) -> String {
    refusal_line(&c.address, c.action)
}

/// [`refusal`] from a change's address and action (what a caller that did not keep the change
/// kept of it). Built in one allocation of its exact length: `ward gate` makes one for every
/// change an adoption would refuse, before it knows whether the root is being adopted, and
/// keeps it boxed (no reallocation to shrink it).
pub fn refusal_line(address: &str, action: Action) -> String {
    let action = action.as_terraform();
    let mut line = String::with_capacity(address.len() + action.len() + 3);
    line.push_str(address);
    line.push_str(" (");
    line.push_str(action);
    line.push(')');
    line
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn status_follows_the_newest_records() {
        let mut s = Store::open_in_memory().unwrap();
        assert_eq!(status(&s, "r").unwrap(), Adoption::NotStarted);
        record_plan(&mut s, "r", &BTreeMap::new(), "2026-12-01T00:00:00Z").unwrap();
        assert_eq!(status(&s, "r").unwrap(), Adoption::Adopting);
        assert_eq!(status(&s, "other").unwrap(), Adoption::NotStarted);
        let acc = Acceptance {
            schema_version: 1,
            root: "r".into(),
            ids: BTreeMap::new(),
            plan_digest: "sha256:x".into(),
            lineage: "l".into(),
            serial: 1,
            binary: "terraform".into(),
            product: "terraform".into(),
            version: "1.15.5".into(),
            accepted_at: "2026-12-01T00:00:01Z".into(),
        };
        crate::accept::record(&mut s, &acc).unwrap();
        assert!(matches!(status(&s, "r").unwrap(), Adoption::Accepted(_)));
        // Adopting again (a second inventory) reopens it until the next acceptance.
        record_plan(&mut s, "r", &BTreeMap::new(), "2026-12-01T00:00:02Z").unwrap();
        assert_eq!(status(&s, "r").unwrap(), Adoption::Adopting);
    }
}
