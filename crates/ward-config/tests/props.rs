//! Property tests: reading `ward.hcl` never panics, whatever the input, and every error names
//! the file with a line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use std::path::Path;
use ward_config::Config;

fn never_panics(text: &str) {
    if let Err(e) = Config::parse(text, "ward.hcl", Path::new("")) {
        assert!(e.to_string().starts_with("ward.hcl"), "{e}");
    }
}

proptest! {
    #[test]
    fn any_text(s in "[a-z_\"{}=\\[\\], \n0-9*./-]{0,200}") {
        never_panics(&s);
    }

    #[test]
    fn any_block_body(body in "[a-z_\"=\\[\\], \n0-9*./-]{0,120}") {
        for block in ["policy", "guard \"g\"", "check", "root \"r\"", "layer \"l\"", "drift", "drift {\n ignore", "check {\n rule \"X\""] {
            let close = if block.contains('\n') { "}\n}" } else { "}" };
            never_panics(&format!("{block} {{\n{body}\n{close}\n"));
        }
    }

    #[test]
    fn durations_round_trip(n in 0u64..1_000_000, unit in prop::sample::select(vec!['s', 'm', 'h', 'd', 'w'])) {
        let d = ward_time::parse_duration(&format!("{n}{unit}")).unwrap();
        let mult = match unit { 's' => 1, 'm' => 60, 'h' => 3600, 'd' => 86_400, _ => 604_800 };
        prop_assert_eq!(d.as_secs(), n * mult);
    }

    #[test]
    fn durations_never_panic(s in ".{0,40}") {
        let _ = ward_time::parse_duration(&s);
    }

    #[test]
    fn dates_round_trip(y in 1900i16..2200, m in 1i8..=12, d in 1i8..=31) {
        let text = format!("{y:04}-{m:02}-{d:02}");
        let real = ward_time::Date::new(y, m, d).is_ok();
        prop_assert_eq!(ward_time::parse_date(&text).is_ok(), real, "{}", text);
    }

    #[test]
    fn patterns(p in "[a-z.*\\[\\]\"0-9]{0,20}", t in "[a-z.\\[\\]\"0-9]{0,30}") {
        use ward_model::pattern::{matches, strip_instance_keys};
        let _ = matches(&p, &t);
        let _ = strip_instance_keys(&t);
        prop_assert!(matches("*", &t));
        prop_assert!(matches(&t, &t));
    }
}
