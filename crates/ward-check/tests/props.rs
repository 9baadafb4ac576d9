//! The text parsers of ward check never panic, whatever the input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use ward_check::scan::{key_material, parse_date, suppressions};

proptest! {
    #[test]
    fn suppression_comments(s in "\\PC*") {
        let _ = suppressions("f.tf", &format!("# ward:ignore {s}\nmodule \"x\" {{\n}}\n"));
        let _ = suppressions("f.tf", &s);
    }

    #[test]
    fn key_scan(s in "\\PC*") {
        let mut out = Vec::new();
        key_material("f.tf", &s, &mut out);
    }

    #[test]
    fn key_values_are_never_shown(pre in "[a-z =\"]{0,10}", id in "[A-Z2-7]{16}", post in "[a-z \"]{0,10}") {
        let key = format!("AKIA{id}");
        let mut out = Vec::new();
        key_material("f.tf", &format!("{pre}{key}{post}\n"), &mut out);
        for f in &out {
            prop_assert!(!f.message.contains(&key));
            prop_assert!(!f.message.contains(&id));
        }
    }

    #[test]
    fn dates(s in "\\PC*") {
        let _ = parse_date(&s);
    }
}
