//! `overwrites` and `modifies`: a create that takes over or changes an object that exists
//! outside this root.

use super::{per, Created, Lines};
use crate::Verdict;
use std::sync::Arc;
use ward_model::{Action, ResourceChange, Shown};
use ward_rules::{Overwrites, Resolved, RuleRef};

/// Which of the two blocks of the same shape a rule states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `overwrites`: the type is authoritative or adopting.
    Overwrites,
    /// `modifies`: a create changes an existing object without taking it over.
    Modifies,
}

impl Kind {
    fn verb(self) -> &'static str {
        match self {
            Kind::Overwrites => "overwrites",
            Kind::Modifies => "changes",
        }
    }

    fn object(self) -> &'static str {
        match self {
            Kind::Overwrites => "state that exists outside this root",
            Kind::Modifies => "an object that exists outside this root",
        }
    }
}

/// A type whose create changes an object that exists outside this root (`modifies`): a create
/// or replacement costs at least the rule's class, unless the object is created by this plan
/// too; an update is costed by its attributes alone. True when it raised or explained the cost.
pub(super) fn modifies(
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
pub(super) fn overwrites(
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
    // Every target the plan gives (a null one, such as the `gateway_id` of a subnet's
    // association, names nothing).
    let given: Vec<&String> = o
        .target
        .iter()
        .filter(|t| !matches!(planned(c, t), None | Some(Shown::Absent)))
        .collect();
    if changes_nothing(c, kind, o, &d.rule, &given, created, lines) {
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
    if lines.on {
        overwrite_line(c, kind, o, &d.rule, given, lines);
    }
    true
}

/// The planned value of a top-level attribute, as the plan shows it.
fn planned<'c>(c: &'c ResourceChange, t: &str) -> Option<&'c Shown> {
    c.after_scalars.iter().find(|(k, _)| k == t).map(|(_, s)| s)
}

/// True (and said why) when a create or replacement changes nothing that exists: every target
/// it gives is known only after apply (the object they name is itself created or replaced by
/// this plan), a target names an object this plan creates (earlier in its order), or it sets
/// none of the attributes that would change the existing object (it adopts it as it is).
fn changes_nothing(
    c: &ResourceChange,
    kind: Kind,
    o: &Overwrites,
    rule: &Option<Arc<RuleRef>>,
    given: &[&String],
    created: &Created,
    lines: &mut Lines,
) -> bool {
    if c.action == Action::Update {
        return false;
    }
    let verb = kind.verb();
    let unknown = !given.is_empty()
        && given
            .iter()
            .all(|t| matches!(planned(c, t), Some(Shown::Unknown)));
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
                per(rule)
            )
        );
        return true;
    }
    let made = given.iter().find_map(|t| match planned(c, t) {
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
                per(rule)
            )
        );
        return true;
    }
    if !o.when_set.is_empty() && !sets_any(c, &o.when_set) {
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
                per(rule)
            )
        );
        return true;
    }
    false
}

/// What the change overwrites or changes, and the targets that name it: those the plan gives;
/// when it gives none, every target as not given (a type naming its object by one of many
/// optional attributes prints the one it has).
fn overwrite_line(
    c: &ResourceChange,
    kind: Kind,
    o: &Overwrites,
    rule: &Option<Arc<RuleRef>>,
    given: Vec<&String>,
    lines: &mut Lines,
) {
    let (verb, object) = (kind.verb(), kind.object());
    let printed: Vec<&String> = if given.is_empty() {
        o.target.iter().collect()
    } else {
        given
    };
    let targets: Vec<String> = printed
        .iter()
        .map(|t| {
            let shown = planned(c, t)
                .map_or_else(|| "(not in the plan)".to_string(), crate::explain::value);
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
        format!("{head}: {}{targets}{why}{}", o.what, per(rule))
    );
}
