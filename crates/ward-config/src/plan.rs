//! The `plan` block: defaults for `ward plan` a team sets once (e.g. for CI).

use crate::error::ConfigError;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use ward_hcl::Reader;
use ward_model::Impact;

/// The `plan` block (defaults when absent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PlanSettings {
    /// `fail_on = "CLASS"`: the threshold `ward plan` uses when `--fail-on` is not given.
    pub fail_on: Option<Impact>,
    /// `expand = ["free", "none"]`: `free` is listed: each free change is listed with its
    /// attributes when `--expand` is not given.
    pub expand_free: bool,
    /// `expand` lists `none`: each none change is listed when `--expand` is not given.
    pub expand_none: bool,
}

pub(crate) const PLAN_KEYS: &[&str] = &["fail_on", "expand"];

pub(crate) fn plan(src: &Reader<'_>, b: &Block) -> Result<PlanSettings, ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`plan`", PLAN_KEYS, &[])?;
    let mut p = PlanSettings::default();
    if let Some(a) = f.get("fail_on") {
        let s = src.string(a)?;
        let classes = Impact::ALL
            .iter()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ");
        p.fail_on = Some(s.parse::<Impact>().map_err(|_| {
            src.err(
                a.value.span(),
                format!("`plan {{ fail_on }}`: `{s}` is not an impact class"),
            )
            .help(format!(
                "write one of {classes}, e.g. `fail_on = \"replace\"`"
            ))
        })?);
    }
    if let Some(a) = f.get("expand") {
        for (s, span) in src.strings(a)? {
            match s.parse::<Impact>() {
                Ok(Impact::Free) => p.expand_free = true,
                Ok(Impact::None) => p.expand_none = true,
                _ => {
                    return Err(src.err(
                        span, format!("`plan {{ expand }}`: `{s}` is not a class that can be expanded")).help("write `free`, `none` or both, e.g. `expand = [\"free\"]`; changes above free always show their attributes").into())
                }
            }
        }
    }
    Ok(p)
}
