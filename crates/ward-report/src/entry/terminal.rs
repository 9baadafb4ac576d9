//! A change's entry in the terminal report: its block (the detailed classes) or its row. Kept
//! entries (`crate::kept`) and the whole report (`crate::terminal`) both render it here.

use crate::escape::terminal;
use crate::group::Group;
use crate::options::Expand;
use crate::outcome::plural;
use crate::paint::Painter;
use crate::text::{fact_words, full_address, mentioned, push_value, sorted_facts};
use std::fmt::Write as _;
use ward_classify::Verdict;
use ward_model::Impact;

/// One change's entry as the report prints it: its block (detailed classes), its row (free;
/// with its attributes when expanded), nothing (none: counted, not listed, unless expanded).
/// For [`crate::Keep`].
pub(crate) fn entry(color: bool, expand: Expand, g: Group, v: &Verdict) -> String {
    let p = Painter { color };
    // Most entries fit: grown from empty, a string is moved several times on its way there.
    let mut out = String::with_capacity(1024);
    match g {
        Group::Class(Impact::None | Impact::Free) => row(
            &mut out,
            v,
            expand.expands(g) || crate::text::overwriting_create(v),
        ),
        _ => detailed(&mut out, &p, g, v),
    }
    out
}

/// Writes one explanation line of a change block, indented and escaped, with its newline.
/// [`crate::kept`] finds a verdict's `action_reason` line in a block by this form, to word it
/// for OpenTofu without rendering the block again.
pub(crate) fn explanation_line(out: &mut String, line: &str) {
    out.push_str("    ");
    out.push_str(&terminal(line));
    out.push('\n');
}

pub(crate) fn detailed(out: &mut String, p: &Painter, g: Group, v: &Verdict) {
    out.push_str(&p.tag(g));
    out.push_str("  ");
    p.push(out, anstyle::Style::new().bold(), &full_address(v));
    out.push_str("  ");
    out.push_str(v.action.describe());
    out.push('\n');
    let ind = "    ";
    if g == Group::Unknown && v.explanation.is_empty() {
        let _ = writeln!(
            out,
            "{ind}cost unknown: no rule classifies the type {}",
            terminal(&v.type_name)
        );
    }
    attribute_lines(out, g, v, ind, crate::text::lists_attributes(v, false));
    for line in crate::text::explanation_lines(v) {
        explanation_line(out, &line);
    }
    if let Some(r) = v.action_reason.as_ref().filter(|r| !mentioned(v, r)) {
        let _ = writeln!(out, "{ind}Terraform's reason: {}", terminal(r));
    }
    if !v.identity_changes.is_empty() && !crate::text::identity_said(v) {
        let ids: Vec<String> = v
            .identity_changes
            .iter()
            .map(|i| terminal(&i.to_string()).into_owned())
            .collect();
        let _ = writeln!(out, "{ind}identity changes: {}", ids.join(", "));
    }
    if v.holds_data && v.action.destroys() && !mentioned(v, "holds data") {
        let _ = writeln!(
            out,
            "{ind}holds data: destroying or replacing it loses data"
        );
    }
    for f in sorted_facts(v) {
        let _ = writeln!(out, "{ind}{}", fact_words(f));
    }
    match &v.decided_by {
        Some(r) => {
            // Written once into a string sized for most, then escaped (its first words need
            // no escape).
            let mut said = String::with_capacity(80);
            said.push_str("decided by ");
            let _ = r.write_to(&mut said);
            out.push_str(ind);
            p.push(out, anstyle::Style::new().dimmed(), &terminal(&said));
            out.push('\n');
        }
        None if g != Group::Unknown => {
            let _ = writeln!(out, "{ind}{}", p.dim("decided by ward's defaults"));
        }
        None => {}
    }
    out.push('\n');
}

/// The attribute lines of a change, indented by `ind`: `~ path: before → after  [tags]` for
/// an update or a replacement (its class when it is not the block's, `forces replacement`),
/// `+ path = value` for what a create sets, `- path = value` for what a delete removes; at most
/// [`crate::text::MAX_LISTED_ATTRIBUTES`] of a whole object, then how many more. Nothing when
/// `listed` is false.
pub(crate) fn attribute_lines(out: &mut String, g: Group, v: &Verdict, ind: &str, listed: bool) {
    if !listed {
        return;
    }
    let attrs = crate::text::listed_attributes(v);
    let side = crate::text::Side::of(v.action);
    // Each path written into one buffer without a `Formatter`, then escaped; each line
    // appended piece by piece.
    let mut buf = String::new();
    for at in &attrs.shown {
        buf.clear();
        let _ = at.change.path.write_to(&mut buf);
        let path = terminal(&buf);
        out.push_str(ind);
        match side {
            crate::text::Side::Sets | crate::text::Side::Removes => {
                let (mark, value) = match side {
                    crate::text::Side::Sets => ("+ ", &at.change.after),
                    _ => ("- ", &at.change.before),
                };
                out.push_str(mark);
                out.push_str(&path);
                out.push_str(" = ");
                push_value(out, value);
                out.push('\n');
                continue;
            }
            crate::text::Side::Changes => {}
        }
        out.push_str("~ ");
        out.push_str(&path);
        out.push_str(": ");
        push_value(out, &at.change.before);
        out.push_str(" → ");
        push_value(out, &at.change.after);
        let other_class = g != Group::Class(at.impact);
        if other_class || at.forces_replacement {
            out.push_str("  [");
            if other_class {
                out.push_str(at.impact.as_str());
            }
            if at.forces_replacement {
                if other_class {
                    out.push_str(", ");
                }
                out.push_str("forces replacement");
            }
            out.push(']');
        }
        out.push('\n');
        if let Some(why) = crate::text::attribute_why(at) {
            out.push_str(ind);
            out.push_str("    ");
            out.push_str(&terminal(why));
            out.push('\n');
        }
    }
    if attrs.more > 0 {
        let _ = writeln!(
            out,
            "{ind}… and {} (the JSON report lists them)",
            plural(attrs.more, "more attribute", "more attributes")
        );
    }
}

/// A `free` or `none` change's row: its address and action (an update's changed paths after
/// it), and with `expand` its attribute lines under it.
pub(crate) fn row(out: &mut String, v: &Verdict, expand: bool) {
    let paths: Vec<String> =
        if expand || crate::text::Side::of(v.action) != crate::text::Side::Changes {
            Vec::new()
        } else {
            v.attributes
                .iter()
                .map(|a| terminal(&a.change.path.to_string()).into_owned())
                .collect()
        };
    let attrs = if paths.is_empty() {
        String::new()
    } else {
        format!(" ({})", paths.join(", "))
    };
    let _ = writeln!(
        out,
        "    {}  {}{attrs}",
        full_address(v),
        v.action.describe()
    );
    attribute_lines(out, crate::group::group_of(v), v, "        ", expand);
}
