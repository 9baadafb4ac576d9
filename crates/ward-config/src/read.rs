//! The typed reading of hcl-edit structures: keys checked against what a block takes (with a
//! did-you-mean), values checked for their type, every error placed at `file:line:column`.

use crate::ConfigError;
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block, Body, Structure};
use hcl_edit::template::Element;
use hcl_edit::Span;
use std::collections::BTreeMap;
use std::ops::Range;

/// A string value with the byte span it was written at.
pub(crate) type Spanned = (String, Option<Range<usize>>);

/// The file being read: its name for messages and its line starts for positions.
pub(crate) struct Src<'a> {
    pub(crate) file: &'a str,
    text: &'a str,
    starts: Vec<usize>,
}

/// The keys and blocks of one body, checked.
pub(crate) struct Fields<'b> {
    attrs: BTreeMap<&'b str, &'b Attribute>,
    /// Nested blocks, in file order (only those the body takes).
    pub(crate) blocks: Vec<&'b Block>,
}

impl<'b> Fields<'b> {
    /// The attribute `key`, when set.
    pub(crate) fn get(&self, key: &str) -> Option<&'b Attribute> {
        self.attrs.get(key).copied()
    }
}

/// The closest of `known` to `word`, when it is close enough to be a typo.
pub(crate) fn did_you_mean<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| (strsim::levenshtein(word, k), *k))
        .filter(|(d, k)| {
            (*d <= 2.max(k.len() / 4) && *d < word.len().max(1))
                || (word.len() >= 3 && k.starts_with(word))
        })
        .min()
        .map(|(_, k)| k)
}

/// Every key and block of `ward.hcl` with where it belongs, for a suggestion when a word is
/// not known where it was written but is close to one that belongs elsewhere.
const EVERYWHERE: &[(&str, &[&str])] = &[
    ("`root \"NAME\" { }`", crate::repo::ROOT_KEYS),
    ("`layer \"NAME\" { }`", &["level"]),
    (
        "`check { }`",
        &["terraform_floor", "fail_on", "protected", "rule", "release"],
    ),
    ("`check { rule \"ID\" { } }`", &["severity", "enabled"]),
    (
        "`check { release \"NAME\" { } }`",
        &["module_sources", "collections", "variables"],
    ),
    (
        "`policy { }`",
        &[
            "approve",
            "approve_destroy_of_data",
            "protect",
            "approvals",
            "protection_record",
            "require_signed_approvals",
            "budget",
        ],
    ),
    ("`policy { budget { } }`", &["max_replaces", "max_deletes"]),
    (
        "`guard \"NAME\" { }`",
        &["addresses", "types", "actions", "command", "timeout"],
    ),
    ("`drift { }`", &["exclude", "ignore"]),
    (
        "`drift { ignore { } }`",
        &["root", "address", "attribute", "owner", "expires", "reason"],
    ),
];

fn elsewhere(word: &str) -> Option<String> {
    EVERYWHERE
        .iter()
        .filter_map(|(p, keys)| {
            let k = did_you_mean(word, keys)?;
            Some((strsim::levenshtein(word, k), k, *p))
        })
        .min()
        .map(|(_, k, p)| format!("did you mean `{k}`? it belongs in {p}; "))
}

fn list(known: &[&str]) -> String {
    if known.is_empty() {
        return "nothing".to_string();
    }
    known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<'a> Src<'a> {
    pub(crate) fn new(file: &'a str, text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Src { file, text, starts }
    }

    /// 1-based (line, column) of a byte span's start.
    pub(crate) fn pos(&self, span: Option<Range<usize>>) -> (usize, usize) {
        let Some(offset) = span.map(|s| s.start) else {
            return (0, 0);
        };
        let line = self.starts.partition_point(|s| *s <= offset);
        let start = line
            .checked_sub(1)
            .and_then(|i| self.starts.get(i))
            .copied()
            .unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        (line, column)
    }

    /// The line of a span (0 when unknown).
    pub(crate) fn line(&self, span: Option<Range<usize>>) -> usize {
        self.pos(span).0
    }

    /// An error at a span, with what to do.
    pub(crate) fn err(
        &self,
        span: Option<Range<usize>>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> ConfigError {
        let (line, column) = self.pos(span);
        ConfigError {
            file: self.file.to_string(),
            line,
            column,
            message: message.into(),
            help: Some(help.into()).filter(|h: &String| !h.is_empty()),
        }
    }

    fn unknown(
        &self,
        span: Option<Range<usize>>,
        what: &str,
        word: &str,
        place: &str,
        known: &[&str],
    ) -> ConfigError {
        let help = match did_you_mean(word, known) {
            Some(k) => format!("did you mean `{k}`? {place} takes {}", list(known)),
            None => format!(
                "{}{place} takes {}",
                elsewhere(word).unwrap_or_default(),
                list(known)
            ),
        };
        self.err(span, format!("unknown {what} `{word}` in {place}"), help)
    }

    /// The keys and nested blocks of `body`, refusing unknown keys and blocks (with a
    /// did-you-mean), keys set twice, and anything else.
    pub(crate) fn fields<'b>(
        &self,
        body: &'b Body,
        place: &str,
        keys: &[&str],
        blocks: &[&str],
    ) -> Result<Fields<'b>, ConfigError> {
        let mut attrs: BTreeMap<&'b str, &'b Attribute> = BTreeMap::new();
        let mut nested = Vec::new();
        let mut known: Vec<&str> = keys.to_vec();
        known.extend_from_slice(blocks);
        for s in body.iter() {
            match s {
                Structure::Attribute(a) => {
                    let key = a.key.as_str();
                    if !keys.contains(&key) {
                        let what = if blocks.contains(&key) {
                            return Err(self.err(
                                a.key.span(),
                                format!("`{key}` in {place} is a block, not a key"),
                                format!("write `{key} {{ ... }}`"),
                            ));
                        } else {
                            "key"
                        };
                        return Err(self.unknown(a.key.span(), what, key, place, &known));
                    }
                    if let Some(first) = attrs.get(key) {
                        return Err(self.err(
                            a.key.span(),
                            format!("`{key}` is set twice in {place}"),
                            format!("the first is at line {}; keep one", self.line(first.span())),
                        ));
                    }
                    attrs.insert(key, a);
                }
                Structure::Block(b) => {
                    let ident = b.ident.as_str();
                    if !blocks.contains(&ident) {
                        if keys.contains(&ident) {
                            return Err(self.err(
                                b.ident.span(),
                                format!("`{ident}` in {place} is a key, not a block"),
                                format!("write `{ident} = ...`"),
                            ));
                        }
                        return Err(self.unknown(b.ident.span(), "block", ident, place, &known));
                    }
                    nested.push(b);
                }
            }
        }
        Ok(Fields {
            attrs,
            blocks: nested,
        })
    }

    /// The one label of a block (its name).
    pub(crate) fn one_label(&self, b: &Block, example: &str) -> Result<String, ConfigError> {
        match b.labels.as_slice() {
            [l] => Ok(l.as_str().to_string()),
            _ => Err(self.err(
                b.ident.span(),
                format!(
                    "a `{}` block takes exactly one label, found {}",
                    b.ident.as_str(),
                    b.labels.len()
                ),
                format!("write `{example}`"),
            )),
        }
    }

    /// Refuses labels on a block that takes none.
    pub(crate) fn no_label(&self, b: &Block) -> Result<(), ConfigError> {
        if b.labels.is_empty() {
            return Ok(());
        }
        Err(self.err(
            b.ident.span(),
            format!("the `{}` block takes no label", b.ident.as_str()),
            format!("write `{} {{ ... }}`", b.ident.as_str()),
        ))
    }

    /// A literal string (no interpolation).
    pub(crate) fn string(&self, a: &Attribute) -> Result<String, ConfigError> {
        self.string_expr(&a.value, a.key.as_str())
    }

    fn string_expr(&self, e: &Expression, key: &str) -> Result<String, ConfigError> {
        let literal = |elements: &mut dyn Iterator<Item = &Element>| -> Option<String> {
            let mut out = String::new();
            for el in elements {
                match el {
                    Element::Literal(l) => out.push_str(l.as_str()),
                    _ => return None,
                }
            }
            Some(out)
        };
        let got = match e {
            Expression::String(s) => Some(s.as_str().to_string()),
            Expression::StringTemplate(t) => literal(&mut t.iter()),
            _ => None,
        };
        got.ok_or_else(|| {
            self.err(
                e.span(),
                format!("`{key}` must be a plain string"),
                "write a quoted string without `${...}` interpolation, e.g. `\"text\"`",
            )
        })
    }

    /// A string that is not empty or blank.
    pub(crate) fn nonempty(&self, a: &Attribute) -> Result<String, ConfigError> {
        let s = self.string(a)?;
        if s.trim().is_empty() {
            return Err(self.err(
                a.value.span(),
                format!("`{}` is empty", a.key.as_str()),
                "write what it stands for; an empty value is never meant",
            ));
        }
        Ok(s)
    }

    /// `true` or `false`.
    pub(crate) fn boolean(&self, a: &Attribute) -> Result<bool, ConfigError> {
        match &a.value {
            Expression::Bool(b) => Ok(*b.value()),
            other => Err(self.err(
                other.span(),
                format!("`{}` must be true or false", a.key.as_str()),
                "write `true` or `false`, without quotes",
            )),
        }
    }

    /// A whole number ≥ 0.
    pub(crate) fn count(&self, a: &Attribute) -> Result<u64, ConfigError> {
        match &a.value {
            Expression::Number(n) => n.value().as_u64(),
            _ => None,
        }
        .ok_or_else(|| {
            self.err(
                a.value.span(),
                format!("`{}` must be a whole number ≥ 0", a.key.as_str()),
                format!("write e.g. `{} = 1`", a.key.as_str()),
            )
        })
    }

    /// A whole number (negative allowed).
    pub(crate) fn integer(&self, a: &Attribute) -> Result<i64, ConfigError> {
        match &a.value {
            Expression::Number(n) => n.value().as_i64(),
            _ => None,
        }
        .ok_or_else(|| {
            self.err(
                a.value.span(),
                format!("`{}` must be a whole number", a.key.as_str()),
                format!("write e.g. `{} = 1`", a.key.as_str()),
            )
        })
    }

    /// A list of literal strings, each with its span.
    pub(crate) fn strings(&self, a: &Attribute) -> Result<Vec<Spanned>, ConfigError> {
        match &a.value {
            Expression::Array(arr) => arr
                .iter()
                .map(|e| Ok((self.string_expr(e, a.key.as_str())?, e.span())))
                .collect(),
            other => Err(self.err(
                other.span(),
                format!("`{}` must be a list of strings", a.key.as_str()),
                "write a list, e.g. `[\"a\", \"b\"]`",
            )),
        }
    }

    /// A list of literal strings.
    pub(crate) fn string_list(&self, a: &Attribute) -> Result<Vec<String>, ConfigError> {
        Ok(self.strings(a)?.into_iter().map(|(s, _)| s).collect())
    }

    /// A list of patterns: literal strings, none empty.
    pub(crate) fn patterns(&self, a: &Attribute) -> Result<Vec<String>, ConfigError> {
        let mut out = Vec::new();
        for (s, span) in self.strings(a)? {
            if s.is_empty() {
                return Err(self.err(
                    span,
                    format!("an empty pattern in `{}` matches nothing", a.key.as_str()),
                    "remove it, or write `*` to match everything",
                ));
            }
            out.push(s);
        }
        Ok(out)
    }
}

/// `./live/net/` → `live/net`; `.` and `` → `.`. `None` when the path is absolute or leaves the
/// directory it is relative to (`..` above it).
pub(crate) fn confined_rel(p: &str) -> Option<String> {
    if p.starts_with('/') || p.starts_with('\\') || std::path::Path::new(p).is_absolute() {
        return None;
    }
    if p.len() >= 2 && p.as_bytes().get(1) == Some(&b':') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confinement() {
        assert_eq!(confined_rel("./a//b/").as_deref(), Some("a/b"));
        assert_eq!(confined_rel(".").as_deref(), Some("."));
        assert_eq!(confined_rel("a/../b").as_deref(), Some("b"));
        assert_eq!(confined_rel("../x"), None);
        assert_eq!(confined_rel("a/../../x"), None);
        assert_eq!(confined_rel("/etc/x"), None);
        assert_eq!(confined_rel("C:/x"), None);
    }

    #[test]
    fn typos() {
        assert_eq!(
            did_you_mean("enabeld", &["severity", "enabled"]),
            Some("enabled")
        );
        assert_eq!(
            did_you_mean("exclud", &["exclude", "ignore"]),
            Some("exclude")
        );
        assert_eq!(did_you_mean("zzzzzz", &["exclude", "ignore"]), None);
    }
}
