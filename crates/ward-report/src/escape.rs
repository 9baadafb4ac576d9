//! The one terminal escaper and the one Markdown escaper, used by every command's terminal and
//! Markdown output (`ward plan`, `gate`, `verify`, `drift`, `check`).
//!
//! Anything that comes from outside ward (addresses, types, values, directory names, approval
//! entries, error messages) goes through one of these before it is printed:
//!
//! - [`terminal`]: control characters (C0, DEL, C1: so every ESC sequence) and the characters
//!   that reorder or break a line (bidi embeddings, overrides and isolates U+202A–U+202E,
//!   U+2066–U+2069, the marks U+200E, U+200F, U+061C, the separators U+2028, U+2029) are shown as
//!   visible escapes (`\n`, `\u{1b}`, `\u{202e}`) instead of being interpreted.
//! - [`md_text`]: plain Markdown text: the same characters escaped as in [`terminal`] (so a value
//!   never adds a line), then every character Markdown or HTML could read as syntax
//!   backslash-escaped (`` ` ``, `|`, `<`, `#`, `*`, …), and a list or heading marker at the start
//!   escaped. Safe in a paragraph, a list item and a table cell.
//! - [`md_code`]: an inline code span whose fence is longer than the longest run of backticks
//!   inside (CommonMark), padded when needed. Not for table cells (a `|` would split the cell):
//!   use `<code>` + [`md_text`] there.
//! - [`html`]: text inside HTML elements and attribute values (`<summary>`, `<code>`): `&`, `<`,
//!   `>`, `"` as entities, after the same visible escapes.

use std::borrow::Cow;

/// True for a character that must not reach a terminal or a Markdown document as is: control
/// characters (C0, DEL, C1) and the characters that reorder text or break a line.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// Text for one terminal line: every [`is_unsafe`] character shown as a visible escape (`\n`,
/// `\t`, `\u{1b}`, `\u{202e}`), a backslash kept as is.
pub fn terminal(s: &str) -> Cow<'_, str> {
    // Printable ASCII is never unsafe: most text is that, checked a byte at a time.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) || !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Appends one terminal line to `out`: `line` with every [`is_unsafe`] character escaped (so a
/// value can neither start a new line nor move the cursor), then a newline. [`term_line!`] is
/// this with `format!` arguments.
///
/// [`term_line!`]: crate::term_line
pub fn push_line(out: &mut String, line: &str) {
    out.push_str(&terminal(line));
    out.push('\n');
}

/// Appends one terminal line, formatted like `writeln!`, with every unsafe character of the
/// result escaped ([`escape::push_line`](crate::escape::push_line)). The format string itself
/// must not hold newlines (they would be escaped too): push those separately.
#[macro_export]
macro_rules! term_line {
    ($out:expr, $($fmt:tt)*) => {
        $crate::escape::push_line($out, &::std::format!($($fmt)*))
    };
}

/// Plain Markdown text that renders as exactly these characters, on one line, with no structure
/// of its own (see the module documentation).
pub fn md_text(s: &str) -> String {
    let s = terminal(s);
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '!'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    // A list item or a setext underline at the start of a line: `- x`, `+ x`, `= x`, `1. x`.
    let digits = out.chars().take_while(char::is_ascii_digit).count();
    let mut rest = out[digits..].chars();
    match (rest.next(), rest.next()) {
        (Some('-' | '+' | '='), _) if digits == 0 => out.insert(0, '\\'),
        (Some('.' | ')'), None | Some(' ' | '\t')) if digits > 0 => out.insert(digits, '\\'),
        _ => {}
    }
    out
}

/// An inline code span that survives any content: [`terminal`] escapes, a fence longer than any
/// run of backticks inside, padded when the content starts or ends with a backtick or a space.
pub fn md_code(s: &str) -> String {
    let s = terminal(s);
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    if longest > 0 || s.starts_with(' ') || s.ends_with(' ') || s.is_empty() {
        format!("{fence} {s} {fence}")
    } else {
        format!("{fence}{s}{fence}")
    }
}

/// Text that may hold `code spans` (explanations, rule reasons): the spans stay code (made safe
/// by [`md_code`]), everything else is escaped by [`md_text`]. With an odd number of backticks everything
/// is escaped.
pub fn md_rich(s: &str) -> String {
    rich(s, md_code)
}

/// [`md_rich`] for a GFM table cell: the code spans are [`md_cell_code`].
pub fn md_rich_cell(s: &str) -> String {
    rich(s, md_cell_code)
}

fn rich(s: &str, code: fn(&str) -> String) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len() % 2 == 0 {
        return md_text(s);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| if i % 2 == 1 { code(p) } else { md_text(p) })
        .collect()
}

/// An inline code span for a GFM table cell: [`md_code`] with every `|` escaped, which GFM
/// reads as part of the cell (and shows as `|`), even inside a code span.
pub fn md_cell_code(s: &str) -> String {
    md_code(s).replace('|', "\\|")
}

/// A fenced code block (for lines shown as is: guard output, a command to copy): each line
/// escaped by [`terminal`] and prefixed with `indent`, fenced by more backticks than the longest
/// run inside, so no line can close the block. Ends with a newline.
pub fn md_code_block(indent: &str, info: &str, lines: &[String]) -> String {
    let lines: Vec<Cow<'_, str>> = lines.iter().map(|l| terminal(l)).collect();
    let longest = lines
        .iter()
        .flat_map(|l| l.split(|c| c != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let mut out = format!("{indent}{fence}{info}\n");
    for l in &lines {
        out.push_str(indent);
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&format!("{indent}{fence}\n"));
    out
}

/// The text of a Markdown line outside its code spans (CommonMark's rule: a backtick run up to
/// the next run of the same length; an unmatched run is literal): the part a reader's renderer
/// could take as Markdown or HTML syntax. For checks and tests of rendered reports.
pub fn md_outside_code(s: &str) -> String {
    let b = s.as_bytes();
    let run_at = |i: usize| b[i..].iter().take_while(|c| **c == b'`').count();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        if b[i] != b'`' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let close = loop {
            match b[j..].iter().position(|c| *c == b'`') {
                None => break None,
                Some(k) => {
                    let m = run_at(j + k);
                    if m == n {
                        break Some(j + k + m);
                    }
                    j += k + m;
                }
            }
        };
        match close {
            Some(end) => i = end,
            None => {
                out.extend_from_slice(&b[i..i + n]);
                i += n;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Text inside HTML elements and attribute values: [`terminal`] escapes, then `&`, `<`, `>`, `"`
/// as entities.
pub fn html(s: &str) -> String {
    let s = terminal(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples() {
        assert_eq!(terminal("a\u{1b}[31mb\nc"), "a\\u{1b}[31mb\\nc");
        assert_eq!(terminal("x\u{202e}y\u{2028}z"), "x\\u{202e}y\\u{2028}z");
        assert_eq!(terminal("\u{9b}\u{7f}\u{200f}"), "\\u{9b}\\u{7f}\\u{200f}");
        assert!(matches!(terminal("plain ünïcode"), Cow::Borrowed(_)));
        assert_eq!(md_code("a.b"), "`a.b`");
        assert_eq!(md_code("a`b"), "`` a`b ``");
        assert_eq!(md_code(""), "`  `");
        assert_eq!(md_code("x[\"k\"]"), "`x[\"k\"]`");
        assert_eq!(html("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        assert_eq!(md_text("a*b_c"), "a\\*b\\_c");
        assert_eq!(md_text("# h\n<!--"), "\\# h\\\\n\\<\\!--");
        assert_eq!(md_text("- x"), "\\- x");
        assert_eq!(md_text("12. x"), "12\\. x");
        assert_eq!(md_text("1.5 x"), "1.5 x");
        assert_eq!(md_rich("`ami` forces *x*"), "`ami` forces \\*x\\*");
        assert_eq!(md_rich("odd ` tick"), "odd \\` tick");
        assert_eq!(md_rich("`a<b>`"), "`a<b>`");
        assert_eq!(md_cell_code("a|b"), "`a\\|b`");
        assert_eq!(
            md_code_block("  ", "sh", &["ls ````".into(), "x\u{1b}".into()]),
            "  `````sh\n  ls ````\n  x\\u{1b}\n  `````\n"
        );
        let mut s = String::new();
        crate::term_line!(&mut s, "gate {}", "x\n\u{1b}[1Agate passed");
        assert_eq!(s, "gate x\\n\\u{1b}[1Agate passed\n");
    }
}
