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

proptest! {
    /// The stack's blocks never panic on any body, and a valid declaration reads back as written.
    #[test]
    fn stack_blocks(body in "[a-z_\"=\\[\\], \n0-9*./{}-]{0,120}") {
        for block in ["stack", "root \"r\" {\n path = \"r\"\n site \"s\"", "root \"r\" {\n path = \"r\"\n pre_destroy \"p\""] {
            let close = if block.contains('\n') { "}\n}" } else { "}" };
            never_panics(&format!("{block} {{\n{body}\n{close}\n"));
        }
    }

    #[test]
    fn sites_read_back(
        sites in prop::collection::btree_set("[a-z][a-z0-9-]{0,8}", 1..5),
        files in prop::collection::vec("[a-z][a-z0-9_.]{0,10}", 0..3),
        level in 0i64..5,
    ) {
        let mut text = format!("layer \"l\" {{\n  level = {level}\n}}\nroot \"r\" {{\n  path = \"r\"\n  layer = \"l\"\n");
        for s in &sites {
            let list: Vec<String> = files.iter().map(|f| format!("\"{f}\"")).collect();
            text.push_str(&format!("  site \"{s}\" {{\n    var_files = [{}]\n    backend_config = {{ path = \"/state/{s}.tfstate\" }}\n  }}\n", list.join(", ")));
        }
        text.push_str("}\n");
        let c = Config::parse(&text, "ward.hcl", Path::new("")).unwrap();
        let got: Vec<&str> = c.roots[0].stack.sites.iter().map(|s| s.name.as_str()).collect();
        let want: Vec<&str> = sites.iter().map(String::as_str).collect();
        prop_assert_eq!(got, want);
        for s in &c.roots[0].stack.sites {
            prop_assert_eq!(&s.var_files, &files);
            prop_assert_eq!(s.backend_config.get("path").cloned(), Some(format!("/state/{}.tfstate", s.name)));
        }
    }
}
