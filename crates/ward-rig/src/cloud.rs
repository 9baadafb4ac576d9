//! Reading and editing a root's fake cloud behind Terraform's back.

use crate::RigError;
use serde_json::{Map, Value};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The object kinds of fakecloud, i.e. the sub-directories of a cloud:
/// `fakecloud_<kind>` is the resource type.
pub const KINDS: &[&str] = &["attachment", "bucket", "instance", "network", "volume"];

/// One cloud object: its attributes (and cloud-only fields) as a JSON object.
pub type Object = Map<String, Value>;

/// A fake cloud directory (`<dir>/<kind>/<id>.json`, see `crates/fakecloud/README.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cloud {
    dir: PathBuf,
}

fn check_kind(kind: &str) -> Result<(), RigError> {
    if KINDS.contains(&kind) {
        Ok(())
    } else {
        Err(RigError::Usage(format!(
            "{kind:?} is not a fakecloud kind: use one of {}",
            KINDS.join(", ")
        )))
    }
}

impl Cloud {
    /// A handle on the cloud in `dir` (which need not exist yet).
    pub fn new(dir: impl Into<PathBuf>) -> Cloud {
        Cloud { dir: dir.into() }
    }

    /// The cloud directory (what the provider gets as `FAKECLOUD_DIR`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of object `id` of `kind`.
    pub fn path(&self, kind: &str, id: &str) -> PathBuf {
        self.dir.join(kind).join(format!("{id}.json"))
    }

    /// The ids of every object of `kind`, sorted.
    pub fn ids(&self, kind: &str) -> Result<Vec<String>, RigError> {
        check_kind(kind)?;
        let dir = self.dir.join(kind);
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(RigError::io(format!("cannot list {}", dir.display()), e)),
        };
        let mut ids: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".json"))
                    .map(str::to_string)
            })
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// Every object of every kind, as `(kind, id)`, sorted.
    pub fn all(&self) -> Result<Vec<(String, String)>, RigError> {
        let mut out = Vec::new();
        for kind in KINDS {
            for id in self.ids(kind)? {
                out.push(((*kind).to_string(), id));
            }
        }
        Ok(out)
    }

    /// True when the cloud holds no object at all.
    pub fn is_empty(&self) -> Result<bool, RigError> {
        Ok(self.all()?.is_empty())
    }

    /// Object `id` of `kind`, or `None`.
    pub fn get(&self, kind: &str, id: &str) -> Result<Option<Map<String, Value>>, RigError> {
        check_kind(kind)?;
        let path = self.path(kind, id);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(RigError::io(format!("cannot read {}", path.display()), e)),
        };
        match serde_json::from_str(&text) {
            Ok(Value::Object(obj)) => Ok(Some(obj)),
            Ok(_) => Err(RigError::Usage(format!(
                "{} is not a JSON object",
                path.display()
            ))),
            Err(e) => Err(RigError::Json {
                what: path.display().to_string(),
                source: e,
            }),
        }
    }

    /// Object `id` of `kind`; an error when it does not exist.
    pub fn object(&self, kind: &str, id: &str) -> Result<Map<String, Value>, RigError> {
        self.get(kind, id)?.ok_or_else(|| {
            RigError::Usage(format!(
                "the cloud has no {kind} {id:?} (ids: {:?})",
                self.ids(kind).unwrap_or_default()
            ))
        })
    }

    /// The object of `kind` whose `name` attribute is `name`, with its id. An error when two
    /// objects share the name.
    pub fn find_by_name(
        &self,
        kind: &str,
        name: &str,
    ) -> Result<Option<(String, Object)>, RigError> {
        let mut found = None;
        for id in self.ids(kind)? {
            if let Some(obj) = self.get(kind, &id)? {
                if obj.get("name").and_then(Value::as_str) == Some(name) {
                    if found.is_some() {
                        return Err(RigError::Usage(format!(
                            "two {kind} objects are named {name:?}: look them up by id"
                        )));
                    }
                    found = Some((id, obj));
                }
            }
        }
        Ok(found)
    }

    /// The id of the object of `kind` named `name`; an error when there is none.
    pub fn id_by_name(&self, kind: &str, name: &str) -> Result<String, RigError> {
        self.find_by_name(kind, name)?
            .map(|(id, _)| id)
            .ok_or_else(|| RigError::Usage(format!("the cloud has no {kind} named {name:?}")))
    }

    /// Writes object `id` of `kind` (creating or replacing it). To pre-create an object for
    /// `terraform import`, give every attribute of its schema you care about; the others read
    /// as null.
    pub fn put(&self, kind: &str, id: &str, obj: &Map<String, Value>) -> Result<(), RigError> {
        check_kind(kind)?;
        let path = self.path(kind, id);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| RigError::io(format!("cannot create {}", parent.display()), e))?;
        }
        let mut obj = obj.clone();
        obj.insert("id".into(), Value::from(id));
        let text =
            serde_json::to_string_pretty(&Value::Object(obj)).map_err(|e| RigError::Json {
                what: format!("{kind} {id}"),
                source: e,
            })?;
        fs::write(&path, text + "\n")
            .map_err(|e| RigError::io(format!("cannot write {}", path.display()), e))
    }

    /// Creates object `id` of `kind` from a JSON object literal, e.g.
    /// `cloud.create("bucket", "bkt-archive", json!({"name": "archive"}))`.
    pub fn create(&self, kind: &str, id: &str, attrs: Value) -> Result<(), RigError> {
        match attrs {
            Value::Object(obj) => self.put(kind, id, &obj),
            other => Err(RigError::Usage(format!(
                "a cloud object must be a JSON object, not {other}"
            ))),
        }
    }

    /// Edits object `id` of `kind` in place; an error when it does not exist.
    pub fn update(
        &self,
        kind: &str,
        id: &str,
        edit: impl FnOnce(&mut Map<String, Value>),
    ) -> Result<(), RigError> {
        let mut obj = self.object(kind, id)?;
        edit(&mut obj);
        self.put(kind, id, &obj)
    }

    /// Sets one attribute of object `id` of `kind` (drift).
    pub fn set(&self, kind: &str, id: &str, attr: &str, value: Value) -> Result<(), RigError> {
        self.update(kind, id, |obj| {
            obj.insert(attr.to_string(), value);
        })
    }

    /// Deletes object `id` of `kind` behind Terraform's back; an error when it does not exist.
    pub fn delete(&self, kind: &str, id: &str) -> Result<(), RigError> {
        check_kind(kind)?;
        let path = self.path(kind, id);
        fs::remove_file(&path)
            .map_err(|e| RigError::io(format!("cannot delete {}", path.display()), e))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn create_find_set_delete() {
        let d = tempfile::tempdir().unwrap();
        let c = Cloud::new(d.path());
        assert!(c.is_empty().unwrap());
        c.create("bucket", "bkt-1", json!({"name": "archive"}))
            .unwrap();
        assert_eq!(c.id_by_name("bucket", "archive").unwrap(), "bkt-1");
        c.set("bucket", "bkt-1", "force_destroy", json!(true))
            .unwrap();
        assert_eq!(
            c.object("bucket", "bkt-1").unwrap()["force_destroy"],
            json!(true)
        );
        assert_eq!(c.all().unwrap(), vec![("bucket".into(), "bkt-1".into())]);
        c.delete("bucket", "bkt-1").unwrap();
        assert!(c.delete("bucket", "bkt-1").is_err());
        assert!(c.is_empty().unwrap());
    }

    #[test]
    fn unknown_kind_is_refused() {
        let c = Cloud::new("/nonexistent");
        let err = c.ids("vm").unwrap_err().to_string();
        assert!(err.contains("not a fakecloud kind"), "{err}");
    }
}
