//! The body of the cargo-fuzz target (`crates/ward-rules/fuzz/fuzz_targets/load_rules.rs`), as a
//! plain function so the property tests run it on stable Rust too.

use crate::{Knowledge, RulesError};

/// Loads `data` as a user rule file and as a pack. Any result is acceptable; a panic is the bug
/// being looked for. Errors are checked for invariants that need no oracle: every error names the
/// file, says what to do (`help`), and points at a line that exists. `Err` says which invariant
/// broke (the fuzz target panics on it).
pub fn load_bytes(data: &[u8]) -> Result<(), String> {
    let Ok(text) = std::str::from_utf8(data) else {
        return Ok(());
    };
    let lines = text.split('\n').count();
    let check = |e: RulesError| -> Result<(), String> {
        if e.help.is_none() {
            return Err(format!("error without help: {e}"));
        }
        if e.file != "fuzz.hcl" {
            return Err(format!("error names the wrong file: {e}"));
        }
        if let Some(line) = e.line {
            if line == 0 || line > lines {
                return Err(format!("error points at line {line} of {lines}: {e}"));
            }
        }
        Ok(())
    };
    let mut k = Knowledge::empty();
    match k.load_user_str("fuzz.hcl", text) {
        Ok(()) => {
            // A loaded file lists and serializes.
            for t in k.types() {
                serde_json::to_string(&t)
                    .map_err(|e| format!("types() does not serialize: {e}"))?;
            }
        }
        Err(e) => check(e)?,
    }
    match Knowledge::from_pack_sources(&[("fuzz.hcl", text)]) {
        Ok(k) => {
            if k.packs().len() != 1 {
                return Err("a loaded pack file must give exactly one pack".into());
            }
            Ok(())
        }
        Err(e) => check(e),
    }
}
