//! Helpers shared by the `ward` binary's test files.

use std::path::PathBuf;

/// A file of `tests/data`, as a path string.
pub fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}
