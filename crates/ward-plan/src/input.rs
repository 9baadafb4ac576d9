//! Input handling: sniffing the first bytes (binary plan, encodings, empty input) and handing
//! the rest to the walk ([`crate::walk::Walker`]), decoded to UTF-8 when needed.

use crate::error::{PlanError, PlanErrorKind, HOW_TO_MAKE_A_PLAN};
use crate::walk::{Decode, Walker};
use std::io::{self, Chain, Cursor, Read};

/// How many bytes are looked at before parsing starts.
const HEAD: usize = 8 * 1024;

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

/// The deepest array/object nesting accepted. The walk enforces it everywhere, also in the
/// parts it skips.
pub(crate) const MAX_DEPTH: u32 = 128;

/// What [`prepare`] hands the parser.
pub(crate) struct Prepared<R: Read> {
    /// The JSON text, ready to walk.
    pub walker: Walker<Head<R>>,
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
            return Err(blank(name, body.is_empty()));
        }
        if let Err(e) = std::str::from_utf8(body) {
            // An error at the very end may just be a character cut by the head's length.
            if e.error_len().is_some() {
                return Err(invalid_utf8(name, (skip + e.valid_up_to()) as u64));
            }
        }
    }

    let mut rest = Cursor::new(head).chain(reader);
    let decode = match encoding {
        Encoding::Utf8 => {
            if skip > 0 {
                let mut bom = [0u8; 3];
                rest.read_exact(&mut bom)
                    .map_err(|e| read_error(name, &e))?;
            }
            Decode::Plain
        }
        // The decoder removes the byte order mark itself, so offsets count the file's bytes.
        Encoding::Utf16Le => Decode::Utf16(Box::new(
            encoding_rs::UTF_16LE.new_decoder_with_bom_removal(),
        )),
        Encoding::Utf16Be => Decode::Utf16(Box::new(
            encoding_rs::UTF_16BE.new_decoder_with_bom_removal(),
        )),
    };
    Ok(Prepared {
        walker: Walker::new(rest, decode, skip as u64),
        encoding,
    })
}

/// An input that is empty (`nothing`) or holds only whitespace, however long: no plan step
/// wrote to it.
pub(crate) fn blank(name: &str, nothing: bool) -> PlanError {
    PlanError::new(
        name,
        PlanErrorKind::Empty,
        if nothing {
            "the input is empty"
        } else {
            "the input holds only whitespace"
        },
        format!("a redirect may have failed or the plan step did not run; {HOW_TO_MAKE_A_PLAN}"),
    )
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
