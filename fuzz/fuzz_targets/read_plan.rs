//! Fuzz target: any bytes given to the plan reader must give a plan or a `PlanError`, never a
//! panic, a stack overflow or an abort. The body is `ward_plan::fuzzing::read_bytes`, which the
//! property tests (`crates/ward-plan/tests/props.rs`) also run on stable Rust.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = ward_plan::fuzzing::read_bytes(data) {
        panic!("invariant broken: {broken}");
    }
});
