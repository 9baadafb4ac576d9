//! One pass over a value no rule reads: is it JSON as serde_json accepts it, nested no deeper
//! than the walk allows, with no key twice in one object? [`value`] answers in one scan of its
//! bytes, where the reader used to let serde_json skip the value (checking its syntax) and then
//! scan the same bytes again for a repeated key ([`super::first_repeat`]): every skipped byte
//! was passed over twice (issue 35, item 1).
//!
//! It only ever says "yes, and it ends here": for anything else (not JSON, a repeated key, too
//! deep, cut by the end of the slice, a key holding an escape) it says nothing, and the caller
//! takes the way it always took (serde_json, then [`super::first_repeat`]), which words the
//! error exactly as before. So the scanner never has to produce an error, and a value it is
//! unsure of costs a second try, never a different verdict: what it accepts, serde_json's
//! `IgnoredAny` accepts with the same length, and [`super::first_repeat`] finds no repeated key
//! in (the property test below and the `skip_value` fuzz target hold it to that).
//!
//! Why not a crate: the ecosystem's fast JSON scanners (simd-json, sonic-rs) build a tape or a
//! document, or skip without checking keys; none both validates as serde_json does and
//! compares the keys of each object, which is what the reader needs from one pass. serde_json
//! itself can skip a value only by parsing it, and says nothing of repeated keys.

use super::{short_tag, tag, LINEAR};
use serde::de::IgnoredAny;
use std::cell::RefCell;
use std::collections::HashSet;

/// The length of the JSON value at the start of `json` (an object, an array or a string; no
/// whitespace before it), when it is one serde_json accepts as it skips a value (`IgnoredAny`),
/// nests at most `levels` arrays and objects deep, holds no object with a key twice, and ends
/// within `json`. `None` otherwise, or when unsure (a key holding an escape: its decoded text
/// would be needed). `json` is valid UTF-8 (the walk's checked buffer, or a `str`): only the
/// JSON grammar is checked here.
pub(crate) fn value(json: &[u8], levels: u32) -> Option<usize> {
    with_scratch(|s| scan::<false>(json, levels, s))
}

/// `f` with this thread's scratch lists, kept from one call to the next as first_repeat's
/// lists are: most skipped values are small, and fresh lists for each would cost as much as
/// the scan.
#[inline]
fn with_scratch<T>(f: impl Fn(&mut Scratch) -> T) -> T {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::default();
    }
    SCRATCH
        .try_with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => f(&mut scratch),
            Err(_) => f(&mut Scratch::default()),
        })
        .unwrap_or_else(|_| f(&mut Scratch::default()))
}

/// A top-level member of an object [`members`] checked: the spans of its key's text (between
/// the quotes, without escapes) and of its value, in the object's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) key: (u32, u32),
    pub(crate) value: (u32, u32),
}

/// [`value`] for the value at the start of `json`, and when it is an object, its top-level
/// members in their order (what serde_json would read again of it as a map of raw values;
/// the keys hold no escape, [`value`] refuses those). `None` as [`value`] says it, or when a
/// span does not fit a `u32`.
pub(crate) fn members(json: &[u8], levels: u32) -> Option<(usize, Option<Box<[Member]>>)> {
    with_scratch(|s| {
        if json.first() != Some(&b'{') {
            return Some((scan::<false>(json, levels, s)?, None));
        }
        let len = scan::<true>(json, levels, s)?;
        let mut members = Vec::with_capacity(s.members.len());
        for &(k0, k1, v0, v1) in &s.members {
            members.push(Member {
                key: (u32::try_from(k0).ok()?, u32::try_from(k1).ok()?),
                value: (u32::try_from(v0).ok()?, u32::try_from(v1).ok()?),
            });
        }
        Some((len, Some(members.into_boxed_slice())))
    })
}

/// The open arrays and objects, and the keys of each open object so far.
#[derive(Default)]
struct Scratch {
    /// The open containers around the innermost one (which [`scan`] keeps in a local).
    open: Vec<Open>,
    /// The key sets of the open objects that have many keys, innermost last.
    sets: Vec<HashSet<Vec<u8>>>,
    /// A key of an open object with few keys: its tag, and its text's span in the input.
    keys: Vec<(u64, usize, usize)>,
    /// The top-level object's members so far, when [`scan`] records them: its key's span, its
    /// value's span (the value's end set when the member ends).
    members: Vec<(usize, usize, usize, usize)>,
}

/// An open array or object.
#[derive(Clone, Copy)]
struct Open {
    /// An object (else an array).
    object: bool,
    /// Its keys are in the last of [`Scratch::sets`], not in [`Scratch::keys`].
    many: bool,
    /// Where its keys start in [`Scratch::keys`].
    from: usize,
    /// One bit for each of its keys, picked by the key's tag: a key whose bit is clear is not
    /// in the object yet, so most keys are compared with none of the others.
    seen: u64,
}

/// Steps over JSON whitespace.
#[inline]
fn ws(json: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = json.get(i) {
        i += 1;
    }
    i
}

/// [`value`]'s scan; with `RECORD`, the top-level object's members go to
/// [`Scratch::members`] (a separate copy of the scan: the other has no such step at all).
fn scan<const RECORD: bool>(json: &[u8], levels: u32, s: &mut Scratch) -> Option<usize> {
    s.open.clear();
    s.sets.clear();
    s.keys.clear();
    s.members.clear();
    if !matches!(json.first(), Some(b'{' | b'[' | b'"')) {
        return None;
    }
    let levels = levels as usize;
    // The innermost open container, and how many are open (`cur` means nothing at 0).
    let mut cur = Open {
        object: false,
        many: false,
        from: 0,
        seen: 0,
    };
    let mut depth = 0usize;
    let mut i = 0usize;
    loop {
        // A value starts at `i`, or whitespace before it.
        match *json.get(i)? {
            b'"' => i = string(json, i + 1)?.0 + 1,
            b' ' | b'\n' | b'\r' | b'\t' => {
                i = ws(json, i);
                continue;
            }
            open @ (b'{' | b'[') => {
                if depth >= levels {
                    return None;
                }
                i = ws(json, i + 1);
                // `}` and `]` are two after `{` and `[`.
                if *json.get(i)? == open + 2 {
                    i += 1;
                } else {
                    if depth > 0 {
                        s.open.push(cur);
                    }
                    depth += 1;
                    cur = Open {
                        object: open == b'{',
                        many: false,
                        from: s.keys.len(),
                        seen: 0,
                    };
                    if cur.object {
                        i = key::<RECORD>(json, i, s, &mut cur, depth)?;
                    }
                    continue;
                }
            }
            b't' => i = literal(json, i, b"true")?,
            b'f' => i = literal(json, i, b"false")?,
            b'n' => i = literal(json, i, b"null")?,
            b'-' | b'0'..=b'9' => i = number(json, i)?,
            _ => return None,
        }
        // After a value: a comma and the next, or the end of containers.
        loop {
            if depth == 0 {
                return Some(i);
            }
            let end = i;
            let mut next = *json.get(i)?;
            if matches!(next, b' ' | b'\n' | b'\r' | b'\t') {
                i = ws(json, i);
                next = *json.get(i)?;
            }
            match (next, cur.object) {
                (b',', false) => {
                    i += 1;
                    break;
                }
                (b',', true) => {
                    member_ends::<RECORD>(s, depth, end);
                    i = key::<RECORD>(json, ws(json, i + 1), s, &mut cur, depth)?;
                    break;
                }
                (b']', false) => {}
                (b'}', true) => {
                    member_ends::<RECORD>(s, depth, end);
                    if cur.many {
                        s.sets.pop();
                    }
                    s.keys.truncate(cur.from);
                }
                _ => return None,
            }
            i += 1;
            depth -= 1;
            if depth > 0 {
                cur = s.open.pop()?;
            }
        }
    }
}

/// The member of the top-level object being read ends at `end` (the value's last byte and
/// one), when the top-level object's members are recorded and `depth` is its.
#[inline]
fn member_ends<const RECORD: bool>(s: &mut Scratch, depth: usize, end: usize) {
    if RECORD && depth == 1 {
        if let Some(m) = s.members.last_mut() {
            m.3 = end;
        }
    }
}

/// The key at `i` of the innermost open object `cur` (`depth` deep) and its `:`: where its
/// value starts, or whitespace before it (none before a top-level member's value, whose span
/// is recorded). `None` when it is not a plain string, or the object already holds it.
#[inline(always)]
fn key<const RECORD: bool>(
    json: &[u8],
    i: usize,
    s: &mut Scratch,
    cur: &mut Open,
    depth: usize,
) -> Option<usize> {
    if json.get(i) != Some(&b'"') {
        return None;
    }
    let (end, t) = match plain_key(json, i + 1) {
        Some(found) => found,
        None => escaped_or_near_end(json, i + 1)?,
    };
    if cur.many {
        let set = s.sets.last_mut()?;
        if !set.insert(json.get(i + 1..end)?.to_vec()) {
            return None;
        }
    } else {
        // Fibonacci hashing: the tag's top six bits, mixed, pick the key's bit.
        let bit = 1u64 << (t.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58);
        if cur.seen & bit != 0 && repeats(json, &s.keys[cur.from..], t, i + 1, end) {
            return None;
        }
        cur.seen |= bit;
        if s.keys.len() - cur.from < LINEAR {
            s.keys.push((t, i + 1, end));
        } else {
            many_keys(json, s, cur, i + 1, end);
        }
    }
    let mut colon = end + 1;
    if json.get(colon) != Some(&b':') {
        colon = ws(json, colon);
        if json.get(colon) != Some(&b':') {
            return None;
        }
    }
    // The value after it, or whitespace before the value (which the scan steps over).
    if RECORD && depth == 1 {
        let at = ws(json, colon + 1);
        s.members.push((i + 1, end, at, at));
        return Some(at);
    }
    Some(colon + 1)
}

/// A key [`plain_key`] did not find: its closing quote and [`tag`] when it is a plain string
/// after all (its quote near the slice's end); `None` when it holds an escape (its decoded
/// text would be compared: left to the careful way) or is no string.
#[cold]
#[inline(never)]
fn escaped_or_near_end(json: &[u8], from: usize) -> Option<(usize, u64)> {
    let (end, escaped) = string(json, from)?;
    if escaped {
        return None;
    }
    Some((end, tag(json.get(from..end)?)))
}

/// Whether one of `keys` (an object's so far) has the tag `t` and the text at `a..b`.
#[cold]
#[inline(never)]
fn repeats(json: &[u8], keys: &[(u64, usize, usize)], t: u64, a: usize, b: usize) -> bool {
    let Some(text) = json.get(a..b) else {
        return true;
    };
    keys.iter()
        .any(|&(other, x, y)| other == t && json.get(x..y) == Some(text))
}

/// The object `cur` has many keys: they go into a set of their texts, with the one at `a..b`,
/// and are compared by hash from here on.
#[cold]
#[inline(never)]
fn many_keys(json: &[u8], s: &mut Scratch, cur: &mut Open, a: usize, b: usize) {
    let mut set: HashSet<Vec<u8>> = s.keys[cur.from..]
        .iter()
        .map(|&(_, x, y)| json[x..y].to_vec())
        .collect();
    set.insert(json[a..b].to_vec());
    s.keys.truncate(cur.from);
    s.sets.push(set);
    cur.many = true;
}

const ONES: u64 = u64::MAX / 255;

/// The high bit of each byte of `w` (eight bytes of a string, first byte lowest) that ends or
/// interrupts a plain string: a quote, a backslash or a control character. Only the lowest is
/// exact (a borrow can mark a byte above it).
#[inline]
fn stops(w: u64) -> u64 {
    let ctrl = w.wrapping_sub(ONES * 0x20) & !w;
    let q = w ^ (ONES * u64::from(b'"'));
    let quote = q.wrapping_sub(ONES) & !q;
    let b = w ^ (ONES * u64::from(b'\\'));
    let backslash = b.wrapping_sub(ONES) & !b;
    (ctrl | quote | backslash) & (ONES << 7)
}

/// The bits of the sixteen bytes `b` (first byte lowest) that end or interrupt a plain string:
/// a quote, a backslash or a control character; exact, unlike [`stops`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn stops16(b: [u8; 16]) -> u32 {
    use safe_arch::{
        cmp_eq_mask_i8_m128i, m128i, min_u8_m128i, move_mask_i8_m128i, set_splat_i8_m128i,
    };
    let v = m128i::from(b);
    let quote = cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b'"' as i8));
    let backslash = cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b'\\' as i8));
    // A byte is at most 0x1f when the smaller of it and 0x1f is itself.
    let ctrl = cmp_eq_mask_i8_m128i(min_u8_m128i(v, set_splat_i8_m128i(0x1f)), v);
    move_mask_i8_m128i(quote | backslash | ctrl) as u32
}

/// From `from`, sixteen bytes at a time where SSE2 is there, then eight: where the first
/// quote, backslash or control character is, or where fewer than eight bytes are left (the
/// caller reads those one by one).
#[inline(always)]
fn to_stop(json: &[u8], mut from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    while let Some(chunk) = json.get(from..).and_then(|r| r.first_chunk::<16>()) {
        let hits = stops16(*chunk);
        if hits != 0 {
            return from + hits.trailing_zeros() as usize;
        }
        from += 16;
    }
    while let Some(word) = json.get(from..from + 8) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(word);
        // Only the lowest hit is exact: it is the one taken.
        let hits = stops(u64::from_le_bytes(bytes));
        if hits != 0 {
            return from + (hits.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    from
}

/// The closing quote of the plain string whose text starts at `from` (no escape and no control
/// character before it); `None` for any other string, or when the slice ends first.
#[inline]
pub(crate) fn plain_end(json: &[u8], from: usize) -> Option<usize> {
    let mut at = to_stop(json, from);
    loop {
        match *json.get(at)? {
            b'"' => return Some(at),
            b'\\' | 0..=0x1f => return None,
            _ => at += 1,
        }
    }
}

/// The closing quote of the key whose text starts at `from` and its [`tag`], read eight
/// bytes at a time, when the text holds no escape or control character and its quote is at
/// least eight bytes before the slice's end; `None` otherwise (the careful way decides). Most
/// keys are found in one or two words, with their tag from the words already read (which is
/// why it does not go through [`to_stop`]).
#[inline(always)]
fn plain_key(json: &[u8], from: usize) -> Option<(usize, u64)> {
    let mut at = from;
    loop {
        let w = u64::from_le_bytes(*json.get(at..)?.first_chunk::<8>()?);
        let hits = stops(w);
        if hits == 0 {
            at += 8;
            continue;
        }
        let end = at + (hits.trailing_zeros() / 8) as usize;
        if *json.get(end)? != b'"' {
            return None;
        }
        let n = end - from;
        if n < 8 {
            // The first word holds the whole text, and bytes after it.
            return Some((end, short_tag(w & ((1u64 << (8 * n)) - 1), n)));
        }
        return Some((end, tag(json.get(from..end)?)));
    }
}

/// The closing quote of the string whose text starts at `from`, and whether it holds an
/// escape, when every byte of it is allowed (no control character) and every escape is one
/// serde_json accepts (`\uXXXX` with four hex digits, a lone surrogate included, as it skips a
/// string).
#[inline(always)]
fn string(json: &[u8], mut from: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        from = to_stop(json, from);
        // The byte found, or the last few bytes.
        loop {
            match *json.get(from)? {
                b'"' => return Some((from, escaped)),
                b'\\' => break,
                0..=0x1f => return None,
                _ => from += 1,
            }
        }
        // An escape.
        escaped = true;
        match *json.get(from + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => from += 2,
            b'u' => {
                let hex = json.get(from + 2..from + 6)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                from += 6;
            }
            _ => return None,
        }
    }
}

/// The length of the number or literal (`true`, `false`, `null`) at the start of `json`, as
/// serde_json skips it ([`number`], [`literal`]); `None` for anything else, or when the slice
/// ends in it (a number may go on). What follows it is the caller's to check: serde_json's
/// skip of a value in a stream refuses a letter or a digit right after it, which no caller
/// accepts there either (each wants whitespace, a comma or a closing bracket).
pub(crate) fn scalar(json: &[u8]) -> Option<usize> {
    match json.first()? {
        b't' => literal(json, 0, b"true"),
        b'f' => literal(json, 0, b"false"),
        b'n' => literal(json, 0, b"null"),
        b'-' | b'0'..=b'9' => number(json, 0),
        _ => None,
    }
}

/// The end of `word` (`true`, `false`, `null`) at `i`.
fn literal(json: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    (json.get(i..i + word.len())? == word).then_some(i + word.len())
}

/// The end of the number at `i`: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as
/// serde_json skips it (its value is not computed, so no magnitude is refused). `None` when
/// the slice ends in it (it may go on).
fn number(json: &[u8], mut i: usize) -> Option<usize> {
    let digits = |json: &[u8], mut i: usize| -> Option<(usize, usize)> {
        let from = i;
        while json.get(i)?.is_ascii_digit() {
            i += 1;
        }
        Some((i, i - from))
    };
    if json[i] == b'-' {
        i += 1;
    }
    match *json.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => i = digits(json, i)?.0,
        _ => return None,
    }
    if *json.get(i)? == b'.' {
        let (end, n) = digits(json, i + 1)?;
        if n == 0 {
            return None;
        }
        i = end;
    }
    if matches!(*json.get(i)?, b'e' | b'E') {
        i += 1;
        if matches!(*json.get(i)?, b'+' | b'-') {
            i += 1;
        }
        let (end, n) = digits(json, i)?;
        if n == 0 {
            return None;
        }
        i = end;
    }
    // A digit right after a leading 0 is refused (`01`) by what follows a value.
    Some(i)
}

/// What the reader did before: serde_json skips the value (its length, in a stream as the
/// walk reads), then the byte scan looks for a repeated key in it; nested at most `levels`.
fn reference(text: &str, levels: u32) -> Option<usize> {
    if !matches!(text.as_bytes().first(), Some(b'{' | b'[' | b'"')) {
        return None;
    }
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<IgnoredAny>();
    let Some(Ok(_)) = stream.next() else {
        return None;
    };
    let len = stream.byte_offset();
    let bytes = &text.as_bytes()[..len];
    if super::first_repeat(bytes).is_some() || deepest(bytes) > levels as usize {
        return None;
    }
    Some(len)
}

/// The deepest nesting of arrays and objects in valid JSON.
fn deepest(json: &[u8]) -> usize {
    let (mut depth, mut most, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for &b in json {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => {
                depth += 1;
                most = most.max(depth);
            }
            b'}' | b']' => depth -= 1,
            _ => {}
        }
    }
    most
}

/// Whether a key of valid JSON holds an escape.
fn escaped_key(json: &[u8]) -> bool {
    let (mut in_str, mut esc, mut escaped) = (false, false, false);
    for (i, &b) in json.iter().enumerate() {
        if !in_str {
            if b == b'"' {
                (in_str, escaped) = (true, false);
            }
            continue;
        }
        match (esc, b) {
            (true, _) => esc = false,
            (false, b'\\') => (esc, escaped) = (true, true),
            (false, b'"') => {
                in_str = false;
                let next = json[i + 1..].iter().find(|b| !b.is_ascii_whitespace());
                if escaped && next == Some(&b':') {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The oracle for tests and the `skip_value` fuzz target: whatever [`value`] accepts, serde_json
/// skips with the same length (in a stream, as the walk reads) and [`super::first_repeat`] finds
/// no repeated key in, nested at most `levels` deep; and a value they accept whose keys hold no
/// escape, [`value`] accepts too (so that the reader takes the one pass). `Err` says which part
/// broke.
pub(crate) fn agrees_with_serde(text: &str, levels: u32) -> Result<(), String> {
    let got = value(text.as_bytes(), levels);
    let want = reference(text, levels);
    if got.is_some() && got != want {
        return Err(format!("{text:?}: scanned {got:?}, serde_json {want:?}"));
    }
    if want.is_some_and(|len| !escaped_key(&text.as_bytes()[..len])) && got != want {
        return Err(format!("{text:?}: refused, serde_json skips {want:?}"));
    }
    members_agree_with_serde(text, levels)
}

/// Whatever [`members`] accepts, [`value`] accepts with the same length; and the members it
/// hands over of an object are the keys and raw value texts serde_json reads of the same bytes
/// as a map of raw values (the reader's way before, [`crate::parse::reduce`]'s fallback).
/// `Err` says what differs.
pub(crate) fn members_agree_with_serde(text: &str, levels: u32) -> Result<(), String> {
    let got = members(text.as_bytes(), levels);
    let len = value(text.as_bytes(), levels);
    if got.as_ref().map(|g| g.0) != len {
        return Err(format!("{text:?}: members {got:?}, value {len:?}"));
    }
    let Some((len, members)) = got else {
        return Ok(());
    };
    let object = text.starts_with('{');
    let Some(members) = members else {
        if object {
            return Err(format!("{text:?}: an object without members"));
        }
        return Ok(());
    };
    if !object {
        return Err(format!("{text:?}: members of a value that is no object"));
    }
    let side = &text[..len];
    let span = |(a, b): (u32, u32)| side.get(a as usize..b as usize);
    let mut spans = members
        .iter()
        .map(|m| Some((span(m.key)?, span(m.value)?)))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| format!("{text:?}: a span out of the value: {members:?}"))?;
    spans.sort_unstable();
    let read = crate::parse::raw_object(side).map_err(|e| format!("{text:?}: serde_json: {e}"))?;
    let want: Vec<(&str, &str)> = read.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    if spans != want {
        return Err(format!("{text:?}: members {spans:?}, serde_json {want:?}"));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn it_accepts_what_serde_json_skips_and_nothing_else() {
        for text in [
            r#"{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 1}]} trailing"#,
            r#"{"a": 1, "a": 2}"#,
            r#"[1, {"x": "a\"", "y": {"z": 1, "z": 2}}]"#,
            r#"{"a": 1, "\u0061": 2}"#,
            r#"{"k": "{\"a\": 1, \"a\": 2}"}"#,
            r#""{\"a\": 1, \"a\": 2}""#,
            r#"[01]"#,
            r#"[-0.5e+10, 1E3, -0, 0.0]"#,
            r#"[1.]"#,
            r#"[1e]"#,
            r#"[-]"#,
            r#"[1,]"#,
            r#"{"a":1,}"#,
            r#"[tru]"#,
            r#"[true,false,null]"#,
            "[\"a\tb\"]",
            r#"["\x"]"#,
            r#"["\u12G4"]"#,
            r#"["\ud800"]"#,
            r#"{"a" 1}"#,
            r#"{1: 2}"#,
            r#"[1 2]"#,
            r#"[1}"#,
            r#"{"a":1]"#,
            r#"[[[[]]]]"#,
            "[1, 2",
            "\"abc",
            "{}",
            "[]",
            " []",
            "1",
            "[1e400]",
        ] {
            agrees_with_serde(text, 128).unwrap();
        }
        assert_eq!(value(b"[[[[]]]]", 4), Some(8));
        assert_eq!(value(b"[[[[]]]]", 3), None);
        assert_eq!(value(br#"{"a": [1, {"b": "c"}]}, 3"#, 128), Some(22));
        assert_eq!(value(br#"{"a": 1, "a": 2}"#, 128), None);
        // Many keys: kept in a set past the first few.
        let many: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
        let all = format!("{{{}}}", many.join(", "));
        assert_eq!(value(all.as_bytes(), 128), Some(all.len()));
        let again = format!("{{{}, \"k57\": 0}}", many.join(", "));
        assert_eq!(value(again.as_bytes(), 128), None);
    }

    /// A number or literal is skipped as serde_json skips it in a stream (followed by a comma
    /// or a bracket, as in an object), and refused, by itself or by what its caller accepts
    /// after it, where serde_json refuses it.
    #[test]
    fn a_scalar_is_skipped_as_serde_json_skips_it() {
        for text in [
            "0",
            "-0",
            "12",
            "-1.5e+3",
            "1E9",
            "0.0",
            "1e999",
            "123456789012345678901234567890",
            "true",
            "false",
            "null",
            "01",
            "-",
            "1.",
            "1e",
            "1e+",
            ".5",
            "+1",
            "tru",
            "nul",
            "fals",
            "truex",
            "nullx",
            "1x",
            "-01",
            "--1",
            "\"s\"",
            "[1]",
            "{}",
            "x",
        ] {
            for tail in [",", "}", " ]"] {
                let whole = format!("{text}{tail}");
                let mut stream =
                    serde_json::Deserializer::from_str(&whole).into_iter::<IgnoredAny>();
                let want = match stream.next() {
                    Some(Ok(_)) => Some(stream.byte_offset()),
                    _ => None,
                };
                let want = want.filter(|_| !matches!(whole.as_bytes()[0], b'"' | b'[' | b'{'));
                // What a caller accepts after it: whitespace, a comma, a closing bracket.
                let ends =
                    |n: &usize| matches!(whole.as_bytes().get(*n), Some(b' ' | b',' | b'}' | b']'));
                assert_eq!(scalar(whole.as_bytes()).filter(ends), want, "{whole:?}");
            }
        }
        // Cut by the slice's end: unsure, so `None` (serde_json reads `12` at an input's end).
        assert_eq!(scalar(b"12"), None);
        assert_eq!(scalar(b"true"), Some(4));
    }

    use proptest::prelude::*;

    /// What [`plain_end`] stands for: the first quote or backslash, which must be a quote, and
    /// no control character before it (the cursor's way before it).
    fn plain_end_by_bytes(json: &[u8], from: usize) -> Option<usize> {
        let rest = json.get(from..)?;
        let len = memchr::memchr2(b'"', b'\\', rest)?;
        (rest[len] == b'"' && rest[..len].iter().all(|&b| b >= 0x20)).then_some(from + len)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, .. ProptestConfig::default() })]

        /// Any bytes, the stops anywhere in or after the eight-byte words: found as the byte
        /// scan finds them.
        #[test]
        fn plain_end_is_the_first_stop_when_it_is_a_quote(
            bytes in prop::collection::vec(
                prop_oneof![
                    12 => Just(b'a'),
                    1 => prop::sample::select(vec![b'"', b'\\', 0x01, 0x1f, 0x20, 0x7f, 0xc3, 0xa9]),
                ],
                0..40,
            ),
            from in 0usize..4,
        ) {
            prop_assert_eq!(plain_end(&bytes, from), plain_end_by_bytes(&bytes, from));
        }
    }

    /// Valid JSON as [`super::super::tests`] generates it (few keys, so that objects repeat
    /// some; escapes, whitespace, quotes anywhere in 8-byte words), then perhaps broken: a byte
    /// removed, replaced or inserted, or the text cut.
    fn text() -> impl Strategy<Value = String> {
        let edit = prop_oneof![
            Just(None),
            (
                any::<prop::sample::Index>(),
                0usize..4,
                prop::sample::select(vec![
                    "", "\"", "\\", "{", "}", "[", "]", ",", ":", "0", "-", "e", ".", "\t",
                    "\u{1}", "u", "t",
                ])
            )
                .prop_map(Some),
        ];
        (super::super::tests::text(), edit).prop_map(|(text, edit)| {
            let Some((at, kind, piece)) = edit else {
                return text;
            };
            let mut chars: Vec<char> = text.chars().collect();
            if chars.is_empty() {
                return piece.to_string();
            }
            let at = at.index(chars.len());
            match kind {
                0 => {
                    chars.remove(at);
                }
                1 => chars.splice(at..=at, piece.chars()).for_each(drop),
                2 => chars.splice(at..at, piece.chars()).for_each(drop),
                _ => chars.truncate(at),
            }
            chars.into_iter().collect()
        })
    }

    /// An object of distinct keys without escapes (some past the scan's first few, which it
    /// keeps in a list, then in a set), its values generated JSON or leaves, any whitespace
    /// around every token; perhaps followed by more text.
    fn object() -> impl Strategy<Value = String> {
        let ws = prop::sample::select(vec!["", "", " ", "\n  ", "\t", "\r\n"]);
        let value = prop_oneof![
            1 => super::super::tests::text(),
            6 => prop::sample::select(vec!["0", "-1.5e3", "1e999", "\"\\ud800\"", "[]", "{}", "\"\""])
                .prop_map(str::to_string),
        ];
        let member = (
            ws.clone(),
            0u8..64,
            ws.clone(),
            ws.clone(),
            value,
            ws.clone(),
        );
        (
            prop::collection::vec(member, 0..40),
            ws,
            prop::sample::select(vec!["", ", 1", "}", " ]"]),
        )
            .prop_map(|(members, w, tail)| {
                let mut seen = HashSet::new();
                let members: Vec<String> = members
                    .into_iter()
                    .filter(|m| seen.insert(m.1))
                    .map(|(a, k, b, c, v, d)| {
                        let k = match k {
                            0 => String::new(),
                            1 => "é".to_string(),
                            2 => "0123456789abcdefX".to_string(),
                            3 => "{a}:[,]".to_string(),
                            k => format!("k{k}"),
                        };
                        format!("{a}\"{k}\"{b}:{c}{v}{d}")
                    })
                    .collect();
                format!("{{{}{w}}}{tail}", members.join(","))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, .. ProptestConfig::default() })]

        /// The members handed over of an object are what serde_json reads of it as a map of
        /// raw values (keys and value texts), and the object is accepted whenever its values
        /// hold no key twice and no escaped key.
        #[test]
        fn the_members_are_what_serde_json_reads_of_the_object(
            text in object(),
            levels in prop_oneof![1u32..4, 126u32..129],
        ) {
            prop_assert_eq!(members_agree_with_serde(&text, levels), Ok(()));
            prop_assert_eq!(agrees_with_serde(&text, levels), Ok(()));
        }
    }

    /// Most generated objects are accepted with their members, so the property above tests
    /// something.
    #[test]
    fn most_generated_objects_hand_over_their_members() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = object();
        let (mut handed, mut many) = (0, 0);
        for _ in 0..2000 {
            let text = strategy.new_tree(&mut runner).unwrap().current();
            if let Some((_, Some(m))) = members(text.as_bytes(), 128) {
                handed += 1;
                many += usize::from(m.len() > super::super::LINEAR);
            }
        }
        assert!(
            handed > 600 && many > 150,
            "{handed} handed over, {many} with many keys"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 6000, .. ProptestConfig::default() })]

        /// Whatever it accepts, serde_json skips with the same length and the byte scan finds
        /// no repeated key in; a valid value without a repeated key or an escaped key it
        /// accepts (so the reader takes the one pass).
        #[test]
        fn the_one_pass_agrees_with_serde_json_and_the_key_scan(
            text in text(),
            levels in 1u32..8,
        ) {
            prop_assert_eq!(agrees_with_serde(&text, levels), Ok(()));
        }
    }
}
