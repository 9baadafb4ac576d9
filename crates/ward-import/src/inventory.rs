//! The inventory: what the live system reports, address → import id, with optional attributes,
//! and the operator's allowances for in-place updates.
//!
//! ```json
//! {
//!   "objects": {
//!     "fakecloud_network.main": "net-1a2b",
//!     "fakecloud_instance.web": { "id": "i-3c4d", "attributes": { "name": "web", "image": "debian-12" } }
//!   },
//!   "allow": [
//!     { "address": "fakecloud_instance.web", "attribute": "tags", "reason": "tags are rewritten by the model" }
//!   ]
//! }
//! ```
//!
//! Read within a budget ([`Budget`]): the file's size, the number of objects and the nesting
//! depth of attributes are bounded, so a wrong file (a state dump, a log) fails fast and clearly.

use crate::address::Address;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

/// Limits on what an inventory may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The largest file read, in bytes.
    pub max_bytes: u64,
    /// The most objects.
    pub max_objects: usize,
    /// The deepest nesting of an attribute value (an object or array is one level).
    pub max_depth: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_bytes: 64 << 20,
            max_objects: 100_000,
            max_depth: 32,
        }
    }
}

/// One live object.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Where it goes in the configuration.
    pub address: Address,
    /// Its import id, as the provider documents it.
    pub id: String,
    /// Its attributes as the live system reports them (for the scratch configuration).
    pub attributes: Option<Map<String, Value>>,
}

/// An in-place update that `ward import check` accepts: an attribute the model sets differently
/// from the live object, on purpose.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Allowance {
    /// The address (exact, or a pattern as in `ward_model::pattern`).
    pub address: String,
    /// The attribute path (`tags`, `tags.env`); covers the paths under it.
    pub attribute: String,
    /// Why the update is acceptable (required, not empty).
    pub reason: String,
}

impl Allowance {
    /// Whether this allowance covers `attribute` (a path as ward prints it) of `address`.
    pub fn covers(&self, address: &str, attribute: &str) -> bool {
        ward_model::pattern::address_matches(&self.address, address)
            && (attribute == self.attribute
                || attribute
                    .strip_prefix(self.attribute.as_str())
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
                || ward_model::pattern::matches(&self.attribute, attribute))
    }
}

/// A whole inventory, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inventory {
    /// The objects, in file order.
    pub entries: Vec<Entry>,
    /// The allowances.
    pub allow: Vec<Allowance>,
}

impl Inventory {
    /// address → id.
    pub fn ids(&self) -> BTreeMap<String, String> {
        self.entries
            .iter()
            .map(|e| (e.address.to_string(), e.id.clone()))
            .collect()
    }

    /// Ids given to more than one address of the same resource type: `(type, id, addresses)`.
    pub fn duplicate_ids(&self) -> Vec<(String, String, Vec<String>)> {
        let mut by: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
        for e in &self.entries {
            by.entry((e.address.type_name.as_str(), e.id.as_str()))
                .or_default()
                .push(e.address.to_string());
        }
        by.into_iter()
            .filter(|(_, v)| v.len() > 1)
            .map(|((t, id), v)| (t.to_string(), id.to_string(), v))
            .collect()
    }
}

/// Why an inventory could not be used. `Display` says what and what to do.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {message}\n  help: {help}")]
pub struct InventoryError {
    /// The file as given.
    pub file: String,
    /// What was wrong.
    pub message: String,
    /// What to do about it.
    pub help: String,
}

/// Reads the inventory at `path` within `budget`.
pub fn read_file(path: &Path, budget: &Budget) -> Result<Inventory, InventoryError> {
    let file = path.display().to_string();
    let err = |message: String, help: &str| InventoryError {
        file: file.clone(),
        message,
        help: help.to_string(),
    };
    let f = std::fs::File::open(path).map_err(|e| {
        err(
            format!("cannot read the inventory: {e}"),
            "give the path of the inventory JSON with --inventory",
        )
    })?;
    let mut bytes = Vec::new();
    f.take(budget.max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(format!("cannot read the inventory: {e}"), "check the file"))?;
    if bytes.len() as u64 > budget.max_bytes {
        return Err(err(
            format!(
                "the inventory is larger than {} MiB",
                budget.max_bytes >> 20
            ),
            "an inventory lists address → id and a few attributes per object; split the fleet into roots",
        ));
    }
    parse(&bytes, &file, budget)
}

/// Parses inventory bytes; `file` names it in errors.
pub fn parse(bytes: &[u8], file: &str, budget: &Budget) -> Result<Inventory, InventoryError> {
    let err = |message: String, help: &str| InventoryError {
        file: file.to_string(),
        message,
        help: help.to_string(),
    };
    let raw: Raw = serde_json::from_slice(bytes).map_err(|e| {
        err(
            format!("not a valid inventory: {e}"),
            "the inventory is a JSON object `{\"objects\": {\"ADDRESS\": \"ID\" or {\"id\": \"ID\", \"attributes\": {...}}}, \"allow\": [...]}` (see `ward docs import`)",
        )
    })?;
    if raw.objects.0.len() > budget.max_objects {
        return Err(err(
            format!(
                "the inventory holds {} objects, more than the {} allowed",
                raw.objects.0.len(),
                budget.max_objects
            ),
            "split the fleet into several roots",
        ));
    }
    let mut entries = Vec::with_capacity(raw.objects.0.len());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (n, (addr, obj)) in raw.objects.0.into_iter().enumerate() {
        let address = Address::parse(&addr).map_err(|m| {
            err(
                format!("objects: `{addr}` is not a resource address: {m}"),
                "write addresses as Terraform does: `TYPE.NAME`, `TYPE.NAME[\"key\"]`, `module.M.TYPE.NAME`",
            )
        })?;
        let canonical = address.to_string();
        if let Some(first) = seen.insert(canonical.clone(), n + 1) {
            return Err(err(
                format!(
                    "objects: `{canonical}` is listed twice (entries {first} and {})",
                    n + 1
                ),
                "each address imports exactly one object: remove one of them",
            ));
        }
        let (id, attributes) = match obj {
            RawObject::Id(id) => (id, None),
            RawObject::Full { id, attributes } => (id, attributes),
        };
        if id.trim().is_empty() {
            return Err(err(
                format!("objects: `{canonical}` has an empty id"),
                "give the id the provider's import documentation names",
            ));
        }
        if let Some(a) = &attributes {
            for (k, v) in a {
                if depth(v) > budget.max_depth {
                    return Err(err(
                        format!(
                            "objects: `{canonical}`: attribute `{k}` is nested deeper than {} levels",
                            budget.max_depth
                        ),
                        "list the attributes as the provider's schema has them, not a raw API dump",
                    ));
                }
            }
        }
        entries.push(Entry {
            address,
            id,
            attributes,
        });
    }
    for (i, a) in raw.allow.iter().enumerate() {
        if a.reason.trim().is_empty() || a.attribute.trim().is_empty() {
            return Err(err(
                format!(
                    "allow[{i}] ({}): `attribute` and `reason` must not be empty",
                    a.address
                ),
                "every allowance names the attribute it lets change, and why",
            ));
        }
    }
    Ok(Inventory {
        entries,
        allow: raw.allow,
    })
}

fn depth(v: &Value) -> usize {
    // Iterative: a hostile value cannot overflow the stack here (serde_json already bounds
    // its own recursion at 128).
    let mut max = 0;
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        max = max.max(d);
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|x| (x, d + 1))),
            Value::Object(m) => stack.extend(m.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    max
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    objects: Ordered,
    #[serde(default)]
    allow: Vec<Allowance>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawObject {
    Id(String),
    Full {
        id: String,
        #[serde(default)]
        attributes: Option<Map<String, Value>>,
    },
}

/// The `objects` map in file order, keeping repeated keys (serde_json's map would keep the last
/// silently; a repeated address must be an error).
struct Ordered(Vec<(String, RawObject)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ordered, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping addresses to import ids")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = m.next_entry::<String, Value>()? {
                    let o = RawObject::deserialize(x).map_err(|_| {
                        de::Error::custom(format!(
                            "`{k}`: give the import id as a string, or an object {{\"id\": \"...\", \"attributes\": {{...}}}}"
                        ))
                    })?;
                    v.push((k, o));
                }
                Ok(Ordered(v))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Inventory, InventoryError> {
        parse(s.as_bytes(), "inv.json", &Budget::default())
    }

    #[test]
    fn reads_both_forms_in_order() {
        let inv = p(r#"{"objects": {"x_a.b": "1", "x_a.c[\"k\"]": {"id": "2", "attributes": {"name": "c"}}}}"#).unwrap();
        assert_eq!(inv.entries.len(), 2);
        assert_eq!(inv.entries[1].address.to_string(), "x_a.c[\"k\"]");
        assert_eq!(inv.entries[1].id, "2");
        assert!(inv.entries[1].attributes.is_some());
    }

    #[test]
    fn refuses_what_it_cannot_use() {
        for (text, want) in [
            (
                r#"{"objects": {"x_a.b": "1", "x_a.b": "2"}}"#,
                "listed twice",
            ),
            (r#"{"objects": {"x_a.b": ""}}"#, "empty id"),
            (r#"{"objects": {"web": "1"}}"#, "not a resource address"),
            (r#"{"objects": {"x_a.b": 3}}"#, "give the import id"),
            (r#"{"objects": {}, "extra": 1}"#, "unknown field"),
            (r#"[1]"#, "not a valid inventory"),
            (
                r#"{"objects": {}, "allow": [{"address": "x_a.b", "attribute": "tags", "reason": " "}]}"#,
                "must not be empty",
            ),
        ] {
            let e = p(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
            assert!(e.contains("help:"), "{e}");
        }
    }

    #[test]
    fn budget_bounds_depth_and_count() {
        let deep = format!(
            r#"{{"objects": {{"x_a.b": {{"id": "1", "attributes": {{"a": {}1{}}}}}}}}}"#,
            "[".repeat(40),
            "]".repeat(40)
        );
        assert!(p(&deep).unwrap_err().to_string().contains("nested deeper"));
        let b = Budget {
            max_objects: 1,
            ..Budget::default()
        };
        let e = parse(br#"{"objects": {"x_a.b": "1", "x_a.c": "2"}}"#, "i", &b).unwrap_err();
        assert!(e.to_string().contains("more than the 1 allowed"));
    }

    #[test]
    fn duplicate_ids_are_per_type() {
        let inv = p(r#"{"objects": {"x_a.b": "1", "x_a.c": "1", "x_d.e": "1"}}"#).unwrap();
        let d = inv.duplicate_ids();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].2, ["x_a.b", "x_a.c"]);
    }

    #[test]
    fn allowances_cover_paths_below() {
        let a = Allowance {
            address: "x_a.b".into(),
            attribute: "tags".into(),
            reason: "r".into(),
        };
        assert!(a.covers("x_a.b", "tags"));
        assert!(a.covers("x_a.b", "tags.env"));
        assert!(!a.covers("x_a.b", "tagsx"));
        assert!(!a.covers("x_a.c", "tags"));
    }
}
