//! Fuzz target: a `resource_changes` entry read in one pass over its bytes (the walk's way
//! when nothing needs the entry's whole values) must read only what the seeds read, to the
//! same length and the same model; and the same bytes as a `prior_state` resource, read in
//! one pass, only what the walk reads of it key by key. The body is
//! `ward_plan::fuzzing::entry`, which the reader's property tests also hold it to.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = ward_plan::fuzzing::entry(data) {
        panic!("the one-pass entry and the seeds disagree: {broken}");
    }
});
