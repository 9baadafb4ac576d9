//! The Markdown report for pull-request comments: never longer than its limit, and always says
//! how many entries it left out.
//!
//! Sizes are counted in characters (Unicode scalar values), as comment limits are.
//!
//! When the full report is too long it is summarised step by step, each step applied entry by
//! entry from the end of the list (the lowest class first):
//!
//! 1. detailed changes lose their details (address and action only), and the report says how
//!    many did;
//! 2. drift entries are left out, then output changes;
//! 3. changes are left out;
//! 4. unclassified types are left out.
//!
//! Every list that lost entries ends with `… and N more … not shown (see the JSON report)`. The
//! smallest number of steps that fits is found by bisection. If even the fully summarised report
//! does not fit, a short notice replaces it, cut to the limit if it must be.

use crate::escape::{html, md_code as code, md_rich, md_text as md};
use crate::kept::{Held, Kept};
use crate::outcome::{plural, thousands};
use crate::text::{deciding_line, fact_words, mentioned, product_line, sorted_facts};
use crate::{class_counts, grouped_indexed, Expand, Group, Outcome};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use ward_classify::{Assessment, AttrVerdict, Verdict};
use ward_model::{Action, Impact};
use ward_rules::RuleOrigin;

/// The default limit, in characters (a pull-request comment holds 65,536).
pub const DEFAULT_MARKDOWN_LIMIT: usize = 65_000;

/// The smallest limit the CLI accepts. Below it the library still never exceeds the limit, but the
/// report may be only a cut-off notice.
pub const MIN_MARKDOWN_LIMIT: usize = 1_000;

/// Renders the Markdown report in at most `limit` characters.
pub fn render_markdown(a: &Assessment, outcome: &Outcome, limit: usize) -> String {
    render_markdown_kept(a, outcome, limit, Expand::default(), None)
}

/// [`render_markdown`]; with `kept`, the entries of the verdicts it kept are its own (rendered
/// when they were classified).
pub(crate) fn render_markdown_kept(
    a: &Assessment,
    outcome: &Outcome,
    limit: usize,
    expand: Expand,
    kept: Option<Kept<'_>>,
) -> String {
    let doc = Doc::build(a, outcome, expand, kept);
    let steps = doc.steps();
    let fits = |k: usize| -> Option<String> {
        let s = doc.render(&steps[..k]);
        (s.chars().count() <= limit).then_some(s)
    };
    // With dropped changes, a report fits only once every change after the kept ones is left
    // out: that is, from the first step that leaves a change out (they come last, and are left
    // out first). Every step before it shows them, and does not fit.
    let floor = match doc.dropped {
        0 => 0,
        _ => steps
            .iter()
            .position(|s| matches!(s, Step::OmitChange(_)))
            .unwrap_or(steps.len()),
    };
    if doc.dropped == 0 {
        if let Some(s) = fits(0) {
            return s;
        }
    }
    if fits(steps.len()).is_none() {
        return doc.notice(limit);
    }
    // Bisection: `lo` does not fit, `hi` fits.
    let (mut lo, mut hi) = (floor.saturating_sub(1), steps.len());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid).is_some() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    fits(hi).unwrap_or_else(|| doc.notice(limit))
}

/// One step of summarising.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Change `i` is shown brief.
    Brief(usize),
    /// Drift entry `i` is left out.
    OmitDrift(usize),
    /// Output `i` is left out.
    OmitOutput(usize),
    /// Change `i` is left out.
    OmitChange(usize),
    /// Unclassified type `i` is left out.
    OmitType(usize),
}

/// A change as an entry of the report.
struct Item {
    group: Group,
    full: Option<String>,
    brief: String,
}

/// The report, pre-rendered piece by piece.
struct Doc {
    head: String,
    /// Changes that get an entry, worst first.
    items: Vec<Item>,
    /// Group headings, by group, with the group's total size.
    groups: BTreeMap<Group, usize>,
    none_actions: String,
    coverage_head: String,
    types: Vec<String>,
    outputs_head: Option<String>,
    outputs: Vec<String>,
    drift_head: Option<String>,
    drift: Vec<String>,
    /// Short summary for the notice.
    result_line: String,
    total_changes: usize,
    /// Changes after `items` that a [`crate::Keep`] dropped: every report that fits leaves
    /// them out.
    dropped: usize,
}

impl Doc {
    fn build(a: &Assessment, outcome: &Outcome, expand: Expand, kept: Option<Kept<'_>>) -> Doc {
        let mut items = Vec::new();
        let mut dropped = 0;
        let mut groups = BTreeMap::new();
        let mut none_actions = String::new();
        for (g, is) in grouped_indexed(a) {
            let vs: Vec<(usize, &Verdict)> = is
                .into_iter()
                .filter_map(|i| a.verdicts.get(i).map(|v| (i, v)))
                .collect();
            groups.insert(g, vs.len());
            if g == Group::Class(Impact::None) {
                let mut by_action: BTreeMap<Action, usize> = BTreeMap::new();
                for (_, v) in &vs {
                    *by_action.entry(v.action).or_default() += 1;
                }
                let parts: Vec<String> = by_action
                    .iter()
                    .map(|(act, n)| format!("{} {}", thousands(*n), act.as_terraform()))
                    .collect();
                none_actions = parts.join(", ");
            }
            for (i, v) in vs {
                // No-ops and reads are counted, not listed, unless a fact makes them worth a
                // line or they are expanded.
                if !listed(g, v, expand) {
                    continue;
                }
                let (full, brief) = match kept.map_or(Held::Whole, |k| k.held(i, v)) {
                    Held::Entry(full, brief) => (
                        (!full.is_empty()).then(|| full.to_string()),
                        brief.to_string(),
                    ),
                    Held::Whole => {
                        let full = entry(g, v, expand);
                        ((!full.is_empty()).then_some(full), brief_entry(v, expand))
                    }
                    Held::Dropped => {
                        dropped += 1;
                        continue;
                    }
                };
                items.push(Item {
                    group: g,
                    full,
                    brief,
                });
            }
        }
        let result_line = result_line(a, outcome);
        let head = head(a, outcome, &result_line, kept.map(|k| &k.keep.origins));
        let c = &a.coverage;
        let checked = plural(
            c.types_checked,
            "managed resource type",
            "managed resource types",
        );
        let coverage_head = if c.unclassified.is_empty() {
            format!("**Coverage:** ok, {checked}, all classified.\n")
        } else if c.fails() {
            format!(
                "**Coverage: failed.** {} of {checked} unclassified. Classify each in `ward.hcl` (see `ward docs rules`), or pass `--allow-unclassified`.\n",
                thousands(c.unclassified.len())
            )
        } else if c.relaxed {
            format!(
                "**Coverage:** relaxed by `--allow-unclassified`: {} of {checked} unclassified.\n",
                thousands(c.unclassified.len())
            )
        } else {
            format!(
                "**Coverage:** ok: {} of {checked} unclassified, but no change of this plan touches them.\n",
                thousands(c.unclassified.len())
            )
        };
        let types = c
            .unclassified
            .iter()
            .map(|(t, seen)| {
                let seen: Vec<String> = seen.iter().map(|s| md(s)).collect();
                format!("- {} (seen in {})\n", code(t), seen.join(", "))
            })
            .collect();
        let mut outs: Vec<_> = a
            .outputs
            .iter()
            .filter(|o| o.action != Action::NoOp)
            .collect();
        outs.sort_by(|x, y| x.name.cmp(&y.name));
        let outputs_head = (!outs.is_empty())
            .then(|| format!("#### Outputs ({} changing)\n", thousands(outs.len())));
        let outputs = outs
            .iter()
            .map(|o| {
                let sens = if o.sensitive { " (sensitive)" } else { "" };
                format!("- {}: {}{sens}\n", code(&o.name), o.action.as_terraform())
            })
            .collect();
        let mut ds: Vec<&Verdict> = a
            .drift
            .iter()
            .filter(|v| v.action != Action::NoOp)
            .collect();
        ds.sort_by(|x, y| (&x.address, &x.deposed).cmp(&(&y.address, &y.deposed)));
        let drift_head = (!ds.is_empty()).then(|| {
            format!(
                "#### Drift ({} changed outside Terraform; context, not gated)\n",
                thousands(ds.len())
            )
        });
        let drift = ds
            .iter()
            .map(|v| {
                let class = if v.classified {
                    v.impact.as_str()
                } else {
                    "unclassified"
                };
                format!(
                    "- {}: {} ({class})\n",
                    addr_code(v),
                    v.action.as_terraform()
                )
            })
            .collect();
        Doc {
            head,
            items,
            groups,
            none_actions,
            coverage_head,
            types,
            outputs_head,
            outputs,
            drift_head,
            drift,
            result_line,
            total_changes: a.verdicts.len(),
            dropped,
        }
    }

    /// Every summarising step, in the order they are applied.
    fn steps(&self) -> Vec<Step> {
        let mut s = Vec::new();
        for i in (0..self.items.len()).rev() {
            if self.items[i].full.is_some() {
                s.push(Step::Brief(i));
            }
        }
        s.extend((0..self.drift.len()).rev().map(Step::OmitDrift));
        s.extend((0..self.outputs.len()).rev().map(Step::OmitOutput));
        s.extend((0..self.items.len()).rev().map(Step::OmitChange));
        s.extend((0..self.types.len()).rev().map(Step::OmitType));
        s
    }

    fn render(&self, steps: &[Step]) -> String {
        let mut brief = vec![false; self.items.len()];
        let mut omit_item = vec![false; self.items.len()];
        let mut omit_drift = vec![false; self.drift.len()];
        let mut omit_out = vec![false; self.outputs.len()];
        let mut omit_type = vec![false; self.types.len()];
        for st in steps {
            match *st {
                Step::Brief(i) => brief[i] = true,
                Step::OmitChange(i) => omit_item[i] = true,
                Step::OmitDrift(i) => omit_drift[i] = true,
                Step::OmitOutput(i) => omit_out[i] = true,
                Step::OmitType(i) => omit_type[i] = true,
            }
        }
        let mut out = self.head.clone();
        let mut current: Option<Group> = None;
        let mut in_list = false;
        for (i, it) in self.items.iter().enumerate() {
            if omit_item[i] {
                continue;
            }
            if current != Some(it.group) {
                if in_list {
                    out.push('\n');
                    in_list = false;
                }
                current = Some(it.group);
                let n = self.groups.get(&it.group).copied().unwrap_or(0);
                let _ = write!(out, "#### {} ({})", it.group.name(), thousands(n));
                if it.group == Group::Class(Impact::None) && !self.none_actions.is_empty() {
                    let _ = write!(out, ": {}", self.none_actions);
                }
                out.push_str("\n\n");
            }
            match (&it.full, brief[i]) {
                (Some(full), false) => {
                    if in_list {
                        out.push('\n');
                        in_list = false;
                    }
                    out.push_str(full);
                }
                _ => {
                    out.push_str(&it.brief);
                    in_list = true;
                }
            }
        }
        if in_list {
            out.push('\n');
        }
        let condensed = (0..self.items.len())
            .filter(|i| brief[*i] && !omit_item[*i] && self.items[*i].full.is_some())
            .count();
        if condensed > 0 {
            let _ = write!(
                out,
                "_Details of {} not shown, to fit the size limit (see the JSON report)._\n\n",
                plural(condensed, "change", "changes")
            );
        }
        let omitted = omit_item.iter().filter(|o| **o).count() + self.dropped;
        if omitted > 0 {
            let _ = write!(
                out,
                "_… and {} not shown (see the JSON report)._\n\n",
                plural(omitted, "more change", "more changes")
            );
        }
        out.push_str("#### Coverage\n\n");
        out.push_str(&self.coverage_head);
        list(
            &mut out,
            &self.types,
            &omit_type,
            "more unclassified type",
            "more unclassified types",
        );
        if let Some(h) = &self.outputs_head {
            out.push('\n');
            out.push_str(h);
            list(
                &mut out,
                &self.outputs,
                &omit_out,
                "more output change",
                "more output changes",
            );
        }
        if let Some(h) = &self.drift_head {
            out.push('\n');
            out.push_str(h);
            list(
                &mut out,
                &self.drift,
                &omit_drift,
                "more drift entry",
                "more drift entries",
            );
        }
        out
    }

    /// The last resort: a notice that says nothing fits, cut to `limit`.
    fn notice(&self, limit: usize) -> String {
        let s = format!(
            "### ward plan: {}\n\nThis report does not fit in {} characters: all {} not shown (see the JSON report).\n",
            self.result_line,
            thousands(limit),
            plural(self.total_changes, "change", "changes"),
        );
        s.chars().take(limit).collect()
    }
}

fn list(out: &mut String, entries: &[String], omit: &[bool], one: &str, many: &str) {
    if !entries.is_empty() {
        out.push('\n');
    }
    let mut shown = 0;
    for (e, o) in entries.iter().zip(omit) {
        if !*o {
            out.push_str(e);
            shown += 1;
        }
    }
    let omitted = entries.len() - shown;
    if omitted > 0 {
        let _ = writeln!(
            out,
            "{}_… and {} not shown (see the JSON report)._",
            if shown > 0 { "\n" } else { "" },
            plural(omitted, one, many)
        );
    }
}

/// `FAIL (exit 3): coverage failed: …`; without a threshold on a costly plan
/// `1 data-loss, 3 replace · no --fail-on set (exit 0)`, never "pass".
fn result_line(a: &Assessment, outcome: &Outcome) -> String {
    let (lead, rest) = crate::outcome::result_words(a, outcome);
    if rest == crate::outcome::NO_THRESHOLD {
        return format!("{} · no `--fail-on` set (exit 0)", md(&lead));
    }
    let word = if lead == "PASS" { "pass" } else { "FAIL" };
    format!("{word} (exit {}): {}", outcome.exit.code(), md(&rest))
}

fn head(
    a: &Assessment,
    outcome: &Outcome,
    result_line: &str,
    kept: Option<&BTreeSet<RuleOrigin>>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### ward plan: {result_line}\n");
    let headline = outcome.headline();
    for r in &outcome.reasons {
        if r.message != headline {
            let _ = writeln!(out, "- {}", md(&r.message));
        }
    }
    if outcome.reasons.iter().any(|r| r.message != headline) {
        out.push('\n');
    }
    let threshold = match outcome.fail_on {
        Some(t) => format!("`--fail-on {t}`"),
        None => "no `--fail-on` threshold".into(),
    };
    let _ = write!(
        out,
        "{} · plan format {} · {threshold} · decided by {}",
        md(&product_line(a)),
        a.plan.format_version,
        deciding_line(a, kept, md, code)
    );
    out.push_str("\n\n");
    if a.plan.errored {
        out.push_str("> **Warning:** the plan is errored: planning failed part-way, so it is incomplete and not safe to apply.\n\n");
    }
    if a.plan.complete == Some(false) {
        out.push_str("> **Note:** the plan is not complete (deferred changes): another plan and apply round will be needed.\n\n");
    }
    let (counts, unknown) = class_counts(a);
    out.push_str("| class | changes |\n|---|--:|\n");
    if unknown > 0 {
        let _ = writeln!(
            out,
            "| **unclassified** (cost unknown) | {} |",
            thousands(unknown)
        );
    }
    for i in Impact::ALL.iter().rev() {
        let n = counts.get(i).copied().unwrap_or(0);
        if n > 0 && *i >= Impact::Replace {
            let _ = writeln!(out, "| **{i}** | **{}** |", thousands(n));
        } else {
            let _ = writeln!(out, "| {i} | {} |", thousands(n));
        }
    }
    let _ = writeln!(out, "| total | {} |\n", thousands(a.verdicts.len()));
    out
}

fn facts_suffix(v: &Verdict) -> String {
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
    if matches!(
        g,
        Group::Unknown
            | Group::Class(
                Impact::DataLoss | Impact::Replace | Impact::Interrupt | Impact::InPlace
            )
    ) {
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

fn full_entry(g: Group, v: &Verdict) -> String {
    let mut out = String::new();
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

fn addr_html(v: &Verdict) -> String {
    match &v.deposed {
        Some(k) => format!("<code>{}</code> (deposed {})", html(&v.address), html(k)),
        None => format!("<code>{}</code>", html(&v.address)),
    }
}

fn addr_code(v: &Verdict) -> String {
    match &v.deposed {
        Some(k) => format!("{} (deposed {})", code(&v.address), md(k)),
        None => code(&v.address),
    }
}
