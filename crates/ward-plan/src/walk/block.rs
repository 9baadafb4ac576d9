//! Reading the input block by block into the walk's checked text: each block read into
//! the pending bytes (decoded first when the input is UTF-16), then moved to the text as far as
//! it is UTF-8.

use super::{Decode, Fail, Walker, BLOCK};
use std::io::{self, Read};

impl<R: Read> Walker<R> {
    /// Reads one block of the input into the pending bytes (the end of the input: none).
    pub(super) fn read_block(&mut self) -> Result<(), Fail> {
        match &mut self.decode {
            Decode::Plain => {
                let (at, end) = (self.pending_len, self.pending_len + BLOCK);
                if self.pending.len() < end {
                    self.pending.resize(end, 0);
                }
                let n = read_some(&mut self.src, &mut self.pending[at..end])?;
                self.pending_len += n;
                if n == 0 {
                    self.eof = true;
                }
            }
            Decode::Utf16(decoder) => {
                let old = self.raw.len();
                self.raw.resize(old + BLOCK, 0);
                let n = read_some(&mut self.src, &mut self.raw[old..])?;
                self.raw.truncate(old + n);
                let last = n == 0;
                let out = self.pending_len;
                let room = decoder
                    .max_utf8_buffer_length_without_replacement(self.raw.len())
                    .unwrap_or(3 * self.raw.len() + 16);
                if self.pending.len() < out + room {
                    self.pending.resize(out + room, 0);
                }
                let (result, read, written) = decoder.decode_to_utf8_without_replacement(
                    &self.raw,
                    &mut self.pending[out..out + room],
                    last,
                );
                self.pending_len = out + written;
                if let encoding_rs::DecoderResult::Malformed(bad, after) = result {
                    // The bad sequence and what followed it are within what was read.
                    let back = u64::from(after) + u64::from(bad);
                    let at = (self.raw_done + read as u64).saturating_sub(back);
                    return Err(Fail::Utf16(at));
                }
                self.raw.drain(..read);
                self.raw_done += read as u64;
                if last {
                    self.eof = true;
                }
            }
        }
        Ok(())
    }

    /// Moves the pending bytes to the checked text, stopping at the first one that is not
    /// UTF-8.
    pub(super) fn validate(&mut self) {
        if self.bad.is_some() {
            return;
        }
        let new = &self.pending[..self.pending_len];
        let valid = match simdutf8::compat::from_utf8(new) {
            Ok(text) => {
                self.buf.push_str(text);
                new.len()
            }
            Err(e) => {
                let valid = e.valid_up_to();
                if let Some(text) = new
                    .get(..valid)
                    .and_then(|b| simdutf8::basic::from_utf8(b).ok())
                {
                    self.buf.push_str(text);
                }
                // A character cut by the block's end is completed by the next block.
                if e.error_len().is_some() || self.eof {
                    self.bad = Some(self.offset_at(self.buf.len()));
                }
                valid
            }
        };
        self.pending.copy_within(valid..self.pending_len, 0);
        self.pending_len -= valid;
    }
}

/// Reads into `buf`, retrying on interruption.
fn read_some<R: Read>(src: &mut R, buf: &mut [u8]) -> Result<usize, Fail> {
    loop {
        match src.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Fail::Io(e)),
        }
    }
}
