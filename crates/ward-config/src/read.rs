//! The typed reading of hcl-edit structures: keys checked against what a block takes (with a
//! did-you-mean), values checked for their type, every error placed at `file:line:column`.

use crate::ConfigError;
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block, Body};
use hcl_edit::Span;
use std::collections::BTreeMap;
use std::ops::Range;
use ward_rules::hcl::Reader;
pub(crate) use ward_rules::hcl::Spanned;

/// The file being read: ward-rules' [`Reader`] (the one reader of hcl-edit values), plus the
/// checks of a body that the other blocks of `ward.hcl` need.
pub(crate) struct Src<'a> {
    pub(crate) file: &'a str,
    r: Reader<'a>,
    /// Every section's schemas, for "it belongs in ..." suggestions.
    everywhere: &'a [&'a [Schema]],
}

/// The keys and blocks of one body, checked.
pub(crate) struct Fields<'b> {
    attrs: BTreeMap<String, &'b Attribute>,
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
    let k = ward_rules::hcl::did_you_mean(word, known)?;
    known.iter().find(|x| **x == k).copied()
}

/// What one kind of block of `ward.hcl` takes: where it is written (for a suggestion), its keys
/// and its nested blocks. Each section exports its own (`SCHEMAS`); the crate root hands them
/// all to [`Src::new`], so this module knows no section.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Schema {
    /// Where the block is written, e.g. ``"`check { rule \"ID\" { } }`"``.
    pub(crate) place: &'static str,
    /// The keys it takes.
    pub(crate) keys: &'static [&'static str],
    /// The blocks it takes.
    pub(crate) blocks: &'static [&'static str],
}

/// A suggestion for a `word` not known where it was written but close to a key or block that
/// belongs in another block of `everywhere`.
fn elsewhere(everywhere: &[&[Schema]], word: &str) -> Option<String> {
    everywhere
        .iter()
        .flat_map(|s| s.iter())
        .filter_map(|s| {
            let k = did_you_mean(word, s.keys).or_else(|| did_you_mean(word, s.blocks))?;
            Some((strsim::levenshtein(word, k), k, s.place))
        })
        .min()
        .map(|(_, k, p)| format!("did you mean `{k}`? it belongs in {p}; "))
}

impl<'a> Src<'a> {
    /// A reader of `text` (the file `file`), suggesting keys from `everywhere` when a word
    /// belongs in another block.
    pub(crate) fn new(file: &'a str, text: &'a str, everywhere: &'a [&'a [Schema]]) -> Self {
        Src {
            file,
            r: Reader::new(file, text),
            everywhere,
        }
    }

    /// 1-based (line, column) of a byte span's start; (0, 0) when unknown.
    pub(crate) fn pos(&self, span: Option<Range<usize>>) -> (usize, usize) {
        self.r.pos(span).unwrap_or((0, 0))
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

    /// The keys and nested blocks of `body`, refusing unknown keys and blocks (with a
    /// did-you-mean, also towards the block a word belongs in), keys set twice, and anything
    /// else.
    pub(crate) fn fields<'b>(
        &self,
        body: &'b Body,
        place: &str,
        keys: &[&str],
        blocks: &[&str],
    ) -> Result<Fields<'b>, ConfigError> {
        let elsewhere = |word: &str| elsewhere(self.everywhere, word);
        let (attrs, blocks) = self.r.fields(body, place, keys, blocks, &elsewhere)?;
        Ok(Fields { attrs, blocks })
    }

    /// The one label of a block (its name).
    pub(crate) fn one_label(&self, b: &Block, example: &str) -> Result<String, ConfigError> {
        Ok(self.r.one_label(b, "its name", example)?)
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
        Ok(self.r.string(a)?)
    }

    /// A string that is not empty or blank.
    pub(crate) fn nonempty(&self, a: &Attribute) -> Result<String, ConfigError> {
        Ok(self.r.nonempty(a)?)
    }

    /// `true` or `false`.
    pub(crate) fn boolean(&self, a: &Attribute) -> Result<bool, ConfigError> {
        Ok(self.r.boolean(a)?)
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
        Ok(self.r.strings(a)?)
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
