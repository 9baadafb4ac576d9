//! The approvals file: one entry per approved change, bound to its digest.
//!
//! Format (JSON, documented in `docs/gate.md`), written with approvals sorted by address,
//! deposed key, approval time and digest, two-space indented, ending in a newline, so it diffs
//! well when committed:
//!
//! ```json
//! {
//!   "version": 1,
//!   "approvals": [
//!     {
//!       "address": "fakecloud_volume.data",
//!       "digest": "sha256:…",
//!       "change": { "address": "…", "type": "…", "action": "delete,create", "impact": "data-loss", "attributes": [] },
//!       "reason": "resize ledger volume, backup taken",
//!       "by": "alice",
//!       "approved_at": "2026-11-29T18:00:00Z",
//!       "expires_at": "2026-11-30T18:00:00Z",
//!       "signature": "hmac-sha256:…"
//!     }
//!   ]
//! }
//! ```

use crate::digest::{constant_time_eq, digest_material, sign_without_signature, ChangeMaterial};
use crate::error::GateError;
use serde::{Deserialize, Serialize};
use std::path::Path;
use ward_time::Timestamp;

/// The environment variable holding the HMAC key for signing and checking approvals.
pub const KEY_VAR: &str = "WARD_APPROVAL_KEY";

/// The current format version.
pub const FORMAT_VERSION: u32 = 1;

/// The whole approvals file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovalsFile {
    /// Format version: 1.
    pub version: u32,
    /// The approvals, sorted.
    pub approvals: Vec<Approval>,
}

impl Default for ApprovalsFile {
    fn default() -> Self {
        ApprovalsFile {
            version: FORMAT_VERSION,
            approvals: Vec::new(),
        }
    }
}

/// One approval of one change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Approval {
    /// Resource instance address (never a pattern).
    pub address: String,
    /// Deposed key, for a deposed object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// `sha256:<hex>` of `change`.
    pub digest: String,
    /// The approved change: what the digest covers.
    pub change: ChangeMaterial,
    /// Why it is approved.
    pub reason: String,
    /// Who approved it.
    pub by: String,
    /// When, UTC RFC 3339.
    pub approved_at: String,
    /// When it stops counting, UTC RFC 3339; absent: never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// `hmac-sha256:<hex>` over the canonical JSON of this approval without `signature`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// Whether an approval's signature holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignatureState {
    /// Signed, and the signature matches the key.
    Valid,
    /// Signed, but the signature does not match: the approval was edited or signed with
    /// another key.
    Invalid,
    /// Signed, but no key is available to check it.
    Unchecked,
    /// Not signed.
    Unsigned,
}

impl Approval {
    /// The signature this approval should carry under `key`.
    pub fn compute_signature(&self, key: &[u8]) -> String {
        sign_without_signature(serde_json::to_value(self).unwrap_or_default(), key)
    }

    /// Signs the approval in place.
    pub fn sign(&mut self, key: &[u8]) {
        self.signature = None;
        self.signature = Some(self.compute_signature(key));
    }

    /// Checks the signature against `key` (when there is one).
    pub fn signature_state(&self, key: Option<&[u8]>) -> SignatureState {
        match (&self.signature, key) {
            (None, _) => SignatureState::Unsigned,
            (Some(_), None) => SignatureState::Unchecked,
            (Some(sig), Some(k)) => {
                let want = self.compute_signature(k);
                if !want.is_empty() && constant_time_eq(sig.as_bytes(), want.as_bytes()) {
                    SignatureState::Valid
                } else {
                    SignatureState::Invalid
                }
            }
        }
    }

    /// True when the recorded digest is the digest of the recorded change (a hand edit of
    /// `change` without a new digest breaks this).
    pub fn digest_consistent(&self) -> bool {
        self.digest == digest_material(&self.change)
            && self.change.address == self.address
            && self.change.deposed == self.deposed
    }

    /// When it expires, if it does and the time parses.
    pub fn expires(&self) -> Result<Option<Timestamp>, String> {
        self.expires_at
            .as_deref()
            .map(|s| ward_time::parse_timestamp(s).map_err(|e| format!("expires_at: {e}")))
            .transpose()
    }
}

/// Reads the approvals file; a missing file is an empty set of approvals.
pub fn load(path: &Path) -> Result<ApprovalsFile, GateError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ApprovalsFile::default()),
        Err(e) => {
            return Err(GateError::Io {
                path: path.display().to_string(),
                action: "read the approvals file",
                source: e,
            })
        }
    };
    parse(&text, &path.display().to_string())
}

/// Parses approvals file text.
pub fn parse(text: &str, name: &str) -> Result<ApprovalsFile, GateError> {
    let f: ApprovalsFile = serde_json::from_str(text).map_err(|e| GateError::Approvals {
        file: name.to_string(),
        problem: format!(
            "not a ward approvals file ({e}); see `ward docs gate` for the format, or move it away and approve again"
        ),
    })?;
    if f.version != FORMAT_VERSION {
        return Err(GateError::Approvals {
            file: name.to_string(),
            problem: format!(
                "approvals format version {} is not supported (this ward writes and reads version {FORMAT_VERSION})",
                f.version
            ),
        });
    }
    for a in &f.approvals {
        if let Err(e) = ward_time::parse_timestamp(&a.approved_at) {
            return Err(GateError::Approvals {
                file: name.to_string(),
                problem: format!(
                    "the approval of {} has approved_at {:?}: {e}; approve the change again with `ward approve`",
                    a.address, a.approved_at
                ),
            });
        }
        if let Err(e) = a.expires() {
            return Err(GateError::Approvals {
                file: name.to_string(),
                problem: format!(
                    "the approval of {}: {e}; approve the change again with `ward approve`",
                    a.address
                ),
            });
        }
    }
    Ok(f)
}

/// Refuses approvals dated after `now` (an approval cannot be given in the future: such a date
/// is an edit or a wrong clock).
pub fn check_not_future(f: &ApprovalsFile, now: Timestamp, name: &str) -> Result<(), GateError> {
    for a in &f.approvals {
        if let Ok(t) = ward_time::parse_timestamp(&a.approved_at) {
            if t > now {
                return Err(GateError::Approvals {
                    file: name.to_string(),
                    problem: format!(
                        "the approval of {} is dated {}, after now ({now}): an approval cannot come from the future; check the clock, or approve the change again",
                        a.address, a.approved_at
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Sorts approvals into the file's stable order.
pub fn sort(f: &mut ApprovalsFile) {
    f.approvals.sort_by(|a, b| {
        (&a.address, &a.deposed, &a.approved_at, &a.digest).cmp(&(
            &b.address,
            &b.deposed,
            &b.approved_at,
            &b.digest,
        ))
    });
}

/// The file's text: sorted, two-space indented, newline-terminated.
pub fn render(f: &ApprovalsFile) -> String {
    let mut f = f.clone();
    sort(&mut f);
    let mut s = serde_json::to_string_pretty(&f).unwrap_or_default();
    s.push('\n');
    s
}

/// Writes the approvals file (creating its directory), atomically via a temporary file.
pub fn save(path: &Path, f: &ApprovalsFile) -> Result<(), GateError> {
    crate::write_atomic(path, render(f).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ward_model::Impact;

    fn sample() -> Approval {
        let change = ChangeMaterial {
            address: "fakecloud_volume.data".into(),
            deposed: None,
            type_name: "fakecloud_volume".into(),
            action: "delete,create".into(),
            action_reason: None,
            impact: Impact::DataLoss,
            attributes: vec![],
            object: None,
            context: None,
        };
        Approval {
            address: change.address.clone(),
            deposed: None,
            digest: digest_material(&change),
            change,
            reason: "r".into(),
            by: "alice".into(),
            approved_at: "2026-11-29T18:00:00Z".into(),
            expires_at: None,
            signature: None,
        }
    }

    #[test]
    fn signatures() {
        let mut a = sample();
        assert_eq!(a.signature_state(Some(b"k")), SignatureState::Unsigned);
        a.sign(b"k");
        assert_eq!(a.signature_state(Some(b"k")), SignatureState::Valid);
        assert_eq!(a.signature_state(None), SignatureState::Unchecked);
        assert_eq!(a.signature_state(Some(b"other")), SignatureState::Invalid);
        let mut t = a.clone();
        t.expires_at = Some("2099-01-01T00:00:00Z".into());
        assert_eq!(t.signature_state(Some(b"k")), SignatureState::Invalid);
        let mut t = a.clone();
        t.by = "mallory".into();
        assert_eq!(t.signature_state(Some(b"k")), SignatureState::Invalid);
    }

    #[test]
    fn round_trip_and_refusals() {
        let mut f = ApprovalsFile::default();
        let mut b = sample();
        b.address = "a.b".into();
        f.approvals.push(sample());
        f.approvals.push(b);
        let text = render(&f);
        let back = parse(&text, "f").unwrap();
        assert_eq!(back.approvals[0].address, "a.b");
        assert_eq!(render(&back), text);
        assert!(parse("{\"version\":2,\"approvals\":[]}", "f")
            .unwrap_err()
            .to_string()
            .contains("version 2"));
        assert!(parse("{\"version\":1,\"approvals\":[],\"x\":1}", "f").is_err());
        assert!(parse("[]", "f").is_err());
        let garbage = text.replace("2026-11-29T18:00:00Z", "yesterday-ish");
        assert!(parse(&garbage, "f")
            .unwrap_err()
            .to_string()
            .contains("approved_at"));
        let now = ward_time::parse_timestamp("2026-11-29T17:00:00Z").unwrap();
        let e = check_not_future(&back, now, "f").unwrap_err().to_string();
        assert!(e.contains("future"), "{e}");
        let later = ward_time::parse_timestamp("2026-11-29T19:00:00Z").unwrap();
        check_not_future(&back, later, "f").unwrap();
    }

    #[test]
    fn digest_consistency() {
        let a = sample();
        assert!(a.digest_consistent());
        let mut t = a.clone();
        t.change.impact = Impact::Replace;
        assert!(!t.digest_consistent());
        let mut t = a;
        t.address = "other.x".into();
        assert!(!t.digest_consistent());
    }
}
