//! Input handling: sniffing the first bytes (binary plan, encodings, empty input) and a buffered,
//! byte-counting reader for the JSON parser.

use crate::error::{PlanError, PlanErrorKind, HOW_TO_MAKE_A_PLAN};
use encoding_rs_io::{DecodeReaderBytes, DecodeReaderBytesBuilder};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufReader, Chain, Cursor, Read};
use std::rc::Rc;

/// How many bytes are looked at before parsing starts.
const HEAD: usize = 8 * 1024;
/// The parser's read buffer.
const BUFFER: usize = 64 * 1024;

/// How the input is encoded, as told by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// UTF-8 (a UTF-8 byte order mark is skipped).
    Utf8,
    /// UTF-16 little endian, decoded on the fly.
    Utf16Le,
    /// UTF-16 big endian, decoded on the fly.
    Utf16Be,
}

type Head<R> = Chain<Cursor<Vec<u8>>, R>;

/// The raw input, decoded to UTF-8 when needed.
pub(crate) enum Source<R: Read> {
    Plain(Head<R>),
    Decoded(Box<DecodeReaderBytes<Head<R>, Vec<u8>>>),
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Plain(r) => r.read(buf),
            Source::Decoded(r) => r.read(buf),
        }
    }
}

/// Where lines start, for turning the parser's line/column into a byte offset. Only the
/// recent past is kept: the parser is never more than one buffer behind the reads.
#[derive(Debug)]
pub(crate) struct LineIndex {
    /// Bytes read from the source so far.
    total: u64,
    /// Newlines seen so far.
    newlines: u64,
    /// (line number, offset of its first byte) for recent lines, oldest first; the first
    /// entry is the last line that started before the window.
    starts: VecDeque<(u64, u64)>,
    /// Structural scan: inside a string, after a backslash, array/object depth.
    in_string: bool,
    escaped: bool,
    depth: u32,
    /// Where nesting first went past [`MAX_DEPTH`].
    too_deep_at: Option<u64>,
}

/// The deepest array/object nesting accepted, as serde_json's own recursion limit. The scan
/// enforces it everywhere, also in the parts the parser skips without recursion.
pub(crate) const MAX_DEPTH: u32 = 128;

/// Byte classes for the structural scan: 0 = nothing to do.
const QUOTE: u8 = 1;
const BACKSLASH: u8 = 2;
const OPEN: u8 = 3;
const CLOSE: u8 = 4;
const NEWLINE: u8 = 5;
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = QUOTE;
    t[b'\\' as usize] = BACKSLASH;
    t[b'[' as usize] = OPEN;
    t[b'{' as usize] = OPEN;
    t[b']' as usize] = CLOSE;
    t[b'}' as usize] = CLOSE;
    t[b'\n' as usize] = NEWLINE;
    t
};

/// How far back line starts are remembered (several parser buffers).
const WINDOW: u64 = 4 * BUFFER as u64;

impl LineIndex {
    fn new() -> Self {
        LineIndex {
            total: 0,
            newlines: 0,
            starts: VecDeque::from([(1, 0)]),
            in_string: false,
            escaped: false,
            depth: 0,
            too_deep_at: None,
        }
    }

    /// Indexes line starts and tracks nesting depth (outside strings) over the next bytes.
    /// Returns false when the nesting limit is passed.
    fn record(&mut self, chunk: &[u8]) -> bool {
        for (i, b) in chunk.iter().enumerate() {
            let class = CLASS[*b as usize];
            if class == 0 {
                self.escaped = false;
                continue;
            }
            if class == NEWLINE {
                self.newlines += 1;
                self.starts
                    .push_back((self.newlines + 1, self.total + i as u64 + 1));
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if class == BACKSLASH {
                    self.escaped = true;
                } else if class == QUOTE {
                    self.in_string = false;
                }
                continue;
            }
            match class {
                QUOTE => self.in_string = true,
                OPEN => {
                    self.depth += 1;
                    if self.depth > MAX_DEPTH {
                        self.too_deep_at = Some(self.total + i as u64);
                        self.total += i as u64;
                        return false;
                    }
                }
                CLOSE => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
        self.total += chunk.len() as u64;
        while self.starts.len() > 1 && self.starts[1].1.saturating_add(WINDOW) < self.total {
            self.starts.pop_front();
        }
        true
    }

    /// Where nesting first went past [`MAX_DEPTH`], if it did.
    pub(crate) fn too_deep_at(&self) -> Option<u64> {
        self.too_deep_at
    }

    /// Bytes read from the source so far (the end of the input, once it is all read).
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// The byte offset of 1-based `line`, `column` (serde_json counts columns in bytes).
    pub(crate) fn offset(&self, line: usize, column: usize) -> u64 {
        let line = line as u64;
        match self.starts.iter().find(|(l, _)| *l == line) {
            Some((_, start)) => start + (column as u64).saturating_sub(1),
            None => self.total,
        }
    }
}

/// The source, counting and indexing what is read from it. It sits below the parser's
/// `BufReader`, so the per-byte path stays `BufReader`'s own fast path.
pub(crate) struct Counted<R: Read> {
    inner: Source<R>,
    index: Rc<RefCell<LineIndex>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.index.borrow_mut().record(&buf[..n]) {
            Ok(n)
        } else {
            Err(io::Error::other("JSON nesting too deep"))
        }
    }
}

/// What [`prepare`] hands the parser.
pub(crate) struct Prepared<R: Read> {
    /// The JSON text, buffered.
    pub reader: BufReader<Counted<R>>,
    /// Line starts and bytes read, shared with `reader`.
    pub index: Rc<RefCell<LineIndex>>,
    /// How the input was encoded.
    pub encoding: Encoding,
}

/// Reads the first bytes, refuses what is clearly not plan JSON, and returns a reader
/// positioned at the start of the (decoded) JSON text, plus the encoding found.
pub(crate) fn prepare<R: Read>(mut reader: R, name: &str) -> Result<Prepared<R>, PlanError> {
    let mut head = Vec::with_capacity(HEAD);
    let mut eof = false;
    let mut chunk = [0u8; 1024];
    while head.len() < HEAD {
        match reader.read(&mut chunk) {
            Ok(0) => {
                eof = true;
                break;
            }
            Ok(n) => head.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(read_error(name, &e)),
        }
    }

    if head.starts_with(b"PK\x03\x04") {
        return Err(PlanError::new(
            name,
            PlanErrorKind::BinaryPlan,
            "this is a binary plan file (the zip archive `terraform plan -out` writes), not JSON",
            "run `terraform show -json PLANFILE > plan.json` (or `tofu show -json PLANFILE`) \
             and give ward plan.json",
        ));
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        return Err(PlanError::new(
            name,
            PlanErrorKind::NotAPlan,
            "this is a gzip-compressed file, not JSON",
            "decompress it first (`gunzip -c FILE > plan.json`), then give ward plan.json",
        ));
    }

    let (encoding, skip) = if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        (Encoding::Utf8, 3)
    } else if head.starts_with(&[0xFF, 0xFE]) {
        (Encoding::Utf16Le, 0)
    } else if head.starts_with(&[0xFE, 0xFF]) {
        (Encoding::Utf16Be, 0)
    } else if head.len() >= 2 && head[0] != 0 && head[1] == 0 {
        // `{\0"\0`: UTF-16LE without a byte order mark.
        (Encoding::Utf16Le, 0)
    } else if head.len() >= 2 && head[0] == 0 && head[1] != 0 {
        (Encoding::Utf16Be, 0)
    } else {
        (Encoding::Utf8, 0)
    };

    if encoding == Encoding::Utf8 {
        let body = &head[skip..];
        if eof && body.iter().all(u8::is_ascii_whitespace) {
            return Err(PlanError::new(
                name,
                PlanErrorKind::Empty,
                if body.is_empty() {
                    "the input is empty".to_string()
                } else {
                    "the input holds only whitespace".to_string()
                },
                format!(
                    "a redirect may have failed or the plan step did not run; {HOW_TO_MAKE_A_PLAN}"
                ),
            ));
        }
        if let Err(e) = std::str::from_utf8(body) {
            // An error at the very end may just be a character cut by the head's length.
            if e.error_len().is_some() {
                return Err(invalid_utf8(name, (skip + e.valid_up_to()) as u64));
            }
        }
    }

    let rest = Cursor::new(head).chain(reader);
    let source = match encoding {
        Encoding::Utf8 => {
            let mut plain = rest;
            if skip > 0 {
                let mut bom = [0u8; 3];
                plain
                    .read_exact(&mut bom)
                    .map_err(|e| read_error(name, &e))?;
            }
            Source::Plain(plain)
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let enc = if encoding == Encoding::Utf16Le {
                encoding_rs::UTF_16LE
            } else {
                encoding_rs::UTF_16BE
            };
            Source::Decoded(Box::new(
                DecodeReaderBytesBuilder::new()
                    .encoding(Some(enc))
                    .bom_override(true)
                    .build(rest),
            ))
        }
    };
    let index = Rc::new(RefCell::new(LineIndex::new()));
    Ok(Prepared {
        reader: BufReader::with_capacity(
            BUFFER,
            Counted {
                inner: source,
                index: Rc::clone(&index),
            },
        ),
        index,
        encoding,
    })
}

pub(crate) fn invalid_utf8(name: &str, offset: u64) -> PlanError {
    PlanError::new(
        name,
        PlanErrorKind::InvalidUtf8 { offset },
        format!("the input is not valid UTF-8 (first bad byte at offset {offset})"),
        format!(
            "plan JSON is UTF-8; if the file was re-encoded (e.g. to Latin-1 by an editor or a \
             shell redirect), write it again from the plan: {HOW_TO_MAKE_A_PLAN}"
        ),
    )
}

pub(crate) fn read_error(name: &str, e: &io::Error) -> PlanError {
    match e.kind() {
        io::ErrorKind::NotFound => PlanError::new(
            name,
            PlanErrorKind::NotFound,
            "no such file",
            "check the path; to read the plan from standard input, give `-`",
        ),
        io::ErrorKind::IsADirectory => is_directory(name),
        io::ErrorKind::PermissionDenied => PlanError::new(
            name,
            PlanErrorKind::Unreadable,
            format!("the file cannot be read: {e}"),
            "check the file's permissions (ward only needs to read it)",
        ),
        _ => PlanError::new(
            name,
            PlanErrorKind::Unreadable,
            format!("reading the input failed: {e}"),
            "check that the file is readable and complete, or pipe the plan on standard input with `-`",
        ),
    }
}

pub(crate) fn is_directory(name: &str) -> PlanError {
    PlanError::new(
        name,
        PlanErrorKind::IsDirectory,
        "this is a directory, not a plan file",
        format!("give the path of a plan JSON file; {HOW_TO_MAKE_A_PLAN}"),
    )
}
