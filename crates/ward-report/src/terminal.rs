//! The terminal report: grouped by class, worst first; colour only when asked.

use crate::escape::terminal;
use crate::kept::{Held, Kept};
use crate::outcome::{plural, thousands};
use crate::text::{
    deciding_line, fact_words, full_address, mentioned, product_line, show_value, sorted_facts,
};
use crate::{class_counts, grouped_indexed, Exit, Expand, Group, Outcome};
use anstyle::{AnsiColor, Style};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use ward_classify::{Assessment, Verdict};
use ward_model::{Action, Impact};
use ward_rules::RuleOrigin;

/// Applies styles only when colour is on (every command's terminal report).
pub(crate) struct Painter {
    pub(crate) color: bool,
}

impl Painter {
    pub(crate) fn paint(&self, style: Style, text: &str) -> String {
        if self.color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    pub(crate) fn group_style(g: Group) -> Style {
        let fg = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
        match g {
            Group::Unknown => fg(AnsiColor::Magenta).bold(),
            Group::Class(Impact::DataLoss) => fg(AnsiColor::Red).bold(),
            Group::Class(Impact::Replace) => fg(AnsiColor::Red),
            Group::Class(Impact::Interrupt) => fg(AnsiColor::Yellow),
            Group::Class(Impact::InPlace) => fg(AnsiColor::Cyan),
            Group::Class(Impact::Free) => fg(AnsiColor::Green),
            Group::Class(Impact::None) => Style::new().dimmed(),
        }
    }

    /// Appends one terminal line, escaped like [`term_line!`](crate::term_line), then styled
    /// whole.
    pub(crate) fn line(&self, out: &mut String, style: Style, line: &str) {
        out.push_str(&self.paint(style, &terminal(line)));
        out.push('\n');
    }

    /// The style of a report's verdict: bold green when it passed, bold red when not.
    pub(crate) fn verdict_style(passed: bool) -> Style {
        let c = if passed {
            AnsiColor::Green
        } else {
            AnsiColor::Red
        };
        Style::new().fg_color(Some(c.into())).bold()
    }

    /// [`Painter::line`] in the [verdict style](Painter::verdict_style).
    pub(crate) fn verdict_line(&self, out: &mut String, passed: bool, line: &str) {
        self.line(out, Self::verdict_style(passed), line);
    }

    fn tag(&self, g: Group) -> String {
        self.paint(Self::group_style(g), &g.name().to_uppercase())
    }

    fn dim(&self, text: &str) -> String {
        self.paint(Style::new().dimmed(), text)
    }

    fn bold(&self, text: &str) -> String {
        self.paint(Style::new().bold(), text)
    }
}

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

/// One change's entry as the report prints it: its block (detailed classes), its row (free;
/// with its attributes when expanded), nothing (none: counted, not listed, unless expanded).
/// For [`crate::Keep`].
pub(crate) fn entry(color: bool, expand: Expand, g: Group, v: &Verdict) -> String {
    let p = Painter { color };
    let mut out = String::new();
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
    header(&mut out, &p, a, origins);
    for (g, is) in grouped_indexed(a) {
        if is.is_empty() {
            continue;
        }
        if g == Group::Class(Impact::None) {
            let vs: Vec<&Verdict> = is.iter().filter_map(|i| a.verdicts.get(*i)).collect();
            none_group(&mut out, &p, &vs, expand.none);
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
            match kept.map_or(Held::Whole, |k| k.held(i, v)) {
                Held::Entry(text, _) => out.push_str(&text),
                Held::Whole => out.push_str(&entry(color, expand, g, v)),
                Held::Dropped => {}
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
    if a.verdicts.is_empty() {
        let _ = writeln!(out, "no resource changes in this plan\n");
    }
    facts(&mut out, &p, a);
    outputs(&mut out, a);
    drift(&mut out, a);
    coverage(&mut out, &p, a);
    summary(&mut out, &p, a, outcome);
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

/// Writes one explanation line of a change block, indented and escaped, with its newline.
/// [`crate::kept`] finds a verdict's `action_reason` line in a block by this form, to word it
/// for OpenTofu without rendering the block again.
pub(crate) fn explanation_line(out: &mut String, line: &str) {
    let _ = writeln!(out, "    {}", terminal(line));
}

fn detailed(out: &mut String, p: &Painter, g: Group, v: &Verdict) {
    let _ = writeln!(
        out,
        "{}  {}  {}",
        p.tag(g),
        p.bold(&full_address(v)),
        v.action.describe()
    );
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
            let _ = writeln!(
                out,
                "{ind}{}",
                p.dim(&format!("decided by {}", terminal(&r.to_string())))
            );
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
fn attribute_lines(out: &mut String, g: Group, v: &Verdict, ind: &str, listed: bool) {
    if !listed {
        return;
    }
    let attrs = crate::text::listed_attributes(v);
    for at in &attrs.shown {
        let path = terminal(&at.change.path.to_string()).into_owned();
        match crate::text::Side::of(v.action) {
            crate::text::Side::Sets => {
                let _ = writeln!(out, "{ind}+ {path} = {}", show_value(&at.change.after));
                continue;
            }
            crate::text::Side::Removes => {
                let _ = writeln!(out, "{ind}- {path} = {}", show_value(&at.change.before));
                continue;
            }
            crate::text::Side::Changes => {}
        }
        let mut tags = Vec::new();
        if g != Group::Class(at.impact) {
            tags.push(at.impact.as_str());
        }
        if at.forces_replacement {
            tags.push("forces replacement");
        }
        let tags = if tags.is_empty() {
            String::new()
        } else {
            format!("  [{}]", tags.join(", "))
        };
        let _ = writeln!(
            out,
            "{ind}~ {path}: {} → {}{tags}",
            show_value(&at.change.before),
            show_value(&at.change.after),
        );
        if let Some(why) = crate::text::attribute_why(at) {
            let _ = writeln!(out, "{ind}    {}", terminal(why));
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
fn row(out: &mut String, v: &Verdict, expand: bool) {
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
    attribute_lines(out, crate::group_of(v), v, "        ", expand);
}

fn none_group(out: &mut String, p: &Painter, vs: &[&Verdict], expand: bool) {
    let mut by_action: BTreeMap<Action, usize> = BTreeMap::new();
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
        plural(vs.len(), "change", "changes"),
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

fn summary(out: &mut String, p: &Painter, a: &Assessment, outcome: &Outcome) {
    let (counts, unknown) = class_counts(a);
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
