//! The reader's driver: the input is read in large blocks into one buffer, and the top of the
//! document (the root object, `resource_changes`, `resource_drift`, `prior_state` down to its
//! resources, and any large skipped container) is walked here, structurally. Each entry the
//! model needs is parsed by serde_json from the buffer as a slice, with the seeds of
//! [`crate::parse`], at slice speed instead of one byte at a time through `io::Read`; serde_json
//! finds where it ends ([`Walker::parse_one`]). Only an entry the buffer's end cuts, or one
//! serde_json refuses, is located first with a structural scan ([`Walker::frame`]: strings
//! jumped over with `memchr`) and then parsed as one slice, after more is read: that is also
//! the path every error comes from, so that each malformed input gets the same error
//! whichever way it was first tried.
//!
//! What stays bounded: the buffer holds the current entry (or, for a skipped container, at
//! most [`SKIP_WHOLE`] bytes of it) plus one block; what was walked past is released. Every
//! byte is still checked: UTF-8 as each block arrives (the first bad byte is reported, with its
//! offset, when the walk reaches it), nesting depth by the scan (at most [`MAX_DEPTH`] levels,
//! the offset of the bracket that passes it; an entry parsed in one pass is scanned only when
//! it holds more brackets than levels are left), JSON syntax by the one-pass check
//! ([`crate::unique::valid`]: skipped values, an entry's sides) or by serde_json on each slice it
//! parses (and on whatever that check is unsure of, which words the error), and by the walk on
//! the punctuation between them. Line and column are only computed when an error needs them.

use crate::input::MAX_DEPTH;
use crate::long::{Long, FORGED};
use crate::parse::{self, Acc, Entry, Key, List, Object, Opt, TopValue, STOP};
use crate::unique::{Seen, UValue};
use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny};
use serde::Deserialize;
use serde_json::de::SliceRead;
use std::borrow::Cow;
use std::io::{self, Read};
use ward_model::ResourceChange;

mod block;
mod entry;

pub(crate) use entry::agrees_with_seeds;
pub(crate) use entry::value_of;

/// How much is read at a time.
const BLOCK: usize = 256 << 10;
/// How much of the buffer [`Walker::skip`] lets the one-pass check read before it frames the
/// value instead: a value longer than this (a section, a module's resources) would be read up to
/// the buffer's end and refused there as cut, at every level of its nesting, before the framed
/// way reads it again. Almost every value skipped is far shorter (a resource, an attribute).
const FIRST_TRY: usize = 64 << 10;

/// A skipped array or object that ends within this many bytes is checked as one slice; a
/// longer one is walked child by child, so that it is never held whole. No more than the first
/// try: a value the one pass could not follow that far, framed, was scanned by the frame and
/// then checked again whole, every byte read three times; walked, each child is checked once
/// (at 1 MiB, `planned_values` of the 60 MB bench plan cost 1.26 times serde_json's skip of it,
/// its modules of about 400 KB each framed and checked twice; issue 35, item 1).
pub(crate) const SKIP_WHOLE: usize = FIRST_TRY;

/// Why the walk stopped. The caller turns it into a [`crate::PlanError`].
#[derive(Debug)]
pub(crate) enum Fail {
    /// A seed stopped the parse: the problem is in [`Acc::problem`] (or, without one, the
    /// input is not a plan).
    Stop,
    /// The input ended inside the document.
    Eof,
    /// The input ended before the document began: it holds only whitespace (longer than the
    /// head [`crate::input`] looks at first, or decoded from UTF-16).
    Blank,
    /// Nesting passed [`MAX_DEPTH`] at this offset.
    TooDeep(u64),
    /// The first byte that is not UTF-8.
    Utf8(u64),
    /// A malformed UTF-16 sequence (a lone surrogate, an odd byte at the end), at this offset
    /// of the undecoded input.
    Utf16(u64),
    /// Not JSON, at this offset.
    Json {
        /// Where.
        offset: u64,
        /// What serde_json (or the walk) said.
        what: String,
    },
    /// An object that holds a key twice, near this offset.
    Duplicate {
        /// Where.
        offset: u64,
        /// Which key, and where when known (see [`crate::unique::is_repeated`]).
        what: String,
    },
    /// JSON of an unexpected shape, near this offset.
    Data {
        /// Where.
        offset: u64,
        /// What serde_json said.
        what: String,
    },
    /// Reading failed.
    Io(io::Error),
}

/// How the input's bytes become UTF-8 text.
pub(crate) enum Decode {
    /// UTF-8 already.
    Plain,
    /// UTF-16, decoded block by block without replacement.
    Utf16(Box<encoding_rs::Decoder>),
}

/// The buffered input and the walk's position in it.
pub(crate) struct Walker<R: Read> {
    src: R,
    decode: Decode,
    /// Undecoded UTF-16 bytes not yet decoded, and how many input bytes were decoded before
    /// them (for offsets of bad sequences).
    raw: Vec<u8>,
    raw_done: u64,
    /// The text read and checked (UTF-8): the walk never looks past it, and the one-pass
    /// readers ([`entry`]) take their keys and strings from it without checking them again.
    buf: String,
    /// Bytes read after `buf` and not checked yet (`pending[..pending_len]`: a character cut
    /// by a block's end, or what follows a byte that is not UTF-8). The vector keeps its
    /// length from one read to the next, so a read does not first write zeros over it.
    pending: Vec<u8>,
    pending_len: usize,
    /// The walk's position in `buf`.
    pos: usize,
    /// The offset of `buf[0]` in the (decoded) text.
    start: u64,
    /// The first byte that is not UTF-8, once seen.
    bad: Option<u64>,
    eof: bool,
    /// Newlines released before `buf[0]`, and the offset after the last of them.
    lines: u64,
    line_start: u64,
    /// Open arrays and objects around the position.
    depth: u32,
    /// Strings longer than this many bytes (as written, escapes included) are replaced in the
    /// buffer by a stand-in as they are scanned ([`Walker::frame`], see [`crate::long`]).
    pub(crate) budget: usize,
    /// Where the buffer was edited by those replacements: from buffer index `.0` on, offsets
    /// in the input are `.1` bytes further than the buffer's indices say (in order).
    edits: Vec<(usize, i64)>,
}

impl<R: Read> Walker<R> {
    /// A walker over `src`; `offset` is where `src` starts in the input (after a byte order
    /// mark), so that offsets count the input's bytes.
    pub(crate) fn new(src: R, decode: Decode, offset: u64) -> Self {
        Walker {
            src,
            decode,
            raw: Vec::new(),
            raw_done: offset,
            buf: String::with_capacity(BLOCK),
            pending: Vec::new(),
            pending_len: 0,
            pos: 0,
            start: offset,
            bad: None,
            eof: false,
            lines: 0,
            line_start: 0,
            depth: 0,
            budget: crate::long::VALUE_BUDGET,
            edits: Vec::new(),
        }
    }

    /// The offset in the input of buffer index `idx` (past a replaced string's end).
    fn offset_at(&self, idx: usize) -> u64 {
        let shift: i64 = self
            .edits
            .iter()
            .take_while(|(at, _)| *at <= idx)
            .map(|(_, d)| d)
            .sum();
        (self.start as i64 + idx as i64 + shift).max(0) as u64
    }

    /// The buffer index of input offset `offset` (the inverse of [`Walker::offset_at`]; an
    /// offset inside a replaced string maps into its stand-in).
    fn index_of(&self, offset: u64) -> usize {
        let mut rel = offset as i64 - self.start as i64;
        for (at, d) in &self.edits {
            if rel - d >= *at as i64 {
                rel -= d;
            } else {
                break;
            }
        }
        rel.max(0) as usize
    }

    /// The offset of the end of what was read (the end of the input once it is all read).
    pub(crate) fn total(&self) -> u64 {
        self.offset_at(self.buf.len() + self.pending_len)
    }

    /// 1-based line and column (in bytes) of `offset`, when it is still in the buffer.
    pub(crate) fn line_col(&self, offset: u64) -> (u64, u64) {
        let upto = self.index_of(offset).min(self.buf.len());
        let head = &self.buf.as_bytes()[..upto];
        let n = memchr::memchr_iter(b'\n', head).count() as u64;
        let line_start = match memchr::memrchr(b'\n', head) {
            Some(i) => self.offset_at(i + 1),
            None => self.line_start,
        };
        (self.lines + n + 1, offset.saturating_sub(line_start) + 1)
    }

    /// Reads one more block (releasing what the walk is past). `false` at the end of the input.
    fn more(&mut self) -> Result<bool, Fail> {
        if let Some(bad) = self.bad {
            return Err(Fail::Utf8(bad));
        }
        if self.eof {
            return Ok(false);
        }
        if self.pos > 0 && self.pos >= self.buf.len() / 2 {
            self.release();
        }
        let before = self.buf.len();
        while self.buf.len() == before {
            if self.eof {
                return Ok(false);
            }
            self.read_block()?;
            self.validate();
            if let Some(bad) = self.bad {
                if self.buf.len() == before {
                    return Err(Fail::Utf8(bad));
                }
            }
        }
        // A string written as a stand-in for a long value (see `crate::long`) was not written
        // by Terraform or OpenTofu: refused, so that no short string poses as a long one.
        let from = before.saturating_sub(FORGED.len() - 1).max(self.pos);
        if let Some(k) = memchr::memmem::find(&self.buf.as_bytes()[from..], FORGED) {
            return Err(Fail::Data {
                offset: self.offset_at(from + k),
                what: "a string that starts as ward's stand-in for a value too long to show \
                       (`ward: value too long to show (`, its `w` written `\\u0077`), which \
                       Terraform and OpenTofu never write"
                    .to_string(),
            });
        }
        Ok(true)
    }

    /// Drops `buf[..pos]`, counting its lines.
    fn release(&mut self) {
        // (The position is always between characters, after a value or whitespace.)
        if !self.buf.is_char_boundary(self.pos) {
            return;
        }
        let gone = &self.buf.as_bytes()[..self.pos];
        self.lines += memchr::memchr_iter(b'\n', gone).count() as u64;
        if let Some(i) = memchr::memrchr(b'\n', gone) {
            self.line_start = self.offset_at(i + 1);
        }
        let start = self.offset_at(self.pos);
        let pos = self.pos;
        self.edits.retain_mut(|(at, _)| {
            *at = at.saturating_sub(pos);
            *at > 0
        });
        // The edits released are counted in the new start; the others move with the buffer.
        self.buf.drain(..self.pos);
        self.start = start;
        self.pos = 0;
    }

    /// Skips whitespace; the next byte, without taking it (`None` at the end of the input).
    pub(crate) fn peek(&mut self) -> Result<Option<u8>, Fail> {
        loop {
            while self.pos < self.buf.len() {
                match self.buf.as_bytes()[self.pos] {
                    b' ' | b'\n' | b'\r' | b'\t' => self.pos += 1,
                    b => return Ok(Some(b)),
                }
            }
            if !self.more()? {
                return Ok(None);
            }
        }
    }

    /// The next byte, which must exist (else the input is truncated).
    fn peek_some(&mut self) -> Result<u8, Fail> {
        self.peek()?.ok_or(Fail::Eof)
    }

    fn here(&self) -> u64 {
        self.offset_at(self.pos)
    }

    fn syntax(&self, what: &str) -> Fail {
        Fail::Json {
            offset: self.here(),
            what: what.to_string(),
        }
    }

    /// After the document: only whitespace may follow.
    pub(crate) fn end(&mut self) -> Result<(), Fail> {
        match self.peek()? {
            None => Ok(()),
            Some(_) => Err(self.syntax("trailing characters")),
        }
    }

    /// The length of the value at the position (which [`Walker::peek`] found), or `None` when
    /// it is an array or object longer than `limit`. The value is then all in the buffer, every
    /// string in it longer than [`Walker::budget`] replaced by its stand-in ([`crate::long`]):
    /// such a string is hashed and released as it is scanned, and is never cut by `limit` (nor
    /// is a string value itself, whatever its length).
    fn frame(&mut self, limit: usize) -> Result<Option<usize>, Fail> {
        let first = self.peek_some()?;
        let (mut depth, mut in_str) = match first {
            b'"' => (0u32, true),
            b'{' | b'[' => (1u32, false),
            _ => return self.frame_scalar().map(Some),
        };
        if depth > 0 && self.depth + 1 > MAX_DEPTH {
            return Err(Fail::TooDeep(self.here()));
        }
        let mut rel = 1usize;
        // The opening quote of the string the scan is in (from the position); what was hashed
        // of it when it is long; whether it can still be replaced (its bytes were valid).
        let mut quote = 0usize;
        let mut long: Option<Long> = None;
        let mut plain = true;
        loop {
            let base = self.pos;
            let lim = self.buf.len();
            let budget = self.budget;
            let buf = self.buf.as_bytes();
            let mut i = base + rel;
            let mut closed = None;
            while i < lim {
                if in_str {
                    match memchr::memchr2(b'"', b'\\', &buf[i..]) {
                        None => i = lim,
                        Some(k) => {
                            i += k;
                            if buf[i] == b'\\' {
                                if i + 1 >= lim {
                                    break;
                                }
                                i += 2;
                            } else {
                                if plain && (long.is_some() || i - (base + quote) > budget + 1) {
                                    closed = Some(i);
                                    break;
                                }
                                i += 1;
                                in_str = false;
                                if depth == 0 {
                                    return Ok(Some(i - base));
                                }
                            }
                        }
                    }
                } else {
                    match buf[i] {
                        b'"' => {
                            in_str = true;
                            quote = i - base;
                            plain = true;
                        }
                        b'{' | b'[' => {
                            depth += 1;
                            if self.depth + depth > MAX_DEPTH {
                                return Err(Fail::TooDeep(self.offset_at(i)));
                            }
                        }
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok(Some(i + 1 - base));
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            if let Some(close) = closed {
                rel = self.close_long(base + quote + 1, close, &mut long) - base;
                plain = false;
                in_str = false;
                if depth == 0 {
                    return Ok(Some(rel));
                }
                continue;
            }
            if in_str && plain && i - (base + quote) > budget + 1 {
                match self.release_long(base + quote + 1, i, &mut long) {
                    Some(n) => i -= n,
                    None => plain = false,
                }
            }
            rel = i - base;
            // A string value is framed whole (or as a long one), however short `limit` is
            // next to the budget: `None` always means a container.
            if rel >= limit && long.is_none() && depth > 0 {
                return Ok(None);
            }
            match self.more() {
                Ok(true) => {}
                Ok(false) => return Err(self.explain(Fail::Eof)),
                Err(e) => return Err(self.explain(e)),
            }
        }
    }

    /// A long string ends here (its text is `buf[at..close]`, `close` its closing quote): its
    /// stand-in takes its place, unless its bytes are not a valid string (left for serde_json
    /// to say so). The buffer index after its closing quote.
    fn close_long(&mut self, at: usize, close: usize, long: &mut Option<Long>) -> usize {
        match crate::long::safe_end(&self.buf.as_bytes()[at..close]) {
            // (Its text is whole characters: it starts and ends between them.)
            Some(n)
                if at + n == close
                    && self.buf.is_char_boundary(at)
                    && self.buf.is_char_boundary(close) =>
            {
                let mut whole = long.take().unwrap_or_else(Long::new);
                whole.take(&self.buf.as_bytes()[at..close]);
                let stand_in = whole.stand_in();
                let removed = close - at;
                self.buf.replace_range(at..close, &stand_in);
                self.edits
                    .push((at + stand_in.len(), removed as i64 - stand_in.len() as i64));
                at + stand_in.len() + 1
            }
            _ => {
                *long = None;
                close + 1
            }
        }
    }

    /// A long string whose text so far is `buf[at..end]`: what is scanned of it is hashed
    /// into `long` and released; how many bytes were released. `None` when its bytes are not
    /// a valid string (it is then left whole, for serde_json to say so).
    fn release_long(&mut self, at: usize, end: usize, long: &mut Option<Long>) -> Option<usize> {
        match crate::long::safe_end(&self.buf.as_bytes()[at..end]) {
            // (Whole characters: they start and end between them.)
            Some(n) if self.buf.is_char_boundary(at) && self.buf.is_char_boundary(at + n) => {
                long.get_or_insert_with(Long::new)
                    .take(&self.buf.as_bytes()[at..at + n]);
                self.buf.drain(at..at + n);
                self.edits.push((at, n as i64));
                Some(n)
            }
            _ => {
                *long = None;
                None
            }
        }
    }

    /// The value at the position did not end where the scan could follow it (the input ended,
    /// or a byte is not UTF-8): serde_json says whether the text before that is already not
    /// JSON (an unbalanced quote makes the scan run on), which is then the first error.
    fn explain(&self, fail: Fail) -> Fail {
        let rest = &self.buf.as_bytes()[self.pos..];
        let mut de = serde_json::Deserializer::from_slice(rest);
        match IgnoredAny::deserialize(&mut de) {
            Err(e) if e.classify() != serde_json::error::Category::Eof => {
                match self.slice_error(&e, rest.len()) {
                    found @ (Fail::Json { .. } | Fail::TooDeep(_)) => found,
                    _ => fail,
                }
            }
            _ => fail,
        }
    }

    /// The length of a number or literal (serde_json checks it).
    fn frame_scalar(&mut self) -> Result<usize, Fail> {
        let mut rel = 0usize;
        loop {
            let end = self.buf.len();
            while self.pos + rel < end {
                match self.buf.as_bytes()[self.pos + rel] {
                    b',' | b']' | b'}' | b':' | b' ' | b'\n' | b'\r' | b'\t' | b'"' | b'['
                    | b'{' => return Ok(rel.max(1)),
                    _ => rel += 1,
                }
            }
            if !self.more()? {
                return Ok(rel);
            }
        }
    }

    /// Parses the `len` bytes at the position with `f` and moves past them.
    fn parse<T>(
        &mut self,
        len: usize,
        f: impl FnOnce(&mut serde_json::Deserializer<SliceRead<'_>>) -> serde_json::Result<T>,
    ) -> Result<T, Fail> {
        let slice = &self.buf.as_bytes()[self.pos..self.pos + len];
        let mut de = serde_json::Deserializer::from_slice(slice);
        let out = f(&mut de).and_then(|v| de.end().map(|()| v));
        match out {
            Ok(v) => {
                self.pos += len;
                Ok(v)
            }
            // The value was framed whole, yet serde_json wanted more: an escape or a literal
            // that runs past where the frame ends (`"\u"` before the closing quote). What
            // follows it says which error that is, as in one pass over the whole input: read
            // a few bytes past it (not past a bad byte) and ask serde_json again.
            Err(e) if e.classify() == serde_json::error::Category::Eof => {
                while self.buf.len() - self.pos < len + 8 {
                    if !matches!(self.more(), Ok(true)) {
                        break;
                    }
                }
                Err(self.explain(Fail::Eof))
            }
            Err(e) => Err(self.slice_error(&e, len)),
        }
    }

    /// Parses the array, object or string at the position as a `T` in one pass, and moves past
    /// it: serde_json finds its end within what the buffer holds (checked UTF-8), and the walk
    /// checks only its nesting depth: a count of its opening brackets (strings included) that
    /// cannot pass [`MAX_DEPTH`] needs nothing more, else [`Walker::frame`] scans it for the
    /// bracket that passes. A value the buffer cuts, one serde_json refuses, and any other
    /// value go through [`Walker::parse_value`] from the same position, which reads more and
    /// gives the error it always gave: this path only ever succeeds where that one would, with
    /// the same result.
    fn parse_one<T: DeserializeOwned>(&mut self) -> Result<T, Fail> {
        match self.try_one()? {
            Some((v, _)) => Ok(v),
            None => self.parse_value(|de| T::deserialize(de)),
        }
    }

    /// [`Walker::parse_one`]'s single pass: `None` when the value at the position must go the
    /// framed way (not an array, object or string; cut by the buffer's end; refused by
    /// serde_json), the position unchanged.
    fn try_one<T: DeserializeOwned>(&mut self) -> Result<Option<(T, usize)>, Fail> {
        let first = self.peek_some()?;
        if !matches!(first, b'{' | b'[' | b'"') {
            return Ok(None);
        }
        let rest = &self.buf.as_bytes()[self.pos..];
        let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<T>();
        let Some(Ok(v)) = stream.next() else {
            return Ok(None);
        };
        let len = stream.byte_offset();
        if len > self.budget {
            // It may hold a string longer than the budget: framed, which replaces it.
            return Ok(None);
        }
        let fits = first == b'"'
            || (self.depth as usize).saturating_add(opening_brackets(&rest[..len]))
                <= MAX_DEPTH as usize;
        // Too many brackets to be sure: the scan finds the one that passes, if any.
        if fits || self.frame(usize::MAX)?.is_some() {
            self.pos += len;
            return Ok(Some((v, len)));
        }
        Ok(None)
    }

    /// Frames the value at the position and parses it with `f`.
    fn parse_value<T>(
        &mut self,
        f: impl FnOnce(&mut serde_json::Deserializer<SliceRead<'_>>) -> serde_json::Result<T>,
    ) -> Result<T, Fail> {
        let len = self.frame(usize::MAX)?.ok_or(Fail::Eof)?;
        self.parse(len, f)
    }

    /// Maps serde_json's error inside the slice at the position to the input's offsets.
    fn slice_error(&self, e: &serde_json::Error, len: usize) -> Fail {
        use serde_json::error::Category;
        let slice = &self.buf.as_bytes()[self.pos..self.pos + len];
        let mut at = 0usize;
        for _ in 1..e.line() {
            match memchr::memchr(b'\n', &slice[at..]) {
                Some(k) => at += k + 1,
                None => break,
            }
        }
        let mut rel = (at + e.column().saturating_sub(1)).min(len);
        let msg = e.to_string();
        let what = msg
            .rsplit_once(" at line ")
            .map_or(msg.as_str(), |(w, _)| w)
            .to_string();
        // serde_json places a control character in a string a byte before or after it (a
        // newline: at the end of its line, or the start of the next): the offset is the
        // character's own.
        if what.starts_with("control character") {
            let mut near = rel.saturating_sub(1)..(rel + 2).min(len);
            if let Some(k) = near.find(|&k| slice[k] < 0x20) {
                rel = k;
            }
        }
        let offset = self.offset_at(self.pos + rel);
        match e.classify() {
            Category::Data if what == STOP => Fail::Stop,
            Category::Data if crate::unique::is_repeated(&what).is_some() => Fail::Duplicate {
                offset,
                what: crate::unique::is_repeated(&what).unwrap_or(what),
            },
            Category::Data => Fail::Data { offset, what },
            Category::Eof => Fail::Eof,
            Category::Syntax if what.starts_with("recursion limit exceeded") => {
                Fail::TooDeep(offset)
            }
            Category::Syntax if what.starts_with("invalid unicode code point") => {
                Fail::Utf8(offset)
            }
            Category::Syntax | Category::Io => Fail::Json { offset, what },
        }
    }

    /// Enters an array or object (the position is on its bracket).
    fn open(&mut self) -> Result<(), Fail> {
        if self.depth + 1 > MAX_DEPTH {
            return Err(Fail::TooDeep(self.here()));
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    /// Walks the object at the position: `each` reads every value (the walker is on it).
    pub(crate) fn object(
        &mut self,
        each: &mut dyn FnMut(&mut Self, &'static str) -> Result<(), Fail>,
    ) -> Result<(), Fail> {
        self.open()?;
        if self.peek_some()? == b'}' {
            self.pos += 1;
            self.depth -= 1;
            return Ok(());
        }
        let mut seen = Seen::default();
        loop {
            if self.peek_some()? != b'"' {
                return Err(self.syntax("key must be a string"));
            }
            let at = self.here();
            let OwnedKey(key, text) = self.parse_one()?;
            if let Err(text) = seen.add(text) {
                return Err(Fail::Duplicate {
                    offset: at,
                    what: crate::unique::is_repeated(
                        &crate::unique::repeated::<serde_json::Error>(&text).to_string(),
                    )
                    .unwrap_or_default(),
                });
            }
            if self.peek_some()? != b':' {
                return Err(self.syntax("expected `:`"));
            }
            self.pos += 1;
            self.peek_some()?;
            each(self, key.0)?;
            match self.peek_some()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                _ => return Err(self.syntax("expected `,` or `}`")),
            }
        }
    }

    /// Walks the array at the position: `each` reads every element (the walker is on it).
    pub(crate) fn array(
        &mut self,
        each: &mut dyn FnMut(&mut Self) -> Result<(), Fail>,
    ) -> Result<(), Fail> {
        self.open()?;
        if self.peek_some()? == b']' {
            self.pos += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            if self.peek_some()? == b']' {
                return Err(self.syntax("trailing comma"));
            }
            each(self)?;
            match self.peek_some()? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                _ => return Err(self.syntax("expected `,` or `]`")),
            }
        }
    }

    /// Refuses the value the walk just moved past (its last `len` bytes) when an object in it
    /// holds a key twice.
    fn unique_behind(&self, len: usize) -> Result<(), Fail> {
        let start = self.pos - len;
        match crate::unique::first_repeat(&self.buf.as_bytes()[start..self.pos]) {
            None => Ok(()),
            Some((at, key)) => Err(Fail::Duplicate {
                offset: self.offset_at(start + at),
                what: crate::unique::is_repeated(
                    &crate::unique::repeated::<serde_json::Error>(&key).to_string(),
                )
                .unwrap_or_default(),
            }),
        }
    }

    /// Checks and skips the value at the position without keeping it.
    pub(crate) fn skip(&mut self) -> Result<(), Fail> {
        // One pass over its bytes checks it as JSON, for its depth and for a repeated key
        // (`unique::valid`), reading at most `FIRST_TRY` bytes. A value that pass is not sure
        // of, or one longer (cut by the buffer or by that limit), is framed: checked again by
        // that pass when it is whole in the buffer, else by serde_json and then scanned for a
        // repeated key, which words the error; one longer than `SKIP_WHOLE` is walked member
        // by member. (serde_json is not tried on the unframed rest of the buffer first: it
        // would refuse a cut value only at the buffer's end.)
        self.peek_some()?;
        let levels = MAX_DEPTH - self.depth;
        let end = self.buf.len().min(self.pos.saturating_add(FIRST_TRY));
        if let Some(len) = crate::unique::valid::value(&self.buf.as_bytes()[self.pos..end], levels)
        {
            if len <= self.budget {
                self.pos += len;
                return Ok(());
            }
        }
        match self.frame(SKIP_WHOLE)? {
            Some(len) => {
                let framed = &self.buf.as_bytes()[self.pos..self.pos + len];
                if crate::unique::valid::value(framed, levels) == Some(len) {
                    self.pos += len;
                    return Ok(());
                }
                self.parse(len, |de| IgnoredAny::deserialize(de).map(|_| ()))?;
                self.unique_behind(len)
            }
            None => {
                if self.peek_some()? == b'{' {
                    self.object(&mut |w, _| w.skip())
                } else {
                    self.array(&mut |w| w.skip())
                }
            }
        }
    }
}

/// How many `[` and `{` bytes `bytes` holds, in strings or not: the deepest nesting in them
/// is at most that.
fn opening_brackets(bytes: &[u8]) -> usize {
    // `[` is 0x5B and `{` 0x7B: one comparison for both; counted in bytes, 255 at a time, so
    // that the loop vectorizes.
    bytes
        .chunks(255)
        .map(|c| {
            c.iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b | 0x20 == b'{'))) as usize
        })
        .sum()
}

/// A `resource_changes` entry read with the seed [`Entry`] (strict and lazy, as the walk
/// reads them) through [`Walker::parse_one`], which needs a `Deserialize` type.
struct WalkedEntry<const KEEP_BEFORE: bool, const CONTENT: bool>(parse::RawChange);

impl<'de, const KEEP_BEFORE: bool, const CONTENT: bool> Deserialize<'de>
    for WalkedEntry<KEEP_BEFORE, CONTENT>
{
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Entry {
            keep_before: KEEP_BEFORE,
            content: CONTENT,
            strict: true,
            lazy: true,
        }
        .deserialize(d)
        .map(WalkedEntry)
    }
}

/// Reads one `resource_changes` entry at the walker's position: in one pass over its bytes
/// ([`entry::read`]) when nothing needs its whole values, else (or when that pass is not
/// sure of it) with the seeds.
fn walked_entry<R: Read>(
    w: &mut Walker<R>,
    keep_before: bool,
    content: bool,
    raw_creates: bool,
) -> Result<parse::RawChange, Fail> {
    if !keep_before && !content && w.peek_some()? == b'{' {
        let read = w
            .buf
            .get(w.pos..)
            .and_then(|text| entry::read(text, w.depth, w.budget, raw_creates));
        if let Some((raw, len)) = read {
            w.pos += len;
            return Ok(raw);
        }
    }
    Ok(match (keep_before, content) {
        (false, false) => w.parse_one::<WalkedEntry<false, false>>()?.0,
        (false, true) => w.parse_one::<WalkedEntry<false, true>>()?.0,
        (true, false) => w.parse_one::<WalkedEntry<true, false>>()?.0,
        (true, true) => w.parse_one::<WalkedEntry<true, true>>()?.0,
    })
}

/// An object key the walk reads: the name the reader knows it by, and its text (for
/// [`Seen`]).
struct OwnedKey(Key, Cow<'static, str>);

impl<'de> Deserialize<'de> for OwnedKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let key = parse::known_key(&text);
        Ok(OwnedKey(
            Key(key),
            if key.is_empty() {
                Cow::Owned(text)
            } else {
                Cow::Borrowed(key)
            },
        ))
    }
}

type Sink<'a> = Option<&'a mut dyn FnMut(ResourceChange)>;

/// Walks the whole document into `acc`.
pub(crate) fn document<R: Read>(
    w: &mut Walker<R>,
    acc: &mut Acc,
    mut sink: Sink<'_>,
) -> Result<(), Fail> {
    let first = match w.peek_some() {
        Err(Fail::Eof) => return Err(Fail::Blank),
        first => first?,
    };
    match first {
        b'{' => w.object(&mut |w, key| top_key(w, acc, &mut sink, key))?,
        // Not an object: the same visitor as the whole-document parse says what it is (a UI
        // log's array, a string...) from the first element at most.
        b'[' => {
            w.open()?;
            let first = match w.peek_some()? {
                b']' => Vec::new(),
                _ => vec![w.parse_value(|de| UValue::deserialize(de))?.0],
            };
            let wrapped = serde_json::Value::Array(first);
            return parse::Top(acc, None)
                .deserialize(wrapped)
                .map_err(|_| Fail::Stop);
        }
        _ => w.parse_value(|de| parse::Top(acc, None).deserialize(de))?,
    }
    if acc.stop {
        return Err(Fail::Stop);
    }
    w.end()
}

/// The keys walked here rather than handed to serde_json whole.
fn top_key<R: Read>(
    w: &mut Walker<R>,
    acc: &mut Acc,
    sink: &mut Sink<'_>,
    key: &'static str,
) -> Result<(), Fail> {
    let next = w.peek_some()?;
    match (key, next) {
        ("resource_changes", b'[') => {
            acc.keys.insert(key);
            let keep_before = acc.objects.is_some();
            let content = !acc.skip_content;
            // A read that builds few creates' leaves keeps their sides raw.
            let raw_creates = acc.created.is_some();
            w.array(&mut |w| {
                let raw = walked_entry(w, keep_before, content, raw_creates)?;
                parse::take_change(
                    acc,
                    sink.as_mut()
                        .map(|s| &mut **s as &mut dyn FnMut(ResourceChange)),
                    raw,
                );
                Ok(())
            })
        }
        ("resource_drift", b'[') => {
            acc.keys.insert(key);
            let mut n = 0usize;
            w.array(&mut |w| {
                let UValue(v) = w.parse_one()?;
                n += 1;
                parse::drift_entry(acc, n, v);
                Ok(())
            })
        }
        ("prior_state", b'{') => {
            acc.keys.insert(key);
            w.object(&mut |w, key| match (key, w.peek_some()?) {
                ("values", b'{') => w.object(&mut |w, key| match (key, w.peek_some()?) {
                    ("root_module", b'{') => state_module(w, acc),
                    ("root_module", _) => w.parse_value(|de| {
                        Opt(Object(parse::StateModule { acc: &mut *acc })).deserialize(de)
                    }),
                    _ => w.skip(),
                }),
                ("values", _) => w.parse_value(|de| {
                    Opt(Object(parse::StateValues { acc: &mut *acc })).deserialize(de)
                }),
                _ => w.skip(),
            })
        }
        // Keys the reader keeps (small, or not repeated per instance): one slice each.
        (
            "@level"
            | "@message"
            | "@module"
            | "@timestamp"
            | "format_version"
            | "plan_format_version"
            | "terraform_version"
            | "errored"
            | "complete"
            | "resource_changes"
            | "resource_drift"
            | "output_changes"
            | "configuration"
            | "prior_state",
            _,
        ) => w.parse_value(|de| {
            TopValue {
                acc: &mut *acc,
                sink: sink
                    .as_mut()
                    .map(|s| &mut **s as &mut dyn FnMut(ResourceChange)),
                key,
            }
            .deserialize(de)
        }),
        _ => {
            if parse::MARKER_KEYS.contains(&key) {
                acc.keys.insert(key);
            }
            w.skip()
        }
    }
}

/// The `prior_state` resource object at the walker's position, its type kept in `acc`
/// ([`parse::state_resource`]): read in one pass over its bytes ([`entry::state_resource`],
/// its strings borrowed from the buffer) when that pass is sure of it, else key by key, its
/// `values` (most of its bytes) skipped in one pass.
fn walked_state_resource<R: Read>(w: &mut Walker<R>, acc: &mut Acc) -> Result<(), Fail> {
    let read = w
        .buf
        .get(w.pos..)
        .and_then(|text| entry::state_resource(text, w.depth, w.budget));
    if let Some((r, len)) = read {
        // Kept before the walk moves on: its strings are borrowed from the buffer.
        parse::state_resource(acc, r);
        w.pos += len;
        return Ok(());
    }
    let r = state_resource_by_keys(w)?;
    parse::state_resource(acc, r);
    Ok(())
}

/// [`walked_state_resource`] key by key, through the walk.
fn state_resource_by_keys<R: Read>(
    w: &mut Walker<R>,
) -> Result<parse::RawStateResource<'static>, Fail> {
    let mut r = parse::RawStateResource::default();
    w.object(&mut |w, key| match key {
        "mode" => w.parse_one().map(|v| r.mode = v),
        "type" => w.parse_one().map(|v| r.type_name = v),
        "provider_name" => w.parse_one().map(|v| r.provider_name = v),
        _ => w.skip(),
    })?;
    Ok(r)
}

/// The body of the `entry` fuzz target's second half and of the property test: whatever
/// [`entry::state_resource`] reads of `text` (inside `depth` open containers), the walk reads
/// key by key too, to the same length and the same fields. `Err` says what differs.
pub(crate) fn state_resource_agrees_with_walk(text: &str, depth: u32) -> Result<(), String> {
    let budget = crate::long::VALUE_BUDGET;
    let Some((fast, len)) = entry::state_resource(text, depth, budget) else {
        return Ok(());
    };
    let mut w = Walker::new(text.as_bytes(), Decode::Plain, 0);
    w.depth = depth;
    let slow = w
        .peek_some()
        .and_then(|_| state_resource_by_keys(&mut w))
        .map_err(|e| format!("{text:?}: read in one pass, refused by the walk: {e:?}"))?;
    fn key<'r>(r: &'r parse::RawStateResource<'_>) -> [Option<&'r str>; 3] {
        [&r.mode, &r.type_name, &r.provider_name].map(Option::as_deref)
    }
    if (len, key(&fast)) != (w.pos, key(&slow)) {
        return Err(format!(
            "{text:?}: {len} bytes and {:?} in one pass, {} and {:?} by the walk",
            key(&fast),
            w.pos,
            key(&slow)
        ));
    }
    Ok(())
}

/// One `prior_state` module: its resources one at a time, its child modules recursively
/// (bounded by [`MAX_DEPTH`]).
fn state_module<R: Read>(w: &mut Walker<R>, acc: &mut Acc) -> Result<(), Fail> {
    w.object(&mut |w, key| match (key, w.peek_some()?) {
        ("resources", b'[') => w.array(&mut |w| {
            if w.peek_some()? == b'{' {
                walked_state_resource(w, acc)
            } else {
                let r = w.parse_one()?;
                parse::state_resource(acc, r);
                Ok(())
            }
        }),
        ("resources", _) => {
            w.parse_value(|de| Opt(List(parse::StateResources { acc: &mut *acc })).deserialize(de))
        }
        ("child_modules", b'[') => w.array(&mut |w| match w.peek_some()? {
            b'{' => state_module(w, acc),
            _ => w.parse_value(|de| Object(parse::StateModule { acc: &mut *acc }).deserialize(de)),
        }),
        ("child_modules", _) => {
            w.parse_value(|de| Opt(List(parse::StateChildren { acc: &mut *acc })).deserialize(de))
        }
        _ => w.skip(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    //! The walker itself, below the plan reader: what a caller cannot see through a verdict
    //! (how much stays buffered, which line a byte is on, the offset of every error) checked
    //! against an independent computation over the same bytes.
    use super::*;

    /// A reader that hands out at most `step` bytes a call, as a pipe does.
    struct Trickle<'a> {
        rest: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.rest.len());
            buf[..n].copy_from_slice(&self.rest[..n]);
            self.rest = &self.rest[n..];
            Ok(n)
        }
    }

    fn trickle(bytes: &[u8], step: usize) -> Walker<Trickle<'_>> {
        Walker::new(Trickle { rest: bytes, step }, Decode::Plain, 0)
    }

    fn walker(bytes: &[u8]) -> Walker<&[u8]> {
        Walker::new(bytes, Decode::Plain, 0)
    }

    /// Line and column of any offset of `bytes`, counted from its start, by a search over
    /// where its newlines are.
    struct Lines(Vec<usize>);

    impl Lines {
        fn of(bytes: &[u8]) -> Self {
            Lines((0..bytes.len()).filter(|&i| bytes[i] == b'\n').collect())
        }
        fn at(&self, offset: usize) -> (u64, u64) {
            let before = self.0.partition_point(|&i| i < offset);
            let start = if before == 0 {
                0
            } else {
                self.0[before - 1] + 1
            };
            (before as u64 + 1, (offset - start) as u64 + 1)
        }
    }

    /// A JSON array of `n` strings of varying length, one per line, indented: about
    /// `n * 700` bytes.
    fn lines_array(n: usize) -> Vec<u8> {
        let mut s = String::from("[\n");
        for i in 0..n {
            let len = (i * 7919) % 1400;
            s.push_str("  \"");
            s.push_str(&"x".repeat(len));
            s.push('"');
            s.push_str(if i + 1 < n { ",\n" } else { "\n" });
        }
        s.push_str("]\n");
        s.into_bytes()
    }

    #[test]
    fn lines_and_columns_are_counted_across_released_blocks() {
        let bytes = lines_array(1600);
        assert!(bytes.len() > 4 * BLOCK, "{}", bytes.len());
        let lines = Lines::of(&bytes);
        let mut w = walker(&bytes);
        assert_eq!(w.peek().unwrap(), Some(b'['));
        assert_eq!(w.line_col(0), (1, 1));
        let mut seen = 0usize;
        w.array(&mut |w| {
            let here = w.here() as usize;
            assert_eq!(w.line_col(here as u64), lines.at(here), "at {here}");
            // A byte further on, still in the buffer: its line began before it.
            let later = (here + 2).min(w.total() as usize);
            assert_eq!(w.line_col(later as u64), lines.at(later));
            seen += 1;
            w.skip()?;
            // After the entry, which may have been read past a release: its own bytes are on
            // a line that began before what the buffer still holds.
            for at in [here, w.here() as usize - 1] {
                if at as u64 >= w.start {
                    assert_eq!(w.line_col(at as u64), lines.at(at), "at {at}, after");
                }
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, 1600);
        // The input's end, all read by now: past its last newline.
        let total = w.total() as usize;
        assert_eq!(total, bytes.len());
        assert_eq!(w.line_col(total as u64), (1603, 1));
        assert_eq!(w.line_col(total as u64 - 2), lines.at(total - 2));
        w.end().unwrap();
    }

    #[test]
    fn one_long_line_counts_columns_from_the_input_start() {
        let mut s = String::from("[");
        for i in 0..6_000 {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&format!("{{\"k\":\"{}\"}}", "y".repeat(i % 400)));
        }
        s.push(']');
        let bytes = s.into_bytes();
        assert!(bytes.len() > 4 * BLOCK);
        let mut w = walker(&bytes);
        w.peek().unwrap();
        let mut n = 0;
        w.array(&mut |w| {
            let here = w.here();
            if n % 8 == 0 {
                assert_eq!(w.line_col(here), (1, here + 1));
            }
            n += 1;
            w.skip()
        })
        .unwrap();
        w.end().unwrap();
    }

    #[test]
    fn what_the_walk_is_past_is_released() {
        let bytes = lines_array(1600);
        let mut w = walker(&bytes);
        w.peek().unwrap();
        let mut most = 0usize;
        w.array(&mut |w| {
            most = most.max(w.buf.len());
            w.skip()
        })
        .unwrap();
        // The current entry plus a block or two, never the whole input.
        assert!(
            most <= 3 * BLOCK,
            "{most} bytes buffered of {}",
            bytes.len()
        );
        assert!(w.start > 0);
    }

    #[test]
    fn a_bad_byte_is_reported_only_when_the_walk_reaches_it() {
        // The walk finds `{` and the syntax error before the bad byte, in the same block.
        let mut bytes = b"{\"a\": 1 2".to_vec();
        bytes.extend(std::iter::repeat_n(b' ', 1000));
        bytes.push(0xFF);
        let mut w = walker(&bytes);
        assert_eq!(w.peek().unwrap(), Some(b'{'));
        match w.object(&mut |w, _| w.skip()) {
            Err(Fail::Json { offset, what }) => {
                assert_eq!(offset, 8, "{what}");
            }
            other => panic!("{other:?}"),
        }
        // Reached (after whitespace only): the bad byte's own offset.
        let mut w = walker(&bytes[9..]);
        match w.peek() {
            Err(Fail::Utf8(at)) => assert_eq!(at, 1000),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_character_cut_by_a_read_is_completed_by_the_next() {
        let text = format!(
            "[\"{}\", \"\u{1F600}\u{20AC}\u{E9}\"]",
            "\u{20AC}".repeat(300)
        );
        for step in [1, 2, 3, 5, 7, 4096] {
            let mut w = trickle(text.as_bytes(), step);
            let v: Vec<String> = w.parse_one().unwrap();
            assert_eq!(v.len(), 2, "step {step}");
            assert_eq!(v[1], "\u{1F600}\u{20AC}\u{E9}");
            w.end().unwrap();
        }
        // A character the input's end cuts is not UTF-8, at its first byte.
        let cut = &"[\"\u{20AC}".as_bytes()[..4];
        let mut w = trickle(cut, 1);
        match w.parse_one::<Vec<String>>() {
            Err(Fail::Utf8(at)) => assert_eq!(at, 2),
            other => panic!("{other:?}"),
        }
    }

    /// Values from proptest's deterministic generator: the same on every run.
    struct Gen(proptest::test_runner::TestRng);

    impl Gen {
        fn new() -> Self {
            Gen(proptest::test_runner::TestRng::deterministic_rng(
                proptest::test_runner::RngAlgorithm::ChaCha,
            ))
        }

        fn next(&mut self, n: u64) -> u64 {
            proptest::prelude::Rng::next_u64(&mut self.0) % n
        }

        /// A JSON value with strings holding quotes, backslashes and brackets, nested up to
        /// `depth`, with whitespace between its parts.
        fn value(&mut self, depth: u32, out: &mut String) {
            let ws = |g: &mut Gen, out: &mut String| {
                for _ in 0..g.next(3) {
                    out.push([' ', '\n', '\t', '\r'][g.next(4) as usize]);
                }
            };
            match if depth == 0 {
                self.next(3)
            } else {
                self.next(6)
            } {
                0 => {
                    out.push('"');
                    for _ in 0..self.next(12) {
                        out.push_str(
                            [
                                "a", "\\\"", "\\\\", "[", "{", "]", "}", "\\n", "\u{e9}", "\\u00e9",
                            ][self.next(10) as usize],
                        );
                    }
                    out.push('"');
                }
                1 => out.push_str(
                    ["0", "-12.5e3", "true", "false", "null", "123456"][self.next(6) as usize],
                ),
                2 => out.push_str("\"\\\\\""),
                3 | 4 => {
                    out.push('[');
                    for i in 0..self.next(4) {
                        if i > 0 {
                            out.push(',');
                        }
                        ws(self, out);
                        self.value(depth - 1, out);
                        ws(self, out);
                    }
                    out.push(']');
                }
                _ => {
                    out.push('{');
                    for i in 0..self.next(4) {
                        if i > 0 {
                            out.push(',');
                        }
                        ws(self, out);
                        out.push_str(&format!("\"k{i}\\\"]\""));
                        ws(self, out);
                        out.push(':');
                        self.value(depth - 1, out);
                    }
                    out.push('}');
                }
            }
        }
    }

    /// The length of the first JSON value of `bytes`, as serde_json finds it.
    fn serde_len(bytes: &[u8]) -> usize {
        let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<IgnoredAny>();
        assert!(
            matches!(stream.next(), Some(Ok(_))),
            "{}",
            String::from_utf8_lossy(bytes)
        );
        stream.byte_offset()
    }

    #[test]
    fn a_framed_value_ends_where_serde_json_says_however_the_reads_cut_it() {
        let mut g = Gen::new();
        for n in 0..60 {
            let mut text = String::new();
            g.value(5, &mut text);
            let len = serde_len(text.as_bytes());
            assert_eq!(len, text.len());
            text.push_str(", 1]");
            for step in [1, 3, 1 << 20] {
                let mut w = trickle(text.as_bytes(), step);
                w.peek().unwrap();
                assert_eq!(
                    w.frame(usize::MAX).unwrap(),
                    Some(len),
                    "{n}, step {step}: {text}"
                );
                assert_eq!(w.pos, 0, "framing does not move");
                // Longer than a limit: a container is not framed once the scan passes the limit
                // and more must be read (a scalar or a string always is: a long one is released
                // as it is scanned).
                let fresh = |step| {
                    let mut w = trickle(text.as_bytes(), step);
                    w.peek().unwrap();
                    w
                };
                let container = matches!(text.as_bytes()[0], b'[' | b'{');
                let limit = len.saturating_sub(1).max(1);
                let framed = fresh(step).frame(limit).unwrap();
                if container && len > limit && step == 1 {
                    assert_eq!(framed, None, "{n}: {text}");
                } else if !container || step == 1 << 20 || len <= limit {
                    assert_eq!(framed, Some(len), "{n}: {text}");
                } else {
                    assert!(framed.is_none() || framed == Some(len), "{n}: {text}");
                }
                // And skipped whole, however it is first tried.
                w.skip().unwrap();
                assert_eq!(w.here() as usize, len);
            }
        }
    }

    /// `[` nested `n` deep, closed.
    fn nested(n: usize) -> String {
        format!("{}{}", "[".repeat(n), "]".repeat(n))
    }

    #[test]
    fn framing_stops_at_the_bracket_that_passes_the_depth_limit() {
        let max = MAX_DEPTH as usize;
        for (open, n) in [
            (0, max),
            (0, max + 1),
            (max - 1, 1),
            (max, 1),
            (100, 28),
            (100, 29),
            (127, 2),
        ] {
            let text = nested(n);
            for step in [1, 7, 1 << 20] {
                let mut w = trickle(text.as_bytes(), step);
                w.depth = open as u32;
                w.peek().unwrap();
                let got = w.frame(usize::MAX);
                if open + n <= max {
                    assert_eq!(got.unwrap(), Some(2 * n), "{open} open, {n} more");
                } else {
                    // The bracket that makes it `max + 1` levels, counted from the first.
                    match got {
                        Err(Fail::TooDeep(at)) => {
                            assert_eq!(
                                at as usize,
                                max - open,
                                "{open} open, {n} more, step {step}"
                            )
                        }
                        other => panic!("{open} open, {n} more: {other:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn a_string_is_framed_at_any_depth() {
        // A string opens nothing: at the deepest level it is still read.
        let text = format!("\"{}\\\"\\\\\" ]", "s".repeat(40));
        for step in [1, 3, 1 << 20] {
            let mut w = trickle(text.as_bytes(), step);
            w.depth = MAX_DEPTH;
            w.peek().unwrap();
            assert_eq!(w.frame(usize::MAX).unwrap(), Some(46), "step {step}");
            let s: String = w.parse_one().unwrap();
            assert_eq!(s, format!("{}\"\\", "s".repeat(40)));
        }
    }

    #[test]
    fn after_a_bad_byte_the_rest_of_the_input_is_not_read() {
        let mut bytes = b"[\xFF".to_vec();
        bytes.extend(std::iter::repeat_n(b' ', 3 << 20));
        bytes.push(b']');
        let mut w = walker(&bytes);
        assert_eq!(w.peek().unwrap(), Some(b'['));
        w.open().unwrap();
        for _ in 0..2 {
            match w.peek() {
                Err(Fail::Utf8(1)) => {}
                other => panic!("{other:?}"),
            }
        }
        assert!(w.buf.len() <= BLOCK, "{} bytes read", w.buf.len());
    }

    /// A resource of a state or a change, about 600 bytes.
    fn resource(i: usize) -> String {
        format!(
            r#"{{"address":"fake_thing.r{i}","mode":"managed","type":"fake_thing","name":"r{i}","provider_name":"registry.terraform.io/x/fake","values":{{"pad":"{}","n":[{i},"]}}"]}}}}"#,
            "p".repeat(500)
        )
    }

    fn change(i: usize) -> String {
        format!(
            r#"{{"address":"fake_thing.c{i}","mode":"managed","type":"fake_thing","name":"c{i}","provider_name":"registry.terraform.io/x/fake","change":{{"actions":["update"],"before":{{"pad":"{}","n":{i}}},"after":{{"pad":"{}","n":{}}},"after_unknown":{{}},"before_sensitive":{{}},"after_sensitive":{{}}}}}}"#,
            "b".repeat(250),
            "a".repeat(250),
            i + 1
        )
    }

    fn list(n: usize, each: fn(usize) -> String) -> String {
        format!("[{}]", (0..n).map(each).collect::<Vec<_>>().join(",\n"))
    }

    #[test]
    fn every_large_section_is_walked_not_held_whole() {
        let n = 7000; // about 4 MB a section
        let resources = list(n, resource);
        let sections = [
            (
                "resource_changes",
                format!(r#""resource_changes": {}"#, list(n, change)),
            ),
            (
                "resource_drift",
                format!(
                    r#""resource_drift": {}, "resource_changes": []"#,
                    list(n, change)
                ),
            ),
            (
                "prior_state resources",
                format!(
                    r#""prior_state": {{"values": {{"root_module": {{"resources": {resources}}}}}}}, "resource_changes": []"#
                ),
            ),
            (
                "prior_state child_modules",
                format!(
                    r#""prior_state": {{"values": {{"root_module": {{"child_modules": [{{"address": "module.m", "child_modules": [{{"resources": {resources}}}]}}]}}}}}}, "resource_changes": []"#
                ),
            ),
            (
                "a skipped object",
                format!(
                    r#""planned_values": {{"root_module": {{"resources": {resources}}}}}, "resource_changes": []"#
                ),
            ),
            (
                "a skipped array",
                format!(r#""zz": {resources}, "resource_changes": []"#),
            ),
        ];
        for (what, body) in sections {
            let text = format!(r#"{{"format_version": "1.2", {body}}}"#);
            assert!(text.len() > 4 * SKIP_WHOLE, "{what}: {}", text.len());
            let mut w = walker(text.as_bytes());
            let mut acc = Acc::default();
            document(&mut w, &mut acc, None).unwrap_or_else(|f| panic!("{what}: {f:?}"));
            let read = acc.changes.len() + acc.drift.len() + acc.state_types.len();
            assert_eq!(
                read > 0,
                !what.starts_with("a skipped"),
                "{what}: {read} read"
            );
            // What the module says stays bounded (an entry, or at most `SKIP_WHOLE` of a
            // skipped container, and a block), with the buffer's growth by doubling.
            assert!(
                w.buf.capacity() <= 2 * (SKIP_WHOLE + 2 * BLOCK),
                "{what}: {} bytes buffered of {}",
                w.buf.capacity(),
                text.len()
            );
        }
    }

    /// A skipped value longer than the one pass's first try (and so than `SKIP_WHOLE`) is
    /// walked child by child: accepted when it is valid, and a key it repeats at its end is
    /// found where it is.
    #[test]
    fn a_value_past_the_first_try_is_walked_and_checked() {
        let member = r#"{"k": "0123456789abcdef", "n": [1, 2, 3]}"#;
        let list = vec![member; 3 * FIRST_TRY / member.len()].join(", ");
        for tail in ["", r#", "a": 1, "a": 2"#] {
            let text = format!(
                r#"{{"format_version": "1.2", "zz": {{"list": [{list}]{tail}}}, "resource_changes": []}}"#
            );
            assert!(text.len() > 2 * SKIP_WHOLE);
            let mut w = walker(text.as_bytes());
            let got = document(&mut w, &mut Acc::default(), None);
            match (tail.is_empty(), got) {
                (true, Ok(())) => {}
                (false, Err(Fail::Duplicate { offset, .. })) => {
                    let second = text.rfind(r#""a""#).unwrap() as u64;
                    assert_eq!(offset, second);
                }
                (_, other) => panic!("{tail:?}: {other:?}"),
            }
        }
    }

    /// Where serde_json, parsing all of `bytes` as one value, first fails.
    fn whole_offset(bytes: &[u8]) -> u64 {
        let e = serde_json::from_slice::<IgnoredAny>(bytes).unwrap_err();
        assert_eq!(e.line(), 1);
        e.column() as u64 - 1
    }

    #[test]
    fn an_escape_cut_by_its_closing_quote_is_told_by_what_follows_however_it_is_read() {
        // serde_json wants the four digits of `\u` before it looks at them: with the closing
        // quote at the end of what is read, it says "EOF"; what follows says "invalid escape".
        for text in [
            &br#"["\u", 1, 2, 3]"#[..],
            br#"["\u1", 1, 2]"#,
            br#"{"\u": 1, "a": 2}"#,
            br#""\u" 1234"#,
        ] {
            let at = whole_offset(text);
            for step in [1, 2, 3, 1 << 20] {
                let mut w = trickle(text, step);
                if w.peek().unwrap() != Some(b'"') {
                    w.open().unwrap();
                }
                match w.parse_one::<String>() {
                    Err(Fail::Json { offset, what }) => {
                        assert_eq!(offset, at, "{}: {what}", String::from_utf8_lossy(text));
                        assert!(what.starts_with("invalid escape"), "{what}");
                    }
                    other => panic!("{}, step {step}: {other:?}", String::from_utf8_lossy(text)),
                }
            }
        }
        // The quote the last byte of a block, deep into it: what follows is read from the next.
        let mut text = b"[".to_vec();
        text.resize(BLOCK - 4, b' ');
        text.extend_from_slice(br#""\u", 1, 2]"#);
        let at = whole_offset(&text);
        let mut w = trickle(&text, BLOCK);
        w.peek().unwrap();
        w.open().unwrap();
        match w.parse_one::<String>() {
            Err(Fail::Json { offset, .. }) => assert_eq!(offset, at),
            other => panic!("{other:?}"),
        }
        // At the input's end it is a truncated file.
        let mut w = trickle(br#"["\u"#, 1);
        w.peek().unwrap();
        w.open().unwrap();
        assert!(matches!(w.parse_one::<String>(), Err(Fail::Eof)));
    }

    #[test]
    fn a_number_cut_by_a_read_is_read_whole() {
        // Numbers are framed, not parsed from a buffer that may end inside them.
        for step in [1, 2, 3, 4, 1 << 20] {
            let mut w = trickle(b"[12345678, 9]", step);
            w.peek().unwrap();
            w.open().unwrap();
            assert_eq!(w.parse_one::<u64>().unwrap(), 12_345_678, "step {step}");
        }
    }

    #[test]
    fn a_value_in_the_buffer_is_read_in_one_pass() {
        // `try_one` takes what ends within the buffer, a value with more brackets than levels
        // are left among them (brackets in strings count until the scan says otherwise).
        let brackets = format!("[\"{}\", [[[1]]]]", "[".repeat(200));
        for text in ["[1, 2]", "{\"a\": [1]}", "\"s\"", brackets.as_str()] {
            let mut w = walker(text.as_bytes());
            w.peek().unwrap();
            let v: Option<serde_json::Value> = w.try_one().unwrap().map(|(v, _)| v);
            assert!(v.is_some(), "{text}");
            assert_eq!(w.here() as usize, text.len());
        }
        // Not a container or string, or cut by the buffer's end: the framed way.
        for (text, step) in [("12", 1 << 20), ("true", 1 << 20), ("[1, 2]", 3)] {
            let mut w = trickle(text.as_bytes(), step);
            w.peek().unwrap();
            let v: Option<serde_json::Value> = w.try_one().unwrap().map(|(v, _)| v);
            assert!(v.is_none(), "{text}");
            assert_eq!(w.here(), 0);
        }
    }

    #[test]
    fn a_walked_container_may_open_the_last_level_and_no_more() {
        for (open, ok) in [(0, true), (MAX_DEPTH - 1, true), (MAX_DEPTH, false)] {
            let mut w = walker(b"  [1]");
            w.depth = open;
            w.peek().unwrap();
            match w.open() {
                Ok(()) => assert!(ok, "{open}"),
                Err(Fail::TooDeep(2)) => assert!(!ok, "{open}"),
                Err(other) => panic!("{open}: {other:?}"),
            }
        }
        // Through the walk: a skipped section nested to the limit, each level longer than the
        // reader checks as one slice, so that every level is entered by `open`.
        let long = format!("\"{}\"", "x".repeat(4000));
        let big = format!("[{}]", vec![long; SKIP_WHOLE / 4000 + 10].join(","));
        // A document `levels` deep: its own object, then `zz`'s brackets around `big`.
        let nested = |levels: usize| {
            format!(
                r#"{{"format_version": "1.2", "resource_changes": [], "zz": {}{big}{}}}"#,
                "[".repeat(levels - 2),
                "]".repeat(levels - 2)
            )
        };
        for levels in [MAX_DEPTH - 1, MAX_DEPTH] {
            let text = nested(levels as usize);
            let mut w = walker(text.as_bytes());
            let mut acc = Acc::default();
            document(&mut w, &mut acc, None).unwrap_or_else(|f| panic!("{levels}: {f:?}"));
        }
        // One level more than allowed: refused at `big`'s bracket.
        let text = nested(MAX_DEPTH as usize + 1);
        let at = text.find(&big).unwrap() as u64;
        let mut w = walker(text.as_bytes());
        match document(&mut w, &mut Acc::default(), None) {
            Err(Fail::TooDeep(offset)) => assert_eq!(offset, at),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_walked_container_closes_the_level_it_opened() {
        for text in [
            "{}",
            "[]",
            "{\"a\": 1}",
            "[1, 2]",
            "{\"a\": {}, \"b\": []}",
            "[[], {}, [1]]",
        ] {
            for open in [0, 5] {
                let mut w = walker(text.as_bytes());
                w.depth = open;
                w.peek().unwrap();
                if text.starts_with('{') {
                    w.object(&mut |w, _| w.skip()).unwrap();
                } else {
                    w.array(&mut |w| w.skip()).unwrap();
                }
                assert_eq!(w.depth, open, "{text}");
                assert_eq!(w.here() as usize, text.len(), "{text}");
                w.end().unwrap();
            }
        }
        // Nested walks: each inner container walked, not skipped as a slice.
        let mut w = walker(b"{\"a\": {}, \"b\": [[], {\"c\": []}]}");
        w.peek().unwrap();
        let mut depths = Vec::new();
        fn walk(w: &mut Walker<&[u8]>, depths: &mut Vec<u32>) -> Result<(), Fail> {
            let before = w.depth;
            let r = match w.peek_some()? {
                b'{' => w.object(&mut |w, _| walk(w, depths)),
                b'[' => w.array(&mut |w| walk(w, depths)),
                _ => w.skip(),
            };
            depths.push(w.depth);
            assert_eq!(w.depth, before);
            r
        }
        walk(&mut w, &mut depths).unwrap();
        assert_eq!(depths, [1, 2, 3, 2, 1, 0]);
    }

    #[test]
    fn a_value_read_in_one_pass_keeps_the_depth_limit_for_objects_and_arrays() {
        // Below serde_json's own limit, so only the walk's count can refuse it.
        for (open, close) in [("{\"a\":", "}"), ("[", "]")] {
            for (levels, ok) in [(118, true), (119, false)] {
                let text = format!("{}1{}", open.repeat(levels), close.repeat(levels));
                let mut w = walker(text.as_bytes());
                w.depth = 10;
                w.peek().unwrap();
                match w.parse_one::<serde_json::Value>() {
                    Ok(_) => assert!(ok, "{open} {levels}"),
                    Err(Fail::TooDeep(_)) => assert!(!ok, "{open} {levels}"),
                    Err(other) => panic!("{open} {levels}: {other:?}"),
                }
            }
        }
    }

    /// A reader interrupted before every read that returns bytes.
    struct Interrupted<'a> {
        inner: Trickle<'a>,
        next: bool,
    }

    impl Read for Interrupted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.next = !self.next;
            if self.next {
                return Err(io::Error::from(io::ErrorKind::Interrupted));
            }
            self.inner.read(buf)
        }
    }

    #[test]
    fn an_interrupted_read_is_retried() {
        let text = lines_array(50);
        let mut w = Walker::new(
            Interrupted {
                inner: Trickle {
                    rest: &text,
                    step: 1000,
                },
                next: false,
            },
            Decode::Plain,
            0,
        );
        w.peek().unwrap();
        let mut n = 0;
        w.array(&mut |w| {
            n += 1;
            w.skip()
        })
        .unwrap();
        assert_eq!(n, 50);
        w.end().unwrap();
    }

    #[test]
    fn a_large_top_level_array_is_judged_by_its_first_element() {
        // A UI log or any array: refused from the first element, not read whole.
        let text = list(7000, resource);
        let mut w = walker(text.as_bytes());
        let mut acc = Acc::default();
        assert!(matches!(document(&mut w, &mut acc, None), Err(Fail::Stop)));
        assert!(matches!(
            acc.problem,
            Some(parse::Semantic::NotAnObject("an array"))
        ));
        assert!(
            w.buf.capacity() <= 2 * (SKIP_WHOLE + 2 * BLOCK),
            "{}",
            w.buf.capacity()
        );
    }

    #[test]
    fn a_state_resource_is_read_in_one_pass_as_the_walk_reads_it() {
        let plain = r#"{"address":"a.b","mode":"managed","type":"a","name":"b","index":0,
            "provider_name":"registry.terraform.io/x/a","schema_version":1,
            "values":{"id":"x","tags":{"k":"v"},"list":[1,2.5e3,null,true]},
            "sensitive_values":{},"depends_on":["c.d"]}, "#;
        for text in [plain, r#"{"mode":null,"type":"a"}"#, r#"{}"#] {
            assert!(entry::state_resource(text, 3, 1 << 20).is_some());
            state_resource_agrees_with_walk(text, 3).unwrap();
        }
        let (r, len) = entry::state_resource(plain, 3, 1 << 20).unwrap();
        assert_eq!(&plain[len..], ", ");
        assert_eq!(
            (
                r.mode.as_deref(),
                r.type_name.as_deref(),
                r.provider_name.as_deref()
            ),
            (
                Some("managed"),
                Some("a"),
                Some("registry.terraform.io/x/a")
            )
        );
        // Left to the walk, which words the error or decodes the key: a key twice (at the
        // resource's level and deep in its values), a key with an escape, bad JSON, cut short,
        // longer than the budget, too deep.
        for text in [
            r#"{"mode":"managed","mode":"data","type":"a"}"#,
            r#"{"type":"a","values":{"x":1,"x":2}}"#,
            r#"{"typ\u0065":"a"}"#,
            r#"{"type":"a","values":01}"#,
            r#"{"type":"a","values":{"x":tru"#,
            r#"{"type":"a","mode":5}"#,
        ] {
            assert!(entry::state_resource(text, 3, 1 << 20).is_none(), "{text}");
        }
        assert!(entry::state_resource(plain, 3, 100).is_none());
        assert!(entry::state_resource(plain, MAX_DEPTH - 2, 1 << 20).is_none());
        assert!(entry::state_resource(plain, MAX_DEPTH - 3, 1 << 20).is_some());
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 3000,
            .. proptest::prelude::ProptestConfig::default()
        })]

        /// Whatever the one pass reads of a state resource (shuffled known keys and others,
        /// values from the reader's generated JSON, perhaps a byte replaced), the walk reads
        /// key by key the same.
        #[test]
        fn a_state_resource_in_one_pass_agrees_with_the_walk(
            members in proptest::collection::vec(
                (
                    proptest::sample::select(vec![
                        "mode", "type", "provider_name", "values", "index", "other",
                    ]),
                    proptest::prop_oneof![
                        3 => crate::unique::tests::text(),
                        1 => proptest::sample::select(vec![
                            "\"managed\"", "\"a\"", "null", "0", "[1e999]", "\"\\ud800\"",
                        ]).prop_map(str::to_string),
                    ],
                ),
                0..6,
            ),
            broken in proptest::option::of((0u16.., 0u8..128)),
            depth in proptest::prop_oneof![0u32..4, 118u32..129],
        ) {
            let mut text = format!(
                "{{{}}}, ",
                members
                    .iter()
                    .map(|(k, v)| format!("\"{k}\":{v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            if let Some((at, byte)) = broken {
                let at = usize::from(at) % text.len();
                if text.is_char_boundary(at) && text.is_char_boundary(at + 1) {
                    text.replace_range(at..at + 1, &char::from(byte).to_string());
                }
            }
            if let Err(e) = state_resource_agrees_with_walk(&text, depth) {
                proptest::prop_assert!(false, "{}", e);
            }
        }
    }
}
