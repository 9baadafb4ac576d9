//! Native and JSON Terraform syntax: never a panic, whatever the bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ward_repo::parse_file_text("m/main.tf", text);
        let _ = ward_repo::parse_file_text("m/main.tf.json", text);
    }
});
