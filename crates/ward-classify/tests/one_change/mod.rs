//! A plan of one change, written in code, assessed with the built-in packs: the shared fixture of
//! `system_metadata.rs` (#31 item 4) and `provider_breadth.rs` (#31 item 5).

use std::sync::OnceLock;

use serde_json::{json, Value};
use ward_classify::{assess, Options, Verdict};
use ward_rules::Knowledge;

fn knowledge() -> &'static Knowledge {
    static K: OnceLock<Knowledge> = OnceLock::new();
    K.get_or_init(|| Knowledge::builtin().expect("built-in packs load"))
}

/// The verdict of a plan (format 1.2) whose only change is `type_name.this` from `before` to
/// `after` with these actions, `unknown` naming the attributes known only after apply. Fails
/// when the type is unclassified.
pub fn verdict(
    provider: &str,
    type_name: &str,
    actions: &[&str],
    (before, after): (Value, Value),
    unknown: &[&str],
) -> Verdict {
    let after_unknown: serde_json::Map<String, Value> = unknown
        .iter()
        .map(|k| (k.to_string(), json!(true)))
        .collect();
    let plan = json!({
        "format_version": "1.2",
        "terraform_version": "1.9.8",
        "resource_changes": [{
            "address": format!("{type_name}.this"),
            "mode": "managed",
            "type": type_name,
            "name": "this",
            "provider_name": format!("registry.terraform.io/{provider}"),
            "change": {
                "actions": actions,
                "before": before,
                "after": after,
                "after_unknown": after_unknown,
                "before_sensitive": {},
                "after_sensitive": {}
            }
        }]
    });
    let text = plan.to_string();
    let plan = ward_plan::read_reader(text.as_bytes(), "one_change.json")
        .unwrap_or_else(|e| panic!("{type_name}: {e}"));
    let a = assess(&plan, knowledge(), &Options::default());
    assert!(
        a.coverage.unclassified.is_empty(),
        "{type_name} ({provider}) is unclassified: {:?}",
        a.coverage.unclassified
    );
    a.verdicts
        .into_iter()
        .find(|v| v.type_name.as_ref() == type_name)
        .unwrap_or_else(|| panic!("no verdict for {type_name}"))
}
