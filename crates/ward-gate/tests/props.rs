//! Property tests: the parsers never panic, whatever the input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use std::path::Path;
use ward_gate::{approvals, duration, glob, policy};

proptest! {
    #[test]
    fn duration_never_panics(s in ".{0,40}") {
        let _ = duration::parse_duration(&s);
    }

    #[test]
    fn durations_round_trip(n in 0u64..1_000_000, unit in prop::sample::select(vec!['s', 'm', 'h', 'd', 'w'])) {
        let d = duration::parse_duration(&format!("{n}{unit}")).unwrap();
        let mult = match unit { 's' => 1, 'm' => 60, 'h' => 3600, 'd' => 86_400, _ => 604_800 };
        prop_assert_eq!(d.as_secs(), n * mult);
    }

    #[test]
    fn policy_never_panics(s in "[a-z_\"{}=\\[\\], \n0-9*.-]{0,200}") {
        let _ = policy::parse_policy(&s, "ward.hcl", Path::new(""));
    }

    #[test]
    fn policy_blocks_never_panic(body in "[a-z_\"=\\[\\], \n0-9*.-]{0,120}") {
        let _ = policy::parse_policy(&format!("policy {{\n{body}\n}}\n"), "ward.hcl", Path::new(""));
        let _ = policy::parse_policy(&format!("guard \"g\" {{\n{body}\n}}\n"), "ward.hcl", Path::new(""));
    }

    #[test]
    fn approvals_never_panic(s in ".{0,200}") {
        let _ = approvals::parse(&s, "approvals.json");
    }

    #[test]
    fn globs(p in "[a-z.*\\[\\]\"0-9]{0,20}", t in "[a-z.\\[\\]\"0-9]{0,30}") {
        let _ = glob::glob_match(&p, &t);
        let _ = glob::strip_instance_keys(&t);
        prop_assert!(glob::glob_match("*", &t));
        prop_assert!(glob::glob_match(&t, &t));
    }
}
