//! Embeds every `packs/*.hcl` file: lists the directory (sorted, so the table is deterministic) and
//! writes an `include_str!` table to `$OUT_DIR/packs.rs`. A new pack file is picked up without any
//! code change.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::PathBuf;

fn main() -> io::Result<()> {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let packs_dir = manifest_dir.join("packs");
    println!("cargo:rerun-if-changed=packs");

    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if packs_dir.is_dir() {
        for entry in fs::read_dir(&packs_dir)? {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("hcl") || !path.is_file() {
                continue;
            }
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                return Err(io::Error::other(format!(
                    "pack file name is not UTF-8: {}",
                    path.display()
                )));
            };
            println!("cargo:rerun-if-changed={}", path.display());
            files.push((name.to_string(), path.clone()));
        }
    }
    files.sort();

    let mut out = String::from(
        "/// Every embedded pack file: (file name, contents), sorted by file name.\n\
         pub(crate) static EMBEDDED_PACKS: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &files {
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");

    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    fs::write(out_dir.join("packs.rs"), out)
}
