//! Wording shared by the human formats (terminal and Markdown).

use crate::escape::terminal;
use ward_classify::{Assessment, Fact, Verdict};
use ward_model::{Product, Shown};
use ward_rules::RuleOrigin;

/// The longest value (in chars) the human formats print before shortening it with `…`.
pub(crate) const MAX_VALUE_CHARS: usize = 80;

/// A value as the human formats show it: JSON for known values (strings quoted, control characters
/// and bidi or line-separator characters escaped), `(sensitive)`, `(known after apply)`, `null`. Never the value behind `Sensitive`.
pub(crate) fn show_value(v: &Shown) -> String {
    match v {
        Shown::Known(j) => shorten(&terminal(&j.to_string()), MAX_VALUE_CHARS),
        Shown::Sensitive => "(sensitive)".into(),
        Shown::Unknown => "(known after apply)".into(),
        Shown::Absent => "null".into(),
    }
}

/// Cuts `s` to at most `max` chars, ending with `…` when it was cut.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
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
/// printed once).
pub(crate) fn explanation_lines(v: &Verdict) -> impl Iterator<Item = &String> {
    let action = ward_classify::explain::action_line(v.action);
    // An attribute printed with its own reason says more than the type's general rationale.
    let attr_reason = v
        .attributes
        .iter()
        .any(|a| a.why.is_some() && attribute_shown(v, a));
    v.explanation.iter().filter(move |l| {
        let shown_elsewhere = l.as_str() == action
            || l.starts_with("identity changes: ")
            || (attr_reason && l.starts_with("rule rationale: "))
            || forcing_line_of_a_shown_attribute(v, l)
            || cost_line_of_a_shown_attribute(v, l)
            || v.attributes
                .iter()
                .any(|a| a.why.as_deref() == Some(l.as_str()) && attribute_shown(v, a));
        !shown_elsewhere
    })
}

/// `` `image` forces replacement: a → b `` when the attribute line for `image` is printed.
fn forcing_line_of_a_shown_attribute(v: &Verdict, line: &str) -> bool {
    // Such a line starts with the path in backticks: others need no formatting of paths.
    line.starts_with('`')
        && v.attributes.iter().any(|a| {
            a.forces_replacement
                && attribute_shown(v, a)
                && line.starts_with(&format!("`{}` forces replacement", a.change.path))
        })
}

/// `` `size` costs interrupt: a → b — why `` when the attribute line for `size` (its values, class,
/// rule and reason) is printed: the line would say the same facts again.
fn cost_line_of_a_shown_attribute(v: &Verdict, line: &str) -> bool {
    line.starts_with('`')
        && v.attributes.iter().any(|a| {
            attribute_shown(v, a)
                && line.starts_with(&format!("`{}` costs {}: ", a.change.path, a.impact))
        })
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
            let said = format!("forces replacement, which costs {}", at.impact);
            match why.strip_prefix(&said) {
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
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abc", 4), "abc");
        assert_eq!(
            show_value(&Shown::Known(serde_json::json!("x\ny"))),
            "\"x\\ny\""
        );
        assert_eq!(show_value(&Shown::Sensitive), "(sensitive)");
    }
}
