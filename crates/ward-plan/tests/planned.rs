//! What a change keeps of the object as planned (`after_scalars`): the top-level booleans,
//! numbers and short strings of a create, an update or a replacement, a sensitive one only as
//! `Sensitive`, an unknown one as `Unknown`; nothing of a delete. The same however the plan is
//! read (with or without the content fingerprints, which switch the lazy reading).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use ward_model::{Shown, MAX_KEPT_STRING};
use ward_plan::ReadOptions;

fn plan() -> String {
    let long = "x".repeat(MAX_KEPT_STRING + 1);
    let change = |address: &str, actions: serde_json::Value, before, after| {
        json!({
            "address": address, "mode": "managed", "type": "google_organization_iam_policy",
            "name": address.split('.').nth(1).unwrap(),
            "provider_name": "registry.terraform.io/hashicorp/google",
            "change": {
                "actions": actions, "before": before, "after": after,
                "after_unknown": {"etag": true},
                "before_sensitive": {}, "after_sensitive": {"secret": true, "long_secret": true}
            }
        })
    };
    let after = json!({
        "org_id": "123", "count": 3, "on": true, "nothing": null, "list": ["a"],
        "object": {"a": 1}, "long": long, "secret": "hunter2", "long_secret": long
    });
    json!({
        "format_version": "1.2",
        "resource_changes": [
            change("google_organization_iam_policy.c", json!(["create"]), json!(null), after.clone()),
            change("google_organization_iam_policy.u", json!(["update"]), json!({"org_id": "0"}), after.clone()),
            change("google_organization_iam_policy.r", json!(["delete", "create"]), json!({"org_id": "0"}), after),
            change("google_organization_iam_policy.d", json!(["delete"]), json!({"org_id": "0"}), json!(null)),
        ]
    })
    .to_string()
}

#[test]
fn planned_scalars_are_kept_with_their_masks_whatever_the_reading() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.json");
    std::fs::write(&path, plan()).unwrap();
    let arg = path.to_str().unwrap();
    let expected = vec![
        ("count".to_string(), Shown::Known(json!(3))),
        ("etag".to_string(), Shown::Unknown),
        ("long_secret".to_string(), Shown::Sensitive),
        ("on".to_string(), Shown::Known(json!(true))),
        ("org_id".to_string(), Shown::Known(json!("123"))),
        ("secret".to_string(), Shown::Sensitive),
    ];
    for content in [true, false] {
        let options = ReadOptions {
            content,
            objects: false,
            ..ReadOptions::default()
        };
        let (p, _) = ward_plan::read_with(arg, options, None).unwrap();
        for c in &p.changes {
            if c.address.ends_with(".d") {
                assert!(c.after_scalars.is_empty(), "{content}: {c:?}");
            } else {
                assert_eq!(c.after_scalars, expected, "{content}: {}", c.address);
            }
        }
    }
}
