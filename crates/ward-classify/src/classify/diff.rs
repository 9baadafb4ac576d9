//! The attributes of a change no rule judges: an unclassified change's diff, and what a create
//! sets or a delete removes.

use super::{overlaps, Lines};
use crate::explain::before_after;
use crate::{AttrVerdict, Verdict};
use ward_model::{Action, AttrChange, Impact, ResourceChange};

/// How many changed attributes an unclassified change lists before it says how many more.
const MAX_DIFF: usize = 20;

/// The changes of an object that stays (update, replacement): what a create sets or a delete
/// removes is not a diff to judge attribute by attribute.
pub(super) fn diffed(c: &ResourceChange) -> &[AttrChange] {
    match c.action {
        Action::Create | Action::CreateThenForget | Action::Delete => &[],
        _ => &c.changed,
    }
}

impl AttrVerdict {
    /// An attribute that no rule of its own decides: it costs `impact` (what the change costs,
    /// or the type's `on_update` default), with no reason of its own.
    pub(crate) fn without_rule(
        change: &AttrChange,
        impact: Impact,
        forces_replacement: bool,
    ) -> AttrVerdict {
        AttrVerdict::taking(change.clone(), impact, forces_replacement)
    }

    /// [`AttrVerdict::without_rule`] of a change the caller gives up.
    pub(crate) fn taking(change: AttrChange, impact: Impact, forces_replacement: bool) -> Self {
        AttrVerdict {
            change,
            impact,
            rule: None,
            why: None,
            forces_replacement,
        }
    }
}

/// The plan says this attribute's change forces the replacement (`replace_paths`).
pub(super) fn attr_forces_replacement(c: &ResourceChange, ch: &AttrChange) -> bool {
    c.replace_paths.iter().any(|p| overlaps(&ch.path, p))
}

/// An unclassified update's or replacement's changed attributes, so that every report (the JSON
/// first) carries what changes even when no rule says what it costs: each costs the change's own
/// class (none: unjudged), decided by no rule; `forces_replacement` as the plan says. The gate
/// never takes them as deciding (`ward_gate::digest::deciding` reads classified verdicts only).
pub(super) fn unjudged_diff(c: &ResourceChange, v: &mut Verdict) {
    let changed = diffed(c);
    if changed.is_empty() || !v.attributes.is_empty() {
        return;
    }
    v.attributes = changed
        .iter()
        .map(|ch| AttrVerdict::without_rule(ch, v.impact, attr_forces_replacement(c, ch)))
        .collect();
    v.attributes_left_out = c.changed_left_out;
}

/// A create's or a delete's attributes (what it sets or removes, as the reader kept them): each
/// costs what the change costs, decided by no rule of its own (the object is created or destroyed
/// whole). The reports list them; the gate's deciding attributes never include them.
pub(super) fn whole_object(c: &ResourceChange, v: &mut Verdict) {
    if diffed(c).len() == c.changed.len() {
        return;
    }
    v.attributes = c
        .changed
        .iter()
        .map(|ch| AttrVerdict::without_rule(ch, v.impact, false))
        .collect();
    v.attributes_left_out = c.changed_left_out;
}

/// [`whole_object`], the attributes moved out of `c`.
pub(super) fn whole_object_taking(c: ResourceChange, v: &mut Verdict) {
    if diffed(&c).len() == c.changed.len() {
        return;
    }
    v.attributes_left_out = c.changed_left_out;
    v.attributes = c
        .changed
        .into_iter()
        .map(|ch| AttrVerdict::taking(ch, v.impact, false))
        .collect();
}

/// The attribute diff of a change no rule classifies: the reviewer decides from it.
pub(super) fn diff_lines(c: &ResourceChange, lines: &mut Lines) {
    if !lines.on {
        return;
    }
    let changed = diffed(c);
    for ch in changed.iter().take(MAX_DIFF) {
        let forces = if attr_forces_replacement(c, ch) {
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
