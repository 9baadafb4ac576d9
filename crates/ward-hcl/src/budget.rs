//! The budget every native HCL file (`.tf`, `.tofu`, `terragrunt.hcl`) passes before ward hands
//! it to hcl-edit's parser.
//!
//! hcl-edit's parser backtracks: when an expression fails to parse with brackets still open
//! (`(`, `[`, `{`, a template's `${`/`%{`), each open level can be parsed again from its start,
//! so its time doubles with every level left open. `a = 1+1+(1+1+(1+1+(` … at the end of a file
//! takes seconds at twenty levels, hours at forty, though a valid file of any depth parses in
//! linear time. Such a file is invalid anyway; this cheap lexical scan (strings, templates,
//! heredocs and comments as hcl-edit reads them) finds where its brackets stop being closed (the
//! end of the file, a closer that matches nothing) and refuses it
//! before the parse when more than [`MAX_OPEN`] are open there. Fewer are left to the parser,
//! whose own message then stands, at a bounded cost.

use crate::error::ParseError;

/// The most brackets a file may leave open where its text stops making sense: beyond it the
/// parser's time doubles per level (2^8 times a normal parse at most).
pub const MAX_OPEN: usize = 8;

/// What is open at a point of the scan.
#[derive(Debug, Clone, PartialEq)]
enum Frame {
    /// `(`, `[` or `{` in an expression, with its closer.
    Bracket(u8, u8),
    /// `${` or `%{` in a template, closed by `}`.
    Interp(u8),
    /// A quoted string.
    Quote,
    /// A heredoc, with its closing marker.
    Heredoc(String),
}

impl Frame {
    fn opener(&self) -> String {
        match self {
            Frame::Bracket(open, _) => char::from(*open).to_string(),
            Frame::Interp(c) => format!("{}{{", char::from(*c)),
            Frame::Quote => "\"".to_string(),
            Frame::Heredoc(m) => format!("<<{m}"),
        }
    }
}

/// An open frame and where it opened (1-based line and column).
struct Open {
    frame: Frame,
    line: usize,
    column: usize,
}

/// Refuses `text` when it stops being valid HCL with more than [`MAX_OPEN`] brackets, strings or
/// templates open at that point (see the module's documentation); `Ok` otherwise, valid or not.
pub fn check(text: &str) -> Result<(), ParseError> {
    match stop(text.as_bytes()) {
        Some((open, line, column, what)) if open.len() > MAX_OPEN => {
            let first = &open[0];
            Err(ParseError {
                line,
                column,
                message: format!(
                    "{what} with {} brackets, strings or templates still open (the outermost, \
                     `{}`, opened at line {}); ward reads at most {MAX_OPEN} left open, because \
                     the HCL parser's time doubles with each one. Close them (or end the string \
                     or comment that swallows their closers)",
                    open.len(),
                    first.frame.opener(),
                    first.line
                ),
                near: text
                    .lines()
                    .nth(line.saturating_sub(1))
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// Where the text stops making sense lexically, if it does: what is open there, the line and
/// column (1-based), and what happened.
fn stop(b: &[u8]) -> Option<(Vec<Open>, usize, usize, &'static str)> {
    let mut open: Vec<Open> = Vec::new();
    let mut line = 1;
    let mut line_start = 0;
    let mut i = 0;
    // At the start of a line inside a heredoc, whether the line is its closing marker.
    let mut at_line_start = true;
    while i < b.len() {
        let c = b[i];
        let col = i - line_start + 1;
        match open.last().map(|o| &o.frame) {
            Some(Frame::Heredoc(marker)) => {
                if at_line_start {
                    let end = line_end(b, i);
                    let this = String::from_utf8_lossy(&b[i..end]);
                    if this.trim() == marker.as_str() {
                        open.pop();
                        i = end;
                        at_line_start = false;
                        continue;
                    }
                }
                at_line_start = false;
                match c {
                    b'\n' => {
                        line += 1;
                        line_start = i + 1;
                        at_line_start = true;
                    }
                    _ => i += template(b, i, &mut open, line, col),
                }
            }
            Some(Frame::Quote) => match c {
                b'\\' => i += 1,
                b'"' => {
                    open.pop();
                }
                // hcl-edit reads a quoted string across lines (Terraform does not).
                b'\n' => {
                    line += 1;
                    line_start = i + 1;
                }
                _ => i += template(b, i, &mut open, line, col),
            },
            // Expressions: the top level, brackets and template interpolations.
            _ => match c {
                b'\n' => {
                    line += 1;
                    line_start = i + 1;
                }
                b'"' => open.push(Open {
                    frame: Frame::Quote,
                    line,
                    column: col,
                }),
                // A line comment: `#` or `//`.
                b'#' | b'/' if c == b'#' || b.get(i + 1) == Some(&b'/') => {
                    i = line_end(b, i);
                    continue;
                }
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    let Some(p) = b[i + 2..].windows(2).position(|w| w == b"*/") else {
                        return Some((open, line, col, "a comment is never closed"));
                    };
                    let end = i + 2 + p + 2;
                    for (k, &x) in b[i..end].iter().enumerate() {
                        if x == b'\n' {
                            line += 1;
                            line_start = i + k + 1;
                        }
                    }
                    i = end;
                    continue;
                }
                b'<' if b.get(i + 1) == Some(&b'<') => {
                    if let Some((marker, next)) = heredoc(b, i + 2) {
                        open.push(Open {
                            frame: Frame::Heredoc(marker),
                            line,
                            column: col,
                        });
                        // `next` is the line feed ending the heredoc's first line.
                        i = next;
                        continue;
                    }
                    i += 1;
                }
                b'(' | b'[' | b'{' => {
                    let close = match c {
                        b'(' => b')',
                        b'[' => b']',
                        _ => b'}',
                    };
                    open.push(Open {
                        frame: Frame::Bracket(c, close),
                        line,
                        column: col,
                    });
                }
                b')' | b']' | b'}' => {
                    let matches = match open.last().map(|o| &o.frame) {
                        Some(Frame::Bracket(_, close)) => *close == c,
                        Some(Frame::Interp(_)) => c == b'}',
                        _ => false,
                    };
                    if !matches {
                        return Some((open, line, col, "a closing bracket matches nothing open"));
                    }
                    open.pop();
                }
                _ => {}
            },
        }
        i += 1;
    }
    // At the end of the file: the place of the innermost thing left open.
    let (line, column) = open.last().map(|o| (o.line, o.column))?;
    Some((open, line, column, "the file ends"))
}

/// The offset of the line feed ending the line that holds `i` (the text's length on the last).
fn line_end(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&x| x == b'\n')
        .map_or(b.len(), |p| i + p)
}

/// In a template's text at `i`: opens an interpolation or directive (`${`, `%{`), steps over an
/// escaped one (`$${`, `%%{`); the bytes to skip beyond `i`.
fn template(b: &[u8], i: usize, open: &mut Vec<Open>, line: usize, column: usize) -> usize {
    let c = b[i];
    if c != b'$' && c != b'%' {
        return 0;
    }
    if b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&b'{') {
        return 2;
    }
    if b.get(i + 1) != Some(&b'{') {
        return 0;
    }
    open.push(Open {
        frame: Frame::Interp(c),
        line,
        column,
    });
    1
}

/// After `<<` at `from`: the heredoc's marker and the offset of the line feed that ends its
/// opening line, if it is one (`<<EOT` or `<<-EOT`, then only spaces up to the line feed).
fn heredoc(b: &[u8], from: usize) -> Option<(String, usize)> {
    let mut j = from;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    let start = j;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'-') {
        j += 1;
    }
    if j == start || !b[start].is_ascii_alphabetic() {
        return None;
    }
    let marker = String::from_utf8_lossy(&b[start..j]).into_owned();
    while j < b.len() && (b[j] == b' ' || b[j] == b'\t' || b[j] == b'\r') {
        j += 1;
    }
    (b.get(j) == Some(&b'\n')).then_some((marker, j))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn open_at_stop(text: &str) -> Option<usize> {
        stop(text.as_bytes()).map(|(open, ..)| open.len())
    }

    #[test]
    fn valid_text_never_stops() {
        for text in [
            "a = 1\n",
            "resource \"x\" \"y\" {\n  a = [1, (2), {k = \"v\"}]\n}\n",
            "a = \"${var.x}-%{if true}y%{endif}-$${literal}-%%{literal}-\\\"}\"\n",
            "a = \"${ {k = \"}\"}[\"k\"] }\"\n",
            "a = <<EOT\n  ( [ { \"\n  ${var.x}\nEOT\nb = <<-EOT\n    }}}\n    EOT\n",
            "# (((\n// [[[\n/* {{{\n */ a = 1\n",
            "a = x << 2\n",
            "a = <<EOT\n${ [\n  1,\n] }\nEOT\n",
            "a = \"two\nlines (\"\n",
        ] {
            assert_eq!(open_at_stop(text), None, "{text}");
            assert!(check(text).is_ok());
        }
    }

    #[test]
    fn the_stopping_point_counts_what_is_open() {
        assert_eq!(open_at_stop("a = (((\n"), Some(3));
        assert_eq!(open_at_stop("a = ((\"abc))\n"), Some(3));
        assert_eq!(open_at_stop("a = ((1 # ))\n"), Some(2));
        assert_eq!(open_at_stop("a = (\"${\"))\n"), Some(4));
        assert_eq!(open_at_stop("a = ((1]\n"), Some(2));
        assert_eq!(open_at_stop("a = ((/* ))\n"), Some(2));
        assert_eq!(open_at_stop("a = (<<EOT\n)\n"), Some(2));
        assert_eq!(open_at_stop("}\n"), Some(0));
    }

    #[test]
    fn more_than_the_budget_left_open_is_refused_with_its_place() {
        let text = format!("x = 1\na = {}\n", "1+1+(".repeat(MAX_OPEN + 1));
        let e = check(&text).unwrap_err();
        assert_eq!((e.line, e.column), (2, 4 + 5 * (MAX_OPEN + 1)));
        assert!(
            e.message.contains("the file ends with 9 brackets"),
            "{}",
            e.message
        );
        assert!(e.message.contains("opened at line 2"), "{}", e.message);
        let at_budget = format!("a = {}\n", "1+1+(".repeat(MAX_OPEN));
        assert!(check(&at_budget).is_ok());
    }
}
