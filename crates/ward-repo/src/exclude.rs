//! Paths discovery does not enter ([`crate::Options::exclude`]): `ward.hcl`'s
//! `drift { exclude }` and `check { exclude }` entries (ward-config reads them into this type)
//! and `ward check --exclude`.

use serde::Serialize;
use ward_model::pattern;

/// An `exclude "PATH" { reason = ... }` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exclude {
    /// The repository-relative path pattern, normalized (`*` matches any run, `/` included).
    pub pattern: String,
    /// Why it is excluded (required).
    pub reason: String,
    /// Line of the block.
    pub line: usize,
}

impl Exclude {
    /// Whether this exclusion covers the repository-relative `path`.
    pub fn matches(&self, path: &str) -> bool {
        pattern::matches(&self.pattern, path)
    }

    /// Whether this exclusion covers the repository-relative `path` or a directory above it
    /// (`deprecated` covers `deprecated/x/main.tf`): how `check { exclude }` applies.
    pub fn covers(&self, path: &str) -> bool {
        let mut at = path;
        loop {
            if self.matches(at) {
                return true;
            }
            match at.rsplit_once('/') {
                Some((parent, _)) => at = parent,
                None => return false,
            }
        }
    }
}
