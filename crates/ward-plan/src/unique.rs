//! One key, once per object: every object the reader reads, builds, fingerprints or skips is
//! checked for a key it holds twice, and refused (issue 33, item 10). Terraform and OpenTofu
//! never write a key twice (Go's encoding/json writes each struct field and map key once); a
//! plan that does was edited, and a reading that keeps the last (or the first) of the two may
//! see another plan than apply acts on: `"actions": ["delete"], "actions": ["no-op"]` was read
//! as a no-op. Keys are compared decoded (`"a"` and `"\u0061"` are one key).
//!
//! * [`Seen`]: the keys of one object so far; [`Seen::check`] refuses one that repeats.
//! * [`UValue`]: a `serde_json::Value` built as serde_json builds it, refusing a repeated key.
//! * [`Unique`]: a value skipped as `IgnoredAny` skips it, refusing a repeated key at any depth.
//! * [`repeated`]: the error, whose message the walk recognises ([`is_repeated`]) and turns into
//!   [`crate::PlanErrorKind::DuplicateKey`].

pub(crate) mod valid;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

/// How many keys [`Seen`] compares one by one before it keeps them in a hash set: most objects
/// of a plan have fewer.
const LINEAR: usize = 16;

/// The keys of one object read so far.
#[derive(Default)]
pub(crate) struct Seen<'de> {
    few: Vec<Cow<'de, str>>,
    many: Option<HashSet<Cow<'de, str>>>,
}

impl<'de> Seen<'de> {
    /// Adds `key`, or gives it back when the object already had it.
    pub(crate) fn add(&mut self, key: Cow<'de, str>) -> Result<(), Cow<'de, str>> {
        if let Some(many) = &mut self.many {
            if many.contains(&key) {
                return Err(key);
            }
            many.insert(key);
            return Ok(());
        }
        if self.few.contains(&key) {
            return Err(key);
        }
        if self.few.len() < LINEAR {
            self.few.push(key);
        } else {
            let mut many: HashSet<Cow<'de, str>> = self.few.drain(..).collect();
            many.insert(key);
            self.many = Some(many);
        }
        Ok(())
    }

    /// [`Seen::add`], as the error a seed returns.
    pub(crate) fn check<E: de::Error>(&mut self, key: Cow<'de, str>) -> Result<(), E> {
        self.add(key).map_err(|k| repeated(&k))
    }
}

/// The start of every repeated-key message (what [`is_repeated`] looks for).
const MARK: &str = "repeated key: ";

/// The error for an object that holds `key` twice.
pub(crate) fn repeated<E: de::Error>(key: &str) -> E {
    E::custom(format!(
        "{MARK}the key `{}` twice in one object",
        shown(key)
    ))
}

/// The text after the mark when `message` (a serde_json error's, its position left off) is a
/// repeated key: serde's derived readers say `duplicate field `x``, this module the rest.
pub(crate) fn is_repeated(message: &str) -> Option<String> {
    if let Some(rest) = message.strip_prefix(MARK) {
        return Some(rest.to_string());
    }
    let field = message
        .strip_prefix("duplicate field `")?
        .strip_suffix('`')?;
    Some(format!("the key `{field}` twice in one object"))
}

/// `message` (a serde_json error, with or without its position) with where it was: the
/// resource change's address. Messages that are not repeated keys are left as they are.
pub(crate) fn within(message: &str, address: Option<&str>) -> Option<String> {
    let text = message.rsplit_once(" at line ").map_or(message, |(w, _)| w);
    let what = is_repeated(text)?;
    if what.contains(", in `") {
        return Some(format!("{MARK}{what}"));
    }
    Some(match address {
        Some(a) => format!("{MARK}{what}, in `{}`", shown(a)),
        None => format!("{MARK}{what}"),
    })
}

/// `text` as an error message shows it: at most 100 characters, control and invisible
/// characters escaped (a key or an address comes from the input).
fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(100)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(100).is_some() {
        out.push('…');
    }
    out
}

/// A key, borrowed from the input where it holds no escape.
pub(crate) struct KeyText<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for KeyText<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyTextVisitor)
    }
}

struct KeyTextVisitor;

impl<'de> Visitor<'de> for KeyTextVisitor {
    type Value = KeyText<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object key")
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<KeyText<'de>, E> {
        Ok(KeyText(Cow::Borrowed(s)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<KeyText<'de>, E> {
        Ok(KeyText(Cow::Owned(s.to_string())))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<KeyText<'de>, E> {
        Ok(KeyText(Cow::Owned(s)))
    }
}

/// A JSON value built as `serde_json::Value` builds it, refusing an object that holds a key
/// twice (at any depth).
pub(crate) struct UValue(pub Value);

impl<'de> Deserialize<'de> for UValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UValueVisitor).map(UValue)
    }
}

struct UValueVisitor;

impl<'de> Visitor<'de> for UValueVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        UValue::deserialize(d).map(|v| v.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(UValue(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            let UValue(v) = map.next_value()?;
            match out.entry(k) {
                serde_json::map::Entry::Vacant(e) => {
                    e.insert(v);
                }
                serde_json::map::Entry::Occupied(e) => return Err(repeated(e.key())),
            }
        }
        Ok(Value::Object(out))
    }
}

/// A value skipped without being kept, as `IgnoredAny` skips it, but looked into: an object
/// that holds a key twice, at any depth, is refused.
pub(crate) struct Unique;

impl<'de> DeserializeSeed<'de> for Unique {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Unique).map(|()| Unique)
    }
}

impl<'de> Visitor<'de> for Unique {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        Unique.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Unique)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = Seen::default();
        while let Some(KeyText(k)) = map.next_key()? {
            seen.check(k)?;
            map.next_value_seed(Unique)?;
        }
        Ok(())
    }
}

/// The first key repeated in one object of `json`, which serde_json has already read as valid
/// JSON: its offset in `json` and the key (decoded). The check of a value that is skipped or
/// kept raw, in one pass over its bytes (faster than a second parse: nothing is decoded but the
/// keys that hold an escape). `None` also for text that is not valid JSON (the parser says what
/// is wrong with it).
///
/// Since the text is valid JSON, the scan needs only three kinds of byte: a quote starts a
/// string, which [`string_end`] jumps eight bytes at a time; a string followed by `:` is a key
/// of the innermost open object; `{` and `}` open and close an object. Arrays hold no keys of
/// their own, so their brackets, like every other byte, are stepped over. A key is compared
/// with the object's earlier keys by a tag of its first and last bytes and its length first
/// (one integer comparison each), by its bytes only when the tags match.
pub(crate) fn first_repeat(json: &[u8]) -> Option<(usize, String)> {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::default();
    }
    // The lists are kept from one call to the next: the reader calls this for every skipped
    // value (most of them small), and growing fresh lists each time cost as much as the scan.
    SCRATCH
        .try_with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => scan(json, &mut scratch),
            Err(_) => scan(json, &mut Scratch::default()),
        })
        .unwrap_or_else(|_| scan(json, &mut Scratch::default()))
}

/// [`first_repeat`]'s lists: the open objects, and the keys of each so far.
#[derive(Default)]
struct Scratch {
    /// An open object: where its keys start in `keys`, or its set once it has many.
    levels: Vec<(usize, Option<HashSet<Vec<u8>>>)>,
    /// A key: its tag, and where its text is: in the input, or (decoded) in `decoded`.
    keys: Vec<(u64, Span)>,
    /// The decoded text of the keys that hold an escape.
    decoded: Vec<u8>,
}

/// Where a key's text is.
#[derive(Clone, Copy)]
enum Span {
    Input(usize, usize),
    Decoded(usize, usize),
}

impl Scratch {
    fn text<'a>(&'a self, json: &'a [u8], span: Span) -> &'a [u8] {
        match span {
            Span::Input(from, to) => &json[from..to],
            Span::Decoded(from, to) => &self.decoded[from..to],
        }
    }
}

fn scan(json: &[u8], s: &mut Scratch) -> Option<(usize, String)> {
    s.levels.clear();
    s.keys.clear();
    s.decoded.clear();
    let mut i = 0;
    while i < json.len() {
        match json[i] {
            b'"' => {
                let (end, escaped) = string_end(json, i + 1)?;
                let mut next = end + 1;
                while json
                    .get(next)
                    .is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
                {
                    next += 1;
                }
                if json.get(next) != Some(&b':') {
                    i = next;
                    continue;
                }
                let span = if escaped {
                    let text = serde_json::from_slice::<String>(&json[i..=end]).ok()?;
                    let from = s.decoded.len();
                    s.decoded.extend_from_slice(text.as_bytes());
                    Span::Decoded(from, s.decoded.len())
                } else {
                    Span::Input(i + 1, end)
                };
                let (start, many) = s.levels.last()?;
                let (start, in_set) = (*start, many.is_some());
                let tag = tag(s.text(json, span));
                let repeated = match many {
                    Some(set) => set.contains(s.text(json, span)),
                    None => {
                        let key = s.text(json, span);
                        s.keys[start..]
                            .iter()
                            .any(|&(t, other)| t == tag && s.text(json, other) == key)
                    }
                };
                if repeated {
                    let key = String::from_utf8_lossy(s.text(json, span)).into_owned();
                    return Some((i, key));
                }
                if in_set {
                    let key = s.text(json, span).to_vec();
                    if let Some((_, Some(set))) = s.levels.last_mut() {
                        set.insert(key);
                    }
                } else if s.keys.len() - start < LINEAR {
                    s.keys.push((tag, span));
                } else {
                    // Many keys: a set of their texts from here on.
                    let mut set: HashSet<Vec<u8>> = s.keys[start..]
                        .iter()
                        .map(|&(_, other)| s.text(json, other).to_vec())
                        .collect();
                    set.insert(s.text(json, span).to_vec());
                    s.keys.truncate(start);
                    if let Some(level) = s.levels.last_mut() {
                        level.1 = Some(set);
                    }
                }
                i = next + 1;
            }
            b'{' => {
                s.levels.push((s.keys.len(), None));
                i += 1;
            }
            b'}' => {
                if let Some((start, _)) = s.levels.pop() {
                    s.keys.truncate(start);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Where the string whose text starts at `from` (after its opening quote) ends: the offset of
/// its closing quote, and whether it holds an escape. `None` when `json` ends first.
fn string_end(json: &[u8], mut from: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        // Eight bytes at a time for the first 32 (most strings of a plan are shorter), then
        // memchr, whose setup costs more than that for a short string.
        let mut at = None;
        for _ in 0..4 {
            let Some(word) = json.get(from..from + 8) else {
                break;
            };
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            let word = u64::from_le_bytes(bytes);
            let hits = zero_bytes(word ^ QUOTES) | zero_bytes(word ^ BACKSLASHES);
            if hits != 0 {
                at = Some(from + (hits.trailing_zeros() / 8) as usize);
                break;
            }
            from += 8;
        }
        let at = match at {
            Some(at) => at,
            None => from + memchr::memchr2(b'"', b'\\', json.get(from..)?)?,
        };
        if json[at] == b'\\' {
            escaped = true;
            from = at + 2;
        } else {
            return Some((at, escaped));
        }
    }
}

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const QUOTES: u64 = 0x2222_2222_2222_2222;
const BACKSLASHES: u64 = 0x5c5c_5c5c_5c5c_5c5c;

/// The high bit of each byte of `word` that is zero, and no other bit (exact: no borrow runs
/// from one byte into the next).
fn zero_bytes(word: u64) -> u64 {
    !(((word & LOW7) + LOW7) | word | LOW7)
}

/// A key's tag: equal keys have equal tags, and most different keys of one object different
/// ones. A key under eight bytes is its bytes (first lowest) and its length, whole (what
/// [`valid`]'s key scan takes from the word it read the key in); a longer one its first and
/// last eight bytes and its length, mixed.
#[inline]
fn tag(key: &[u8]) -> u64 {
    let n = key.len();
    match (key.first_chunk::<8>(), key.last_chunk::<8>()) {
        (Some(&head), Some(&tail)) => {
            u64::from_le_bytes(head)
                ^ u64::from_le_bytes(tail).rotate_left(29)
                ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        }
        _ => short_tag(
            key.iter()
                .rev()
                .fold(0u64, |tag, &b| (tag << 8) | u64::from(b)),
            n,
        ),
    }
}

/// The tag of a key under eight bytes: `bytes` (the key's, first lowest, nothing above them)
/// and its length `n`.
#[inline]
fn short_tag(bytes: u64, n: usize) -> u64 {
    bytes | ((n as u64) << 56)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn the_byte_scan_finds_what_the_parse_finds() {
        for (text, want) in [
            (
                r#"{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 1}]}"#,
                None,
            ),
            (r#"{"a": 1, "a": 2}"#, Some("a")),
            (r#"[1, {"x": "a\"", "y": {"z": 1, "z": 2}}]"#, Some("z")),
            (r#"{"a": 1, "\u0061": 2}"#, Some("a")),
            (r#"{"k": "{\"a\": 1, \"a\": 2}"}"#, None),
            (r#""{\"a\": 1, \"a\": 2}""#, None),
        ] {
            let found = first_repeat(text.as_bytes()).map(|(_, k)| k);
            assert_eq!(found.as_deref(), want, "{text}");
            let parsed = serde_json::from_str::<Unique>(text)
                .err()
                .map(|e| e.to_string());
            assert_eq!(parsed.is_some(), want.is_some(), "{text}");
        }
        // Many keys: kept in a set past the first few.
        let many: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}, \"k57\": 0}}", many.join(", "));
        assert_eq!(
            first_repeat(text.as_bytes()).map(|(_, k)| k).as_deref(),
            Some("k57")
        );
        assert_eq!(
            first_repeat(format!("{{{}}}", many.join(", ")).as_bytes()),
            None
        );
    }

    use proptest::prelude::*;

    /// JSON text with few distinct keys (so that objects repeat some), strings whose quotes,
    /// backslashes and brackets fall anywhere within and across the scan's 8-byte words,
    /// escapes in keys (`\u0061` is `a`), and any whitespace between tokens.
    pub(crate) fn text() -> impl Strategy<Value = String> {
        let ws = prop::sample::select(vec!["", "", "", " ", "\n  ", "\t", "\r\n"]);
        let piece = prop::sample::select(vec![
            "a",
            "b",
            "\\\"",
            "\\\\",
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            "\\u0061",
            "long-text-",
            "é",
            "0123456789abcdef",
        ]);
        let string = prop::collection::vec(piece, 0..8).prop_map(|p| format!("\"{}\"", p.concat()));
        let key = prop::sample::select(vec![
            "a",
            "b",
            "\\u0061",
            "0123456789abcdefX",
            "0123456789abcdefY",
            "x\\\"y",
            "",
        ])
        .prop_map(|k| format!("\"{k}\""));
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("-1.5e3".to_string()),
            string,
        ];
        let tree = leaf.prop_recursive(5, 64, 8, move |inner| {
            let ws = ws.clone();
            prop_oneof![
                (
                    prop::collection::vec((ws.clone(), inner.clone()), 0..6),
                    ws.clone()
                )
                    .prop_map(|(items, w)| {
                        let items: Vec<String> =
                            items.into_iter().map(|(w, v)| format!("{w}{v}")).collect();
                        format!("[{}{w}]", items.join(","))
                    }),
                (
                    prop::collection::vec((ws.clone(), key.clone(), ws.clone(), inner), 0..6),
                    ws
                )
                    .prop_map(|(members, w)| {
                        let members: Vec<String> = members
                            .into_iter()
                            .map(|(a, k, b, v)| format!("{a}{k}{b}:{b}{v}"))
                            .collect();
                        format!("{{{}{w}}}", members.join(","))
                    }),
            ]
        });
        tree
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, .. ProptestConfig::default() })]

        /// The scan finds a repeated key exactly when the parse does, the same key first.
        #[test]
        fn the_byte_scan_and_the_parse_agree(text in text()) {
            prop_assume!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
            let scanned = first_repeat(text.as_bytes()).map(|(_, k)| k);
            let parsed = serde_json::from_str::<Unique>(&text).err().map(|e| e.to_string());
            prop_assert_eq!(scanned.is_some(), parsed.is_some(), "{}", text);
            if let (Some(key), Some(message)) = (&scanned, &parsed) {
                let shown = format!("the key `{}` twice", shown(key));
                prop_assert!(message.contains(&shown), "{} / {} / {}", text, key, message);
            }
        }
    }
}
