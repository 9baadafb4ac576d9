//! Wording shared by the human formats (terminal and Markdown).

use crate::escape::terminal;
use crate::outcome::thousands;
use std::borrow::Cow;
use std::fmt::Write as _;
use ward_classify::{Assessment, AttrVerdict, Fact, Verdict};
use ward_model::{Action, Impact, Product, Shown};
use ward_rules::RuleOrigin;

/// The longest value (in chars) the human formats print before cutting it and saying how much
/// they cut.
pub(crate) const MAX_VALUE_CHARS: usize = 80;

/// A value as the human formats show it: JSON for known values (strings quoted, control characters
/// and bidi or line-separator characters escaped), `(sensitive)`, `(known after apply)`, `null`.
/// Never the value behind `Sensitive`. A value longer than [`MAX_VALUE_CHARS`] is cut, and the
/// cut said: `"abc… 1,234 more characters`.
#[cfg(test)]
pub(crate) fn show_value(v: &Shown) -> String {
    let mut out = String::new();
    push_value(&mut out, v);
    out
}

/// [`show_value`] appended to `out`.
pub(crate) fn push_value(out: &mut String, v: &Shown) {
    let (head, cut) = show_value_parts(v);
    out.push_str(&head);
    if let Some(c) = cut {
        out.push_str(&c);
    }
}

/// How many characters past [`MAX_VALUE_CHARS`] a value may run before it is cut.
const SLACK_CHARS: usize = 24;

/// [`show_value`] in two parts: the value (its first [`MAX_VALUE_CHARS`] characters when it is
/// longer than that and [`SLACK_CHARS`] more) and, when it was cut, what was cut (`… 1,234 more
/// characters`; `at least` when the plan reader had already shortened a string in it, so ward
/// does not hold the rest).
pub(crate) fn show_value_parts(v: &Shown) -> (String, Option<String>) {
    match v {
        Shown::Known(j) => {
            // The value's text as it is when nothing needed escaping, not a copy of it.
            // serde_json's own writer: the same text as `Display`, without a `Formatter`.
            let raw = serde_json::to_string(j).unwrap_or_else(|_| j.to_string());
            let escaped = match terminal(&raw) {
                Cow::Owned(e) => Some(e),
                Cow::Borrowed(_) => None,
            };
            let text = escaped.unwrap_or(raw);
            let total = text.chars().count();
            // Cutting fewer characters than the note takes says nothing: such a value is whole.
            if total <= MAX_VALUE_CHARS + SLACK_CHARS {
                return (text, None);
            }
            let kept = MAX_VALUE_CHARS;
            let head: String = text.chars().take(kept).collect();
            let more = total - kept;
            let at_least = if reader_shortened(j) { "at least " } else { "" };
            let unit = if more == 1 { "character" } else { "characters" };
            (
                head,
                Some(format!("… {at_least}{} more {unit}", thousands(more))),
            )
        }
        Shown::Sensitive => ("(sensitive)".into(), None),
        Shown::Unknown => ("(known after apply)".into(), None),
        Shown::Absent => ("null".into(), None),
    }
}

/// True when some string in `v` is one the plan reader shortened ([`Shown::MAX_STRING`]
/// characters and its `…` mark): the plan held more than ward kept.
fn reader_shortened(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => {
            s.ends_with('…') && s.chars().count() == Shown::MAX_STRING + 1
        }
        serde_json::Value::Array(a) => a.iter().any(reader_shortened),
        serde_json::Value::Object(m) => m.values().any(reader_shortened),
        _ => false,
    }
}

/// The most attribute lines a change lists in the terminal and Markdown reports; the JSON
/// report carries every attribute the plan reader kept.
pub(crate) const MAX_LISTED_ATTRIBUTES: usize = 20;

/// What a change's attributes are: changes of an object that stays (update, replacement), what
/// a create sets, or what a delete removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// `before → after`.
    Changes,
    /// The create's planned values.
    Sets,
    /// The deleted object's last values.
    Removes,
}

impl Side {
    pub(crate) fn of(a: Action) -> Side {
        match a {
            Action::Create | Action::CreateThenForget => Side::Sets,
            Action::Delete => Side::Removes,
            _ => Side::Changes,
        }
    }
}

/// Whether a change's block lists its attributes: always an update's or a replacement's (they
/// decide its class), a create's when it costs more than `free` or overwrites state that exists
/// outside this root (what it sets is what it costs or takes over) or when expanded, a
/// delete's only when expanded. An unclassified update's or replacement's attributes are in its
/// explanation already (the classifier lists what changes, with what forces the replacement), so
/// the block does not list them twice; the JSON report carries them.
pub(crate) fn lists_attributes(v: &Verdict, expanded: bool) -> bool {
    if !v.classified && Side::of(v.action) == Side::Changes {
        return false;
    }
    match Side::of(v.action) {
        Side::Changes => true,
        Side::Sets => expanded || v.impact > Impact::Free || v.overwrites.is_some(),
        Side::Removes => expanded,
    }
}

/// A create whose type overwrites state outside this root: what it sets is listed whatever
/// its class and whatever `--expand` says.
pub(crate) fn overwriting_create(v: &Verdict) -> bool {
    v.overwrites.is_some() && Side::of(v.action) == Side::Sets
}

/// The attributes a change lists, and how many more it has.
pub(crate) struct Listed<'v> {
    pub(crate) shown: Vec<&'v AttrVerdict>,
    pub(crate) more: usize,
}

/// The attributes a change lists: those [`attribute_shown`], the costliest first then by path,
/// at most [`MAX_LISTED_ATTRIBUTES`]; `more` counts the others, and those the plan reader left
/// out of the verdict.
pub(crate) fn listed_attributes(v: &Verdict) -> Listed<'_> {
    let mut shown: Vec<&AttrVerdict> = v
        .attributes
        .iter()
        .filter(|at| attribute_shown(v, at))
        .collect();
    shown.sort_by(|x, y| {
        (std::cmp::Reverse(x.impact), &x.change.path)
            .cmp(&(std::cmp::Reverse(y.impact), &y.change.path))
    });
    let more = shown.len().saturating_sub(MAX_LISTED_ATTRIBUTES) + left_out(v);
    shown.truncate(MAX_LISTED_ATTRIBUTES);
    Listed { shown, more }
}

/// How many attributes of the change the verdict does not hold (the plan reader's bound).
pub(crate) fn left_out(v: &Verdict) -> usize {
    v.attributes_left_out
}

/// `Terraform 1.9.5`, `OpenTofu 1.8.0`, `unknown product`.
pub(crate) fn product_line(a: &Assessment) -> String {
    let product = match a.plan.product {
        Product::Terraform => "Terraform",
        Product::OpenTofu => "OpenTofu",
        Product::Unknown => "unknown product",
    };
    match &a.plan.terraform_version {
        Some(v) => format!("{product} {}", terminal(v)),
        None => product.to_string(),
    }
}

/// The packs (`name version`) and user rule files that decided something in this report: a
/// verdict's cost or an attribute's, in the changes or in drift, and the origins `kept` holds
/// (a [`crate::Keep`]'s, of the verdicts it slimmed). Sorted.
pub(crate) fn deciding(
    a: &Assessment,
    kept: Option<&std::collections::BTreeSet<RuleOrigin>>,
) -> (Vec<String>, Vec<String>) {
    let mut packs = std::collections::BTreeSet::new();
    let mut files = std::collections::BTreeSet::new();
    let rules = a.verdicts.iter().chain(&a.drift).flat_map(|v| {
        v.decided_by
            .iter()
            .chain(v.attributes.iter().filter_map(|at| at.rule.as_ref()))
            .map(|r| &r.origin)
    });
    for origin in rules.chain(kept.into_iter().flatten()) {
        match origin {
            RuleOrigin::Pack { name, version } => {
                packs.insert(format!("{} {}", terminal(name), terminal(version)));
            }
            RuleOrigin::User { file, .. } => {
                files.insert(file.clone());
            }
        }
    }
    (packs.into_iter().collect(), files.into_iter().collect())
}

/// What decided something in this report (see [`deciding`]), as the header prints it after
/// `decided by `: `packs: aws 2026.11.0, random 2026.11.1`, `rule files: ward.hcl`, both joined
/// with ` · `, or `packs: no pack decided anything`. `pack` and `file` escape one name each for
/// the output format.
pub(crate) fn deciding_line(
    a: &Assessment,
    kept: Option<&std::collections::BTreeSet<RuleOrigin>>,
    pack: impl Fn(&str) -> String,
    file: impl Fn(&str) -> String,
) -> String {
    let (packs, files) = deciding(a, kept);
    let packs = packs.iter().map(|p| pack(p)).collect::<Vec<_>>().join(", ");
    let files = files.iter().map(|f| file(f)).collect::<Vec<_>>().join(", ");
    match (packs.is_empty(), files.is_empty()) {
        (true, true) => "packs: no pack decided anything".into(),
        (false, true) => format!("packs: {packs}"),
        (true, false) => format!("rule files: {files}"),
        (false, false) => format!("packs: {packs} · rule files: {files}"),
    }
}

/// A fact in words, e.g. `imported (id "i-123")`, `moved from aws_instance.old`.
pub(crate) fn fact_words(f: &Fact) -> String {
    match f {
        Fact::Import { id: Some(id) } => format!("imported (id {})", terminal(&quote(id))),
        Fact::Import { id: None } => "imported".into(),
        Fact::Move { from } => format!("moved from {}", terminal(from)),
        Fact::Forget => "forgotten: removed from state, left running unmanaged".into(),
        Fact::Deposed { key } => format!("deposed object {}", terminal(key)),
    }
}

/// The facts of a verdict, sorted.
pub(crate) fn sorted_facts(v: &Verdict) -> Vec<&Fact> {
    let mut f: Vec<&Fact> = v.facts.iter().collect();
    f.sort();
    f
}

/// True when the verdict's explanation already says `what` (so the report need not repeat it).
pub(crate) fn mentioned(v: &Verdict, what: &str) -> bool {
    v.explanation.iter().any(|l| l.contains(what))
}

/// The explanation lines a change block prints: the classifier's, less what the block shows
/// from the verdict's structure (the action, in the block's first line; the identity changes,
/// printed once; the class, in the block's tag, so a line that only glosses it, such as
/// `replacing it costs replace: destroyed … no data lost`, is left out), and without the
/// ` (per RULE)` of the rule that decided (the block names it once, on its last line).
pub(crate) fn explanation_lines(v: &Verdict) -> impl Iterator<Item = Cow<'_, str>> {
    let action = ward_classify::explain::action_line(v.action);
    // An attribute printed with its own reason says more than the type's general rationale.
    let attr_reason = v
        .attributes
        .iter()
        .any(|a| a.why.is_some() && attribute_shown(v, a));
    let per = v.decided_by.as_ref().map(|r| {
        // Sized for most rule references: grown from empty, the string moves several times.
        let mut per = String::with_capacity(80);
        let _ = write!(per, " (per {r})");
        per
    });
    let meaning = v.impact.meaning();
    let mut gloss = String::with_capacity(16 + meaning.len());
    gloss.push_str(" it costs ");
    gloss.push_str(v.impact.as_str());
    gloss.push_str(": ");
    gloss.push_str(meaning);
    v.explanation.iter().filter_map(move |l| {
        let shown_elsewhere = l.as_str() == action
            || l.starts_with("identity changes: ")
            || (attr_reason && l.starts_with("rule rationale: "))
            || glosses_the_class(l, &gloss, per.as_deref())
            || forcing_line_of_a_shown_attribute(v, l)
            || cost_line_of_a_shown_attribute(v, l)
            || v.attributes
                .iter()
                .any(|a| a.why.as_deref() == Some(l.as_str()) && attribute_shown(v, a));
        if shown_elsewhere {
            return None;
        }
        Some(match per.as_deref().and_then(|p| l.strip_suffix(p)) {
            Some(rest) => Cow::Owned(rest.to_string()),
            None => Cow::Borrowed(l.as_str()),
        })
    })
}

/// `replacing it costs replace: destroyed (and perhaps recreated) … (per RULE)`: a line that
/// says only the block's class and what the class means, per the rule the block names.
fn glosses_the_class(line: &str, gloss: &str, per: Option<&str>) -> bool {
    let Some(rest) = ["creating", "replacing", "destroying"]
        .iter()
        .find_map(|verb| line.strip_prefix(verb))
    else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(gloss) else {
        return false;
    };
    rest.is_empty() || per == Some(rest)
}

/// `` `image` forces replacement: a → b `` when the attribute line for `image` is printed.
fn forcing_line_of_a_shown_attribute(v: &Verdict, line: &str) -> bool {
    // Such a line starts with the path in backticks: others need no formatting of paths.
    line.starts_with('`')
        && v.attributes.iter().any(|a| {
            a.forces_replacement
                && attribute_shown(v, a)
                && after_path(line, a).is_some_and(|r| r.starts_with("` forces replacement"))
        })
}

/// `` `size` costs interrupt: a → b — why `` when the attribute line for `size` (its values, class,
/// rule and reason) is printed: the line would say the same facts again.
fn cost_line_of_a_shown_attribute(v: &Verdict, line: &str) -> bool {
    line.starts_with('`')
        && v.attributes.iter().any(|a| {
            attribute_shown(v, a)
                && after_path(line, a)
                    .and_then(|r| r.strip_prefix("` costs "))
                    .and_then(|r| r.strip_prefix(a.impact.as_str()))
                    .is_some_and(|r| r.starts_with(": "))
        })
}

/// The line after its opening `` ` `` and the attribute's path, when it starts so.
fn after_path<'l>(line: &'l str, a: &ward_classify::AttrVerdict) -> Option<&'l str> {
    a.change.path.strip_display(line.strip_prefix('`')?)
}

/// The explanation already names the identity that changes or is lost (`new identity: …`,
/// `identity lost: …`): the block does not list it a second time.
pub(crate) fn identity_said(v: &Verdict) -> bool {
    v.explanation
        .iter()
        .any(|l| l.starts_with("new identity") || l.starts_with("identity lost"))
}

/// An attribute line applies to this change: not an identity attribute whose only news is that
/// the replacement gets a new value (the `new identity` line says that once).
pub(crate) fn attribute_shown(v: &Verdict, at: &ward_classify::AttrVerdict) -> bool {
    !(v.action.is_replace()
        && at.rule.is_none()
        && !at.forces_replacement
        && identity_said(v)
        && v.identity_changes.contains(&at.change.path))
}

/// The reason an attribute line prints under it, less what the line's tags already say: for an
/// attribute that forces the replacement, the classifier's `forces replacement, which costs X`
/// (the tags show the class and `forces replacement`). `None` when nothing is left to say.
pub(crate) fn attribute_why(at: &ward_classify::AttrVerdict) -> Option<&str> {
    let why = at.why.as_deref()?;
    let why = match at.forces_replacement {
        true => {
            // `forces replacement, which costs {impact}`, matched piece by piece.
            let said = why
                .strip_prefix("forces replacement, which costs ")
                .and_then(|r| r.strip_prefix(at.impact.as_str()));
            match said {
                Some(rest) => rest.strip_prefix("; ").unwrap_or(rest),
                None => why,
            }
        }
        false => why,
    };
    Some(why).filter(|w| !w.is_empty())
}

/// A string in JSON quotes.
pub(crate) fn quote(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// The address with its deposed key, when it has one.
pub(crate) fn full_address(v: &Verdict) -> String {
    match &v.deposed {
        Some(k) => format!("{} (deposed {})", terminal(&v.address), terminal(k)),
        None => terminal(&v.address).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortens_and_cleans() {
        assert_eq!(
            show_value(&Shown::Known(serde_json::json!("x\ny"))),
            "\"x\\ny\""
        );
        assert_eq!(show_value(&Shown::Sensitive), "(sensitive)");
    }

    /// A long value is cut at [`MAX_VALUE_CHARS`] and says how many characters it cut; at
    /// least that many when the plan reader had already shortened it.
    #[test]
    fn a_long_value_is_cut_and_says_so() {
        let long = "a".repeat(1_300);
        let (head, cut) = show_value_parts(&Shown::Known(serde_json::json!(long)));
        assert_eq!(head.chars().count(), MAX_VALUE_CHARS);
        assert!(head.starts_with("\"aaa") && head.ends_with('a'), "{head}");
        // 1,302 characters with the quotes, 80 kept.
        assert_eq!(cut.as_deref(), Some("… 1,222 more characters"));
        assert_eq!(
            show_value(&Shown::Known(serde_json::json!(long))),
            format!("\"{}… 1,222 more characters", "a".repeat(79))
        );
        let read: String = "b".repeat(Shown::MAX_STRING).chars().chain(['…']).collect();
        let (_, cut) = show_value_parts(&Shown::Known(serde_json::json!({ "k": read })));
        assert_eq!(cut.as_deref(), Some("… at least 129 more characters"));
        // A few characters over the limit: whole, not cut for less than the note's length.
        let near = Shown::Known(serde_json::json!(
            "a".repeat(MAX_VALUE_CHARS + SLACK_CHARS - 2)
        ));
        assert_eq!(show_value_parts(&near).1, None);
        assert_eq!(
            show_value(&near).chars().count(),
            MAX_VALUE_CHARS + SLACK_CHARS
        );
        let over = Shown::Known(serde_json::json!(
            "a".repeat(MAX_VALUE_CHARS + SLACK_CHARS - 1)
        ));
        assert_eq!(
            show_value_parts(&over).1.as_deref(),
            Some("… 25 more characters")
        );
    }
}
