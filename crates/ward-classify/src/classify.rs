//! One verdict per resource change.

use crate::explain::{action_line, before_after, paths, reason_line, Seen};
use crate::{AttrVerdict, Fact, Verdict};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use ward_model::{Action, AttrChange, AttrPath, Impact, Mode, Product, ResourceChange, Shown};
use ward_rules::{Cost, Decision, Direction, Knowledge, Moved, Resolved, RuleRef, Target};

/// How many values a "forces replacement" line lists before it says how many more there are.
const MAX_LISTED: usize = 3;

/// Interns resource type and provider names: a plan of 200,000 changes names a few hundred
/// types and providers, and each verdict shares the one copy instead of holding strings of its
/// own. (Rule references come shared from `ward_rules`: one per rule.)
#[derive(Debug, Default)]
pub(crate) struct Rules {
    /// The interned type and provider names.
    names: HashSet<Arc<str>>,
    /// What the plan's changes showed of each unclassified type, for the coverage suggestions.
    pub(crate) seen: BTreeMap<String, Seen>,
    /// Terse: verdicts without explanations (see `Assessor::terse`).
    pub(crate) terse: bool,
    /// The names of the objects created so far in the plan, by type (see [`Created`]).
    pub(crate) created: Created,
}

/// The names of the objects the plan creates, read so far (changes are classified in plan
/// order, as the reader hands them over): for each created type, the planned values of its
/// name-like top-level attributes (`name`, `*_name`, `*_id` but `id`, and the attribute named
/// like the type's last word: `bucket` of `aws_s3_bucket`). A create of a type that overwrites
/// or changes an existing object, whose target names one of them (`bucket = "b"` after the plan
/// creates `google_storage_bucket` `b`), changes nothing that exists. Terraform writes
/// `resource_changes` sorted by address, so the root module's objects, and a type before the
/// longer types it prefixes (`aws_iam_role` before `aws_iam_role_policy_attachment`), come
/// first.
#[derive(Debug, Default)]
pub(crate) struct Created {
    names: HashMap<Arc<str>, HashSet<Box<str>>>,
}

impl Created {
    /// Records what a create names.
    fn add(&mut self, type_name: &Arc<str>, c: &ResourceChange) {
        let last = type_name.rsplit('_').next().unwrap_or_default();
        for (k, shown) in &c.after_scalars {
            let name_like = k == "name"
                || k.ends_with("_name")
                || (k.ends_with("_id") && k != "id")
                || k == last;
            if let (true, Shown::Known(serde_json::Value::String(v))) = (name_like, shown) {
                if !v.is_empty() {
                    self.names
                        .entry(Arc::clone(type_name))
                        .or_default()
                        .insert(v.as_str().into());
                }
            }
        }
    }

    /// The type created earlier in the plan that a target of `type_name` names: one of the same
    /// provider prefix whose name ends with the target's stem (`bucket`, `role`, `function` of
    /// `function_name`, `dataset` of `dataset_id`) and that has `value` as a name.
    fn named(&self, type_name: &str, target: &str, value: &str) -> Option<&str> {
        let prefix = type_name.split('_').next().unwrap_or_default();
        let stem = ["_id", "_name", "_arn"]
            .iter()
            .find_map(|s| target.strip_suffix(s))
            .unwrap_or(target);
        if stem.is_empty() || stem == "id" {
            return None;
        }
        let mut found: Vec<&str> = self
            .names
            .iter()
            .filter(|(t, values)| {
                t.strip_prefix(prefix)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .is_some_and(|rest| rest == stem || rest.ends_with(&format!("_{stem}")))
                    && values.contains(value)
            })
            .map(|(t, _)| &**t)
            .collect();
        // Several types can match; the first by name keeps the explanation deterministic.
        found.sort_unstable();
        found.first().copied()
    }
}

/// An explanation being written: its sentences, or nothing at all when the verdict is terse.
/// [`say!`] formats a sentence only when it is kept.
struct Lines {
    on: bool,
    lines: Vec<String>,
}

impl Lines {
    fn new(on: bool) -> Lines {
        Lines {
            on,
            lines: Vec::new(),
        }
    }

    fn done(mut self) -> Vec<String> {
        self.lines.shrink_to_fit();
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
    match rule.as_ref().map(|r| r.borrow()) {
        Some(r) => format!(" (per {r})"),
        None => String::new(),
    }
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
        say!(lines, match c.mode {
            Mode::Data => {
                "data source: only read, never changed by apply (impact none)".to_string()
            }
            _ => "ephemeral resource: never stored in state, never changed by apply (impact none)"
                .to_string(),
        });
        if let Some(r) = &c.action_reason {
            say!(lines, reason_line(product, r));
        }
        v.explanation = lines.done();
        return v;
    }

    let target = Target {
        type_name: &c.type_name,
        address: &c.address,
        module: c.module_address.as_deref(),
        provider: &c.provider_name,
    };
    let r = k.resolve_values(&target, &|name| side_values(c, name));
    if !r.is_classified() {
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
        whole_object(c, &mut v);
        unjudged_diff(c, &mut v);
        fact_lines(&v.facts, &mut lines);
        v.explanation = lines.done();
        return v;
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
            let d = r.cost(Cost::OnCreate);
            v.impact = d.value;
            v.decided_by = d.rule.clone();
            let took = overwrites(c, &r, Kind::Overwrites, &rules.created, &mut v, &mut lines);
            let changed = modifies(c, &r, &rules.created, &mut v, &mut lines);
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
        Action::Update => {
            update(c, &r, &holds, identity, &mut v, &mut lines);
            overwrites(c, &r, Kind::Overwrites, &rules.created, &mut v, &mut lines);
            access_removed_lines(c, &r, &mut lines);
        }
        Action::Delete => {
            let d = r.cost(Cost::OnDelete);
            destroy(d, &holds, &mut v, &mut lines, "destroying");
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
            final_snapshot_line(c, &r, &mut lines);
            grants_access_line(c, &r, &mut lines);
        }
        Action::ReplaceDeleteFirst | Action::ReplaceCreateFirst => {
            let d = r.cost(Cost::OnReplace);
            destroy(d, &holds, &mut v, &mut lines, "replacing");
            if let Some(reason) = &c.action_reason {
                say!(lines, reason_line(product, reason));
            }
            if c.action == Action::ReplaceCreateFirst {
                say!(lines,
                    "create_before_destroy: the new object is created before the old one is destroyed"
                        .to_string(),
                );
            }
            forces_replacement(c, &mut lines);
            overwrites(c, &r, Kind::Overwrites, &rules.created, &mut v, &mut lines);
            modifies(c, &r, &rules.created, &mut v, &mut lines);
            v.attributes = attributes(c, &r, identity);
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
            identity_line(c, &v.identity_changes, &mut lines);
            final_snapshot_line(c, &r, &mut lines);
            grants_access_line(c, &r, &mut lines);
            access_removed_lines(c, &r, &mut lines);
        }
    }
    // What a create sets or a delete removes, at the class the change was given.
    whole_object(c, &mut v);
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

/// Which of the two blocks of the same shape a rule states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `overwrites`: the type is authoritative or adopting.
    Overwrites,
    /// `modifies`: a create changes an existing object without taking it over.
    Modifies,
}

/// A type whose create changes an object that exists outside this root (`modifies`): a create
/// or replacement costs at least the rule's class, unless the object is created by this plan
/// too; an update is costed by its attributes alone. True when it raised or explained the cost.
fn modifies(
    c: &ResourceChange,
    r: &Resolved<'_>,
    created: &Created,
    v: &mut Verdict,
    lines: &mut Lines,
) -> bool {
    c.action != Action::Update && overwrites(c, r, Kind::Modifies, created, v, lines)
}

/// True when a create sets one of `names` (some leaf under it is known, sensitive, or left out
/// of the plan's shortened list): an attribute that is absent, null, empty or known only after
/// apply is left to the existing object.
fn sets_any(c: &ResourceChange, names: &[String]) -> bool {
    if c.changed_left_out > 0 {
        return true;
    }
    c.changed.iter().any(|a| {
        !matches!(a.after, Shown::Absent | Shown::Unknown)
            && matches!(a.path.0.first(), Some(ward_model::PathStep::Key(k)) if names.contains(k))
    })
}

/// An authoritative or adopting type (`overwrites`), or one whose create changes an existing
/// object (`modifies`): a create or replacement costs at least the rule's class (the verdict's
/// rule becomes the block's rule when it raises the cost), and every create, update and
/// replacement of an overwriting type says what it overwrites, with the planned values of the
/// attributes that name the existing object (`(sensitive)` for one marked sensitive). True when
/// the type overwrites (or modifies) something that exists.
fn overwrites(
    c: &ResourceChange,
    r: &Resolved<'_>,
    kind: Kind,
    created: &Created,
    v: &mut Verdict,
    lines: &mut Lines,
) -> bool {
    let d = match kind {
        Kind::Overwrites => r.overwrites(),
        Kind::Modifies => r.modifies(),
    };
    let Some(o) = d.value else {
        return false;
    };
    let (verb, object) = match kind {
        Kind::Overwrites => ("overwrites", "state that exists outside this root"),
        Kind::Modifies => ("changes", "an object that exists outside this root"),
    };
    // Every target the plan gives (a null one, such as the `gateway_id` of a subnet's
    // association, names nothing) is known only after apply: the object they name is itself
    // created (or replaced) by this plan, so nothing that exists outside this root is changed.
    let found = |t: &String| c.after_scalars.iter().find(|(k, _)| k == t).map(|(_, s)| s);
    let given: Vec<&String> = o
        .target
        .iter()
        .filter(|t| !matches!(found(t), None | Some(Shown::Absent)))
        .collect();
    let unknown = !given.is_empty()
        && c.action != Action::Update
        && given
            .iter()
            .all(|t| matches!(found(t), Some(Shown::Unknown)));
    if unknown {
        say!(
            lines,
            format!(
                "{verb} nothing that exists yet: {} known only after apply, so the object it names is created by this plan{}",
                given
                    .iter()
                    .map(|t| format!("`{t}` is"))
                    .collect::<Vec<_>>()
                    .join(", "),
                per(&d.rule)
            )
        );
        return false;
    }
    // A target that names an object this plan creates (earlier in its order): nothing that
    // exists is overwritten or changed.
    if c.action != Action::Update {
        let made = given.iter().find_map(|t| match found(t) {
            Some(Shown::Known(serde_json::Value::String(value))) => created
                .named(&c.type_name, t, value)
                .map(|made| (t, value, made)),
            _ => None,
        });
        if let Some((t, value, made)) = made {
            say!(
                lines,
                format!(
                    "{verb} nothing that exists yet: `{t}` = {} names the {made} this plan creates{}",
                    serde_json::Value::String(value.clone()),
                    per(&d.rule)
                )
            );
            return false;
        }
    }
    // A create that sets none of the attributes that would change the existing object adopts
    // it as it is.
    if !o.when_set.is_empty() && c.action != Action::Update && !sets_any(c, &o.when_set) {
        say!(
            lines,
            format!(
                "{verb} nothing: it sets none of {}, so {} stays as it is{}",
                o.when_set
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                match kind {
                    Kind::Overwrites => "the state it takes over",
                    Kind::Modifies => "the object it changes",
                },
                per(&d.rule)
            )
        );
        return false;
    }
    if kind == Kind::Overwrites {
        v.overwrites = d.rule.clone();
    }
    let takes_over = c.action != Action::Update;
    let raised = takes_over && o.impact > v.impact;
    if raised {
        v.impact = o.impact;
        v.decided_by = d.rule.clone();
    }
    if !lines.on {
        return true;
    }
    // Targets the plan gives; when it gives none, every target is printed as not given (a
    // type naming its object by one of many optional attributes prints the one it has).
    let printed: Vec<&String> = if given.is_empty() {
        o.target.iter().collect()
    } else {
        given
    };
    let targets: Vec<String> = printed
        .iter()
        .map(|t| {
            let shown =
                found(t).map_or_else(|| "(not in the plan)".to_string(), crate::explain::value);
            format!("{t} = {shown}")
        })
        .collect();
    let targets = if targets.is_empty() {
        String::new()
    } else {
        format!(" ({})", targets.join(", "))
    };
    let why = o
        .why
        .as_deref()
        .map(|w| format!(": {w}"))
        .unwrap_or_default();
    let head = match c.action {
        Action::Create | Action::CreateThenForget => format!(
            "creating it {verb} {object}, which costs at least {}",
            o.impact
        ),
        Action::Update => {
            "authoritative: this update rewrites state that exists outside this root".to_string()
        }
        _ => format!(
            "the new object {verb} {object} again, which costs at least {}",
            o.impact
        ),
    };
    say!(
        lines,
        format!("{head}: {}{targets}{why}{}", o.what, per(&d.rule))
    );
    true
}

/// Delete or replace: the action's cost, raised to data-loss when the object holds data.
fn destroy(
    d: Decision<Impact>,
    holds: &Decision<bool>,
    v: &mut Verdict,
    lines: &mut Lines,
    verb: &str,
) {
    if holds.value {
        v.impact = Impact::DataLoss;
        v.decided_by = holds.rule.clone();
        say!(
            lines,
            format!(
                "holds data: {verb} it loses the data it holds{}",
                per(&holds.rule)
            )
        );
    } else {
        v.impact = d.value;
        v.decided_by = d.rule.clone();
        say!(
            lines,
            format!(
                "{verb} it costs {}: {}{}",
                d.value,
                d.value.meaning(),
                per(&d.rule)
            )
        );
    }
}

fn update(
    c: &ResourceChange,
    r: &Resolved<'_>,
    holds: &Decision<bool>,
    identity: &[AttrPath],
    v: &mut Verdict,
    lines: &mut Lines,
) {
    v.attributes = attributes(c, r, identity);
    if v.attributes.is_empty() {
        say!(
            lines,
            "no attribute value changes (only sensitivity or other metadata): impact none"
                .to_string(),
        );
        return;
    }
    // The worst attribute decides; the first (in path order) among equals.
    let mut worst: Option<&AttrVerdict> = None;
    for a in &v.attributes {
        if worst.is_none_or(|w| a.impact > w.impact) {
            worst = Some(a);
        }
    }
    let Some(worst) = worst else {
        return;
    };
    v.impact = worst.impact;
    v.decided_by = match &worst.rule {
        Some(rule) => Some(Arc::clone(rule)),
        None => r.cost(Cost::OnUpdate).rule,
    };
    // An attribute that replaces a data holder loses its data; one that costs data-loss on its
    // own (a shorter retention) says why itself and recreates nothing.
    if v.impact == Impact::Replace && holds.value {
        v.impact = Impact::DataLoss;
        say!(
            lines,
            format!(
                "holds data: `{}` recreates the object, which loses the data it holds{}",
                worst.change.path,
                per(&holds.rule)
            )
        );
        v.decided_by = holds.rule.clone();
    }
    attribute_cost_lines(&v.attributes, r, lines);
    let free = v
        .attributes
        .iter()
        .filter(|a| a.impact <= Impact::Free)
        .count();
    if free > 0 && v.impact > Impact::Free {
        say!(
            lines,
            format!("{free} more attribute change(s) cost nothing (free)")
        );
    }
    v.identity_changes = v
        .attributes
        .iter()
        .filter(|a| is_identity(&a.change.path, identity))
        .map(|a| a.change.path.clone())
        .collect();
    if !v.identity_changes.is_empty() {
        say!(
            lines,
            format!("identity changes: {}", paths(&v.identity_changes))
        );
    }
}

/// One line per attribute that costs more than `free`: its values, class, reason and rule.
fn attribute_cost_lines(attributes: &[AttrVerdict], r: &Resolved<'_>, lines: &mut Lines) {
    if !lines.on {
        return;
    }
    for a in attributes {
        if a.impact <= Impact::Free {
            continue;
        }
        let why = a
            .why
            .as_deref()
            .map(|w| format!(" — {w}"))
            .unwrap_or_default();
        let rule = a.rule.clone().or_else(|| r.cost(Cost::OnUpdate).rule);
        say!(
            lines,
            format!(
                "`{}` costs {}: {}{}{}",
                a.change.path,
                a.impact,
                before_after(&a.change),
                why,
                per(&rule)
            )
        );
    }
}

/// The changed attributes with their cost.
///
/// On a replacement, an identity attribute that no attribute entry names costs `replace`: its new
/// value is the replacement's new identity, not an in-place change.
fn attributes(c: &ResourceChange, r: &Resolved<'_>, identity: &[AttrPath]) -> Vec<AttrVerdict> {
    let on_update = r.cost(Cost::OnUpdate);
    let mut out: Vec<AttrVerdict> = c
        .changed
        .iter()
        .map(|ch| {
            let forces = c.replace_paths.iter().any(|p| overlaps(&ch.path, p));
            match r.attribute(&ch.path) {
                Some(d) => {
                    let (impact, why) = match &d.direction {
                        Some(dir) => directional(dir, ch, d.why),
                        None => (d.impact, d.why),
                    };
                    AttrVerdict {
                        change: ch.clone(),
                        impact,
                        rule: Some(d.rule),
                        why,
                        forces_replacement: forces,
                    }
                }
                None if c.action.is_replace() && is_identity(&ch.path, identity) => AttrVerdict {
                    change: ch.clone(),
                    impact: Impact::Replace,
                    rule: None,
                    why: Some("identity: the replacement object gets a new value".to_string()),
                    forces_replacement: forces,
                },
                None => AttrVerdict {
                    change: ch.clone(),
                    impact: on_update.value,
                    rule: None,
                    why: None,
                    forces_replacement: forces,
                },
            }
        })
        .collect();
    out.sort_by(|a, b| a.change.path.cmp(&b.change.path));
    out
}

/// What a directional entry's change costs: a decrease or an increase by the values on each
/// side (numbers, numeric strings, the rule's `unbounded` values and `null`); the worse of the
/// two when a side is unknown, sensitive or not a number. The reason says which.
fn directional(dir: &Direction, ch: &AttrChange, why: Option<String>) -> (Impact, Option<String>) {
    let side = |s: &Shown| match s {
        Shown::Known(v) => Ok(Some(v.clone())),
        Shown::Absent => Ok(None),
        Shown::Sensitive | Shown::Unknown => Err(()),
    };
    let moved = match (side(&ch.before), side(&ch.after)) {
        (Ok(b), Ok(a)) => dir.moved(b.as_ref(), a.as_ref()),
        _ => Moved::Unknown,
    };
    let said = match moved {
        Moved::Decrease => "a decrease".to_string(),
        Moved::Increase => "an increase".to_string(),
        Moved::Unknown => format!(
            "direction unknown (not two comparable numbers), so the worse of a decrease ({}) and an increase ({})",
            dir.decrease, dir.increase
        ),
    };
    let why = match why {
        Some(w) => format!("{said}: {w}"),
        None => said,
    };
    (dir.cost(moved), Some(why))
}

/// One line per `replace_paths` entry, with the values that changed under it.
fn forces_replacement(c: &ResourceChange, lines: &mut Lines) {
    if !lines.on {
        return;
    }
    let mut rps: Vec<&AttrPath> = c.replace_paths.iter().collect();
    rps.sort();
    rps.dedup();
    for rp in rps {
        let under: Vec<&AttrChange> = c
            .changed
            .iter()
            .filter(|ch| overlaps(&ch.path, rp))
            .collect();
        match under.as_slice() {
            [] => say!(lines, format!("`{rp}` forces replacement")),
            [one] if one.path == *rp => {
                say!(
                    lines,
                    format!("`{rp}` forces replacement: {}", before_after(one))
                )
            }
            many => {
                let shown: Vec<String> = many
                    .iter()
                    .take(MAX_LISTED)
                    .map(|ch| format!("{}: {}", ch.path, before_after(ch)))
                    .collect();
                let more = many.len().saturating_sub(MAX_LISTED);
                let tail = if more > 0 {
                    format!("; and {more} more")
                } else {
                    String::new()
                };
                say!(
                    lines,
                    format!("`{rp}` forces replacement ({}{tail})", shown.join("; "))
                );
            }
        }
    }
}

/// "new identity: id, ip, mac will be known only after apply", plus identity values the plan
/// already knows.
fn identity_line(c: &ResourceChange, identity: &[AttrPath], lines: &mut Lines) {
    if !lines.on {
        return;
    }
    if identity.is_empty() {
        return;
    }
    let mut unknown: Vec<AttrPath> = Vec::new();
    let mut known: Vec<String> = Vec::new();
    for id in identity {
        let changed = c.changed.iter().find(|ch| ch.path == *id);
        match changed {
            Some(ch) if !matches!(ch.after, Shown::Unknown) => {
                known.push(format!("{id}: {}", before_after(ch)));
            }
            _ => unknown.push(id.clone()),
        }
    }
    if !unknown.is_empty() {
        say!(
            lines,
            format!(
                "new identity: {} will be known only after apply",
                paths(&unknown)
            )
        );
    }
    if !known.is_empty() {
        say!(lines, format!("new identity values: {}", known.join("; ")));
    }
}

/// What identifies a destroyed object: its last known plain values at the top-level identity
/// attributes (`id` always counts), `name=value` joined with `; `, in name order.
fn destroyed_object(c: &ResourceChange, identity: &[AttrPath]) -> Option<String> {
    let parts: Vec<String> = c
        .before_scalars
        .iter()
        .filter(|(k, _)| k == "id" || identity.iter().any(|p| p.displays_as(k)))
        .filter_map(|(k, v)| match v {
            serde_json::Value::String(s) if !s.is_empty() => Some(format!("{k}={s}")),
            serde_json::Value::Bool(b) => Some(format!("{k}={b}")),
            _ => None,
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The last known value of a top-level attribute of a destroyed object.
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

fn last_value<'c>(c: &'c ResourceChange, name: &str) -> Option<&'c serde_json::Value> {
    c.before_scalars
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// Whether destroying the object takes a final snapshot, read from its last known values at the
/// attributes the rule names (`final_snapshot_skip`, `final_snapshot_name`).
fn final_snapshot_line(c: &ResourceChange, r: &Resolved<'_>, lines: &mut Lines) {
    if !lines.on {
        return;
    }
    let d = r.final_snapshot();
    let (skip, name) = &d.value;
    if skip.is_none() && name.is_none() {
        return;
    }
    let per = per(&d.rule);
    let named = name.as_deref().and_then(|n| match last_value(c, n) {
        Some(serde_json::Value::String(s)) if !s.is_empty() => Some((n, s.as_str())),
        _ => None,
    });
    let skipped = skip.as_deref().map(|k| (k, last_value(c, k)));
    let line = match (skipped, named) {
        (Some((k, Some(serde_json::Value::Bool(true)))), _) => format!(
            "no final snapshot: `{k}` is true, so nothing is kept of the data{per}"
        ),
        (Some((k, Some(serde_json::Value::Bool(false)))), Some((n, s))) => format!(
            "a final snapshot is taken before destroy: `{k}` is false, `{n}` = \"{s}\"{per}"
        ),
        (Some((k, Some(serde_json::Value::Bool(false)))), None) => match name {
            Some(n) => format!(
                "a final snapshot is requested (`{k}` is false) but `{n}` is not set: the provider may refuse the destroy{per}"
            ),
            None => format!("a final snapshot is taken before destroy: `{k}` is false{per}"),
        },
        (Some((k, _)), _) => format!(
            "final snapshot unknown: the plan has no known value for `{k}`{per}"
        ),
        (None, Some((n, s))) => {
            format!("a final snapshot is taken before destroy: `{n}` = \"{s}\"{per}")
        }
        (None, None) => match name {
            Some(n) => format!("no final snapshot: `{n}` is not set{per}"),
            None => return,
        },
    };
    say!(lines, line);
}

/// A destroyed object that itself grants access (a firewall or security-group rule).
fn grants_access_line(c: &ResourceChange, r: &Resolved<'_>, lines: &mut Lines) {
    if !lines.on {
        return;
    }
    let d = r.grants_access();
    if !d.value {
        return;
    }
    let when = match c.action {
        Action::ReplaceCreateFirst => {
            "the access it grants is replaced by the new rule's (check that the new rule allows the same)"
        }
        Action::ReplaceDeleteFirst => {
            "the access it grants stops until the new rule is created"
        }
        _ => "the access it grants stops",
    };
    say!(lines, format!("removes access: {when}{}", per(&d.rule)));
}

/// How many removed access rules a line lists before it says how many more.
const MAX_RULES: usize = 5;

/// Entries removed from the lists of access rules the rule names (`access_rules`): an
/// element of `ingress` whose last value is known and that is gone after the change.
fn access_removed_lines(c: &ResourceChange, r: &Resolved<'_>, lines: &mut Lines) {
    if !lines.on {
        return;
    }
    let d = r.access_rules();
    if d.value.is_empty() {
        return;
    }
    for list in &d.value {
        // Removed entries: the element prefix (list + index) of every leaf that was known
        // before and is absent after; the whole list when it is emptied at once.
        let mut removed: Vec<AttrPath> = Vec::new();
        let mut emptied = false;
        let mut found_whole = false;
        for ch in &c.changed {
            if !is_identity(&ch.path, std::slice::from_ref(list)) {
                continue;
            }
            let gone = matches!(ch.before, Shown::Known(_) | Shown::Sensitive)
                && matches!(ch.after, Shown::Absent);
            let shrunk = matches!((&ch.before, &ch.after), (Shown::Known(serde_json::Value::Array(b)), Shown::Known(serde_json::Value::Array(a))) if a.len() < b.len());
            if let (
                true,
                Shown::Known(serde_json::Value::Array(b)),
                Shown::Known(serde_json::Value::Array(a)),
            ) = (shrunk, &ch.before, &ch.after)
            {
                // The whole list changed: the entries of before that are not in after.
                let gone: Vec<String> = b
                    .iter()
                    .filter(|e| !a.contains(e))
                    .map(|e| crate::explain::value(&Shown::Known(e.clone())))
                    .collect();
                if !gone.is_empty() {
                    let n = gone.len();
                    let more = n.saturating_sub(MAX_RULES);
                    let tail = if more > 0 {
                        format!("; and {more} more")
                    } else {
                        String::new()
                    };
                    let shown: Vec<String> = gone.into_iter().take(MAX_RULES).collect();
                    say!(
                        lines,
                        format!(
                            "removes access: {n} rule(s) removed from `{list}`: {}{tail}{}",
                            shown.join("; "),
                            per(&d.rule)
                        )
                    );
                    found_whole = true;
                }
                continue;
            }
            let Some(at) = ch
                .path
                .0
                .iter()
                .position(|s| matches!(s, ward_model::PathStep::Index(_)))
            else {
                if gone || shrunk {
                    emptied = true;
                }
                continue;
            };
            if gone {
                let entry = AttrPath(ch.path.0[..=at].to_vec());
                if !removed.contains(&entry) {
                    removed.push(entry);
                }
            }
        }
        if found_whole {
            continue;
        }
        if emptied && removed.is_empty() {
            say!(
                lines,
                format!(
                    "removes access: entries of `{list}` are removed{}",
                    per(&d.rule)
                )
            );
            continue;
        }
        if removed.is_empty() {
            continue;
        }
        removed.sort();
        let n = removed.len();
        let shown: Vec<String> = removed
            .iter()
            .take(MAX_RULES)
            .map(|p| format!("`{p}`"))
            .collect();
        let more = n.saturating_sub(MAX_RULES);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        say!(
            lines,
            format!(
                "removes access: {n} rule(s) removed from `{list}`: {}{tail}{}",
                shown.join(", "),
                per(&d.rule)
            )
        );
    }
}

/// How many changed attributes an unclassified change lists before it says how many more.
const MAX_DIFF: usize = 20;

/// The changes of an object that stays (update, replacement): what a create sets or a delete
/// removes is not a diff to judge attribute by attribute.
fn diffed(c: &ResourceChange) -> &[AttrChange] {
    match c.action {
        Action::Create | Action::CreateThenForget | Action::Delete => &[],
        _ => &c.changed,
    }
}

/// An unclassified update's or replacement's changed attributes, so that every report (the JSON
/// first) carries what changes even when no rule says what it costs: each costs the change's own
/// class (none: unjudged), decided by no rule; `forces_replacement` as the plan says. The gate
/// never takes them as deciding (`ward_gate::digest::deciding` reads classified verdicts only).
fn unjudged_diff(c: &ResourceChange, v: &mut Verdict) {
    let changed = diffed(c);
    if changed.is_empty() || !v.attributes.is_empty() {
        return;
    }
    v.attributes = changed
        .iter()
        .map(|ch| AttrVerdict {
            change: ch.clone(),
            impact: v.impact,
            rule: None,
            why: None,
            forces_replacement: c.replace_paths.iter().any(|p| overlaps(&ch.path, p)),
        })
        .collect();
    v.attributes_left_out = c.changed_left_out;
}

/// A create's or a delete's attributes (what it sets or removes, as the reader kept them): each
/// costs what the change costs, decided by no rule of its own (the object is created or destroyed
/// whole). The reports list them; the gate's deciding attributes never include them.
fn whole_object(c: &ResourceChange, v: &mut Verdict) {
    if diffed(c).len() == c.changed.len() {
        return;
    }
    v.attributes = c
        .changed
        .iter()
        .map(|ch| AttrVerdict {
            change: ch.clone(),
            impact: v.impact,
            rule: None,
            why: None,
            forces_replacement: false,
        })
        .collect();
    v.attributes_left_out = c.changed_left_out;
}

/// The attribute diff of a change no rule classifies: the reviewer decides from it.
fn diff_lines(c: &ResourceChange, lines: &mut Lines) {
    if !lines.on {
        return;
    }
    let changed = diffed(c);
    for ch in changed.iter().take(MAX_DIFF) {
        let forces = if c.replace_paths.iter().any(|p| overlaps(&ch.path, p)) {
            " (forces replacement)"
        } else {
            ""
        };
        say!(
            lines,
            format!("changed `{}`: {}{forces}", ch.path, before_after(ch))
        );
    }
    let more = changed.len().saturating_sub(MAX_DIFF);
    if more > 0 {
        say!(lines, format!("and {more} more changed attribute(s)"));
    }
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
