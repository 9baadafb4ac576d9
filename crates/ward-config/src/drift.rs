//! The `drift { }` block: roots discovered but never checked (`exclude`), and drift findings
//! suppressed until a date (`ignore`). Read by `ward drift`.

use crate::error::ConfigError;
use crate::read::{confined_rel, Schema};
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use ward_hcl::Reader;
use ward_model::pattern;
use ward_time::Date;

/// A `drift { exclude "PATH" { reason = ... } }` (or `check { exclude }`) entry: ward-repo's
/// type, since discovery takes it in its options (#34).
pub use ward_repo::Exclude;

/// A `drift { ignore { ... } }` rule: suppresses matching drift findings until it expires.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IgnoreRule {
    /// Only this root (its name), when set.
    pub root: Option<String>,
    /// Address pattern.
    pub address: String,
    /// Attribute path pattern, when set.
    pub attribute: Option<String>,
    /// Who owns the exception (required).
    pub owner: String,
    /// Last day (UTC, inclusive) the rule applies.
    #[serde(serialize_with = "as_text")]
    pub expires: Date,
    /// Why, when given.
    pub reason: Option<String>,
    /// Line of the block.
    pub line: usize,
}

impl IgnoreRule {
    /// Whether the rule covers this finding (ignoring expiry). The address matches as in
    /// `policy.protect`: a pattern without instance keys covers every instance.
    pub fn matches(&self, root: &str, address: &str, attribute: &str) -> bool {
        if self.root.as_deref().is_some_and(|r| r != root) {
            return false;
        }
        if !pattern::address_matches(&self.address, address) {
            return false;
        }
        self.attribute
            .as_deref()
            .is_none_or(|a| pattern::matches(a, attribute))
    }

    /// Whether the rule has expired on `today` (UTC).
    pub fn expired(&self, today: Date) -> bool {
        today > self.expires
    }

    /// A short description for reports: `address[attribute] (owner, until DATE)`.
    pub fn describe(&self) -> String {
        let mut s = self.address.clone();
        if let Some(a) = &self.attribute {
            s.push_str(&format!("[{a}]"));
        }
        format!("{s} (owner {}, until {})", self.owner, self.expires)
    }
}

/// The `drift` block(s), merged in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DriftSettings {
    /// `exclude` entries.
    pub excludes: Vec<Exclude>,
    /// `ignore` rules.
    pub ignores: Vec<IgnoreRule>,
}

impl DriftSettings {
    /// The exclusion covering a repository-relative path.
    pub fn excluded(&self, path: &str) -> Option<&Exclude> {
        self.excludes.iter().find(|e| e.matches(path))
    }
}

fn as_text<S: serde::Serializer>(d: &Date, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(d)
}

/// The `drift` block's and its `ignore` blocks' schemas (suggestions elsewhere).
pub(crate) const SCHEMAS: &[Schema] = &[
    Schema {
        place: "`drift { }`",
        keys: &[],
        blocks: DRIFT_BLOCKS,
    },
    Schema {
        place: "`drift { ignore { } }`",
        keys: IGNORE_KEYS,
        blocks: &[],
    },
];
pub(crate) const DRIFT_BLOCKS: &[&str] = &["exclude", "ignore"];
pub(crate) const IGNORE_KEYS: &[&str] =
    &["root", "address", "attribute", "owner", "expires", "reason"];

/// One `exclude "PATH" { reason = "..." }` block of `section` (`drift`, `check`): the path
/// confined to the repository, the reason required.
pub(crate) fn exclude(
    src: &Reader<'_>,
    nb: &Block,
    section: &str,
    line: usize,
) -> Result<Exclude, ConfigError> {
    let raw = src.one_label(nb, "its name", "exclude \"sandbox\" { reason = \"...\" }")?;
    let place = format!("`{section} {{ exclude \"{raw}\" }}`");
    let ef = src.fields(&nb.body, &place, &["reason"], &[])?;
    let label_span = nb.labels.first().and_then(|l| l.span());
    let pattern = confined_rel(&raw).ok_or_else(|| {
        src.err(
            label_span,
            format!("{place}: the path is outside the repository"),
        )
        .help("give a path relative to the repository root")
    })?;
    let Some(reason) = ef.get("reason") else {
        return Err(src
            .err(nb.ident.span(), format!("{place} has no reason"))
            .help("every exclusion needs `reason = \"...\"`")
            .into());
    };
    Ok(Exclude {
        pattern,
        reason: src.nonempty(reason)?,
        line,
    })
}

pub(crate) fn drift(src: &Reader<'_>, b: &Block, d: &mut DriftSettings) -> Result<(), ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`drift`", &[], DRIFT_BLOCKS)?;
    for nb in &f.blocks {
        let line = src.line_of(nb.ident.span());
        if nb.ident.as_str() == "exclude" {
            d.excludes.push(exclude(src, nb, "drift", line)?);
            continue;
        }
        src.no_label(nb)?;
        let n = d.ignores.len() + 1;
        let place = format!("`drift {{ ignore }}` #{n}");
        let f = src.fields(&nb.body, &place, IGNORE_KEYS, &[])?;
        let need = |key: &str, help: &str| {
            f.get(key).ok_or_else(|| {
                src.err(nb.ident.span(), format!("{place} has no `{key}`"))
                    .help(help.to_string())
            })
        };
        let address = src.nonempty(need(
            "address",
            "add `address = \"PATTERN\"` (a pattern on resource addresses)",
        )?)?;
        let owner = src.nonempty(need("owner", "every ignore rule needs `owner = \"...\"`")?)?;
        let ea = need(
            "expires",
            "every ignore rule needs `expires = \"YYYY-MM-DD\"`",
        )?;
        let es = src.string(ea)?;
        let expires = ward_time::parse_date(&es).map_err(|m| {
            src.err(ea.value.span(), format!("{place}: expires: {m}"))
                .help("write the last day (UTC) the rule applies, e.g. `expires = \"2027-01-31\"`")
        })?;
        d.ignores.push(IgnoreRule {
            root: f.get("root").map(|a| src.nonempty(a)).transpose()?,
            address,
            attribute: f.get("attribute").map(|a| src.nonempty(a)).transpose()?,
            owner,
            expires,
            reason: f.get("reason").map(|a| src.string(a)).transpose()?,
            line,
        });
    }
    Ok(())
}
