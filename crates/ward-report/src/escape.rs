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
    // Checked a byte at a time, without decoding characters: most text is safe.
    if !has_unsafe(s) {
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

/// True when some character of `s` [`is_unsafe`] (`s.chars().any(is_unsafe)`), read from its
/// UTF-8 bytes: C0 and DEL are single bytes, C1 is `C2 80`–`C2 9F`, U+061C `D8 9C`, U+200E/F
/// `E2 80 8E`/`8F`, U+2028–U+202E `E2 80 A8`–`AE`, U+2066–U+2069 `E2 81 A6`–`A9`. A lead byte
/// is never a continuation byte, so no character is mistaken for another.
fn has_unsafe(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        // Printable ASCII is never unsafe: most text is that, passed eight bytes at a time.
        if let Some(w) = b.get(i..).and_then(|r| r.first_chunk::<8>()) {
            if printable_word(u64::from_le_bytes(*w)) {
                i += 8;
                continue;
            }
        }
        // Only the bytes an unsafe character starts with need a closer look.
        if (c < 0x20 || matches!(c, 0x7f | 0xc2 | 0xd8 | 0xe2)) && unsafe_at(b, i) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether the character that starts at `b[i]` (a byte [`has_unsafe`] looks closer at) is
/// unsafe.
fn unsafe_at(b: &[u8], i: usize) -> bool {
    let next = |k: usize| b.get(i + k).copied();
    match b.get(i) {
        Some(0xc2) => matches!(next(1), Some(0x80..=0x9f)),
        Some(0xd8) => next(1) == Some(0x9c),
        Some(0xe2) => matches!(
            (next(1), next(2)),
            (Some(0x80), Some(0x8e | 0x8f | 0xa8..=0xae)) | (Some(0x81), Some(0xa6..=0xa9))
        ),
        _ => true,
    }
}

/// True when each of the eight bytes of `x` is printable ASCII (`0x20` to `0x7e`): a byte is
/// out of that range exactly when the byte, the byte plus one or the byte minus `0x20` has its
/// top bit set. A carry or borrow between bytes starts only at a byte that is itself out of
/// range, so the word's answer is exact.
#[inline]
fn printable_word(x: u64) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    (x | x.wrapping_add(ONES) | x.wrapping_sub(ONES * 0x20)) & (ONES * 0x80) == 0
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
    let mut out = String::with_capacity(s.len() + 8);
    push_md_text(&mut out, s);
    out
}

/// The bytes [`push_md_text`] backslash-escapes, looked up one load a byte.
const MD_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let special = b"\\`*_[]<>|~&#!";
    let mut i = 0;
    while i < special.len() {
        t[special[i] as usize] = true;
        i += 1;
    }
    t
};

/// [`md_text`] appended to `out`. The characters it backslash-escapes are ASCII, so they are
/// found byte by byte and the text between them is copied whole.
fn push_md_text(out: &mut String, s: &str) {
    let s = terminal(s);
    let start = out.len();
    let mut rest: &str = &s;
    while let Some(at) = rest.bytes().position(|b| MD_SPECIAL[usize::from(b)]) {
        // `at` is an ASCII byte: one character, one byte, at a character boundary.
        let (Some((before, from)), Some((special, after))) = (
            rest.split_at_checked(at),
            rest.get(at..).and_then(|r| r.split_at_checked(1)),
        ) else {
            break;
        };
        debug_assert_eq!(from.len(), special.len() + after.len());
        out.push_str(before);
        out.push('\\');
        out.push_str(special);
        rest = after;
    }
    out.push_str(rest);
    // A list item or a setext underline at the start of a line: `- x`, `+ x`, `= x`, `1. x`.
    let piece = out.get(start..).unwrap_or("");
    let digits = piece.chars().take_while(char::is_ascii_digit).count();
    let mut tail = piece.get(digits..).unwrap_or("").chars();
    match (tail.next(), tail.next()) {
        (Some('-' | '+' | '='), _) if digits == 0 => out.insert(start, '\\'),
        (Some('.' | ')'), None | Some(' ' | '\t')) if digits > 0 => {
            out.insert(start + digits, '\\')
        }
        _ => {}
    }
}

/// An inline code span that survives any content: [`terminal`] escapes, a fence longer than any
/// run of backticks inside, padded when the content starts or ends with a backtick or a space.
pub fn md_code(s: &str) -> String {
    let s = terminal(s);
    // Backticks are ASCII: counted byte by byte (no byte of another character is one).
    let mut longest = 0;
    let mut run = 0;
    for b in s.bytes() {
        if b == b'`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = longest + 1;
    let pad = longest > 0 || s.starts_with(' ') || s.ends_with(' ') || s.is_empty();
    // Sized and pushed: the fence, the padding, the text, the padding, the fence.
    let mut out = String::with_capacity(s.len() + 2 * fence + 2);
    out.extend(std::iter::repeat_n('`', fence));
    if pad {
        out.push(' ');
    }
    out.push_str(&s);
    if pad {
        out.push(' ');
    }
    out.extend(std::iter::repeat_n('`', fence));
    out
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
    // An even number of parts: an odd number of backticks.
    if memchr::memchr_iter(b'`', s.as_bytes()).count() % 2 == 1 {
        return md_text(s);
    }
    // Every part appended to one string (no string per text part, no Vec of parts).
    let mut out = String::with_capacity(s.len() + 16);
    for (i, p) in s.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&code(p));
        } else {
            push_md_text(&mut out, p);
        }
    }
    out
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

    /// The byte scan finds exactly the characters [`is_unsafe`] names: every character, alone
    /// and between others.
    #[test]
    fn has_unsafe_is_any_unsafe_character() {
        let mut unsafe_chars = 0;
        for c in (0..=0x10ffff_u32).filter_map(char::from_u32) {
            let (alone, inside) = (c.to_string(), format!("aé{c}→b"));
            assert_eq!(has_unsafe(&alone), is_unsafe(c), "{:x}", c as u32);
            assert_eq!(has_unsafe(&inside), is_unsafe(c), "{:x}", c as u32);
            // After and before whole words of printable ASCII, at every place in a word.
            for pad in 7..=9 {
                let long = format!("{}{c}{}", "a".repeat(pad), "b".repeat(pad));
                assert_eq!(has_unsafe(&long), is_unsafe(c), "{:x} at {pad}", c as u32);
            }
            unsafe_chars += usize::from(is_unsafe(c));
        }
        // C0 and DEL and C1 (65), U+061C, U+200E/F, U+2028/9, U+202A–E, U+2066–9.
        assert_eq!(unsafe_chars, 65 + 1 + 2 + 2 + 5 + 4);
        assert!(!has_unsafe("plain ünïcode — ←→ \\u{2028}"));
    }

    /// The word check says exactly whether every byte is printable ASCII, whatever byte stands
    /// wherever in the word, beside any other.
    #[test]
    fn printable_word_is_every_byte_printable() {
        let word = |bytes: [u8; 8]| printable_word(u64::from_le_bytes(bytes));
        for b in 0..=u8::MAX {
            for at in 0..8 {
                for fill in [b' ', b'~', b'a'] {
                    let mut bytes = [fill; 8];
                    bytes[at] = b;
                    assert_eq!(word(bytes), (0x20..0x7f).contains(&b), "{b:#x} at {at}");
                    // Beside a byte just out of range on either side.
                    for out in [0x1f, 0x7f] {
                        bytes[(at + 1) % 8] = out;
                        assert!(!word(bytes), "{b:#x} at {at}, {out:#x} after it");
                    }
                }
            }
        }
    }

    /// `md_text` is the character-by-character escape it always was (backslash before each
    /// special character, then the line-start markers), whatever surrounds the specials.
    #[test]
    fn md_text_escapes_each_special_character() {
        fn one_by_one(s: &str) -> String {
            let mut out = String::new();
            for c in terminal(s).chars() {
                if "\\`*_[]<>|~&#!".contains(c) {
                    out.push('\\');
                }
                out.push(c);
            }
            let digits = out.chars().take_while(char::is_ascii_digit).count();
            let mut rest = out[digits..].chars();
            match (rest.next(), rest.next()) {
                (Some('-' | '+' | '='), _) if digits == 0 => out.insert(0, '\\'),
                (Some('.' | ')'), None | Some(' ' | '\t')) if digits > 0 => {
                    out.insert(digits, '\\')
                }
                _ => {}
            }
            out
        }
        let texts = [
            "",
            "a",
            "*",
            "**é*",
            "é_x_→",
            "a\\b",
            "[x](y)",
            "<b>&amp;",
            "|~#!",
            "- x",
            "+",
            "=",
            "1. x",
            "12)",
            "1.5",
            "3.\t",
            "x\n*",
            "`a`",
            "a`b`c",
            "é\u{202e}*",
        ];
        for t in texts {
            assert_eq!(md_text(t), one_by_one(t), "{t:?}");
        }
        assert_eq!(md_rich("- `a*`*b"), "\\- `a*`\\*b");
    }

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
