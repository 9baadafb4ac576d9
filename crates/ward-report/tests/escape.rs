//! The one terminal escaper and the one Markdown escaper: properties over hostile generated text
//! (the structure of the output is kept whatever the value holds), and `ward plan`'s terminal and
//! Markdown reports with a hostile address and value.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fixtures;

use proptest::prelude::*;
use ward_classify::outcome::{evaluate, GateOptions};
use ward_model::{Impact, Shown};
use ward_report::escape::{
    html, is_unsafe, md_cell_code, md_code, md_code_block, md_outside_code, md_rich, md_text,
    terminal,
};
use ward_report::{render_markdown, render_terminal};

/// Characters that break terminal lines, Markdown or HTML, and some plain ones.
fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(vec![
            '`', '|', '<', '>', '!', '-', '+', '=', '#', '\\', '*', '_', '[', ']', '(', ')', '&',
            '~', '"', '.', '1', ' ', 'a', '\n', '\r', '\t', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}',
            '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{2028}', '\u{2029}', '\u{200e}',
            '\u{200f}', '\u{0b}', '\u{0c}',
        ]),
        1 => any::<char>(),
    ]
}

fn hostile() -> impl Strategy<Value = String> {
    prop::collection::vec(hostile_char(), 0..40).prop_map(|v| v.into_iter().collect())
}

/// GFM's table-row scanner: `\|` is part of a cell, any other `|` separates cells.
fn unescaped_pipes(row: &str) -> usize {
    let b = row.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
        .count()
}

/// CommonMark backslash escapes undone: what a reader sees of plain text.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' && it.peek().is_some_and(char::is_ascii_punctuation) {
            out.extend(it.next());
        } else {
            out.push(c);
        }
    }
    out
}

proptest! {
    #[test]
    fn terminal_text_stays_one_line_with_every_character_visible(s in hostile()) {
        let t = terminal(&s);
        prop_assert!(!t.chars().any(is_unsafe), "{t:?}");
        prop_assert_eq!(terminal(&t).into_owned(), t.to_string(), "idempotent");
        for c in s.chars().filter(|c| is_unsafe(*c)) {
            let shown: String = c.escape_default().collect();
            prop_assert!(t.contains(&shown), "{c:?} not shown as {shown} in {t:?}");
        }
        if !s.chars().any(is_unsafe) {
            prop_assert_eq!(t.as_ref(), s.as_str(), "safe text is unchanged");
        }
    }

    #[test]
    fn markdown_text_is_one_cell_of_one_row_and_reads_as_the_text(s in hostile()) {
        let m = md_text(&s);
        prop_assert!(!m.chars().any(is_unsafe), "{m:?}");
        let row = format!("| {m} | end |");
        prop_assert_eq!(unescaped_pipes(&row), 3, "{}", row);
        // No syntax left unescaped: code spans, HTML, emphasis, links, entities, headings.
        let b = m.as_bytes();
        for (i, c) in b.iter().enumerate() {
            if b"`<>*_[]|~&#!".contains(c) {
                let backslashes = b[..i].iter().rev().take_while(|x| **x == b'\\').count();
                prop_assert!(backslashes % 2 == 1, "unescaped {} at {i} in {m:?}", *c as char);
            }
        }
        prop_assert!(!m.starts_with(['-', '+', '=']), "{m:?}");
        prop_assert_eq!(unescape(&m), terminal(&s).into_owned());
    }

    #[test]
    fn markdown_code_span_is_one_span_with_the_text(s in hostile()) {
        let m = md_code(&s);
        prop_assert!(!m.chars().any(is_unsafe), "{m:?}");
        let fence = m.chars().take_while(|c| *c == '`').count();
        prop_assert!(m.ends_with(&"`".repeat(fence)));
        let inner = &m[fence..m.len() - fence];
        // No run of exactly `fence` backticks inside: nothing closes the span early.
        prop_assert!(inner.split(|c| c != '`').all(|run| run.len() != fence), "{m:?}");
        let t = terminal(&s);
        let padded = inner.len() == t.len() + 2;
        let content = if padded { &inner[1..inner.len() - 1] } else { inner };
        prop_assert_eq!(content, t.as_ref());
        let cell = format!("| {} | end |", md_cell_code(&s));
        prop_assert_eq!(unescaped_pipes(&cell), 3, "{}", cell);
    }

    #[test]
    fn markdown_rich_text_and_html_stay_inline(s in hostile()) {
        let r = md_rich(&s);
        prop_assert!(!r.chars().any(is_unsafe), "{r:?}");
        let h = html(&s);
        prop_assert!(!h.chars().any(|c| is_unsafe(c) || c == '<' || c == '>' || c == '"'), "{h:?}");
    }

    #[test]
    fn markdown_code_block_cannot_be_closed_from_inside(lines in prop::collection::vec(hostile(), 0..5)) {
        let b = md_code_block("  ", "text", &lines);
        let out: Vec<&str> = b.lines().collect();
        prop_assert_eq!(out.len(), lines.len() + 2, "{}", b);
        let fence = out[0].trim_start().chars().take_while(|c| *c == '`').count();
        prop_assert!(fence >= 3);
        for l in &out[1..out.len() - 1] {
            prop_assert!(l.split(|c| c != '`').all(|run| run.len() < fence), "{l:?} closes the block");
        }
        prop_assert_eq!(out[out.len() - 1].trim_start(), "`".repeat(fence));
    }
}

/// An address that tries everything: backticks, a table pipe, HTML, a comment that would hide the
/// rest of a PR comment, a heading and newlines, a cursor-up/erase sequence printing a fake
/// verdict, a right-to-left override and a line separator.
const HOSTILE: &str = "x`` | <b>y</b> <!-- \n# heading\n\u{1b}[1A\u{1b}[2Kpassed\u{202e}\u{2028}z";

fn with_addresses(suffix: &str) -> ward_classify::Assessment {
    let mut a = fixtures::mixed();
    for v in &mut a.verdicts {
        v.address.push_str(suffix);
        for at in &mut v.attributes {
            at.change.after = Shown::Known(serde_json::Value::String(suffix.into()));
        }
    }
    a
}

/// `ward plan`: a hostile address and value change no line of the terminal report and no line,
/// table row or HTML element of the Markdown report.
#[test]
fn plan_reports_escape_a_hostile_address() {
    let (bad, good) = (with_addresses(HOSTILE), with_addresses("x"));
    let opts = GateOptions {
        fail_on: Some(Impact::Replace),
        allow_errored: false,
    };
    let (ob, og) = (evaluate(&bad, &opts), evaluate(&good, &opts));
    for color in [false, true] {
        let (t, g) = (
            render_terminal(&bad, &ob, color),
            render_terminal(&good, &og, color),
        );
        assert_eq!(t.lines().count(), g.lines().count(), "{t}");
        assert!(
            !t.contains("\u{1b}[1A") && !t.contains('\u{202e}') && !t.contains('\u{2028}'),
            "{t}"
        );
        assert!(
            t.contains("\\u{1b}[1A\\u{1b}[2Kpassed\\u{202e}\\u{2028}z"),
            "{t}"
        );
    }
    let (m, g) = (
        render_markdown(&bad, &ob, 1 << 20),
        render_markdown(&good, &og, 1 << 20),
    );
    assert_eq!(m.lines().count(), g.lines().count(), "{m}");
    assert!(!m.chars().any(|c| is_unsafe(c) && c != '\n'), "{m}");
    // Outside code spans, no HTML and no heading the value made; in the `<details>` lines (raw
    // HTML blocks) no tag but ward's own.
    for line in m.lines() {
        if line.starts_with("<details>") {
            let mut rest = line.to_string();
            for tag in [
                "<details>",
                "<summary>",
                "</summary>",
                "<b>",
                "</b>",
                "<code>",
                "</code>",
            ] {
                rest = rest.replace(tag, "");
            }
            assert!(!rest.contains('<'), "{line}");
        } else {
            let prose = md_outside_code(line);
            assert!(!prose.contains("<!--") && !prose.contains("<b>"), "{line}");
        }
    }
    assert_eq!(
        m.lines().filter(|l| l.starts_with('#')).count(),
        g.lines().filter(|l| l.starts_with('#')).count()
    );
    let rows = |s: &str| -> Vec<usize> {
        s.lines()
            .filter(|l| l.starts_with('|'))
            .map(unescaped_pipes)
            .collect()
    };
    assert_eq!(rows(&m), rows(&g));
}
