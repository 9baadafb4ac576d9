//! A change's entries in the Markdown report: its brief entry (address and action), its full
//! or expanded one, and whether it is listed at all. Kept entries (`crate::kept`) and the whole
//! report (`crate::markdown`) both render them here.

use crate::escape::{html, md_code as code, md_rich, md_text as md};
use crate::group::Group;
use crate::options::Expand;
use crate::outcome::plural;
use crate::text::{fact_words, mentioned, sorted_facts};
use std::fmt::Write as _;
use ward_classify::{AttrVerdict, Verdict};
use ward_model::Impact;

pub(crate) fn facts_suffix(v: &Verdict) -> String {
    let f: Vec<String> = sorted_facts(v)
        .into_iter()
        .map(|f| md(&fact_words(f)))
        .collect();
    if f.is_empty() {
        String::new()
    } else {
        format!(" — {}", f.join("; "))
    }
}

/// Whether a change gets an entry in the Markdown report: every change but the `none` ones,
/// which are counted unless a fact makes them worth a line or they are expanded.
pub(crate) fn listed(g: Group, v: &Verdict, expand: Expand) -> bool {
    g != Group::Class(Impact::None) || !v.facts.is_empty() || expand.none
}

/// A change's brief entry (address and action; an update's changed paths when they are not
/// listed in its entry).
pub(crate) fn brief_entry(v: &Verdict, expand: Expand) -> String {
    let attrs = if v.impact == Impact::Free
        && !expand.free
        && crate::text::Side::of(v.action) == crate::text::Side::Changes
        && !v.attributes.is_empty()
    {
        let paths: Vec<String> = v
            .attributes
            .iter()
            .map(|a| code(&a.change.path.to_string()))
            .collect();
        format!(" ({})", paths.join(", "))
    } else {
        String::new()
    };
    format!(
        "- {}: {}{attrs}{}\n",
        addr_code(v),
        v.action.describe(),
        facts_suffix(v)
    )
}

/// A change's detailed entry, for [`crate::Keep`]: the `<details>` block for the detailed
/// classes, and for an expanded `free` or `none` change that has attributes to list; nothing
/// for the others (they are listed brief).
pub(crate) fn entry(g: Group, v: &Verdict, expand: Expand) -> String {
    if is_block(g) {
        full_entry(g, v)
    } else if (expand.expands(g) || crate::text::overwriting_create(v))
        && crate::text::lists_attributes(v, true)
        && !v.attributes.is_empty()
    {
        expanded_entry(g, v)
    } else {
        String::new()
    }
}

/// An expanded `free` or `none` change: collapsed, its attributes inside.
fn expanded_entry(g: Group, v: &Verdict) -> String {
    let mut out = String::new();
    let listed = crate::text::listed_attributes(v);
    let n = v.attributes.len() + crate::text::left_out(v);
    let _ = writeln!(
        out,
        "<details><summary><b>{}</b> {}: {} ({})</summary>\n",
        g.name(),
        addr_html(v),
        html(v.action.describe()),
        html(&plural(n, "attribute", "attributes"))
    );
    attribute_items(&mut out, g, v, &listed, None, None);
    for f in sorted_facts(v) {
        let _ = writeln!(out, "- {}", md(&fact_words(f)));
    }
    out.push_str("\n</details>\n\n");
    out
}

/// A value for a list item: in code, with what was cut after it.
fn value_md(v: &ward_model::Shown) -> String {
    match crate::text::show_value_parts(v) {
        (head, Some(cut)) => format!("{} {}", code(&head), md(&cut)),
        (head, None) => code(&head),
    }
}

/// The list items of a change's attributes (see `terminal::attribute_lines`): `forcing` is the
/// attribute the summary already names as forcing the replacement, `deciding_why` the one whose
/// reason it already gives.
fn attribute_items(
    out: &mut String,
    g: Group,
    v: &Verdict,
    listed: &crate::text::Listed<'_>,
    forcing: Option<&AttrVerdict>,
    deciding_why: Option<&AttrVerdict>,
) {
    for at in &listed.shown {
        let path = code(&at.change.path.to_string());
        match crate::text::Side::of(v.action) {
            crate::text::Side::Sets => {
                let _ = writeln!(out, "- {path} = {}", value_md(&at.change.after));
                continue;
            }
            crate::text::Side::Removes => {
                let _ = writeln!(out, "- {path} was {}", value_md(&at.change.before));
                continue;
            }
            crate::text::Side::Changes => {}
        }
        let mut tags = Vec::new();
        if g != Group::Class(at.impact) {
            tags.push(format!("**{}**", at.impact));
        }
        let in_summary = forcing.is_some_and(|f| std::ptr::eq(f, *at));
        if at.forces_replacement && !in_summary {
            tags.push("forces replacement".into());
        }
        let tags = if tags.is_empty() {
            String::new()
        } else {
            format!(" ({})", tags.join(", "))
        };
        let _ = writeln!(
            out,
            "- {path}: {} → {}{tags}",
            value_md(&at.change.before),
            value_md(&at.change.after),
        );
        if let Some(why) = crate::text::attribute_why(at)
            .filter(|_| !deciding_why.is_some_and(|d| std::ptr::eq(d, *at)))
        {
            let _ = writeln!(out, "  - {}", md_rich(why));
        }
    }
    if listed.more > 0 {
        let _ = writeln!(
            out,
            "- … and {} (the JSON report lists them)",
            plural(listed.more, "more attribute", "more attributes")
        );
    }
}

/// Whether a change of group `g` gets the `<details>` block ([`full_entry`]): the detailed
/// classes.
pub(crate) fn is_block(g: Group) -> bool {
    matches!(
        g,
        Group::Unknown
            | Group::Class(
                Impact::DataLoss | Impact::Replace | Impact::Interrupt | Impact::InPlace
            )
    )
}

/// The fewest characters [`full_entry`] writes for `v` in group `g`, in either wording: its
/// fixed text, the group's name, the address (and deposed key) and the action's words, each at
/// least as long escaped, without the summary's reason or any line of the block.
pub(crate) fn least_block_chars(g: Group, v: &Verdict) -> usize {
    const FIXED: usize = "<details><summary><b>".len()
        + "</b> ".len()
        + "<code>".len()
        + "</code>".len()
        + ": ".len()
        + "</summary>\n\n".len()
        + "\n</details>\n\n".len();
    let deposed = v
        .deposed
        .as_deref()
        .map_or(0, |k| " (deposed ".len() + k.chars().count() + ")".len());
    FIXED
        + g.name().chars().count()
        + v.address.chars().count()
        + deposed
        + v.action.describe().chars().count()
}

fn full_entry(g: Group, v: &Verdict) -> String {
    // Most entries fit: grown from empty, a string is moved several times on its way there.
    let mut out = String::with_capacity(1024);
    let addr = addr_html(v);
    // The summary says why, once: the attribute that forces the replacement, else the first
    // reason the block would print, else the deciding attribute's reason. The block then leaves
    // out what the summary said.
    let forcing = v
        .attributes
        .iter()
        .find(|a| a.forces_replacement && crate::text::attribute_shown(v, a));
    let first_line = match forcing {
        Some(_) => None,
        None => crate::text::explanation_lines(v).next(),
    };
    let deciding_why = match (forcing, &first_line) {
        (None, None) => v
            .attributes
            .iter()
            .filter(|a| a.impact == v.impact && crate::text::attribute_shown(v, a))
            .find(|a| a.why.is_some()),
        _ => None,
    };
    let why = match (forcing, &first_line, deciding_why) {
        (Some(a), _, _) => Some(format!("`{}` forces replacement", a.change.path)),
        (None, Some(l), _) => Some(l.to_string()),
        (None, None, Some(a)) => a.why.as_ref().map(|w| format!("`{}`: {w}", a.change.path)),
        (None, None, None) => None,
    };
    let why = why.map(|w| format!(" — {}", html(&w))).unwrap_or_default();
    let _ = writeln!(
        out,
        "<details><summary><b>{}</b> {addr}: {}{why}</summary>\n",
        g.name(),
        html(v.action.describe())
    );
    if g == Group::Unknown && v.explanation.is_empty() {
        let _ = writeln!(
            out,
            "- cost unknown: no rule classifies the type {}",
            code(&v.type_name)
        );
    }
    if crate::text::lists_attributes(v, false) {
        let listed = crate::text::listed_attributes(v);
        attribute_items(&mut out, g, v, &listed, forcing, deciding_why);
    }
    for line in crate::text::explanation_lines(v).skip(usize::from(first_line.is_some())) {
        let _ = writeln!(out, "- {}", md_rich(&line));
    }
    if let Some(r) = v.action_reason.as_ref().filter(|r| !mentioned(v, r)) {
        let _ = writeln!(out, "- Terraform's reason: {}", code(r));
    }
    if !v.identity_changes.is_empty() && !crate::text::identity_said(v) {
        let ids: Vec<String> = v
            .identity_changes
            .iter()
            .map(|i| code(&i.to_string()))
            .collect();
        let _ = writeln!(out, "- identity changes: {}", ids.join(", "));
    }
    if v.holds_data && v.action.destroys() && !mentioned(v, "holds data") {
        let _ = writeln!(out, "- holds data: destroying or replacing it loses data");
    }
    for f in sorted_facts(v) {
        let _ = writeln!(out, "- {}", md(&fact_words(f)));
    }
    match &v.decided_by {
        Some(r) => {
            let _ = writeln!(out, "- decided by {}", code(&r.to_string()));
        }
        None if g != Group::Unknown => {
            let _ = writeln!(out, "- decided by ward's defaults");
        }
        None => {}
    }
    out.push_str("\n</details>\n\n");
    out
}

pub(crate) fn addr_html(v: &Verdict) -> String {
    match &v.deposed {
        Some(k) => format!("<code>{}</code> (deposed {})", html(&v.address), html(k)),
        None => format!("<code>{}</code>", html(&v.address)),
    }
}

pub(crate) fn addr_code(v: &Verdict) -> String {
    match &v.deposed {
        Some(k) => format!("{} (deposed {})", code(&v.address), md(k)),
        None => code(&v.address),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ward_model::Action;

    /// A block is never shorter than [`least_block_chars`] says, whatever its address, deposed
    /// key, action and group: the Markdown keep weighs a block it does not render by it.
    #[test]
    fn a_block_is_at_least_as_long_as_its_least() {
        let addresses = [
            "a.b",
            "aws_instance.web[\"`````\"]",
            "x.y[\"<&>\\\"é\u{202e}\"]",
            "module.m[\"a b\"].google_thing.z[12]",
            "",
        ];
        let actions = [
            Action::Create,
            Action::Update,
            Action::Delete,
            Action::ReplaceDeleteFirst,
            Action::ReplaceCreateFirst,
        ];
        let groups = [
            Group::Unknown,
            Group::Class(Impact::DataLoss),
            Group::Class(Impact::Replace),
            Group::Class(Impact::Interrupt),
            Group::Class(Impact::InPlace),
        ];
        for address in addresses {
            for deposed in [None, Some("0a1b2c3d"), Some("*_*`<>&")] {
                for action in actions {
                    for g in groups {
                        let mut v = Verdict::new(address, "t", "p", action, Impact::Replace);
                        v.deposed = deposed.map(String::from);
                        let block = full_entry(g, &v).chars().count();
                        let least = least_block_chars(g, &v);
                        assert!(least <= block, "{least} > {block}: {g:?} {v:?}");
                    }
                }
            }
        }
    }
}
