//! A pack's `pack` header.

use super::Reader;
use crate::error::RulesError;
use crate::rule::Pack;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use ward_hcl::list;

const PACK_KEYS: &[&str] = &["name", "version", "provider", "schema", "summary"];

impl Reader<'_> {
    pub(super) fn pack_header(&self, b: &Block) -> Result<Pack, RulesError> {
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
            file: self.file().to_string(),
            entries: 0,
        })
    }
}
