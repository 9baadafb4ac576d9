//! The fake cloud: a directory of JSON files, one per object.
//!
//! Layout: `<dir>/<kind>/<id>.json`, where `kind` is `instance`, `volume`, `attachment`,
//! `bucket` or `network`. Each file is a JSON object holding the Terraform attributes of the
//! object plus cloud-only fields (`restarts` for instances, `objects` for buckets). Tests edit
//! these files to simulate drift, delete them to simulate an object removed behind Terraform's
//! back, or write new ones to have something to import.
//!
//! Ids never come from the clock: an id is a hash of the object's kind, its identifying key
//! (usually its name) and a per-key generation counter kept in `<dir>/.generations.json`, so the
//! same configuration applied to an empty cloud yields the same ids whatever order Terraform
//! creates objects in.

use serde_json::{Map, Value};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One JSON object of the cloud.
pub type Object = Map<String, Value>;

/// Serializes counter updates within one provider process (Terraform runs resource
/// operations concurrently).
static COUNTER_LOCK: Mutex<()> = Mutex::new(());

/// A handle on a fake cloud directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cloud {
    dir: PathBuf,
}

/// An identifier freshly allocated by [`Cloud::allocate`], with the derived addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocated {
    /// The object id, e.g. `i-1a2b3c4d`.
    pub id: String,
    /// An IPv4 address derived from the same hash (used by instances).
    pub ip: String,
    /// A locally administered MAC address derived from the same hash (used by instances).
    pub mac: String,
}

impl Cloud {
    /// Opens (and creates if needed) the cloud directory `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Cloud, String> {
        let dir = dir.into();
        if dir.as_os_str().is_empty() {
            return Err("the fakecloud state directory is an empty path: set `state_dir` in the provider block or FAKECLOUD_DIR to a directory".to_string());
        }
        fs::create_dir_all(&dir).map_err(|e| {
            format!(
                "cannot create the fakecloud state directory {}: {e}",
                dir.display()
            )
        })?;
        Ok(Cloud { dir })
    }

    /// The cloud directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds object `id` of `kind`.
    pub fn path(&self, kind: &str, id: &str) -> PathBuf {
        self.dir.join(kind).join(format!("{id}.json"))
    }

    /// Reads object `id` of `kind`; `Ok(None)` when it does not exist.
    pub fn get(&self, kind: &str, id: &str) -> Result<Option<Object>, String> {
        check_id(id)?;
        let path = self.path(kind, id);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(obj)) => Ok(Some(obj)),
            Ok(_) => Err(format!(
                "{} is not a JSON object: every fakecloud object file holds one object",
                path.display()
            )),
            Err(e) => Err(format!("{} is not valid JSON: {e}", path.display())),
        }
    }

    /// Writes object `id` of `kind` (atomically: a temporary file, then a rename).
    pub fn put(&self, kind: &str, id: &str, obj: &Object) -> Result<(), String> {
        check_id(id)?;
        let path = self.path(kind, id);
        let text = serde_json::to_string_pretty(obj)
            .map_err(|e| format!("cannot serialize object {id}: {e}"))?;
        write_atomic(&path, &(text + "\n"))
    }

    /// Deletes object `id` of `kind`; returns whether it existed.
    pub fn remove(&self, kind: &str, id: &str) -> Result<bool, String> {
        check_id(id)?;
        let path = self.path(kind, id);
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
            Err(e) => Err(format!("cannot delete {}: {e}", path.display())),
        }
    }

    /// Allocates a new id for an object of `kind` identified by `key` (its name, or for an
    /// attachment its instance and volume ids). `prefix` starts the id (`i`, `vol`...).
    pub fn allocate(&self, kind: &str, prefix: &str, key: &str) -> Result<Allocated, String> {
        let _guard = COUNTER_LOCK
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let path = self.dir.join(".generations.json");
        let mut counters = match fs::read_to_string(&path) {
            Ok(text) => match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(map)) => map,
                _ => {
                    return Err(format!(
                        "{} is damaged: delete it to reset the id counters",
                        path.display()
                    ))
                }
            },
            Err(e) if e.kind() == ErrorKind::NotFound => Map::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let counter_key = format!("{kind}/{key}");
        let generation = counters
            .get(&counter_key)
            .and_then(Value::as_u64)
            .unwrap_or(0)
            + 1;
        counters.insert(counter_key.clone(), Value::from(generation));
        let text = serde_json::to_string_pretty(&Value::Object(counters))
            .map_err(|e| format!("cannot serialize the id counters: {e}"))?;
        write_atomic(&path, &(text + "\n"))?;

        let hash = fnv1a64(format!("{counter_key}#{generation}").as_bytes());
        let b = hash.to_be_bytes();
        Ok(Allocated {
            id: format!("{prefix}-{:08x}", (hash >> 32) as u32),
            ip: format!("10.{}.{}.{}", b[5], b[6], 1 + u16::from(b[7]) % 254),
            mac: format!("02:fc:{:02x}:{:02x}:{:02x}:{:02x}", b[4], b[5], b[6], b[7]),
        })
    }

    /// Every object of `kind`, sorted by id.
    pub fn list(&self, kind: &str) -> Result<Vec<(String, Object)>, String> {
        let dir = self.dir.join(kind);
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot list {}: {e}", dir.display())),
        };
        let mut ids = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(id) = name.strip_suffix(".json") {
                ids.push(id.to_string());
            }
        }
        ids.sort();
        let mut out = Vec::new();
        for id in ids {
            if let Some(obj) = self.get(kind, &id)? {
                out.push((id, obj));
            }
        }
        Ok(out)
    }
}

/// Refuses ids that could escape the cloud directory.
fn check_id(id: &str) -> Result<(), String> {
    let ok = !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !id.starts_with('.');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{id:?} is not a valid fakecloud id: ids are 1 to 128 letters, digits, '-', '_' or '.', not starting with '.' (e.g. i-1a2b3c4d)"
        ))
    }
}

fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let parent = path
        .parent()
        .ok_or_else(|| format!("{} has no parent directory", path.display()))?;
    fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// FNV-1a, 64 bits (the `fnv` crate's): a stable hash for ids.
fn fnv1a64(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(bytes);
    hasher.finish()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_is_fnv_1a() {
        // The published FNV-1a 64-bit vectors (ids made before the fnv crate stay the same).
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn ids_are_deterministic_and_generations_differ() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let ca = Cloud::open(a.path()).unwrap();
        let cb = Cloud::open(b.path()).unwrap();
        let first = ca.allocate("instance", "i", "web").unwrap();
        assert_eq!(first, cb.allocate("instance", "i", "web").unwrap());
        let second = ca.allocate("instance", "i", "web").unwrap();
        assert_ne!(first.id, second.id);
        assert!(first.id.starts_with("i-") && first.id.len() == 10);
    }

    #[test]
    fn put_get_remove_list() {
        let d = tempfile::tempdir().unwrap();
        let c = Cloud::open(d.path()).unwrap();
        let mut obj = Object::new();
        obj.insert("name".into(), Value::from("x"));
        c.put("bucket", "bkt-1", &obj).unwrap();
        assert_eq!(c.get("bucket", "bkt-1").unwrap(), Some(obj.clone()));
        assert_eq!(c.list("bucket").unwrap(), vec![("bkt-1".to_string(), obj)]);
        assert!(c.remove("bucket", "bkt-1").unwrap());
        assert!(!c.remove("bucket", "bkt-1").unwrap());
        assert_eq!(c.get("bucket", "bkt-1").unwrap(), None);
    }

    #[test]
    fn path_escaping_ids_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let c = Cloud::open(d.path()).unwrap();
        for bad in ["", "../x", "a/b", ".hidden"] {
            let err = c.get("instance", bad).unwrap_err();
            assert!(err.contains("not a valid fakecloud id"), "{err}");
        }
    }
}
