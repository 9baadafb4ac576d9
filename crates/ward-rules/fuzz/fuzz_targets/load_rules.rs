//! `cargo +nightly fuzz run load_rules` (from crates/ward-rules/fuzz): the rule loader on
//! arbitrary bytes, as a user file and as a pack.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = ward_rules::fuzzing::load_bytes(data) {
        panic!("{broken}");
    }
});
