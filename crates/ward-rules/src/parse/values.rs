//! The rule format's values: impact classes, attribute patterns, a `when` selector and an
//! `unbounded` list.

use super::Reader;
use crate::error::RulesError;
use crate::pattern::Pattern;
use crate::rule::Bound;
use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::Attribute;
use hcl_edit::Span;
use std::collections::BTreeMap;
use std::ops::Range;
use ward_model::Impact;

use ward_hcl::did_you_mean;

/// A top-level attribute name as Terraform spells it: a letter or `_`, then letters, digits,
/// `_` or `-`.
fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl Reader<'_> {
    pub(super) fn impact(&self, a: &Attribute) -> Result<Impact, RulesError> {
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

    pub(super) fn pattern(
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
    pub(super) fn when(&self, a: &Attribute) -> Result<BTreeMap<String, String>, RulesError> {
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

    /// `unbounded = [0, null]`: numbers and `null`.
    pub(super) fn bounds(&self, a: &Attribute) -> Result<Vec<Bound>, RulesError> {
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
}
