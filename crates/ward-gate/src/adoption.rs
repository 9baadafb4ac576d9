//! A root being adopted with `ward import` is not managed until it is accepted: before its
//! `import-acceptance`, the gate refuses every change in it other than an import (exit 1), so
//! the adoption's zero-diff measurement can never be confused with a managed change
//! (FIELD-NOTES 16). The store and the rules are `ward_import::adoption`'s; this module only asks
//! them, from one place in [`crate::run::gate`].

use crate::error::GateError;
use crate::run::Inputs;
use std::path::{Path, PathBuf};
use ward_import::adoption::{self, Adoption};
use ward_model::Plan;

/// Why the gate refuses the plan (its lines for standard error), when the plan is for a root
/// that is being adopted and not accepted and changes more than imports; `None` lets the gate
/// go on. `config` is the `ward.hcl` in use, `cwd` the working directory.
pub fn refuse(
    plan: &Plan,
    inputs: &Inputs,
    config: Option<&Path>,
    cwd: &Path,
) -> Result<Option<String>, GateError> {
    let root_dir: Option<PathBuf> = inputs
        .root
        .clone()
        .or_else(|| crate::protect::has_terraform_files(cwd).then(|| cwd.to_path_buf()));
    let loaded = match config {
        Some(p) => Some(ward_config::Config::load(p, &p.display().to_string())?),
        None => None,
    };
    let db = inputs.db.clone().or_else(ward_store::default_path);
    let mut state = Adoption::NotStarted;
    let mut root_name = None;
    if let (Some(dir), Some(db)) = (&root_dir, &db) {
        let key = adoption::root_key(loaded.as_ref(), dir);
        // Never create a history database just to find it empty.
        if db.is_file() {
            let store = ward_store::Store::open(db).map_err(|e| {
                GateError::Usage(format!(
                    "cannot read the history database {}: {e}",
                    db.display()
                ))
            })?;
            state = adoption::status(&store, &key).map_err(|e| {
                GateError::Usage(format!(
                    "cannot read the history database {}: {e}",
                    db.display()
                ))
            })?;
        }
        root_name = Some(key);
    }
    let adopting = match state {
        Adoption::Accepted(_) => false,
        Adoption::Adopting => true,
        // A plan that imports is an adoption under way, recorded or not.
        Adoption::NotStarted => adoption::imports_anything(plan),
    };
    if !adopting {
        return Ok(None);
    }
    let refused = adoption::refusals(plan);
    if refused.is_empty() {
        return Ok(None);
    }
    let root = root_name.unwrap_or_else(|| "this root".to_string());
    let mut stderr = String::new();
    push_line(
        &mut stderr,
        &format!("error: {root} is being adopted with `ward import` and has no acceptance yet: the gate refuses every change other than an import"),
    );
    for r in &refused {
        push_line(&mut stderr, &format!("  refused: {r}"));
    }
    push_line(
        &mut stderr,
        "  help: plan only the imports, accept them with `ward import accept`, then plan the managed changes on their own (see `ward docs import`)",
    );
    Ok(Some(stderr))
}

/// One line of the refusal; escaped when printed (`ward_report::escape`, by ward-cli).
fn push_line(out: &mut String, line: &str) {
    out.push_str(line);
    out.push('\n');
}
