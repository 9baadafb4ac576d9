//! Loading ward's knowledge: the built-in packs plus `ward.hcl` (given with `--config`, or found
//! from the current directory).

use crate::error::CliError;
use std::path::{Component, Path, PathBuf};
use ward_rules::Knowledge;

/// The built-in packs, plus the user rule file: `config` when given (it must exist), else the
/// `ward.hcl` that [`ward_rules::find_config`] finds from the current directory, if any.
pub fn load(config: Option<&Path>) -> Result<Knowledge, CliError> {
    let mut k = Knowledge::builtin().map_err(|e| {
        CliError::new(format!("a built-in rule pack does not load: {e}"))
            .hint("this is a bug in ward; please report it with the message above")
    })?;
    match config {
        Some(path) => {
            if path.is_dir() {
                return Err(CliError::new(format!(
                    "--config `{}` is a directory, not a rule file",
                    path.display()
                ))
                .hint("give the path of the ward.hcl file itself"));
            }
            if !path.exists() {
                return Err(CliError::new(format!(
                    "--config `{}` does not exist",
                    path.display()
                ))
                .hint("check the path, or leave --config out to use the ward.hcl at the repository root"));
            }
            k.load_user_file(path)?;
        }
        None => {
            let cwd = std::env::current_dir().map_err(|e| {
                CliError::new(format!("cannot read the current directory: {e}"))
                    .hint("run ward from an existing directory, or pass --config FILE")
            })?;
            if let Some(found) = ward_rules::find_config(&cwd) {
                k.load_user_file(&relative_to(&found, &cwd))?;
            }
        }
    }
    Ok(k)
}

/// `path` relative to `base` when `path` lies in `base` or one of its ancestors (reports then cite
/// `ward.hcl` or `../ward.hcl`, not a machine-specific absolute path); otherwise `path`.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let base = Path::new("/nonexistent-ward/a/b");
        assert_eq!(
            relative_to(Path::new("/nonexistent-ward/a/b/ward.hcl"), base),
            PathBuf::from("ward.hcl")
        );
        assert_eq!(
            relative_to(Path::new("/nonexistent-ward/ward.hcl"), base),
            PathBuf::from("../../ward.hcl")
        );
        assert_eq!(
            relative_to(Path::new("/elsewhere/ward.hcl"), base),
            PathBuf::from("/elsewhere/ward.hcl")
        );
    }
}
