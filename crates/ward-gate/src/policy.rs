//! The gate's configuration in `ward.hcl`: the `policy { }` block and `guard "name" { }` blocks.
//!
//! `resource` blocks and the other top-level blocks belong to other ward commands and are skipped
//! here (ward-rules validates the file as a whole). See `docs/gate.md` for the format.

use crate::duration::parse_duration;
use crate::error::GateError;
use hcl::{Body, Expression};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_model::Impact;

/// The default guard timeout.
pub const DEFAULT_GUARD_TIMEOUT: Duration = Duration::from_secs(60);

/// Default approvals file, relative to the directory of `ward.hcl`.
pub const DEFAULT_APPROVALS: &str = ".ward/approvals.json";

/// Default protection record, relative to the directory of `ward.hcl`.
pub const DEFAULT_PROTECTION_RECORD: &str = ".ward/protection.json";

/// What the gate enforces.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Policy {
    /// Impact classes whose every change needs its own approval (default: `data-loss`).
    pub approve: BTreeSet<Impact>,
    /// Every destroy or replacement of an object that holds data needs an approval, whatever
    /// its class (default: true).
    pub approve_destroy_of_data: bool,
    /// Address patterns (`*` wildcard) that are protected: every destroy or replacement of a
    /// matching address needs an approval.
    pub protect: Vec<String>,
    /// Budgets: at most N replacements or deletions per plan.
    pub budgets: Budgets,
    /// Refuse approvals that are not signed with `WARD_APPROVAL_KEY`.
    pub require_signed_approvals: bool,
    /// The approvals file (absolute, or relative to the current directory).
    pub approvals_file: PathBuf,
    /// The protection record (absolute, or relative to the current directory).
    pub protection_record: PathBuf,
    /// Liveness guards, in file order.
    pub guards: Vec<Guard>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy::defaults_in(Path::new(""))
    }
}

impl Policy {
    /// The default policy with its files placed under `dir` (the directory of `ward.hcl`).
    pub fn defaults_in(dir: &Path) -> Self {
        Policy {
            approve: BTreeSet::from([Impact::DataLoss]),
            approve_destroy_of_data: true,
            protect: Vec::new(),
            budgets: Budgets::default(),
            require_signed_approvals: false,
            approvals_file: dir.join(DEFAULT_APPROVALS),
            protection_record: dir.join(DEFAULT_PROTECTION_RECORD),
            guards: Vec::new(),
        }
    }
}

/// Limits on how many objects one plan may replace or delete.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Budgets {
    /// Limits over every resource in the plan.
    pub all: Budget,
    /// Limits per resource type.
    pub per_type: BTreeMap<String, Budget>,
}

/// One budget. `None` means unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// At most this many replacements (either order).
    pub max_replaces: Option<u64>,
    /// At most this many deletions.
    pub max_deletes: Option<u64>,
}

/// Which destroying actions a guard watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GuardOn {
    /// `delete` (and deposed-object deletions).
    Delete,
    /// Both orders of replacement.
    Replace,
}

/// A liveness guard: a command run before the gate passes a destroy or replacement of a
/// matching address.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Guard {
    /// The guard's name (letters, digits, `_`, `-`).
    pub name: String,
    /// Address patterns; the guard applies when any matches (or when `types` matches).
    pub addresses: Vec<String>,
    /// Resource types; the guard applies when any equals the change's type.
    pub types: Vec<String>,
    /// Which actions it watches (default both).
    pub on: BTreeSet<GuardOn>,
    /// The command, as an argument vector (no shell unless you call one).
    pub command: Vec<String>,
    /// Kill the command (and its process group) after this long; a timeout blocks.
    pub timeout: Duration,
    /// Working directory for the command (the directory of `ward.hcl`).
    pub dir: PathBuf,
}

impl Guard {
    /// The environment variable that bypasses this guard: `WARD_BYPASS_GUARD_<NAME>`, the name
    /// upper-cased with `-` written as `_`.
    pub fn bypass_var(&self) -> String {
        bypass_var(&self.name)
    }
}

/// `WARD_BYPASS_GUARD_<NAME>` for a guard name.
pub fn bypass_var(name: &str) -> String {
    let n: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("WARD_BYPASS_GUARD_{n}")
}

/// Reads the gate policy from a `ward.hcl` file. Paths in it are resolved against the file's
/// directory.
pub fn load_policy(path: &Path) -> Result<Policy, GateError> {
    let text = std::fs::read_to_string(path).map_err(|e| GateError::Io {
        path: path.display().to_string(),
        action: "read the configuration",
        source: e,
    })?;
    let dir = path.parent().unwrap_or(Path::new(""));
    parse_policy(&text, &path.display().to_string(), dir)
}

/// Parses the gate policy from `ward.hcl` text; `name` is used in errors, `dir` anchors paths.
pub fn parse_policy(text: &str, name: &str, dir: &Path) -> Result<Policy, GateError> {
    let body = hcl::parse(text).map_err(|e| GateError::Config {
        file: name.to_string(),
        problem: format!("not valid HCL: {e}"),
    })?;
    let cfg = |problem: String| GateError::Config {
        file: name.to_string(),
        problem,
    };
    let mut policy = Policy::defaults_in(dir);
    let mut seen_policy = false;
    let mut guard_names = BTreeSet::new();
    for block in body.blocks() {
        match block.identifier() {
            "policy" => {
                if seen_policy {
                    return Err(cfg(
                        "more than one `policy` block: merge them into one".into()
                    ));
                }
                seen_policy = true;
                if !block.labels().is_empty() {
                    return Err(cfg("the `policy` block takes no label".into()));
                }
                read_policy_block(block.body(), dir, &mut policy).map_err(cfg)?;
            }
            "guard" => {
                let labels = block.labels();
                if labels.len() != 1 {
                    return Err(cfg(
                        "a `guard` block needs exactly one label, its name: guard \"builds-idle\" { ... }"
                            .into(),
                    ));
                }
                let gname = labels[0].as_str().to_string();
                if gname.is_empty()
                    || !gname
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    return Err(cfg(format!(
                        "guard name `{gname}`: use only letters, digits, `_` and `-` (the name becomes part of an environment variable)"
                    )));
                }
                if !guard_names.insert(bypass_var(&gname)) {
                    return Err(cfg(format!(
                        "guard `{gname}` is declared twice (or two names map to the same bypass variable {})",
                        bypass_var(&gname)
                    )));
                }
                let g = read_guard_block(&gname, block.body(), dir)
                    .map_err(|p| cfg(format!("guard \"{gname}\": {p}")))?;
                policy.guards.push(g);
            }
            _ => {}
        }
    }
    Ok(policy)
}

fn read_policy_block(body: &Body, dir: &Path, p: &mut Policy) -> Result<(), String> {
    for attr in body.attributes() {
        let key = attr.key();
        let e = attr.expr();
        match key {
            "approve" => {
                let mut set = BTreeSet::new();
                for s in strings(e).map_err(|m| format!("policy.approve: {m}"))? {
                    let i: Impact = s.parse().map_err(|err| format!("policy.approve: {err}"))?;
                    set.insert(i);
                }
                p.approve = set;
            }
            "approve_destroy_of_data" => {
                p.approve_destroy_of_data =
                    boolean(e).map_err(|m| format!("policy.approve_destroy_of_data: {m}"))?;
            }
            "require_signed_approvals" => {
                p.require_signed_approvals =
                    boolean(e).map_err(|m| format!("policy.require_signed_approvals: {m}"))?;
            }
            "protect" => {
                p.protect = strings(e).map_err(|m| format!("policy.protect: {m}"))?;
                if p.protect.iter().any(String::is_empty) {
                    return Err("policy.protect: an empty pattern protects nothing; remove it".into());
                }
            }
            "approvals" => {
                p.approvals_file = dir.join(string(e).map_err(|m| format!("policy.approvals: {m}"))?);
            }
            "protection_record" => {
                p.protection_record =
                    dir.join(string(e).map_err(|m| format!("policy.protection_record: {m}"))?);
            }
            other => {
                return Err(format!(
                    "unknown attribute `policy.{other}`: expected approve, approve_destroy_of_data, protect, approvals, protection_record, require_signed_approvals (see docs/gate.md)"
                ))
            }
        }
    }
    for block in body.blocks() {
        match block.identifier() {
            "budget" => {
                let b = read_budget(block.body())?;
                match block.labels() {
                    [] => p.budgets.all = b,
                    [t] => {
                        if p.budgets.per_type.insert(t.as_str().to_string(), b).is_some() {
                            return Err(format!("budget \"{}\" is declared twice", t.as_str()));
                        }
                    }
                    _ => {
                        return Err(
                            "a `budget` block takes at most one label, a resource type".into()
                        )
                    }
                }
            }
            other => {
                return Err(format!(
                    "unknown block `policy.{other}`: expected `budget` or `budget \"TYPE\"` (see docs/gate.md)"
                ))
            }
        }
    }
    Ok(())
}

fn read_budget(body: &Body) -> Result<Budget, String> {
    let mut b = Budget::default();
    for attr in body.attributes() {
        let v = match attr.expr() {
            Expression::Number(n) => n.as_u64(),
            _ => None,
        }
        .ok_or_else(|| format!("budget.{} must be a whole number ≥ 0", attr.key()))?;
        match attr.key() {
            "max_replaces" => b.max_replaces = Some(v),
            "max_deletes" => b.max_deletes = Some(v),
            other => {
                return Err(format!(
                    "unknown attribute `budget.{other}`: expected max_replaces or max_deletes"
                ))
            }
        }
    }
    if body.blocks().next().is_some() {
        return Err("a `budget` block holds only max_replaces and max_deletes".into());
    }
    Ok(b)
}

fn read_guard_block(name: &str, body: &Body, dir: &Path) -> Result<Guard, String> {
    let mut g = Guard {
        name: name.to_string(),
        addresses: Vec::new(),
        types: Vec::new(),
        on: BTreeSet::from([GuardOn::Delete, GuardOn::Replace]),
        command: Vec::new(),
        timeout: DEFAULT_GUARD_TIMEOUT,
        dir: dir.to_path_buf(),
    };
    for attr in body.attributes() {
        let e = attr.expr();
        match attr.key() {
            "addresses" => g.addresses = strings(e).map_err(|m| format!("addresses: {m}"))?,
            "types" => g.types = strings(e).map_err(|m| format!("types: {m}"))?,
            "actions" => {
                let mut on = BTreeSet::new();
                for s in strings(e).map_err(|m| format!("actions: {m}"))? {
                    on.insert(match s.as_str() {
                        "delete" => GuardOn::Delete,
                        "replace" => GuardOn::Replace,
                        other => {
                            return Err(format!(
                                "actions: unknown action `{other}`: expected \"delete\" and/or \"replace\""
                            ))
                        }
                    });
                }
                if on.is_empty() {
                    return Err("actions: empty: the guard would never run; remove the guard or list \"delete\"/\"replace\"".into());
                }
                g.on = on;
            }
            "command" => g.command = strings(e).map_err(|m| format!("command: {m}"))?,
            "timeout" => {
                let t = string(e).map_err(|m| format!("timeout: {m}"))?;
                g.timeout = parse_duration(&t).map_err(|m| format!("timeout: {m}"))?;
                if g.timeout.is_zero() {
                    return Err("timeout: must be longer than 0s".into());
                }
            }
            other => {
                return Err(format!(
                "unknown attribute `{other}`: expected addresses, types, actions, command, timeout"
            ))
            }
        }
    }
    if g.command.is_empty() || g.command[0].is_empty() {
        return Err(
            "`command` is required: a list, program first, e.g. [\"sh\", \"-c\", \"...\"]".into(),
        );
    }
    if g.addresses.is_empty() && g.types.is_empty() {
        return Err(
            "give `addresses` (patterns) or `types` (or both): a guard must say what it watches"
                .into(),
        );
    }
    Ok(g)
}

fn string(e: &Expression) -> Result<String, String> {
    match e {
        Expression::String(s) => Ok(s.clone()),
        _ => Err("expected a plain string (no interpolation)".into()),
    }
}

fn boolean(e: &Expression) -> Result<bool, String> {
    match e {
        Expression::Bool(b) => Ok(*b),
        _ => Err("expected true or false".into()),
    }
}

fn strings(e: &Expression) -> Result<Vec<String>, String> {
    match e {
        Expression::Array(items) => items.iter().map(string).collect(),
        _ => Err("expected a list of plain strings, e.g. [\"a\", \"b\"]".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_when_absent() {
        let p = parse_policy("resource \"x\" {}\n", "ward.hcl", Path::new("/r")).unwrap();
        assert_eq!(p.approve, BTreeSet::from([Impact::DataLoss]));
        assert!(p.approve_destroy_of_data);
        assert_eq!(p.approvals_file, Path::new("/r/.ward/approvals.json"));
        assert!(p.guards.is_empty());
    }

    #[test]
    fn full_policy() {
        let text = r#"
policy {
  approve = ["data-loss", "replace"]
  approve_destroy_of_data = false
  protect = ["module.ledger.*"]
  approvals = "ci/approvals.json"
  require_signed_approvals = true
  budget { max_replaces = 3 }
  budget "fakecloud_volume" {
    max_replaces = 1
    max_deletes = 0
  }
}
guard "builds-idle" {
  types   = ["fakecloud_instance"]
  actions = ["delete"]
  command = ["sh", "-c", "exit 0"]
  timeout = "5s"
}
"#;
        let p = parse_policy(text, "ward.hcl", Path::new("d")).unwrap();
        assert_eq!(
            p.approve,
            BTreeSet::from([Impact::DataLoss, Impact::Replace])
        );
        assert!(!p.approve_destroy_of_data);
        assert!(p.require_signed_approvals);
        assert_eq!(p.approvals_file, Path::new("d/ci/approvals.json"));
        assert_eq!(p.budgets.all.max_replaces, Some(3));
        assert_eq!(p.budgets.per_type["fakecloud_volume"].max_deletes, Some(0));
        assert_eq!(p.guards.len(), 1);
        assert_eq!(p.guards[0].bypass_var(), "WARD_BYPASS_GUARD_BUILDS_IDLE");
        assert_eq!(p.guards[0].timeout, Duration::from_secs(5));
        assert_eq!(p.guards[0].on, BTreeSet::from([GuardOn::Delete]));
    }

    #[test]
    fn refusals() {
        for (text, needle) in [
            ("policy {\n approve = [\"lots\"]\n}", "unknown impact class"),
            ("policy {\n colour = true\n}", "unknown attribute `policy.colour`"),
            ("policy {}\npolicy {}", "more than one"),
            ("policy {\n budget { max_deletes = -1 }\n}", "whole number"),
            ("guard \"a b\" {\n command = [\"x\"]\n types = [\"t\"]\n}", "guard name"),
            ("guard \"g\" {\n types = [\"t\"]\n}", "`command` is required"),
            ("guard \"g\" {\n command = [\"x\"]\n}", "addresses"),
            ("guard \"g\" {\n command = [\"x\"]\n types = [\"t\"]\n timeout = \"soon\"\n}", "invalid duration"),
            ("guard \"g\" {\n command = [\"x\"]\n types=[\"t\"]\n}\nguard \"g\" {\n command = [\"x\"]\n types=[\"t\"]\n}", "twice"),
            ("policy {", "not valid HCL"),
        ] {
            let err = parse_policy(text, "ward.hcl", Path::new("")).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }
}
