//! The gate record: what `ward gate` gated, so `ward verify` can check at apply time that the
//! saved plan about to be applied is that plan.
//!
//! It lists every change of the plan with its *full* digest (the whole normalized change, not
//! only the deciding attributes), and the gate's outcome. Written with `ward gate --record FILE`.
//!
//! With the approval key (`WARD_APPROVAL_KEY`) each change's digest also binds every raw value
//! of the change (keyed, see [`crate::digest::record_digest`]), and the record carries
//! `signature`, HMAC-SHA256 under the key over its canonical JSON without `signature`:
//! `ward verify` with the key refuses an unsigned or edited record.
//!
//! Without the key the record carries `content` instead: one Argon2id hash, with a random salt,
//! of every raw value of the plan ([`crate::digest::content_binding`], whose documentation says
//! why that and not a plain hash), so a change of a sensitive value or of a string tail past 200
//! characters alone still fails `ward verify`.

use crate::digest::{
    canonical_bytes, content_binding_of, content_input_of, content_input_sorted, content_order,
    digest_text, hmac_hex_with, record_digest_bytes,
};
use crate::error::GateError;
use crate::Outcome;
use serde::{Deserialize, Serialize};
use std::path::Path;
use ward_model::{Action, Impact, Plan, ResourceChange};

/// One change as gated.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedChange {
    /// Address.
    pub address: String,
    /// Deposed key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// Action, Terraform spelling.
    pub action: String,
    /// Full digest of the normalized change.
    pub digest: String,
}

/// The gate record file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateRecord {
    /// Format version: 1.
    pub version: u32,
    /// The plan as named to `ward gate`.
    pub plan: String,
    /// `terraform`, `opentofu` or `unknown`.
    pub product: String,
    /// `terraform_version` of the plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terraform_version: Option<String>,
    /// The gate's outcome for this plan.
    pub outcome: Outcome,
    /// Every change (`resource_changes`), sorted by address and deposed key.
    pub changes: Vec<RecordedChange>,
    /// Written without the approval key: the binding of every raw value of the plan
    /// (`argon2id-v19-m65536-t3-p1:<salt>:<hash>`, see [`crate::digest::content_binding`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The review approvals the gate used (`ward gate --approvals-from`), which `ward verify`
    /// re-checks ([`crate::verify_reviews`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviews: Option<ReviewBinding>,
    /// `hmac-sha256:<hex>` over the canonical JSON of the record without this field, when
    /// written with the approval key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

impl GateRecord {
    /// The signature this record should carry under `key`:
    /// [`crate::digest::sign_without_signature`] of the record, its canonical JSON fed to the
    /// HMAC change by change. `changes` is the first key in canonical order, so the text is
    /// `{"changes":[` and each change's canonical JSON, then the rest of the record's canonical
    /// object: the same bytes as the whole record's, without the JSON value of every change
    /// held at once (several times the record's size: #35 item 2).
    pub fn compute_signature(&self, key: &[u8]) -> String {
        let rest = GateRecord {
            version: self.version,
            plan: self.plan.clone(),
            product: self.product.clone(),
            terraform_version: self.terraform_version.clone(),
            outcome: self.outcome,
            changes: Vec::new(),
            content: self.content.clone(),
            reviews: self.reviews.clone(),
            signature: None,
        };
        let mut rest = serde_json::to_value(&rest).unwrap_or_default();
        if let serde_json::Value::Object(m) = &mut rest {
            m.remove("changes");
        }
        let rest = canonical_bytes(&rest);
        hmac_hex_with(key, |update| {
            update(b"{\"changes\":[");
            for (i, c) in self.changes.iter().enumerate() {
                if i > 0 {
                    update(b",");
                }
                update(&canonical_bytes(
                    &serde_json::to_value(c).unwrap_or_default(),
                ));
            }
            update(b"]");
            match rest.strip_prefix(b"{") {
                Some(tail) if tail != b"}" => {
                    update(b",");
                    update(tail);
                }
                _ => update(b"}"),
            }
        })
        .unwrap_or_default()
    }

    /// Whether the signature holds under `key`: `Ok` when it does, else what is wrong.
    pub fn check_signature(&self, key: &[u8]) -> Result<(), String> {
        match &self.signature {
            None => Err("the gate record is not signed, but WARD_APPROVAL_KEY is set: gate the plan again with the key set (`ward gate PLAN --record FILE`)".into()),
            Some(sig) => {
                let want = self.compute_signature(key);
                if !want.is_empty() && crate::digest::constant_time_eq(sig.as_bytes(), want.as_bytes()) {
                    Ok(())
                } else {
                    Err("the gate record's signature does not match: it was edited after `ward gate` wrote it, or signed with another key; gate the plan again".into())
                }
            }
        }
    }
}

/// What the gate record and `ward verify` keep of each change, computed as the reader hands it
/// over (`ward gate --record` and `ward verify` read the plan change by change and keep only
/// this): its address, deposed key, action and record digest, compact (the action as its enum,
/// the digest as its 32 bytes: a [`RecordedChange`] is built from it only when the record is),
/// and the reader's content fingerprint, which only the keyless [`GateRecord::content`] binding
/// uses.
#[derive(Debug, Default)]
pub struct Digests {
    entries: Vec<Entry>,
}

/// One change as [`Digests`] keeps it.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) address: Box<str>,
    pub(crate) deposed: Option<Box<str>>,
    pub(crate) action: Action,
    pub(crate) digest: [u8; 32],
    content: Option<ward_model::HiddenDigest>,
    /// Counts the entries alive on this thread (tests: none when the binding is computed).
    #[cfg(test)]
    _live: tests::Live,
}

impl Entry {
    /// The order the record lists its changes in ([`RecordedChange`]'s: address, deposed key,
    /// action as Terraform spells it, digest; hex compares as its bytes do).
    fn record_order(&self, other: &Entry) -> std::cmp::Ordering {
        (
            &self.address,
            &self.deposed,
            self.action.as_terraform(),
            &self.digest,
        )
            .cmp(&(
                &other.address,
                &other.deposed,
                other.action.as_terraform(),
                &other.digest,
            ))
    }

    /// The order [`crate::digest::content_input_sorted`] takes the changes in.
    fn content_order(&self, other: &Entry) -> std::cmp::Ordering {
        content_order(
            (
                &self.address,
                self.deposed.as_deref(),
                self.content.as_ref(),
            ),
            (
                &other.address,
                other.deposed.as_deref(),
                other.content.as_ref(),
            ),
        )
    }

    fn into_change(self) -> RecordedChange {
        RecordedChange {
            address: self.address.into_string(),
            deposed: self.deposed.map(str::into_string),
            action: self.action.as_terraform().to_string(),
            digest: digest_text(&self.digest),
        }
    }
}

impl Digests {
    /// None yet.
    pub fn new() -> Self {
        Digests::default()
    }

    /// Every change of a whole plan.
    pub fn of_plan(plan: &Plan, key: Option<&[u8]>) -> Self {
        let mut d = Digests::new();
        for c in &plan.changes {
            d.add(c, key);
        }
        d
    }

    /// One change: its record digest (bound to its raw values under `key` when there is one)
    /// and its content fingerprint.
    pub fn add(&mut self, c: &ResourceChange, key: Option<&[u8]>) {
        self.entries.push(Entry {
            address: c.address.as_str().into(),
            deposed: c.deposed.as_deref().map(Into::into),
            action: c.action,
            digest: record_digest_bytes(c, key),
            content: c.content.clone(),
            #[cfg(test)]
            _live: tests::Live::new(),
        });
    }

    /// What was kept of each change, in the order given (`ward verify` compares them with the
    /// record without building a [`RecordedChange`] of each).
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many changes.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No change.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What [`crate::digest::content_binding_of`] hashes: every change's address, deposed key
    /// and content fingerprint (see [`crate::digest::content_binding`]).
    pub(crate) fn content_input(&self) -> [u8; 32] {
        content_input_of(
            self.entries
                .iter()
                .map(|e| (&*e.address, e.deposed.as_deref(), e.content.as_ref())),
        )
    }

    /// The recorded changes, sorted by address and deposed key (as the record lists them).
    pub fn into_changes(mut self) -> Vec<RecordedChange> {
        // In place: a stable sort would take a scratch buffer of half the entries; entries
        // equal in the whole order are interchangeable.
        self.entries.sort_unstable_by(Entry::record_order);
        self.entries.into_iter().map(Entry::into_change).collect()
    }
}

/// Every change of a plan with its full digest, sorted.
pub fn changes_of(plan: &Plan) -> Vec<RecordedChange> {
    changes_of_keyed(plan, None)
}

/// [`changes_of`], each digest bound to the raw values under `key` when there is one.
pub fn changes_of_keyed(plan: &Plan, key: Option<&[u8]>) -> Vec<RecordedChange> {
    Digests::of_plan(plan, key).into_changes()
}

/// Builds the record of a gated plan.
pub fn build(plan: &Plan, plan_name: &str, outcome: Outcome) -> GateRecord {
    build_keyed(plan, plan_name, outcome, None)
}

/// [`build`] with the approval key: digests bound to every raw value, and the record signed.
/// Without it, the record carries the keyless [`GateRecord::content`] binding.
pub fn build_keyed(
    plan: &Plan,
    plan_name: &str,
    outcome: Outcome,
    key: Option<&[u8]>,
) -> GateRecord {
    build_with(plan, Digests::new(), plan_name, outcome, key)
}

/// [`build_keyed`] for a plan read change by change: `digests` holds what was kept of each
/// change the reader handed over (computed with the same `key`); `plan` gives the product and
/// version, and any changes it still holds are recorded too. The same record as
/// [`build_keyed`] on the whole plan.
pub fn build_with(
    plan: &Plan,
    mut digests: Digests,
    plan_name: &str,
    outcome: Outcome,
    key: Option<&[u8]>,
) -> GateRecord {
    for c in &plan.changes {
        digests.add(c, key);
    }
    let content = match key {
        Some(_) => None,
        None => content_binding_of(&digests.content_input()),
    };
    let mut r = head(plan, plan_name, outcome);
    r.changes = digests.into_changes();
    r.content = content;
    if let Some(k) = key {
        r.signature = Some(r.compute_signature(k));
    }
    r
}

/// A record of `plan` without its changes, binding or signature.
fn head(plan: &Plan, plan_name: &str, outcome: Outcome) -> GateRecord {
    GateRecord {
        version: 1,
        plan: plan_name.to_string(),
        product: serde_json::to_value(plan.product)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| "unknown".into()),
        terraform_version: plan.terraform_version.clone(),
        outcome,
        changes: Vec::new(),
        content: None,
        reviews: None,
        signature: None,
    }
}

/// Writes the keyless record of a plan read change by change ([`build_with`] without a key,
/// with `reviews`, then [`save`]: the same file but for the salted `content` line) holding
/// less: the changes are written from `digests` as they are, never built as
/// [`RecordedChange`]s, and dropped before the record's binding is computed, so Argon2id's
/// 64 MiB ([`crate::digest::CONTENT_M_COST`]) is not taken while every change's entry is held
/// (#35 item 2). The fields are written in [`GateRecord`]'s order: `content` follows `changes`.
pub fn save_keyless(
    path: &Path,
    plan: &Plan,
    mut digests: Digests,
    plan_name: &str,
    outcome: Outcome,
    reviews: Option<ReviewBinding>,
) -> Result<(), GateError> {
    for c in &plan.changes {
        digests.add(c, None);
    }
    // Sorted in place, for the binding's input and then as the record lists them.
    digests.entries.sort_unstable_by(Entry::content_order);
    let input = content_input_sorted(digests.entries.iter().map(|e| {
        (
            &*e.address,
            e.deposed.as_deref(),
            e.content.as_ref().map(|h| &h.bytes()[..]),
        )
    }));
    digests.entries.sort_unstable_by(Entry::record_order);
    let mut head = head(plan, plan_name, outcome);
    head.reviews = reviews;
    let streamed = Streamed {
        head: &head,
        entries: std::cell::RefCell::new(digests.entries),
        input,
    };
    crate::write_atomic_with(path, |w| {
        serde_json::to_writer_pretty(&mut *w, &streamed).map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    })
}

/// A keyless record as [`save_keyless`] writes it: `head`'s fields, the changes from
/// `entries` (taken and dropped once written), and the binding of `input`, computed then.
struct Streamed<'a> {
    head: &'a GateRecord,
    entries: std::cell::RefCell<Vec<Entry>>,
    input: [u8; 32],
}

impl Serialize for Streamed<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        /// One change, as [`RecordedChange`] serializes.
        struct Change<'e>(&'e Entry);
        impl Serialize for Change<'_> {
            fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
                let e = self.0;
                let mut s = ser.serialize_struct("RecordedChange", 4)?;
                s.serialize_field("address", &*e.address)?;
                match &e.deposed {
                    Some(d) => s.serialize_field("deposed", &**d)?,
                    None => s.skip_field("deposed")?,
                }
                s.serialize_field("action", e.action.as_terraform())?;
                s.serialize_field("digest", &digest_text(&e.digest))?;
                s.end()
            }
        }
        fn optional<S: SerializeStruct, T: Serialize>(
            s: &mut S,
            name: &'static str,
            v: Option<&T>,
        ) -> Result<(), S::Error> {
            match v {
                Some(v) => s.serialize_field(name, v),
                None => s.skip_field(name),
            }
        }
        let h = self.head;
        let mut s = ser.serialize_struct("GateRecord", 9)?;
        s.serialize_field("version", &h.version)?;
        s.serialize_field("plan", &h.plan)?;
        s.serialize_field("product", &h.product)?;
        optional(&mut s, "terraform_version", h.terraform_version.as_ref())?;
        s.serialize_field("outcome", &h.outcome)?;
        let entries = self.entries.take();
        s.serialize_field("changes", &Seq(&entries, Change))?;
        // Written: what was kept of every change goes before Argon2id takes its memory.
        drop(entries);
        #[cfg(test)]
        tests::at_binding();
        let content = content_binding_of(&self.input);
        optional(&mut s, "content", content.as_ref())?;
        optional(&mut s, "reviews", h.reviews.as_ref())?;
        optional(&mut s, "signature", h.signature.as_ref())?;
        s.end()
    }
}

/// A slice serialized as a sequence of `f` of each item.
struct Seq<'a, T, F>(&'a [T], F);

impl<'a, T, U: Serialize, F: Fn(&'a T) -> U> Serialize for Seq<'a, T, F> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.0.iter().map(&self.1))
    }
}

/// Writes a record.
pub fn save(path: &Path, r: &GateRecord) -> Result<(), GateError> {
    // Written as it is serialized: the text of a large plan's record is not held whole.
    crate::write_atomic_with(path, |w| {
        serde_json::to_writer_pretty(&mut *w, r).map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    })
}

/// Reads a record.
pub fn load(path: &Path) -> Result<GateRecord, GateError> {
    let file = std::fs::File::open(path).map_err(|e| GateError::Io {
        path: path.display().to_string(),
        action: "read the gate record (written by `ward gate --record FILE`)",
        source: e,
    })?;
    // Read as it is parsed: the text of a large plan's record is not held beside the record.
    let r: GateRecord = serde_json::from_reader(std::io::BufReader::new(file)).map_err(|e| {
        GateError::Verify(format!(
            "{}: not a ward gate record ({e}); write one with `ward gate PLAN --record FILE`",
            path.display()
        ))
    })?;
    if r.version != 1 {
        return Err(GateError::Verify(format!(
            "{}: gate record version {} is not supported (expected 1)",
            path.display(),
            r.version
        )));
    }
    Ok(r)
}

/// What a gate record says of the reviews that approved its changes (`ward gate
/// --approvals-from`; `ward verify` re-checks it, [`crate::verify_reviews`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewBinding {
    /// The pull request (`github:OWNER/REPO#N`, `gitlab:GROUP/PROJECT!IID`).
    pub source: String,
    /// The forge's API base the reviews were read from.
    pub forge: String,
    /// The head commit the gate saw.
    pub head: String,
    /// The gated root, relative to the directory of `ward.hcl` (`None`: unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// `reviewers.comment_author` at the gate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment_author: Option<String>,
    /// `reviewers.allow_author` at the gate.
    #[serde(default)]
    pub allow_author: bool,
    /// `policy.approval_expiry` at the gate, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiry_seconds: Option<u64>,
    /// Every change that needed an approval.
    pub changes: Vec<BoundChange>,
}

/// One change the reviews approved at the gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundChange {
    /// Address.
    pub address: String,
    /// Deposed key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// Impact class.
    pub impact: Impact,
    /// The approval digest ward's comment listed.
    pub digest: String,
    /// The `require` blocks that covered it (empty: one review from anyone but the author).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<BoundRequirement>,
    /// Who approved it at the gate (comma-separated logins).
    pub approved_by: String,
    /// When (the latest review that counted, RFC 3339).
    pub approved_at: String,
}

/// One `require` block, as it applied to a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundRequirement {
    /// Its name.
    pub name: String,
    /// Who may approve (logins, `@org/team`).
    pub from: Vec<String>,
    /// How many distinct approvers.
    pub count: u64,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// [`Entry`]s alive on this thread.
        static LIVE: Cell<usize> = const { Cell::new(0) };
        /// How many were alive when the keyless binding was last computed.
        static AT_BINDING: Cell<Option<usize>> = const { Cell::new(None) };
    }

    /// One [`Entry`] alive, counted.
    #[derive(Debug)]
    pub(super) struct Live;

    impl Live {
        pub(super) fn new() -> Self {
            LIVE.with(|l| l.set(l.get() + 1));
            Live
        }
    }

    impl Drop for Live {
        fn drop(&mut self) {
            LIVE.with(|l| l.set(l.get() - 1));
        }
    }

    /// Called by [`Streamed`] just before Argon2id.
    pub(super) fn at_binding() {
        AT_BINDING.with(|a| a.set(Some(LIVE.with(Cell::get))));
    }

    /// A plan of `n` updates of a sensitive value, read change by change into [`Digests`].
    fn read(n: usize) -> (Plan, Digests) {
        let change = |i: usize| {
            format!(
                r#"{{"address":"fakecloud_volume.v[{i}]","mode":"managed","type":"fakecloud_volume","name":"v","index":{i},"provider_name":"registry.terraform.io/ward/fakecloud","change":{{"actions":["update"],"before":{{"password":"old","size":{i}}},"after":{{"password":"new{i}","size":1}},"after_unknown":{{}},"before_sensitive":{{}},"after_sensitive":{{"password":true}}}}}}"#
            )
        };
        let changes: Vec<String> = (0..n).rev().map(change).collect();
        let text = format!(
            r#"{{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{}]}}"#,
            changes.join(",")
        );
        let mut d = Digests::new();
        let mut each = |c: ResourceChange| d.add(&c, None);
        let (plan, _) = ward_plan::read_reader_with(
            text.as_bytes(),
            "plan.json",
            ward_plan::ReadOptions::default(),
            Some(&mut each),
        )
        .unwrap();
        (plan, d)
    }

    /// The keyless record written as the plan was read holds no change's entry while Argon2id
    /// takes its 64 MiB, and is the record [`build_with`] builds (the same bytes as [`save`]
    /// writes) but for the salted binding, which verifies the same plan.
    #[test]
    fn the_keyless_record_drops_every_entry_before_its_binding() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rec.json");
        let (plan, d) = read(50);
        assert_eq!(LIVE.with(Cell::get), 50);
        save_keyless(&path, &plan, d, "plan.json", Outcome::Pass, None).unwrap();
        assert_eq!(
            AT_BINDING.with(Cell::get),
            Some(0),
            "entries alive at the binding"
        );
        let (plan, d) = read(50);
        let want = build_with(&plan, d, "plan.json", Outcome::Pass, None);
        let got = load(&path).unwrap();
        assert_eq!(got.changes.len(), 50);
        let same = GateRecord {
            content: got.content.clone(),
            ..want
        };
        assert_eq!(got, same);
        let again = dir.path().join("again.json");
        save(&again, &same).unwrap();
        assert_eq!(
            std::fs::read_to_string(&again).unwrap(),
            std::fs::read_to_string(&path).unwrap()
        );
        let (plan, d) = read(50);
        let v = crate::verify::compare_digests(&got, &plan, d, None);
        assert!(v.ok, "{v:?}");
    }

    /// The signature fed change by change is the HMAC of the whole record's canonical JSON,
    /// as ward has always signed it: records signed before still verify.
    #[test]
    fn the_streamed_signature_is_the_whole_records() {
        let whole = |r: &GateRecord| {
            crate::digest::sign_without_signature(serde_json::to_value(r).unwrap(), b"k")
        };
        let (plan, d) = read(3);
        let mut r = build_with(&plan, d, "plan.json", Outcome::Pass, Some(b"k"));
        assert_eq!(r.signature.clone().unwrap(), whole(&r));
        r.changes[1].deposed = Some("0a1b".into());
        r.terraform_version = None;
        r.content = Some("argon2id-v19-m65536-t3-p1:00:00".into());
        r.reviews = Some(ReviewBinding {
            source: "github:o/r#1".into(),
            forge: "https://api.example".into(),
            head: "abc".into(),
            root: Some("big".into()),
            comment_author: None,
            allow_author: true,
            expiry_seconds: Some(60),
            changes: vec![BoundChange {
                address: "a.b".into(),
                deposed: None,
                impact: Impact::DataLoss,
                digest: "sha256:00".into(),
                requires: vec![BoundRequirement {
                    name: "dba".into(),
                    from: vec!["@o/dba".into()],
                    count: 2,
                }],
                approved_by: "x".into(),
                approved_at: "2026-12-05T00:00:00Z".into(),
            }],
        });
        r.signature = Some("hmac-sha256:ignored".into());
        assert_eq!(r.compute_signature(b"k"), whole(&r));
        r.changes.clear();
        assert_eq!(r.compute_signature(b"k"), whole(&r));
    }
}
