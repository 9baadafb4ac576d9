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

use crate::entry::markdown::{addr_code, brief_entry, entry, listed};
use crate::escape::{md_code as code, md_text as md};
use crate::group::{class_counts, grouped_indexed, total, Counted, Group};
use crate::kept::{Held, Kept};
use crate::options::Expand;
use crate::outcome::Outcome;
use crate::outcome::{plural, thousands};
use crate::text::{deciding_line, product_line};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use ward_classify::{Assessment, Verdict};
use ward_model::{Action, Impact};
use ward_rules::RuleOrigin;

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
        let no_count = Counted::new();
        let counted = kept.map_or(&no_count, |k| &k.keep.counted);
        for (g, is) in grouped_indexed(a) {
            let vs: Vec<(usize, &Verdict)> = is
                .into_iter()
                .filter_map(|i| a.verdicts.get(i).map(|v| (i, v)))
                .collect();
            if g == Group::Class(Impact::None) {
                groups.insert(g, vs.len() + counted.values().sum::<usize>());
                let mut by_action: BTreeMap<Action, usize> = counted.clone();
                for (_, v) in &vs {
                    *by_action.entry(v.action).or_default() += 1;
                }
                let parts: Vec<String> = by_action
                    .iter()
                    .map(|(act, n)| format!("{} {}", thousands(*n), act.as_terraform()))
                    .collect();
                none_actions = parts.join(", ");
            } else {
                groups.insert(g, vs.len());
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
        let head = head(
            a,
            outcome,
            &result_line,
            kept.map(|k| &k.keep.origins),
            counted,
        );
        let (coverage_head, types) = coverage(a);
        let (outputs_head, outputs) = outputs(a);
        let (drift_head, drift) = drift(a);
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
            total_changes: total(a, counted),
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
/// The Markdown report's coverage line and its unclassified types, one list item each.
fn coverage(a: &Assessment) -> (String, Vec<String>) {
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
    let types: Vec<String> = c
        .unclassified
        .iter()
        .map(|(t, seen)| {
            let seen: Vec<String> = seen.iter().map(|s| md(s)).collect();
            format!("- {} (seen in {})\n", code(t), seen.join(", "))
        })
        .collect();
    (coverage_head, types)
}

/// The Markdown report's changing outputs: their heading (none when nothing changes) and items.
fn outputs(a: &Assessment) -> (Option<String>, Vec<String>) {
    let mut outs: Vec<_> = a
        .outputs
        .iter()
        .filter(|o| o.action != Action::NoOp)
        .collect();
    outs.sort_by(|x, y| x.name.cmp(&y.name));
    let outputs_head =
        (!outs.is_empty()).then(|| format!("#### Outputs ({} changing)\n", thousands(outs.len())));
    let outputs: Vec<String> = outs
        .iter()
        .map(|o| {
            let sens = if o.sensitive { " (sensitive)" } else { "" };
            format!("- {}: {}{sens}\n", code(&o.name), o.action.as_terraform())
        })
        .collect();
    (outputs_head, outputs)
}

/// The Markdown report's drift: its heading (none without drift) and one item a change.
fn drift(a: &Assessment) -> (Option<String>, Vec<String>) {
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
    let drift: Vec<String> = ds
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
    (drift_head, drift)
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
    counted: &Counted,
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
    let (counts, unknown) = class_counts(a, counted);
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
    let _ = writeln!(out, "| total | {} |\n", thousands(total(a, counted)));
    out
}
