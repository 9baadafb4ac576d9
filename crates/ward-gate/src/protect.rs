//! Protection: which addresses must never be destroyed without an approval.
//!
//! Three sources, all honoured:
//!
//! 1. `policy { protect = [...] }` patterns in `ward.hcl`;
//! 2. `lifecycle { prevent_destroy = true }` in the configuration (`.tf`, `.tf.json`, `.tofu`,
//!    `.tofu.json`, read by ward-repo with OpenTofu's precedence) of the root being planned and of
//!    the local modules it calls (`source = "./…"`);
//! 3. the protection record (default `.ward/protection.json`): every address ward has seen
//!    protected by `prevent_destroy`. Plan JSON does not carry lifecycle blocks, so when the block
//!    (or the whole resource) is removed from code, the record is what still protects it; the
//!    gate warns about every such removal.

use crate::error::GateError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use ward_model::pattern::address_matches;

/// An address protected by `prevent_destroy` in code, with where it was declared.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeProtection {
    /// The configuration address (no instance keys), e.g. `module.db.fakecloud_volume.data`.
    pub address: String,
    /// The file that declared it, relative to the root.
    pub file: String,
}

/// The protection record file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtectionRecord {
    /// Format version: 1.
    pub version: u32,
    /// Every address ward has seen protected in code, sorted.
    pub protected: Vec<CodeProtection>,
}

/// Everything that protects addresses in one gate run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Protection {
    /// Patterns from `ward.hcl`.
    pub config_patterns: Vec<String>,
    /// Found in the code now.
    pub in_code: Vec<CodeProtection>,
    /// In the record but no longer in the code (still protected; warned about).
    pub removed_from_code: Vec<CodeProtection>,
    /// In the code but not yet in the record (added to it unless recording is off).
    pub newly_found: Vec<CodeProtection>,
    /// Whether a Terraform root was read at all.
    pub root_read: Option<String>,
}

/// Why an address is protected.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "source", rename_all = "kebab-case")]
pub enum ProtectedBy {
    /// A `policy.protect` pattern in ward.hcl.
    Config {
        /// The pattern.
        pattern: String,
    },
    /// `prevent_destroy = true` in code.
    PreventDestroy {
        /// The file.
        file: String,
    },
    /// The protection record: `prevent_destroy` was removed from code.
    Record {
        /// The file that last declared it.
        file: String,
    },
}

impl Protection {
    /// Every reason `address` is protected (empty: not protected).
    pub fn protects(&self, address: &str) -> Vec<ProtectedBy> {
        let mut out = Vec::new();
        for p in &self.config_patterns {
            if address_matches(p, address) {
                out.push(ProtectedBy::Config { pattern: p.clone() });
            }
        }
        for c in &self.in_code {
            if address_matches(&c.address, address) {
                out.push(ProtectedBy::PreventDestroy {
                    file: c.file.clone(),
                });
            }
        }
        for c in &self.removed_from_code {
            if address_matches(&c.address, address) {
                out.push(ProtectedBy::Record {
                    file: c.file.clone(),
                });
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Combines config patterns, code and record. Returns the protection and the updated record.
    pub fn combine(
        config_patterns: Vec<String>,
        in_code: Vec<CodeProtection>,
        record: &ProtectionRecord,
        root_read: Option<String>,
    ) -> (Protection, ProtectionRecord) {
        let code_addrs: BTreeSet<&str> = in_code.iter().map(|c| c.address.as_str()).collect();
        let rec_addrs: BTreeSet<&str> = record
            .protected
            .iter()
            .map(|c| c.address.as_str())
            .collect();
        let removed: Vec<CodeProtection> = record
            .protected
            .iter()
            .filter(|c| !code_addrs.contains(c.address.as_str()))
            .cloned()
            .collect();
        let newly: Vec<CodeProtection> = in_code
            .iter()
            .filter(|c| !rec_addrs.contains(c.address.as_str()))
            .cloned()
            .collect();
        let mut merged: BTreeMap<String, CodeProtection> = BTreeMap::new();
        for c in record.protected.iter().chain(in_code.iter()) {
            merged.insert(c.address.clone(), c.clone());
        }
        let updated = ProtectionRecord {
            version: 1,
            protected: merged.into_values().collect(),
        };
        (
            Protection {
                config_patterns,
                in_code,
                removed_from_code: removed,
                newly_found: newly,
                root_read,
            },
            updated,
        )
    }
}

/// Reads the protection record; a missing file is an empty record.
pub fn load_record(path: &Path) -> Result<ProtectionRecord, GateError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(ProtectionRecord {
                version: 1,
                protected: Vec::new(),
            })
        }
        Err(e) => {
            return Err(GateError::Io {
                path: path.display().to_string(),
                action: "read the protection record",
                source: e,
            })
        }
    };
    parse_record(&text, &path.display().to_string())
}

/// Parses protection record text; `file` names it in errors.
pub fn parse_record(text: &str, file: &str) -> Result<ProtectionRecord, GateError> {
    let r: ProtectionRecord = serde_json::from_str(text).map_err(|e| GateError::Protection {
        file: file.to_string(),
        problem: format!("not a ward protection record ({e}); see `ward docs gate` for the format"),
    })?;
    if r.version != 1 {
        return Err(GateError::Protection {
            file: file.to_string(),
            problem: format!(
                "protection record version {} is not supported (expected 1)",
                r.version
            ),
        });
    }
    Ok(r)
}

/// The protection record's text as ward writes it: sorted, two-space indented,
/// newline-terminated.
pub fn render_record(r: &ProtectionRecord) -> String {
    let mut r = r.clone();
    r.protected.sort();
    let mut s = serde_json::to_string_pretty(&r).unwrap_or_default();
    s.push('\n');
    s
}

/// Writes the protection record, sorted.
pub fn save_record(path: &Path, r: &ProtectionRecord) -> Result<(), GateError> {
    crate::write_atomic(path, render_record(r).as_bytes())
}

/// Adds `found` to the protection record at `path` under its update lock: the record is read
/// again under the lock, so a concurrent gate's additions are kept.
pub fn add_to_record(path: &Path, found: &[CodeProtection]) -> Result<(), GateError> {
    let _lock = crate::lock(path)?;
    let current = load_record(path)?;
    let mut merged: BTreeMap<String, CodeProtection> = BTreeMap::new();
    for c in current.protected.iter().chain(found.iter()) {
        merged.insert(c.address.clone(), c.clone());
    }
    save_record(
        path,
        &ProtectionRecord {
            version: 1,
            protected: merged.into_values().collect(),
        },
    )
}

/// Finds every `prevent_destroy = true` in the root at `dir` and the local modules it calls, as
/// ward-repo reads them (`.tofu` files hide `.tf` files of the same name; override files win).
pub fn scan_root(dir: &Path) -> Result<Vec<CodeProtection>, GateError> {
    let mut out = Vec::new();
    let mut visiting = Vec::new();
    scan_module(dir, dir, "", &mut out, &mut visiting)?;
    out.sort();
    out.dedup();
    Ok(out)
}

/// True when the directory holds any configuration file Terraform or OpenTofu reads (`.tf`,
/// `.tf.json`, `.tofu`, `.tofu.json`).
pub fn has_terraform_files(dir: &Path) -> bool {
    ward_repo::read_module(dir).is_ok_and(|d| !d.module.files.is_empty())
}

fn scan_module(
    root: &Path,
    dir: &Path,
    prefix: &str,
    out: &mut Vec<CodeProtection>,
    visiting: &mut Vec<PathBuf>,
) -> Result<(), GateError> {
    let canon = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    if visiting.contains(&canon) || visiting.len() > 32 {
        return Ok(());
    }
    visiting.push(canon);
    let read = ward_repo::read_module(dir).map_err(|e| GateError::Terraform {
        file: dir.display().to_string(),
        problem: e.to_string(),
    })?;
    if let Some(p) = read.problems.first() {
        return Err(GateError::Terraform {
            file: dir.join(&p.loc.file).display().to_string(),
            problem: format!("line {}: {}", p.loc.line, p.message),
        });
    }
    let rel = |file: &str| {
        let path = dir.join(file);
        path.strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string()
    };
    for r in &read.module.resources {
        if r.mode == "managed" && r.prevent_destroy == Some(true) {
            out.push(CodeProtection {
                address: format!("{prefix}{}.{}", r.type_name, r.name),
                file: rel(&r.loc.file),
            });
        }
    }
    for call in &read.module.module_calls {
        if let Some(ward_repo::ModuleSource {
            kind: ward_repo::SourceKind::Local { path },
            ..
        }) = &call.source
        {
            let sub = dir.join(path);
            if sub.is_dir() {
                scan_module(
                    root,
                    &sub,
                    &format!("{prefix}module.{}.", call.name),
                    out,
                    visiting,
                )?;
            }
        }
    }
    visiting.pop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_hcl_json_and_local_modules() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("main.tf"),
            r#"
resource "fakecloud_volume" "data" {
  size_gb = 10
  lifecycle {
    prevent_destroy = true
  }
}
resource "fakecloud_volume" "scratch" {
  lifecycle { prevent_destroy = false }
}
module "db" {
  source = "./modules/db"
}
module "remote" {
  source = "git::https://example.invalid/x.git"
}
"#,
        )
        .unwrap();
        std::fs::create_dir_all(d.path().join("modules/db")).unwrap();
        std::fs::write(
            d.path().join("modules/db/x.tf.json"),
            r#"{"resource":{"fakecloud_volume":{"ledger":{"lifecycle":{"prevent_destroy":true}}}}}"#,
        )
        .unwrap();
        let found = scan_root(d.path()).unwrap();
        let addrs: Vec<&str> = found.iter().map(|c| c.address.as_str()).collect();
        assert_eq!(
            addrs,
            ["fakecloud_volume.data", "module.db.fakecloud_volume.ledger"]
        );
    }

    #[test]
    fn record_keeps_removed_protection() {
        let rec = ProtectionRecord {
            version: 1,
            protected: vec![CodeProtection {
                address: "fakecloud_volume.data".into(),
                file: "main.tf".into(),
            }],
        };
        let (p, updated) = Protection::combine(vec![], vec![], &rec, Some(".".into()));
        assert_eq!(p.removed_from_code.len(), 1);
        assert_eq!(
            p.protects("fakecloud_volume.data[0]"),
            vec![ProtectedBy::Record {
                file: "main.tf".into()
            }]
        );
        assert_eq!(updated, rec);
        let (p, updated) = Protection::combine(
            vec!["x.*".into()],
            vec![CodeProtection {
                address: "a.b".into(),
                file: "m.tf".into(),
            }],
            &rec,
            None,
        );
        assert_eq!(p.newly_found.len(), 1);
        assert_eq!(updated.protected.len(), 2);
        assert!(!p.protects("x.y").is_empty());
        assert!(p.protects("y.y").is_empty());
    }

    #[test]
    fn bad_hcl_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("main.tf"), "resource {").unwrap();
        assert!(scan_root(d.path()).is_err());
    }

    #[test]
    fn a_record_with_unknown_keys_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("protection.json");
        std::fs::write(
            &p,
            r#"{"version":1,"protected":[{"address":"a.b","file":"main.tf","note":"x"}]}"#,
        )
        .unwrap();
        let e = load_record(&p).unwrap_err().to_string();
        assert!(e.contains("note"), "{e}");
    }
}
