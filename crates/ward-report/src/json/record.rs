//! One change's record in `changes`, written by hand: the bytes serde_json writes for
//! [`ChangeJson`](super::ChangeJson) with `Indented::at(2)` (the record opens two levels
//! deep), without serde's per-field calls. The keys are constants with their line, indentation
//! and `": "`; strings are escaped as serde_json escapes them ([`string`]); a known value that
//! is an array, an object or a number is still written by serde_json with [`Indented`] at its
//! depth. The serde path (`change`, [`ChangeJson`](super::ChangeJson)) writes drift's records
//! and is this writer's test oracle.

use super::{explanation, mode_str, FactJson, Indented, RuleJson, ValueJson};
use crate::outcome::cost_unknown;
use serde::Serialize;
use std::io;
use ward_classify::{AttrVerdict, Fact, Verdict};
use ward_model::{AttrPath, Shown};
use ward_rules::RuleRef;

/// `,\n`, the indentation of `depth` levels, the key and `": "`: one constant a field. The
/// first field of an object opens it: `{\n`, indentation, key, `": "`.
macro_rules! key {
    (first, 3, $k:literal) => {
        concat!("{\n      \"", $k, "\": ").as_bytes()
    };
    (first, 4, $k:literal) => {
        concat!("{\n        \"", $k, "\": ").as_bytes()
    };
    (first, 5, $k:literal) => {
        concat!("{\n          \"", $k, "\": ").as_bytes()
    };
    (first, 6, $k:literal) => {
        concat!("{\n            \"", $k, "\": ").as_bytes()
    };
    (3, $k:literal) => {
        concat!(",\n      \"", $k, "\": ").as_bytes()
    };
    (4, $k:literal) => {
        concat!(",\n        \"", $k, "\": ").as_bytes()
    };
    (5, $k:literal) => {
        concat!(",\n          \"", $k, "\": ").as_bytes()
    };
    (6, $k:literal) => {
        concat!(",\n            \"", $k, "\": ").as_bytes()
    };
}

/// A new line and the indentation of 2 to 4 levels (an item's line, a closing bracket's).
const AT2: &[u8] = b"\n    ";
const AT3: &[u8] = b"\n      ";
const AT4: &[u8] = b"\n        ";

/// What serde_json writes after a backslash for each byte of a string, 0 for a byte written
/// as it is: `\b \t \n \f \r`, `\u00XX` for the other control characters, `\"` and `\\`.
/// Nothing else is escaped (not `/`, not DEL, not non-ASCII).
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `s` escaped, without quotes: each run of bytes that needs no escape copied at once,
/// checked eight bytes at a time.
pub(super) fn contents(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while let Some(word) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(word).unwrap_or_default());
        if needs_escape(word) {
            escape(out, bytes, &mut copied, at, at + 8);
        }
        at += 8;
    }
    // The last up to seven bytes, padded with spaces, checked the same way.
    let tail = bytes.get(at..).unwrap_or_default();
    let mut word = [b' '; 8];
    if let Some(head) = word.get_mut(..tail.len()) {
        head.copy_from_slice(tail);
    }
    if needs_escape(u64::from_le_bytes(word)) {
        escape(out, bytes, &mut copied, at, bytes.len());
    }
    out.extend_from_slice(bytes.get(copied..).unwrap_or_default());
}

/// Escapes the bytes of `bytes[from..to]` that need it, each after the bytes from `copied`
/// up to it.
fn escape(out: &mut Vec<u8>, bytes: &[u8], copied: &mut usize, from: usize, to: usize) {
    let run = bytes.get(from..to).unwrap_or_default();
    for (i, &b) in run.iter().enumerate() {
        let escape = ESCAPE[usize::from(b)];
        if escape == 0 {
            continue;
        }
        let at = from + i;
        out.extend_from_slice(bytes.get(*copied..at).unwrap_or_default());
        if escape == b'u' {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.push(b'\\');
            out.push(escape);
        }
        *copied = at + 1;
    }
}

/// True when one of the eight bytes of `word` needs an escape: a control character, `"` or
/// a backslash. `(w - n·0x01…) & !w & 0x80…` is non-zero exactly when a byte of `w` is below
/// `n` (for n <= 0x80: the lowest such byte borrows and keeps its high bit clear in `w`; with
/// none below `n` nothing borrows, and a high bit of `w - n` needs one in `w`). Which byte it
/// is does not matter: the eight are then escaped one by one.
const fn needs_escape(word: u64) -> bool {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES * 0x80;
    const fn below(w: u64, n: u8) -> u64 {
        w.wrapping_sub(ONES * n as u64) & !w & HIGH
    }
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    (below(word, 0x20) | below(quote, 1) | below(backslash, 1)) != 0
}

/// `s` as a JSON string.
pub(super) fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    contents(out, s);
    out.push(b'"');
}

fn opt_string(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

fn boolean(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"true" } else { b"false" });
}

/// A whole number in decimal, as serde_json writes it (with the same itoa).
fn number(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Escapes what a `Display` writes, piece by piece, as serde_json's `collect_str` does.
struct Escaping<'o>(&'o mut Vec<u8>);

impl std::fmt::Write for Escaping<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        contents(self.0, s);
        Ok(())
    }
}

/// What a rule displays as, as a JSON string (its `Display`, written piece by piece).
fn displayed(out: &mut Vec<u8>, r: &RuleRef) -> io::Result<()> {
    out.push(b'"');
    r.write_to(&mut Escaping(out))
        .map_err(|_| io::Error::other("a rule could not be displayed"))?;
    out.push(b'"');
    Ok(())
}

/// An attribute path as a JSON string (its `Display`, written piece by piece).
fn path(out: &mut Vec<u8>, p: &AttrPath) -> io::Result<()> {
    out.push(b'"');
    p.write_to(&mut Escaping(out))
        .map_err(|_| io::Error::other("an attribute path could not be displayed"))?;
    out.push(b'"');
    Ok(())
}

/// A list at key depth 3 (its items at 4): `[]` when empty.
fn list<T>(
    out: &mut Vec<u8>,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut Vec<u8>, T) -> io::Result<()>,
) -> io::Result<()> {
    out.push(b'[');
    let mut any = false;
    for t in items {
        if any {
            out.push(b',');
        }
        any = true;
        out.extend_from_slice(AT4);
        item(out, t)?;
    }
    if any {
        out.extend_from_slice(AT3);
    }
    out.push(b']');
    Ok(())
}

/// The keys of a rule object whose own key sits at depth 3 or 5, and its closing line.
struct RuleKeys {
    id: &'static [u8],
    origin: &'static [u8],
    pack: &'static [u8],
    version: &'static [u8],
    file: &'static [u8],
    line: &'static [u8],
    type_name: &'static [u8],
    attribute: &'static [u8],
    close: &'static [u8],
}

/// The keys of a rule object with its fields at depth `$d`, closed by `$close`.
macro_rules! rule_keys {
    ($d:tt, $close:literal) => {
        RuleKeys {
            id: key!(first, $d, "id"),
            origin: key!($d, "origin"),
            pack: key!($d, "pack"),
            version: key!($d, "version"),
            file: key!($d, "file"),
            line: key!($d, "line"),
            type_name: key!($d, "type"),
            attribute: key!($d, "attribute"),
            close: $close,
        }
    };
}

/// `decided_by` and `overwrites`: fields at depth 4.
const RULE_AT_3: RuleKeys = rule_keys!(4, b"\n      }");

/// An attribute's `rule`: fields at depth 6.
const RULE_AT_5: RuleKeys = rule_keys!(6, b"\n          }");

fn rule(out: &mut Vec<u8>, r: Option<&RuleRef>, k: &RuleKeys) -> io::Result<()> {
    let Some(r) = r else {
        out.extend_from_slice(b"null");
        return Ok(());
    };
    let j = RuleJson::from(r);
    out.extend_from_slice(k.id);
    displayed(out, j.id)?;
    out.extend_from_slice(k.origin);
    string(out, j.origin);
    out.extend_from_slice(k.pack);
    opt_string(out, j.pack);
    out.extend_from_slice(k.version);
    opt_string(out, j.version);
    out.extend_from_slice(k.file);
    opt_string(out, j.file);
    out.extend_from_slice(k.line);
    match j.line {
        Some(n) => number(out, n),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(k.type_name);
    string(out, j.type_name);
    out.extend_from_slice(k.attribute);
    opt_string(out, j.attribute);
    out.extend_from_slice(k.close);
    Ok(())
}

/// An attribute's `before` or `after` (fields at depth 6): a known string, boolean or null
/// written here, any other known value by serde_json at depth 6.
fn value(out: &mut Vec<u8>, s: &Shown) -> io::Result<()> {
    let v = match ValueJson::from(s) {
        ValueJson::Known(v) => v,
        ValueJson::Sensitive => {
            out.extend_from_slice(b"{\n            \"kind\": \"sensitive\"\n          }");
            return Ok(());
        }
        ValueJson::Unknown => {
            out.extend_from_slice(b"{\n            \"kind\": \"unknown\"\n          }");
            return Ok(());
        }
        ValueJson::Absent => {
            out.extend_from_slice(b"{\n            \"kind\": \"absent\"\n          }");
            return Ok(());
        }
    };
    out.extend_from_slice(b"{\n            \"kind\": \"known\",\n            \"value\": ");
    match v {
        serde_json::Value::String(s) => string(out, s),
        serde_json::Value::Bool(b) => boolean(out, *b),
        serde_json::Value::Null => out.extend_from_slice(b"null"),
        v => v.serialize(&mut serde_json::Serializer::with_formatter(
            &mut *out,
            Indented::at(6),
        ))?,
    }
    out.extend_from_slice(b"\n          }");
    Ok(())
}

/// One entry of `attributes` (fields at depth 5).
fn attribute(out: &mut Vec<u8>, a: &AttrVerdict) -> io::Result<()> {
    out.extend_from_slice(key!(first, 5, "path"));
    path(out, &a.change.path)?;
    out.extend_from_slice(key!(5, "before"));
    value(out, &a.change.before)?;
    out.extend_from_slice(key!(5, "after"));
    value(out, &a.change.after)?;
    out.extend_from_slice(key!(5, "impact"));
    string(out, a.impact.as_str());
    out.extend_from_slice(key!(5, "forces_replacement"));
    boolean(out, a.forces_replacement);
    out.extend_from_slice(key!(5, "rule"));
    rule(out, a.rule.as_deref(), &RULE_AT_5)?;
    out.extend_from_slice(key!(5, "why"));
    opt_string(out, a.why.as_deref());
    out.extend_from_slice(AT4);
    out.push(b'}');
    Ok(())
}

/// One entry of `facts` (fields at depth 5).
fn fact(out: &mut Vec<u8>, f: &Fact) {
    match FactJson::from(f) {
        FactJson::Import { id } => {
            out.extend_from_slice(key!(first, 5, "fact"));
            string(out, "import");
            out.extend_from_slice(key!(5, "id"));
            opt_string(out, id);
        }
        FactJson::Move { from } => {
            out.extend_from_slice(key!(first, 5, "fact"));
            string(out, "move");
            out.extend_from_slice(key!(5, "from"));
            string(out, from);
        }
        FactJson::Forget => {
            out.extend_from_slice(key!(first, 5, "fact"));
            string(out, "forget");
        }
        FactJson::Deposed { key } => {
            out.extend_from_slice(key!(first, 5, "fact"));
            string(out, "deposed");
            out.extend_from_slice(key!(5, "key"));
            string(out, key);
        }
    }
    out.extend_from_slice(AT4);
    out.push(b'}');
}

/// Appends the verdict's record to `out`, as `change(v)` serialized with
/// `Indented::at(2)` writes it. Fails only if a known value cannot be serialized or a rule
/// or path cannot be displayed, which neither can.
pub(super) fn write(out: &mut Vec<u8>, v: &Verdict) -> io::Result<()> {
    out.extend_from_slice(key!(first, 3, "address"));
    string(out, &v.address);
    out.extend_from_slice(key!(3, "deposed"));
    opt_string(out, v.deposed.as_deref());
    out.extend_from_slice(key!(3, "mode"));
    string(out, mode_str(v.mode));
    out.extend_from_slice(key!(3, "type"));
    string(out, &v.type_name);
    out.extend_from_slice(key!(3, "provider"));
    string(out, &v.provider_name);
    out.extend_from_slice(key!(3, "action"));
    string(out, v.action.as_terraform());
    out.extend_from_slice(key!(3, "action_words"));
    string(out, v.action.describe());
    out.extend_from_slice(key!(3, "action_reason"));
    opt_string(out, v.action_reason.as_deref());
    out.extend_from_slice(key!(3, "impact"));
    string(out, v.impact.as_str());
    out.extend_from_slice(key!(3, "classified"));
    boolean(out, v.classified);
    out.extend_from_slice(key!(3, "cost_unknown"));
    boolean(out, cost_unknown(v));
    out.extend_from_slice(key!(3, "decided_by"));
    rule(out, v.decided_by.as_deref(), &RULE_AT_3)?;
    out.extend_from_slice(key!(3, "explanation"));
    list(out, explanation(v), |out, l| {
        string(out, &l);
        Ok(())
    })?;
    out.extend_from_slice(key!(3, "attributes"));
    list(out, &v.attributes, attribute)?;
    out.extend_from_slice(key!(3, "attributes_left_out"));
    number(out, v.attributes_left_out);
    out.extend_from_slice(key!(3, "identity_changes"));
    list(out, &v.identity_changes, path)?;
    out.extend_from_slice(key!(3, "holds_data"));
    boolean(out, v.holds_data);
    out.extend_from_slice(key!(3, "overwrites"));
    rule(out, v.overwrites.as_deref(), &RULE_AT_3)?;
    out.extend_from_slice(key!(3, "facts"));
    let mut facts: Vec<&Fact> = v.facts.iter().collect();
    facts.sort();
    list(out, facts, |out, f| {
        fact(out, f);
        Ok(())
    })?;
    out.extend_from_slice(AT2);
    out.push(b'}');
    Ok(())
}
