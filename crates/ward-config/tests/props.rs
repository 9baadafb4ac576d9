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

    // Any printable text at all (moved from ward-repo's props when ward-repo stopped carrying
    // ward.hcl, #34).
    #[test]
    fn any_printable_text(s in "\\PC*") {
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

/// A generated drift `ignore`: address, attribute, owner, expiry (year, month, day).
type GenIgnore = (String, Option<String>, String, (i16, i8, i8));

/// A generated *valid* `ward.hcl`: roots on layers, a policy and drift rules, with the values
/// the generator chose, so the test can say what must read back.
#[derive(Debug, Clone)]
struct Valid {
    layers: Vec<(String, i64)>,
    roots: Vec<(String, String, Option<usize>, bool)>,
    approve: Vec<ward_model::Impact>,
    protect: Vec<String>,
    excludes: Vec<(String, String)>,
    ignores: Vec<GenIgnore>,
}

fn valid() -> impl Strategy<Value = Valid> {
    (
        prop::collection::btree_map("[a-z][a-z0-9_]{0,6}", 0i64..5, 0..3),
        prop::collection::btree_map(
            "[a-z][a-z0-9-]{0,6}",
            (
                "[a-z][a-z0-9_]{0,6}",
                any::<prop::sample::Index>(),
                any::<bool>(),
            ),
            0..4,
        ),
        prop::collection::btree_set(prop::sample::select(ward_model::Impact::ALL.to_vec()), 0..4),
        prop::collection::vec(
            "(module\\.[a-z]{1,4}\\.)?[a-z_]{1,8}\\.(\\*|[a-z]{1,6})",
            0..3,
        ),
        prop::collection::btree_map("[a-z]{1,6}(/\\*\\*)?", "[a-z]([a-z ]{0,10}[a-z])?", 0..3),
        prop::collection::vec(
            (
                "[a-z_]{1,6}\\.[a-z*]{1,5}",
                prop::option::of("[a-z_.]{1,8}"),
                "[a-z]{1,6}",
                (2000i16..2100, 1i8..=12, 1i8..=28),
            ),
            0..3,
        ),
    )
        .prop_map(|(layers, roots, approve, protect, excludes, ignores)| {
            let layers: Vec<(String, i64)> = layers.into_iter().collect();
            // Root paths must differ: one directory per root name.
            let roots = roots
                .into_iter()
                .map(|(name, (dir, layer, empty))| {
                    let layer = (!layers.is_empty()).then(|| layer.index(layers.len()));
                    (name.clone(), format!("live/{dir}/{name}"), layer, empty)
                })
                .collect();
            Valid {
                layers,
                roots,
                approve: approve.into_iter().collect(),
                protect,
                excludes: excludes.into_iter().collect(),
                ignores,
            }
        })
}

fn impact_name(i: ward_model::Impact) -> String {
    i.as_str().to_string()
}

fn write_valid(v: &Valid) -> String {
    let quoted = |xs: &[String]| {
        xs.iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut t = String::new();
    for (name, level) in &v.layers {
        t.push_str(&format!("layer \"{name}\" {{\n  level = {level}\n}}\n\n"));
    }
    for (name, path, layer, empty) in &v.roots {
        t.push_str(&format!("root \"{name}\" {{\n  path = \"{path}\"\n"));
        if let Some(l) = layer {
            t.push_str(&format!("  layer = \"{}\"\n", v.layers[*l].0));
        }
        t.push_str(&format!("  expect_empty = {empty}\n}}\n\n"));
    }
    let approve: Vec<String> = v.approve.iter().copied().map(impact_name).collect();
    t.push_str(&format!(
        "policy {{\n  approve = [{}]\n  protect = [{}]\n}}\n\n",
        quoted(&approve),
        quoted(&v.protect)
    ));
    t.push_str("drift {\n");
    for (pattern, reason) in &v.excludes {
        t.push_str(&format!(
            "  exclude \"{pattern}\" {{\n    reason = \"{reason}\"\n  }}\n"
        ));
    }
    for (address, attribute, owner, (y, m, d)) in &v.ignores {
        t.push_str(&format!("  ignore {{\n    address = \"{address}\"\n    owner = \"{owner}\"\n    expires = \"{y:04}-{m:02}-{d:02}\"\n"));
        if let Some(a) = attribute {
            t.push_str(&format!("    attribute = \"{a}\"\n"));
        }
        t.push_str("  }\n");
    }
    t.push_str("}\n");
    t
}

proptest! {
    /// Every generated valid file reads, and reads back what was written, in file order.
    #[test]
    fn valid_files_read_back(v in valid()) {
        let text = write_valid(&v);
        let c = match Config::parse(&text, "ward.hcl", Path::new("")) {
            Ok(c) => c,
            Err(e) => return Err(TestCaseError::fail(format!("{e}\n{text}"))),
        };
        let layers: Vec<(String, i64)> = c.layers.iter().map(|l| (l.name.clone(), l.level)).collect();
        prop_assert_eq!(layers, v.layers.clone());
        let roots: Vec<(String, String, Option<String>, bool)> = c.roots.iter().map(|r| (r.name.clone(), r.path.clone(), r.layer.clone(), r.expect_empty)).collect();
        let want: Vec<(String, String, Option<String>, bool)> = v.roots.iter().map(|(n, p, l, e)| (n.clone(), p.clone(), l.map(|i| v.layers[i].0.clone()), *e)).collect();
        prop_assert_eq!(roots, want);
        prop_assert_eq!(c.policy.approve.iter().copied().collect::<Vec<_>>(), v.approve.clone());
        prop_assert_eq!(&c.policy.protect, &v.protect);
        let excludes: Vec<(String, String)> = c.drift.excludes.iter().map(|e| (e.pattern.clone(), e.reason.clone())).collect();
        prop_assert_eq!(excludes, v.excludes.clone());
        prop_assert_eq!(c.drift.ignores.len(), v.ignores.len());
        for (got, (address, attribute, owner, (y, m, d))) in c.drift.ignores.iter().zip(&v.ignores) {
            prop_assert_eq!(&got.address, address);
            prop_assert_eq!(&got.attribute, attribute);
            prop_assert_eq!(&got.owner, owner);
            prop_assert_eq!(got.expires.to_string(), format!("{y:04}-{m:02}-{d:02}"));
            prop_assert!(got.line >= 1 && got.line <= text.lines().count());
        }
    }
}
