//! The gate's sections: `policy { }` and `guard "NAME" { }` (format in `docs/gate.md`).

use crate::error::ConfigError;
use crate::read::{confined_rel, Schema};
use hcl_edit::structure::{Attribute, Block};
use hcl_edit::Span;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_hcl::Reader;
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
    /// Every create, update or replacement of a type that overwrites state outside this root
    /// (an `overwrites` rule: an organization's IAM policy, a default security group) needs an
    /// approval, whatever its class (default: true).
    pub approve_overwrites: bool,
    /// Address patterns ([`ward_model::pattern`]) that are protected: every destroy or
    /// replacement of a matching address needs an approval.
    pub protect: Vec<String>,
    /// Budgets: at most N replacements or deletions per plan.
    pub budgets: Budgets,
    /// Refuse approvals that are not signed with `WARD_APPROVAL_KEY`.
    pub require_signed_approvals: bool,
    /// The approvals file (the directory of `ward.hcl` joined with a path inside it).
    pub approvals_file: PathBuf,
    /// The protection record (the directory of `ward.hcl` joined with a path inside it).
    pub protection_record: PathBuf,
    /// Liveness guards, in file order.
    pub guards: Vec<Guard>,
    /// How long an approval lasts when `ward approve` is given no `--expires`
    /// (`approval_expiry`, default [`DEFAULT_APPROVAL_EXPIRY`]); `None`: `"never"`.
    pub approval_expiry: Option<std::time::Duration>,
    /// The `reviewers` block: who may approve what through pull-request reviews.
    pub reviewers: crate::review::Reviewers,
}

/// The default of `policy.approval_expiry`: seven days.
pub const DEFAULT_APPROVAL_EXPIRY: std::time::Duration = std::time::Duration::from_secs(7 * 86_400);

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
            approve_overwrites: true,
            protect: Vec::new(),
            budgets: Budgets::default(),
            require_signed_approvals: false,
            approvals_file: dir.join(DEFAULT_APPROVALS),
            protection_record: dir.join(DEFAULT_PROTECTION_RECORD),
            guards: Vec::new(),
            approval_expiry: Some(DEFAULT_APPROVAL_EXPIRY),
            reviewers: crate::review::Reviewers::default(),
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
    guard_var("WARD_BYPASS_GUARD_", name)
}

/// The one spelling of a guard's environment variable names: `prefix` then `name` upper-cased,
/// with every character that is not an ASCII letter or digit written as `_`
/// (`WARD_BYPASS_GUARD_<NAME>` here, `WARD_ATTR_<PATH>` for the attributes guards are given).
pub fn guard_var(prefix: &str, name: &str) -> String {
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
    format!("{prefix}{n}")
}

/// The `policy`, `budget` and `guard` blocks' schemas (suggestions elsewhere).
pub(crate) const SCHEMAS: &[Schema] = &[
    Schema {
        place: "`policy { }`",
        keys: POLICY_KEYS,
        blocks: POLICY_BLOCKS,
    },
    Schema {
        place: "`policy { budget { } }`",
        keys: BUDGET_KEYS,
        blocks: &[],
    },
    Schema {
        place: "`guard \"NAME\" { }`",
        keys: GUARD_KEYS,
        blocks: &[],
    },
];
pub(crate) const POLICY_BLOCKS: &[&str] = &["budget"];
pub(crate) const BUDGET_KEYS: &[&str] = &["max_replaces", "max_deletes"];
pub(crate) const POLICY_KEYS: &[&str] = &[
    "approve",
    "approve_destroy_of_data",
    "approve_overwrites",
    "protect",
    "approvals",
    "protection_record",
    "require_signed_approvals",
    "approval_expiry",
];

/// A file the gate writes: a path inside the directory of `ward.hcl`.
fn confined_file(src: &Reader<'_>, a: &Attribute, dir: &Path) -> Result<PathBuf, ConfigError> {
    let raw = src.nonempty(a)?;
    let rel = confined_rel(&raw).filter(|r| r != ".").ok_or_else(|| {
        src.err(
            a.value.span(), format!("policy.{} = \"{raw}\" is outside the repository", a.key.as_str())).help("the gate writes this file: give a path relative to the directory of ward.hcl, without a leading `/` or `..` above it (e.g. \".ward/approvals.json\")")
    })?;
    Ok(dir.join(rel))
}

pub(crate) fn policy(
    src: &Reader<'_>,
    b: &Block,
    dir: &Path,
    p: &mut Policy,
) -> Result<(), ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`policy`", POLICY_KEYS, POLICY_BLOCKS)?;
    if let Some(a) = f.get("approve") {
        let mut set = BTreeSet::new();
        for (s, span) in src.strings(a)? {
            let i: Impact = s.parse().map_err(|e: ward_model::ParseImpactError| {
                let names: Vec<&str> = Impact::ALL.iter().map(|i| i.as_str()).collect();
                let help = match ward_hcl::did_you_mean(&s, &names) {
                    Some(k) => format!("did you mean \"{k}\"?"),
                    None => format!("use impact classes: {}", names.join(", ")),
                };
                src.err(span, format!("policy.approve: {e}")).help(help)
            })?;
            set.insert(i);
        }
        p.approve = set;
    }
    if let Some(a) = f.get("approve_destroy_of_data") {
        p.approve_destroy_of_data = src.boolean(a)?;
    }
    if let Some(a) = f.get("approve_overwrites") {
        p.approve_overwrites = src.boolean(a)?;
    }
    if let Some(a) = f.get("require_signed_approvals") {
        p.require_signed_approvals = src.boolean(a)?;
    }
    if let Some(a) = f.get("approval_expiry") {
        let t = src.string(a)?;
        p.approval_expiry = if t == "never" {
            None
        } else {
            let d = ward_time::parse_duration(&t).map_err(|m| {
                src.err(a.value.span(), format!("policy.approval_expiry: {m}"))
                    .help("e.g. `approval_expiry = \"7d\"`, or \"never\"")
            })?;
            if d.is_zero() {
                return Err(src
                    .err(
                        a.value.span(),
                        "policy.approval_expiry = \"0s\" would expire every approval at once",
                    )
                    .help("give a positive duration such as \"7d\", or \"never\"")
                    .into());
            }
            Some(d)
        };
    }
    if let Some(a) = f.get("protect") {
        p.protect = crate::read::patterns(src, a)?;
    }
    if let Some(a) = f.get("approvals") {
        p.approvals_file = confined_file(src, a, dir)?;
    }
    if let Some(a) = f.get("protection_record") {
        p.protection_record = confined_file(src, a, dir)?;
    }
    let mut seen_all = false;
    for nb in &f.blocks {
        let bf = src.fields(&nb.body, "`budget`", BUDGET_KEYS, &[])?;
        let budget = Budget {
            max_replaces: bf.get("max_replaces").map(|a| src.count(a)).transpose()?,
            max_deletes: bf.get("max_deletes").map(|a| src.count(a)).transpose()?,
        };
        match nb.labels.as_slice() {
            [] => {
                if seen_all {
                    return Err(src
                        .err(nb.ident.span(), "a second `budget` block without a type")
                        .help("merge them into one `budget { ... }`")
                        .into());
                }
                seen_all = true;
                p.budgets.all = budget;
            }
            [t] => {
                if p.budgets
                    .per_type
                    .insert(t.as_str().to_string(), budget)
                    .is_some()
                {
                    return Err(src
                        .err(
                            nb.ident.span(),
                            format!("budget \"{}\" is declared twice", t.as_str()),
                        )
                        .help("merge the two blocks")
                        .into());
                }
            }
            _ => {
                return Err(src
                    .err(
                        nb.ident.span(),
                        "a `budget` block takes at most one label, a resource type",
                    )
                    .help("write `budget { ... }` or `budget \"TYPE\" { ... }`")
                    .into())
            }
        }
    }
    Ok(())
}

pub(crate) const GUARD_KEYS: &[&str] = &["addresses", "types", "actions", "command", "timeout"];

pub(crate) fn guard(
    src: &Reader<'_>,
    b: &Block,
    dir: &Path,
    p: &Policy,
) -> Result<Guard, ConfigError> {
    let name = src.one_label(b, "its name", "guard \"builds-idle\" { ... }")?;
    let label_span = b.labels.first().and_then(|l| l.span());
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(src
            .err(
                label_span,
                format!(
                    "guard name `{name}` has characters other than letters, digits, `_` and `-`"
                ),
            )
            .help("rename it: the name becomes part of an environment variable")
            .into());
    }
    if p.guards.iter().any(|g| g.bypass_var() == bypass_var(&name)) {
        return Err(src.err(
            label_span, format!(
                "guard `{name}` is declared twice (or two names map to the same bypass variable {})",
                bypass_var(&name)
            )).help("give every guard its own name").into());
    }
    let place = format!("`guard \"{name}\"`");
    let f = src.fields(&b.body, &place, GUARD_KEYS, &[])?;
    let mut g = Guard {
        name: name.clone(),
        addresses: f
            .get("addresses")
            .map(|a| crate::read::patterns(src, a))
            .transpose()?
            .unwrap_or_default(),
        types: f
            .get("types")
            .map(|a| src.string_list(a))
            .transpose()?
            .unwrap_or_default(),
        on: BTreeSet::from([GuardOn::Delete, GuardOn::Replace]),
        command: f
            .get("command")
            .map(|a| src.string_list(a))
            .transpose()?
            .unwrap_or_default(),
        timeout: DEFAULT_GUARD_TIMEOUT,
        dir: dir.to_path_buf(),
    };
    if let Some(a) = f.get("actions") {
        let mut on = BTreeSet::new();
        for (s, span) in src.strings(a)? {
            on.insert(match s.as_str() {
                "delete" => GuardOn::Delete,
                "replace" => GuardOn::Replace,
                other => {
                    return Err(src
                        .err(span, format!("{place}: unknown action `{other}`"))
                        .help("list \"delete\" and/or \"replace\"")
                        .into())
                }
            });
        }
        if on.is_empty() {
            return Err(src
                .err(
                    a.value.span(),
                    format!("{place}: `actions` is empty: the guard would never run"),
                )
                .help("remove the guard or list \"delete\"/\"replace\"")
                .into());
        }
        g.on = on;
    }
    if let Some(a) = f.get("timeout") {
        let t = src.string(a)?;
        g.timeout = ward_time::parse_duration(&t).map_err(|m| {
            src.err(a.value.span(), format!("{place}: timeout: {m}"))
                .help("e.g. `timeout = \"30s\"`")
        })?;
        if g.timeout.is_zero() {
            return Err(src
                .err(
                    a.value.span(),
                    format!("{place}: timeout must be longer than 0s"),
                )
                .help("write e.g. `timeout = \"30s\"`")
                .into());
        }
    }
    if g.command.first().is_none_or(String::is_empty) {
        return Err(src
            .err(b.ident.span(), format!("{place}: `command` is required"))
            .help("give a list, program first, e.g. `command = [\"sh\", \"-c\", \"...\"]`")
            .into());
    }
    if g.addresses.is_empty() && g.types.is_empty() {
        return Err(src.err(
            b.ident.span(), format!("{place} watches nothing")).help("give `addresses` (patterns) or `types` (or both): a guard must say what it watches").into());
    }
    Ok(g)
}
