//! Root discovery, delegated to `ward-repo` (the same walker and heuristic as `ward check`: see
//! that crate's documentation), then narrowed: directories ignored by `.gitignore`/`.ignore` files
//! (honoured also outside a git checkout) are not roots for drift.
//!
//! This module is the single place discovery happens.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What the walk found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovered {
    /// Root directories, repository-relative, normalized, sorted.
    pub roots: BTreeSet<String>,
    /// Module directories (not roots), sorted.
    pub modules: BTreeSet<String>,
    /// Root directories left out because an ignore file covers them, sorted.
    pub ignored: BTreeSet<String>,
    /// Files that could not be parsed: `path:line` → error.
    pub unparsed: BTreeMap<String, String>,
}

/// A failed walk.
#[derive(Debug, thiserror::Error)]
#[error("cannot discover roots in {path}: {message}")]
pub struct DiscoverError {
    /// The repository.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

/// True for the file names Terraform or OpenTofu read as configuration (ward-repo owns the rule).
pub use ward_repo::is_config_file;

/// Walks `repo` and returns its roots and modules. `config` is the `ward.hcl` in use (ward-repo
/// reads its `root` blocks: a declared directory is a root even when called as a module).
pub fn discover(
    repo: &Path,
    config: Option<crate::config::Config>,
) -> Result<Discovered, DiscoverError> {
    let r = ward_repo::discover(
        repo,
        &ward_config::repo_options(config.as_ref(), Vec::new()),
    )
    .map_err(|e| DiscoverError {
        path: repo.to_path_buf(),
        message: e.to_string(),
    })?;
    let visible = visible_dirs(repo)?;
    let mut found = Discovered::default();
    for m in &r.modules {
        let dir = crate::config::normalize_rel(&m.dir);
        if m.kind == ward_repo::ModuleKind::Root {
            if visible.contains(&dir) {
                found.roots.insert(dir);
            } else {
                found.ignored.insert(dir);
            }
        } else {
            found.modules.insert(dir);
        }
    }
    for p in &r.problems {
        found
            .unparsed
            .insert(format!("{}:{}", p.loc.file, p.loc.line), p.message.clone());
    }
    Ok(found)
}

/// Every directory not covered by an ignore file, repository-relative.
fn visible_dirs(repo: &Path) -> Result<BTreeSet<String>, DiscoverError> {
    let mut out = BTreeSet::new();
    for entry in ward_repo::walk::Walk::new(repo).ignore_files(true) {
        let entry = entry.map_err(|e| DiscoverError {
            path: repo.to_path_buf(),
            message: e.to_string(),
        })?;
        if entry.is_dir() {
            out.insert(crate::config::normalize_rel(entry.rel()));
        }
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn finds_roots_not_modules_and_skips_ignored() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        let w = |p: &str, s: &str| {
            let p = r.join(p);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, s).unwrap();
        };
        let p = "provider \"fakecloud\" {}\n";
        w(
            "live/a/main.tf",
            &format!("{p}module \"m\" {{\n source = \"../../modules/m\"\n}}\n"),
        );
        w(
            "live/b/main.tf.json",
            r#"{"provider": {"fakecloud": {}}, "module": {"n": {"source": "./inner"}}}"#,
        );
        w("live/b/inner/main.tf", p);
        w("live/c/main.tofu", p);
        w(
            "modules/m/main.tf",
            "module \"x\" {\n source = \"git::https://example.invalid/x\"\n}\n",
        );
        w("live/a/.terraform/modules/m/main.tf", p);
        w(".gitignore", "scratch/\n");
        w("scratch/main.tf", p);
        w("broken/main.tf", "resource {{{");
        w("docs/readme.md", "");
        let f = discover(r, None).unwrap();
        let roots: Vec<&str> = f.roots.iter().map(String::as_str).collect();
        assert_eq!(roots, ["live/a", "live/b", "live/c"]);
        let modules: Vec<&str> = f.modules.iter().map(String::as_str).collect();
        assert!(
            modules.contains(&"live/b/inner") && modules.contains(&"modules/m"),
            "{modules:?}"
        );
        assert_eq!(
            f.ignored.iter().collect::<Vec<_>>(),
            [&"scratch".to_string()]
        );
        assert!(
            f.unparsed.keys().any(|k| k.starts_with("broken/main.tf")),
            "{:?}",
            f.unparsed
        );
    }

    #[test]
    fn repository_root_itself_can_be_a_root() {
        let d = tempfile::tempdir().unwrap();
        fs::write(
            d.path().join("main.tf"),
            "terraform {\n backend \"local\" {}\n}\n",
        )
        .unwrap();
        let f = discover(d.path(), None).unwrap();
        assert_eq!(f.roots.iter().collect::<Vec<_>>(), [&".".to_string()]);
    }
}
