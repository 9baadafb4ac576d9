//! Change digests: what an approval is bound to.
//!
//! The *approval digest* of a change covers its address, deposed key, resource type, action,
//! action reason, impact class, and the attributes that decide its class:
//!
//! - for a replacement: the attributes that force it (`replace_paths`);
//! - for an update: the attributes at the change's class;
//! - for a delete or anything else: none (the address, action and class decide).
//!
//! A change that destroys the object (a delete, either replacement) also covers the object's
//! identity (`object`: its last known `id` and the type's other identity attributes), so an
//! approval to delete one object does not pass deleting another planned later at the address.
//!
//! Each attribute contributes its path and its before/after values as the model shows them. It
//! deliberately does not cover the rest of the plan, so an unrelated change elsewhere keeps the
//! approval valid, while any change to this resource's deciding attributes voids it.
//!
//! When a deciding attribute's shown value hides the raw one (sensitive, or a string shortened
//! by the reader), the reader keeps a SHA-256 fingerprint of the raw values
//! ([`ward_model::AttrChange::hidden`]). With a key (`WARD_APPROVAL_KEY`) the attribute also
//! carries `binding`, HMAC-SHA256(key, fingerprint), which the digest covers: a change of the
//! hidden value alone then voids the approval. The plain fingerprint is never stored or
//! printed; without a key there is no binding and the digest is what it was before.
//!
//! The *full digest* (used by `ward verify`) covers the whole normalized change.
//!
//! # Binding hidden values without a key
//!
//! The full digest covers what the model *shows*; a sensitive value, or a string tail past 200
//! characters, is not in the model. With the key, the record digest binds the reader's content
//! fingerprint of every raw value through HMAC ([`record_digest`]). Without a key the gate record
//! still has to bind those values, or a plan whose only change is a secret would verify; and it
//! must not carry anything from which a low-entropy secret (a short password, a PIN) is cheaply
//! recovered. A plain SHA-256 of the fingerprint would be exactly that: anyone with the record
//! and the plan's shown values tries candidate secrets at billions per second. So an unsigned
//! record carries [`content_binding`], one Argon2id hash (memory-hard: [`CONTENT_M_COST`] KiB,
//! [`CONTENT_T_COST`] passes, one lane) over the content fingerprints of every change of the
//! plan, with a random 16-byte salt drawn for each record:
//!
//! - each guess costs a full Argon2id evaluation (64 MiB, about a quarter of a second on one core),
//!   and GPUs gain little on a memory-hard function;
//! - the salt is new for every record, so nothing is precomputed and no work is shared between
//!   records or between two plans holding the same secret (their bindings differ);
//! - one hash covers the whole plan, so a guess has to get every hidden value of every change
//!   right at once, and `ward verify` pays the cost once, not per change.
//!
//! What this does not do, and why it is acceptable: it does not make a guessable secret
//! unguessable. Any record that lets a keyless `ward verify` tell two values apart is an oracle
//! for them, whatever it is built from; the binding only prices each guess. The record is
//! written owner-only (0600) beside the saved plan file, and that plan file holds every
//! secret in clear: the record is strictly less sensitive than the plan it accompanies, so it
//! should be kept where the plan is kept (the same CI artifact, never a public log). Where
//! that is not good enough, set `WARD_APPROVAL_KEY`: the keyed record binds the same values
//! through HMAC, which nobody without the key can test guesses against, and signs the record.
//! (`docs/gate.md`, "What the gate record binds", says the same for users.)
//!
//! `ward verify` accepts only the scheme and parameters this ward writes ([`CONTENT_SCHEME`]):
//! a record naming other parameters is refused, so an edited record cannot make verify spend
//! unbounded memory or time.

use data_encoding::{HEXLOWER, HEXLOWER_PERMISSIVE};
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use ward_classify::{AttrVerdict, Verdict};
use ward_model::{Action, HiddenDigest, Impact, Plan, ResourceChange, Shown};

/// What an approval digest is computed over; stored in each approval so a reviewer (and the gate)
/// can see what was approved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChangeMaterial {
    /// Resource instance address.
    pub address: String,
    /// Deposed key, for a deposed object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Terraform's spelling of the action, e.g. `delete,create`.
    pub action: String,
    /// `action_reason`, when the plan gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_reason: Option<String>,
    /// The impact class.
    pub impact: Impact,
    /// The deciding attributes, sorted by path.
    #[serde(default)]
    pub attributes: Vec<DecidingAttr>,
    /// For a change that destroys the object: what identifies the object destroyed
    /// (`id=vol-0abc`), so the approval is bound to that object and not to whatever is planned at
    /// the address later. Absent for other changes (their digests are as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// What the change was planned against besides its own root, when a caller binds it (ward
    /// stack: `sha256:` of the upstream outputs the root reads). Absent otherwise, so digests
    /// without a context are what they always were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// One deciding attribute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecidingAttr {
    /// Displayed path, e.g. `size_gb`.
    pub path: String,
    /// The value before, as shown (`{"kind":"known","value":20}`, `{"kind":"sensitive"}`...).
    pub before: Value,
    /// The value after, as shown.
    pub after: Value,
    /// `hmac-sha256:<hex>` of the fingerprint of the hidden raw values under the approval key,
    /// when a side is hidden (sensitive or shortened) and a key is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<String>,
}

impl DecidingAttr {
    /// True when either side is hidden as sensitive (the digest cannot see a change of value).
    pub fn is_sensitive(&self) -> bool {
        let s = |v: &Value| v.get("kind").and_then(Value::as_str) == Some("sensitive");
        s(&self.before) || s(&self.after)
    }

    /// `path: before → after`, for reports.
    pub fn describe(&self) -> String {
        format!(
            "{}: {} → {}",
            self.path,
            show(&self.before),
            show(&self.after)
        )
    }
}

fn show(v: &Value) -> String {
    match v.get("kind").and_then(Value::as_str) {
        Some("known") => v.get("value").map(|x| x.to_string()).unwrap_or_default(),
        Some("sensitive") => "(sensitive)".into(),
        Some("unknown") => "(known after apply)".into(),
        Some("absent") => "null".into(),
        _ => v.to_string(),
    }
}

fn shown_value(s: &Shown) -> Value {
    serde_json::to_value(s).unwrap_or(Value::Null)
}

/// The attributes of a verdict that decide its class (see the module documentation).
pub fn deciding(v: &Verdict) -> impl Iterator<Item = &AttrVerdict> {
    // An unclassified change lists what changes, but no rule judged any of it: nothing decides.
    v.attributes
        .iter()
        .filter(|a| v.classified && is_deciding(v.action, v.impact, a))
}

/// Whether `a` decides the class of a change with this action and class (what [`deciding`]
/// keeps).
pub fn is_deciding(action: Action, impact: Impact, a: &AttrVerdict) -> bool {
    if action.is_replace() {
        a.forces_replacement
    } else if action == Action::Update {
        a.impact == impact && a.impact > Impact::Free
    } else {
        false
    }
}

/// `hmac-sha256:<hex>` of a hidden-value fingerprint under `key`.
pub fn bind(key: &[u8], hidden: &HiddenDigest) -> Option<String> {
    hmac_hex(key, hidden.bytes())
}

/// `hmac-sha256:<hex>` of `bytes` under `key` (`None` only if HMAC refused the key, which it
/// never does: callers fail closed on it).
pub fn hmac_hex(key: &[u8], bytes: &[u8]) -> Option<String> {
    hmac_hex_with(key, |update| update(bytes))
}

/// [`hmac_hex`] of the bytes `feed` hands over piece by piece (a large input, such as a gate
/// record's canonical JSON, is never held whole).
pub(crate) fn hmac_hex_with(
    key: &[u8],
    feed: impl FnOnce(&mut dyn FnMut(&[u8])),
) -> Option<String> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).ok()?;
    feed(&mut |b: &[u8]| mac.update(b));
    Some(format!(
        "hmac-sha256:{}",
        HEXLOWER.encode(&mac.finalize().into_bytes())
    ))
}

/// The deciding attributes of a verdict (see the module documentation). With `key` (the
/// approval key), each attribute whose value is hidden carries its keyed binding.
pub fn material(v: &Verdict, key: Option<&[u8]>) -> ChangeMaterial {
    material_in(v, key, None)
}

/// [`material`] bound to a `context` ([`ChangeMaterial::context`]): an approval given under
/// another context does not match.
pub fn material_in(v: &Verdict, key: Option<&[u8]>, context: Option<&str>) -> ChangeMaterial {
    let mut attributes: Vec<DecidingAttr> = deciding(v)
        .map(|a| DecidingAttr {
            path: a.change.path.to_string(),
            before: shown_value(&a.change.before),
            after: shown_value(&a.change.after),
            binding: match (key, &a.change.hidden) {
                (Some(k), Some(h)) => bind(k, h),
                _ => None,
            },
        })
        .collect();
    attributes.sort_by(|a, b| a.path.cmp(&b.path));
    ChangeMaterial {
        address: v.address.clone(),
        deposed: v.deposed.clone(),
        type_name: v.type_name.to_string(),
        action: v.action.as_terraform().to_string(),
        action_reason: v.action_reason.clone(),
        impact: v.impact,
        attributes,
        object: v.destroyed_object.clone(),
        context: context.map(str::to_string),
    }
}

/// The approval digest of a change material: `sha256:<hex>`.
pub fn digest_material(m: &ChangeMaterial) -> String {
    sha256_json(&serde_json::to_value(m).unwrap_or(Value::Null))
}

/// The approval digest of a verdict (with `key`, bound to hidden values; see [`material`]).
pub fn approval_digest(v: &Verdict, key: Option<&[u8]>) -> String {
    digest_material(&material(v, key))
}

/// The full digest of a normalized change: every field of it.
pub fn full_digest(c: &ResourceChange) -> String {
    sha256_json(&serde_json::to_value(c).unwrap_or(Value::Null))
}

/// The digest of a whole plan: [`full_digest`] of every change, keyed by address and deposed
/// key, sorted. What `ward import accept` binds the saved plan to its check with.
pub fn plan_digest(plan: &ward_model::Plan) -> String {
    let mut v: Vec<(String, Option<String>, String)> = plan
        .changes
        .iter()
        .map(|c| (c.address.clone(), c.deposed.clone(), full_digest(c)))
        .collect();
    v.sort();
    sha256_json(&serde_json::to_value(v).unwrap_or(Value::Null))
}

/// The signature of a signed file entry (an approval, a gate record): HMAC-SHA256 under `key`
/// over the canonical JSON of `v` without its `signature` member. Empty (never matching) if
/// HMAC refused the key, which it never does: fail closed.
pub fn sign_without_signature(mut v: Value, key: &[u8]) -> String {
    if let Value::Object(m) = &mut v {
        m.remove("signature");
    }
    hmac_hex(key, &canonical_bytes(&v)).unwrap_or_default()
}

/// The record digest of a change: every field of the normalized change and, with `key`, the
/// reader's content fingerprint ([`ResourceChange::content`]: every raw value, so a create's
/// `after`, a delete's `before`, sensitive and shortened values) as HMAC-SHA256 under the key.
/// Without a key it is [`full_digest`]: a plain hash of secret values is never written.
pub fn record_digest(c: &ResourceChange, key: Option<&[u8]>) -> String {
    digest_text(&record_digest_bytes(c, key))
}

/// [`record_digest`]'s 32 bytes, before they are written as `sha256:` and hex (what the gate
/// record and `ward verify` keep of each change while the plan is read).
pub(crate) fn record_digest_bytes(c: &ResourceChange, key: Option<&[u8]>) -> [u8; 32] {
    let mut v = serde_json::to_value(c).unwrap_or(Value::Null);
    if let (Some(h), Some(k)) = (&c.content, key) {
        if let Value::Object(m) = &mut v {
            m.insert(
                "content".into(),
                Value::String(hmac_hex(k, h.bytes()).unwrap_or_default()),
            );
        }
    }
    Sha256::digest(canonical_bytes(&v)).into()
}

/// A digest as the record and the approvals write it: `sha256:` and lower-case hex.
pub(crate) fn digest_text(bytes: &[u8; 32]) -> String {
    format!("sha256:{}", HEXLOWER.encode(bytes))
}

/// Argon2id's memory cost for [`content_binding`], in KiB (64 MiB).
pub const CONTENT_M_COST: u32 = 64 * 1024;

/// Argon2id's passes for [`content_binding`].
pub const CONTENT_T_COST: u32 = 3;

/// How a [`content_binding`] starts: the algorithm and its parameters, then `:` salt `:` hash
/// (lower-case hex).
pub const CONTENT_SCHEME: &str = "argon2id-v19-m65536-t3-p1";

/// The salt length of a [`content_binding`], in bytes.
const CONTENT_SALT: usize = 16;

/// What [`content_binding`] hashes: SHA-256 over every change's address, deposed key and the
/// reader's content fingerprint, sorted. It is derived from secret values and never leaves this
/// module except through Argon2id.
fn content_input(plan: &Plan) -> [u8; 32] {
    content_input_of(
        plan.changes
            .iter()
            .map(|c| (c.address.as_str(), c.deposed.as_deref(), c.content.as_ref())),
    )
}

/// [`content_input`] over each change's address, deposed key and content fingerprint, in any
/// order (they are sorted here): what a plan read change by change kept of each
/// ([`crate::record::Digests`]).
pub(crate) fn content_input_of<'a>(
    changes: impl Iterator<Item = (&'a str, Option<&'a str>, Option<&'a HiddenDigest>)>,
) -> [u8; 32] {
    type Entry<'a> = (&'a str, Option<&'a str>, Option<&'a [u8]>);
    let mut v: Vec<Entry<'_>> = changes
        .map(|(address, deposed, content)| (address, deposed, content.map(|h| &h.bytes()[..])))
        .collect();
    v.sort();
    content_input_sorted(v.into_iter())
}

/// [`content_input_of`] over changes already in its order: by address, deposed key, then
/// content fingerprint (`None` first, then by its bytes), as [`content_order`] sorts them.
pub(crate) fn content_input_sorted<'a>(
    changes: impl Iterator<Item = (&'a str, Option<&'a str>, Option<&'a [u8]>)>,
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"ward-content-v1");
    for (address, deposed, content) in changes {
        for part in [
            Some(address.as_bytes()),
            deposed.map(str::as_bytes),
            content,
        ] {
            match part {
                Some(b) => {
                    h.update([1]);
                    h.update((b.len() as u64).to_be_bytes());
                    h.update(b);
                }
                None => h.update([0]),
            }
        }
    }
    h.finalize().into()
}

/// The order [`content_input_sorted`] takes the changes in.
pub(crate) fn content_order<'a>(
    a: (&'a str, Option<&'a str>, Option<&'a HiddenDigest>),
    b: (&'a str, Option<&'a str>, Option<&'a HiddenDigest>),
) -> std::cmp::Ordering {
    fn bytes(h: Option<&HiddenDigest>) -> Option<&[u8]> {
        h.map(|h| &h.bytes()[..])
    }
    (a.0, a.1, bytes(a.2)).cmp(&(b.0, b.1, bytes(b.2)))
}

fn argon2(input: &[u8], salt: &[u8]) -> Option<[u8; 32]> {
    let params = argon2::Params::new(CONTENT_M_COST, CONTENT_T_COST, 1, Some(32)).ok()?;
    let a = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let mut out = [0u8; 32];
    a.hash_password_into(input, salt, &mut out).ok()?;
    Some(out)
}

/// The keyless binding of every raw value of `plan` (see "Binding hidden values without a key"
/// in the module documentation): `argon2id-v19-m65536-t3-p1:<salt hex>:<hash hex>`, with a
/// fresh random salt. `None` only when the operating system gave no randomness; callers fail
/// closed on it (`ward verify` refuses a record without a binding).
pub fn content_binding(plan: &Plan) -> Option<String> {
    content_binding_of(&content_input(plan))
}

/// [`content_binding`] of what [`content_input_of`] computed (a plan read change by change).
pub(crate) fn content_binding_of(input: &[u8; 32]) -> Option<String> {
    let mut salt = [0u8; CONTENT_SALT];
    getrandom::fill(&mut salt).ok()?;
    content_binding_with_salt(input, &salt)
}

fn content_binding_with_salt(input: &[u8; 32], salt: &[u8]) -> Option<String> {
    let out = argon2(input, salt)?;
    Some(format!(
        "{CONTENT_SCHEME}:{}:{}",
        HEXLOWER.encode(salt),
        HEXLOWER.encode(&out)
    ))
}

/// Whether `binding` (a [`content_binding`]) binds exactly the raw values of `plan`; `Err` says
/// what is wrong with a binding this ward did not write.
pub fn content_matches(binding: &str, plan: &Plan) -> Result<bool, String> {
    content_matches_input(binding, &content_input(plan))
}

/// [`content_matches`] against what [`content_input_of`] computed (a plan read change by
/// change).
pub(crate) fn content_matches_input(binding: &str, input: &[u8; 32]) -> Result<bool, String> {
    let refuse = || {
        format!(
            "the gate record's content binding is not one this ward writes (expected `{CONTENT_SCHEME}:<salt>:<hash>`): it was edited, or written by another version; gate the plan again"
        )
    };
    let rest = binding
        .strip_prefix(CONTENT_SCHEME)
        .and_then(|r| r.strip_prefix(':'))
        .ok_or_else(refuse)?;
    let (salt, want) = rest.split_once(':').ok_or_else(refuse)?;
    let salt = unhex(salt)
        .filter(|s| s.len() == CONTENT_SALT)
        .ok_or_else(refuse)?;
    let want = unhex(want).filter(|w| w.len() == 32).ok_or_else(refuse)?;
    let got = argon2(input, &salt).ok_or_else(refuse)?;
    Ok(constant_time_eq(&got, &want))
}

/// Hex of either case, as the content binding was written (lower case) or edited.
fn unhex(s: &str) -> Option<Vec<u8>> {
    HEXLOWER_PERMISSIVE.decode(s.as_bytes()).ok()
}

/// `sha256:<hex>` of the canonical serialization of a JSON value (object keys sorted, no
/// whitespace).
pub fn sha256_json(v: &Value) -> String {
    let bytes = canonical_bytes(v);
    format!("sha256:{}", HEXLOWER.encode(&Sha256::digest(&bytes)))
}

/// The canonical serialization: object keys sorted at every level, compact.
pub fn canonical_bytes(v: &Value) -> Vec<u8> {
    // Writing into memory does not fail; should it, the empty text is what it always gave.
    let mut out = Vec::new();
    match serde_json::to_writer(&mut out, &Sorted(v)) {
        Ok(()) => out,
        Err(_) => Vec::new(),
    }
}

/// A JSON value serialized with its object keys sorted at every level, as it is (no copy of
/// it is made): the same bytes as `serde_json` writes of the value rebuilt with sorted keys.
/// `serde_json`'s map keeps its keys sorted unless a crate turns on its `preserve_order`
/// feature; the keys are sorted here either way.
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.0 {
            Value::Object(m) => {
                let mut keys: Vec<(&String, &Value)> = m.iter().collect();
                if !keys.is_sorted_by(|a, b| a.0 <= b.0) {
                    keys.sort_by(|a, b| a.0.cmp(b.0));
                }
                let mut map = s.serialize_map(Some(keys.len()))?;
                for (k, x) in keys {
                    map.serialize_entry(k, &Sorted(x))?;
                }
                map.end()
            }
            Value::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    seq.serialize_element(&Sorted(x))?;
                }
                seq.end()
            }
            other => other.serialize(s),
        }
    }
}

/// Compares two byte strings in time independent of where they differ (subtle's comparison; a
/// different length is unequal at once, and lengths here are public: hex of a fixed-size MAC or
/// hash).
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    a.ct_eq(b).into()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    /// What [`canonical_bytes`] wrote before it serialized the value in place: a copy rebuilt
    /// with its keys inserted in sorted order, written by `serde_json`.
    fn rebuilt(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let mut out = serde_json::Map::new();
                for k in keys {
                    out.insert(k.clone(), rebuilt(&m[k.as_str()]));
                }
                Value::Object(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(rebuilt).collect()),
            other => other.clone(),
        }
    }

    #[test]
    fn canonical_bytes_are_the_sorted_copy_written_out() {
        let v = json!({
            "zeta": [3, -1, 1.5, 1e300, u64::MAX, i64::MIN, null, true, false],
            "alpha": {"b": {"d": [], "c": {}}, "a": "quote \" slash \\ nl \n tab \t \u{1} é 😀"},
            "": [{"y": 1, "x": [{"k2": 2, "k1": 1}]}],
            "Beta": "",
            "beta": 0.0
        });
        let bytes = canonical_bytes(&v);
        assert_eq!(bytes, serde_json::to_vec(&rebuilt(&v)).unwrap());
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            r#"{"":[{"x":[{"k1":1,"k2":2}],"y":1}],"Beta":"","alpha":{"a":"quote \" slash \\ nl \n tab \t \u0001 é 😀","b":{"c":{},"d":[]}},"beta":0.0,"zeta":[3,-1,1.5,1e+300,18446744073709551615,-9223372036854775808,null,true,false]}"#
        );
        for scalar in [json!(null), json!("s"), json!(7), json!([]), json!({})] {
            assert_eq!(
                canonical_bytes(&scalar),
                serde_json::to_vec(&scalar).unwrap()
            );
        }
    }
}
