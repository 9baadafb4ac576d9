//! Records: what `ward stack`, `ward import` and `ward drift`'s alerts keep beside the drift
//! history.
//!
//! A record is one JSON document with a `kind` (what it is), the `root` it is about, a `key`
//! (what identifies it within its kind and root: a run id, a plan digest, a site), and when it
//! was recorded (UTC, RFC 3339, passed in by the caller). Records are appended, never updated:
//! the latest record of a `(kind, root, key)` is the current one, and the older ones are its
//! history. The body's shape belongs to the command that writes it; the store only checks that
//! it is a JSON object and keeps it as written.
//!
//! The kinds ward writes are listed in [`KINDS`]; a kind outside that list is refused, so a typo
//! in a caller cannot start a second, unread history. Approvals and gate decisions are not
//! records: they have typed tables of their own ([`crate::ApprovalRecord`],
//! [`crate::GateOutcomeRecord`]).

use crate::{Store, StoreError};
use serde::Serialize;

/// The record kinds ward writes, and what each one is.
pub const KINDS: &[(&str, &str)] = &[
    (
        "stack-run",
        "one `ward stack` run: the command, the site, the roots in order, the outcome",
    ),
    (
        "stack-step",
        "one root's step in a `ward stack` run: plan, apply, backup, destroy, proof",
    ),
    (
        "stack-backup",
        "a state backup taken before a teardown: its path, sha256, serial, lineage",
    ),
    (
        "import-plan",
        "a root `ward import plan` began adopting: the inventory's address -> id map",
    ),
    (
        "import-acceptance",
        "a root adopted by `ward import accept`: ids, plan digest, state mark",
    ),
    (
        "alert",
        "a `ward drift --notify` alert: delivered, or kept (with its body) for the next run to send",
    ),
    (
        "drift-run",
        "a `ward drift` run as it moves: running (with its process), finished, or interrupted",
    ),
];

/// A record to append.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NewRecord<'a> {
    /// One of [`KINDS`].
    pub kind: &'a str,
    /// The root the record is about (its name in `ward.hcl`, or its path).
    pub root: &'a str,
    /// What identifies it within its kind and root (a run id, a digest, a site); may be empty.
    pub key: &'a str,
    /// When it was recorded (UTC, RFC 3339).
    pub recorded_at: &'a str,
    /// The document; must be a JSON object.
    pub body: &'a serde_json::Value,
}

/// A stored record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordRow {
    /// Its id: increasing in the order records were appended.
    pub id: i64,
    /// Its kind.
    pub kind: String,
    /// The root it is about.
    pub root: String,
    /// Its key.
    pub key: String,
    /// When it was recorded (UTC).
    pub recorded_at: String,
    /// The document, as written.
    pub body: serde_json::Value,
}

/// Which records to read: every field that is set must match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecordQuery<'a> {
    /// The kind (required in practice: records of different kinds have different bodies).
    pub kind: &'a str,
    /// Only records about this root.
    pub root: Option<&'a str>,
    /// Only records with this key.
    pub key: Option<&'a str>,
    /// At most this many, newest first; 0 means no limit.
    pub limit: usize,
}

pub(crate) const RECORDS_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS records(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    root TEXT NOT NULL,
    key TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_kind ON records(kind, root, key, id);
CREATE INDEX IF NOT EXISTS records_by_kind_root_id ON records(kind, root, id);
";

fn check(r: &NewRecord<'_>) -> Result<String, StoreError> {
    if !KINDS.iter().any(|(k, _)| *k == r.kind) {
        return Err(StoreError::Record(format!(
            "unknown record kind `{}` (ward writes: {})",
            r.kind,
            KINDS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
        )));
    }
    if !r.body.is_object() {
        return Err(StoreError::Record(format!(
            "a `{}` record's body must be a JSON object",
            r.kind
        )));
    }
    serde_json::to_string(r.body)
        .map_err(|e| StoreError::Record(format!("a `{}` record cannot be written: {e}", r.kind)))
}

/// A record read back: its body parsed from the text the store keeps.
pub(crate) fn row(
    id: i64,
    kind: String,
    root: String,
    key: String,
    recorded_at: String,
    body: &str,
) -> Result<RecordRow, StoreError> {
    let body = serde_json::from_str(body)
        .map_err(|e| StoreError::Record(format!("record {id} ({kind}) is not valid JSON: {e}")))?;
    Ok(RecordRow {
        id,
        kind,
        root,
        key,
        recorded_at,
        body,
    })
}

impl Store {
    /// Appends one record and returns its id.
    pub fn append_record(&mut self, record: &NewRecord<'_>) -> Result<i64, StoreError> {
        Ok(self.append_records(std::slice::from_ref(record))?[0])
    }

    /// Appends records in one transaction: all of them land, or none does. Returns their ids in
    /// order.
    pub fn append_records(&mut self, records: &[NewRecord<'_>]) -> Result<Vec<i64>, StoreError> {
        let bodies = records.iter().map(check).collect::<Result<Vec<_>, _>>()?;
        self.backend.append_records(records, &bodies)
    }

    /// The records that match `query`, newest first.
    pub fn records(&self, query: &RecordQuery<'_>) -> Result<Vec<RecordRow>, StoreError> {
        self.backend.records(query)
    }

    /// The newest record of `kind` about `root` with `key`, when there is one.
    pub fn latest_record(
        &self,
        kind: &str,
        root: &str,
        key: &str,
    ) -> Result<Option<RecordRow>, StoreError> {
        Ok(self
            .records(&RecordQuery {
                kind,
                root: Some(root),
                key: Some(key),
                limit: 1,
            })?
            .into_iter()
            .next())
    }
}
