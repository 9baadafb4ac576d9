//! Embeds the documents `ward docs TOPIC` prints, deflated: `docs/packs.md` alone is 3.8 MB of
//! generated tables, most of the binary's size after the packs. Each document is compressed at
//! build time into `$OUT_DIR/docs/TOPIC.md.z`, and `$OUT_DIR/docs.rs` lists (topic, title,
//! compressed bytes, length); `ward docs` inflates only the one it prints.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

/// The documents, by topic. A message that says `ward docs TOPIC` must name one of them
/// (tests/docs.rs checks every such pointer).
const TOPICS: &[&str] = &[
    "authoritative",
    "check-rules",
    "ci",
    "cli",
    "config",
    "dashboard",
    "drift",
    "exit-codes",
    "gate",
    "import",
    "json-schema",
    "packs",
    "performance",
    "rules",
    "stack",
];

/// A build error: cargo prints it and fails the build.
fn fail(what: String) -> Box<dyn std::error::Error> {
    what.into()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // crates/ward-cli/docs is a link to the repository's docs/, so the packaged crate has them.
    let docs = manifest.join("docs");
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    let dir = out.join("docs");
    fs::create_dir_all(&dir).map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    let mut table = String::from("&[\n");
    for topic in TOPICS {
        let path = docs.join(format!("{topic}.md"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = fs::read_to_string(&path)
            .map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
        let title = text
            .lines()
            .find_map(|l| l.strip_prefix("# "))
            .unwrap_or("")
            .to_string();
        let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
        let file = dir.join(format!("{topic}.md.z"));
        fs::write(&file, &packed)
            .map_err(|e| fail(format!("cannot write {}: {e}", file.display())))?;
        let _ = writeln!(
            table,
            "    Doc {{ topic: {topic:?}, title: {title:?}, deflated: include_bytes!({:?}), len: {} }},",
            file.display().to_string(),
            text.len()
        );
    }
    table.push_str("]\n");
    fs::write(out.join("docs.rs"), table)
        .map_err(|e| fail(format!("cannot write docs.rs: {e}")))?;
    Ok(())
}
