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
    /// HMAC change by change (`sign`), without the JSON value of every change held at once
    /// (several times the record's size: #35 item 2).
    pub fn compute_signature(&self, key: &[u8]) -> String {
        sign(self, key, |each| {
            for c in &self.changes {
                each(&Canonical {
                    action: &c.action,
                    address: &c.address,
                    deposed: c.deposed.as_deref(),
                    digest: &c.digest,
                });
            }
        })
    }

    /// Whether the signature holds under `key`: `Ok` when it does, else what is wrong.
    pub fn check_signature(&self, key: &[u8]) -> Result<(), String> {
        self.signature_is(|| self.compute_signature(key))
    }

    /// [`GateRecord::check_signature`] against the signature `want` computes (called only when
    /// the record carries one).
    pub(crate) fn signature_is(&self, want: impl FnOnce() -> String) -> Result<(), String> {
        match &self.signature {
            None => Err("the gate record is not signed, but WARD_APPROVAL_KEY is set: gate the plan again with the key set (`ward gate PLAN --record FILE`)".into()),
            Some(sig) => {
                let want = want();
                if !want.is_empty() && crate::digest::constant_time_eq(sig.as_bytes(), want.as_bytes()) {
                    Ok(())
                } else {
                    Err("the gate record's signature does not match: it was edited after `ward gate` wrote it, or signed with another key; gate the plan again".into())
                }
            }
        }
    }
}

/// One change's canonical JSON: its keys sorted, as [`crate::digest::canonical_bytes`] writes
/// a [`RecordedChange`].
#[derive(Serialize)]
pub(crate) struct Canonical<'a> {
    action: &'a str,
    address: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    deposed: Option<&'a str>,
    digest: &'a str,
}

/// HMAC-SHA256 under `key` of the canonical JSON of `head` (its `changes` and `signature` not
/// read) whose changes `changes` hands over in the record's order. `changes` is the first key
/// in canonical order, so the text is `{"changes":[` and each change's canonical JSON, then the
/// rest of the record's canonical object: the same bytes as the whole record's.
pub(crate) fn sign(
    head: &GateRecord,
    key: &[u8],
    changes: impl FnOnce(&mut dyn FnMut(&Canonical<'_>)),
) -> String {
    let rest = GateRecord {
        version: head.version,
        plan: head.plan.clone(),
        product: head.product.clone(),
        terraform_version: head.terraform_version.clone(),
        outcome: head.outcome,
        changes: Vec::new(),
        content: head.content.clone(),
        reviews: head.reviews.clone(),
        signature: None,
    };
    let mut rest = serde_json::to_value(&rest).unwrap_or_default();
    if let serde_json::Value::Object(m) = &mut rest {
        m.remove("changes");
    }
    let rest = canonical_bytes(&rest);
    hmac_hex_with(key, |update| {
        update(b"{\"changes\":[");
        let (mut first, mut text) = (true, Vec::new());
        changes(&mut |c| {
            if !first {
                update(b",");
            }
            first = false;
            text.clear();
            // Strings only: writing them into memory does not fail.
            if serde_json::to_writer(&mut text, c).is_err() {
                text = b"null".to_vec();
            }
            update(&text);
        });
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

/// What the gate record and `ward verify` keep of each change, computed as the reader hands it
/// over (`ward gate --record` and `ward verify` read the plan change by change and keep only
/// this): its address, deposed key, action and record digest, compact (the action as its enum,
/// the digest as its 32 bytes: a [`RecordedChange`] is built from it only when the record is),
/// and the reader's content fingerprint, which only the keyless [`GateRecord::content`] binding
/// uses.
///
/// `ward gate --record` writes them to an owner-only scratch file as they come instead
/// (`Digests::spilled_in`) and reads them back (`Digests::read_back`) once the gate has
/// dropped what it decided on: the entries (about 24 MB on the 500 MB plan) are not held beside
/// the gate's own peak (#35 item 2).
#[derive(Debug, Default)]
pub struct Digests {
    entries: Vec<Entry>,
    /// Where the entries go while the plan is read, when they are spilled.
    spill: Option<Spill>,
}

/// The scratch file [`Digests`] writes its entries to: unlinked as soon as it is created, so
/// that it is gone on every way out of the process, and written buffered, each entry as its
/// address, deposed key, action, digest and content fingerprint (strings length-prefixed,
/// optional fields behind a flag byte).
#[derive(Debug)]
struct Spill {
    file: std::io::BufWriter<std::fs::File>,
    /// How many entries it holds (the list read back is allocated once, at its size).
    count: usize,
    /// The first write that failed: the entries are read back only without one.
    failed: Option<std::io::Error>,
}

/// What a failure of the scratch file says it was doing.
const SPILL: &str = "use the scratch file of the gate record's entries in";

/// One change as [`Digests`] keeps it: 64 bytes beside its text (213,872 of them on the 500 MB
/// bench plan, all read back at once for `ward gate --record`: #35 item 2).
#[derive(Debug)]
pub(crate) struct Entry {
    /// The address, then the deposed key when there is one: one allocation, not two.
    text: Box<str>,
    /// Where the address ends in `text`.
    split: u32,
    /// Whether the rest of `text` is a deposed key (one may be empty).
    deposed: bool,
    pub(crate) action: Action,
    pub(crate) digest: [u8; 32],
    content: Option<ward_model::HiddenDigest>,
    /// Counts the entries alive on this thread (tests: none when the binding is computed).
    #[cfg(test)]
    _live: tests::Live,
}

// The list read back for `ward gate --record` holds one per change: kept at 64 bytes (it was 80
// with the deposed key boxed on its own).
const _: () = assert!(std::mem::size_of::<Entry>() <= 64);

impl Entry {
    /// An entry of these fields; `None` for an address longer than 4 GiB.
    fn new(
        address: &str,
        deposed: Option<&str>,
        action: Action,
        digest: [u8; 32],
        content: Option<ward_model::HiddenDigest>,
    ) -> Option<Entry> {
        let split = u32::try_from(address.len()).ok()?;
        let text = match deposed {
            Some(d) => [address, d].concat().into_boxed_str(),
            None => address.into(),
        };
        Some(Entry {
            text,
            split,
            deposed: deposed.is_some(),
            action,
            digest,
            content,
            #[cfg(test)]
            _live: tests::Live::new(),
        })
    }

    /// The change's address.
    pub(crate) fn address(&self) -> &str {
        self.text.get(..self.split as usize).unwrap_or_default()
    }

    /// The change's deposed key, if any.
    pub(crate) fn deposed(&self) -> Option<&str> {
        self.deposed
            .then(|| self.text.get(self.split as usize..).unwrap_or_default())
    }

    /// The order the record lists its changes in ([`RecordedChange`]'s: address, deposed key,
    /// action as Terraform spells it, digest; hex compares as its bytes do).
    pub(crate) fn record_order(&self, other: &Entry) -> std::cmp::Ordering {
        (
            self.address(),
            self.deposed(),
            self.action.as_terraform(),
            &self.digest,
        )
            .cmp(&(
                other.address(),
                other.deposed(),
                other.action.as_terraform(),
                &other.digest,
            ))
    }

    /// The order [`crate::digest::content_input_sorted`] takes the changes in.
    fn content_order(&self, other: &Entry) -> std::cmp::Ordering {
        content_order(
            (self.address(), self.deposed(), self.content.as_ref()),
            (other.address(), other.deposed(), other.content.as_ref()),
        )
    }

    /// Its canonical JSON's fields, the digest written as `digest` (its text).
    fn canonical<'a>(&'a self, digest: &'a str) -> Canonical<'a> {
        Canonical {
            action: self.action.as_terraform(),
            address: self.address(),
            deposed: self.deposed(),
            digest,
        }
    }

    fn into_change(self) -> RecordedChange {
        RecordedChange {
            address: self.address().to_string(),
            deposed: self.deposed().map(str::to_string),
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
    /// and, without a key, its content fingerprint (the keyless binding's input; under a key the
    /// digest binds it, and it is not kept).
    pub fn add(&mut self, c: &ResourceChange, key: Option<&[u8]>) {
        if let Some(s) = &mut self.spill {
            if s.failed.is_none() {
                let content = c.content.as_ref().filter(|_| key.is_none());
                let wrote = spill_entry(
                    &mut s.file,
                    &c.address,
                    c.deposed.as_deref(),
                    c.action,
                    &record_digest_bytes(c, key),
                    content.map(ward_model::HiddenDigest::bytes),
                );
                s.failed = wrote.err();
                s.count += 1;
            }
            return;
        }
        // An address over 4 GiB cannot be read from a plan (the value budget is far below).
        if let Some(e) = Entry::new(
            &c.address,
            c.deposed.as_deref(),
            c.action,
            record_digest_bytes(c, key),
            c.content.clone().filter(|_| key.is_none()),
        ) {
            self.entries.push(e);
        }
    }

    /// None yet, each change [`Digests::add`]ed written to a new owner-only (0600) scratch file
    /// in `dir` (which must not hold one already), until [`Digests::read_back`].
    pub(crate) fn spilled_in(dir: &Path) -> Result<Self, GateError> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = dir.join("ward-gate-record-entries");
        let io = |source| GateError::Io {
            path: dir.display().to_string(),
            action: SPILL,
            source,
        };
        // A new file (never through a symlink: `create_new`), removed at once: only this
        // process's handle keeps it.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(io)?;
        std::fs::remove_file(&path).map_err(io)?;
        Ok(Digests {
            entries: Vec::new(),
            spill: Some(Spill {
                file: std::io::BufWriter::with_capacity(64 * 1024, file),
                count: 0,
                failed: None,
            }),
        })
    }

    /// The spilled entries read back into memory (in the order added), the scratch file
    /// closed; as it is when nothing was spilled. A write to the scratch file that failed is
    /// this error: never a record missing changes.
    pub(crate) fn read_back(self) -> Result<Self, GateError> {
        use std::io::{BufRead, Seek, Write};
        let Some(spill) = self.spill else {
            return Ok(self);
        };
        let io = |source| GateError::Io {
            path: "the scratch directory".into(),
            action: SPILL,
            source,
        };
        if let Some(e) = spill.failed {
            return Err(io(e));
        }
        let mut file = spill.file.into_inner().map_err(|e| io(e.into_error()))?;
        file.flush().map_err(io)?;
        file.rewind().map_err(io)?;
        let mut r = std::io::BufReader::with_capacity(64 * 1024, file);
        // At its size at once: grown by doubling, the list would be copied as it grew and
        // take a quarter more than it needs (#35 item 2).
        let mut entries = Vec::with_capacity(spill.count);
        entries.extend(self.entries);
        while !r.fill_buf().map_err(io)?.is_empty() {
            entries.push(read_entry(&mut r).map_err(io)?);
        }
        Ok(Digests {
            entries,
            spill: None,
        })
    }

    /// What was kept of each change, in the order given (`ward verify` compares them with the
    /// record without building a [`RecordedChange`] of each).
    pub(crate) fn into_entries(self) -> Vec<Entry> {
        self.entries
    }

    /// How many changes (in memory: none of those spilled before `Digests::read_back`).
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
                .map(|e| (e.address(), e.deposed(), e.content.as_ref())),
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

/// Writes one [`Digests`] entry to its scratch file ([`read_entry`] reads it).
fn spill_entry(
    w: &mut impl std::io::Write,
    address: &str,
    deposed: Option<&str>,
    action: Action,
    digest: &[u8; 32],
    content: Option<&[u8; 32]>,
) -> std::io::Result<()> {
    fn text(w: &mut impl std::io::Write, t: &str) -> std::io::Result<()> {
        let len = u32::try_from(t.len()).map_err(std::io::Error::other)?;
        w.write_all(&len.to_le_bytes())?;
        w.write_all(t.as_bytes())
    }
    text(w, address)?;
    w.write_all(&[u8::from(deposed.is_some())])?;
    if let Some(d) = deposed {
        text(w, d)?;
    }
    // An action missing from `Action::ALL` is an error, never written as another action.
    let code = Action::ALL
        .iter()
        .position(|a| *a == action)
        .and_then(|i| u8::try_from(i).ok())
        .ok_or_else(|| std::io::Error::other("an action the record's entries cannot hold"))?;
    w.write_all(&[code])?;
    w.write_all(digest)?;
    w.write_all(&[u8::from(content.is_some())])?;
    if let Some(c) = content {
        w.write_all(c)?;
    }
    Ok(())
}

/// Reads back one entry [`spill_entry`] wrote.
fn read_entry(r: &mut impl std::io::Read) -> std::io::Result<Entry> {
    fn bytes<const N: usize>(r: &mut impl std::io::Read) -> std::io::Result<[u8; N]> {
        let mut b = [0u8; N];
        r.read_exact(&mut b)?;
        Ok(b)
    }
    fn text(r: &mut impl std::io::Read) -> std::io::Result<Box<str>> {
        let len = u32::from_le_bytes(bytes(r)?) as usize;
        let mut t = vec![0u8; len];
        r.read_exact(&mut t)?;
        String::from_utf8(t)
            .map(String::into_boxed_str)
            .map_err(std::io::Error::other)
    }
    let address = text(r)?;
    let deposed = match bytes::<1>(r)? {
        [0] => None,
        _ => Some(text(r)?),
    };
    let [code] = bytes::<1>(r)?;
    let action = Action::ALL
        .get(usize::from(code))
        .copied()
        .ok_or_else(|| std::io::Error::other("an entry with no action"))?;
    let digest = bytes::<32>(r)?;
    let content = match bytes::<1>(r)? {
        [0] => None,
        _ => Some(ward_model::HiddenDigest::new(bytes::<32>(r)?)),
    };
    Entry::new(&address, deposed.as_deref(), action, digest, content)
        .ok_or_else(|| std::io::Error::other("an address too long"))
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

/// Writes the record of a plan read change by change, the same file as [`build_with`] with
/// `reviews` ([`crate::verify_reviews::bind`]) then [`save`] (without a key, the same but for
/// the salted `content` line), holding less: the changes are written from `digests` as they
/// are, never built as [`RecordedChange`]s; under `key` the signature is fed to the HMAC from
/// them (`sign`); without one they are dropped before the record's binding is computed, so
/// Argon2id's 64 MiB ([`crate::digest::CONTENT_M_COST`]) is not taken while every change's
/// entry is held (#35 item 2). The fields are written in [`GateRecord`]'s order: `content`
/// follows `changes`.
pub fn save_streamed(
    path: &Path,
    plan: &Plan,
    mut digests: Digests,
    plan_name: &str,
    outcome: Outcome,
    reviews: Option<ReviewBinding>,
    key: Option<&[u8]>,
) -> Result<(), GateError> {
    for c in &plan.changes {
        digests.add(c, key);
    }
    // Sorted in place, for the keyless binding's input and then as the record lists them.
    let input = key.is_none().then(|| {
        digests.entries.sort_unstable_by(Entry::content_order);
        content_input_sorted(digests.entries.iter().map(|e| {
            (
                e.address(),
                e.deposed(),
                e.content.as_ref().map(|h| &h.bytes()[..]),
            )
        }))
    });
    digests.entries.sort_unstable_by(Entry::record_order);
    let mut head = head(plan, plan_name, outcome);
    head.reviews = reviews;
    if let Some(k) = key {
        let entries = &digests.entries;
        head.signature = Some(sign(&head, k, |each| {
            for e in entries {
                each(&e.canonical(&digest_text(&e.digest)));
            }
        }));
    }
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

/// A record as [`save_streamed`] writes it: `head`'s fields, the changes from `entries` (taken
/// and dropped once written), and (keyless) the binding of `input`, computed then.
struct Streamed<'a> {
    head: &'a GateRecord,
    entries: std::cell::RefCell<Vec<Entry>>,
    input: Option<[u8; 32]>,
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
                s.serialize_field("address", e.address())?;
                match e.deposed() {
                    Some(d) => s.serialize_field("deposed", d)?,
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
        let content = self.input.as_ref().and_then(content_binding_of);
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
    read_record(path, |r: &GateRecord| r.version)
}

/// Reads a record as `R` ([`GateRecord`], or [`load_kept`]'s compact form of it), refusing any
/// version but 1.
fn read_record<R: serde::de::DeserializeOwned>(
    path: &Path,
    version: impl Fn(&R) -> u32,
) -> Result<R, GateError> {
    let file = std::fs::File::open(path).map_err(|e| GateError::Io {
        path: path.display().to_string(),
        action: "read the gate record (written by `ward gate --record FILE`)",
        source: e,
    })?;
    // Read as it is parsed: the text of a large plan's record is not held beside the record.
    let r: R = serde_json::from_reader(std::io::BufReader::new(file)).map_err(|e| {
        GateError::Verify(format!(
            "{}: not a ward gate record ({e}); write one with `ward gate PLAN --record FILE`",
            path.display()
        ))
    })?;
    if version(&r) != 1 {
        return Err(GateError::Verify(format!(
            "{}: gate record version {} is not supported (expected 1)",
            path.display(),
            version(&r)
        )));
    }
    Ok(r)
}

/// Reads a record for `ward verify`: its changes kept compact ([`Kept`], in the file's order)
/// beside the rest of the record (its `changes` empty), never the text of every change at once
/// (#35 item 2). The same errors as [`load`], the same record.
pub(crate) fn load_kept(path: &Path) -> Result<(GateRecord, Vec<Kept>), GateError> {
    mod compact {
        use super::{kept_changes, Kept, Outcome, ReviewBinding};
        use serde::Deserialize;

        /// [`super::GateRecord`] with its changes kept compact: the same name, fields and
        /// order, so serde's messages are the same.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(super) struct GateRecord {
            pub(super) version: u32,
            pub(super) plan: String,
            pub(super) product: String,
            #[serde(default)]
            pub(super) terraform_version: Option<String>,
            pub(super) outcome: Outcome,
            #[serde(deserialize_with = "kept_changes")]
            pub(super) changes: Vec<Kept>,
            #[serde(default)]
            pub(super) content: Option<String>,
            #[serde(default)]
            pub(super) reviews: Option<ReviewBinding>,
            #[serde(default)]
            pub(super) signature: Option<String>,
        }
    }
    let r = read_record(path, |r: &compact::GateRecord| r.version)?;
    let head = GateRecord {
        version: r.version,
        plan: r.plan,
        product: r.product,
        terraform_version: r.terraform_version,
        outcome: r.outcome,
        changes: Vec::new(),
        content: r.content,
        reviews: r.reviews,
        signature: r.signature,
    };
    Ok((head, r.changes))
}

/// A record's `changes`, each read as a [`RecordedChange`] (the same errors) and kept as a
/// [`Kept`] at once.
fn kept_changes<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Kept>, D::Error> {
    struct Changes;
    impl<'de> serde::de::Visitor<'de> for Changes {
        type Value = Vec<Kept>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Vec<Kept>, A::Error> {
            let mut kept = Vec::new();
            while let Some(c) = seq.next_element::<RecordedChange>()? {
                kept.push(Kept::from(c));
            }
            kept.shrink_to_fit();
            Ok(kept)
        }
    }
    d.deserialize_seq(Changes)
}

/// One change of a gate record as `ward verify` keeps it: like the gate's [`Entry`], the action
/// as its enum and the digest as its 32 bytes when the record spells them as ward writes them,
/// else (an edited record) as written, so that every message and the signature see the record's
/// own text.
#[derive(Debug)]
pub(crate) struct Kept {
    pub(crate) address: Box<str>,
    pub(crate) deposed: Option<Box<str>>,
    action: Spelled<Action>,
    digest: Spelled<[u8; 32]>,
}

/// A value as ward spells it, or (not a spelling ward writes) the text as written.
#[derive(Debug)]
enum Spelled<T> {
    Known(T),
    Other(Box<str>),
}

impl Kept {
    /// The action as the record spells it.
    pub(crate) fn action(&self) -> &str {
        match &self.action {
            Spelled::Known(a) => a.as_terraform(),
            Spelled::Other(t) => t,
        }
    }

    /// Whether the record's action is `a`.
    pub(crate) fn action_is(&self, a: Action) -> bool {
        matches!(self.action, Spelled::Known(k) if k == a)
    }

    /// The digest as the record spells it.
    pub(crate) fn digest(&self) -> std::borrow::Cow<'_, str> {
        match &self.digest {
            Spelled::Known(d) => digest_text(d).into(),
            Spelled::Other(t) => (&**t).into(),
        }
    }

    /// Whether the record's digest is `d` (its text that of `d`).
    pub(crate) fn digest_is(&self, d: &[u8; 32]) -> bool {
        matches!(&self.digest, Spelled::Known(k) if k == d)
    }

    /// The canonical JSON of this change, as the signature covers it.
    pub(crate) fn canonical<'a>(&'a self, digest: &'a str) -> Canonical<'a> {
        Canonical {
            action: self.action(),
            address: &self.address,
            deposed: self.deposed.as_deref(),
            digest,
        }
    }
}

impl From<RecordedChange> for Kept {
    fn from(c: RecordedChange) -> Kept {
        let action = match Action::ALL
            .into_iter()
            .find(|a| a.as_terraform() == c.action)
        {
            Some(a) => Spelled::Known(a),
            None => Spelled::Other(c.action.into()),
        };
        let bytes = c
            .digest
            .strip_prefix("sha256:")
            .and_then(|hex| data_encoding::HEXLOWER.decode(hex.as_bytes()).ok())
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .filter(|b| digest_text(b) == c.digest);
        let digest = match bytes {
            Some(b) => Spelled::Known(b),
            None => Spelled::Other(c.digest.into()),
        };
        Kept {
            address: c.address.into(),
            deposed: c.deposed.map(Into::into),
            action,
            digest,
        }
    }
}

impl From<&RecordedChange> for Kept {
    fn from(c: &RecordedChange) -> Kept {
        Kept::from(c.clone())
    }
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
        read_with(n, None, false)
    }

    /// A plan of `n` changes, every third a deposed object at the address before it.
    fn read_deposed(n: usize, key: Option<&[u8]>) -> (Plan, Digests) {
        read_with(n, key, true)
    }

    /// A plan of `n` updates of a sensitive value (with `deposed`, every third a deposed object
    /// at the address before it), read change by change into [`Digests`] under `key`.
    fn read_with(n: usize, key: Option<&[u8]>, deposed: bool) -> (Plan, Digests) {
        read_into(n, key, deposed, Digests::new(), false)
    }

    /// [`read_with`] into `d`, with each change's content fingerprint when `content`.
    fn read_into(
        n: usize,
        key: Option<&[u8]>,
        deposed: bool,
        mut d: Digests,
        content: bool,
    ) -> (Plan, Digests) {
        let change = |i: usize| {
            let (at, deposed) = match i % 3 {
                2 if deposed => (i - 1, format!(r#""deposed":"0a{i}","#)),
                _ => (i, String::new()),
            };
            format!(
                r#"{{"address":"fakecloud_volume.v[{at}]","mode":"managed","type":"fakecloud_volume","name":"v","index":{at},{deposed}"provider_name":"registry.terraform.io/ward/fakecloud","change":{{"actions":["update"],"before":{{"password":"old","size":{i}}},"after":{{"password":"new{i}","size":1}},"after_unknown":{{}},"before_sensitive":{{}},"after_sensitive":{{"password":true}}}}}}"#
            )
        };
        let changes: Vec<String> = (0..n).rev().map(change).collect();
        let text = format!(
            r#"{{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{}]}}"#,
            changes.join(",")
        );
        let mut each = |c: ResourceChange| d.add(&c, key);
        let (plan, _) = ward_plan::read_reader_with(
            text.as_bytes(),
            "plan.json",
            ward_plan::ReadOptions {
                content,
                ..ward_plan::ReadOptions::default()
            },
            Some(&mut each),
        )
        .unwrap();
        (plan, d)
    }

    /// An entry's fields: address, deposed key, action, digest, content fingerprint.
    type Fields = (String, Option<String>, Action, [u8; 32], Option<[u8; 32]>);

    /// Each entry's fields, for comparing lists of them.
    fn fields(d: Digests) -> Vec<Fields> {
        d.into_entries()
            .into_iter()
            .map(|e| {
                let content = e.content.as_ref().map(|h| *h.bytes());
                (
                    e.address().to_string(),
                    e.deposed().map(str::to_string),
                    e.action,
                    e.digest,
                    content,
                )
            })
            .collect()
    }

    /// The entries spilled to the scratch file read back as they were added, deposed keys,
    /// actions and content fingerprints included, with the key and without; the file is
    /// owner-only and leaves nothing in its directory.
    #[test]
    fn spilled_entries_read_back_the_same_from_a_private_file_left_nowhere() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        for key in [None, Some(&b"k"[..])] {
            let (_, kept) = read_into(50, key, true, Digests::new(), true);
            let spilled = Digests::spilled_in(dir.path()).unwrap();
            let file = spilled.spill.as_ref().unwrap().file.get_ref();
            let mode = file.metadata().unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
            let (_, spilled) = read_into(50, key, true, spilled, true);
            assert!(spilled.entries.is_empty());
            let back = spilled.read_back().unwrap();
            assert!(back.spill.is_none());
            let want = fields(kept);
            assert_eq!(want.iter().filter(|f| f.1.is_some()).count(), 16);
            assert_eq!(want.iter().all(|f| f.4.is_some()), key.is_none());
            assert_eq!(fields(back), want);
            let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
            assert!(left.is_empty(), "{left:?}");
        }
    }

    /// A write to the scratch file that fails fails the read back, with what was being done:
    /// never a record missing changes.
    #[test]
    fn a_failed_spill_write_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("read-only");
        std::fs::write(&path, "").unwrap();
        let d = Digests {
            entries: Vec::new(),
            spill: Some(Spill {
                file: std::io::BufWriter::with_capacity(16, std::fs::File::open(&path).unwrap()),
                count: 0,
                failed: None,
            }),
        };
        let (_, mut d) = read_into(5, None, false, d, true);
        // The file writable again by the end: the error is the write that failed.
        if let Some(s) = &mut d.spill {
            *s.file.get_mut() = tempfile::tempfile().unwrap();
        }
        let e = d.read_back().unwrap_err().to_string();
        assert!(
            e.starts_with("cannot use the scratch file of the gate record's entries in")
                && e.contains("Bad file descriptor"),
            "{e}"
        );
    }

    /// The keyed record written from the entries is, byte for byte, the record [`build_with`]
    /// signs and [`crate::verify_reviews::bind`] binds reviews into, then [`save`] writes.
    #[test]
    fn the_keyed_record_is_written_from_the_entries() {
        let dir = tempfile::tempdir().unwrap();
        let binding = ReviewBinding {
            source: "github:o/r#1".into(),
            forge: "https://api.example".into(),
            head: "abc".into(),
            root: None,
            comment_author: None,
            allow_author: false,
            expiry_seconds: None,
            changes: Vec::new(),
        };
        for reviews in [None, Some(binding)] {
            let streamed = dir.path().join("streamed.json");
            let (plan, d) = read_deposed(9, Some(b"k"));
            let outcome = Outcome::ApprovalRequired;
            save_streamed(
                &streamed,
                &plan,
                d,
                "p",
                outcome,
                reviews.clone(),
                Some(b"k"),
            )
            .unwrap();
            let (plan, d) = read_deposed(9, Some(b"k"));
            let mut want = build_with(&plan, d, "p", outcome, Some(b"k"));
            crate::verify_reviews::bind(&mut want, reviews, Some(b"k"));
            let whole = dir.path().join("whole.json");
            save(&whole, &want).unwrap();
            let text = std::fs::read_to_string(&streamed).unwrap();
            assert!(text.contains(r#""deposed": "0a2""#), "{text}");
            assert_eq!(text, std::fs::read_to_string(&whole).unwrap());
            assert!(load(&streamed).unwrap().check_signature(b"k").is_ok());
        }
    }

    /// `ward verify`'s compact reading of a record refuses what [`load`] refuses, with the same
    /// message, and keeps what it reads.
    #[test]
    fn a_record_read_compact_is_the_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rec.json");
        let (plan, d) = read_deposed(6, None);
        let good = serde_json::to_string(&build_with(&plan, d, "p", Outcome::Pass, None)).unwrap();
        let change = r#"{"address":"a.b","action":"create","digest":"sha256:00"}"#;
        let head = r#""version":1,"plan":"p","product":"terraform","outcome":"pass""#;
        let bad = [
            "".to_string(),
            "[]".into(),
            "{}".into(),
            "7".into(),
            format!(r#"{{{head},"changes":[{change}],"extra":1}}"#),
            format!(r#"{{{head},"changes":[{change},{{"address":"x"}}]}}"#),
            format!(
                r#"{{{head},"changes":[{{"address":"x","action":"create","digest":"d","more":1}}]}}"#
            ),
            format!(r#"{{{head},"changes":{{}}}}"#),
            format!(r#"{{{head},"changes":["a"]}}"#),
            format!(r#"{{{head},"changes":[{change}],"changes":[]}}"#),
            format!(r#"{{{head}}}"#),
            format!(r#"{{{head},"changes":[{change}]"#),
            good.replace(r#""version":1"#, r#""version":2"#),
        ];
        for text in bad {
            std::fs::write(&path, &text).unwrap();
            let want = load(&path).unwrap_err().to_string();
            let got = load_kept(&path).map(|_| ()).unwrap_err().to_string();
            assert_eq!(got, want, "{text}");
        }
        std::fs::write(&path, &good).unwrap();
        let whole = load(&path).unwrap();
        let (rest, kept) = load_kept(&path).unwrap();
        assert_eq!(
            rest,
            GateRecord {
                changes: Vec::new(),
                ..whole.clone()
            }
        );
        assert_eq!(kept.len(), 6);
        for (k, c) in kept.iter().zip(&whole.changes) {
            let want = Canonical {
                action: &c.action,
                address: &c.address,
                deposed: c.deposed.as_deref(),
                digest: &c.digest,
            };
            let got = serde_json::to_string(&k.canonical(&k.digest())).unwrap();
            assert_eq!(got, serde_json::to_string(&want).unwrap());
        }
    }

    /// `ward verify` on a record read compact gives the report [`crate::verify::compare_digests`]
    /// gives on the whole record, for records edited every way a difference can show: another
    /// digest, a digest or action not as ward spells it, another action, a renamed, duplicated
    /// or removed change, out of order; with the key (the signature over the edited text) and
    /// without.
    #[test]
    fn a_record_read_compact_verifies_as_the_whole_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rec.json");
        let edits: [fn(&mut GateRecord); 9] = [
            |_| {},
            |r| r.changes[1].digest = format!("sha256:{}", "0".repeat(64)),
            |r| r.changes[2].digest = r.changes[2].digest.to_uppercase().replace("SHA", "sha"),
            |r| r.changes[3].action = "explode".into(),
            |r| r.changes[0].action = "delete".into(),
            |r| r.changes[4].address = "zzz.renamed".into(),
            |r| {
                let mut dup = r.changes[2].clone();
                dup.digest = format!("sha256:{}", "1".repeat(64));
                r.changes.push(dup);
            },
            |r| {
                r.changes.remove(5);
            },
            |r| r.changes.swap(0, 7),
        ];
        for key in [None, Some(&b"k"[..])] {
            for (i, edit) in edits.iter().enumerate() {
                let (plan, d) = read_deposed(9, key);
                let mut r = build_with(&plan, d, "p", Outcome::Pass, key);
                edit(&mut r);
                save(&path, &r).unwrap();
                let (plan, d) = read_deposed(9, key);
                let want = crate::verify::compare_digests(&load(&path).unwrap(), &plan, d, key);
                let (rest, kept) = load_kept(&path).unwrap();
                let (plan, d) = read_deposed(9, key);
                let got = crate::verify::compare_kept(&rest, kept, &plan, d, key);
                assert_eq!(got, want, "edit {i}, key {key:?}");
                // Out of order only: what is compared is the same, but not what was signed.
                let same = i == 0 || (i == 8 && key.is_none());
                assert_eq!(got.ok, same, "edit {i}: {got:?}");
            }
        }
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
        save_streamed(&path, &plan, d, "plan.json", Outcome::Pass, None, None).unwrap();
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
