//! Values too long to keep: a single huge value costs a budgeted amount, not its size (issue
//! 33, item 13; issue 35, item 2). A string longer than the value budget ([`VALUE_BUDGET`]
//! bytes as written, escapes included) is replaced, while the walk scans it
//! ([`crate::walk::Walker::frame`]), by a stand-in: a short string that names its length, the
//! SHA-256 of its exact bytes as written and its first bytes. Its bytes are hashed and released
//! block by block, so the reader never holds more of it than the budget and a block. Everything
//! after the walk reads the stand-in as the value: two long values differ exactly when their
//! stand-ins do (their digests), so diffs and content digests still differ when the value
//! changes and match when it does not, and what is shown says the value was too long to show.
//!
//! The stand-in starts with `\u0077ard: value too long to show (` as written: `ward` with its
//! `w` escaped, which neither Terraform nor OpenTofu writes (Go's encoder escapes only quotes,
//! backslashes, control characters, `<`, `>`, `&` and U+2028/9). Input that holds that text
//! itself is refused ([`FORGED`]), so a short string cannot pose as a long one.
//!
//! Two strings that are the same value written with other escapes (`A`, `\u0041`) have other
//! digests; Terraform and OpenTofu write a value the same way each time.

use sha2::{Digest, Sha256};

/// The longest string, in bytes as written, read as it is: 1 MiB.
pub const VALUE_BUDGET: usize = 1 << 20;

/// How much of a long string's start the stand-in shows, in bytes as written (whole
/// characters and escapes only).
const PREFIX: usize = 32;

/// What every stand-in starts with, as written after the string's opening quote.
const STAND_IN: &str = r"\u0077ard: value too long to show (";

/// The bytes whose presence in the input marks a forged stand-in (the opening quote and the
/// start of [`STAND_IN`]).
pub(crate) const FORGED: &[u8] = br#""\u0077ard: value too long"#;

/// A long string being replaced: what was hashed of it so far.
pub(crate) struct Long {
    hash: Sha256,
    /// Bytes hashed so far (as written).
    len: u64,
    /// Its first bytes, whole characters and escapes.
    prefix: String,
}

impl Long {
    pub(crate) fn new() -> Self {
        Long {
            hash: Sha256::new(),
            len: 0,
            prefix: String::new(),
        }
    }

    /// Takes the next bytes of the string's content (as written: `content` is valid UTF-8 and
    /// holds whole escapes).
    pub(crate) fn take(&mut self, content: &[u8]) {
        if self.len == 0 {
            let cut = safe_end(&content[..content.len().min(PREFIX)]).unwrap_or(0);
            self.prefix = String::from_utf8_lossy(&content[..cut]).into_owned();
        }
        self.hash.update(content);
        self.len += content.len() as u64;
    }

    /// The stand-in's text, as written between the quotes (valid JSON string content).
    pub(crate) fn stand_in(self) -> String {
        let digest: [u8; 32] = self.hash.finalize().into();
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        format!(
            "{STAND_IN}{} bytes, sha256 {hex}; it starts \\\"{}\\\")",
            self.len, self.prefix
        )
    }
}

/// How many bytes at the start of `content` (a string's content as written, valid UTF-8) are
/// whole characters and whole escapes; `None` when it holds what is not valid in a JSON string
/// (a control character, an unknown escape), which is then left for serde_json to report.
pub(crate) fn safe_end(content: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < content.len() {
        match content[i] {
            0..=0x1f => return None,
            b'\\' => {
                let Some(&e) = content.get(i + 1) else {
                    return Some(i);
                };
                let n = match e {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => 2,
                    b'u' => 6,
                    _ => return None,
                };
                if i + n > content.len() {
                    return Some(i);
                }
                if n == 6 && !content[i + 2..i + 6].iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                i += n;
            }
            b if b < 0x80 => i += 1,
            b => {
                let n = if b >= 0xF0 {
                    4
                } else if b >= 0xE0 {
                    3
                } else {
                    2
                };
                if i + n > content.len() {
                    return Some(i);
                }
                i += n;
            }
        }
    }
    Some(i)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn whole_characters_and_escapes_only() {
        assert_eq!(safe_end(br#"abc"#), Some(3));
        assert_eq!(safe_end(br#"ab\"c"#), Some(5));
        assert_eq!(safe_end(br#"ab\u00"#), Some(2));
        assert_eq!(safe_end(br#"ab\"#), Some(2));
        assert_eq!(safe_end("a\u{e9}".as_bytes()), Some(3));
        assert_eq!(safe_end(&"a\u{e9}".as_bytes()[..2]), Some(1));
        assert_eq!(safe_end(br#"a\x"#), None);
        assert_eq!(safe_end(br#"a\u00zz"#), None);
        assert_eq!(safe_end(b"a\nb"), None);
    }

    #[test]
    fn a_stand_in_is_a_json_string_that_reads_as_it_says() {
        let first = br#"{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\"}"#;
        let mut long = Long::new();
        long.take(first);
        long.take(b"tail");
        let text = format!("\"{}\"", long.stand_in());
        let read: String = serde_json::from_str(&text).unwrap();
        let says = format!(
            "ward: value too long to show ({} bytes, sha256 ",
            first.len() + 4
        );
        assert!(read.starts_with(&says), "{read}");
        // The first 32 bytes as written, whole escapes: read back, the quotes are plain.
        assert!(
            read.ends_with(r#"; it starts "{"Effect":"Allow","Action"")"#),
            "{read}"
        );
        assert!(read.chars().count() <= ward_model::Shown::MAX_STRING);
        assert!(text.as_bytes().starts_with(FORGED));
    }
}
