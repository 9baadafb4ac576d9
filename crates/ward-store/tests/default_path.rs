//! The default history file is built from the base directories the caller read (#34: ward-store
//! reads no environment).

use std::path::{Path, PathBuf};
use ward_store::default_path;

#[test]
fn state_home_first_then_home() {
    let state = Path::new("/s");
    let home = Path::new("/h");
    assert_eq!(
        default_path(Some(state), Some(home)),
        Some(PathBuf::from("/s/ward/drift.sqlite"))
    );
    assert_eq!(
        default_path(None, Some(home)),
        Some(PathBuf::from("/h/.local/state/ward/drift.sqlite"))
    );
    assert_eq!(default_path(None, None), None);
}

#[test]
fn an_empty_value_is_unset() {
    let empty = Path::new("");
    assert_eq!(
        default_path(Some(empty), Some(Path::new("/h"))),
        Some(PathBuf::from("/h/.local/state/ward/drift.sqlite"))
    );
    assert_eq!(default_path(Some(empty), Some(empty)), None);
}
