//! The terminal report: grouped by class, worst first; colour only when asked.

use crate::entry::terminal::entry;
use crate::escape::terminal;
use crate::group::{class_counts, grouped_indexed, total, Counted, Group};
use crate::kept::Kept;
use crate::options::Expand;
use crate::outcome::{plural, thousands};
use crate::outcome::{Exit, Outcome};
use crate::paint::Painter;
use crate::text::{deciding_line, fact_words, full_address, product_line, sorted_facts};
use anstyle::{AnsiColor, Style};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use ward_classify::{Assessment, Verdict};
use ward_model::{Action, Impact};
use ward_rules::RuleOrigin;

/// Renders the terminal report. `color` adds ANSI styles; the caller decides (TTY, `NO_COLOR`,
/// `--color`).
pub fn render_terminal(a: &Assessment, outcome: &Outcome, color: bool) -> String {
    render(a, outcome, color, Expand::default())
}

/// [`render_terminal`], with the low classes `expand` says listed with their attributes.
pub(crate) fn render(a: &Assessment, outcome: &Outcome, color: bool, expand: Expand) -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write_terminal(a, outcome, color, expand, None, &mut out);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes the terminal report to `w`, change block by change block; with `kept`, the entries
/// of the verdicts it kept are its own (rendered when they were classified).
pub(crate) fn write_terminal<W: std::io::Write>(
    a: &Assessment,
    outcome: &Outcome,
    color: bool,
    expand: Expand,
    kept: Option<Kept<'_>>,
    w: &mut W,
) -> std::io::Result<()> {
    let p = Painter { color };
    let mut out = String::new();
    let origins = kept.map(|k| &k.keep.origins);
    let no_count = Counted::new();
    let counted = kept.map_or(&no_count, |k| &k.keep.counted);
    header(&mut out, &p, a, origins);
    for (g, is) in grouped_indexed(a) {
        let none = g == Group::Class(Impact::None);
        if is.is_empty() && (!none || counted.is_empty()) {
            continue;
        }
        if none {
            let vs: Vec<&Verdict> = is.iter().filter_map(|i| a.verdicts.get(*i)).collect();
            none_group(&mut out, &p, &vs, counted, expand.none);
            if !expand.none {
                continue;
            }
        }
        if g == Group::Class(Impact::Free) {
            let _ = writeln!(
                out,
                "{}  {}",
                p.tag(Group::Class(Impact::Free)),
                plural(is.len(), "change", "changes")
            );
        }
        for i in is {
            let Some(v) = a.verdicts.get(i) else {
                continue;
            };
            if !kept.is_some_and(|k| k.push_terminal(i, v, &mut out)) {
                out.push_str(&entry(color, expand, g, v));
            }
            if out.len() >= 1 << 16 {
                w.write_all(out.as_bytes())?;
                out.clear();
            }
        }
        if matches!(g, Group::Class(Impact::Free | Impact::None)) {
            out.push('\n');
        }
    }
    if total(a, counted) == 0 {
        let _ = writeln!(out, "no resource changes in this plan\n");
    }
    facts(&mut out, &p, a);
    outputs(&mut out, a);
    drift(&mut out, a);
    coverage(&mut out, &p, a);
    summary(&mut out, &p, a, counted, outcome);
    w.write_all(out.as_bytes())
}

fn header(out: &mut String, p: &Painter, a: &Assessment, kept: Option<&BTreeSet<RuleOrigin>>) {
    let _ = writeln!(
        out,
        "{} {}, plan format {}",
        p.bold("ward plan:"),
        product_line(a),
        a.plan.format_version
    );
    let _ = writeln!(
        out,
        "decided by {}",
        deciding_line(a, kept, str::to_string, |f| terminal(f).into_owned())
    );
    if a.plan.errored {
        let _ = writeln!(
            out,
            "{} the plan is errored: planning failed part-way, so this plan is incomplete and not safe to apply",
            p.paint(Style::new().fg_color(Some(AnsiColor::Red.into())).bold(), "warning:")
        );
    }
    if a.plan.complete == Some(false) {
        let _ = writeln!(
            out,
            "note: the plan is not complete (deferred changes): another plan and apply round will be needed"
        );
    }
    out.push('\n');
}

fn none_group(out: &mut String, p: &Painter, vs: &[&Verdict], counted: &Counted, expand: bool) {
    let mut by_action: BTreeMap<Action, usize> = counted.clone();
    for v in vs {
        *by_action.entry(v.action).or_default() += 1;
    }
    let parts: Vec<String> = by_action
        .iter()
        .map(|(a, n)| format!("{} {}", thousands(*n), a.as_terraform()))
        .collect();
    let _ = writeln!(
        out,
        "{}  {} ({}){}",
        p.tag(Group::Class(Impact::None)),
        plural(by_action.values().sum(), "change", "changes"),
        parts.join(", "),
        if expand { "" } else { "\n" }
    );
}

fn facts(out: &mut String, p: &Painter, a: &Assessment) {
    let mut rows: Vec<(String, String)> = Vec::new();
    for v in &a.verdicts {
        for f in sorted_facts(v) {
            rows.push((full_address(v), fact_words(f)));
        }
    }
    if rows.is_empty() {
        return;
    }
    rows.sort();
    let _ = writeln!(out, "{}", p.bold("facts:"));
    for (addr, words) in rows {
        let _ = writeln!(out, "    {addr}  {words}");
    }
    out.push('\n');
}

fn outputs(out: &mut String, a: &Assessment) {
    let mut changing: Vec<_> = a
        .outputs
        .iter()
        .filter(|o| o.action != Action::NoOp)
        .collect();
    if changing.is_empty() {
        return;
    }
    changing.sort_by(|x, y| x.name.cmp(&y.name));
    let _ = writeln!(out, "outputs: {} changing", thousands(changing.len()));
    for o in changing {
        let sens = if o.sensitive { " (sensitive)" } else { "" };
        let _ = writeln!(
            out,
            "    {}  {}{sens}",
            terminal(&o.name),
            o.action.as_terraform()
        );
    }
    out.push('\n');
}

fn drift(out: &mut String, a: &Assessment) {
    let mut ds: Vec<&Verdict> = a
        .drift
        .iter()
        .filter(|v| v.action != Action::NoOp)
        .collect();
    if ds.is_empty() {
        return;
    }
    ds.sort_by(|x, y| (&x.address, &x.deposed).cmp(&(&y.address, &y.deposed)));
    let _ = writeln!(
        out,
        "drift: {} changed outside Terraform since the last apply (context, not gated here)",
        plural(ds.len(), "resource", "resources")
    );
    for v in ds {
        let class = if v.classified {
            v.impact.as_str()
        } else {
            "unclassified"
        };
        let _ = writeln!(
            out,
            "    {}  {}  [{class}]",
            full_address(v),
            v.action.as_terraform()
        );
    }
    out.push('\n');
}

fn coverage(out: &mut String, p: &Painter, a: &Assessment) {
    let c = &a.coverage;
    let n = c.unclassified.len();
    let checked = plural(
        c.types_checked,
        "managed resource type",
        "managed resource types",
    );
    if n == 0 {
        let _ = writeln!(out, "coverage: ok: {checked}, all classified\n");
        return;
    }
    let verdict = if c.fails() {
        p.paint(
            Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
            "FAILED",
        )
    } else if c.relaxed {
        "relaxed by --allow-unclassified".to_string()
    } else {
        "ok (no change of this plan touches them)".to_string()
    };
    let _ = writeln!(
        out,
        "coverage: {verdict}: {} of {checked} unclassified",
        thousands(n)
    );
    for (ty, seen) in &c.unclassified {
        let seen: Vec<String> = seen.iter().map(|s| terminal(s).into_owned()).collect();
        let _ = writeln!(out, "    {}  seen in {}", terminal(ty), seen.join(", "));
        if let Some(block) = c.suggestions.get(ty) {
            for line in block.lines() {
                let _ = writeln!(out, "        {}", terminal(line));
            }
        }
    }
    if c.fails() {
        let hint = if c.suggestions.is_empty() {
            "    hint: add a `resource` block for each type to ward.hcl (see `ward docs rules`), or pass --allow-unclassified"
        } else {
            "    hint: paste a block above into ward.hcl for each type and decide its values (see `ward docs rules`), or pass --allow-unclassified"
        };
        let _ = writeln!(out, "{hint}");
    }
    out.push('\n');
}

fn summary(out: &mut String, p: &Painter, a: &Assessment, counted: &Counted, outcome: &Outcome) {
    let (counts, unknown) = class_counts(a, counted);
    let mut parts: Vec<String> = Impact::ALL
        .iter()
        .rev()
        .map(|i| format!("{} {}", thousands(counts.get(i).copied().unwrap_or(0)), i))
        .collect();
    parts.push(format!("{} unclassified", thousands(unknown)));
    let _ = writeln!(out, "summary: {}", parts.join(", "));
    let (lead, rest) = crate::outcome::result_words(a, outcome);
    let style = if outcome.exit == Exit::Pass && outcome.fail_on.is_none() && lead != "PASS" {
        // Costs without a threshold: not green, not a failure either.
        Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold()
    } else if outcome.exit == Exit::Pass {
        Style::new().fg_color(Some(AnsiColor::Green.into())).bold()
    } else {
        Style::new().fg_color(Some(AnsiColor::Red.into())).bold()
    };
    let head = p.paint(style, &lead);
    let threshold = match outcome.fail_on {
        Some(t) => format!("--fail-on {t}"),
        None => "no --fail-on threshold".into(),
    };
    if rest == crate::outcome::NO_THRESHOLD {
        let _ = writeln!(
            out,
            "result: {head} · {rest} (exit {})",
            outcome.exit.code()
        );
    } else {
        let _ = writeln!(
            out,
            "result: {head} (exit {}, {threshold}): {rest}",
            outcome.exit.code()
        );
    }
    let headline = outcome.headline();
    for r in &outcome.reasons {
        if r.message != headline {
            let _ = writeln!(out, "    also: {}", r.message);
        }
    }
}
