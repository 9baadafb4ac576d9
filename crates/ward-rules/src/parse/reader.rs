//! The typed reader of hcl-edit structures: values as strings, booleans and lists, a body's keys
//! and blocks refused when unknown (with a did-you-mean), every error at `file:line:column`.

use crate::error::RulesError;
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block, Body, Structure};
use hcl_edit::template::Element;
use hcl_edit::Span;
use std::collections::BTreeMap;
use std::ops::Range;

/// The keys of a body (by name) and its nested blocks (in order), as [`Reader::fields`] reads them.
pub type Fields<'b> = (BTreeMap<String, &'b Attribute>, Vec<&'b Block>);

/// A string value with its byte span.
pub type Spanned = (String, Option<Range<usize>>);

/// Byte offset → (line, column), both 1-based.
pub(super) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// Lines of the file before `text` (when `text` is one block of it, starting a line).
    line_base: usize,
}

impl<'a> Lines<'a> {
    pub(super) fn new(text: &'a str, line_base: usize) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines {
            text,
            starts,
            line_base,
        }
    }

    fn pos(&self, span: Option<Range<usize>>) -> Option<(usize, usize)> {
        let offset = span?.start;
        let line = self.starts.partition_point(|s| *s <= offset);
        let start = self.starts.get(line.checked_sub(1)?).copied()?;
        let column = self
            .text
            .get(start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        Some((line + self.line_base, column))
    }
}

/// Reads values out of hcl-edit structures, placing every error at `file:line:column` with
/// what to write instead. The one such reader: the rule format uses it, and ward-config uses it
/// for the other blocks of `ward.hcl`.
pub struct Reader<'a> {
    pub(super) file: &'a str,
    pub(super) lines: Lines<'a>,
}

/// Suggests the closest known word, when one is close enough to be a typo (a small edit
/// distance, or `word` starts it: `warn` for `warning`).
pub fn did_you_mean(word: &str, known: &[&str]) -> Option<String> {
    known
        .iter()
        .map(|k| (strsim::levenshtein(word, k), *k))
        .filter(|(d, k)| {
            (*d <= 2.max(k.len() / 4) && *d < word.len().max(1))
                || (word.len() >= 3 && k.starts_with(word))
        })
        .min()
        .map(|(_, k)| k.to_string())
}

/// `a`, `b` as a list of quoted words for messages.
pub fn list(known: &[&str]) -> String {
    known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<'a> Reader<'a> {
    /// A reader of `text` (a byte order mark already stripped), citing it as `file`.
    pub fn new(file: &'a str, text: &'a str) -> Self {
        Reader {
            file,
            lines: Lines::new(text, 0),
        }
    }

    /// The file, as cited.
    pub fn file(&self) -> &'a str {
        self.file
    }

    /// 1-based (line, column) of a span's start.
    pub fn pos(&self, span: Option<Range<usize>>) -> Option<(usize, usize)> {
        self.lines.pos(span)
    }

    /// An error placed at a span.
    pub fn err(&self, span: Option<Range<usize>>, message: impl Into<String>) -> RulesError {
        RulesError::new(self.file, message).at(self.lines.pos(span))
    }

    /// The line of a span (0 when unknown).
    pub fn line_of(&self, span: Option<Range<usize>>) -> usize {
        self.lines.pos(span).map_or(0, |(l, _)| l)
    }

    pub(super) fn unknown(
        &self,
        span: Option<Range<usize>>,
        what: &str,
        word: &str,
        place: &str,
        known: &[&str],
        elsewhere: &dyn Fn(&str) -> Option<String>,
    ) -> RulesError {
        let help = match did_you_mean(word, known) {
            Some(k) => format!("did you mean `{k}`? {place} takes {}", list(known)),
            None => format!(
                "{}{place} takes {}",
                elsewhere(word).unwrap_or_default(),
                list(known)
            ),
        };
        self.err(span, format!("unknown {what} `{word}` in {place}"))
            .help(help)
    }

    /// The attributes of a body, by key, refusing duplicates, unknown keys and nested blocks
    /// other than those in `blocks`.
    pub(super) fn attributes<'b>(
        &self,
        body: &'b Body,
        place: &str,
        keys: &[&str],
        blocks: &[&str],
    ) -> Result<BTreeMap<String, &'b Attribute>, RulesError> {
        Ok(self.fields(body, place, keys, blocks, &|_| None)?.0)
    }

    /// The attributes of a body by key, and its nested blocks in order, refusing keys set twice
    /// and any key or block not in `keys`/`blocks` (with a did-you-mean; `elsewhere` may suggest
    /// a word that belongs in another place, as `"did you mean `x`? it belongs in ...; "`).
    pub fn fields<'b>(
        &self,
        body: &'b Body,
        place: &str,
        keys: &[&str],
        blocks: &[&str],
        elsewhere: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Fields<'b>, RulesError> {
        let mut seen: BTreeMap<String, &'b Attribute> = BTreeMap::new();
        let mut nested = Vec::new();
        let mut known: Vec<&str> = keys.to_vec();
        known.extend_from_slice(blocks);
        for s in body.iter() {
            match s {
                Structure::Attribute(a) => {
                    let key = a.key.as_str();
                    if blocks.contains(&key) {
                        return Err(self
                            .err(
                                a.key.span(),
                                format!("`{key}` in {place} is a block, not a key"),
                            )
                            .help(format!("write `{key} {{ ... }}`")));
                    }
                    if !keys.contains(&key) {
                        return Err(self.unknown(
                            a.key.span(),
                            "key",
                            key,
                            place,
                            &known,
                            elsewhere,
                        ));
                    }
                    if let Some(first) = seen.get(key) {
                        return Err(self
                            .err(a.key.span(), format!("`{key}` is set twice in {place}"))
                            .help(format!(
                                "the first is at line {}; keep one",
                                self.line_of(first.span())
                            )));
                    }
                    seen.insert(key.to_string(), a);
                }
                Structure::Block(b) => {
                    let ident = b.ident.as_str();
                    if keys.contains(&ident) {
                        return Err(self
                            .err(
                                b.ident.span(),
                                format!("`{ident}` in {place} is a key, not a block"),
                            )
                            .help(format!("write `{ident} = ...`")));
                    }
                    if !blocks.contains(&ident) {
                        return Err(self.unknown(
                            b.ident.span(),
                            "block",
                            ident,
                            place,
                            &known,
                            elsewhere,
                        ));
                    }
                    nested.push(b);
                }
            }
        }
        Ok((seen, nested))
    }

    /// A plain string (no interpolation).
    pub fn string(&self, a: &Attribute) -> Result<String, RulesError> {
        self.string_expr(&a.value, a.key.as_str())
    }

    /// A plain string expression (no interpolation); `key` names it in the error.
    pub fn string_expr(&self, e: &Expression, key: &str) -> Result<String, RulesError> {
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
            Expression::HeredocTemplate(h) => literal(&mut h.template.iter()),
            Expression::StringTemplate(t) => literal(&mut t.iter()),
            _ => None,
        };
        got.ok_or_else(|| {
            self.err(e.span(), format!("`{key}` must be a plain string"))
                .help("write a quoted string without `${...}` interpolation, e.g. `\"text\"`")
        })
    }

    /// A plain string that is not blank.
    pub fn nonempty(&self, a: &Attribute) -> Result<String, RulesError> {
        let s = self.string(a)?;
        if s.trim().is_empty() {
            return Err(self
                .err(a.value.span(), format!("`{}` is empty", a.key.as_str()))
                .help("give it a value or remove the line"));
        }
        Ok(s)
    }

    /// `true` or `false`.
    pub fn boolean(&self, a: &Attribute) -> Result<bool, RulesError> {
        match &a.value {
            Expression::Bool(b) => Ok(*b.value()),
            other => Err(self
                .err(
                    other.span(),
                    format!("`{}` must be true or false", a.key.as_str()),
                )
                .help("write `true` or `false`, without quotes")),
        }
    }

    /// A list of plain strings, each with its span.
    pub fn strings(&self, a: &Attribute) -> Result<Vec<Spanned>, RulesError> {
        match &a.value {
            Expression::Array(arr) => arr
                .iter()
                .map(|e| Ok((self.string_expr(e, a.key.as_str())?, e.span())))
                .collect(),
            other => Err(self
                .err(
                    other.span(),
                    format!("`{}` must be a list of strings", a.key.as_str()),
                )
                .help("write a list, e.g. `[\"id\", \"arn\"]`")),
        }
    }

    /// The one label of a block; `what` says what it names, `example` how to write it.
    pub fn one_label(&self, b: &Block, what: &str, example: &str) -> Result<String, RulesError> {
        match b.labels.as_slice() {
            [l] => Ok(l.as_str().to_string()),
            _ => Err(self
                .err(
                    b.ident.span(),
                    format!(
                        "`{}` block needs exactly one label ({what}), found {}",
                        b.ident.as_str(),
                        b.labels.len()
                    ),
                )
                .help(format!("write `{example}`"))),
        }
    }
}
