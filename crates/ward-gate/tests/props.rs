//! Property tests: the parsers never panic, whatever the input; and on generated *valid* files
//! (approvals with real digests and RFC 3339 times, protection records) what ward writes reads
//! back as the same value, whatever order the entries came in.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use serde_json::Value;
use ward_gate::approvals::{self, Approval, ApprovalsFile};
use ward_gate::digest::{digest_material, ChangeMaterial, DecidingAttr};
use ward_gate::protect::{self, CodeProtection, ProtectionRecord};
use ward_model::Impact;

/// An address as Terraform writes one: module path, type, name, instance key.
fn address() -> impl Strategy<Value = String> {
    (
        prop::option::of("[a-z][a-z0-9_]{0,6}"),
        "[a-z][a-z0-9_]{0,8}",
        "[a-z][a-z0-9_]{0,8}",
        prop::option::of(prop_oneof![
            (0u32..20).prop_map(|i| format!("[{i}]")),
            "[a-z \"\\\\é-]{0,6}".prop_map(|k| format!("[{}]", Value::String(k))),
        ]),
    )
        .prop_map(|(module, t, n, key)| {
            let mut s = module.map(|m| format!("module.{m}.")).unwrap_or_default();
            s.push_str(&format!("{t}.{n}{}", key.unwrap_or_default()));
            s
        })
}

/// An RFC 3339 time between 2000 and 2099, in UTC or with an offset.
fn time() -> impl Strategy<Value = String> {
    (
        2000u32..2100,
        1u32..=12,
        1u32..=28,
        0u32..24,
        0u32..60,
        prop::sample::select(vec!["Z", "+01:00", "-07:30"]),
    )
        .prop_map(|(y, mo, d, h, mi, z)| format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:00{z}"))
}

fn shown() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0i64..100_000).prop_map(|n| serde_json::json!({"kind": "known", "value": n})),
        "[ -~]{0,12}".prop_map(|s| serde_json::json!({"kind": "known", "value": s})),
        Just(serde_json::json!({"kind": "sensitive"})),
        Just(serde_json::json!({"kind": "unknown"})),
    ]
}

fn approval() -> impl Strategy<Value = Approval> {
    (
        address(),
        prop::option::of("[0-9a-f]{8}"),
        prop::sample::select(vec!["delete", "delete,create", "create,delete", "update"]),
        prop::sample::select(Impact::ALL.to_vec()),
        prop::collection::vec(("[a-z_]{1,8}", shown(), shown()), 0..3),
        prop::option::of("id=[a-z0-9-]{1,10}"),
        (
            "[ -~]{0,30}",
            "[a-z]{1,8}",
            time(),
            prop::option::of(time()),
        ),
    )
        .prop_map(
            |(address, deposed, action, impact, attrs, object, (reason, by, at, until))| {
                let mut attributes: Vec<DecidingAttr> = attrs
                    .into_iter()
                    .map(|(path, before, after)| DecidingAttr {
                        path,
                        before,
                        after,
                        binding: None,
                    })
                    .collect();
                attributes.sort_by(|a, b| a.path.cmp(&b.path));
                let change = ChangeMaterial {
                    address: address.clone(),
                    deposed: deposed.clone(),
                    type_name: address.split('.').rev().nth(1).unwrap_or("t").to_string(),
                    action: action.to_string(),
                    action_reason: None,
                    impact,
                    attributes,
                    object,
                    context: None,
                };
                Approval {
                    address,
                    deposed,
                    digest: digest_material(&change),
                    change,
                    reason,
                    by,
                    approved_at: at,
                    expires_at: until,
                    signature: None,
                }
            },
        )
}

proptest! {
    #[test]
    fn approvals_never_panic(s in ".{0,200}") {
        let _ = approvals::parse(&s, "approvals.json");
    }

    /// A valid approvals file, in any order, is written sorted and reads back as written; every
    /// digest still matches its material after the trip.
    #[test]
    fn approvals_round_trip(list in prop::collection::vec(approval(), 0..6), signed in any::<bool>()) {
        let mut f = ApprovalsFile { version: approvals::FORMAT_VERSION, approvals: list };
        if signed {
            for a in &mut f.approvals {
                a.sign(b"k3y");
            }
        }
        let text = approvals::render(&f);
        let back = approvals::parse(&text, "approvals.json").unwrap();
        let mut want = f.clone();
        approvals::sort(&mut want);
        prop_assert_eq!(&back, &want);
        prop_assert_eq!(approvals::render(&back), text.clone());
        for a in &back.approvals {
            prop_assert!(a.digest_consistent(), "{}", a.address);
            let state = a.signature_state(Some(b"k3y"));
            let expected = if signed {
                approvals::SignatureState::Valid
            } else {
                approvals::SignatureState::Unsigned
            };
            prop_assert_eq!(state, expected);
        }
        // Reversed input, same bytes.
        let mut rev = f.clone();
        rev.approvals.reverse();
        prop_assert_eq!(approvals::render(&rev), text);
    }

    /// A protection record in any order is written sorted and reads back as the sorted record.
    #[test]
    fn protection_record_round_trips(
        entries in prop::collection::btree_map(address(), "[a-z/]{1,12}\\.tf", 0..6),
    ) {
        let mut protected: Vec<CodeProtection> = entries
            .into_iter()
            .map(|(address, file)| CodeProtection { address, file })
            .collect();
        protected.reverse();
        let r = ProtectionRecord { version: 1, protected };
        let text = protect::render_record(&r);
        let back = protect::parse_record(&text, "protection.json").unwrap();
        let mut want = r.clone();
        want.protected.sort();
        prop_assert_eq!(&back, &want);
        prop_assert_eq!(protect::render_record(&back), text);
    }
}
