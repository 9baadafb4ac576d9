//! Fuzz target: `ward.hcl` read by ward-config (every section: roots, layers, check, policy
//! and guards, drift, plan, stack, render, waivers, history, and the `resource` rule blocks).
//! Any text gives a `Config` or a `ConfigError`, never a panic; and:
//! - an error names the file and points at a line of it (or 0: the file as a whole);
//! - a byte order mark changes nothing (the same config or the same error);
//! - a config that reads serializes (every report and `ward config` output does).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use ward_config::Config;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let dir = Path::new("/nonexistent-ward-fuzz");
    let read = Config::parse(text, "ward.hcl", dir);
    let lines = text.split('\n').count();
    match &read {
        Ok(c) => {
            if let Err(e) = serde_json::to_string(c) {
                panic!("a config that reads does not serialize: {e}");
            }
        }
        Err(e) => {
            assert_eq!(e.file, "ward.hcl", "the error names another file: {e}");
            assert!(
                e.line <= lines,
                "the error points at line {} of {lines}: {e}",
                e.line
            );
            assert!(!e.message.is_empty(), "an error without a message");
        }
    }
    if !text.starts_with('\u{feff}') {
        let with_bom = format!("\u{feff}{text}");
        let again = Config::parse(&with_bom, "ward.hcl", dir);
        assert_eq!(again, read, "a byte order mark changes what ward.hcl means");
    }
});
