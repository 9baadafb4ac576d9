//! A drift run as it moves, so that one stopped is told for what it is: `drift-run` records in
//! the history (ward-store's `records`, root [`ROOT`], key the run's token). The run appends
//! `running` with its process (pid, host, start time) when it starts, and `finished` with its
//! history run id and exit code inside the run's own transaction; a later run that finds a
//! `running` record whose process is gone appends `interrupted` (and says so once in its
//! problems). A run stopped by a signal or killed outright leaves its `running` record and
//! nothing else: its rows are written in one transaction once every root is checked.

use serde::{Deserialize, Serialize};
use ward_store::{NewRecord, RecordQuery, Store, StoreError};

/// The records' kind.
pub const KIND: &str = "drift-run";
/// The records' root.
pub const ROOT: &str = "(drift)";

/// What a `drift-run` record holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunMark {
    /// `running`, `finished` or `interrupted`.
    pub status: String,
    /// When the run started (UTC).
    pub started_at: String,
    /// The shard, `K/N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The process that ran it.
    pub process: Process,
    /// The run's id in the history (`finished` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<i64>,
    /// Its exit code (`finished` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
}

/// A run's process: the one process mark ward has, recorded as `{"pid":…,"host":…,"start":…}`.
pub use ward_exec::ProcessMark as Process;

/// A run that recorded its start and not its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unfinished {
    /// When it started (UTC).
    pub started_at: String,
    /// The shard, `K/N`.
    pub shard: Option<String>,
    /// Its process id.
    pub pid: u32,
    /// The machine it ran on.
    pub host: String,
    /// `interrupted` (its process is gone: stopped by a signal, killed, or crashed; it recorded
    /// nothing), `running` (its process still runs), or `unknown` (it ran on another machine).
    pub state: String,
}

/// The token of a run started now by this process: its start time, pid and a counter.
pub(crate) fn token(now: &str) -> String {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("{now}/{}/{n}", std::process::id())
}

/// Appends a record of the run `token`.
pub(crate) fn mark(
    store: &mut Store,
    token: &str,
    at: &str,
    m: &RunMark,
) -> Result<(), StoreError> {
    let body = serde_json::to_value(m).unwrap_or_default();
    store.append_record(&NewRecord {
        kind: KIND,
        root: ROOT,
        key: token,
        recorded_at: at,
        body: &body,
    })?;
    Ok(())
}

/// A `running` mark for this process.
pub(crate) fn running(started_at: &str, shard: Option<String>) -> RunMark {
    RunMark {
        status: "running".into(),
        started_at: started_at.into(),
        shard,
        process: Process::current(),
        run: None,
        exit_code: None,
    }
}

/// Every run whose latest record is `running` or `interrupted`, newest first, with its token,
/// among the newest `limit` records (0: all).
fn open_runs(store: &Store, limit: usize) -> Result<Vec<(String, RunMark)>, StoreError> {
    let rows = store.records(&RecordQuery {
        kind: KIND,
        root: Some(ROOT),
        key: None,
        limit,
    })?;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for r in rows {
        if !seen.insert(r.key.clone()) {
            continue;
        }
        let Ok(m) = serde_json::from_value::<RunMark>(r.body) else {
            continue;
        };
        if m.status != "finished" {
            out.push((r.key, m));
        }
    }
    Ok(out)
}

/// The runs that recorded their start and not their end, newest first.
pub fn unfinished(store: &Store) -> Result<Vec<Unfinished>, StoreError> {
    unfinished_within(store, 0)
}

/// [`unfinished`] among the newest `records` journal records only (0: the whole journal): a
/// run writes two (`running`, then `finished`), so the newest runs' are the newest records,
/// read without reading a year of them.
pub fn unfinished_within(store: &Store, records: usize) -> Result<Vec<Unfinished>, StoreError> {
    Ok(open_runs(store, records)?
        .into_iter()
        .map(|(_, m)| {
            let state = if m.status == "interrupted" {
                "interrupted"
            } else {
                match m.process.alive() {
                    Some(true) => "running",
                    Some(false) => "interrupted",
                    None => "unknown",
                }
            };
            Unfinished {
                started_at: m.started_at,
                shard: m.shard,
                pid: m.process.pid,
                host: m.process.host,
                state: state.into(),
            }
        })
        .collect())
}

/// Marks `interrupted` every `running` run whose process is gone (not `skip`, this run), and
/// says so, one sentence each: what a run learns of the runs before it.
pub(crate) fn settle(store: &mut Store, skip: &str, at: &str) -> Result<Vec<String>, StoreError> {
    let mut said = Vec::new();
    for (token, mut m) in open_runs(store, 0)? {
        if token == skip || m.status != "running" || m.process.alive() != Some(false) {
            continue;
        }
        said.push(format!(
            "the drift run started {} (pid {} on {}) was interrupted: it recorded no outcome",
            m.started_at, m.process.pid, m.process.host
        ));
        m.status = "interrupted".into();
        mark(store, &token, at, &m)?;
    }
    Ok(said)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::RunMark;

    /// A `drift-run` record as the journal has always written it (its process `pid`, `host`,
    /// `start`, in that order; `shard`, `run` and `exit_code` only when there is one), and as the
    /// history keeps it (the record's text, its keys sorted): read and written again, the same
    /// bytes.
    #[test]
    fn a_run_record_reads_and_writes_the_same_bytes() {
        let written = [
            r#"{"status":"running","started_at":"2026-11-28T00:00:00Z","process":{"pid":4711,"host":"ci-runner-7","start":123456}}"#,
            r#"{"status":"running","started_at":"2026-11-28T00:00:00Z","shard":"1/2","process":{"pid":4711,"host":"ci-runner-7","start":0}}"#,
            r#"{"status":"finished","started_at":"2026-11-28T00:00:00Z","process":{"pid":1,"host":"unknown","start":18446744073709551615},"run":42,"exit_code":3}"#,
        ];
        for text in written {
            let m: RunMark = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&m).unwrap(), text);
        }
        let kept = [
            r#"{"process":{"host":"ci-runner-7","pid":4711,"start":123456},"shard":"1/2","started_at":"2026-11-28T00:00:00Z","status":"interrupted"}"#,
            r#"{"exit_code":0,"process":{"host":"h","pid":4294967295,"start":7},"run":9,"started_at":"2026-11-28T00:00:00Z","status":"finished"}"#,
        ];
        for text in kept {
            let m: RunMark = serde_json::from_str(text).unwrap();
            let body = serde_json::to_value(&m).unwrap();
            assert_eq!(serde_json::to_string(&body).unwrap(), text);
        }
    }
}
