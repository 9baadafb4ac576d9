//! The `root` and `layer` blocks: the roots of the repository and the layer stack.

use crate::error::ConfigError;
use crate::read::{confined_rel, Schema};
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use ward_hcl::Reader;

/// Which Terraform-compatible binary a root is pinned to: owned by ward-version (so that
/// ward-terraform, which honours it, needs no ward-config), re-exported here.
pub use ward_version::Pin;

/// A `root "NAME" { ... }` block: one root of the repository. Read by `ward check`,
/// `ward drift` and `ward gate`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Root {
    /// The block's label: the root's name in reports and history.
    pub name: String,
    /// Directory relative to the repository root, `/`-separated, no `./`, no trailing `/`; the
    /// repository root itself is `.`.
    pub path: String,
    /// The layer it belongs to, when layers are used.
    pub layer: Option<String>,
    /// The binary it must be run with (`ward drift`).
    pub pin: Option<Pin>,
    /// An empty state is correct for this root (`ward drift`: not `missing-state`).
    pub expect_empty: bool,
    /// What `ward stack` needs: `reads`, `site` and `pre_destroy` blocks.
    pub stack: crate::stack::RootStack,
    /// Line of the block in `ward.hcl`.
    pub line: usize,
}

/// A `layer "NAME" { level = N }` block. Read by `ward check`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layer {
    /// The block's label.
    pub name: String,
    /// Position in the stack: 0 is the bottom. A root may read the state of lower layers only.
    pub level: i64,
    /// Line of the block.
    pub line: usize,
}

/// The `root` and `layer` blocks' schemas (suggestions elsewhere in `ward.hcl`).
pub(crate) const SCHEMAS: &[Schema] = &[
    Schema {
        place: "`root \"NAME\" { }`",
        keys: ROOT_KEYS,
        blocks: crate::stack::ROOT_BLOCKS,
    },
    Schema {
        place: "`layer \"NAME\" { }`",
        keys: LAYER_KEYS,
        blocks: &[],
    },
];
pub(crate) const LAYER_KEYS: &[&str] = &["level"];
pub(crate) const ROOT_KEYS: &[&str] = &[
    "path",
    "layer",
    "binary",
    "expect_empty",
    "description",
    "reads",
];

pub(crate) fn root(src: &Reader<'_>, b: &Block) -> Result<Root, ConfigError> {
    let name = src.one_label(
        b,
        "its name",
        "root \"network\" { path = \"live/network\" }",
    )?;
    let place = format!("`root \"{name}\"`");
    let f = src.fields(&b.body, &place, ROOT_KEYS, crate::stack::ROOT_BLOCKS)?;
    let line = src.line_of(b.ident.span());
    let stack = crate::stack::root_stack(src, &place, f.get("reads"), &f.blocks)?;
    let Some(pa) = f.get("path") else {
        return Err(src
            .err(b.ident.span(), format!("{place} has no `path`"))
            .help("add `path = \"<directory relative to the repository root>\"`")
            .into());
    };
    let raw = src.nonempty(pa)?;
    let path = confined_rel(&raw).ok_or_else(|| {
        src.err(
            pa.value.span(), format!("{place}: path \"{raw}\" is outside the repository")).help("give the directory relative to the repository root, without leading `/` or `..` above it")
    })?;
    let pin =
        match f.get("binary") {
            None => None,
            Some(a) => {
                let word = src.string(a)?;
                match Pin::from_word(&word) {
                    Some(pin) => Some(pin),
                    None => return Err(src
                        .err(
                            a.value.span(),
                            format!("{place}: binary = \"{word}\" is not understood"),
                        )
                        .help(
                            "use \"terraform\", \"tofu\" or a path to the executable (with a `/`)",
                        )
                        .into()),
                }
            }
        };
    if let Some(d) = f.get("description") {
        src.string(d)?;
    }
    Ok(Root {
        name,
        path,
        layer: f.get("layer").map(|a| src.nonempty(a)).transpose()?,
        pin,
        expect_empty: f
            .get("expect_empty")
            .map(|a| src.boolean(a))
            .transpose()?
            .unwrap_or(false),
        stack,
        line,
    })
}

pub(crate) fn layer(src: &Reader<'_>, b: &Block) -> Result<Layer, ConfigError> {
    let name = src.one_label(b, "its name", "layer \"foundation\" { level = 0 }")?;
    let place = format!("`layer \"{name}\"`");
    let f = src.fields(&b.body, &place, LAYER_KEYS, &[])?;
    let Some(a) = f.get("level") else {
        return Err(src
            .err(b.ident.span(), format!("{place} needs `level = N`"))
            .help("add `level = 0` for the bottom layer, 1 for the one above it, and so on")
            .into());
    };
    Ok(Layer {
        name,
        level: src.integer(a)?,
        line: src.line_of(b.ident.span()),
    })
}
