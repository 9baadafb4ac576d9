//! Reads one rule file (a pack or a `ward.hcl`) into rules, refusing anything it does not
//! understand with the file, line and column and what to write instead.

mod overwrites;
mod pack;
mod reader;
mod resource;
mod values;

use reader::Reader;

use crate::error::RulesError;
use crate::rule::RuleOrigin;
use crate::rule::{Pack, Rule, Selector};
use hcl_edit::structure::{Block, Structure};
use hcl_edit::Span;
use std::collections::HashMap;
use std::ops::Range;
use ward_hcl::list;

/// What kind of file is being read: the two accept different top-level blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// A built-in pack: one `pack` header and `resource` blocks.
    Pack,
    /// User rules: a rule file read by [`crate::Knowledge::load_user_file`] (`resource` blocks
    /// only), or the `resource` blocks of a `ward.hcl` that ward-config parsed.
    User,
}

/// A parsed file: its pack header (packs only) and its resource entries, in file order.
pub(crate) struct Parsed {
    pub(crate) pack: Option<Pack>,
    pub(crate) rules: Vec<Rule>,
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
    let r = Reader(ward_hcl::Reader::new(file, text).below(line_base));
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
                    // Only the top level suggests ward.hcl: the entries' keys are the rule
                    // format's.
                    let top = ward_hcl::Reader::new(file, text).suggesting(&elsewhere);
                    return Err(top.unknown(b.ident.span(), "block", ident, place, &top_known));
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
