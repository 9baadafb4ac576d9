//! Liveness guards: commands that must succeed before the gate passes a destroy or replacement.
//!
//! A guard runs once per matching change, in the directory of `ward.hcl`, with standard input
//! closed, `TZ=UTC` (so times it prints and compares are UTC), and in the environment:
//!
//! - `WARD_GUARD`: the guard's name;
//! - `WARD_ADDRESS`, `WARD_TYPE`, `WARD_ACTION` (Terraform's spelling, e.g. `delete,create`),
//!   `WARD_IMPACT`, `WARD_DEPOSED` (when the object is deposed);
//! - `WARD_NOW`: the gate's clock, UTC RFC 3339;
//! - `WARD_ATTR_<NAME>`: each top-level attribute of the object as it is before the change (read
//!   from the plan's `change.before`, when the plan was given as a file), and each changed
//!   attribute path whose value is known: strings raw, anything else as JSON. Values marked
//!   sensitive are never passed. The name is upper-cased with every other character written `_`
//!   (`tags.Name` → `WARD_ATTR_TAGS_NAME`).
//!
//! It is killed with its whole process group when the timeout passes. A guard that exits non-zero,
//! times out or cannot start blocks the gate. `WARD_BYPASS_GUARD_<NAME>=<reason>` skips it; the
//! report says so and gives the reason (an empty reason does not bypass).

use crate::policy::{Guard, GuardOn};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use ward_classify::Verdict;
use ward_model::{Action, Shown};

/// The most output (bytes, per stream) a report keeps; the rest is counted and said to be cut.
pub const MAX_OUTPUT: usize = 4000;

/// What one guard run concluded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum GuardStatus {
    /// Exited 0.
    Passed,
    /// Exited non-zero (or was killed by a signal: `code` is then absent).
    Failed {
        /// Exit code.
        code: Option<i32>,
    },
    /// Did not finish in time and was killed.
    TimedOut {
        /// The timeout, in seconds.
        after_secs: u64,
    },
    /// Could not be started.
    CannotStart {
        /// The operating system's error.
        error: String,
    },
    /// Skipped by `WARD_BYPASS_GUARD_<NAME>`.
    Bypassed {
        /// The variable.
        variable: String,
        /// Its value: the reason given.
        reason: String,
    },
}

impl GuardStatus {
    /// True when this outcome blocks the gate.
    pub fn blocks(&self) -> bool {
        !matches!(self, GuardStatus::Passed | GuardStatus::Bypassed { .. })
    }
}

/// One guard run against one change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GuardRun {
    /// The guard's name.
    pub guard: String,
    /// The change's address.
    pub address: String,
    /// The change's action, Terraform spelling.
    pub action: String,
    /// The command, as configured.
    pub command: Vec<String>,
    /// What happened.
    #[serde(flatten)]
    pub status: GuardStatus,
    /// Standard output (trimmed to [`MAX_OUTPUT`] bytes, see `output_cut`).
    pub stdout: String,
    /// Standard error (same limit).
    pub stderr: String,
    /// Bytes left out of stdout and stderr, when the output was longer than the limit.
    pub output_cut: usize,
    /// How long it ran, in milliseconds (kept out of every rendering, JSON included, so the
    /// same inputs give the same bytes).
    #[serde(skip)]
    pub millis: u64,
    /// A note for an empty bypass variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// True when `guard` watches this change.
pub fn applies(guard: &Guard, v: &Verdict) -> bool {
    let on = match v.action {
        Action::Delete => GuardOn::Delete,
        a if a.is_replace() => GuardOn::Replace,
        _ => return false,
    };
    guard.on.contains(&on)
        && (guard.types.iter().any(|t| **t == *v.type_name)
            || guard
                .addresses
                .iter()
                .any(|p| ward_model::pattern::address_matches(p, &v.address)))
}

/// Top-level attributes of each object before its change, by (address, deposed key): the values
/// guards see as `WARD_ATTR_<NAME>`.
pub type ObjectAttrs = BTreeMap<(String, Option<String>), BTreeMap<String, String>>;

/// `WARD_ATTR_<NAME>` for an attribute path or name.
pub fn attr_var(path: &str) -> String {
    let name: String = path
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("WARD_ATTR_{name}")
}

fn is_marked(mask: Option<&serde_json::Value>) -> bool {
    use serde_json::Value;
    match mask {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::Array(a)) => a.iter().any(|x| is_marked(Some(x))),
        Some(Value::Object(m)) => m.values().any(|x| is_marked(Some(x))),
        Some(_) => true,
    }
}

/// Reads the top-level `change.before` attributes of every resource change from raw plan JSON,
/// leaving out nulls and anything `before_sensitive` marks (wholly or in part).
pub fn object_attributes(raw: &serde_json::Value) -> ObjectAttrs {
    use serde_json::Value;
    let mut out = ObjectAttrs::new();
    let Some(changes) = raw.get("resource_changes").and_then(Value::as_array) else {
        return out;
    };
    for rc in changes {
        let Some(address) = rc.get("address").and_then(Value::as_str) else {
            continue;
        };
        let deposed = rc
            .get("deposed")
            .and_then(Value::as_str)
            .map(str::to_string);
        let change = rc.get("change");
        let before = change
            .and_then(|c| c.get("before"))
            .and_then(Value::as_object);
        let mask = change.and_then(|c| c.get("before_sensitive"));
        if mask == Some(&Value::Bool(true)) {
            continue;
        }
        let mut attrs = BTreeMap::new();
        for (k, v) in before.into_iter().flatten() {
            if v.is_null() || is_marked(mask.and_then(|m| m.get(k))) {
                continue;
            }
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            attrs.insert(attr_var(k), text);
        }
        out.insert((address.to_string(), deposed), attrs);
    }
    out
}

/// The environment a guard sees for a change (besides the inherited one). `object` holds the
/// object's top-level attributes before the change (see [`object_attributes`]).
pub fn guard_env(
    guard: &Guard,
    v: &Verdict,
    now: &str,
    object: Option<&BTreeMap<String, String>>,
) -> Vec<(String, String)> {
    let mut env = vec![
        ("TZ".to_string(), "UTC".to_string()),
        ("WARD_GUARD".to_string(), guard.name.clone()),
        ("WARD_ADDRESS".to_string(), v.address.clone()),
        ("WARD_TYPE".to_string(), v.type_name.to_string()),
        (
            "WARD_ACTION".to_string(),
            v.action.as_terraform().to_string(),
        ),
        ("WARD_IMPACT".to_string(), v.impact.as_str().to_string()),
        ("WARD_NOW".to_string(), now.to_string()),
    ];
    if let Some(d) = &v.deposed {
        env.push(("WARD_DEPOSED".to_string(), d.clone()));
    }
    let mut attrs: BTreeMap<String, String> = object.cloned().unwrap_or_default();
    for a in &v.attributes {
        let value = match (&a.change.before, &a.change.after) {
            (Shown::Known(b), _) => Some(b),
            (Shown::Absent, Shown::Known(x)) => Some(x),
            _ => None,
        };
        let name = attr_var(&a.change.path.to_string());
        match value {
            Some(serde_json::Value::String(s)) => {
                attrs.insert(name, s.clone());
            }
            Some(other) => {
                attrs.insert(name, other.to_string());
            }
            // Sensitive (or unknown) in the model: never pass what the object map may hold.
            None => {
                attrs.remove(&name);
            }
        }
    }
    env.extend(attrs);
    env
}

/// Runs `guard` for change `v`, honouring its bypass variable as read by `lookup`.
pub fn run_guard(
    guard: &Guard,
    v: &Verdict,
    now: &str,
    object: Option<&BTreeMap<String, String>>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> GuardRun {
    let mut run = GuardRun {
        guard: guard.name.clone(),
        address: v.address.clone(),
        action: v.action.as_terraform().to_string(),
        command: guard.command.clone(),
        status: GuardStatus::Passed,
        stdout: String::new(),
        stderr: String::new(),
        output_cut: 0,
        millis: 0,
        note: None,
    };
    let var = guard.bypass_var();
    match lookup(&var) {
        Some(reason) if !reason.trim().is_empty() => {
            run.status = GuardStatus::Bypassed {
                variable: var,
                reason: reason.trim().to_string(),
            };
            return run;
        }
        Some(_) => {
            run.note = Some(format!(
                "{var} is set but empty: a bypass needs a reason, so the guard ran"
            ));
        }
        None => {}
    }
    let Some((program, args)) = guard.command.split_first() else {
        run.status = GuardStatus::CannotStart {
            error: "empty command".into(),
        };
        return run;
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if !guard.dir.as_os_str().is_empty() {
        cmd.current_dir(&guard.dir);
    }
    for (k, val) in guard_env(guard, v, now, object) {
        cmd.env(k, val);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            run.status = GuardStatus::CannotStart {
                error: format!("{program}: {e}"),
            };
            return run;
        }
    };
    let out_rx = spawn_reader(child.stdout.take());
    let err_rx = spawn_reader(child.stderr.take());
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) => {}
            Err(_) => break None,
        }
        if start.elapsed() >= guard.timeout {
            kill_group(&mut child);
            let _ = child.wait();
            run.status = GuardStatus::TimedOut {
                after_secs: guard.timeout.as_secs(),
            };
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if run.status == GuardStatus::Passed {
        run.status = match status {
            Some(st) if st.success() => GuardStatus::Passed,
            Some(st) => GuardStatus::Failed { code: st.code() },
            None => GuardStatus::Failed { code: None },
        };
    }
    // The command is done; children it left behind in its group are killed so the pipes close.
    kill_group(&mut child);
    let (out, cut_o) = collect(out_rx);
    let (err, cut_e) = collect(err_rx);
    run.stdout = out;
    run.stderr = err;
    run.output_cut = cut_o + cut_e;
    run.millis = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    run
}

fn spawn_reader<R: Read + Send + 'static>(r: Option<R>) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    if let Some(mut r) = r {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            let _ = tx.send(buf);
        });
    }
    rx
}

fn collect(rx: mpsc::Receiver<Vec<u8>>) -> (String, usize) {
    let buf = rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default();
    let cut = buf.len().saturating_sub(MAX_OUTPUT);
    let keep = &buf[..buf.len().min(MAX_OUTPUT)];
    (String::from_utf8_lossy(keep).trim_end().to_string(), cut)
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{killpg, Signal};
        use nix::unistd::Pid;
        if let Ok(pid) = i32::try_from(child.id()) {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    fn guard(cmd: &[&str], timeout: u64) -> Guard {
        Guard {
            name: "builds-idle".into(),
            addresses: vec![],
            types: vec!["fakecloud_instance".into()],
            on: BTreeSet::from([GuardOn::Delete, GuardOn::Replace]),
            command: cmd.iter().map(|s| s.to_string()).collect(),
            timeout: Duration::from_secs(timeout),
            dir: PathBuf::new(),
        }
    }

    fn run_guard_t(
        g: &Guard,
        v: &Verdict,
        now: &str,
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> GuardRun {
        run_guard(g, v, now, None, lookup)
    }

    #[test]
    fn object_attributes_leave_out_sensitive_values() {
        let raw = serde_json::json!({"resource_changes": [
            {"address": "a.b", "change": {
                "before": {"name": "ci", "size": 3, "password": "x", "tags": {"k": "v"}, "nested": {"s": "y"}, "gone": null},
                "before_sensitive": {"password": true, "nested": {"s": true}, "tags": {}}
            }},
            {"address": "c.d", "deposed": "00ab", "change": {"before": {"x": "1"}, "before_sensitive": true}}
        ]});
        let m = object_attributes(&raw);
        let ab = &m[&("a.b".to_string(), None)];
        assert_eq!(ab.get("WARD_ATTR_NAME").map(String::as_str), Some("ci"));
        assert_eq!(ab.get("WARD_ATTR_SIZE").map(String::as_str), Some("3"));
        assert_eq!(
            ab.get("WARD_ATTR_TAGS").map(String::as_str),
            Some("{\"k\":\"v\"}")
        );
        assert!(!ab.contains_key("WARD_ATTR_PASSWORD"));
        assert!(!ab.contains_key("WARD_ATTR_NESTED"));
        assert!(!ab.contains_key("WARD_ATTR_GONE"));
        assert!(!m.contains_key(&("c.d".to_string(), Some("00ab".to_string()))));
    }

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn outcomes() {
        let v = crate::testutil::verdict(
            "fakecloud_instance.web",
            Action::Delete,
            ward_model::Impact::Replace,
        );
        let r = run_guard_t(
            &guard(&["sh", "-c", "echo \"$WARD_ADDRESS $WARD_ACTION $TZ\""], 5),
            &v,
            "now",
            &none,
        );
        assert_eq!(r.status, GuardStatus::Passed);
        assert_eq!(r.stdout, "fakecloud_instance.web delete UTC");
        let r = run_guard_t(
            &guard(&["sh", "-c", "echo busy >&2; exit 3"], 5),
            &v,
            "now",
            &none,
        );
        assert_eq!(r.status, GuardStatus::Failed { code: Some(3) });
        assert_eq!(r.stderr, "busy");
        let t = Instant::now();
        let r = run_guard_t(
            &guard(&["sh", "-c", "sleep 30 & sleep 30"], 1),
            &v,
            "now",
            &none,
        );
        assert_eq!(r.status, GuardStatus::TimedOut { after_secs: 1 });
        assert!(t.elapsed() < Duration::from_secs(10));
        let r = run_guard_t(&guard(&["/nonexistent/ward-guard"], 5), &v, "now", &none);
        assert!(matches!(r.status, GuardStatus::CannotStart { .. }));
        let r = run_guard_t(&guard(&["false"], 5), &v, "now", &|k: &str| {
            (k == "WARD_BYPASS_GUARD_BUILDS_IDLE").then(|| "build farm drained".to_string())
        });
        assert!(
            matches!(r.status, GuardStatus::Bypassed { ref reason, .. } if reason == "build farm drained")
        );
        let r = run_guard_t(&guard(&["false"], 5), &v, "now", &|_: &str| {
            Some(String::new())
        });
        assert!(r.status.blocks());
        assert!(r.note.is_some());
        let r = run_guard_t(
            &guard(&["sh", "-c", "head -c 10000 /dev/zero | tr '\\0' x"], 5),
            &v,
            "now",
            &none,
        );
        assert_eq!(r.output_cut, 6000);
    }

    #[test]
    fn applies_to_destroys_only() {
        let g = guard(&["true"], 1);
        let del = crate::testutil::verdict(
            "fakecloud_instance.a",
            Action::Delete,
            ward_model::Impact::Replace,
        );
        let upd = crate::testutil::verdict(
            "fakecloud_instance.a",
            Action::Update,
            ward_model::Impact::InPlace,
        );
        let other = crate::testutil::verdict(
            "fakecloud_volume.a",
            Action::Delete,
            ward_model::Impact::Replace,
        );
        assert!(applies(&g, &del));
        assert!(!applies(&g, &upd));
        assert!(!applies(&g, &other));
    }
}
