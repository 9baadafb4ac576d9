//! A value marked sensitive never appears in a verdict, an explanation or the serialized
//! assessment. Driven from plan JSON through the real reader (ward-plan), with random values and
//! random sensitive masks, including wholly sensitive maps whose keys are secret too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::fakecloud;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use ward_classify::{assess, Options};

/// One attribute of one side of a change.
#[derive(Debug, Clone)]
enum Side {
    /// A string; `true` = sensitive.
    Str(bool),
    /// A map with `n` keys; `Whole` = the map is sensitive (keys too), `Keys(mask)` = these
    /// values are sensitive.
    Map(u8, MapMask),
}

#[derive(Debug, Clone)]
enum MapMask {
    Whole,
    Keys(Vec<bool>),
}

#[derive(Debug, Clone)]
struct AttrSpec {
    name: usize,
    before: Side,
    after: Side,
    same: bool,
}

#[derive(Debug, Clone)]
struct ResSpec {
    type_idx: usize,
    action: usize,
    attrs: Vec<AttrSpec>,
    replace_first: bool,
}

const TYPES: &[&str] = &[
    "fakecloud_instance",
    "fakecloud_volume",
    "fakecloud_bucket",
    "acme_unknown",
];
const NAMES: &[&str] = &[
    "name",
    "size",
    "image",
    "admin_password",
    "tags",
    "size_gb",
    "id",
    "ip",
    "note",
];
const ACTIONS: &[&[&str]] = &[
    &["update"],
    &["delete", "create"],
    &["create", "delete"],
    &["delete"],
    &["create"],
    &["no-op"],
    &["forget"],
];

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![
        any::<bool>().prop_map(Side::Str),
        (
            1u8..4,
            prop_oneof![
                Just(MapMask::Whole),
                prop::collection::vec(any::<bool>(), 3).prop_map(MapMask::Keys),
            ]
        )
            .prop_map(|(n, m)| Side::Map(n, m)),
    ]
}

fn res() -> impl Strategy<Value = ResSpec> {
    (
        0..TYPES.len(),
        0..ACTIONS.len(),
        prop::collection::vec(
            (0..NAMES.len(), side(), side(), any::<bool>()).prop_map(
                |(name, before, after, same)| AttrSpec {
                    name,
                    before,
                    after,
                    same,
                },
            ),
            0..6,
        ),
        any::<bool>(),
    )
        .prop_map(|(type_idx, action, attrs, replace_first)| ResSpec {
            type_idx,
            action,
            attrs,
            replace_first,
        })
}

struct Gen {
    n: usize,
    secrets: Vec<String>,
}

impl Gen {
    fn public(&mut self) -> String {
        self.n += 1;
        format!("public-{}", self.n)
    }
    fn secret(&mut self) -> String {
        self.n += 1;
        let s = format!("S3CRET{:04}", self.n);
        self.secrets.push(s.clone());
        s
    }
    /// A value and its sensitivity mask for one side.
    fn side(&mut self, side: &Side) -> (Value, Value) {
        match side {
            Side::Str(true) => (json!(self.secret()), json!(true)),
            Side::Str(false) => (json!(self.public()), json!(false)),
            Side::Map(n, MapMask::Whole) => {
                let mut m = Map::new();
                for _ in 0..*n {
                    m.insert(self.secret(), json!(self.secret()));
                }
                (Value::Object(m), json!(true))
            }
            Side::Map(n, MapMask::Keys(mask)) => {
                let mut m = Map::new();
                let mut sm = Map::new();
                for i in 0..usize::from(*n) {
                    let key = self.public();
                    let sensitive = mask.get(i).copied().unwrap_or(false);
                    let v = if sensitive {
                        self.secret()
                    } else {
                        self.public()
                    };
                    if sensitive {
                        sm.insert(key.clone(), json!(true));
                    }
                    m.insert(key, json!(v));
                }
                (Value::Object(m), Value::Object(sm))
            }
        }
    }
}

fn plan_json(specs: &[ResSpec]) -> (String, Vec<String>) {
    let mut g = Gen {
        n: 0,
        secrets: Vec::new(),
    };
    let mut changes = Vec::new();
    for (i, r) in specs.iter().enumerate() {
        let t = TYPES[r.type_idx];
        let actions = ACTIONS[r.action];
        let mut before = Map::new();
        let mut after = Map::new();
        let mut bs = Map::new();
        let mut as_ = Map::new();
        let mut replace_paths = Vec::new();
        for a in &r.attrs {
            let name = NAMES[a.name];
            if before.contains_key(name) {
                continue;
            }
            let (bv, bm) = g.side(&a.before);
            let (av, am) = if a.same
                && matches!((&a.before, &a.after), (Side::Str(x), Side::Str(y)) if x == y)
            {
                (bv.clone(), bm.clone())
            } else {
                g.side(&a.after)
            };
            before.insert(name.into(), bv);
            after.insert(name.into(), av);
            bs.insert(name.into(), bm);
            as_.insert(name.into(), am);
            if r.replace_first {
                replace_paths.push(json!([name]));
            }
        }
        let creates = actions.contains(&"create");
        let deletes = actions.contains(&"delete") || actions == ["forget"];
        let (before, bs) = if creates && !deletes {
            (Value::Null, json!(false))
        } else {
            (Value::Object(before), Value::Object(bs))
        };
        let (after, as_) = if deletes && !creates {
            (Value::Null, json!(false))
        } else {
            (Value::Object(after), Value::Object(as_))
        };
        changes.push(json!({
            "address": format!("{t}.r{i}"),
            "mode": "managed",
            "type": t,
            "name": format!("r{i}"),
            "provider_name": "registry.terraform.io/ward/fakecloud",
            "change": {
                "actions": actions,
                "before": before,
                "after": after,
                "after_unknown": {},
                "before_sensitive": bs,
                "after_sensitive": as_,
                "replace_paths": if actions.len() == 2 { json!(replace_paths) } else { json!([]) },
            }
        }));
    }
    let plan = json!({
        "format_version": "1.2",
        "terraform_version": "1.11.4",
        "resource_changes": changes,
    });
    (plan.to_string(), g.secrets)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sensitive_values_never_reach_the_assessment(specs in prop::collection::vec(res(), 1..6)) {
        let (text, secrets) = plan_json(&specs);
        let plan = ward_plan::read_reader(text.as_bytes(), "prop.json").unwrap();
        let a = assess(&plan, &fakecloud(), &Options::default());
        let json = serde_json::to_string(&a).unwrap();
        let mut lines: Vec<String> = Vec::new();
        for v in a.verdicts.iter().chain(&a.drift) {
            lines.extend(v.explanation.iter().cloned());
            for at in &v.attributes {
                lines.push(at.change.path.to_string());
                lines.push(at.change.before.to_string());
                lines.push(at.change.after.to_string());
            }
        }
        let all = lines.join("\n");
        for s in &secrets {
            prop_assert!(!json.contains(s.as_str()), "{s} leaked into the JSON: {json}");
            prop_assert!(!all.contains(s.as_str()), "{s} leaked into an explanation: {all}");
        }
    }
}

/// The property is not vacuous: the same generator's public values do reach the output.
#[test]
fn public_values_do_reach_the_assessment() {
    let spec = ResSpec {
        type_idx: 0,
        action: 0,
        attrs: vec![AttrSpec {
            name: 1,
            before: Side::Str(false),
            after: Side::Str(false),
            same: false,
        }],
        replace_first: false,
    };
    let (text, secrets) = plan_json(&[spec]);
    assert!(secrets.is_empty());
    let plan = ward_plan::read_reader(text.as_bytes(), "p.json").unwrap();
    let a = assess(&plan, &fakecloud(), &Options::default());
    let all = a.verdicts[0].explanation.join("\n");
    assert!(all.contains("\"public-1\" → \"public-2\""), "{all}");
}

/// A sensitive attribute that costs something is named, its values shown as `(sensitive)`.
#[test]
fn a_costly_sensitive_change_is_named_without_its_value() {
    let spec = ResSpec {
        type_idx: 0,
        action: 0,
        attrs: vec![AttrSpec {
            name: 1,
            before: Side::Str(true),
            after: Side::Str(true),
            same: false,
        }],
        replace_first: false,
    };
    let (text, secrets) = plan_json(&[spec]);
    assert_eq!(secrets.len(), 2);
    let plan = ward_plan::read_reader(text.as_bytes(), "p.json").unwrap();
    let a = assess(&plan, &fakecloud(), &Options::default());
    let v = &a.verdicts[0];
    assert_eq!(v.impact, ward_model::Impact::Interrupt);
    assert!(v
        .explanation
        .iter()
        .any(|l| l.starts_with("`size` costs interrupt: (sensitive) → (sensitive)")));
}

/// The check would catch a leak: the same plan with its sensitive masks removed does show the
/// would-be secrets.
#[test]
fn without_masks_the_secrets_would_show() {
    let spec = ResSpec {
        type_idx: 0,
        action: 0,
        attrs: vec![AttrSpec {
            name: 4,
            before: Side::Map(2, MapMask::Whole),
            after: Side::Str(true),
            same: false,
        }],
        replace_first: false,
    };
    let (text, secrets) = plan_json(&[spec]);
    assert_eq!(secrets.len(), 5);
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["resource_changes"][0]["change"]["before_sensitive"] = json!({});
    v["resource_changes"][0]["change"]["after_sensitive"] = json!({});
    let plan = ward_plan::read_reader(v.to_string().as_bytes(), "p.json").unwrap();
    let a = assess(&plan, &fakecloud(), &Options::default());
    let json = serde_json::to_string(&a).unwrap();
    assert!(secrets.iter().all(|s| json.contains(s.as_str())), "{json}");
}
