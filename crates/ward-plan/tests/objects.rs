//! `read_path_or_stdin_with_objects`: the objects a plan destroys, with their attributes before
//! the change, from the same bounded pass that builds the model.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;

fn plan() -> serde_json::Value {
    json!({"format_version": "1.2", "resource_changes": [
        {"address": "a.created", "type": "a", "change": {"actions": ["create"],
            "before": null, "after": {"name": "new"}}},
        {"address": "a.updated", "type": "a", "change": {"actions": ["update"],
            "before": {"name": "x"}, "after": {"name": "y"}, "before_sensitive": {}, "after_sensitive": {}}},
        {"address": "a.deleted", "type": "a", "change": {"actions": ["delete"],
            "before": {"name": "ci", "token": "t0k3n", "list": [1, 2], "nested": {"pw": "hunter2"}, "gone": null},
            "before_sensitive": {"token": true, "nested": {"pw": true}}}},
        {"address": "a.replaced", "type": "a", "change": {"actions": ["delete", "create"],
            "before": {"size": 3}, "after": {"size": 4}, "before_sensitive": {}, "after_sensitive": {}}},
        {"address": "a.secret", "type": "a", "deposed": "0f", "change": {"actions": ["delete"],
            "before": {"name": "s3cret"}, "before_sensitive": true}}
    ]})
}

#[test]
fn destroyed_objects_without_sensitive_values_and_the_same_model() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("plan.json");
    std::fs::write(&f, plan().to_string()).unwrap();
    let path = f.to_str().unwrap();
    let (model, objects) = ward_plan::read_path_or_stdin_with_objects(path).unwrap();
    assert_eq!(model, ward_plan::read_path_or_stdin(path).unwrap());
    let keys: Vec<_> = objects.keys().cloned().collect();
    assert_eq!(
        keys,
        [
            ("a.deleted".to_string(), None),
            ("a.replaced".to_string(), None),
            ("a.secret".to_string(), Some("0f".to_string())),
        ]
    );
    let deleted = &objects[&("a.deleted".to_string(), None)];
    assert_eq!(
        deleted.keys().collect::<Vec<_>>(),
        ["list", "name"],
        "no null, nothing sensitive"
    );
    assert_eq!(deleted["list"], json!([1, 2]));
    assert_eq!(objects[&("a.replaced".to_string(), None)]["size"], json!(3));
    assert!(objects[&("a.secret".to_string(), Some("0f".to_string()))].is_empty());
    let all = format!("{objects:?}");
    for secret in ["t0k3n", "hunter2", "s3cret"] {
        assert!(!all.contains(secret), "{all}");
    }
}

#[test]
fn same_reader_same_refusals() {
    // UTF-16 (PowerShell) is decoded; nesting past the limit is refused, as for every read.
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("utf16.json");
    let mut bytes = vec![0xFF, 0xFE];
    for u in plan().to_string().encode_utf16() {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    std::fs::write(&f, bytes).unwrap();
    let (_, objects) = ward_plan::read_path_or_stdin_with_objects(f.to_str().unwrap()).unwrap();
    assert_eq!(objects.len(), 3);
    let deep = format!(
        "{{\"format_version\":\"1.2\",\"resource_changes\":[{{\"address\":\"a.b\",\"type\":\"a\",\"change\":{{\"actions\":[\"delete\"],\"before\":{{\"x\":{}1{}}}}}}}]}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let g = d.path().join("deep.json");
    std::fs::write(&g, deep).unwrap();
    let e = ward_plan::read_path_or_stdin_with_objects(g.to_str().unwrap()).unwrap_err();
    assert!(
        matches!(e.kind(), ward_plan::PlanErrorKind::TooDeep { .. }),
        "{e}"
    );
}
