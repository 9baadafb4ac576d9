//! The default history file is built from the state directory the caller computed (#34:
//! ward-store reads no environment; ward-cli's `context::BaseDirs` finds the directory).

use std::path::{Path, PathBuf};
use ward_store::default_path;

#[test]
fn the_history_file_is_in_wards_directory_of_the_state_directory() {
    assert_eq!(
        default_path(Path::new("/s")),
        PathBuf::from("/s/ward/drift.sqlite")
    );
    assert_eq!(
        default_path(Path::new("/h/.local/state")),
        PathBuf::from("/h/.local/state/ward/drift.sqlite")
    );
}
