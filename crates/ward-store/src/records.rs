//! Records: what `ward gate`, `ward stack` and `ward import` keep beside the drift history.
//!
//! A record is one JSON document with a `kind` (what it is), the `root` it is about, a `key`
//! (what identifies it within its kind and root: a run id, a plan digest, a site), and when it
//! was recorded (UTC, RFC 3339, passed in by the caller). Records are appended, never updated:
//! the latest record of a `(kind, root, key)` is the current one, and the older ones are its
//! history. The body's shape belongs to the command that writes it; the store only checks that
//! it is a JSON object and keeps it as written.
//!
//! The kinds ward writes are listed in [`KINDS`]; a kind outside that list is refused, so a typo
//! in a caller cannot start a second, unread history.

use crate::{Store, StoreError};
use rusqlite::params;
use serde::Serialize;

/// The record kinds ward writes, and what each one is.
pub const KINDS: &[(&str, &str)] = &[
    (
        "approval",
        "an approval given with `ward approve`, as recorded",
    ),
    ("gate", "a `ward gate` outcome on a plan"),
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

impl Store {
    /// Appends one record and returns its id.
    pub fn append_record(&mut self, record: &NewRecord<'_>) -> Result<i64, StoreError> {
        Ok(self.append_records(std::slice::from_ref(record))?[0])
    }

    /// Appends records in one transaction: all of them land, or none does. Returns their ids in
    /// order.
    pub fn append_records(&mut self, records: &[NewRecord<'_>]) -> Result<Vec<i64>, StoreError> {
        let bodies = records.iter().map(check).collect::<Result<Vec<_>, _>>()?;
        let tx = self.conn.transaction()?;
        let mut ids = Vec::with_capacity(records.len());
        for (r, body) in records.iter().zip(bodies) {
            tx.execute(
                "INSERT INTO records(kind, root, key, recorded_at, body) VALUES(?1, ?2, ?3, ?4, ?5)",
                params![r.kind, r.root, r.key, r.recorded_at, body],
            )?;
            ids.push(tx.last_insert_rowid());
        }
        tx.commit()?;
        Ok(ids)
    }

    /// The records that match `query`, newest first.
    pub fn records(&self, query: &RecordQuery<'_>) -> Result<Vec<RecordRow>, StoreError> {
        let limit = if query.limit == 0 {
            -1
        } else {
            i64::try_from(query.limit).unwrap_or(i64::MAX)
        };
        let mut st = self.conn.prepare(
            "SELECT id, kind, root, key, recorded_at, body FROM records
             WHERE kind = ?1 AND (?2 IS NULL OR root = ?2) AND (?3 IS NULL OR key = ?3)
             ORDER BY id DESC LIMIT ?4",
        )?;
        let rows = st.query_map(params![query.kind, query.root, query.key, limit], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, kind, root, key, recorded_at, body) = row?;
            let body = serde_json::from_str(&body).map_err(|e| {
                StoreError::Record(format!("record {id} ({kind}) is not valid JSON: {e}"))
            })?;
            out.push(RecordRow {
                id,
                kind,
                root,
                key,
                recorded_at,
                body,
            });
        }
        Ok(out)
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec<'a>(
        kind: &'a str,
        root: &'a str,
        key: &'a str,
        body: &'a serde_json::Value,
    ) -> NewRecord<'a> {
        NewRecord {
            kind,
            root,
            key,
            recorded_at: "2026-12-01T00:00:00Z",
            body,
        }
    }

    #[test]
    fn records_round_trip_newest_first_and_filter() {
        let mut s = Store::open_in_memory().unwrap();
        let a = json!({"n": 1});
        let b = json!({"n": 2});
        let c = json!({"n": 3});
        s.append_record(&rec("stack-step", "net", "run-1", &a))
            .unwrap();
        s.append_record(&rec("stack-step", "net", "run-2", &b))
            .unwrap();
        s.append_record(&rec("stack-step", "app", "run-2", &c))
            .unwrap();
        let all = s
            .records(&RecordQuery {
                kind: "stack-step",
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            all.iter()
                .map(|r| r.body["n"].as_i64().unwrap())
                .collect::<Vec<_>>(),
            [3, 2, 1]
        );
        let net = s
            .records(&RecordQuery {
                kind: "stack-step",
                root: Some("net"),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(net.len(), 2);
        let latest = s
            .latest_record("stack-step", "net", "run-1")
            .unwrap()
            .unwrap();
        assert_eq!(latest.body, a);
        assert!(s
            .latest_record("stack-step", "net", "run-9")
            .unwrap()
            .is_none());
        let one = s
            .records(&RecordQuery {
                kind: "stack-step",
                limit: 1,
                ..Default::default()
            })
            .unwrap();
        assert_eq!(one.len(), 1);
        assert!(s
            .records(&RecordQuery {
                kind: "approval",
                ..Default::default()
            })
            .unwrap()
            .is_empty());
    }

    #[test]
    fn an_unknown_kind_or_a_body_that_is_not_an_object_is_refused_and_nothing_lands() {
        let mut s = Store::open_in_memory().unwrap();
        let ok = json!({});
        let e = s
            .append_record(&rec("stack-stpe", "net", "", &ok))
            .unwrap_err();
        assert!(
            e.to_string().contains("unknown record kind `stack-stpe`"),
            "{e}"
        );
        let bad = json!([1]);
        let e = s
            .append_records(&[rec("gate", "net", "", &ok), rec("gate", "net", "", &bad)])
            .unwrap_err();
        assert!(e.to_string().contains("must be a JSON object"), "{e}");
        assert!(s
            .records(&RecordQuery {
                kind: "gate",
                ..Default::default()
            })
            .unwrap()
            .is_empty());
    }

    #[test]
    fn records_survive_reopening_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        let body = json!({"ids": {"a.b": "x"}});
        {
            let mut s = Store::open(&path).unwrap();
            s.append_record(&rec("import-acceptance", "fleet", "d1", &body))
                .unwrap();
        }
        let s = Store::open(&path).unwrap();
        let r = s
            .latest_record("import-acceptance", "fleet", "d1")
            .unwrap()
            .unwrap();
        assert_eq!(r.body, body);
    }

    #[test]
    fn a_schema_2_database_gains_records_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        drop(Store::open(&path).unwrap());
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(
                "DROP TABLE records; UPDATE meta SET value = '2' WHERE key = 'schema_version';",
            )
            .unwrap();
        }
        let mut s = Store::open(&path).unwrap();
        let body = json!({"ok": true});
        s.append_record(&rec("gate", "net", "d", &body)).unwrap();
        let v: String = s
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(v, crate::SCHEMA_VERSION.to_string());
    }
}
