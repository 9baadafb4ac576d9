//! Fuzz target: the plan reader's one-pass check of a value it skips (`unique::valid`) must
//! accept only what serde_json skips, with the same length and no key twice in one object,
//! and must accept every such value whose keys hold no escape. The body is
//! `ward_plan::fuzzing::skip_value`, which the reader's property test also holds it to.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = ward_plan::fuzzing::skip_value(data) {
        panic!("the one-pass check and serde_json disagree: {broken}");
    }
});
