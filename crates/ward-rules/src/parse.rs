//! Reads one rule file (a pack or a `ward.hcl`) into rules, refusing anything it does not
//! understand with the file, line and column and what to write instead.

use crate::error::RulesError;
use crate::pattern::{is_type_name, Pattern};
use crate::rule::{AttrRule, Bound, Direction, Overwrites, Pack, Rule, RulePaths, Selector};
use crate::{RuleOrigin, RuleRef};
use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::{Attribute, Block, Body, Structure};
use hcl_edit::template::Element;
use hcl_edit::Span;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;
use ward_model::Impact;

/// A top-level attribute name as Terraform spells it: a letter or `_`, then letters, digits,
/// `_` or `-`.
fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// What kind of file is being read: the two accept different top-level blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// A built-in pack: one `pack` header and `resource` blocks.
    Pack,
    /// User rules: a rule file read by [`crate::Knowledge::load_user_file`] (`resource` blocks
    /// only), or the `resource` blocks of a `ward.hcl` that ward-config parsed.
    User,
}

const PACK_KEYS: &[&str] = &["name", "version", "provider", "schema", "summary"];
const RESOURCE_KEYS: &[&str] = &[
    "summary",
    "source",
    "rationale",
    "holds_data",
    "identity",
    "on_create",
    "on_update",
    "on_delete",
    "on_replace",
    "free",
    "final_snapshot_skip",
    "final_snapshot_name",
    "access_rules",
    "grants_access",
    "address",
    "module",
    "provider",
    "when",
];
const ATTRIBUTE_KEYS: &[&str] = &["impact", "why", "decrease", "increase", "unbounded"];
const OVERWRITES_KEYS: &[&str] = &["impact", "what", "why", "target", "when_set"];

/// The keys of a body (by name) and its nested blocks (in order), as [`Reader::fields`] reads them.
pub type Fields<'b> = (BTreeMap<String, &'b Attribute>, Vec<&'b Block>);

/// A string value with its byte span.
pub type Spanned = (String, Option<Range<usize>>);

/// A parsed file: its pack header (packs only) and its resource entries, in file order.
pub(crate) struct Parsed {
    pub(crate) pack: Option<Pack>,
    pub(crate) rules: Vec<Rule>,
}

/// Byte offset → (line, column), both 1-based.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// Lines of the file before `text` (when `text` is one block of it, starting a line).
    line_base: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str, line_base: usize) -> Self {
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
    file: &'a str,
    lines: Lines<'a>,
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

    fn unknown(
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
    fn attributes<'b>(
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

    fn impact(&self, a: &Attribute) -> Result<Impact, RulesError> {
        let s = self.string(a)?;
        s.parse::<Impact>().map_err(|e| {
            let mut err = self.err(a.value.span(), e.to_string());
            if let Some(k) = did_you_mean(
                &s,
                &Impact::ALL.iter().map(|i| i.as_str()).collect::<Vec<_>>(),
            ) {
                err = err.help(format!("did you mean `{k}`?"));
            } else {
                err = err.help("see the impact classes in `ward docs rules`");
            }
            err
        })
    }

    fn pattern(
        &self,
        text: &str,
        span: Option<Range<usize>>,
        what: &str,
    ) -> Result<Pattern, RulesError> {
        Pattern::parse(text).map_err(|m| {
            self.err(span, format!("bad {what} pattern: {m}"))
                .help("patterns are attribute paths such as `tags`, `root_block_device.volume_size` or `spec.*.image`")
        })
    }

    /// A `when` selector: an object from top-level attribute names to non-empty value globs,
    /// e.g. `{ type = "Microsoft.Storage/storageAccounts@*" }`.
    fn when(&self, a: &Attribute) -> Result<BTreeMap<String, String>, RulesError> {
        const EXAMPLE: &str =
            "write an object of top-level attribute names and value patterns, e.g. `when = { type = \"Microsoft.Storage/storageAccounts@*\" }`";
        let Expression::Object(obj) = &a.value else {
            return Err(self
                .err(a.value.span(), "`when` must be an object")
                .help(EXAMPLE));
        };
        let mut out = BTreeMap::new();
        for (key, value) in obj.iter() {
            let (name, span) = match key {
                ObjectKey::Ident(i) => (i.as_str().to_string(), i.span()),
                ObjectKey::Expression(e) => (self.string_expr(e, "when")?, e.span()),
            };
            if !is_plain_name(&name) {
                return Err(self
                    .err(span, format!("`when` names `{name}`, not a top-level attribute"))
                    .help("`when` reads the value of one top-level attribute (`type`, `kind`), not a path, an index or a pattern"));
            }
            let glob = self.string_expr(value.expr(), &name)?;
            if glob.trim().is_empty() {
                return Err(self
                    .err(value.expr().span(), format!("`when` gives `{name}` an empty pattern"))
                    .help("give the value pattern, e.g. `\"Microsoft.Storage/storageAccounts@*\"`; `*` matches any run of characters"));
            }
            if out.insert(name.clone(), glob).is_some() {
                return Err(self
                    .err(span, format!("`when` names `{name}` twice"))
                    .help("keep one"));
            }
        }
        if out.is_empty() {
            return Err(self.err(a.value.span(), "`when` is empty").help(EXAMPLE));
        }
        Ok(out)
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

    /// What an `attribute` block's change costs: `impact`, or `decrease` and `increase` (with
    /// `unbounded`), never both.
    fn attribute_cost(
        &self,
        ab: &Block,
        aplace: &str,
        aattrs: &BTreeMap<String, &Attribute>,
    ) -> Result<(Impact, Option<Direction>), RulesError> {
        let get = |k: &str| aattrs.get(k).copied();
        match (get("impact"), get("decrease"), get("increase")) {
            (Some(ia), None, None) => {
                if let Some(u) = get("unbounded") {
                    return Err(self
                        .err(u.key.span(), format!("`unbounded` in {aplace} without `decrease` and `increase`"))
                        .help("`unbounded` lists the values that mean \"no limit\" for a directional entry: give `decrease = ...` and `increase = ...` instead of `impact`, or remove it"));
                }
                Ok((self.impact(ia)?, None))
            }
            (Some(ia), _, _) => Err(self
                .err(ia.key.span(), format!("{aplace} gives `impact` and a direction"))
                .help("write `impact = ...` for one cost, or `decrease = ...` and `increase = ...` for a cost by direction (an unknown direction costs the worse of the two), not both")),
            (None, Some(d), Some(i)) => {
                let decrease = self.impact(d)?;
                let increase = self.impact(i)?;
                let unbounded = match get("unbounded") {
                    None => Vec::new(),
                    Some(u) => self.bounds(u)?,
                };
                Ok((
                    decrease.max(increase),
                    Some(Direction {
                        decrease,
                        increase,
                        unbounded,
                    }),
                ))
            }
            (None, Some(one), None) | (None, None, Some(one)) => {
                let missing = if one.key.as_str() == "decrease" { "increase" } else { "decrease" };
                Err(self
                    .err(one.key.span(), format!("{aplace} gives `{}` without `{missing}`", one.key.as_str()))
                    .help(format!("a directional entry says what both directions cost: add `{missing} = \"...\"` (or write one `impact` for both)")))
            }
            (None, None, None) => Err(self
                .err(ab.ident.span(), format!("{aplace} has no `impact`"))
                .help("add `impact = \"in-place\"` (or none, free, interrupt, replace, data-loss), or `decrease = ...` and `increase = ...`")),
        }
    }

    /// `unbounded = [0, null]`: numbers and `null`.
    fn bounds(&self, a: &Attribute) -> Result<Vec<Bound>, RulesError> {
        let help = "write a list of numbers and `null`, e.g. `unbounded = [0]` (a log group's retention 0 means never expire)";
        let Expression::Array(arr) = &a.value else {
            return Err(self
                .err(
                    a.value.span(),
                    "`unbounded` must be a list of numbers and `null`",
                )
                .help(help));
        };
        let mut out = Vec::new();
        for e in arr.iter() {
            let n = match e {
                Expression::Null(_) => Some(Bound::Null),
                Expression::Number(n) => n.value().as_f64().map(Bound::Number),
                Expression::UnaryOp(op)
                    if *op.operator.value() == hcl_edit::expr::UnaryOperator::Neg =>
                {
                    match &op.expr {
                        Expression::Number(n) => n.value().as_f64().map(|f| Bound::Number(-f)),
                        _ => None,
                    }
                }
                _ => None,
            };
            let Some(n) = n else {
                return Err(self
                    .err(e.span(), "`unbounded` entries must be numbers or `null`")
                    .help(help));
            };
            if out.contains(&n) {
                return Err(self
                    .err(e.span(), "`unbounded` lists a value twice")
                    .help("keep one"));
            }
            out.push(n);
        }
        Ok(out)
    }

    /// An `overwrites` or `modifies` block (`name`): `impact` (above `free`) and `what` required,
    /// `why`, `target` and `when_set` optional.
    fn overwrites(&self, ob: &Block, place: &str, name: &str) -> Result<Overwrites, RulesError> {
        let example = if name == "modifies" {
            "modifies { impact = \"in-place\", what = \"adds a rule to an existing security group\", target = [\"security_group_id\"] }"
        } else {
            "overwrites { impact = \"interrupt\", what = \"replaces the whole IAM policy of the organization\", target = [\"org_id\"] }"
        };
        if !ob.labels.is_empty() {
            return Err(self
                .err(
                    ob.ident.span(),
                    format!("the `{name}` block takes no label"),
                )
                .help(format!("write `{example}`")));
        }
        let oplace = format!("`{name}` of {place}");
        let attrs = self.attributes(&ob.body, &oplace, OVERWRITES_KEYS, &[])?;
        let required = |key: &str| {
            attrs.get(key).copied().ok_or_else(|| {
                self.err(ob.ident.span(), format!("{oplace} has no `{key}`"))
                    .help(format!("write `{example}`"))
            })
        };
        let ia = required("impact")?;
        let impact = self.impact(ia)?;
        if impact <= Impact::Free {
            return Err(self
                .err(ia.value.span(), format!("{oplace} costs `{impact}`"))
                .help("changing or taking over state that exists outside this root is never free: give `in-place`, `interrupt`, `replace` or `data-loss`"));
        }
        let what = self.nonempty(required("what")?)?;
        let why = attrs.get("why").map(|a| self.nonempty(a)).transpose()?;
        let top_level = |key: &str, help: &str| -> Result<Vec<String>, RulesError> {
            let mut out: Vec<String> = Vec::new();
            if let Some(a) = attrs.get(key) {
                for (text, span) in self.strings(a)? {
                    let p = self.pattern(&text, span.clone(), key)?;
                    if p.has_wildcard() || p.len() != 1 {
                        return Err(self
                            .err(
                                span,
                                format!("{key} `{text}` is not one top-level attribute"),
                            )
                            .help(help.to_string()));
                    }
                    let shown = p.to_string();
                    if out.contains(&shown) {
                        return Err(self
                            .err(span, format!("{key} lists `{shown}` twice"))
                            .help("keep one"));
                    }
                    out.push(shown);
                }
            }
            Ok(out)
        };
        let target = top_level(
            "target",
            "name the top-level attributes whose planned values name the existing object, e.g. `[\"org_id\"]`",
        )?;
        let when_set = top_level(
            "when_set",
            "name the top-level attributes whose planned values change the existing object, e.g. `[\"map_public_ip_on_launch\"]`",
        )?;
        if let (Some(a), true) = (attrs.get("when_set"), when_set.is_empty()) {
            return Err(self
                .err(a.value.span(), format!("{oplace} has an empty `when_set`"))
                .help("list the attributes whose planned values change the existing object, or leave `when_set` out (every create changes it)"));
        }
        Ok(Overwrites {
            impact,
            what,
            why,
            target,
            when_set,
            line: self.line_of(ob.ident.span()),
        })
    }

    fn pack_header(&self, b: &Block) -> Result<Pack, RulesError> {
        if !b.labels.is_empty() {
            return Err(self
                .err(b.ident.span(), "the `pack` block takes no label")
                .help("write `pack { name = \"...\" version = \"...\" ... }`"));
        }
        let attrs = self.attributes(&b.body, "the `pack` block", PACK_KEYS, &[])?;
        let required = |key: &str| -> Result<String, RulesError> {
            match attrs.get(key) {
                Some(a) => self.nonempty(a),
                None => Err(self
                    .err(b.ident.span(), format!("the `pack` block has no `{key}`"))
                    .help(format!(
                        "add `{key} = \"...\"`: a pack needs {}",
                        list(&PACK_KEYS[..4])
                    ))),
            }
        };
        let name = required("name")?;
        if !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        {
            return Err(self
                .err(
                    attrs.get("name").and_then(|a| a.value.span()),
                    format!("pack name `{name}` must be lowercase letters, digits, `-` and `_`"),
                )
                .help("reports cite `name@version`; keep the name short and plain, e.g. `aws`"));
        }
        let version = required("version")?;
        if version.chars().any(char::is_whitespace)
            || version.contains(':')
            || version.contains('@')
        {
            return Err(self
                .err(
                    attrs.get("version").and_then(|a| a.value.span()),
                    format!("pack version `{version}` cannot contain spaces, `:` or `@`"),
                )
                .help("use a plain version such as `2026.11.0`"));
        }
        let provider = required("provider")?;
        let schema = required("schema")?;
        if schema != "checked" && !schema.starts_with("unavailable:") {
            return Err(self
                .err(attrs.get("schema").and_then(|a| a.value.span()), format!("`schema = \"{schema}\"` is neither `checked` nor `unavailable: <why>`"))
                .help("write `schema = \"checked\"` when the entries were checked against the provider's schema, else `schema = \"unavailable: <why>\"`"));
        }
        let summary = attrs.get("summary").map(|a| self.string(a)).transpose()?;
        Ok(Pack {
            name,
            version,
            provider,
            schema,
            summary,
            file: self.file.to_string(),
            entries: 0,
        })
    }

    fn resource(&self, b: &Block, origin: &RuleOrigin, kind: FileKind) -> Result<Rule, RulesError> {
        let type_name =
            self.one_label(b, "the resource type", "resource \"aws_instance\" { ... }")?;
        if !is_type_name(&type_name) {
            return Err(self
                .err(
                    b.labels.first().and_then(|l| l.span()),
                    format!("`{type_name}` is not a resource type name"),
                )
                .help("use the type as Terraform spells it, e.g. `aws_instance`"));
        }
        let place = format!("`resource \"{type_name}\"`");
        let attrs = self.attributes(
            &b.body,
            &place,
            RESOURCE_KEYS,
            &["attribute", "overwrites", "modifies"],
        )?;
        let line = self.line_of(b.ident.span());
        let origin = match (kind, origin) {
            (FileKind::User, RuleOrigin::User { file, .. }) => RuleOrigin::User {
                file: file.clone(),
                line,
            },
            _ => origin.clone(),
        };
        // What every decision by this rule cites; an attribute entry's adds its pattern.
        let base = RuleRef {
            origin: origin.clone(),
            type_name: type_name.clone(),
            attribute: None,
        };
        let opt_string = |key: &str| attrs.get(key).map(|a| self.string(a)).transpose();
        let opt_nonempty = |key: &str| attrs.get(key).map(|a| self.nonempty(a)).transpose();
        let opt_impact = |key: &str| attrs.get(key).map(|a| self.impact(a)).transpose();

        let address = opt_nonempty("address")?;
        let module = opt_nonempty("module")?;
        if let (Some(m), Some(a)) = (&module, attrs.get("module")) {
            if !m.starts_with("module.") {
                return Err(self
                    .err(a.value.span(), format!("`module = \"{m}\"` is not a module path"))
                    .help("write the module path as in addresses, e.g. `module = \"module.ledger\"`; for the root module use `address` instead"));
            }
        }
        let provider = opt_nonempty("provider")?;
        if let (Some(p), Some(a)) = (&provider, attrs.get("provider")) {
            if p.split('/').any(|s| s.trim().is_empty()) {
                return Err(self
                    .err(a.value.span(), format!("`provider = \"{p}\"` has an empty segment"))
                    .help("write `namespace/type` (`hashicorp/aws`), a full address or a local name (`aws`)"));
            }
        }

        let when = match attrs.get("when") {
            None => BTreeMap::new(),
            Some(a) => self.when(a)?,
        };

        let identity = match attrs.get("identity") {
            None => None,
            Some(a) => {
                let mut out: Vec<String> = Vec::new();
                for (text, span) in self.strings(a)? {
                    let p = self.pattern(&text, span.clone(), "identity")?;
                    if p.has_wildcard() {
                        return Err(self
                            .err(span, format!("identity entry `{text}` uses `*`"))
                            .help("name each identity attribute, e.g. `[\"id\", \"mac\"]`"));
                    }
                    let shown = p.to_string();
                    if out.contains(&shown) {
                        return Err(self
                            .err(span, format!("identity lists `{shown}` twice"))
                            .help("keep one"));
                    }
                    out.push(shown);
                }
                Some(out)
            }
        };

        let mut attributes: Vec<AttrRule> = Vec::new();
        let mut seen_patterns: BTreeMap<String, usize> = BTreeMap::new();
        let mut add = |this: &Self,
                       attributes: &mut Vec<AttrRule>,
                       compiled: Pattern,
                       (impact, direction): (Impact, Option<Direction>),
                       why: Option<String>,
                       span: Option<Range<usize>>|
         -> Result<(), RulesError> {
            let pattern = compiled.to_string();
            let line = this.line_of(span.clone());
            if let Some(first) = seen_patterns.get(&pattern) {
                return Err(this
                    .err(
                        span,
                        format!("attribute `{pattern}` is given twice in {place}"),
                    )
                    .help(format!(
                        "the first is at line {first}; keep one (a `free` entry counts as one)"
                    )));
            }
            seen_patterns.insert(pattern.clone(), line);
            let reference = Arc::new(RuleRef {
                attribute: Some(pattern.clone()),
                ..base.clone()
            });
            attributes.push(AttrRule {
                pattern,
                impact,
                direction,
                why,
                line,
                reference,
                compiled,
            });
            Ok(())
        };
        let mut overwrites: Option<Overwrites> = None;
        let mut modifies: Option<Overwrites> = None;
        // Attribute blocks and `free` entries, in file order.
        for s in b.body.iter() {
            match s {
                Structure::Attribute(a) if a.key.as_str() == "free" => {
                    for (text, span) in self.strings(a)? {
                        let p = self.pattern(&text, span.clone(), "attribute")?;
                        add(self, &mut attributes, p, (Impact::Free, None), None, span)?;
                    }
                }
                Structure::Block(ob) if ob.ident.as_str() == "overwrites" => {
                    if overwrites.is_some() {
                        return Err(self
                            .err(
                                ob.ident.span(),
                                format!("a second `overwrites` block in {place}"),
                            )
                            .help("a type overwrites one thing; say it in one block"));
                    }
                    overwrites = Some(self.overwrites(ob, &place, "overwrites")?);
                }
                Structure::Block(ob) if ob.ident.as_str() == "modifies" => {
                    if modifies.is_some() {
                        return Err(self
                            .err(
                                ob.ident.span(),
                                format!("a second `modifies` block in {place}"),
                            )
                            .help("a type modifies one existing object; say it in one block"));
                    }
                    modifies = Some(self.overwrites(ob, &place, "modifies")?);
                }
                Structure::Block(ab) => {
                    let text = self.one_label(
                        ab,
                        "the attribute pattern",
                        "attribute \"instance_type\" { impact = \"interrupt\" }",
                    )?;
                    let label_span = ab.labels.first().and_then(|l| l.span());
                    let p = self.pattern(&text, label_span, "attribute")?;
                    let aplace = format!("`attribute \"{text}\"` of {place}");
                    let aattrs = self.attributes(&ab.body, &aplace, ATTRIBUTE_KEYS, &[])?;
                    let cost = self.attribute_cost(ab, &aplace, &aattrs)?;
                    let why = aattrs.get("why").map(|a| self.nonempty(a)).transpose()?;
                    add(self, &mut attributes, p, cost, why, ab.ident.span())?;
                }
                _ => {}
            }
        }

        let one_name = |key: &str| -> Result<Option<String>, RulesError> {
            let Some(a) = attrs.get(key) else {
                return Ok(None);
            };
            let text = self.nonempty(a)?;
            let p = self.pattern(&text, a.value.span(), key)?;
            if p.has_wildcard() {
                return Err(self
                    .err(a.value.span(), format!("`{key} = \"{text}\"` uses `*`"))
                    .help("name one attribute, e.g. `skip_final_snapshot`"));
            }
            Ok(Some(p.to_string()))
        };
        let final_snapshot_skip = one_name("final_snapshot_skip")?;
        let final_snapshot_name = one_name("final_snapshot_name")?;
        let access_rules = match attrs.get("access_rules") {
            None => None,
            Some(a) => {
                let mut out: Vec<String> = Vec::new();
                for (text, span) in self.strings(a)? {
                    let p = self.pattern(&text, span.clone(), "access_rules")?;
                    if p.has_wildcard() {
                        return Err(self
                            .err(span, format!("access_rules entry `{text}` uses `*`"))
                            .help("name each list of rules, e.g. `[\"ingress\", \"egress\"]`"));
                    }
                    out.push(p.to_string());
                }
                Some(out)
            }
        };
        let grants_access = attrs
            .get("grants_access")
            .map(|a| self.boolean(a))
            .transpose()?;
        let selector = Selector {
            address,
            module,
            provider,
            when,
        };
        let paths = RulePaths::of(identity.as_deref(), access_rules.as_deref());
        let rule = Rule {
            final_snapshot_skip,
            final_snapshot_name,
            access_rules,
            grants_access,
            overwrites,
            modifies,
            origin,
            type_name,
            line,
            summary: opt_string("summary")?,
            source: opt_string("source")?,
            rationale: opt_string("rationale")?,
            holds_data: attrs
                .get("holds_data")
                .map(|a| self.boolean(a))
                .transpose()?,
            identity,
            on_create: opt_impact("on_create")?,
            on_update: opt_impact("on_update")?,
            on_delete: opt_impact("on_delete")?,
            on_replace: opt_impact("on_replace")?,
            attributes,
            rank: (0, selector.specificity(), 0, line),
            paths,
            selector,
            reference: Arc::new(base),
        };
        // Keys that describe or narrow a rule; every other key decides something.
        const NOT_DECIDING: &[&str] = &[
            "summary",
            "source",
            "rationale",
            "address",
            "module",
            "provider",
            "when",
        ];
        if kind == FileKind::User
            && rule.attributes.is_empty()
            && rule.overwrites.is_none()
            && rule.modifies.is_none()
            && attrs.keys().all(|k| NOT_DECIDING.contains(&k.as_str()))
        {
            return Err(self
                .err(
                    b.ident.span(),
                    format!("{place} decides nothing"),
                )
                .help(format!(
                    "an empty rule would pass the coverage gate without saying what a change costs; state at least one of `holds_data`, `on_update`, `on_delete`, `on_replace`, `identity`, `free`, an `attribute` block or an `overwrites` block (the defaults: `ward docs rules`), e.g.\n    resource \"{}\" {{\n      holds_data = false\n      on_update  = \"in-place\"\n    }}",
                    rule.type_name
                )));
        }

        Ok(rule)
    }
}

impl Reader<'_> {
    /// The rules of `resource` blocks, in order, refusing a second entry for the same type and
    /// selector. One map lookup per block: loading is linear in the number of blocks.
    fn resources<'b>(
        &self,
        blocks: impl Iterator<Item = &'b Block>,
        origin: &RuleOrigin,
        kind: FileKind,
    ) -> Result<Vec<Rule>, RulesError> {
        let mut rules: Vec<Rule> = Vec::new();
        let mut first_line: HashMap<(String, Selector), usize> = HashMap::new();
        for b in blocks {
            let rule = self.resource(b, origin, kind)?;
            let key = (rule.type_name.clone(), rule.selector.clone());
            if let Some(first) = first_line.get(&key) {
                return Err(self
                    .err(b.ident.span(), format!("a second `resource \"{}\"` entry with the same selector", rule.type_name))
                    .help(format!("the first is at line {first}; merge the two blocks (or narrow one with `address`, `module` or `provider`)")));
            }
            first_line.insert(key, rule.line);
            rules.push(rule);
        }
        Ok(rules)
    }
}

/// Reads the `resource` blocks of a `ward.hcl` that its owner (ward-config) has already parsed:
/// `text` is the file's text, used only to turn spans into lines and columns, never parsed again.
/// Blocks that are not `resource` blocks are refused: pass only those.
pub(crate) fn parse_user_blocks<'b>(
    file: &str,
    text: &str,
    blocks: impl IntoIterator<Item = &'b Block>,
) -> Result<Vec<Rule>, RulesError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let r = Reader::new(file, text);
    let blocks: Vec<&Block> = blocks.into_iter().collect();
    if let Some(b) = blocks.iter().find(|b| b.ident.as_str() != "resource") {
        return Err(r
            .err(
                b.ident.span(),
                format!("`{}` is not a rule block", b.ident.as_str()),
            )
            .help("only `resource` blocks hold rules"));
    }
    let origin = RuleOrigin::User {
        file: file.to_string(),
        line: 0,
    };
    r.resources(blocks.into_iter(), &origin, FileKind::User)
}

/// One block of an embedded pack, read on its own ([`parse_pack_block`]).
pub(crate) enum OneBlock {
    /// The `pack` header.
    Pack(Pack),
    /// A `resource` entry.
    Resource(Box<Rule>),
}

/// Parses one top-level block of a pack file: `text` is the block's bytes (build.rs indexed
/// them), starting a line; `line_base` is how many lines of the file come before it, so that
/// lines and columns are the file's. `origin` is the pack's, for a `resource` block.
pub(crate) fn parse_pack_block(
    file: &str,
    text: &str,
    line_base: usize,
    origin: &RuleOrigin,
) -> Result<OneBlock, RulesError> {
    let body = ward_hcl::parse_body(text).map_err(|e| {
        RulesError::new(file, format!("not valid HCL: {}", e.message))
            .at(Some((e.line + line_base, e.column)))
            .help(format!("fix the syntax near `{}`", e.near))
    })?;
    let r = Reader {
        file,
        lines: Lines::new(text, line_base),
    };
    let mut blocks = body.blocks();
    let attribute = body.attributes().next().is_some();
    let one = match (blocks.next(), blocks.next(), attribute) {
        (Some(b), None, false) if b.ident.as_str() == "pack" => {
            Ok(OneBlock::Pack(r.pack_header(b)?))
        }
        (Some(b), None, false) if b.ident.as_str() == "resource" => Ok(OneBlock::Resource(
            Box::new(r.resource(b, origin, FileKind::Pack)?),
        )),
        _ => Err(
            RulesError::new(file, "the pack index does not match the file")
                .at(Some((line_base + 1, 1)))
                .help("this is a bug in ward's build script (build.rs); please report it"),
        ),
    };
    one
}

/// Parses one file. `origin` is the pack (name/version filled in from the header) or the user
/// file (line filled in per block).
pub(crate) fn parse_file(file: &str, text: &str, kind: FileKind) -> Result<Parsed, RulesError> {
    // Some editors start UTF-8 files with a byte order mark; it is not HCL.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let body = ward_hcl::parse_body(text).map_err(|e| {
        RulesError::new(file, format!("not valid HCL: {}", e.message))
            .at(Some((e.line, e.column)))
            .help(format!("fix the syntax near `{}`", e.near))
    })?;
    let r = Reader::new(file, text);

    let mut pack: Option<(Pack, Option<Range<usize>>)> = None;
    // A rule file is not a second reader of ward.hcl: its other blocks (policy, root, check...)
    // are ward-config's, and here they are errors that say so.
    let top_known: Vec<&str> = match kind {
        FileKind::Pack => vec!["pack", "resource"],
        FileKind::User => vec!["resource"],
    };
    let place = match kind {
        FileKind::Pack => "a pack file",
        FileKind::User => "a rule file",
    };
    let elsewhere = |_: &str| {
        match kind {
        FileKind::Pack => None,
        FileKind::User => Some(
            "rule files hold only `resource` blocks; every other block belongs in ward.hcl, which ward-config reads (pass it with --config); "
                .to_string(),
        ),
    }
    };
    // First pass: the header (a pack's entries cite its name and version).
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                return Err(r
                    .err(
                        a.key.span(),
                        format!("unexpected top-level key `{}`", a.key.as_str()),
                    )
                    .help(format!("{place} holds blocks only: {}", list(&top_known))));
            }
            Structure::Block(b) if b.ident.as_str() == "pack" => {
                if kind == FileKind::User {
                    return Err(r
                        .err(b.ident.span(), "a `pack` header in a user rule file")
                        .help("`pack` headers belong to the built-in packs; a rule file holds `resource` blocks without one"));
                }
                if let Some((_, first)) = &pack {
                    return Err(r.err(b.ident.span(), "a second `pack` block").help(format!(
                        "a pack file has exactly one header; the first is at line {}",
                        r.line_of(first.clone())
                    )));
                }
                pack = Some((r.pack_header(b)?, b.ident.span()));
            }
            Structure::Block(b) => {
                let ident = b.ident.as_str();
                if !top_known.contains(&ident) {
                    return Err(r.unknown(
                        b.ident.span(),
                        "block",
                        ident,
                        place,
                        &top_known,
                        &elsewhere,
                    ));
                }
            }
        }
    }
    let origin = match (kind, &pack) {
        (FileKind::Pack, Some((p, _))) => RuleOrigin::Pack {
            name: p.name.clone(),
            version: p.version.clone(),
        },
        (FileKind::Pack, None) => {
            return Err(RulesError::new(file, "the pack has no `pack` header").help(
                "start it with `pack { name = \"...\" version = \"...\" provider = \"namespace/type\" schema = \"checked\" }`",
            ));
        }
        (FileKind::User, _) => RuleOrigin::User {
            file: file.to_string(),
            line: 0,
        },
    };

    let rules = r.resources(
        body.blocks().filter(|b| b.ident.as_str() == "resource"),
        &origin,
        kind,
    )?;
    let pack = pack.map(|(mut p, _)| {
        p.entries = rules.len();
        p
    });
    Ok(Parsed { pack, rules })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;
