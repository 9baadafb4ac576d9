//! ward's normalized change model.
//!
//! Data flows one way through ward:
//!
//! ```text
//! plan JSON ──ward-plan──▶ ward_model::Plan ──ward-classify──▶ verdicts ──ward-report──▶ reports, exit codes
//! ```
//!
//! This crate is the middle of that pipeline: plain data, no I/O. Everything here is already
//! independent of the plan's `format_version` and of the product (Terraform or OpenTofu) that
//! wrote it. Names follow Terraform's own plan vocabulary (`resource_changes`, `action_reason`,
//! `replace_paths`, `previous_address`, `deposed`...).
//!
//! Invariant: no value in this model is marked sensitive in the plan. The reader replaces every
//! sensitive value with [`Shown::Sensitive`] before it builds a [`Plan`], so no later stage can
//! print one by accident.

pub mod exit;
mod impact;
mod path;
pub mod pattern;

pub use exit::Exit;

pub use impact::{Impact, ParseImpactError};
pub use path::{AttrPath, PathStep};

use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt;

/// A whole plan, normalized.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    /// The plan's `format_version`, as written.
    pub format_version: FormatVersion,
    /// `terraform_version` as written (OpenTofu writes its own version here too).
    pub terraform_version: Option<String>,
    /// Which product wrote the plan, as far as the plan tells.
    pub product: Product,
    /// Every entry of `resource_changes`, in the plan's order.
    pub changes: Vec<ResourceChange>,
    /// Every entry of `resource_drift`: changes made outside Terraform since the last apply.
    /// Kept as context; ward does not gate on it here (that is `ward drift`'s job).
    pub drift: Vec<ResourceChange>,
    /// Every entry of `output_changes`.
    pub output_changes: Vec<OutputChange>,
    /// Every resource type declared in `configuration`, across all module calls.
    pub configured_types: BTreeSet<TypeRef>,
    /// Every resource type found in `prior_state`, across all modules.
    pub state_types: BTreeSet<TypeRef>,
    /// `errored`: the plan is incomplete because planning failed (Terraform ≥ 1.5).
    pub errored: bool,
    /// `complete` = false: more plan/apply rounds are needed (deferred changes, Terraform ≥ 1.8).
    /// `None` when the plan does not say.
    pub complete: Option<bool>,
    /// What the reader noticed about the input that a report should mention, one sentence
    /// each: a missing `format_version`, an HCP Terraform redacted plan, a UTF-16 file that
    /// was decoded. Empty for an ordinary `show -json` plan.
    pub reader_notes: Vec<String>,
}

/// A plan's `format_version`, `MAJOR.MINOR`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FormatVersion {
    /// The major version: ward reads 0 and 1 and refuses anything else.
    pub major: u64,
    /// The minor version: additive changes only, so any minor is read.
    pub minor: u64,
}

impl fmt::Display for FormatVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The product that wrote a plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Product {
    /// HashiCorp Terraform.
    Terraform,
    /// OpenTofu (recognised by its provider registry host or its own keys).
    OpenTofu,
    /// The plan does not say.
    #[default]
    Unknown,
}

/// `mode` of a resource: managed (`resource`), data (`data`) or ephemeral (`ephemeral`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A `resource` block: an object Terraform creates, updates and destroys.
    Managed,
    /// A `data` block: read only, never changed by apply.
    Data,
    /// An `ephemeral` block (Terraform ≥ 1.10): never stored in state.
    Ephemeral,
}

/// A resource type together with the mode it is used in and its provider.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TypeRef {
    /// managed, data or ephemeral.
    pub mode: Mode,
    /// The resource type, e.g. `aws_instance`.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The provider address as the plan writes it, e.g.
    /// `registry.terraform.io/hashicorp/aws`; configuration blocks in old formats may only
    /// give a local name such as `aws`.
    pub provider: Option<String>,
}

/// What apply will do to one resource instance (Terraform's `change.actions`, normalized).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// `["no-op"]`: nothing.
    NoOp,
    /// `["create"]`.
    Create,
    /// `["read"]`: a data source read during apply.
    Read,
    /// `["update"]`: changed in place.
    Update,
    /// `["delete","create"]`: destroyed, then a new object created (the default replacement).
    ReplaceDeleteFirst,
    /// `["create","delete"]`: `create_before_destroy`: the new object exists before the old goes.
    ReplaceCreateFirst,
    /// `["delete"]`.
    Delete,
    /// `["forget"]` (Terraform ≥ 1.7 `removed { lifecycle { destroy = false } }`): the object is
    /// dropped from state and left running, unmanaged.
    Forget,
    /// `["create","forget"]`: created, and its previous object forgotten.
    CreateThenForget,
    /// `["open"]`: an ephemeral resource opened during plan or apply.
    Open,
}

impl Action {
    /// Every action, in declaration order.
    pub const ALL: [Action; 10] = [
        Action::NoOp,
        Action::Create,
        Action::Read,
        Action::Update,
        Action::ReplaceDeleteFirst,
        Action::ReplaceCreateFirst,
        Action::Delete,
        Action::Forget,
        Action::CreateThenForget,
        Action::Open,
    ];

    /// Every word of the `actions` lists [`Action::from_actions`] knows: a list with any other
    /// word names no action.
    pub const WORDS: [&'static str; 7] = [
        "no-op", "create", "read", "update", "delete", "forget", "open",
    ];

    /// The word of [`Action::WORDS`] that `s` is, borrowed for as long as the program runs
    /// (a reader keeps it without copying `s`).
    pub fn word(s: &str) -> Option<&'static str> {
        Action::WORDS.iter().find(|w| **w == s).copied()
    }

    /// Parses Terraform's `actions` array. Returns `None` for any list ward does not know:
    /// callers must fail closed on it.
    pub fn from_actions<S: AsRef<str>>(actions: &[S]) -> Option<Action> {
        // Without collecting: the reader calls this for every entry.
        let v: (&str, Option<&str>) = match actions {
            [one] => (one.as_ref(), None),
            [first, second] => (first.as_ref(), Some(second.as_ref())),
            _ => return None,
        };
        Some(match v {
            ("no-op", None) => Action::NoOp,
            ("create", None) => Action::Create,
            ("read", None) => Action::Read,
            ("update", None) => Action::Update,
            ("delete", Some("create")) => Action::ReplaceDeleteFirst,
            ("create", Some("delete")) => Action::ReplaceCreateFirst,
            ("delete", None) => Action::Delete,
            ("forget", None) => Action::Forget,
            ("create", Some("forget")) => Action::CreateThenForget,
            ("open", None) => Action::Open,
            _ => return None,
        })
    }

    #[cfg(test)]
    fn from_actions_by_list<S: AsRef<str>>(actions: &[S]) -> Option<Action> {
        let v: Vec<&str> = actions.iter().map(AsRef::as_ref).collect();
        Some(match v.as_slice() {
            ["no-op"] => Action::NoOp,
            ["create"] => Action::Create,
            ["read"] => Action::Read,
            ["update"] => Action::Update,
            ["delete", "create"] => Action::ReplaceDeleteFirst,
            ["create", "delete"] => Action::ReplaceCreateFirst,
            ["delete"] => Action::Delete,
            ["forget"] => Action::Forget,
            ["create", "forget"] => Action::CreateThenForget,
            ["open"] => Action::Open,
            _ => return None,
        })
    }

    /// Terraform's spelling of this action, e.g. `delete,create`.
    pub fn as_terraform(self) -> &'static str {
        match self {
            Action::NoOp => "no-op",
            Action::Create => "create",
            Action::Read => "read",
            Action::Update => "update",
            Action::ReplaceDeleteFirst => "delete,create",
            Action::ReplaceCreateFirst => "create,delete",
            Action::Delete => "delete",
            Action::Forget => "forget",
            Action::CreateThenForget => "create,forget",
            Action::Open => "open",
        }
    }

    /// True when apply touches no object that exists or runs: no-op, a data source read, an
    /// ephemeral resource opened, or a forget (the object leaves the state and keeps running).
    /// Such an action costs nothing ([`Impact::None`]) whatever the type, so it needs no rule and
    /// no approval.
    pub fn is_inert(self) -> bool {
        matches!(
            self,
            Action::NoOp | Action::Read | Action::Open | Action::Forget
        )
    }

    /// True when the plan proposes a change at this address: anything but a no-op, a data
    /// source read or an ephemeral open. A forget is a change (the state loses the object) even
    /// though it is [inert](Action::is_inert): it is pending until applied.
    pub fn is_change(self) -> bool {
        !matches!(self, Action::NoOp | Action::Read | Action::Open)
    }

    /// True for both orders of replacement.
    pub fn is_replace(self) -> bool {
        matches!(
            self,
            Action::ReplaceDeleteFirst | Action::ReplaceCreateFirst
        )
    }

    /// True when an existing object is destroyed (delete or either replacement).
    pub fn destroys(self) -> bool {
        matches!(
            self,
            Action::Delete | Action::ReplaceDeleteFirst | Action::ReplaceCreateFirst
        )
    }

    /// A short human word for the action, as ward's reports print it.
    pub fn describe(self) -> &'static str {
        match self {
            Action::NoOp => "no change",
            Action::Create => "create",
            Action::Read => "read",
            Action::Update => "update in place",
            Action::ReplaceDeleteFirst => "destroy, then create replacement",
            Action::ReplaceCreateFirst => {
                "create replacement, then destroy (create_before_destroy)"
            }
            Action::Delete => "destroy",
            Action::Forget => "forget (remove from state, leave running)",
            Action::CreateThenForget => "create, and forget the previous object",
            Action::Open => "open (ephemeral)",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_terraform())
    }
}

/// An instance key: `count.index` (a number) or `for_each` key (a string).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(untagged)]
pub enum InstanceKey {
    /// `count` index.
    Int(i64),
    /// `for_each` key.
    Str(String),
}

/// A value as ward may show it. The reader never stores a sensitive value: it stores
/// [`Shown::Sensitive`] instead.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum Shown {
    /// A known, non-sensitive value. Long strings are shortened by the reader (see
    /// [`Shown::MAX_STRING`]) and marked with a trailing `…`.
    Known(serde_json::Value),
    /// The value is marked sensitive: never printed.
    Sensitive,
    /// "(known after apply)".
    Unknown,
    /// The attribute is absent (null, or the object does not exist on this side).
    Absent,
}

impl Shown {
    /// The longest string (in chars) the reader keeps verbatim.
    pub const MAX_STRING: usize = 200;
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shown::Known(v) => write!(f, "{v}"),
            Shown::Sensitive => f.write_str("(sensitive)"),
            Shown::Unknown => f.write_str("(known after apply)"),
            Shown::Absent => f.write_str("null"),
        }
    }
}

/// One attribute path whose value really changes, with what it was and what it becomes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttrChange {
    /// The path, e.g. `tags.Name` or `root_block_device[0].volume_size`.
    pub path: AttrPath,
    /// The value before the change.
    pub before: Shown,
    /// The value after the change.
    pub after: Shown,
    /// A fingerprint of the raw values, set by the reader only when a side is
    /// [`Shown::Sensitive`] or was shortened, so that a change of the hidden value alone can
    /// still be detected (the approval gate binds approvals to it, keyed). Never serialized.
    #[serde(skip)]
    pub hidden: Option<HiddenDigest>,
}

/// SHA-256 over a canonical encoding of the raw before and after values of an attribute whose
/// shown values hide them (sensitive or shortened). Boxed so that an [`AttrChange`] without one
/// costs only a pointer's width. It is derived from secret values: never print or serialize it
/// as is (the type implements neither `Serialize` nor `Display`, and `Debug` shows no bytes).
#[derive(Clone, PartialEq, Eq)]
pub struct HiddenDigest(Box<[u8; 32]>);

impl HiddenDigest {
    /// Wraps the 32 bytes of a SHA-256 digest.
    pub fn new(bytes: [u8; 32]) -> Self {
        HiddenDigest(Box::new(bytes))
    }

    /// The digest bytes (for keyed use only, e.g. as HMAC input).
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for HiddenDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HiddenDigest(..)")
    }
}

/// The `importing` block of a change (Terraform ≥ 1.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Importing {
    /// The import id, when given by id.
    pub id: Option<String>,
}

/// One entry of `resource_changes` (or `resource_drift`), normalized.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResourceChange {
    /// Full address, e.g. `module.db.aws_db_instance.main[0]`.
    pub address: String,
    /// `previous_address` when the object moved (a `moved` block or a rename).
    pub previous_address: Option<String>,
    /// The module path, e.g. `module.db`; `None` in the root module.
    pub module_address: Option<String>,
    /// managed, data or ephemeral.
    pub mode: Mode,
    /// Resource type, e.g. `aws_db_instance`.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Resource name, e.g. `main`.
    pub name: String,
    /// `count`/`for_each` key.
    pub index: Option<InstanceKey>,
    /// Provider address as written, e.g. `registry.terraform.io/hashicorp/aws`.
    pub provider_name: String,
    /// Set when this change is to a deposed object (left by a failed create_before_destroy).
    pub deposed: Option<String>,
    /// What apply will do.
    pub action: Action,
    /// Terraform's `action_reason`, e.g. `replace_because_cannot_update`.
    pub action_reason: Option<String>,
    /// Attribute paths that force replacement (`replace_paths`).
    pub replace_paths: Vec<AttrPath>,
    /// The attribute paths whose values really change, sorted, leaf level where the values
    /// allow it. Honours `after_unknown` (an unknown value is a change) and the sensitive
    /// masks (a sensitive value is shown as [`Shown::Sensitive`]). For a create, what it sets
    /// (each from [`Shown::Absent`]); for a delete, what it removes (each to
    /// [`Shown::Absent`]): the leaves of the whole object, nulls and empty collections left out,
    /// at most [`MAX_OBJECT_ATTRIBUTES`] of them (see `changed_left_out`).
    pub changed: Vec<AttrChange>,
    /// A create's or a delete's attributes beyond the [`MAX_OBJECT_ATTRIBUTES`] that `changed`
    /// holds: how many were left out. 0 for every other change.
    #[serde(skip_serializing_if = "is_zero")]
    pub changed_left_out: usize,
    /// Set when the change imports an existing object.
    pub importing: Option<Importing>,
    /// A fingerprint of the raw `change` values (`before`, `after`, `after_unknown` and the
    /// sensitivity masks), set by the reader: what `ward verify` binds a gated change to, keyed,
    /// beyond the shown model (a create's `after`, a delete's `before`, sensitive and shortened
    /// values). Never serialized.
    #[serde(skip)]
    pub content: Option<HiddenDigest>,
    /// For a change that destroys the object (delete, either replacement): its top-level
    /// attributes whose last known value is a boolean or a string of at most
    /// [`MAX_KEPT_STRING`] characters, not marked sensitive, sorted by name. What explanations
    /// read about the object being destroyed (will a final snapshot be taken?).
    pub before_scalars: Vec<(String, serde_json::Value)>,
    /// For a change that leaves an object in place (create, update, either replacement): its
    /// top-level attributes as planned, sorted by name: a boolean, a number or a string of at
    /// most [`MAX_KEPT_STRING`] characters as [`Shown::Known`]; an attribute `after_sensitive`
    /// marks (wholly or in part) as [`Shown::Sensitive`], never its value; one `after_unknown`
    /// marks as [`Shown::Unknown`]. Other values (lists, objects, nulls, longer strings) are
    /// left out. What explanations read about the existing object a create takes over (the
    /// `target` attributes of an `overwrites` rule, such as `org_id`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after_scalars: Vec<(String, Shown)>,
}

/// The most attributes [`ResourceChange::changed`] holds of what a create sets or a delete
/// removes (a whole object can hold thousands: a Kubernetes manifest, a policy document's rules).
pub const MAX_OBJECT_ATTRIBUTES: usize = 100;

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The longest string value [`ResourceChange::before_scalars`] keeps (characters).
pub const MAX_KEPT_STRING: usize = 256;

/// One entry of `output_changes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutputChange {
    /// Output name.
    pub name: String,
    /// What happens to it.
    pub action: Action,
    /// Whether the output is marked sensitive (its value is then never kept).
    pub sensitive: bool,
}

#[cfg(test)]
mod tests {
    use super::Action;

    #[test]
    fn inert_and_change_are_one_rule_each() {
        let all = Action::ALL;
        let inert: Vec<Action> = all.into_iter().filter(|a| a.is_inert()).collect();
        assert_eq!(
            inert,
            [Action::NoOp, Action::Read, Action::Forget, Action::Open]
        );
        let unchanged: Vec<Action> = all.into_iter().filter(|a| !a.is_change()).collect();
        assert_eq!(unchanged, [Action::NoOp, Action::Read, Action::Open]);
        // Nothing that destroys is inert.
        assert!(all.iter().all(|a| !(a.destroys() && a.is_inert())));
    }

    #[test]
    fn actions_read_as_the_list_says() {
        let words = [
            "no-op", "create", "read", "update", "delete", "forget", "open", "x", "",
        ];
        let mut lists: Vec<Vec<&str>> = vec![vec![]];
        for a in words {
            lists.push(vec![a]);
            for b in words {
                lists.push(vec![a, b]);
                lists.push(vec![a, b, "delete"]);
            }
        }
        for l in &lists {
            assert_eq!(
                Action::from_actions(l),
                Action::from_actions_by_list(l),
                "{l:?}"
            );
        }
        for a in Action::ALL {
            let list: Vec<&str> = a.as_terraform().split(',').collect();
            assert_eq!(Action::from_actions(&list), Some(a));
        }
    }

    #[test]
    fn the_words_are_those_the_actions_spell() {
        let spelled: std::collections::BTreeSet<&str> = Action::ALL
            .iter()
            .flat_map(|a| a.as_terraform().split(','))
            .collect();
        let words: std::collections::BTreeSet<&str> = Action::WORDS.into_iter().collect();
        assert_eq!(spelled, words);
        assert_eq!(Action::word("delete"), Some("delete"));
        assert_eq!(Action::word("Delete"), None);
    }
}
