//! The attribute paths that really change between `before` and `after`, honouring
//! `after_unknown` and the sensitive masks. No sensitive value leaves this module.

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use ward_model::{AttrChange, AttrPath, HiddenDigest, PathStep, Shown};

/// A mask (`after_unknown`, `before_sensitive`, `after_sensitive`) at one point of the value.
#[derive(Clone, Copy)]
pub(crate) enum Mask<'a> {
    /// Nothing below is marked.
    Clear,
    /// Everything below is marked (`true`).
    All,
    /// Some parts below may be marked.
    Part(&'a Value),
}

impl<'a> Mask<'a> {
    /// The mask as the plan writes it (absent, `false`, `true`, or an object/array of marks).
    /// Any other mark (`"yes"`, `1`) counts as `true`: ward fails closed and hides the value.
    pub(crate) fn of(v: Option<&'a Value>) -> Mask<'a> {
        match v {
            None | Some(Value::Null | Value::Bool(false)) => Mask::Clear,
            Some(v @ (Value::Object(_) | Value::Array(_))) => Mask::Part(v),
            Some(_) => Mask::All,
        }
    }

    fn key(self, k: &str) -> Mask<'a> {
        match self {
            Mask::All => Mask::All,
            Mask::Part(Value::Object(m)) => Mask::of(m.get(k)),
            _ => Mask::Clear,
        }
    }

    fn index(self, i: usize) -> Mask<'a> {
        match self {
            Mask::All => Mask::All,
            Mask::Part(Value::Array(a)) => Mask::of(a.get(i)),
            _ => Mask::Clear,
        }
    }

    /// The keys of an object mask that mark something at or below them, in the mask's order
    /// (sorted), each with no value (for a merge with an object's own keys, see [`union`]).
    fn marked_keys<T>(self) -> impl Iterator<Item = (&'a str, Option<T>)> {
        let object = match self {
            Mask::Part(Value::Object(m)) => Some(m),
            _ => None,
        };
        object
            .into_iter()
            .flatten()
            .filter(|(_, v)| contains_true(v))
            .map(|(k, _)| (k.as_str(), None))
    }

    /// True when anything at or below this point is marked.
    pub(crate) fn any(self) -> bool {
        match self {
            Mask::Clear => false,
            Mask::All => true,
            Mask::Part(v) => contains_true(v),
        }
    }
}

/// True when `true` (or any mark other than `false` and `null`) appears anywhere in a mask.
pub(crate) fn contains_true(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => false,
        Value::Array(a) => a.iter().any(contains_true),
        Value::Object(m) => m.values().any(contains_true),
        // `true`, or any other mark: fail closed.
        _ => true,
    }
}

/// One side of a change, as ward may show it.
fn show(v: Option<&Value>, sensitive: Mask) -> Shown {
    match v {
        None | Some(Value::Null) => {
            if matches!(sensitive, Mask::All) {
                Shown::Sensitive
            } else {
                Shown::Absent
            }
        }
        Some(_) if sensitive.any() => Shown::Sensitive,
        Some(v) => Shown::Known(shorten(v)),
    }
}

fn show_after(v: Option<&Value>, sensitive: Mask, unknown: Mask) -> Shown {
    if sensitive.any() && (v.is_some_and(|v| !v.is_null()) || matches!(sensitive, Mask::All)) {
        return Shown::Sensitive;
    }
    if unknown.any() {
        return Shown::Unknown;
    }
    show(v, sensitive)
}

/// A copy of `v` with every string longer than [`Shown::MAX_STRING`] chars shortened and
/// marked with a trailing `…`.
pub(crate) fn shorten(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(shorten_str(s)),
        Value::Array(a) => Value::Array(a.iter().map(shorten).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), shorten(v))).collect()),
        other => other.clone(),
    }
}

fn shorten_str(s: &str) -> String {
    match s.char_indices().nth(Shown::MAX_STRING) {
        Some((cut, _)) => {
            let mut out = String::with_capacity(cut + 3);
            out.push_str(&s[..cut]);
            out.push('…');
            out
        }
        None => s.to_string(),
    }
}

/// True when [`shorten`] would change `v` (some string in it is longer than
/// [`Shown::MAX_STRING`] chars).
fn is_long(v: &Value) -> bool {
    match v {
        Value::String(s) => {
            s.len() > Shown::MAX_STRING && s.chars().nth(Shown::MAX_STRING).is_some()
        }
        Value::Array(a) => a.iter().any(is_long),
        Value::Object(m) => m.values().any(is_long),
        _ => false,
    }
}

/// The fingerprint of a change whose shown values hide the raw ones (a side is sensitive or
/// was shortened): SHA-256 over the compact JSON of `[before, after]` (absent sides as `null`).
/// serde_json's map keeps keys sorted (its `preserve_order` feature is off), so the encoding
/// is canonical. `None` when nothing is hidden.
fn hidden_digest(
    before: Option<&Value>,
    after: Option<&Value>,
    b: &Shown,
    a: &Shown,
) -> Option<HiddenDigest> {
    let hidden = matches!(b, Shown::Sensitive)
        || matches!(a, Shown::Sensitive)
        || (matches!(b, Shown::Known(_)) && before.is_some_and(is_long))
        || (matches!(a, Shown::Known(_)) && after.is_some_and(is_long));
    if !hidden {
        return None;
    }
    let bytes = serde_json::to_vec(&(before, after)).ok()?;
    Some(HiddenDigest::new(Sha256::digest(&bytes).into()))
}

/// The masks and values of one change.
pub(crate) struct Sides<'a> {
    pub before: Option<&'a Value>,
    pub after: Option<&'a Value>,
    pub after_unknown: Mask<'a>,
    pub before_sensitive: Mask<'a>,
    pub after_sensitive: Mask<'a>,
}

/// Every path whose value changes, sorted.
pub(crate) fn changed(sides: &Sides) -> Vec<AttrChange> {
    let mut out = Vec::new();
    walk(
        None,
        sides.before,
        sides.after,
        sides.after_unknown,
        sides.before_sensitive,
        sides.after_sensitive,
        &mut out,
    );
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.shrink_to_fit();
    out
}

/// What a create sets or a delete removes: the leaves of the whole object, each as a change
/// from absent (a create: `after`, with its unknown and sensitive masks) or to absent (a delete:
/// `before`, with its sensitive mask). Objects are descended, and lists of objects (nested
/// blocks) by index; a list of plain values is one leaf; nulls and empty lists and maps set
/// nothing and are left out; an attribute the unknown mask marks is `(known after apply)`; a
/// sensitive one is [`Shown::Sensitive`] and not descended (its shape is secret too). At most
/// `max` leaves are kept, sorted by path; the second value counts the others.
pub(crate) struct Whole<'a> {
    /// The object's top-level attributes, parsed (or borrowed from the parsed side).
    pub entries: Vec<(&'a str, Cow<'a, Value>)>,
    /// The unknown mask (a create's `after_unknown`; clear for a delete).
    pub unknown: Mask<'a>,
    /// The sensitive mask of the side.
    pub sensitive: Mask<'a>,
    /// A create (`after`), else a delete (`before`).
    pub creates: bool,
}

/// See [`Whole`].
pub(crate) fn object_values(whole: &Whole<'_>, max: usize) -> (Vec<AttrChange>, usize) {
    let mut out = Leaves {
        kept: Vec::new(),
        more: 0,
        max,
        creates: whole.creates,
    };
    if matches!(whole.sensitive, Mask::All) {
        out.push(None, Shown::Sensitive);
        return (out.kept, out.more);
    }
    // Both lists are sorted by name, each name once: one merge visits every name once, in
    // order, with its value.
    let entries = whole.entries.iter().map(|(k, v)| (*k, Some(v.as_ref())));
    for (name, v) in union(entries, whole.unknown.marked_keys()) {
        let node = Node::key(name, None);
        leaves(
            Some(&node),
            v,
            whole.unknown.key(name),
            whole.sensitive.key(name),
            &mut out,
        );
    }
    out.kept.sort_by(|a, b| a.path.cmp(&b.path));
    out.kept.shrink_to_fit();
    (out.kept, out.more)
}

/// The leaves [`object_values`] collects.
struct Leaves {
    kept: Vec<AttrChange>,
    more: usize,
    max: usize,
    creates: bool,
}

impl Leaves {
    fn push(&mut self, path: Option<&Node>, shown: Shown) {
        if self.kept.len() >= self.max {
            self.more += 1;
            return;
        }
        let (before, after) = if self.creates {
            (Shown::Absent, shown)
        } else {
            (shown, Shown::Absent)
        };
        self.kept.push(AttrChange {
            path: attr_path(path),
            before,
            after,
            hidden: None,
        });
    }
}

/// Depth is bounded by the JSON parser's recursion limit (128), so plain recursion is safe.
fn leaves(
    path: Option<&Node>,
    v: Option<&Value>,
    unknown: Mask,
    sensitive: Mask,
    out: &mut Leaves,
) {
    let v = non_null(v);
    if sensitive.any() && (v.is_some() || matches!(sensitive, Mask::All)) {
        out.push(path, Shown::Sensitive);
        return;
    }
    if matches!(unknown, Mask::All) {
        out.push(path, Shown::Unknown);
        return;
    }
    match v {
        None => {
            if unknown.any() {
                out.push(path, Shown::Unknown);
            }
        }
        Some(Value::Object(m)) => {
            let values = m.iter().map(|(k, v)| (k.as_str(), Some(v)));
            for (k, v) in union(values, unknown.marked_keys()) {
                let node = Node::key(k, path);
                leaves(Some(&node), v, unknown.key(k), sensitive.key(k), out);
            }
        }
        Some(Value::Array(a)) if a.iter().any(|e| e.is_object()) || unknown.any() => {
            for (i, e) in a.iter().enumerate() {
                let node = Node::index(i, path);
                leaves(
                    Some(&node),
                    Some(e),
                    unknown.index(i),
                    sensitive.index(i),
                    out,
                );
            }
        }
        Some(Value::Array(a)) if a.is_empty() => {}
        Some(v) => out.push(path, Shown::Known(shorten(v))),
    }
}

/// A top-level key of a raw side: borrowed from the input unless it holds an escape.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct RawKey<'a>(Cow<'a, str>);

impl<'a> RawKey<'a> {
    /// The key.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// A key without escapes, as it stands in the input.
    pub(crate) fn borrowed(key: &'a str) -> Self {
        RawKey(Cow::Borrowed(key))
    }
}

impl<'de> Deserialize<'de> for RawKey<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawKey<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an attribute name")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<RawKey<'de>, E> {
                Ok(RawKey(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RawKey<'de>, E> {
                Ok(RawKey(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// [`changed`] for two objects given as their top-level attributes, raw, each sorted by name
/// and each name once (`crate::parse::reduce`'s `RawObject`): an attribute whose
/// bytes are the same on both sides, with nothing under it marked unknown, is unchanged
/// (equal bytes are equal values, and the sensitive masks only hide values that change) and
/// is not parsed; every other attribute is parsed and diffed as [`changed`] does. The caller
/// checks that neither the whole `after` is unknown nor a whole side sensitive (the cases
/// [`walk`] decides at the top, before it descends).
pub(crate) fn changed_lazy(
    before: &[(RawKey<'_>, &str)],
    after: &[(RawKey<'_>, &str)],
    unknown: Mask,
    bsens: Mask,
    asens: Mask,
) -> Result<Vec<AttrChange>, serde_json::Error> {
    let mut out = Vec::new();
    // Both sides are sorted by name: one merge of the two visits every name once, in order.
    let (mut bs, mut as_) = (before.iter().peekable(), after.iter().peekable());
    loop {
        let order = match (bs.peek(), as_.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((bk, _)), Some((ak, _))) => bk.cmp(ak),
        };
        let b = if order == Ordering::Greater {
            None
        } else {
            bs.next()
        };
        let a = if order == Ordering::Less {
            None
        } else {
            as_.next()
        };
        let Some(k) = b.or(a).map(|(k, _)| k.as_str()) else {
            break;
        };
        let (b, a) = (b.map(|(_, v)| v), a.map(|(_, v)| v));
        let u = unknown.key(k);
        if let (Some(b), Some(a)) = (b, a) {
            if b == a && !u.any() {
                continue;
            }
        }
        let parse = |r: Option<&&str>| r.map(|r| crate::walk::value_of(r)).transpose();
        let (b, a) = (parse(b)?, parse(a)?);
        let node = Node::key(k, None);
        walk(
            Some(&node),
            b.as_ref(),
            a.as_ref(),
            u,
            bsens.key(k),
            asens.key(k),
            &mut out,
        );
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.shrink_to_fit();
    Ok(out)
}

/// A step of the path being walked, on the stack with the steps above it: the walk keeps no
/// path of its own (whose keys it would copy at each step and drop at the next), and a kept
/// change's [`AttrPath`] is built from it once ([`attr_path`]).
struct Node<'p> {
    step: Step<'p>,
    up: Option<&'p Node<'p>>,
}

enum Step<'p> {
    Key(&'p str),
    Index(u64),
}

impl<'p> Node<'p> {
    fn key(key: &'p str, up: Option<&'p Node<'p>>) -> Self {
        Node {
            step: Step::Key(key),
            up,
        }
    }

    fn index(i: usize, up: Option<&'p Node<'p>>) -> Self {
        Node {
            step: Step::Index(i as u64),
            up,
        }
    }
}

/// The path from the top to `at` (the top itself when `None`).
fn attr_path(at: Option<&Node>) -> AttrPath {
    let mut depth = 0;
    let mut n = at;
    while let Some(node) = n {
        depth += 1;
        n = node.up;
    }
    let mut steps = Vec::with_capacity(depth);
    let mut n = at;
    while let Some(node) = n {
        steps.push(match node.step {
            Step::Key(k) => PathStep::Key(k.to_string()),
            Step::Index(i) => PathStep::Index(i),
        });
        n = node.up;
    }
    steps.reverse();
    AttrPath(steps)
}

/// The names of two lists sorted by name, each name once in each, in order and each once,
/// with what each list gives of it (the first's when both have it). What a merge of two
/// `serde_json::Map`s' keys (sorted: a `BTreeMap`) or of a side's sorted attributes gives.
fn union<'a, T: Copy>(
    a: impl Iterator<Item = (&'a str, T)>,
    b: impl Iterator<Item = (&'a str, T)>,
) -> impl Iterator<Item = (&'a str, T)> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) => match x.0.cmp(y.0) {
            Ordering::Less => a.next(),
            Ordering::Greater => b.next(),
            Ordering::Equal => {
                b.next();
                a.next()
            }
        },
        (Some(_), None) => a.next(),
        (None, _) => b.next(),
    })
}

fn non_null(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

/// Depth is bounded by the JSON parser's recursion limit (128), so plain recursion is safe.
fn walk(
    path: Option<&Node>,
    before: Option<&Value>,
    after: Option<&Value>,
    unknown: Mask,
    bsens: Mask,
    asens: Mask,
    out: &mut Vec<AttrChange>,
) {
    let before = non_null(before);
    let after = non_null(after);
    let mut push = |path: Option<&Node>, b: Shown, a: Shown| {
        let hidden = hidden_digest(before, after, &b, &a);
        out.push(AttrChange {
            path: attr_path(path),
            before: b,
            after: a,
            hidden,
        })
    };

    if matches!(unknown, Mask::All) {
        let a = if matches!(asens, Mask::All) {
            Shown::Sensitive
        } else {
            Shown::Unknown
        };
        push(path, show(before, bsens), a);
        return;
    }
    if matches!(bsens, Mask::All) || matches!(asens, Mask::All) {
        // A wholly sensitive value: compare, never descend (its shape is secret too).
        if before != after || unknown.any() {
            push(path, show(before, bsens), show_after(after, asens, unknown));
        }
        return;
    }
    match (before, after) {
        (Some(Value::Object(b)), Some(Value::Object(a))) => {
            let keys = union(
                b.keys().map(|k| (k.as_str(), ())),
                a.keys().map(|k| (k.as_str(), ())),
            );
            for (k, ()) in keys {
                let node = Node::key(k, path);
                walk(
                    Some(&node),
                    b.get(k),
                    a.get(k),
                    unknown.key(k),
                    bsens.key(k),
                    asens.key(k),
                    out,
                );
            }
        }
        (Some(Value::Array(b)), Some(Value::Array(a))) if b.len() == a.len() => {
            for (i, (bv, av)) in b.iter().zip(a.iter()).enumerate() {
                let node = Node::index(i, path);
                walk(
                    Some(&node),
                    Some(bv),
                    Some(av),
                    unknown.index(i),
                    bsens.index(i),
                    asens.index(i),
                    out,
                );
            }
        }
        _ => {
            if before != after || unknown.any() {
                push(path, show(before, bsens), show_after(after, asens, unknown));
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(b: Value, a: Value, u: Value, bs: Value, as_: Value) -> Vec<(String, Shown, Shown)> {
        changed(&Sides {
            before: Some(&b),
            after: Some(&a),
            after_unknown: Mask::of(Some(&u)),
            before_sensitive: Mask::of(Some(&bs)),
            after_sensitive: Mask::of(Some(&as_)),
        })
        .into_iter()
        .map(|c| (c.path.to_string(), c.before, c.after))
        .collect()
    }

    /// The merge of two sorted lists gives each name once, in order, with the first list's
    /// value where both have it; and a `serde_json::Map` iterates its keys sorted (the
    /// merges over maps rely on it: serde_json's `preserve_order` would break them).
    #[test]
    fn the_union_of_two_sorted_lists_is_sorted_and_each_name_once() {
        let a = [("a", 1), ("c", 1), ("d", 1)];
        let b = [("b", 2), ("c", 2), ("e", 2)];
        let got: Vec<(&str, i32)> = union(a.into_iter(), b.into_iter()).collect();
        assert_eq!(got, [("a", 1), ("b", 2), ("c", 1), ("d", 1), ("e", 2)]);
        assert_eq!(union(b.into_iter(), [].into_iter()).count(), 3);
        assert_eq!(union([].into_iter(), a.into_iter()).count(), 3);
        let m = json!({"z": 1, "a": 2, "m": 3, "aa": 4});
        let keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "aa", "m", "z"]);
        // A nested object's keys on one side only, and on both, each once.
        let got = run(
            json!({"o": {"a": 1, "c": 3}}),
            json!({"o": {"b": 2, "c": 4}}),
            json!({}),
            json!({}),
            json!({}),
        );
        let paths: Vec<&str> = got.iter().map(|(p, _, _)| p.as_str()).collect();
        assert_eq!(paths, ["o.a", "o.b", "o.c"]);
    }

    #[test]
    fn leaf_changes_unknowns_and_secrets() {
        let got = run(
            json!({"a": 1, "b": {"c": "x", "d": "same"}, "id": "i-1", "pw": "old", "l": [1, 2]}),
            json!({"a": 2, "b": {"c": "y", "d": "same"}, "id": null, "pw": "new", "l": [1, 2, 3]}),
            json!({"id": true}),
            json!({"pw": true}),
            json!({"pw": true}),
        );
        assert_eq!(
            got,
            vec![
                ("a".into(), Shown::Known(json!(1)), Shown::Known(json!(2))),
                (
                    "b.c".into(),
                    Shown::Known(json!("x")),
                    Shown::Known(json!("y"))
                ),
                ("id".into(), Shown::Known(json!("i-1")), Shown::Unknown),
                (
                    "l".into(),
                    Shown::Known(json!([1, 2])),
                    Shown::Known(json!([1, 2, 3]))
                ),
                ("pw".into(), Shown::Sensitive, Shown::Sensitive),
            ]
        );
    }

    #[test]
    fn sensitive_subtree_is_not_descended_and_equal_secrets_are_no_change() {
        let got = run(
            json!({"tags": {"k": "SECRET1"}, "same": "S"}),
            json!({"tags": {"k": "SECRET2", "n": "SECRET3"}, "same": "S"}),
            json!({}),
            json!({"tags": true, "same": true}),
            json!({"tags": true, "same": true}),
        );
        assert_eq!(
            got,
            vec![("tags".into(), Shown::Sensitive, Shown::Sensitive)]
        );
    }

    #[test]
    fn nested_secret_in_a_list_that_changes_length_hides_the_whole_side() {
        let got = run(
            json!({"l": [{"p": "SECRET"}]}),
            json!({"l": [{"p": "SECRET"}, {"p": "x"}]}),
            json!({}),
            json!({"l": [{"p": true}]}),
            json!({"l": [{"p": true}, {}]}),
        );
        assert_eq!(got, vec![("l".into(), Shown::Sensitive, Shown::Sensitive)]);
    }

    #[test]
    fn long_strings_are_shortened() {
        let long = "x".repeat(500);
        let got = run(
            json!({"s": "a"}),
            json!({"s": long}),
            json!({}),
            json!({}),
            json!({}),
        );
        let Shown::Known(Value::String(s)) = &got[0].2 else {
            panic!("not a string: {got:?}")
        };
        assert_eq!(s.chars().count(), Shown::MAX_STRING + 1);
        assert!(s.ends_with('…'));
    }

    #[test]
    fn fingerprint_is_set_exactly_when_a_side_is_hidden_or_shortened() {
        let long = "x".repeat(Shown::MAX_STRING + 1);
        let exact = "y".repeat(Shown::MAX_STRING);
        let b = json!({"pw": "old", "plain": 1, "long": "a", "exact": "a", "new": null,
                       "nested": {"k": [long.clone()]}, "unk": "u"});
        let a = json!({"pw": "new", "plain": 2, "long": long, "exact": exact, "new": "s",
                       "nested": {"k": ["z"]}, "unk": null});
        let got = changed(&Sides {
            before: Some(&b),
            after: Some(&a),
            after_unknown: Mask::of(Some(&json!({"unk": true}))),
            before_sensitive: Mask::of(Some(&json!({"pw": true}))),
            after_sensitive: Mask::of(Some(&json!({"pw": true, "new": true}))),
        });
        let hidden: Vec<(String, bool)> = got
            .iter()
            .map(|c| (c.path.to_string(), c.hidden.is_some()))
            .collect();
        assert_eq!(
            hidden,
            vec![
                ("exact".into(), false),
                ("long".into(), true),
                ("nested.k[0]".into(), true),
                ("new".into(), true),
                ("plain".into(), false),
                ("pw".into(), true),
                ("unk".into(), false),
            ]
        );
        // The fingerprint covers the raw values: another secret gives another fingerprint, the
        // same one the same.
        let fp = |after: &str| {
            let b = json!({"pw": "old"});
            let a = json!({"pw": after});
            let mask = json!({"pw": true});
            changed(&Sides {
                before: Some(&b),
                after: Some(&a),
                after_unknown: Mask::of(None),
                before_sensitive: Mask::of(Some(&mask)),
                after_sensitive: Mask::of(Some(&mask)),
            })
            .remove(0)
            .hidden
        };
        assert_eq!(fp("new"), fp("new"));
        assert_ne!(fp("new"), fp("other"));
        assert!(fp("new").is_some());
    }

    /// [`changed_lazy`] over the raw top-level attributes of `b` and `a`.
    fn lazy(b: &Value, a: &Value, u: &Value, bs: &Value, as_: &Value) -> Vec<AttrChange> {
        let (b, a) = (b.to_string(), a.to_string());
        let m = |v| Mask::of(Some(v));
        let raw = |t| crate::parse::raw_object(t).unwrap();
        changed_lazy(&raw(&b), &raw(&a), m(u), m(bs), m(as_)).unwrap()
    }

    #[test]
    fn lazy_diff_is_the_diff() {
        let long = "x".repeat(Shown::MAX_STRING + 1);
        let cases = [
            // Equal bytes, but something under them is unknown: still a change.
            (
                json!({"a": {}, "b": [1], "c": "same"}),
                json!({"a": {}, "b": [1], "c": "same"}),
                json!({"a": {"x": true}, "b": [true], "c": false}),
                json!({}),
                json!({}),
            ),
            // Equal secrets are no change; changed ones are, hidden; nested partial masks.
            (
                json!({"pw": "s", "pw2": "old", "t": {"k": "S1", "n": 1}, "l": [1, {"p": "q"}]}),
                json!({"pw": "s", "pw2": "new", "t": {"k": "S2", "n": 1}, "l": [1, {"p": "r"}]}),
                json!({}),
                json!({"pw": true, "pw2": true, "t": {"k": true}, "l": [false, {"p": true}]}),
                json!({"pw": true, "pw2": true, "t": {"k": true}, "l": [false, {"p": true}]}),
            ),
            // Different bytes, equal values; null against missing; added and removed keys;
            // escaped keys; long strings (shortened, fingerprinted).
            (
                json!({"n": 1.0, "z": null, "gone": 1, "k\"q": "a", "s": "a"}),
                json!({"n": 1.0, "y": null, "new": [1, 2], "k\"q": "b", "s": long}),
                json!({"new": [false, true]}),
                json!({}),
                json!({"gone": true}),
            ),
        ];
        for (b, a, u, bs, as_) in &cases {
            let whole = changed(&Sides {
                before: Some(b),
                after: Some(a),
                after_unknown: Mask::of(Some(u)),
                before_sensitive: Mask::of(Some(bs)),
                after_sensitive: Mask::of(Some(as_)),
            });
            assert!(!whole.is_empty());
            assert_eq!(lazy(b, a, u, bs, as_), whole, "{b} -> {a}");
        }
        // Different bytes for equal numbers: parsed and compared as values.
        let got = lazy(
            &serde_json::from_str(r#"{"n": 10}"#).unwrap(),
            &serde_json::from_str(r#"{"n": 1e1}"#).unwrap(),
            &json!({}),
            &json!({}),
            &json!({}),
        );
        let (b, a) = (r#"{"n":10,"m":1.0}"#, r#"{"n":10,"m":1.00}"#);
        let raw = |t| crate::parse::raw_object(t).unwrap();
        let (bm, am) = (raw(b), raw(a));
        let none = changed_lazy(&bm, &am, Mask::Clear, Mask::Clear, Mask::Clear).unwrap();
        assert!(none.is_empty());
        assert_eq!(got.len(), 1);
    }

    #[test]
    fn absent_masks_and_null_versus_missing() {
        let b = json!({"a": null});
        let a = json!({"b": null});
        let got = changed(&Sides {
            before: Some(&b),
            after: Some(&a),
            after_unknown: Mask::of(None),
            before_sensitive: Mask::of(None),
            after_sensitive: Mask::of(None),
        });
        assert!(got.is_empty());
    }
}

/// The edges of the diff the tests above leave open: what a mask says about the parts of the
/// value it covers (the walk never descends into a wholly marked value, it decides at the top,
/// so these are the only tests that reach the descent from `Mask::All`), marks other than
/// `true`, a partly sensitive and partly unknown `after`, long strings inside values compared
/// whole, and attribute names that are not strings.
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod edges {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_part_of_a_wholly_marked_value_is_marked() {
        assert!(matches!(Mask::All.key("password"), Mask::All));
        assert!(matches!(Mask::All.index(3), Mask::All));
        assert!(matches!(Mask::All.key("password").index(0), Mask::All));
    }

    #[test]
    fn a_partial_mask_marks_what_it_names_and_nothing_else() {
        let object = json!({"pw": true, "tags": {"k": true}, "off": false});
        let part = Mask::of(Some(&object));
        assert!(matches!(part.key("pw"), Mask::All));
        assert!(matches!(part.key("tags"), Mask::Part(_)));
        assert!(matches!(part.key("tags").key("k"), Mask::All));
        assert!(matches!(part.key("off"), Mask::Clear));
        assert!(matches!(part.key("name"), Mask::Clear));
        assert!(
            matches!(part.index(0), Mask::Clear),
            "an object has no index"
        );
        let list = json!([false, true]);
        let part = Mask::of(Some(&list));
        assert!(matches!(part.index(0), Mask::Clear));
        assert!(matches!(part.index(1), Mask::All));
        assert!(matches!(part.index(2), Mask::Clear));
        assert!(matches!(part.key("0"), Mask::Clear), "a list has no key");
        assert!(matches!(Mask::Clear.key("pw"), Mask::Clear));
        assert!(matches!(Mask::Clear.index(0), Mask::Clear));
    }

    fn one(b: Value, a: Value, u: Value, bs: Value, as_: Value) -> (Shown, Shown) {
        let got = changed(&Sides {
            before: Some(&b),
            after: Some(&a),
            after_unknown: Mask::of(Some(&u)),
            before_sensitive: Mask::of(Some(&bs)),
            after_sensitive: Mask::of(Some(&as_)),
        });
        assert_eq!(got.len(), 1, "{got:?}");
        (got[0].before.clone(), got[0].after.clone())
    }

    /// A list that changes length and an object that goes away are compared whole, under a
    /// mask of `false`s and `null`s: nothing in them is marked, so both sides are shown.
    #[test]
    fn marks_of_false_and_null_hide_nothing() {
        // A list that grows from [1] to [1, 2], both sides under `mask`.
        let grown_under = |mask: &Value| {
            let masks = json!({"l": mask});
            one(
                json!({"l": [1]}),
                json!({"l": [1, 2]}),
                json!({}),
                masks.clone(),
                masks,
            )
        };
        let shown = (Shown::Known(json!([1])), Shown::Known(json!([1, 2])));
        for mask in [json!([false]), json!([null]), json!([[false], {"k": null}])] {
            let got = grown_under(&mask);
            assert_eq!(got, shown, "{mask}");
        }
        let got = one(
            json!({"tags": {"k": "a"}}),
            json!({}),
            json!({}),
            json!({"tags": {"k": false}}),
            json!({}),
        );
        assert_eq!(got, (Shown::Known(json!({"k": "a"})), Shown::Absent));
        // The same shapes with a `true` (or any other mark) somewhere in them hide the side.
        for mask in [json!([true]), json!([false, {"k": "yes"}]), json!({"k": 1})] {
            let got = grown_under(&mask);
            assert_eq!(got, (Shown::Sensitive, Shown::Sensitive), "{mask}");
        }
    }

    /// An `after` that is partly sensitive and partly unknown is shown as sensitive, not as
    /// unknown: the known part of it is secret.
    #[test]
    fn a_partly_sensitive_partly_unknown_after_is_sensitive() {
        let got = one(
            json!({"l": [1]}),
            json!({"l": [{"p": "SECRET"}, null]}),
            json!({"l": [false, true]}),
            json!({}),
            json!({"l": [{"p": true}]}),
        );
        assert_eq!(got, (Shown::Known(json!([1])), Shown::Sensitive));
        // Wholly unknown (null after) with a partial mark: unknown, there is nothing to hide.
        let got = one(
            json!({"l": [1]}),
            json!({}),
            json!({"l": true}),
            json!({}),
            json!({"l": [true]}),
        );
        assert_eq!(got, (Shown::Known(json!([1])), Shown::Unknown));
    }

    fn hidden(b: Value, a: Value) -> bool {
        let got = changed(&Sides {
            before: Some(&b),
            after: Some(&a),
            after_unknown: Mask::Clear,
            before_sensitive: Mask::Clear,
            after_sensitive: Mask::Clear,
        });
        assert_eq!(got.len(), 1, "{got:?}");
        got[0].hidden.is_some()
    }

    /// A side shown shortened is fingerprinted wherever its long string is: in a list or an
    /// object compared whole as well as at a leaf. Length is counted in characters, not bytes.
    #[test]
    fn a_long_string_inside_a_value_compared_whole_is_fingerprinted() {
        let long = "x".repeat(Shown::MAX_STRING + 1);
        assert!(hidden(json!({"l": [long]}), json!({"l": ["a", "b"]})));
        assert!(hidden(json!({"l": ["a"]}), json!({"l": [{"k": long}, 1]})));
        assert!(hidden(json!({"o": {"s": long}}), json!({})));
        assert!(hidden(json!({}), json!({"o": {"s": long}})));
        assert!(!hidden(json!({"l": ["a"]}), json!({"l": ["a", "b"]})));
        // 200 two-byte characters: 400 bytes, but not longer than the limit.
        let wide = "é".repeat(Shown::MAX_STRING);
        assert!(wide.len() > Shown::MAX_STRING);
        assert!(!hidden(json!({"s": "a"}), json!({"s": wide})));
        assert!(!hidden(json!({"l": [1]}), json!({"l": [wide, 2]})));
        let wider = "é".repeat(Shown::MAX_STRING + 1);
        assert!(hidden(json!({"s": "a"}), json!({"s": wider})));
    }

    /// JSON object keys are always strings; anything else read as an attribute name is refused
    /// with what was expected.
    #[test]
    fn an_attribute_name_must_be_a_string() {
        let e = serde_json::from_str::<RawKey>("1").unwrap_err().to_string();
        assert!(e.contains("expected an attribute name"), "{e}");
        let k: RawKey = serde_json::from_str(r#""a\"b""#).unwrap();
        assert_eq!(k.as_str(), "a\"b");
        let k: RawKey = serde_json::from_str(r#""plain""#).unwrap();
        assert!(matches!(k.0, Cow::Borrowed("plain")));
    }

    /// One side wholly sensitive is enough to compare the two whole, at the top: the other
    /// side's shape does not show which attributes of the secret one changed.
    #[test]
    fn one_wholly_sensitive_side_is_compared_whole() {
        let (b, a) = (json!({"a": 1, "b": 2}), json!({"a": 1, "b": 3, "c": 4}));
        for (bs, as_) in [(json!({}), json!(true)), (json!(true), json!({}))] {
            let got = changed(&Sides {
                before: Some(&b),
                after: Some(&a),
                after_unknown: Mask::Clear,
                before_sensitive: Mask::of(Some(&bs)),
                after_sensitive: Mask::of(Some(&as_)),
            });
            let paths: Vec<String> = got.iter().map(|c| c.path.to_string()).collect();
            assert_eq!(paths, [""], "{bs} {as_}: {got:?}");
            assert!(got[0].hidden.is_some());
        }
    }
}
