//! One verdict per resource change.

use crate::explain::{action_line, paths, reason_line, Seen};
use crate::{Fact, Verdict};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;
use ward_model::{Action, AttrPath, Impact, Mode, Product, ResourceChange, Shown};
use ward_rules::{Cost, Decision, Knowledge, Resolved, RuleRef, Target};

/// Interns resource type and provider names: a plan of 200,000 changes names a few hundred
/// types and providers, and each verdict shares the one copy instead of holding strings of its
/// own. (Rule references come shared from `ward_rules`: one per rule.)
#[derive(Debug, Default)]
pub(crate) struct Rules {
    /// The interned type and provider names.
    names: foldhash::HashSet<Arc<str>>,
    /// What the plan's changes showed of each unclassified type, for the coverage suggestions.
    pub(crate) seen: BTreeMap<String, Seen>,
    /// Terse: verdicts without explanations (see `Assessor::terse`).
    pub(crate) terse: bool,
    /// The names of the objects created so far in the plan, by type (see [`Created`]).
    pub(crate) created: Created,
}

/// An explanation being written: its sentences, or nothing at all when the verdict is terse.
/// [`say!`] formats a sentence only when it is kept.
struct Lines {
    on: bool,
    lines: Vec<String>,
}

/// Room for the lines of most explanations: they are grown once, not from one line up, and not
/// shrunk at the end (a report renders the explanation and drops it; a verdict held whole keeps
/// a few unused slots).
const LINES: usize = 8;

impl Lines {
    fn new(on: bool) -> Lines {
        Lines {
            on,
            lines: if on {
                Vec::with_capacity(LINES)
            } else {
                Vec::new()
            },
        }
    }

    fn done(self) -> Vec<String> {
        self.lines
    }
}

/// Adds a sentence to [`Lines`], formatting it only when the explanation is kept.
macro_rules! say {
    ($lines:expr, $line:expr $(,)?) => {
        if $lines.on {
            $lines.lines.push($line)
        }
    };
}

// After `say!`: the steps below use it.
mod created;
mod destroy;
mod diff;
mod overwrites;
mod update;

pub(crate) use created::Created;
use destroy::{
    access_removed_lines, destroy, destroyed_object, final_snapshot_line, grants_access_line,
};
use diff::{diff_lines, diffed, unjudged_diff, whole_object, whole_object_taking};
use overwrites::{modifies, overwrites, Kind};
use update::{attributes, forces_replacement, identity_line, update};

impl Rules {
    fn name(&mut self, s: &str) -> Arc<str> {
        if let Some(a) = self.names.get(s) {
            return Arc::clone(a);
        }
        let a: Arc<str> = Arc::from(s);
        self.names.insert(Arc::clone(&a));
        a
    }
}

fn per<R: std::borrow::Borrow<RuleRef>>(rule: &Option<R>) -> String {
    let mut out = String::new();
    if let Some(r) = rule.as_ref().map(|r| r.borrow()) {
        // Room for most rule references: grown from format!'s guess, the string moves twice.
        out.reserve(64);
        let _ = write!(out, " (per {r})");
    }
    out
}

/// True when a changed path and a `replace_paths` entry overlap (one lies inside the other).
fn overlaps(a: &AttrPath, b: &AttrPath) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// True when `identity` names `path` (indices in `path` are ignored).
fn is_identity(path: &AttrPath, identity: &[AttrPath]) -> bool {
    // `path`'s keys (without its indices) start with `id`; compared step by step, without
    // building the path of keys.
    identity.iter().any(|id| {
        let mut keys = path
            .0
            .iter()
            .filter(|s| matches!(s, ward_model::PathStep::Key(_)));
        id.0.iter().all(|step| keys.next() == Some(step))
    })
}

/// Classifies one change. `drift`: the change is from `resource_drift` (made outside Terraform).
pub(crate) fn verdict(
    c: &ResourceChange,
    k: &Knowledge,
    product: Product,
    drift: bool,
    rules: &mut Rules,
) -> Verdict {
    let mut v = judged(c, k, product, drift, rules);
    if c.mode == Mode::Managed {
        whole_object(c, &mut v);
    }
    v
}

/// [`verdict`] of a change the caller has no further use for: what a create sets or a delete
/// removes is moved into the verdict's attributes, not copied (most of a create's or a delete's
/// verdict, and a copy of each path and value cost as much as the rest of its classification).
pub(crate) fn verdict_taking(
    c: ResourceChange,
    k: &Knowledge,
    product: Product,
    drift: bool,
    rules: &mut Rules,
) -> Verdict {
    let mut v = judged(&c, k, product, drift, rules);
    if c.mode == Mode::Managed {
        whole_object_taking(c, &mut v);
    }
    v
}

/// [`verdict`] but for a create's or a delete's attributes ([`whole_object`]), which the caller
/// adds: every managed resource's verdict gets them, whether a rule covers its type or not, and
/// nothing here reads or writes them.
fn judged(
    c: &ResourceChange,
    k: &Knowledge,
    product: Product,
    drift: bool,
    rules: &mut Rules,
) -> Verdict {
    let mut v = Verdict {
        deposed: c.deposed.clone(),
        mode: c.mode,
        action_reason: c.action_reason.clone(),
        facts: facts(c),
        ..Verdict::new(
            &c.address,
            rules.name(&c.type_name),
            rules.name(&c.provider_name),
            c.action,
            Impact::None,
        )
    };
    let mut lines = Lines::new(!rules.terse);
    if drift {
        say!(
            lines,
            match c.action {
                Action::Delete => "drift: deleted outside Terraform since the last apply",
                Action::Update => "drift: changed outside Terraform since the last apply",
                _ => "drift: found outside Terraform since the last apply",
            }
            .to_string(),
        );
    }

    if c.mode != Mode::Managed {
        return unmanaged(c, product, v, lines);
    }

    let target = Target {
        type_name: &c.type_name,
        address: &c.address,
        module: c.module_address.as_deref(),
        provider: &c.provider_name,
    };
    let r = k.resolve_values(&target, &|name| side_values(c, name));
    if !r.is_classified() {
        return unclassified(c, product, drift, rules, v, lines);
    }

    let holds = r.holds_data();
    v.holds_data = holds.value;
    let identity = r.identity_paths();
    if c.action.destroys() {
        v.destroyed_object = destroyed_object(c, identity);
    }

    if !drift {
        say!(lines, action_line(c.action).to_string());
    }
    match c.action {
        Action::NoOp | Action::Read | Action::Open | Action::Forget => {}
        Action::Create | Action::CreateThenForget => {
            create(c, &r, &rules.created, &mut v, &mut lines);
        }
        Action::Update => {
            update(c, &r, &holds, identity, &mut v, &mut lines);
            overwrites(c, &r, Kind::Overwrites, &rules.created, &mut v, &mut lines);
            access_removed_lines(c, &r, &mut lines);
        }
        Action::Delete => delete(c, &r, &holds, identity, &mut v, &mut lines),
        Action::ReplaceDeleteFirst | Action::ReplaceCreateFirst => {
            let d = r.cost(Cost::OnReplace);
            destroy(d, &holds, &mut v, &mut lines, "replacing");
            if let Some(reason) = &c.action_reason {
                say!(lines, reason_line(product, reason));
            }
            replace(c, &r, identity, &rules.created, &mut v, &mut lines);
        }
    }
    // Reasons for deletes and reads; replacements printed theirs right after the impact.
    if !c.action.is_replace() {
        if let Some(reason) = &c.action_reason {
            say!(lines, reason_line(product, reason));
        }
    }
    if v.impact > Impact::Free && v.decided_by.as_ref().is_some_and(|d| d.attribute.is_none()) {
        if let Some(rationale) = r.rationale() {
            say!(lines, format!("rule rationale: {rationale}"));
        }
    }
    fact_lines(&v.facts, &mut lines);
    v.explanation = lines.done();
    // Every create names what it makes, for the creates that follow it in the plan.
    if !drift && matches!(c.action, Action::Create | Action::CreateThenForget) {
        rules.created.add(&v.type_name, c);
    }
    v
}

/// A data source or an ephemeral resource: only read, never changed by apply (impact none).
fn unmanaged(c: &ResourceChange, product: Product, mut v: Verdict, mut lines: Lines) -> Verdict {
    say!(
        lines,
        match c.mode {
            Mode::Data => {
                "data source: only read, never changed by apply (impact none)".to_string()
            }
            _ => "ephemeral resource: never stored in state, never changed by apply (impact none)"
                .to_string(),
        }
    );
    if let Some(r) = &c.action_reason {
        say!(lines, reason_line(product, r));
    }
    v.explanation = lines.done();
    v
}

/// A change no rule covers: what ward cannot tell, the diff for the reviewer, and (outside
/// drift) what the coverage section suggests for its type.
fn unclassified(
    c: &ResourceChange,
    product: Product,
    drift: bool,
    rules: &mut Rules,
    mut v: Verdict,
    mut lines: Lines,
) -> Verdict {
    v.classified = false;
    say!(lines, format!(
        "unclassified: no rule covers `{}`, so ward cannot tell what this change costs; add a `resource \"{}\"` block to ward.hcl (the coverage section shows one to paste; see `ward docs rules`)",
        c.type_name, c.type_name
    ));
    if !drift {
        say!(lines, action_line(c.action).to_string());
        rules
            .seen
            .entry(c.type_name.clone())
            .or_default()
            .add(&c.address, c.action, diffed(c));
    }
    if let Some(reason) = &c.action_reason {
        say!(lines, reason_line(product, reason));
    }
    diff_lines(c, &mut lines);
    // (A create's or delete's own attributes are added after: `unjudged_diff` lists an
    // update's, and never a create's or a delete's.)
    unjudged_diff(c, &mut v);
    fact_lines(&v.facts, &mut lines);
    v.explanation = lines.done();
    v
}

/// A create: its cost, raised by what it overwrites or modifies (which then say why).
fn create(
    c: &ResourceChange,
    r: &Resolved<'_>,
    created: &Created,
    v: &mut Verdict,
    lines: &mut Lines,
) {
    let d = r.cost(Cost::OnCreate);
    v.impact = d.value;
    v.decided_by = d.rule.clone();
    let took = overwrites(c, r, Kind::Overwrites, created, v, lines);
    let changed = modifies(c, r, created, v, lines);
    if took || changed {
        // The overwrites or modifies line said what the create costs and why.
    } else if d.value > Impact::Free {
        say!(
            lines,
            format!(
                "creating it costs {}: {}{}",
                d.value,
                d.value.meaning(),
                per(&d.rule)
            )
        );
    }
}

/// A delete: its cost (data-loss when it holds data), the identity lost, its final snapshot and
/// the access it granted.
fn delete(
    c: &ResourceChange,
    r: &Resolved<'_>,
    holds: &Decision<bool>,
    identity: &[AttrPath],
    v: &mut Verdict,
    lines: &mut Lines,
) {
    let d = r.cost(Cost::OnDelete);
    destroy(d, holds, v, lines, "destroying");
    v.identity_changes = identity.to_vec();
    if !v.identity_changes.is_empty() && v.impact > Impact::Free {
        say!(
            lines,
            format!(
                "identity lost: {} will no longer exist",
                paths(&v.identity_changes)
            )
        );
    }
    final_snapshot_line(c, r, lines);
    grants_access_line(c, r, lines);
}

/// A replacement after its cost and reason: create-before-destroy, what forces it, what the new
/// object overwrites or modifies, its attributes (one that forces the replacement costs what the
/// replacement costs), the new identity, the final snapshot and the access it changes.
fn replace(
    c: &ResourceChange,
    r: &Resolved<'_>,
    identity: &[AttrPath],
    created: &Created,
    v: &mut Verdict,
    lines: &mut Lines,
) {
    if c.action == Action::ReplaceCreateFirst {
        say!(
            lines,
            "create_before_destroy: the new object is created before the old one is destroyed"
                .to_string(),
        );
    }
    forces_replacement(c, lines);
    overwrites(c, r, Kind::Overwrites, created, v, lines);
    modifies(c, r, created, v, lines);
    v.attributes = attributes(c, r, identity);
    // An attribute that forces the replacement costs what the replacement costs.
    for a in v.attributes.iter_mut().filter(|a| a.forces_replacement) {
        if a.impact < v.impact {
            a.impact = v.impact;
            a.rule = v.decided_by.clone();
            let was = a.why.take().map(|w| format!("; {w}")).unwrap_or_default();
            a.why = Some(format!("forces replacement, which costs {}{was}", v.impact));
        }
    }
    v.identity_changes = identity.to_vec();
    identity_line(c, &v.identity_changes, lines);
    final_snapshot_line(c, r, lines);
    grants_access_line(c, r, lines);
    access_removed_lines(c, r, lines);
}

/// A top-level attribute's value on each side of the change where the object exists, for rules
/// narrowed by `when`: the last known value of an object the change destroys, the planned value
/// of one it creates or keeps; `None` on a side where it is not a known string (unknown until
/// apply, sensitive, absent, not a string; both lists keep only short strings).
fn side_values(c: &ResourceChange, name: &str) -> Vec<Option<String>> {
    let string = |v: Option<&serde_json::Value>| match v {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let mut sides = Vec::new();
    if c.action.destroys() {
        sides.push(string(last_value(c, name)));
    }
    if !matches!(c.action, Action::Delete) && !c.action.is_inert() {
        sides.push(string(
            c.after_scalars
                .iter()
                .find(|(k, _)| k == name)
                .and_then(|(_, v)| match v {
                    Shown::Known(v) => Some(v),
                    _ => None,
                }),
        ));
    }
    sides
}

/// The last known value of a top-level attribute of a destroyed object.
fn last_value<'c>(c: &'c ResourceChange, name: &str) -> Option<&'c serde_json::Value> {
    c.before_scalars
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

fn facts(c: &ResourceChange) -> Vec<Fact> {
    let mut f = Vec::new();
    if let Some(imp) = &c.importing {
        f.push(Fact::Import { id: imp.id.clone() });
    }
    if let Some(prev) = &c.previous_address {
        if *prev != c.address {
            f.push(Fact::Move { from: prev.clone() });
        }
    }
    if matches!(c.action, Action::Forget | Action::CreateThenForget) {
        f.push(Fact::Forget);
    }
    if let Some(key) = &c.deposed {
        f.push(Fact::Deposed { key: key.clone() });
    }
    f.sort();
    f
}

fn fact_lines(facts: &[Fact], lines: &mut Lines) {
    if !lines.on {
        return;
    }
    for f in facts {
        say!(lines, match f {
            Fact::Import { id: Some(id) } => {
                format!("import: the existing object `{id}` is brought under management")
            }
            Fact::Import { id: None } => {
                "import: an existing object is brought under management".to_string()
            }
            Fact::Move { from } => format!("moved from `{from}` (same object, new address)"),
            Fact::Forget => {
                "forget: the object is removed from state but left running, no longer managed by Terraform".to_string()
            }
            Fact::Deposed { key } => format!(
                "deposed object {key}: left behind by an interrupted create_before_destroy replacement"
            ),
        });
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::is_identity;
    use ward_model::AttrPath;

    #[test]
    fn identity_names_a_path_whatever_its_indices() {
        let ids = [AttrPath::dotted("id"), AttrPath::dotted("network.ip")];
        let yes = [
            "id",
            "id.x",
            "0.id",
            "network.ip",
            "network.0.ip",
            "network.0.ip.1",
        ];
        let no = ["ids", "x.id", "network", "network.0", "network.mac"];
        for p in yes {
            assert!(is_identity(&AttrPath::dotted(p), &ids), "{p}");
        }
        for p in no {
            assert!(!is_identity(&AttrPath::dotted(p), &ids), "{p}");
        }
        assert!(!is_identity(&AttrPath::dotted("id"), &[]));
    }
}
