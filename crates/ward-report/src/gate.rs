//! `ward gate`, `ward approve` and `ward verify`: terminal, Markdown and JSON renderings of the
//! typed results `ward_gate::run` returns ([`GateReport`], [`Approved`], [`Verified`]). JSON is
//! the report serialized with serde, `schema_version` first.
//!
//! Deterministic: same report, same bytes (guard run times are not printed).

use crate::escape::{md_cell_code, md_code, md_code_block, md_text};
use crate::format::{Command, Format, Unsupported};
use crate::group::Group;
use crate::paint::Painter;
use crate::term_line;
use anstyle::{AnsiColor, Style};
use std::fmt::Write;
use ward_gate::guard::{GuardRun, GuardStatus};
use ward_gate::run::{Approved, Verified};
use ward_gate::verify::VerifyReport;
use ward_gate::{ApprovalStatus, GateReport, Outcome, Required};

/// `ward gate`'s report in `format` (terminal, JSON as `docs/gate.schema.json`, Markdown within
/// [`MARKDOWN_LIMIT`]; any other is [`Unsupported`]).
pub fn render(r: &GateReport, format: Format) -> Result<String, Unsupported> {
    render_with(r, format, false)
}

/// `ward gate`'s report in `format`; `color` adds ANSI styles to the terminal report (the caller
/// decides: a terminal, `NO_COLOR`, `--color`).
pub fn render_with(r: &GateReport, format: Format, color: bool) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => text_with(r, color),
        Format::Json => json(r),
        Format::Markdown => markdown(r),
        f => return Err(Command::Gate.unsupported(f)),
    })
}

fn styled_line(out: &mut String, p: &Painter, style: Style, line: &str) {
    p.line(out, style, line);
}

fn verdict_style(o: &Outcome) -> Style {
    Painter::verdict_style(matches!(o, Outcome::Pass))
}

fn status_line(r: &Required) -> String {
    match &r.approval {
        ApprovalStatus::Approved {
            by,
            reason,
            approved_at,
            expires_at,
            signed,
        } => {
            let mut s = format!("approved by {by} at {approved_at}");
            if let Some(e) = expires_at {
                let _ = write!(s, ", expires {e}");
            }
            if *signed {
                s.push_str(", signed");
            }
            let _ = write!(s, ": {reason}");
            s
        }
        ApprovalStatus::Missing => "NOT APPROVED".into(),
        ApprovalStatus::Stale {
            by, approved_at, ..
        } => format!(
            "NOT APPROVED: the approval by {by} at {approved_at} was for a different change"
        ),
        ApprovalStatus::Expired { by, expired_at } => {
            format!("NOT APPROVED: the approval by {by} expired at {expired_at}")
        }
        ApprovalStatus::Refused { by, why } => {
            format!("NOT APPROVED: the approval by {by} is refused: {why}")
        }
        ApprovalStatus::Awaiting { needs, not_counted } => {
            let mut s = format!("NOT APPROVED: {}", needs.join("; "));
            if !not_counted.is_empty() {
                let _ = write!(s, "; not counted: {}", not_counted.join("; "));
            }
            s
        }
    }
}

fn target(address: &str, deposed: &Option<String>) -> String {
    match deposed {
        Some(d) => format!("{address} (deposed {d})"),
        None => address.to_string(),
    }
}

fn guard_status(g: &GuardRun) -> String {
    match &g.status {
        GuardStatus::Passed => "passed".to_string(),
        GuardStatus::Failed { code: Some(c) } => format!("REFUSED (exit code {c})"),
        GuardStatus::Failed { code: None } => "REFUSED (killed by a signal)".to_string(),
        GuardStatus::TimedOut { after_secs } => {
            format!("REFUSED (timed out after {after_secs}s, killed)")
        }
        GuardStatus::CannotStart { error } => format!("REFUSED (cannot start: {error})"),
        GuardStatus::Bypassed { variable, reason } => {
            format!("BYPASSED by {variable}: {reason}")
        }
    }
}

fn guard_line(g: &GuardRun) -> String {
    format!(
        "guard `{}` for {} ({}): {}",
        g.guard,
        g.address,
        g.action,
        guard_status(g)
    )
}

fn guard_line_md(g: &GuardRun) -> String {
    format!(
        "guard {} for {} ({}): {}",
        md_code(&g.guard),
        md_code(&g.address),
        g.action,
        md_text(&guard_status(g))
    )
}

fn output_block(g: &GuardRun) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in [("stdout", &g.stdout), ("stderr", &g.stderr)] {
        if !text.is_empty() {
            out.push(format!("{name}:"));
            out.extend(text.lines().map(|l| format!("  {l}")));
        }
    }
    if g.output_cut > 0 {
        out.push(format!(
            "({} more bytes of output left out; run the guard by hand to see it all)",
            g.output_cut
        ));
    }
    if let Some(n) = &g.note {
        out.push(format!("note: {n}"));
    }
    out
}

/// The version of `ward gate --format json` (`docs/gate.schema.json`).
pub const GATE_SCHEMA_VERSION: u32 = 1;

/// The version of `ward verify --format json` (`docs/verify.schema.json`).
pub const VERIFY_SCHEMA_VERSION: u32 = 1;

/// The JSON rendering of `ward gate`: the report, `schema_version` first.
pub fn json(r: &GateReport) -> String {
    crate::json::versioned(GATE_SCHEMA_VERSION, r)
}

/// The JSON rendering of `ward verify`, `schema_version` first.
pub fn verify_json(v: &VerifyReport) -> String {
    crate::json::versioned(VERIFY_SCHEMA_VERSION, v)
}

/// The terminal rendering.
pub fn text(r: &GateReport) -> String {
    text_with(r, false)
}

/// The terminal rendering, coloured when `color` is set: the verdict, each change needing
/// approval in its class's colour, and whether it is approved.
pub fn text_with(r: &GateReport, color: bool) -> String {
    let p = Painter { color };
    let mut s = String::new();
    styled_line(
        &mut s,
        &p,
        verdict_style(&r.outcome),
        &format!("ward gate {}: {}", r.plan, r.outcome.describe()),
    );
    for e in &r.errors {
        term_line!(&mut s, "error: {e}");
    }
    text_unclassified(&mut s, r);
    text_budgets(&mut s, r);
    text_required(&mut s, &p, r);
    if !r.guards.is_empty() {
        s.push('\n');
        term_line!(&mut s, "guards:");
        for g in &r.guards {
            term_line!(&mut s, "  {}", guard_line(g));
            for l in output_block(g) {
                term_line!(&mut s, "    {l}");
            }
        }
    }
    if !r.guards_pending.is_empty() {
        s.push('\n');
        term_line!(
            &mut s,
            "guards not run yet (they run once nothing else blocks):"
        );
        for p in &r.guards_pending {
            term_line!(&mut s, "  guard `{}` for {}", p.guard, p.address);
        }
    }
    text_unused(&mut s, r);
    if !r.warnings.is_empty() {
        let _ = writeln!(s);
        for w in &r.warnings {
            term_line!(&mut s, "warning: {w}");
        }
    }
    s.push('\n');
    styled_line(
        &mut s,
        &p,
        verdict_style(&r.outcome),
        &format!(
            "{} (exit {})",
            match r.outcome {
                Outcome::Pass => "gate passed".to_string(),
                o => o.describe().to_string(),
            },
            r.outcome.exit().code()
        ),
    );
    s
}

/// The terminal rendering's unclassified types, and whether they block.
fn text_unclassified(s: &mut String, r: &GateReport) {
    if !r.unclassified.is_empty() {
        s.push('\n');
        term_line!(
            s,
            "unclassified resource types{}:",
            if r.coverage_relaxed {
                " (coverage gate relaxed)"
            } else if r.coverage_blocking.is_empty() {
                " (not blocking: no change of this plan touches them)"
            } else {
                ""
            }
        );
        for (t, wheres) in &r.unclassified {
            term_line!(s, "  {t} (seen in {})", wheres.join(", "));
        }
    }
}

/// The terminal rendering's budgets, and what an exceeded one asks for.
fn text_budgets(s: &mut String, r: &GateReport) {
    let exceeded: Vec<_> = r.budgets.iter().filter(|b| b.exceeded).collect();
    if !r.budgets.is_empty() {
        s.push('\n');
        term_line!(s, "budgets:");
        for b in &r.budgets {
            term_line!(
                s,
                "  {} {}: {} of at most {}{}{}",
                b.type_name.as_deref().unwrap_or("all types"),
                b.kind,
                b.count,
                b.limit,
                if b.exceeded { "  EXCEEDED: " } else { "" },
                if b.exceeded {
                    b.addresses.join(", ")
                } else {
                    String::new()
                }
            );
        }
        if !exceeded.is_empty() {
            term_line!(
                s,
                "  No approval lifts a budget: split the change into smaller plans, or raise the budget in ward.hcl."
            );
        }
    }
}

/// The terminal rendering's changes that need approval, each in its class's colour with its status.
fn text_required(s: &mut String, p: &Painter, r: &GateReport) {
    if !r.required.is_empty() {
        s.push('\n');
        term_line!(s, "changes that need approval ({}):", r.required.len());
        for x in &r.required {
            styled_line(
                s,
                p,
                Painter::group_style(Group::Class(x.impact)),
                &format!(
                    "  {}  {} [{}]",
                    target(&x.address, &x.deposed),
                    x.action.describe(),
                    x.impact
                ),
            );
            let why: Vec<String> = x.because.iter().map(|b| b.describe()).collect();
            term_line!(s, "    why: {}", why.join("; "));
            for a in &x.change.attributes {
                term_line!(s, "    deciding: {}", a.describe());
            }
            term_line!(s, "    digest: {}", x.digest);
            let approved = x.approval.is_approved();
            let c = if approved {
                AnsiColor::Green
            } else {
                AnsiColor::Red
            };
            styled_line(
                s,
                p,
                Style::new().fg_color(Some(c.into())),
                &format!("    {}", status_line(x)),
            );
            if let ApprovalStatus::Stale { differences, .. } = &x.approval {
                for d in differences {
                    term_line!(s, "      {d}");
                }
            }
            if !x.approval.is_approved() {
                term_line!(s, "    approve: {}", x.approve_command);
            }
        }
    }
}

/// The terminal rendering's approvals the plan does not use.
fn text_unused(s: &mut String, r: &GateReport) {
    if !r.unused_approvals.is_empty() {
        s.push('\n');
        term_line!(
            s,
            "approvals in {} this plan does not use:",
            r.approvals_file
        );
        for u in &r.unused_approvals {
            term_line!(
                s,
                "  {} (by {} at {}): {}",
                target(&u.address, &u.deposed),
                u.by,
                u.approved_at,
                u.why
            );
        }
    }
}

/// The default limit of the Markdown rendering, in bytes: under GitHub's 65,536-character comment
/// limit with room to spare.
pub const MARKDOWN_LIMIT: usize = 60_000;

/// The Markdown rendering, for a pull-request comment, within [`MARKDOWN_LIMIT`].
pub fn markdown(r: &GateReport) -> String {
    markdown_limited(r, MARKDOWN_LIMIT)
}

/// The Markdown rendering cut to at most `limit` bytes at a list-item boundary. A cut report says
/// how many changes needing approval, approved changes and other entries it left out.
pub fn markdown_limited(r: &GateReport, limit: usize) -> String {
    let full = markdown_full(r);
    if full.len() <= limit {
        return full;
    }
    let mut cut = limit.saturating_sub(600).min(full.len());
    while cut > 0 && !full.is_char_boundary(cut) {
        cut -= 1;
    }
    if let Some(i) = full[..cut].rfind("\n- ") {
        cut = i + 1;
    }
    let (head, tail) = full.split_at(cut);
    let items: Vec<&str> = tail.lines().filter(|l| l.starts_with("- ")).collect();
    let pending = items.iter().filter(|l| l.starts_with("- [ ] ")).count();
    let approved = items.iter().filter(|l| l.starts_with("- [x] ")).count();
    let other = items.len() - pending - approved;
    let mut s = head.trim_end().to_string();
    let _ = write!(
        s,
        "\n\n> **This comment was cut to fit {limit} characters.** Left out: {pending} change(s) needing approval, {approved} approved change(s), {other} other entr(ies). Outcome: {} (exit {}). Run {} for the full report.\n",
        md_text(r.outcome.describe()),
        r.outcome.exit().code(),
        md_code(&format!("ward gate {}", r.plan))
    );
    s
}

fn markdown_full(r: &GateReport) -> String {
    let mut s = String::new();
    let icon = match r.outcome {
        Outcome::Pass => "✅",
        _ => "⛔",
    };
    let _ = writeln!(
        s,
        "## {icon} ward gate: {}\n",
        md_text(r.outcome.describe())
    );
    let _ = writeln!(
        s,
        "Plan {} · exit code {}\n",
        md_code(&r.plan),
        r.outcome.exit().code()
    );
    for e in &r.errors {
        let _ = writeln!(s, "> **Error:** {}\n", md_text(e));
    }
    if !r.unclassified.is_empty() {
        let _ = writeln!(s, "### Unclassified resource types\n");
        for (t, w) in &r.unclassified {
            let _ = writeln!(s, "- {} (seen in {})", md_code(t), md_text(&w.join(", ")));
        }
        let _ = writeln!(s);
    }
    markdown_budgets(&mut s, r);
    markdown_required(&mut s, r);
    markdown_guards(&mut s, r);
    if !r.unused_approvals.is_empty() {
        let _ = writeln!(s, "### Approvals this plan does not use\n");
        for u in &r.unused_approvals {
            let _ = writeln!(
                s,
                "- {} (by {}, {}): {}",
                md_code(&target(&u.address, &u.deposed)),
                md_text(&u.by),
                md_text(&u.approved_at),
                md_text(&u.why)
            );
        }
        let _ = writeln!(s);
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(s, "### Warnings\n");
        for w in &r.warnings {
            let _ = writeln!(s, "- {}", md_text(w));
        }
        let _ = writeln!(s);
    }
    if r.required.is_empty() && r.outcome == Outcome::Pass {
        let _ = writeln!(s, "Nothing in this plan needs an approval.\n");
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    s
}

/// The Markdown rendering's budgets table, and what an exceeded one asks for.
fn markdown_budgets(s: &mut String, r: &GateReport) {
    if !r.budgets.is_empty() {
        let _ = writeln!(
            s,
            "### Budgets\n\n| scope | kind | count | limit | |\n|---|---|---:|---:|---|"
        );
        for b in &r.budgets {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                b.type_name
                    .as_deref()
                    .map(md_cell_code)
                    .unwrap_or_else(|| "all types".into()),
                b.kind,
                b.count,
                b.limit,
                if b.exceeded { "**exceeded**" } else { "ok" }
            );
        }
        if r.budgets.iter().any(|b| b.exceeded) {
            let _ = writeln!(
                s,
                "\nNo approval lifts a budget: split the change into smaller plans, or raise the budget in `ward.hcl`."
            );
        }
        let _ = writeln!(s);
    }
}

/// The Markdown rendering's changes that need approval: those waiting (each with its command), then those approved.
fn markdown_required(s: &mut String, r: &GateReport) {
    let pending: Vec<&Required> = r
        .required
        .iter()
        .filter(|x| !x.approval.is_approved())
        .collect();
    let done: Vec<&Required> = r
        .required
        .iter()
        .filter(|x| x.approval.is_approved())
        .collect();
    if !pending.is_empty() {
        let _ = writeln!(s, "### Needs your approval ({})\n", pending.len());
        let _ = writeln!(
            s,
            "Each change is approved on its own, bound to a digest of exactly this change. Review it, then run the command under it.\n"
        );
        for x in &pending {
            let _ = writeln!(
                s,
                "- [ ] {} — {}, **{}**",
                md_code(&target(&x.address, &x.deposed)),
                md_text(x.action.describe()),
                x.impact
            );
            let why: Vec<String> = x.because.iter().map(|b| b.describe()).collect();
            let _ = writeln!(s, "  - why: {}", md_text(&why.join("; ")));
            for a in &x.change.attributes {
                let _ = writeln!(s, "  - deciding: {}", md_code(&a.describe()));
            }
            let _ = writeln!(s, "  - status: {}", md_text(&status_line(x)));
            if let ApprovalStatus::Stale { differences, .. } = &x.approval {
                for d in differences {
                    let _ = writeln!(s, "    - {}", md_text(d));
                }
            }
            s.push('\n');
            s.push_str(&md_code_block(
                "  ",
                "sh",
                std::slice::from_ref(&x.approve_command),
            ));
            s.push('\n');
        }
    }
    if !done.is_empty() {
        let _ = writeln!(s, "### Approved ({})\n", done.len());
        for x in &done {
            let _ = writeln!(
                s,
                "- [x] {} — {}, **{}**: {}",
                md_code(&target(&x.address, &x.deposed)),
                md_text(x.action.describe()),
                x.impact,
                md_text(&status_line(x))
            );
        }
        let _ = writeln!(s);
    }
}

/// The Markdown rendering's liveness guards: those run, with their output, and those not run yet.
fn markdown_guards(s: &mut String, r: &GateReport) {
    if !r.guards.is_empty() || !r.guards_pending.is_empty() {
        let _ = writeln!(s, "### Liveness guards\n");
        for g in &r.guards {
            let _ = writeln!(s, "- {}", guard_line_md(g));
            let block = output_block(g);
            if !block.is_empty() {
                s.push('\n');
                s.push_str(&md_code_block("  ", "text", &block));
            }
        }
        for p in &r.guards_pending {
            let _ = writeln!(
                s,
                "- guard {} for {}: not run yet (runs once nothing else blocks)",
                md_code(&p.guard),
                md_code(&p.address)
            );
        }
        let _ = writeln!(s);
    }
}

/// The terminal rendering of `ward verify`.
pub fn verify_text(planfile: &str, v: &VerifyReport) -> String {
    verify_text_with(planfile, v, false)
}

/// [`verify_text`], its verdict line coloured when `color` (verified green, refused red).
pub fn verify_text_with(planfile: &str, v: &VerifyReport, color: bool) -> String {
    let p = Painter { color };
    let mut s = String::new();
    if v.ok {
        p.verdict_line(
            &mut s,
            true,
            &format!(
                "ward verify {planfile}: verified: the saved plan is the gated plan ({} changes, same digests)",
                v.changes
            ),
        );
    } else {
        p.verdict_line(
            &mut s,
            false,
            &format!("ward verify {planfile}: REFUSED: this is not the plan that passed the gate"),
        );
        for d in &v.differences {
            term_line!(&mut s, "  {d}");
        }
        term_line!(
            &mut s,
            "Do not apply it: plan again, gate the new plan, and verify that one."
        );
    }
    s
}

/// `ward verify`'s result in `format`: [`verify_text`] (coloured when `color`) or
/// [`verify_json`]; any other is [`Unsupported`].
pub fn verify(v: &Verified, format: Format, color: bool) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => verify_text_with(&v.planfile, &v.report, color),
        Format::Json => verify_json(&v.report),
        f => return Err(Command::Verify.unsupported(f)),
    })
}

/// The terminal rendering of `ward approve`: a line per approved change, then the file written.
pub fn approve_text(a: &Approved) -> String {
    let mut s = String::new();
    for c in &a.changes {
        term_line!(
            &mut s,
            "approved {} ({}, {}) {}{}{}",
            c.address,
            c.action,
            c.impact,
            c.digest,
            c.expires_at
                .as_deref()
                .map(|e| format!(", expires {e}"))
                .unwrap_or_default(),
            if c.signed { ", signed" } else { "" }
        );
    }
    term_line!(&mut s, "written to {}", a.written_to.display());
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    //! The gate's renderings of `ward_gate::testkit`'s reports (the decisions themselves are
    //! tested in ward-gate).
    use super::*;
    use ward_classify::Verdict;
    use ward_gate::testkit::*;

    #[test]
    fn deterministic_output() {
        let f = Fixture::new();
        // The same changes in the other order: gating the same value twice would prove nothing.
        let x = f.gate(&assessment(vec![instance_update("b"), volume(10)]));
        let y = f.gate(&assessment(vec![volume(10), instance_update("b")]));
        assert_eq!(text(&x), text(&y));
        assert_eq!(markdown(&x), markdown(&y));
    }

    #[test]
    fn snapshot_text() {
        let (blocked, pass) = mixed_report();
        assert_eq!(blocked.outcome, Outcome::ApprovalRequired);
        assert_eq!(pass.outcome, Outcome::Pass);
        insta::assert_snapshot!("blocked_text", text(&blocked));
        insta::assert_snapshot!("pass_text", text(&pass));
    }

    #[test]
    fn snapshot_markdown() {
        let (blocked, pass) = mixed_report();
        insta::assert_snapshot!("blocked_markdown", markdown(&blocked));
        insta::assert_snapshot!("pass_markdown", markdown(&pass));
    }

    #[test]
    fn snapshot_json() {
        let (blocked, pass) = mixed_report();
        insta::assert_snapshot!("blocked_json", json(&blocked));
        insta::assert_snapshot!("pass_json", json(&pass));
    }

    #[test]
    fn markdown_is_cut_to_fit_and_says_what_it_left_out() {
        let f = Fixture::new();
        let vs: Vec<Verdict> = (0..2000)
            .map(|i| {
                let mut v = volume(10);
                v.address = format!("fakecloud_volume.v[{i}]");
                v
            })
            .collect();
        let r = f.gate(&assessment(vs));
        let full = markdown_limited(&r, usize::MAX);
        assert!(full.len() > MARKDOWN_LIMIT);
        let md = markdown(&r);
        assert!(md.len() <= MARKDOWN_LIMIT, "{}", md.len());
        let shown = md.matches("- [ ] ").count();
        assert!(shown > 10);
        assert!(
            md.contains(&format!(
                "Left out: {} change(s) needing approval",
                2000 - shown
            )),
            "{}",
            &md[md.len() - 400..]
        );
        // Code fences stay balanced.
        assert_eq!(md.matches("```").count() % 2, 0);
    }

    /// `ward gate`: the terminal and Markdown reports keep their lines (no fake "gate passed", no
    /// heading, no comment hiding the rest), whatever the addresses and approvals hold.
    #[test]
    fn gate_reports_escape_a_hostile_address() {
        let (bad, good) = (hostile_report(HOSTILE), hostile_report("x"));
        assert_eq!(bad.outcome, Outcome::ApprovalRequired);
        let unsafe_in = |s: &str| s.chars().any(|c| crate::escape::is_unsafe(c) && c != '\n');
        let (t, g) = (text(&bad), text(&good));
        assert!(!unsafe_in(&t), "{t}");
        assert_eq!(t.lines().count(), g.lines().count(), "{t}");
        assert!(!t.lines().any(|l| l.starts_with("gate passed")), "{t}");
        let (m, g) = (markdown(&bad), markdown(&good));
        assert!(!unsafe_in(&m), "{m}");
        assert_eq!(m.lines().count(), g.lines().count(), "{m}");
        let mut in_block = false;
        for line in m.lines() {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
            } else if !in_block {
                let prose = crate::escape::md_outside_code(line);
                assert!(!prose.contains("<!--") && !prose.contains("<b>"), "{line}");
            }
        }
        assert!(!in_block, "a code block is left open: {m}");
        let headings = |s: &str| s.lines().filter(|l| l.starts_with('#')).count();
        assert_eq!(headings(&m), headings(&g), "{m}");
    }
}
