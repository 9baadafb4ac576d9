//! Updates and the attributes of a change: each changed attribute's cost, the worst deciding,
//! what forces a replacement and the identity that changes.

use super::diff::attr_forces_replacement;
use super::{is_identity, overlaps, per, Lines};
use crate::explain::{before_after, paths, push_before_after};
use crate::{AttrVerdict, Verdict};
use std::sync::Arc;
use ward_model::{AttrChange, AttrPath, Impact, ResourceChange, Shown};
use ward_rules::{Cost, Decision, Direction, Moved, Resolved};

/// How many values a "forces replacement" line lists before it says how many more there are.
const MAX_LISTED: usize = 3;

pub(super) fn update(
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
        let rule = a.rule.clone().or_else(|| r.cost(Cost::OnUpdate).rule);
        // `path` costs class: before → after — why (per rule), written into one string.
        let mut line = String::with_capacity(160);
        line.push('`');
        let _ = a.change.path.write_to(&mut line);
        line.push_str("` costs ");
        line.push_str(a.impact.as_str());
        line.push_str(": ");
        push_before_after(&mut line, &a.change);
        if let Some(w) = &a.why {
            line.push_str(" — ");
            line.push_str(w);
        }
        line.push_str(&per(&rule));
        say!(lines, line);
    }
}

/// The changed attributes with their cost.
///
/// On a replacement, an identity attribute that no attribute entry names costs `replace`: its new
/// value is the replacement's new identity, not an in-place change.
pub(super) fn attributes(
    c: &ResourceChange,
    r: &Resolved<'_>,
    identity: &[AttrPath],
) -> Vec<AttrVerdict> {
    let on_update = r.cost(Cost::OnUpdate);
    let mut out: Vec<AttrVerdict> = c
        .changed
        .iter()
        .map(|ch| {
            let forces = attr_forces_replacement(c, ch);
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
                None => AttrVerdict::without_rule(ch, on_update.value, forces),
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
pub(super) fn forces_replacement(c: &ResourceChange, lines: &mut Lines) {
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
pub(super) fn identity_line(c: &ResourceChange, identity: &[AttrPath], lines: &mut Lines) {
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
