//! Property tests: the parsers never panic, whatever the input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use ward_gate::approvals;

proptest! {
    #[test]
    fn approvals_never_panic(s in ".{0,200}") {
        let _ = approvals::parse(&s, "approvals.json");
    }
}
