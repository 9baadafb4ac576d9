//! `ward.hcl` on arbitrary bytes: every input gives a `Config` or a `ConfigError` (whose message
//! renders), never a panic. Run from crates/ward-config/fuzz (see README.md there).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match ward_config::Config::parse(text, "ward.hcl", std::path::Path::new("/repo")) {
            Ok(config) => {
                // The checks every command runs on a loaded config must not panic either.
                let _ = config.check_gate_files();
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
