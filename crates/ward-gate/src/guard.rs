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
//! Of ward's own environment a guard inherits only [`ward_exec::BASE_ALLOW_LIST`] (`PATH`, `HOME`,
//! `LANG`...) and the names (or `PREFIX*` patterns) listed in `WARD_GUARD_ENV`, separated by commas
//! or spaces; never `WARD_APPROVAL_KEY`, whatever the list says. It runs through [`ward_exec`]: it
//! is killed with its whole process group when the timeout passes, and its output is read as a
//! stream, keeping [`MAX_OUTPUT`] bytes of each stream and counting the rest. A guard that exits
//! non-zero, times out or cannot start blocks the gate. `WARD_BYPASS_GUARD_<NAME>=<reason>` skips
//! it; the report says so and gives the reason (an empty reason does not bypass).

use crate::policy::{Guard, GuardOn};
use serde::Serialize;
use std::collections::BTreeMap;
use ward_classify::Verdict;
use ward_model::{Action, Shown};

/// The most output (bytes, per stream) a report keeps; the rest is counted and said to be cut.
pub const MAX_OUTPUT: usize = 4000;

/// Names (or `PREFIX*` patterns), separated by commas or spaces, of variables guards may inherit
/// besides [`ward_exec::BASE_ALLOW_LIST`].
pub const ENV_VAR: &str = "WARD_GUARD_ENV";

/// What a guard may inherit: [`ward_exec::BASE_ALLOW_LIST`] and `WARD_GUARD_ENV`, without any
/// pattern that would let the approval key through.
pub fn inherited_names(lookup: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let extra = lookup(ENV_VAR).unwrap_or_default();
    ward_exec::BASE_ALLOW_LIST
        .iter()
        .map(|s| s.to_string())
        .chain(
            extra
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        )
        .filter(|p| !ward_exec::name_matches(p, crate::approvals::KEY_VAR))
        .collect()
}

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

    /// Its name, as the JSON report's `status` spells it: `passed`, `failed`, `timed-out`,
    /// `cannot-start`, `bypassed`.
    pub fn name(&self) -> &'static str {
        match self {
            GuardStatus::Passed => "passed",
            GuardStatus::Failed { .. } => "failed",
            GuardStatus::TimedOut { .. } => "timed-out",
            GuardStatus::CannotStart { .. } => "cannot-start",
            GuardStatus::Bypassed { .. } => "bypassed",
        }
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
    ward_config::policy::guard_var("WARD_ATTR_", path)
}

/// The guards' view of the objects the plan destroys, as ward-plan read them (sensitive values
/// already left out): `WARD_ATTR_<NAME>` to the value, strings raw and anything else as JSON.
pub fn object_attributes(objects: &ward_plan::BeforeObjects) -> ObjectAttrs {
    objects
        .iter()
        .map(|(key, attrs)| {
            let vars = attrs
                .iter()
                .map(|(k, v)| {
                    let text = match v {
                        serde_json::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (attr_var(k), text)
                })
                .collect();
            (key.clone(), vars)
        })
        .collect()
}

/// The environment a guard sees for a change (besides what it inherits). `object` holds the
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
    run_guard_with(
        guard,
        &v.address,
        v.action.as_terraform(),
        guard_env(guard, v, now, object),
        lookup,
    )
}

/// Runs `guard` under the guard rules (bypass variable, inherited environment, timeout, output
/// bounds) with `env` as what it is told: [`run_guard`] for one change of a plan, and ward
/// stack's `pre_destroy` commands for a whole root (`address` then names the root).
pub fn run_guard_with(
    guard: &Guard,
    address: &str,
    action: &str,
    env: Vec<(String, String)>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> GuardRun {
    let mut run = GuardRun {
        guard: guard.name.clone(),
        address: address.to_string(),
        action: action.to_string(),
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
    let mut cmd = ward_exec::Command::new(program, guard.timeout)
        .args(args)
        .env_allow_list(inherited_names(lookup))
        .envs(env)
        .output_cap(MAX_OUTPUT as u64);
    if !guard.dir.as_os_str().is_empty() {
        cmd = cmd.current_dir(&guard.dir);
    }
    let out = match cmd.run() {
        Ok(o) => {
            run.status = if o.success() {
                GuardStatus::Passed
            } else {
                GuardStatus::Failed { code: o.code }
            };
            o
        }
        Err(ward_exec::ExecError::TimedOut { output, .. }) => {
            run.status = GuardStatus::TimedOut {
                after_secs: guard.timeout.as_secs(),
            };
            *output
        }
        Err(e) => {
            run.status = GuardStatus::CannotStart {
                error: e.to_string(),
            };
            return run;
        }
    };
    run.stdout = out.stdout_text().trim_end().to_string();
    run.stderr = out.stderr_text().trim_end().to_string();
    run.output_cut = usize::try_from(out.stdout_cut + out.stderr_cut).unwrap_or(usize::MAX);
    run.millis = u64::try_from(out.elapsed.as_millis()).unwrap_or(u64::MAX);
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

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
        let raw = serde_json::json!({"format_version": "1.2", "resource_changes": [
            {"address": "a.b", "type": "a", "change": {"actions": ["delete"],
                "before": {"name": "ci", "size": 3, "password": "x", "tags": {"k": "v"}, "nested": {"s": "y"}, "gone": null},
                "before_sensitive": {"password": true, "nested": {"s": true}, "tags": {}}
            }},
            {"address": "c.d", "type": "c", "deposed": "00ab", "change": {"actions": ["delete"], "before": {"x": "1"}, "before_sensitive": true}}
        ]});
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("plan.json");
        std::fs::write(&f, raw.to_string()).unwrap();
        let (_, objects) = ward_plan::read_path_or_stdin_with_objects(f.to_str().unwrap()).unwrap();
        let m = object_attributes(&objects);
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
        assert!(m[&("c.d".to_string(), Some("00ab".to_string()))].is_empty());
    }

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn outcomes() {
        let v = crate::testkit::verdict(
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
    fn guards_inherit_the_base_list_and_ward_guard_env_never_the_key() {
        let names = inherited_names(&|k: &str| {
            (k == ENV_VAR).then(|| "AWS_*, KUBECONFIG WARD_* WARD_APPROVAL_KEY".to_string())
        });
        assert!(names.iter().any(|n| n == "PATH"));
        assert!(names.iter().any(|n| n == "AWS_*"));
        assert!(names.iter().any(|n| n == "KUBECONFIG"));
        assert!(!names.iter().any(|n| n.starts_with("WARD_")), "{names:?}");
        assert_eq!(
            inherited_names(&|_: &str| None).len(),
            ward_exec::BASE_ALLOW_LIST.len()
        );
    }

    #[test]
    fn applies_to_destroys_only() {
        let g = guard(&["true"], 1);
        let del = crate::testkit::verdict(
            "fakecloud_instance.a",
            Action::Delete,
            ward_model::Impact::Replace,
        );
        let upd = crate::testkit::verdict(
            "fakecloud_instance.a",
            Action::Update,
            ward_model::Impact::InPlace,
        );
        let other = crate::testkit::verdict(
            "fakecloud_volume.a",
            Action::Delete,
            ward_model::Impact::Replace,
        );
        assert!(applies(&g, &del));
        assert!(!applies(&g, &upd));
        assert!(!applies(&g, &other));
    }
}
