//! `ward drift` and `ward drift history`: renderings of the typed [`Report`] and [`History`]
//! ward-drift returns. Terminal, JSON (versioned schema), Markdown, JUnit. All deterministic:
//! sorted, no timestamps or durations unless `--timestamps`.

use crate::escape::{md_cell_code, md_code, md_rich_cell, md_text, push_line};
use crate::format::{Command, Format, Unsupported};
use crate::junit::{self, Case, CaseResult, Document, Suite};
use crate::paint::Painter;
use crate::term_line;
use std::fmt::Write;
use ward_drift::outcome::Outcome;
use ward_drift::{History, Report, RootResult};
use ward_model::Exit;

/// Renders a report: terminal, JSON (`schema_version` 1), Markdown (a CI summary or an issue
/// comment) or JUnit XML (one test case per root); any other format is [`Unsupported`].
/// `timestamps` adds the start time and per-root durations.
pub fn render(report: &Report, format: Format, timestamps: bool) -> Result<String, Unsupported> {
    render_with(report, format, timestamps, false)
}

/// [`render`], the terminal report's exit line coloured when `color` (pass green, anything else
/// red; the caller decides: `--color`, a terminal, `NO_COLOR`).
pub fn render_with(
    report: &Report,
    format: Format,
    timestamps: bool,
    color: bool,
) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => terminal(report, timestamps, color),
        Format::Json => json(report, timestamps),
        Format::Markdown => markdown(report, timestamps),
        Format::Junit => junit(report, timestamps),
        f => return Err(Command::Drift.unsupported(f)),
    })
}

/// Renders `ward drift history`: [`history_text`] or [`history_json`]; any other format is
/// [`Unsupported`].
pub fn history(h: &History, format: Format) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => history_text(h),
        Format::Json => history_json(h),
        f => return Err(Command::DriftHistory.unsupported(f)),
    })
}

fn counts_line(r: &Report) -> String {
    Outcome::ALL
        .iter()
        .filter_map(|o| {
            let n = r.counts.get(o.as_str()).copied().unwrap_or(0);
            (n > 0).then(|| format!("{n} {o}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an exit means for a drift run (the footer of the terminal and Markdown reports).
fn exit_meaning(e: Exit) -> &'static str {
    match e {
        Exit::Pass => "pass",
        Exit::DriftAlert => "drift alert: new or escalated drift",
        Exit::RootFailed => {
            "a root failed (missing-state, state-replaced, error, mismatch or zero roots)"
        }
        Exit::Usage => "error: see the problems above",
        other => other.summary(),
    }
}

fn root_lines(r: &RootResult, timestamps: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut head = format!("{:<15} {}", r.outcome.as_str(), r.path);
    if r.name != r.path {
        head.push_str(&format!(" ({})", r.name));
    }
    if let Some(b) = &r.binary {
        head.push_str(&format!("  [{b}]"));
    }
    if timestamps {
        head.push_str(&format!("  {:.1}s", r.millis as f64 / 1000.0));
    }
    out.push(head);
    for d in &r.detail {
        out.push(format!("    {d}"));
    }
    for i in &r.drift {
        let mut l = format!(
            "    {} {} [{}]{}: {}",
            i.action,
            i.address,
            i.impact,
            if i.holds_data { ", holds data" } else { "" },
            i.attributes.join(", ")
        );
        if let Some(s) = &i.suppressed_by {
            l.push_str(&format!("  (suppressed by {s})"));
        }
        out.push(l);
    }
    if !r.outputs.is_empty() {
        out.push(format!("    outputs: {}", r.outputs.join(", ")));
    }
    for p in &r.pending {
        out.push(format!("    pending: {p}"));
    }
    for t in &r.transitions {
        out.push(format!(
            "    {}: {} {} [{}]",
            t.kind.as_str(),
            t.address,
            t.attribute,
            t.impact
        ));
    }
    out
}

fn terminal(r: &Report, timestamps: bool, color: bool) -> String {
    let mut s = String::new();
    term_line!(
        &mut s,
        "ward drift{}",
        r.shard
            .as_ref()
            .map(|k| format!(" (shard {k})"))
            .unwrap_or_default()
    );
    if timestamps {
        if let Some(t) = &r.started_at {
            term_line!(&mut s, "started {t}");
        }
    }
    for p in &r.problems {
        term_line!(&mut s, "problem: {p}");
    }
    for root in &r.roots {
        for l in root_lines(root, timestamps) {
            push_line(&mut s, &l);
        }
    }
    for e in &r.expired_ignores {
        term_line!(&mut s, "ignore rule {e}");
    }
    term_line!(
        &mut s,
        "{}; {} declared but not found",
        r.invariant(),
        r.declared_missing
    );
    term_line!(
        &mut s,
        "outcomes: {}",
        if r.roots.is_empty() {
            "none".into()
        } else {
            counts_line(r)
        }
    );
    term_line!(&mut s, "suppressed by ignore rules: {}", r.suppressed);
    term_line!(
        &mut s,
        "transitions: {}",
        if r.transitions.is_empty() {
            "none".to_string()
        } else {
            ward_drift::notify::payload(r).summary
        }
    );
    Painter { color }.verdict_line(
        &mut s,
        r.exit == Exit::Pass,
        &format!("exit {}: {}", r.exit.code(), exit_meaning(r.exit)),
    );
    s
}

fn json(r: &Report, timestamps: bool) -> String {
    let mut v = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("invariant".into(), r.invariant().into());
        if !timestamps {
            o.remove("started_at");
        } else if let Some(roots) = o.get_mut("roots").and_then(|x| x.as_array_mut()) {
            for (j, root) in roots.iter_mut().enumerate() {
                if let (Some(obj), Some(res)) = (root.as_object_mut(), r.roots.get(j)) {
                    obj.insert("millis".into(), (res.millis as u64).into());
                }
            }
        }
    }
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

fn markdown(r: &Report, timestamps: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "## ward drift{}\n",
        r.shard
            .as_ref()
            .map(|k| format!(" (shard {k})"))
            .unwrap_or_default()
    );
    if timestamps {
        if let Some(t) = &r.started_at {
            let _ = writeln!(s, "Started {t}.\n");
        }
    }
    let _ = writeln!(
        s,
        "**{}** · exit {} ({})\n",
        r.invariant(),
        r.exit.code(),
        exit_meaning(r.exit)
    );
    for p in &r.problems {
        let _ = writeln!(s, "- ⚠ {}", md_text(p));
    }
    if !r.problems.is_empty() {
        s.push('\n');
    }
    let _ = writeln!(s, "| root | path | outcome | detail |\n|---|---|---|---|");
    for root in &r.roots {
        // Every piece escaped on its own: the cell keeps its code spans, and no value can end the
        // cell, the row or the table.
        let mut detail: Vec<String> = root.detail.iter().map(|d| md_rich_cell(d)).collect();
        for i in &root.drift {
            detail.push(format!(
                "{} {} [{}]: {}{}",
                md_text(&i.action.to_string()),
                md_cell_code(&i.address),
                i.impact,
                md_text(&i.attributes.join(", ")),
                if i.suppressed_by.is_some() {
                    " (suppressed)"
                } else {
                    ""
                }
            ));
        }
        if !root.outputs.is_empty() {
            detail.push(format!("outputs: {}", md_text(&root.outputs.join(", "))));
        }
        let _ = writeln!(
            s,
            "| {} | {} | **{}** | {} |",
            md_text(&root.name),
            md_cell_code(&root.path),
            root.outcome,
            detail.join("<br>")
        );
    }
    let _ = writeln!(
        s,
        "\nOutcomes: {}. Suppressed by ignore rules: {}.",
        counts_line(r),
        r.suppressed
    );
    if !r.transitions.is_empty() {
        let _ = writeln!(s, "\n### Transitions\n");
        for t in &r.transitions {
            let _ = writeln!(
                s,
                "- **{}** {} {} {} [{}]",
                t.kind.as_str(),
                md_text(&t.root),
                md_code(&t.address),
                md_text(&t.attribute),
                t.impact
            );
        }
    }
    for e in &r.expired_ignores {
        let _ = writeln!(s, "\nIgnore rule {}", md_text(e));
    }
    s
}

/// JUnit XML ([`crate::junit`]): one suite, one test case per root (plus one for the root
/// set when the run has problems).
fn junit(r: &Report, timestamps: bool) -> String {
    let failing = |o: Outcome| o.fails() || o == Outcome::Drifted;
    let mut cases = Vec::new();
    if !r.problems.is_empty() {
        cases.push(Case {
            classname: "ward.drift".into(),
            name: "root set".into(),
            time: None,
            result: CaseResult::Failure {
                kind: None,
                message: r.problems.join("; "),
                text: String::new(),
            },
        });
    }
    for root in &r.roots {
        let mut text: Vec<String> = root.detail.clone();
        for i in &root.drift {
            text.push(format!(
                "{} {} [{}]: {}",
                i.action,
                i.address,
                i.impact,
                i.attributes.join(", ")
            ));
        }
        let text = text.join("\n");
        let result = if failing(root.outcome) {
            CaseResult::Failure {
                kind: Some(root.outcome.to_string()),
                message: root.outcome.to_string(),
                text,
            }
        } else if matches!(root.outcome, Outcome::Excluded | Outcome::Locked) {
            CaseResult::Skipped(format!("{}: {text}", root.outcome))
        } else if !text.is_empty() || !root.outputs.is_empty() {
            CaseResult::Output(format!("{}: {}", root.outcome, root.outputs.join(", ")))
        } else {
            CaseResult::Passed
        };
        cases.push(Case {
            classname: "ward.drift".into(),
            name: root.path.clone(),
            time: timestamps.then(|| root.millis as f64 / 1000.0),
            result,
        });
    }
    junit::render(&Document {
        name: "ward drift".into(),
        suites: vec![Suite {
            name: "ward drift".into(),
            properties: vec![("invariant".into(), r.invariant())],
            cases,
        }],
    })
}

/// Renders `ward drift history [ROOT]` as text. History output always carries times (UTC).
pub fn history_text(h: &History) -> String {
    let mut s = String::new();
    match h {
        History::Runs {
            limit,
            since,
            more,
            whole,
            runs,
            unfinished,
            ..
        } => {
            unfinished_text(&mut s, unfinished, *whole);
            runs_text(&mut s, runs, *limit, since.as_deref(), *more);
        }
        History::Root {
            root: name,
            limit,
            runs,
            ..
        } => root_text(&mut s, name, *limit, runs),
    }
    findings_text(&mut s, h);
    s
}

/// The runs that recorded no end.
fn unfinished_text(s: &mut String, unfinished: &[ward_drift::journal::Unfinished], whole: bool) {
    if !unfinished.is_empty() {
        if whole {
            term_line!(s, "runs that recorded no end (newest first):");
        } else {
            term_line!(
                s,
                "runs that recorded no end (newest first, among the newest runs; --all for the whole journal):"
            );
        }
        for u in unfinished {
            term_line!(
                s,
                "  {} {}{} (pid {} on {})",
                u.started_at,
                u.state,
                u.shard
                    .as_ref()
                    .map(|k| format!(" shard {k}"))
                    .unwrap_or_default(),
                u.pid,
                u.host
            );
        }
    }
}

/// The newest runs, each with its roots' outcomes counted.
fn runs_text(
    s: &mut String,
    runs: &[ward_drift::ward_store::RunRow],
    limit: usize,
    since: Option<&str>,
    more: bool,
) {
    term_line!(s, "runs (newest first, at most {limit}):");
    for r in runs {
        let counts = r
            .outcomes
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ");
        term_line!(
            s,
            "  #{} {} exit {}{}: {}",
            r.id,
            r.started_at,
            r.exit_code.map_or("-".to_string(), |c| c.to_string()),
            r.shard
                .as_ref()
                .map(|k| format!(" shard {k}"))
                .unwrap_or_default(),
            if counts.is_empty() {
                "no roots".to_string()
            } else {
                counts
            }
        );
    }
    if more {
        let since = since
            .map(|d| format!(" (or since {d})"))
            .unwrap_or_default();
        term_line!(
            s,
            "  ... older runs not shown: at most {limit}{since}; --limit N or --since DATE for more"
        );
    }
}

/// One root's newest runs.
fn root_text(
    s: &mut String,
    name: &str,
    limit: usize,
    runs: &[ward_drift::ward_store::RootRunRow],
) {
    term_line!(s, "root {name} (newest first, at most {limit} runs):");
    for r in runs {
        let state = r
            .outcome
            .state
            .as_ref()
            .map(|m| format!(" lineage {} serial {}", m.lineage, m.serial))
            .unwrap_or_default();
        term_line!(
            s,
            "  #{} {} {}{}{}",
            r.run,
            r.started_at,
            r.outcome.outcome,
            state,
            if r.outcome.detail.is_empty() {
                String::new()
            } else {
                format!(": {}", r.outcome.detail)
            }
        );
    }
}

/// The findings, open or resolved.
fn findings_text(s: &mut String, h: &History) {
    let findings = h.findings();
    if matches!(h, History::Runs { whole: false, .. }) {
        term_line!(
            s,
            "findings ({}: open, or seen or resolved by the runs above; --all for every finding recorded):",
            findings.len()
        );
    } else {
        term_line!(s, "findings ({}):", findings.len());
    }
    for f in findings {
        term_line!(
            s,
            "  {} {} {} [{}] first #{} {}, last #{} {}, {}",
            f.root,
            f.address,
            f.attribute,
            f.impact,
            f.first_seen.0,
            f.first_seen.1,
            f.last_seen.0,
            f.last_seen.1,
            match &f.resolved {
                Some((id, at)) => format!("resolved #{id} {at}"),
                None => "open".to_string(),
            }
        );
    }
}

/// `ward drift history [ROOT]` as JSON (`docs/drift-history.schema.json`).
pub fn history_json(h: &History) -> String {
    let v = match h {
        History::Runs {
            runs,
            findings,
            unfinished,
            more,
            whole,
            ..
        } => {
            serde_json::json!({"schema_version": 1, "runs": runs, "findings": findings, "unfinished": unfinished, "more_runs": more, "whole": whole})
        }
        History::Root {
            root,
            runs,
            findings,
            ..
        } => {
            serde_json::json!({"schema_version": 1, "root": root, "runs": runs, "findings": findings})
        }
    };
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    //! The renderings of a hand-built drift [`Report`] (moved from ward-drift with their
    //! snapshots).
    use super::*;
    use ward_drift::outcome::DriftItem;
    use ward_drift::ward_store::{StateMark, Transition, TransitionKind};

    /// [`super::render`] of a format `ward drift` writes.
    fn render(r: &Report, format: Format, timestamps: bool) -> String {
        super::render(r, format, timestamps).unwrap()
    }

    fn sample() -> Report {
        let mut roots = vec![
            RootResult::new("clean", "live/clean", Outcome::Clean, vec![]),
            RootResult::new("db", "live/db", Outcome::Drifted, vec![]),
            RootResult::new(
                "lost",
                "live/lost",
                Outcome::MissingState,
                vec!["`state pull` printed nothing (0 bytes): there is no state".into()],
            ),
            RootResult::new(
                "live/new",
                "live/new",
                Outcome::Mismatch,
                vec!["found on disk but not declared in ward.hcl".into()],
            ),
            RootResult::new(
                "live/scratch",
                "live/scratch",
                Outcome::Excluded,
                vec!["scratch <space> & co".into()],
            ),
        ];
        roots[0].binary = Some("terraform 1.15.5".into());
        roots[0].state = Some(StateMark {
            lineage: "L1".into(),
            serial: 3,
        });
        roots[1].binary = Some("tofu 1.9.0".into());
        roots[1].drift = vec![
            DriftItem {
                address: "fakecloud_volume.data".into(),
                type_name: "fakecloud_volume".into(),
                action: "delete".into(),
                attributes: vec!["(deleted)".into()],
                attribute_impacts: vec!["data-loss".into()],
                impact: "data-loss".into(),
                holds_data: true,
                suppressed_by: None,
            },
            DriftItem {
                address: "fakecloud_instance.web".into(),
                type_name: "fakecloud_instance".into(),
                action: "update".into(),
                attributes: vec!["tags.env".into()],
                attribute_impacts: vec!["free".into()],
                impact: "free".into(),
                holds_data: false,
                suppressed_by: Some(
                    "fakecloud_instance.*[tags.*] (owner team-a, until 2026-12-31)".into(),
                ),
            },
        ];
        roots[1].suppressed = 1;
        roots[1].outputs = vec!["ip (create)".into()];
        let t = Transition {
            root: "db".into(),
            kind: TransitionKind::New,
            address: "fakecloud_volume.data".into(),
            attribute: "(deleted)".into(),
            impact: "data-loss".into(),
            previous_impact: None,
        };
        roots[1].transitions = vec![t.clone()];
        let mut counts: std::collections::BTreeMap<String, usize> = Outcome::ALL
            .iter()
            .map(|o| (o.as_str().to_string(), 0))
            .collect();
        for r in &roots {
            *counts.get_mut(r.outcome.as_str()).unwrap() += 1;
        }
        Report {
            schema_version: 1,
            shard: Some("1/2".into()),
            discovered: 5,
            checked: 4,
            excluded: 1,
            declared_missing: 0,
            roots,
            counts,
            transitions: vec![t],
            suppressed: 1,
            expired_ignores: vec![],
            problems: vec![],
            exit: Exit::RootFailed,
            run_id: 7,
            started_at: Some("2026-11-29T00:00:00Z".into()),
        }
    }

    #[test]
    fn every_format_snapshot() {
        let r = sample();
        insta::assert_snapshot!("terminal", render(&r, Format::Terminal, false));
        insta::assert_snapshot!("json", render(&r, Format::Json, false));
        insta::assert_snapshot!("markdown", render(&r, Format::Markdown, false));
        insta::assert_snapshot!("junit", render(&r, Format::Junit, false));
    }

    /// A directory name, address and detail that try everything: backticks, a table pipe, HTML,
    /// a comment that would hide the rest of a PR comment, a heading and newlines, a
    /// cursor-up/erase sequence printing a fake result, a right-to-left override and a line
    /// separator.
    const HOSTILE: &str =
        "x`` | <b>y</b> <!-- \n# heading\n\u{1b}[1A\u{1b}[2Kexit 0: pass\u{202e}\u{2028}z";

    fn hostile(suffix: &str) -> Report {
        let mut r = sample();
        for root in &mut r.roots {
            root.name.push_str(suffix);
            root.path.push_str(suffix);
            root.detail.push(format!("`state pull` of {suffix}"));
            for i in &mut root.drift {
                i.address.push_str(suffix);
                i.attributes.push(suffix.into());
            }
            for t in &mut root.transitions {
                t.address.push_str(suffix);
            }
        }
        for t in &mut r.transitions {
            t.root.push_str(suffix);
            t.address.push_str(suffix);
            t.attribute.push_str(suffix);
        }
        r.problems.push(format!("problem{suffix}"));
        r
    }

    /// `ward drift`: the terminal and Markdown reports keep their lines, rows and cells whatever
    /// the roots hold.
    #[test]
    fn drift_reports_escape_a_hostile_address() {
        let (bad, good) = (hostile(HOSTILE), hostile("x"));
        let unsafe_in = |s: &str| s.chars().any(|c| crate::escape::is_unsafe(c) && c != '\n');
        let (t, g) = (
            render(&bad, Format::Terminal, false),
            render(&good, Format::Terminal, false),
        );
        assert!(!unsafe_in(&t), "{t}");
        assert_eq!(t.lines().count(), g.lines().count(), "{t}");
        assert!(!t.lines().any(|l| l.starts_with("exit 0")), "{t}");
        let (m, g) = (
            render(&bad, Format::Markdown, false),
            render(&good, Format::Markdown, false),
        );
        assert!(!unsafe_in(&m), "{m}");
        assert_eq!(m.lines().count(), g.lines().count(), "{m}");
        let pipes = |l: &str| {
            let b = l.as_bytes();
            (0..b.len())
                .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
                .count()
        };
        let rows = |s: &str| -> Vec<usize> {
            s.lines()
                .filter(|l| l.starts_with('|'))
                .map(pipes)
                .collect()
        };
        assert_eq!(rows(&m), rows(&g), "{m}");
        for line in m.lines() {
            let prose = crate::escape::md_outside_code(line);
            assert!(!prose.contains("<!--") && !prose.contains("<b>"), "{line}");
        }
        let headings = |s: &str| s.lines().filter(|l| l.starts_with('#')).count();
        assert_eq!(headings(&m), headings(&g), "{m}");
    }

    /// A run that would pass, whose webhook fails: the report says exit 2, the exit the process
    /// ends with (the footer used to say "exit 0: pass" while ward exited 2).
    #[test]
    fn a_failed_webhook_is_in_the_footer_and_the_exit() {
        let mut r = sample();
        r.exit = Exit::Pass;
        assert!(!r.transitions.is_empty());
        r.webhook_failed("the --notify webhook https://hooks.example/… failed: refused");
        assert_eq!(r.exit, Exit::Usage);
        let text = render(&r, Format::Terminal, false);
        assert!(text.contains("\nexit 2: "), "{text}");
        assert!(
            text.contains("problem: the --notify webhook https://hooks.example/… failed: refused"),
            "{text}"
        );
        assert!(render(&r, Format::Markdown, false).contains("exit 2 ("));
        assert!(render(&r, Format::Json, false).contains("\"exit_code\": 2"));
        // A failed root keeps its own exit.
        let mut r = sample();
        r.webhook_failed("the --notify webhook https://hooks.example/… failed: refused");
        assert_eq!(r.exit, Exit::RootFailed);
    }

    #[test]
    fn deterministic_unless_timestamps() {
        let r = sample();
        for f in [
            Format::Terminal,
            Format::Json,
            Format::Markdown,
            Format::Junit,
        ] {
            let a = render(&r, f, false);
            assert!(!a.contains("2026-11-29T00:00:00Z"), "{f:?}");
            assert!(a.contains("discovered 5 = checked 4 + excluded 1"), "{f:?}");
        }
        assert!(render(&r, Format::Json, true).contains("started_at"));
        let junit = render(&r, Format::Junit, false);
        assert!(junit.contains("scratch &lt;space&gt; &amp; co"), "{junit}");
    }
}
