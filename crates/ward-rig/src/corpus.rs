//! The shared corpus of real plans (`WARD_CORPUS`) in tests: every `.json` file under it.

use std::path::{Path, PathBuf};

/// Every `.json` file under `WARD_CORPUS`, sorted by path; `None` (after saying the test was
/// skipped) when the variable is unset. A corpus that is set but holds no `.json` file fails.
#[allow(clippy::panic)]
pub fn json_files() -> Option<Vec<PathBuf>> {
    let Some(root) = std::env::var_os("WARD_CORPUS") else {
        eprintln!("skipped: WARD_CORPUS is not set");
        return None;
    };
    let root = PathBuf::from(root);
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(
        !files.is_empty(),
        "WARD_CORPUS={} holds no .json files",
        root.display()
    );
    Some(files)
}

#[allow(clippy::panic)]
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => panic!("WARD_CORPUS: cannot read {}: {e}", dir.display()),
    };
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}
