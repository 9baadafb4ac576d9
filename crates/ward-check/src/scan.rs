//! Text scanning: key material (WARD-KEY-001) and `ward:ignore` comments.

use crate::finding::Finding;
use crate::rules::RuleId;
use regex::Regex;
use std::sync::OnceLock;

/// A kind of key material and how to recognise it.
struct Pattern {
    what: &'static str,
    re: &'static str,
}

const PATTERNS: &[Pattern] = &[
    Pattern {
        what: "private key",
        re: r"-----BEGIN ((RSA|DSA|EC|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----",
    },
    Pattern {
        what: "AWS access key id",
        re: r"\b(AKIA|ASIA)[0-9A-Z]{16}\b",
    },
    Pattern {
        what: "AWS secret access key",
        re: r#"(?i)aws_?secret_?(access_?)?key["']?\s*[=:]\s*["'][A-Za-z0-9/+]{40}["']"#,
    },
    Pattern {
        what: "GitHub token",
        re: r"\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})\b",
    },
    Pattern {
        what: "GitLab token",
        re: r"\bglpat-[A-Za-z0-9_\-]{20,}",
    },
    Pattern {
        what: "Slack token",
        re: r"\bxox[abposr]-[A-Za-z0-9-]{10,}",
    },
    Pattern {
        what: "Google API key",
        re: r"\bAIza[0-9A-Za-z_\-]{35}\b",
    },
    Pattern {
        what: "DigitalOcean token",
        re: r"\bdo[por]_v1_[a-f0-9]{64}\b",
    },
    Pattern {
        what: "Stripe live secret key",
        re: r"\b[sr]k_live_[0-9a-zA-Z]{24,}\b",
    },
];

fn compiled() -> &'static [(&'static str, Regex)] {
    static C: OnceLock<Vec<(&'static str, Regex)>> = OnceLock::new();
    C.get_or_init(|| {
        PATTERNS
            .iter()
            .filter_map(|p| Regex::new(p.re).ok().map(|r| (p.what, r)))
            .collect()
    })
}

/// Placeholders that look like keys but are documented examples.
fn is_example(s: &str) -> bool {
    let u = s.to_ascii_uppercase();
    u.contains("EXAMPLE") || u.contains("XXXXXXXX")
}

/// Key material in one file's text. The value is never put in the finding.
pub fn key_material(file: &str, text: &str, out: &mut Vec<Finding>) {
    // Cheap prefilter: most files have none of these.
    const HINTS: &[&str] = &[
        "PRIVATE KEY",
        "AKIA",
        "ASIA",
        "ecret",
        "ECRET",
        "gh",
        "github_pat_",
        "glpat-",
        "xox",
        "AIza",
        "_v1_",
        "k_live_",
    ];
    if !HINTS.iter().any(|h| text.contains(h)) {
        return;
    }
    for (i, line) in text.lines().enumerate() {
        for (what, re) in compiled() {
            if let Some(m) = re.find(line) {
                if is_example(m.as_str()) {
                    continue;
                }
                out.push(Finding::new(
                    RuleId::Key001,
                    file,
                    i + 1,
                    format!(
                        "{what} written literally ({} characters at column {}; value not shown)",
                        m.as_str().chars().count(),
                        line[..m.start()].chars().count() + 1
                    ),
                ));
                break;
            }
        }
    }
}

/// A `ward:ignore` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    /// The file.
    pub file: String,
    /// The comment's line.
    pub line: usize,
    /// The first line it applies to besides its own (the next code line), 0 for file-wide.
    pub target: usize,
    /// The last line it applies to: the end of the block the target line opens, else `target`.
    pub target_end: usize,
    /// `ward:ignore-file`: applies to the whole file.
    pub file_wide: bool,
    /// Rule IDs.
    pub ids: Vec<String>,
    /// `reason="..."`.
    pub reason: Option<String>,
    /// `until=YYYY-MM-DD`.
    pub until: Option<String>,
    /// A syntax problem (then it suppresses nothing).
    pub problem: Option<String>,
}

/// Finds the `ward:ignore` / `ward:ignore-file` comments of a file.
///
/// Syntax (after `#`, `//` or `/*`):
/// `ward:ignore WARD-ID[,WARD-ID...] reason="why" [until=YYYY-MM-DD]`.
pub fn suppressions(file: &str, text: &str) -> Vec<Suppression> {
    if !text.contains("ward:ignore") {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(pos) = line.find("ward:ignore") else {
            continue;
        };
        let before = line[..pos].trim_end();
        let is_comment_marker =
            before.ends_with('#') || before.ends_with("//") || before.ends_with("/*");
        if !is_comment_marker {
            continue;
        }
        let code_before = before
            .trim_end_matches("/*")
            .trim_end_matches("//")
            .trim_end_matches('#')
            .trim();
        let mut rest = &line[pos + "ward:ignore".len()..];
        let file_wide = rest.starts_with("-file");
        if file_wide {
            rest = &rest["-file".len()..];
        }
        let rest = rest.trim().trim_end_matches("*/").trim();
        let mut s = Suppression {
            file: file.to_string(),
            line: i + 1,
            target: 0,
            target_end: 0,
            file_wide,
            ids: Vec::new(),
            reason: None,
            until: None,
            problem: None,
        };
        let (ids, mut tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        s.ids = ids
            .split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect();
        if s.ids.is_empty() {
            s.problem = Some(format!(
                "`ward:ignore` must name known rule IDs (got \"{ids}\"), e.g. `ward:ignore WARD-MOD-001 reason=\"...\"`"
            ));
        } else if let Some(e) = s.ids.iter().find_map(|x| x.parse::<RuleId>().err()) {
            s.problem = Some(format!("`ward:ignore` must name known rule IDs: {e}"));
        }
        loop {
            tail = tail.trim_start();
            if tail.is_empty() {
                break;
            }
            if let Some(r) = tail.strip_prefix("reason=\"") {
                match r.find('"') {
                    Some(end) => {
                        let reason = r[..end].trim();
                        if !reason.is_empty() {
                            s.reason = Some(reason.to_string());
                        }
                        tail = &r[end + 1..];
                    }
                    None => {
                        s.problem = Some("reason=\"...\" is not closed".to_string());
                        break;
                    }
                }
            } else if let Some(r) = tail.strip_prefix("until=") {
                let (d, t) = r.split_once(char::is_whitespace).unwrap_or((r, ""));
                if let Err(e) = ward_time::parse_date(d) {
                    s.problem = Some(format!("until={d}: {e}"));
                }
                s.until = Some(d.to_string());
                tail = t;
            } else {
                let (w, t) = tail.split_once(char::is_whitespace).unwrap_or((tail, ""));
                s.problem = Some(format!(
                    "unexpected \"{w}\" in ward:ignore; write reason=\"...\" [until=YYYY-MM-DD]"
                ));
                tail = t;
            }
        }
        if !file_wide {
            s.target = if !code_before.is_empty() {
                i + 1
            } else {
                lines
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .find(|(_, l)| {
                        let t = l.trim();
                        !t.is_empty() && !t.starts_with('#') && !t.starts_with("//")
                    })
                    .map(|(j, _)| j + 1)
                    .unwrap_or(0)
            };
            s.target_end = block_end(&lines, s.target);
        }
        out.push(s);
    }
    out
}

/// When 1-based `line` opens a block (ends with `{` or `[`), the line that closes it (braces
/// counted outside strings); else `line`.
fn block_end(lines: &[&str], line: usize) -> usize {
    let Some(first) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return line;
    };
    let t = first.trim_end();
    if !(t.ends_with('{') || t.ends_with('[')) {
        return line;
    }
    let mut depth: i64 = 0;
    for (j, l) in lines.iter().enumerate().skip(line - 1) {
        let mut in_str = false;
        let mut prev = ' ';
        for c in l.chars() {
            match c {
                '"' if prev != '\\' => in_str = !in_str,
                '{' | '[' | '(' if !in_str => depth += 1,
                '}' | ']' | ')' if !in_str => depth -= 1,
                '#' if !in_str => break,
                _ => {}
            }
            prev = c;
        }
        if depth <= 0 {
            return j + 1;
        }
    }
    line
}

/// A `YYYY-MM-DD` date, strictly (`2026-02-31` is refused): the one date parser,
/// [`ward_time::parse_date`].
pub fn parse_date(s: &str) -> Option<ward_time::Date> {
    ward_time::parse_date(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_without_printing_them() {
        let mut out = Vec::new();
        let key = ["AKIA", "ABCDEFGHIJKLMNOP"].concat();
        key_material("a.tf", &format!("x = \"{key}\"\n"), &mut out);
        assert_eq!(out.len(), 1);
        assert!(!out[0].message.contains(&key));
        let mut none = Vec::new();
        key_material("a.tf", "x = \"AKIAIOSFODNN7EXAMPLE\"\n", &mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn parses_suppressions() {
        let t = "# ward:ignore WARD-MOD-001 reason=\"vendored\" until=2030-01-01\n\nmodule \"x\" {\n  source = \"y\" # ward:ignore WARD-MOD-003,WARD-MOD-004 reason=\"r\"\n}\n# ward:ignore WARD-MOD-001\n";
        let s = suppressions("m.tf", t);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].target, 3);
        assert_eq!(s[0].target_end, 5);
        assert_eq!(s[0].reason.as_deref(), Some("vendored"));
        assert_eq!(s[0].until.as_deref(), Some("2030-01-01"));
        assert_eq!(s[1].target, 4);
        assert_eq!(s[1].ids.len(), 2);
        assert!(s[2].reason.is_none());
    }

    #[test]
    fn dates() {
        assert_eq!(
            parse_date("2000-03-01"),
            ward_time::Date::new(2000, 3, 1).ok()
        );
        assert_eq!(parse_date("2026-13-01"), None);
        assert_eq!(parse_date("2026-02-31"), None);
        assert_eq!(parse_date("soon"), None);
        let s = suppressions(
            "m.tf",
            "# ward:ignore WARD-MOD-001 reason=\"r\" until=2026-02-31\nx = 1\n",
        );
        assert!(
            s[0].problem.as_deref().unwrap_or("").contains("2026-02-31"),
            "{:?}",
            s[0].problem
        );
    }
}
