//! Property tests: no input panics the reader (the fuzz target's body, on stable), and no value
//! marked sensitive ever reaches the model (which is what every output format prints).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use ward_plan::{fuzzing, read_reader};

fn base_plan() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "planned_values": {"root_module": {"resources": [{"values": {"a": [1, {"b": null}]}}]}},
        "resource_changes": [{
            "address": "module.m.fake_thing.a[0]", "module_address": "module.m",
            "mode": "managed", "type": "fake_thing", "name": "a", "index": 0,
            "provider_name": "registry.terraform.io/example/fake",
            "action_reason": "replace_because_cannot_update",
            "change": {"actions": ["delete", "create"],
                       "before": {"size": 1, "tags": {"k": "v"}, "l": [1, 2]},
                       "after": {"size": 2, "tags": {"k": "w"}, "l": [1, 2, 3], "id": null},
                       "after_unknown": {"id": true},
                       "before_sensitive": {"tags": {"k": true}},
                       "after_sensitive": {"tags": {"k": true}},
                       "replace_paths": [["size"]]}
        }],
        "resource_drift": [],
        "output_changes": {"o": {"actions": ["create"], "before": null, "after": "x"}},
        "prior_state": {"values": {"root_module": {"resources": [
            {"mode": "managed", "type": "fake_thing", "provider_name": "p", "values": {}}],
            "child_modules": [{"resources": []}]}}},
        "configuration": {"root_module": {"resources": [
            {"mode": "managed", "type": "fake_thing", "provider_config_key": "fake"}],
            "module_calls": {"m": {"module": {"resources": []}}}}}
    }))
    .expect("json")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// Arbitrary bytes.
    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        prop_assert_eq!(fuzzing::read_bytes(&data), Ok(()));
    }

    /// A real-shaped plan with bytes replaced, inserted or removed, or cut short.
    #[test]
    fn mutated_plans_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 0..8),
        cut in any::<prop::sample::Index>(),
        do_cut in any::<bool>(),
    ) {
        let mut data = base_plan();
        for (at, byte, op) in edits {
            let i = at.index(data.len());
            match op {
                0 => data[i] = byte,
                1 => data.insert(i, byte),
                2 => { data.remove(i); }
                _ => data.insert(i, b"{[\"]}:,0"[byte as usize % 8]),
            }
        }
        if do_cut {
            data.truncate(cut.index(data.len() + 1));
        }
        prop_assert_eq!(fuzzing::read_bytes(&data), Ok(()));
    }

    /// UTF-16 (either order, with a byte order mark) of a mutated plan.
    #[test]
    fn utf16_never_panics(be in any::<bool>(), cut in any::<prop::sample::Index>()) {
        let text = String::from_utf8(base_plan()).expect("utf8");
        let mut data = if be { vec![0xFE, 0xFF] } else { vec![0xFF, 0xFE] };
        for u in text.encode_utf16() {
            data.extend_from_slice(&if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        let n = cut.index(data.len() + 1);
        prop_assert_eq!(fuzzing::read_bytes(&data[..n]), Ok(()));
    }
}

/// A value tree where some parts are sensitive. Sensitive leaves hold unique `SECRET…`
/// strings; nothing else ever contains `SECRET`.
#[derive(Debug, Clone)]
enum Tree {
    Leaf(Value),
    Secret,
    Hidden(Box<Tree>),
    Obj(Vec<(String, Tree)>),
    List(Vec<Tree>),
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        4 => prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (0i64..5).prop_map(|n| json!(n)),
            "[a-z]{0,3}".prop_map(Value::String),
            (1usize..3).prop_map(|n| Value::String("long".repeat(60 * n))),
        ].prop_map(Tree::Leaf),
        1 => Just(Tree::Secret),
    ];
    leaf.prop_recursive(5, 48, 4, |inner| {
        prop_oneof![
            3 => proptest::collection::vec((prop::sample::select(vec!["a", "b", "c", "d"]), inner.clone()), 0..4)
                .prop_map(|kv| Tree::Obj(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            2 => proptest::collection::vec(inner.clone(), 0..3).prop_map(Tree::List),
            1 => inner.prop_map(|t| Tree::Hidden(Box::new(t))),
        ]
    })
}

/// The value, its sensitive mask (`false` where nothing is sensitive) and, for an `after`
/// side, an `after_unknown` mask. `n` numbers the secrets.
fn render(t: &Tree, n: &mut u32, all_secret: bool) -> (Value, Value) {
    match t {
        Tree::Leaf(v) if all_secret => {
            *n += 1;
            let _ = v;
            (json!(format!("SECRET{n}")), Value::Bool(true))
        }
        Tree::Leaf(v) => (v.clone(), Value::Bool(false)),
        Tree::Secret => {
            *n += 1;
            (json!(format!("SECRET{n}")), Value::Bool(true))
        }
        Tree::Hidden(inner) => {
            let (v, _) = render(inner, n, true);
            (v, Value::Bool(true))
        }
        Tree::Obj(kv) => {
            let mut vals = Map::new();
            let mut mask = Map::new();
            for (k, t) in kv {
                let (v, m) = render(t, n, all_secret);
                if m != Value::Bool(false) {
                    mask.insert(k.clone(), m);
                } else {
                    mask.remove(k);
                }
                vals.insert(k.clone(), v);
            }
            (Value::Object(vals), Value::Object(mask))
        }
        Tree::List(items) => {
            let mut vals = Vec::new();
            let mut mask = Vec::new();
            for t in items {
                let (v, m) = render(t, n, all_secret);
                vals.push(v);
                mask.push(m);
            }
            (Value::Array(vals), Value::Array(mask))
        }
    }
}

/// An `after_unknown` mask shaped like the value, `true` where `pick` says.
fn unknown_mask(v: &Value, pick: &mut impl Iterator<Item = bool>) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), unknown_mask(v, pick)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|v| unknown_mask(v, pick)).collect()),
        _ => Value::Bool(pick.next().unwrap_or(false)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, .. ProptestConfig::default() })]

    /// No value marked sensitive, in any position or shape, appears in the serialized model.
    #[test]
    fn no_sensitive_value_reaches_the_model(
        before in tree(),
        after in tree(),
        unknowns in proptest::collection::vec(any::<bool>(), 0..16),
        actions in prop::sample::select(vec![
            vec!["update"], vec!["delete", "create"], vec!["create", "delete"],
            vec!["create"], vec!["delete"], vec!["no-op"],
        ]),
        drift in any::<bool>(),
    ) {
        let mut n = 0;
        let (bv, bs) = render(&before, &mut n, false);
        let (av, as_) = render(&after, &mut n, false);
        let au = unknown_mask(&av, &mut unknowns.into_iter());
        let entry = json!({
            "address": "fake_thing.a", "mode": "managed", "type": "fake_thing", "name": "a",
            "provider_name": "registry.terraform.io/example/fake",
            "change": {"actions": actions, "before": {"v": bv}, "after": {"v": av},
                       "after_unknown": {"v": au},
                       "before_sensitive": {"v": bs}, "after_sensitive": {"v": as_}}
        });
        let doc = json!({
            "format_version": "1.2",
            "planned_values": {},
            "resource_changes": [entry.clone()],
            "resource_drift": if drift { json!([entry]) } else { json!([]) },
            "output_changes": {"o": {"actions": ["update"], "before": "SECRET-out",
                                     "after": "SECRET-out2", "before_sensitive": true,
                                     "after_sensitive": true}},
            "variables": {"pw": {"value": "SECRET-var"}}
        });
        let bytes = serde_json::to_vec(&doc).expect("json");
        let plan = read_reader(bytes.as_slice(), "prop").expect("a valid plan");
        let out = serde_json::to_string(&plan).expect("serialize");
        prop_assert!(!out.contains("SECRET"), "leaked: {}", out);
        let debug = format!("{plan:?}");
        prop_assert!(!debug.contains("SECRET"), "leaked in Debug: {}", debug);
        prop_assert_eq!(fuzzing::read_bytes(&bytes), Ok(()));
    }
}
