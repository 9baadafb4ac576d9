//! The `plan` block: defaults for `ward plan` a team sets once (e.g. for CI).

use crate::read::Src;
use crate::ConfigError;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use ward_model::Impact;

/// The `plan` block (defaults when absent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PlanSettings {
    /// `fail_on = "CLASS"`: the threshold `ward plan` uses when `--fail-on` is not given.
    pub fail_on: Option<Impact>,
}

pub(crate) const PLAN_KEYS: &[&str] = &["fail_on"];

pub(crate) fn plan(src: &Src<'_>, b: &Block) -> Result<PlanSettings, ConfigError> {
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
                format!("write one of {classes}, e.g. `fail_on = \"replace\"`"),
            )
        })?);
    }
    Ok(p)
}
