//! Deletes and replacements: what destroying the object costs, what identified it, its final
//! snapshot and the access it granted.

use super::{is_identity, last_value, per, Lines};
use crate::Verdict;
use ward_model::{Action, AttrPath, Impact, ResourceChange, Shown};
use ward_rules::{Decision, Resolved};

/// Delete or replace: the action's cost, raised to data-loss when the object holds data.
pub(super) fn destroy(
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

/// What identifies a destroyed object: its last known plain values at the top-level identity
/// attributes (`id` always counts), `name=value` joined with `; `, in name order.
pub(super) fn destroyed_object(c: &ResourceChange, identity: &[AttrPath]) -> Option<String> {
    // Written into one string, each part with `push_str`: no string per part, no join.
    let mut out = String::new();
    for (k, v) in &c.before_scalars {
        if !(k == "id" || identity.iter().any(|p| p.displays_as(k))) {
            continue;
        }
        let value = match v {
            serde_json::Value::String(s) if !s.is_empty() => s.as_str(),
            serde_json::Value::Bool(true) => "true",
            serde_json::Value::Bool(false) => "false",
            _ => continue,
        };
        if !out.is_empty() {
            out.push_str("; ");
        }
        out.push_str(k);
        out.push('=');
        out.push_str(value);
    }
    (!out.is_empty()).then_some(out)
}

/// Whether destroying the object takes a final snapshot, read from its last known values at the
/// attributes the rule names (`final_snapshot_skip`, `final_snapshot_name`).
pub(super) fn final_snapshot_line(c: &ResourceChange, r: &Resolved<'_>, lines: &mut Lines) {
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
pub(super) fn grants_access_line(c: &ResourceChange, r: &Resolved<'_>, lines: &mut Lines) {
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
pub(super) fn access_removed_lines(c: &ResourceChange, r: &Resolved<'_>, lines: &mut Lines) {
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
