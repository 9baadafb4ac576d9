//! `waiver { }` blocks: each `ignore_changes` kept in a root is named here, with why, who owns
//! it and until when. Read by `ward check` (rules WARD-IMP-001 and WARD-IMP-002): an
//! `ignore_changes` added as an import workaround otherwise hides real drift forever.

use crate::error::ConfigError;
use crate::read::Schema;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use ward_hcl::Reader;
use ward_model::pattern;
use ward_time::Date;

/// A `waiver { address, attributes, reason, owner, expires }` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waiver {
    /// Resource address or pattern (`fakecloud_instance.web`, `fakecloud_instance.*`), as in
    /// the resource block (`TYPE.NAME`, no module path).
    pub address: String,
    /// The `ignore_changes` entries it covers, as written there (`tags`, `all`).
    pub attributes: Vec<String>,
    /// Why the attributes are ignored (required).
    pub reason: String,
    /// Who owns the exception (required).
    pub owner: String,
    /// Last day (UTC, inclusive) it applies (required).
    #[serde(serialize_with = "as_text")]
    pub expires: Date,
    /// Line of the block.
    pub line: usize,
}

impl Waiver {
    /// Whether it names the `ignore_changes` entry `attribute` of resource `address`
    /// (ignoring expiry).
    pub fn covers(&self, address: &str, attribute: &str) -> bool {
        pattern::address_matches(&self.address, address)
            && self.attributes.iter().any(|a| a == attribute)
    }

    /// Whether it has expired on `today` (UTC).
    pub fn expired(&self, today: Date) -> bool {
        today > self.expires
    }
}

fn as_text<S: serde::Serializer>(d: &Date, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(d)
}

/// The `waiver` block's schema (suggestions elsewhere).
pub(crate) const SCHEMAS: &[Schema] = &[Schema {
    place: "`waiver { }`",
    keys: WAIVER_KEYS,
    blocks: &[],
}];
pub(crate) const WAIVER_KEYS: &[&str] = &["address", "attributes", "reason", "owner", "expires"];

pub(crate) fn waiver(src: &Reader<'_>, b: &Block, n: usize) -> Result<Waiver, ConfigError> {
    src.no_label(b)?;
    let place = format!("`waiver` #{n}");
    let f = src.fields(&b.body, &place, WAIVER_KEYS, &[])?;
    let need = |key: &str, help: &str| {
        f.get(key).ok_or_else(|| {
            src.err(b.ident.span(), format!("{place} has no `{key}`"))
                .help(help.to_string())
        })
    };
    let address = src.nonempty(need(
        "address",
        "add `address = \"TYPE.NAME\"`: the resource whose ignore_changes it covers",
    )?)?;
    let aa = need(
        "attributes",
        "add `attributes = [\"tags\"]`: the ignore_changes entries it covers, as written there",
    )?;
    let attributes = src.string_list(aa)?;
    if attributes.is_empty() || attributes.iter().any(|a| a.trim().is_empty()) {
        return Err(src
            .err(
                aa.value.span(),
                format!("{place}: `attributes` must list at least one non-empty entry"),
            )
            .help("name the ignore_changes entries it covers, e.g. `attributes = [\"tags\"]`")
            .into());
    }
    let reason = src.nonempty(need("reason", "every waiver needs `reason = \"...\"`")?)?;
    let owner = src.nonempty(need("owner", "every waiver needs `owner = \"...\"`")?)?;
    let ea = need("expires", "every waiver needs `expires = \"YYYY-MM-DD\"`")?;
    let es = src.string(ea)?;
    let expires = ward_time::parse_date(&es).map_err(|m| {
        src.err(ea.value.span(), format!("{place}: expires: {m}"))
            .help("write the last day (UTC) the waiver applies, e.g. `expires = \"2027-01-31\"`")
    })?;
    Ok(Waiver {
        address,
        attributes,
        reason,
        owner,
        expires,
        line: src.line_of(b.ident.span()),
    })
}
