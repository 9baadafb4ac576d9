//! `render "NAME" { }` blocks: `ward check`'s rendered-equality gates (WARD-RENDER-*). A
//! program renders files (HCL, policies, configuration) from sources in the repository; ward runs
//! it in a scratch copy and compares what it wrote with the committed files.

use crate::error::ConfigError;
use crate::read::{confined_rel, Schema};
use hcl_edit::structure::{Attribute, Block};
use hcl_edit::Span;
use serde::Serialize;
use std::time::Duration;
use ward_hcl::Reader;

/// How long a render command may run when `timeout` is not given.
pub const DEFAULT_RENDER_TIMEOUT: Duration = Duration::from_secs(300);

/// One `render "NAME"` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Render {
    /// The block's label.
    pub name: String,
    /// The command, program first, as an argument vector (no shell unless it calls one). A
    /// program written with a `/` is relative to the repository root.
    pub command: Vec<String>,
    /// Where the command writes, relative to the repository root (a file or a directory).
    pub output: String,
    /// The committed file or directory the output must equal, relative to the repository root
    /// (default: `output`).
    pub compare: String,
    /// `determinism = true`: render twice and require byte-identical results.
    pub determinism: bool,
    /// How long one run of the command may take.
    #[serde(serialize_with = "secs")]
    pub timeout: Duration,
    /// Line of the block.
    pub line: usize,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_secs())
}

/// The `render` block's schema (suggestions elsewhere).
pub(crate) const SCHEMAS: &[Schema] = &[Schema {
    place: "`render \"NAME\" { }`",
    keys: RENDER_KEYS,
    blocks: &[],
}];
pub(crate) const RENDER_KEYS: &[&str] = &["command", "output", "compare", "determinism", "timeout"];

/// A path inside the repository, not the repository itself.
fn inside(src: &Reader<'_>, a: &Attribute, place: &str) -> Result<String, ConfigError> {
    let raw = src.nonempty(a)?;
    confined_rel(&raw).filter(|r| r != ".").ok_or_else(|| {
        src.err(
            a.value.span(), format!(
                "{place}: {} = \"{raw}\" is not a path inside the repository",
                a.key.as_str()
            )).help("give a file or directory relative to the repository root, without a leading `/`, `..` above it, or `.` (the whole repository)").into()
    })
}

pub(crate) fn render(src: &Reader<'_>, b: &Block, seen: &[Render]) -> Result<Render, ConfigError> {
    let name = src.one_label(
        b,
        "its name",
        "render \"policy\" { command = [...], output = \"...\" }",
    )?;
    let line = src.line_of(b.ident.span());
    if let Some(first) = seen.iter().find(|r| r.name == name) {
        return Err(src
            .err(
                b.ident.span(),
                format!("render \"{name}\" is declared twice"),
            )
            .help(format!(
                "the first is at line {}; give each render its own name",
                first.line
            ))
            .into());
    }
    let place = format!("`render \"{name}\"`");
    let f = src.fields(&b.body, &place, RENDER_KEYS, &[])?;
    let command = f
        .get("command")
        .map(|a| src.string_list(a))
        .transpose()?
        .unwrap_or_default();
    if command.first().is_none_or(|p| p.trim().is_empty()) {
        return Err(src
            .err(
                f.get("command")
                    .and_then(|a| a.value.span())
                    .or(b.ident.span()),
                format!("{place}: `command` is required, program first"),
            )
            .help("give a list, e.g. `command = [\"./scripts/render\", \"out/policy\"]`")
            .into());
    }
    let Some(out_attr) = f.get("output") else {
        return Err(src.err(
            b.ident.span(), format!("{place}: `output` is required")).help("name the file or directory the command writes, e.g. `output = \"generated/policy.json\"`").into());
    };
    let output = inside(src, out_attr, &place)?;
    let compare = match f.get("compare") {
        Some(a) => inside(src, a, &place)?,
        None => output.clone(),
    };
    let determinism = f
        .get("determinism")
        .map(|a| src.boolean(a))
        .transpose()?
        .unwrap_or(false);
    let mut timeout = DEFAULT_RENDER_TIMEOUT;
    if let Some(a) = f.get("timeout") {
        let t = src.string(a)?;
        timeout = ward_time::parse_duration(&t).map_err(|m| {
            src.err(a.value.span(), format!("{place}: timeout: {m}"))
                .help("e.g. `timeout = \"60s\"`")
        })?;
        if timeout.is_zero() {
            return Err(src
                .err(
                    a.value.span(),
                    format!("{place}: timeout must be longer than 0s"),
                )
                .help("write e.g. `timeout = \"60s\"`")
                .into());
        }
    }
    Ok(Render {
        name,
        command,
        output,
        compare,
        determinism,
        timeout,
        line,
    })
}
