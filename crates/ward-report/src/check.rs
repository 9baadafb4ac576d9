//! `ward check`'s renderers: terminal text, JSON, SARIF 2.1.0 (code scanning) and JUnit XML, of
//! the typed report `ward_check` returns. All deterministic: same report, same bytes.

use crate::format::{Command, Format, Unsupported};
use crate::junit::{self, Case, CaseResult, Document, Suite};
use crate::term_line;
use serde_json::{json, Value};
use ward_check::catalog::{Severity, RULES};
use ward_check::finding::{Finding, Report};
use ward_check::output::Output;

/// What `ward check` prints for `out` in `format` (`verbose`: the terminal report also lists
/// every directory and the source matrix), without colour.
pub fn render(out: &Output, format: Format, verbose: bool) -> Result<String, Unsupported> {
    render_with(out, format, verbose, false)
}

/// [`render`], the terminal report coloured when `color` (the caller decides: `--color`, a
/// terminal, `NO_COLOR`); the other formats are never coloured. `ward check` writes terminal,
/// JSON, SARIF and JUnit reports; any other format is [`Unsupported`].
pub fn render_with(
    out: &Output,
    format: Format,
    verbose: bool,
    color: bool,
) -> Result<String, Unsupported> {
    Ok(match out {
        Output::Catalog => catalog(),
        Output::Report(report) => match format {
            Format::Terminal => terminal_with(report, verbose, color),
            Format::Json => json(report),
            Format::Sarif => sarif(report),
            Format::Junit => junit(report),
            f => return Err(Command::Check.unsupported(f)),
        },
    })
}

/// `ward check --list-rules`: the rule catalog, one rule a line.
pub fn catalog() -> String {
    let mut s = String::new();
    for r in RULES {
        s.push_str(&format!(
            "{:<15} {:<8} {}\n",
            r.id,
            r.severity.as_str(),
            r.title
        ));
    }
    s
}

/// Terminal text. `verbose` also lists every directory and the source matrix.
pub fn terminal(r: &Report, verbose: bool) -> String {
    terminal_with(r, verbose, false)
}

/// The ANSI style of a severity word and of the verdict, when colour is on.
fn paint(color: bool, style: anstyle::Style, text: &str) -> String {
    if color {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

fn severity_style(s: Severity) -> anstyle::Style {
    let fg = |c: anstyle::AnsiColor| anstyle::Style::new().fg_color(Some(c.into()));
    match s {
        Severity::Error => fg(anstyle::AnsiColor::Red).bold(),
        Severity::Warning => fg(anstyle::AnsiColor::Yellow),
        Severity::Info => fg(anstyle::AnsiColor::Cyan),
    }
}

/// [`terminal`], coloured when `color`: severities (error red, warning yellow, info cyan) and
/// the verdict (FAILED red, passed green). Same words and columns either way.
pub fn terminal_with(r: &Report, verbose: bool, color: bool) -> String {
    let mut s = String::new();
    let sm = &r.summary;
    term_line!(
        &mut s,
        "ward check {}{}: {} directories with Terraform files ({} roots, {} modules{}), {} files parsed{}",
        r.repository,
        if r.repository_kind == "module" {
            " (a module repository)"
        } else {
            ""
        },
        sm.directories,
        sm.roots,
        sm.modules,
        if sm.examples > 0 {
            format!(", {} examples", sm.examples)
        } else {
            String::new()
        },
        sm.files,
        r.config
            .as_ref()
            .map(|c| format!(", config {c}"))
            .unwrap_or_default()
    );
    if verbose {
        terminal_layout(&mut s, r);
    }
    if !r.findings.is_empty() {
        s.push('\n');
    }
    for f in &r.findings {
        finding_line_with(&mut s, f, color);
    }
    terminal_left_out(&mut s, r);
    s.push('\n');
    let word = if sm.failed { "FAILED" } else { "passed" };
    let mut last = String::new();
    term_line!(
        &mut last,
        "{} error(s), {} warning(s), {} info; {} suppressed. {word} (fails on {} and above)",
        sm.errors,
        sm.warnings,
        sm.infos,
        sm.suppressed,
        sm.fail_on
    );
    if color {
        // The verdict is ward's own word: styled after the line is escaped.
        let style = if sm.failed {
            severity_style(Severity::Error)
        } else {
            anstyle::Style::new()
                .fg_color(Some(anstyle::AnsiColor::Green.into()))
                .bold()
        };
        last = last.replacen(
            &format!("suppressed. {word} (fails"),
            &format!("suppressed. {} (fails", paint(true, style, word)),
            1,
        );
    }
    s.push_str(&last);
    s
}

/// `--verbose`: every directory with why it is what it is, and the module sources' matrix.
fn terminal_layout(s: &mut String, r: &Report) {
    s.push_str("\nDirectories:\n");
    for d in &r.directories {
        term_line!(s, "  {:<7} {}  ({})", d.kind, d.dir, d.reasons.join("; "));
    }
    if !r.matrix.is_empty() {
        s.push_str("\nModule sources (package | directory | ref [class] | at):\n");
        for m in &r.matrix {
            term_line!(
                s,
                "  {} | {} ({}) | {} [{}] | {}",
                m.package,
                m.dir,
                m.kind,
                m.reference,
                m.class,
                m.at
            );
        }
    }
}

/// What the terminal report did not raise or show: suppressed findings, findings outside the
/// changed directories, paths excluded, rules that do not apply or are turned off.
fn terminal_left_out(s: &mut String, r: &Report) {
    if !r.suppressed.is_empty() {
        s.push('\n');
        term_line!(s, "Suppressed ({}):", r.suppressed.len());
        for x in &r.suppressed {
            term_line!(
                s,
                "  {} {} — {} (ward:ignore at {}{})",
                x.finding.rule,
                x.finding.location(),
                x.reason,
                x.at,
                x.until
                    .as_ref()
                    .map(|u| format!(", until {u}"))
                    .unwrap_or_default()
            );
        }
    }
    if r.summary.outside_changed > 0 {
        s.push('\n');
        term_line!(
            s,
            "{} finding(s) outside the directories of the changed files not shown (--changed)",
            r.summary.outside_changed
        );
    }
    if !r.excluded.is_empty() {
        s.push('\n');
        term_line!(s, "Not read ({} path(s) excluded):", r.excluded.len());
        for x in &r.excluded {
            term_line!(s, "  {} — {}", x.path, x.reason);
        }
    }
    if !r.not_raised.is_empty() {
        s.push('\n');
        term_line!(s, "Not raised where the rule does not apply:");
        for x in &r.not_raised {
            term_line!(s, "  {} ×{} — {}", x.rule, x.count, x.why);
        }
    }
    if !r.disabled_rules.is_empty() {
        s.push('\n');
        term_line!(
            s,
            "Rules turned off in ward.hcl: {}",
            r.disabled_rules
                .iter()
                .map(|id| id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// One finding as terminal lines.
pub fn finding_line(s: &mut String, f: &Finding) {
    finding_line_with(s, f, false)
}

/// [`finding_line`], its severity coloured when `color`.
fn finding_line_with(s: &mut String, f: &Finding, color: bool) {
    let mut line = String::new();
    term_line!(
        &mut line,
        "{:<7} {:<14} {}: {}",
        f.severity.as_str(),
        f.rule,
        f.location(),
        f.message
    );
    // The severity word leads the line and is ward's own: styled after escaping.
    let word = f.severity.as_str();
    match line.strip_prefix(word) {
        Some(rest) if color => {
            s.push_str(&paint(color, severity_style(f.severity), word));
            s.push_str(rest);
        }
        _ => s.push_str(&line),
    }
    for d in &f.detail {
        term_line!(s, "        {d}");
    }
}

/// The version of `ward check --format json` (`docs/check.schema.json`).
pub const SCHEMA_VERSION: u32 = 1;

/// JSON: the [`Report`] as is, `schema_version` first.
pub fn json(r: &Report) -> String {
    crate::json::versioned(SCHEMA_VERSION, r)
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn sarif_result(f: &Finding, suppression: Option<(&str, &str)>) -> Value {
    let mut text = f.message.clone();
    for d in &f.detail {
        text.push('\n');
        text.push_str(d);
    }
    let mut region = json!({});
    if f.line > 0 {
        region = json!({ "startLine": f.line });
    }
    let mut loc = json!({
        "physicalLocation": {
            "artifactLocation": { "uri": f.file, "uriBaseId": "%SRCROOT%" }
        }
    });
    if f.line > 0 {
        loc["physicalLocation"]["region"] = region;
    }
    let rule_index = RULES.iter().position(|r| r.id == f.rule).unwrap_or(0);
    let mut v = json!({
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "level": sarif_level(f.severity),
        "message": { "text": text },
        "locations": [loc],
    });
    if let Some((reason, at)) = suppression {
        v["suppressions"] = json!([{
            "kind": "inSource",
            "justification": reason,
            "location": { "physicalLocation": { "artifactLocation": { "uri": at } } }
        }]);
    }
    v
}

/// SARIF 2.1.0, one run, every catalog rule in the driver, suppressed findings with an
/// `inSource` suppression.
pub fn sarif(r: &Report) -> String {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|x| {
            json!({
                "id": x.id,
                "name": x.title,
                "shortDescription": { "text": x.title },
                "fullDescription": { "text": x.doc },
                "help": { "text": x.doc },
                "defaultConfiguration": { "level": sarif_level(x.severity) },
            })
        })
        .collect();
    let mut results: Vec<Value> = r.findings.iter().map(|f| sarif_result(f, None)).collect();
    results.extend(
        r.suppressed
            .iter()
            .map(|s| sarif_result(&s.finding, Some((&s.reason, &s.at)))),
    );
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "ward check",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "originalUriBaseIds": { "%SRCROOT%": { "uri": "./" } },
            "results": results,
        }]
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// JUnit XML ([`crate::junit`]): one test suite per rule; one test case per finding (a
/// failure when at or above the failing severity), per suppressed finding (skipped, with the
/// reason), or one passing case when the rule found nothing.
pub fn junit(r: &Report) -> String {
    let fail_on = r.summary.fail_on;
    let suites = RULES
        .iter()
        .map(|rule| {
            let case = |name: String, result: CaseResult| Case {
                classname: rule.id.to_string(),
                name,
                time: None,
                result,
            };
            let mut cases: Vec<Case> = r
                .findings
                .iter()
                .filter(|f| f.rule == rule.id)
                .map(|f| {
                    let mut body = f.message.clone();
                    for d in &f.detail {
                        body.push('\n');
                        body.push_str(d);
                    }
                    let result = if f.severity >= fail_on {
                        CaseResult::Failure {
                            kind: Some(f.severity.to_string()),
                            message: f.message.clone(),
                            text: body,
                        }
                    } else {
                        CaseResult::Output(format!("{}: {body}", f.severity))
                    };
                    case(f.location(), result)
                })
                .collect();
            cases.extend(
                r.suppressed
                    .iter()
                    .filter(|s| s.finding.rule == rule.id)
                    .map(|s| {
                        case(
                            s.finding.location(),
                            CaseResult::Skipped(format!("suppressed: {}", s.reason)),
                        )
                    }),
            );
            if cases.is_empty() {
                cases.push(case("no findings".into(), CaseResult::Passed));
            }
            Suite {
                name: format!("{} {}", rule.id, rule.title),
                properties: Vec::new(),
                cases,
            }
        })
        .collect();
    junit::render(&Document {
        name: "ward check".into(),
        suites,
    })
}
