//! A root being adopted with `ward import` is not managed until it is accepted: before its
//! `import-acceptance`, the gate refuses every change in it other than an import (exit 1), so
//! the adoption's zero-diff measurement can never be confused with a managed change
//! (FIELD-NOTES 16). The store and the rules are `ward_import::adoption`'s; this module only asks
//! them, from one place in [`crate::run::gate`].

use crate::error::GateError;
use std::path::{Path, PathBuf};
use ward_config::Config;
use ward_import::adoption::{self, Adoption};
use ward_model::ResourceChange;

/// What the adoption check keeps of a plan read change by change: whether any change imports,
/// and the positions (in the plan's order) of the changes a root being adopted refuses
/// ([`ward_import::adoption::is_refused`]); nothing else of the changes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imports {
    /// Some change imports an object.
    pub any: bool,
    /// The positions of the refused changes, in the plan's order.
    pub refused: Vec<usize>,
}

impl Imports {
    /// Notes the change at `position` (its index among the plan's `resource_changes`).
    pub fn add(&mut self, position: usize, c: &ResourceChange) {
        self.any |= c.importing.is_some();
        if adoption::is_refused(c) {
            self.refused.push(position);
        }
    }
}

/// Why the gate refuses the plan (its lines for standard error), when the plan is for a root
/// that is being adopted and not accepted and changes more than imports; `None` lets the gate
/// go on. `imports` is what [`Imports::add`] kept of the plan's changes; `lines` gives the
/// refusal line ([`ward_import::adoption::refusal_line`]) of the changes at those positions.
/// `root` is `--root` (else the working directory when it holds Terraform files), `history`
/// where `ward import` records adoptions (`None`: none is read), `config` the `ward.hcl` in use
/// (read by the caller), `cwd` the working directory.
pub fn refuse(
    imports: &Imports,
    lines: &dyn Fn(&[usize]) -> Vec<String>,
    root: Option<&Path>,
    history: Option<&ward_store::Location>,
    config: Option<&Config>,
    cwd: &Path,
) -> Result<Option<String>, GateError> {
    let root_name = root_name(root, config, cwd);
    let mut state = Adoption::NotStarted;
    if let (Some(key), Some(history)) = (&root_name, history) {
        // Never create a history database just to find it empty.
        let exists = match history {
            ward_store::Location::Sqlite(p) => p.is_file(),
            ward_store::Location::Postgres(_) => true,
        };
        if exists {
            let unreadable = |e: ward_store::StoreError| {
                GateError::Usage(format!("cannot read the history database {history}: {e}"))
            };
            let store = ward_store::Store::open_location(history).map_err(unreadable)?;
            state = adoption::status(&store, key).map_err(unreadable)?;
        }
    }
    let adopting = match state {
        Adoption::Accepted(_) => false,
        Adoption::Adopting => true,
        // A plan that imports is an adoption under way, recorded or not.
        Adoption::NotStarted => imports.any,
    };
    if !adopting {
        return Ok(None);
    }
    let refused = lines(&imports.refused);
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

/// The root the plan was made in as the history names it (its name in `ward.hcl`, else its
/// path): `--root`, else the working directory when it holds Terraform files; `None` when
/// there is neither.
pub fn root_name(root: Option<&Path>, config: Option<&Config>, cwd: &Path) -> Option<String> {
    let root_dir: Option<PathBuf> = root
        .map(Path::to_path_buf)
        .or_else(|| crate::protect::has_terraform_files(cwd).then(|| cwd.to_path_buf()));
    root_dir.map(|dir| adoption::root_key(config, &dir))
}

/// One line of the refusal; escaped when printed (`ward_report::escape`, by ward-cli).
fn push_line(out: &mut String, line: &str) {
    out.push_str(line);
    out.push('\n');
}
