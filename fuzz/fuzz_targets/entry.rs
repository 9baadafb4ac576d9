//! Fuzz target: a `resource_changes` entry read in one pass over its bytes (the walk's way
//! when nothing needs the entry's whole values) must read only what the seeds read, to the
//! same length and the same model. The body is `ward_plan::fuzzing::entry`, which the
//! reader's property test also holds it to.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = ward_plan::fuzzing::entry(data) {
        panic!("the one-pass entry and the seeds disagree: {broken}");
    }
});
