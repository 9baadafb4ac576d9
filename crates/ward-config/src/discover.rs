//! The one discovery rule for `ward.hcl`, shared by every command.

use crate::ConfigError;
use std::path::{Component, Path, PathBuf};

/// A `ward.hcl` to read: where it is, and how messages and reports cite it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The file.
    pub path: PathBuf,
    /// How it is cited: as given with `--config`, or relative to the directory the command
    /// works on (`ward.hcl`, `../../ward.hcl`).
    pub display: String,
}

/// Which `ward.hcl` a command uses.
///
/// - `explicit` (`--config FILE`) when given: it must be a file.
/// - Otherwise walk up from `start` (the directory the command works on: the current directory
///   for plan/gate/approve/verify, `DIR` for `ward check DIR`, the repository for `ward drift`)
///   to the repository root, the first directory that holds `.git`, and take the first
///   `ward.hcl` on the way. Outside a repository (no `.git` in `start` or above it) only
///   `start` itself is looked at, so a stray `ward.hcl` in a parent directory is never picked up.
///
/// `Ok(None)` when there is none: every section takes its defaults.
pub fn discover(explicit: Option<&Path>, start: &Path) -> Result<Option<Found>, ConfigError> {
    if let Some(p) = explicit {
        let problem = if p.is_dir() {
            Some("is a directory, not a configuration file")
        } else if !p.is_file() {
            Some("does not exist")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(ConfigError {
                file: p.display().to_string(),
                line: 0,
                column: 0,
                message: format!("--config {} {problem}", p.display()),
                help: Some(
                    "give the path of a ward.hcl file, or leave --config out to use the one found from the directory ward works on"
                        .to_string(),
                ),
            });
        }
        return Ok(Some(Found {
            path: p.to_path_buf(),
            display: p.display().to_string(),
        }));
    }
    let start_abs = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let in_repo = start_abs.ancestors().any(|d| d.join(".git").exists());
    for dir in start_abs.ancestors() {
        let candidate = dir.join("ward.hcl");
        if candidate.is_file() {
            return Ok(Some(Found {
                display: relative_to(&candidate, &start_abs).display().to_string(),
                path: candidate,
            }));
        }
        if !in_repo || dir.join(".git").exists() {
            break;
        }
    }
    Ok(None)
}

/// `path` relative to `base` when `path`'s directory is `base` or one of its ancestors (so
/// reports cite `ward.hcl` or `../ward.hcl`, not a machine-specific absolute path); otherwise
/// `path` unchanged.
pub fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return path.to_path_buf();
    };
    let Ok(rest) = base.strip_prefix(dir) else {
        return path.to_path_buf();
    };
    let mut rel = PathBuf::new();
    for c in rest.components() {
        if matches!(c, Component::Normal(_)) {
            rel.push("..");
        }
    }
    rel.push(name);
    rel
}
