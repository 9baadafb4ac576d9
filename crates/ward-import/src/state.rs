//! What `ward import` reads from a state (`terraform state pull`, or a state file): the ids of
//! the managed objects in it (to refuse adopting an object another root already manages), and
//! its lineage and serial (recorded with an acceptance).

use crate::check::ManagedIds;
use serde_json::Value;

/// A state's identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// `lineage`.
    pub lineage: String,
    /// `serial`.
    pub serial: i64,
}

/// Reads `lineage` and `serial`; the error says what is missing.
pub fn mark(state: &Value) -> Result<Mark, String> {
    let lineage = state
        .get("lineage")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or("the state has no lineage")?
        .to_string();
    let serial = state
        .get("serial")
        .and_then(Value::as_i64)
        .ok_or("the state has no serial")?;
    Ok(Mark { lineage, serial })
}

/// The managed objects of a state (format version 4, Terraform ≥ 0.12 and OpenTofu), as
/// `(type, id)` → address, for root `root`. The error says why the text is not such a state.
pub fn managed_ids(root: &str, state: &Value) -> Result<ManagedIds, String> {
    let version = state.get("version").and_then(Value::as_u64);
    if version != Some(4) {
        return Err(format!(
            "not a state in format version 4 (found version {})",
            version.map_or("none".to_string(), |v| v.to_string())
        ));
    }
    let mut out = ManagedIds {
        root: root.to_string(),
        ..ManagedIds::default()
    };
    for r in state
        .get("resources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if r.get("mode").and_then(Value::as_str) != Some("managed") {
            continue;
        }
        let (Some(t), Some(name)) = (
            r.get("type").and_then(Value::as_str),
            r.get("name").and_then(Value::as_str),
        ) else {
            continue;
        };
        let module = r.get("module").and_then(Value::as_str);
        for i in r
            .get("instances")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(id) = i
                .get("attributes")
                .and_then(|a| a.get("id"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            let mut addr = String::new();
            if let Some(m) = module {
                addr.push_str(m);
                addr.push('.');
            }
            addr.push_str(t);
            addr.push('.');
            addr.push_str(name);
            match i.get("index_key") {
                Some(Value::Number(n)) => addr.push_str(&format!("[{n}]")),
                Some(Value::String(s)) => {
                    addr.push_str(&format!("[{}]", Value::String(s.clone())));
                }
                _ => {}
            }
            out.ids.insert((t.to_string(), id.to_string()), addr);
        }
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn reads_ids_and_mark() {
        let s: Value = serde_json::from_str(
            r#"{"version": 4, "lineage": "l-1", "serial": 3, "resources": [
              {"mode": "managed", "type": "x_a", "name": "b", "instances": [{"attributes": {"id": "1"}}]},
              {"mode": "managed", "module": "module.m", "type": "x_a", "name": "c", "instances": [{"index_key": "k", "attributes": {"id": "2"}}]},
              {"mode": "data", "type": "x_i", "name": "d", "instances": [{"attributes": {"id": "3"}}]}
            ]}"#,
        )
        .unwrap();
        let ids = managed_ids("net", &s).unwrap();
        assert_eq!(ids.ids.len(), 2);
        assert_eq!(
            ids.ids[&("x_a".to_string(), "2".to_string())],
            "module.m.x_a.c[\"k\"]"
        );
        assert_eq!(
            mark(&s).unwrap(),
            Mark {
                lineage: "l-1".into(),
                serial: 3
            }
        );
        assert!(managed_ids("x", &serde_json::json!({"version": 3})).is_err());
        assert!(mark(&serde_json::json!({})).is_err());
    }
}
