//! The typed reading of parsed HCL: the one reader of hcl-edit structures for every crate that
//! takes HCL files apart (ward-config's `ward.hcl`, ward-rules' rule files and packs).
//!
//! A [`Reader`] checks a body's keys and blocks against what the body takes ([`Reader::fields`]:
//! unknown, misplaced and repeated ones refused, with a [`did_you_mean`]), reads an attribute as a
//! plain string, a boolean, a whole number or a list of strings, and a block's labels. Every
//! error is a [`ReadError`] placed at `file:line:column`, with a `help` that says what to write
//! instead.

use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block, Body, Structure};
use hcl_edit::template::Element;
use hcl_edit::Span;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// A file could not be read as what it should be. `Display` gives `file:line:column: what was
/// wrong` and, on the next line, what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The file, as cited (`ward.hcl`, `packs/aws.hcl`).
    pub file: String,
    /// 1-based line, when the problem has a place.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// What was wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl ReadError {
    /// An error in `file`, without a place yet.
    pub fn new(file: &str, message: impl Into<String>) -> ReadError {
        ReadError {
            file: file.to_string(),
            line: None,
            column: None,
            message: message.into(),
            help: None,
        }
    }

    /// Placed at (line, column), when known.
    pub fn at(mut self, pos: Option<(usize, usize)>) -> ReadError {
        if let Some((line, column)) = pos {
            self.line = Some(line);
            self.column = Some(column);
        }
        self
    }

    /// With what to do about it (none when `help` is empty).
    pub fn help(mut self, help: impl Into<String>) -> ReadError {
        let help = help.into();
        self.help = Some(help).filter(|h| !h.is_empty());
        self
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ReadError {}

/// A string value with its byte span.
pub type Spanned = (String, Option<Range<usize>>);

/// The closest of `known` to `word`, when it is close enough to be a typo: a small edit distance
/// (at most 2, or a quarter of the known word, and less than the length of `word`), or `word`
/// starts it (`warn` for `warning`). Every did-you-mean of ward is this one.
pub fn did_you_mean<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
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

/// The edit distance (Levenshtein) between two words, to rank suggestions drawn from several
/// lists by [`did_you_mean`].
pub fn distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

/// `a`, `b` as a list of quoted words for messages: `` `a`, `b` ``.
pub fn list(known: &[&str]) -> String {
    known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The keys and nested blocks of one body, checked by [`Reader::fields`].
#[derive(Debug, Default)]
pub struct Fields<'b> {
    /// The attributes, by key.
    pub attrs: BTreeMap<String, &'b Attribute>,
    /// The nested blocks, in file order (only those the body takes).
    pub blocks: Vec<&'b Block>,
}

impl<'b> Fields<'b> {
    /// The attribute `key`, when set.
    pub fn get(&self, key: &str) -> Option<&'b Attribute> {
        self.attrs.get(key).copied()
    }
}

/// Byte offset → (line, column), both 1-based.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// Lines of the file before `text` (when `text` is one block of it, starting a line).
    line_base: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines {
            text,
            starts,
            line_base: 0,
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

/// A suggestion for a word not known where it was written: e.g. ``"did you mean `x`? it belongs
/// in ...; "``, put before the list of what the place takes.
pub type Elsewhere<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Reads values out of the hcl-edit structures of one file, placing every error at
/// `file:line:column` with what to write instead.
pub struct Reader<'a> {
    file: &'a str,
    lines: Lines<'a>,
    elsewhere: Option<Elsewhere<'a>>,
}

impl<'a> Reader<'a> {
    /// A reader of `text` (the text hcl-edit parsed, a byte order mark already stripped), citing
    /// it as `file`.
    pub fn new(file: &'a str, text: &'a str) -> Self {
        Reader {
            file,
            lines: Lines::new(text),
            elsewhere: None,
        }
    }

    /// `text` is one part of the file, starting a line, with `lines` lines of the file before
    /// it: lines are counted as the file's.
    pub fn below(mut self, lines: usize) -> Self {
        self.lines.line_base = lines;
        self
    }

    /// An unknown key or block also gets `elsewhere`'s suggestion (where the word belongs) when
    /// it is close to nothing the place takes.
    pub fn suggesting(mut self, elsewhere: Elsewhere<'a>) -> Self {
        self.elsewhere = Some(elsewhere);
        self
    }

    /// The file, as cited.
    pub fn file(&self) -> &'a str {
        self.file
    }

    /// 1-based (line, column) of a span's start.
    pub fn pos(&self, span: Option<Range<usize>>) -> Option<(usize, usize)> {
        self.lines.pos(span)
    }

    /// The line of a span (0 when unknown).
    pub fn line_of(&self, span: Option<Range<usize>>) -> usize {
        self.pos(span).map_or(0, |(l, _)| l)
    }

    /// An error placed at a span; add what to do with [`ReadError::help`].
    pub fn err(&self, span: Option<Range<usize>>, message: impl Into<String>) -> ReadError {
        ReadError::new(self.file, message).at(self.pos(span))
    }

    /// An unknown `what` (`key`, `block`) `word` in `place`, which takes `known`: with the
    /// closest of `known`, or else the reader's suggestion of another place, and the list.
    pub fn unknown(
        &self,
        span: Option<Range<usize>>,
        what: &str,
        word: &str,
        place: &str,
        known: &[&str],
    ) -> ReadError {
        let help = match did_you_mean(word, known) {
            Some(k) => format!("did you mean `{k}`? {place} takes {}", list(known)),
            None => format!(
                "{}{place} takes {}",
                self.elsewhere.and_then(|f| f(word)).unwrap_or_default(),
                list(known)
            ),
        };
        self.err(span, format!("unknown {what} `{word}` in {place}"))
            .help(help)
    }

    /// The attributes of `body` by key, and its nested blocks in order, refusing keys set twice,
    /// a key written as a block or a block as a key, and any key or block not in `keys` /
    /// `blocks` (with a did-you-mean).
    pub fn fields<'b>(
        &self,
        body: &'b Body,
        place: &str,
        keys: &[&str],
        blocks: &[&str],
    ) -> Result<Fields<'b>, ReadError> {
        let mut f = Fields::default();
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
                        return Err(self.unknown(a.key.span(), "key", key, place, &known));
                    }
                    // hcl-edit's parser (and its `Body`) already refuse a key set twice; kept in
                    // case a body comes from elsewhere.
                    if let Some(first) = f.attrs.get(key) {
                        return Err(self
                            .err(a.key.span(), format!("`{key}` is set twice in {place}"))
                            .help(format!(
                                "the first is at line {}; keep one",
                                self.line_of(first.span())
                            )));
                    }
                    f.attrs.insert(key.to_string(), a);
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
                        return Err(self.unknown(b.ident.span(), "block", ident, place, &known));
                    }
                    f.blocks.push(b);
                }
            }
        }
        Ok(f)
    }

    /// The one label of a block; `what` says what it names, `example` how to write the block.
    pub fn one_label(&self, b: &Block, what: &str, example: &str) -> Result<String, ReadError> {
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

    /// Refuses labels on a block that takes none.
    pub fn no_label(&self, b: &Block) -> Result<(), ReadError> {
        if b.labels.is_empty() {
            return Ok(());
        }
        let ident = b.ident.as_str();
        Err(self
            .err(
                b.ident.span(),
                format!("the `{ident}` block takes no label"),
            )
            .help(format!("write `{ident} {{ ... }}`")))
    }

    /// A plain string (no interpolation).
    pub fn string(&self, a: &Attribute) -> Result<String, ReadError> {
        self.string_expr(&a.value, a.key.as_str())
    }

    /// A plain string expression (no interpolation); `key` names it in the error.
    pub fn string_expr(&self, e: &Expression, key: &str) -> Result<String, ReadError> {
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
    pub fn nonempty(&self, a: &Attribute) -> Result<String, ReadError> {
        let s = self.string(a)?;
        if s.trim().is_empty() {
            return Err(self
                .err(a.value.span(), format!("`{}` is empty", a.key.as_str()))
                .help("give it a value or remove the line"));
        }
        Ok(s)
    }

    /// `true` or `false`.
    pub fn boolean(&self, a: &Attribute) -> Result<bool, ReadError> {
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

    /// A whole number ≥ 0.
    pub fn count(&self, a: &Attribute) -> Result<u64, ReadError> {
        match &a.value {
            Expression::Number(n) => n.value().as_u64(),
            _ => None,
        }
        .ok_or_else(|| {
            self.err(
                a.value.span(),
                format!("`{}` must be a whole number ≥ 0", a.key.as_str()),
            )
            .help(format!("write e.g. `{} = 1`", a.key.as_str()))
        })
    }

    /// A whole number (negative allowed).
    pub fn integer(&self, a: &Attribute) -> Result<i64, ReadError> {
        match &a.value {
            Expression::Number(n) => n.value().as_i64(),
            _ => None,
        }
        .ok_or_else(|| {
            self.err(
                a.value.span(),
                format!("`{}` must be a whole number", a.key.as_str()),
            )
            .help(format!("write e.g. `{} = 1`", a.key.as_str()))
        })
    }

    /// A list of plain strings, each with its span.
    pub fn strings(&self, a: &Attribute) -> Result<Vec<Spanned>, ReadError> {
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

    /// A list of plain strings.
    pub fn string_list(&self, a: &Attribute) -> Result<Vec<String>, ReadError> {
        Ok(self.strings(a)?.into_iter().map(|(s, _)| s).collect())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Reads `text`'s body with `f`, citing it as `t.hcl`.
    fn with<T>(text: &str, f: impl FnOnce(&Reader<'_>, &Body) -> T) -> T {
        let body = crate::parse_body(text).unwrap();
        f(&Reader::new("t.hcl", text), &body)
    }

    fn attr<'b>(body: &'b Body, key: &str) -> &'b Attribute {
        body.attributes().find(|a| a.key.as_str() == key).unwrap()
    }

    /// The error's `Display`, the way every command prints it.
    fn shown<T: fmt::Debug>(r: Result<T, ReadError>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn typos_are_suggested_and_far_words_are_not() {
        assert_eq!(
            did_you_mean("enabeld", &["severity", "enabled"]),
            Some("enabled")
        );
        assert_eq!(did_you_mean("warn", &["warning", "error"]), Some("warning"));
        assert_eq!(
            did_you_mean("exclud", &["exclude", "ignore"]),
            Some("exclude")
        );
        assert_eq!(did_you_mean("zzzzzz", &["exclude", "ignore"]), None);
        // Two edits away from a two-letter word is every two-letter word: no suggestion.
        assert_eq!(did_you_mean("eu", &["us"]), None);
        assert_eq!(did_you_mean("", &["a"]), None);
        assert_eq!(did_you_mean("x", &[]), None);
        assert_eq!(list(&["a", "b"]), "`a`, `b`");
    }

    #[test]
    fn an_unknown_key_is_refused_at_its_place_with_the_closest_known_one() {
        let e = with("b {\n  enabeld = true\n}\n", |r, body| {
            let b = body.blocks().next().unwrap();
            shown(r.fields(&b.body, "`b`", &["enabled", "severity"], &["rule"]))
        });
        assert_eq!(
            e,
            "t.hcl:2:3: unknown key `enabeld` in `b`\n  help: did you mean `enabled`? `b` takes `enabled`, `severity`, `rule`"
        );
    }

    #[test]
    fn an_unknown_word_close_to_nothing_gets_the_suggestion_of_another_place() {
        let text = "b {\n  zzz { }\n}\n";
        let body = crate::parse_body(text).unwrap();
        let hook = |w: &str| (w == "zzz").then(|| "it belongs in `c { }`; ".to_string());
        let r = Reader::new("t.hcl", text).suggesting(&hook);
        let b = body.blocks().next().unwrap();
        assert_eq!(
            shown(r.fields(&b.body, "`b`", &["k"], &[])),
            "t.hcl:2:3: unknown block `zzz` in `b`\n  help: it belongs in `c { }`; `b` takes `k`"
        );
    }

    #[test]
    fn keys_and_blocks_swapped_are_refused() {
        let as_key = with("r = 1\n", |r, body| shown(r.fields(body, "x", &[], &["r"])));
        assert!(as_key.ends_with("`r` in x is a block, not a key\n  help: write `r { ... }`"));
        let as_block = with("k { }\n", |r, body| shown(r.fields(body, "x", &["k"], &[])));
        assert!(as_block.ends_with("`k` in x is a key, not a block\n  help: write `k = ...`"));
    }

    #[test]
    fn known_fields_are_kept_by_key_and_blocks_in_order() {
        with("a = \"x\"\nr \"2\" { }\nr \"1\" { }\n", |r, body| {
            let f = r.fields(body, "x", &["a", "b"], &["r"]).unwrap();
            assert_eq!(r.string(f.get("a").unwrap()).unwrap(), "x");
            assert!(f.get("b").is_none());
            let labels: Vec<String> = f
                .blocks
                .iter()
                .map(|b| r.one_label(b, "its name", "r \"NAME\" { }").unwrap())
                .collect();
            assert_eq!(labels, ["2", "1"]);
        });
    }

    #[test]
    fn each_type_refuses_a_value_of_another_with_what_to_write() {
        let text = "s = \"a${x}\"\nb = \"true\"\nn = -1\nf = 1.5\nl = \"id\"\nm = [\"a\", 1]\ne = \"  \"\n";
        with(text, |r, body| {
            let cases = [
                (
                    shown(r.string(attr(body, "s"))),
                    "t.hcl:1:5: `s` must be a plain string",
                ),
                (
                    shown(r.boolean(attr(body, "b"))),
                    "t.hcl:2:5: `b` must be true or false",
                ),
                (
                    shown(r.count(attr(body, "n"))),
                    "t.hcl:3:5: `n` must be a whole number ≥ 0",
                ),
                (
                    shown(r.integer(attr(body, "f"))),
                    "t.hcl:4:5: `f` must be a whole number",
                ),
                (
                    shown(r.strings(attr(body, "l"))),
                    "t.hcl:5:5: `l` must be a list of strings",
                ),
                (
                    shown(r.string_list(attr(body, "m"))),
                    "t.hcl:6:11: `m` must be a plain string",
                ),
                (
                    shown(r.nonempty(attr(body, "e"))),
                    "t.hcl:7:5: `e` is empty",
                ),
            ];
            for (got, want) in cases {
                assert!(got.starts_with(&format!("{want}\n  help: ")), "{got}");
            }
            assert_eq!(r.integer(attr(body, "n")).unwrap(), -1);
        });
    }

    #[test]
    fn well_typed_values_are_read() {
        let text = "s = <<EOT\nhi\nEOT\nb = false\nn = 3\nl = [\"a\", \"b\"]\n";
        with(text, |r, body| {
            assert_eq!(r.string(attr(body, "s")).unwrap(), "hi\n");
            assert!(!r.boolean(attr(body, "b")).unwrap());
            assert_eq!(r.count(attr(body, "n")).unwrap(), 3);
            assert_eq!(r.string_list(attr(body, "l")).unwrap(), ["a", "b"]);
            let spans = r.strings(attr(body, "l")).unwrap();
            assert_eq!(r.pos(spans[1].1.clone()), Some((6, 11)));
        });
    }

    #[test]
    fn labels_are_counted() {
        let text = "r { }\nr \"a\" \"b\" { }\nn \"x\" { }\n";
        with(text, |r, body| {
            let b: Vec<&Block> = body.blocks().collect();
            assert_eq!(
                shown(r.one_label(b[0], "its name", "r \"NAME\" { }")),
                "t.hcl:1:1: `r` block needs exactly one label (its name), found 0\n  help: write `r \"NAME\" { }`"
            );
            assert!(shown(r.one_label(b[1], "its name", "r")).contains("found 2"));
            assert!(r.no_label(b[0]).is_ok());
            assert_eq!(
                shown(r.no_label(b[2])),
                "t.hcl:3:1: the `n` block takes no label\n  help: write `n { ... }`"
            );
        });
    }

    #[test]
    fn a_part_of_a_file_is_placed_at_the_file_s_lines() {
        let text = "a = 1\n";
        let r = Reader::new("p.hcl", text).below(40);
        assert_eq!(r.pos(Some(0..1)), Some((41, 1)));
        assert_eq!(r.line_of(None), 0);
        assert_eq!(
            r.err(Some(4..5), "bad").help("fix it").to_string(),
            "p.hcl:41:5: bad\n  help: fix it"
        );
        assert_eq!(r.err(None, "whole").help("").to_string(), "p.hcl: whole");
    }
}
