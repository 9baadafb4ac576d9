//! What the first bytes decide (input.rs): whitespace-only input past the first kilobyte, UTF-16
//! without a byte order mark in both byte orders, inputs too short to sniff, offsets after a
//! UTF-8 byte order mark, and how a failing or interrupted reader is told apart.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::io::{self, Read};
use ward_plan::{read_reader, PlanErrorKind};

fn plan_text() -> String {
    json!({
        "format_version": "1.2",
        "planned_values": {"root_module": {}},
        "resource_changes": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b",
            "change": {"actions": ["create"], "before": null, "after": {"k": "é"}}}]
    })
    .to_string()
}

/// Whitespace-only input is empty input however long it is: within the first 8 KiB the reader
/// sniffs, and past them, where the walk finds it (it said "truncated" there before), in UTF-8
/// with or without a byte order mark and in UTF-16.
#[test]
fn whitespace_only_input_is_empty() {
    for n in [
        1,
        1_000,
        1_100,
        5_000,
        8 * 1024 - 1,
        8 * 1024,
        8 * 1024 + 1,
        9_000,
        1 << 20,
    ] {
        let e = read_reader(" ".repeat(n).as_bytes(), "ws.json").unwrap_err();
        assert_eq!(e.kind(), PlanErrorKind::Empty, "{n} spaces: {e}");
        assert!(e.to_string().contains("only whitespace"), "{e}");
        let bom = [b"\xEF\xBB\xBF".as_slice(), " ".repeat(n).as_bytes()].concat();
        let e = read_reader(&bom[..], "ws.json").unwrap_err();
        assert_eq!(e.kind(), PlanErrorKind::Empty, "a mark and {n} spaces: {e}");
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(" ".repeat(n).encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let e = read_reader(&utf16[..], "ws.json").unwrap_err();
        assert_eq!(e.kind(), PlanErrorKind::Empty, "{n} UTF-16 spaces: {e}");
        assert!(e.to_string().contains("only whitespace"), "{e}");
    }
}

#[test]
fn utf16_without_a_byte_order_mark_is_decoded_in_either_byte_order() {
    let text = plan_text();
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let utf8 = read_reader(text.as_bytes(), "plan.json").unwrap();
    for bytes in [le, be] {
        let plan = read_reader(&bytes[..], "plan.json").unwrap();
        assert_eq!(plan.changes, utf8.changes);
        assert_eq!(plan.reader_notes.len(), 1, "{:?}", plan.reader_notes);
        assert!(plan.reader_notes[0].contains("UTF-16"));
    }
}

#[test]
fn inputs_too_short_to_sniff_get_an_error_not_a_panic() {
    for (bytes, kind) in [
        (&b"7"[..], PlanErrorKind::NotAPlan),
        (b"{", PlanErrorKind::Truncated { offset: 1 }),
        (b"\0", PlanErrorKind::InvalidJson { offset: 0 }),
    ] {
        let e = read_reader(bytes, "short.json").unwrap_err();
        assert_eq!(e.kind(), kind, "{bytes:?}: {e}");
    }
}

#[test]
fn an_offset_after_a_utf8_byte_order_mark_counts_the_mark() {
    let mut bytes = b"\xEF\xBB\xBF{\"format_version\": \"1.".to_vec();
    let at = bytes.len() as u64;
    bytes.extend_from_slice(b"\xff\"}");
    let e = read_reader(&bytes[..], "bom.json").unwrap_err();
    assert_eq!(e.kind(), PlanErrorKind::InvalidUtf8 { offset: at });
}

/// Hands out `data` in small reads, failing with `fail` once before the first byte.
struct Flaky {
    data: Vec<u8>,
    at: usize,
    fail: Option<io::ErrorKind>,
}

impl Read for Flaky {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(kind) = self.fail.take() {
            return Err(io::Error::new(kind, "the reader says no"));
        }
        let n = buf.len().min(7).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn flaky(fail: io::ErrorKind) -> Flaky {
    Flaky {
        data: plan_text().into_bytes(),
        at: 0,
        fail: Some(fail),
    }
}

#[test]
fn an_interrupted_read_is_retried() {
    let plan = read_reader(flaky(io::ErrorKind::Interrupted), "plan.json").unwrap();
    assert_eq!(plan.changes.len(), 1);
}

#[test]
fn a_failed_read_says_why() {
    let e = read_reader(flaky(io::ErrorKind::PermissionDenied), "plan.json").unwrap_err();
    assert_eq!(e.kind(), PlanErrorKind::Unreadable);
    assert!(e.problem().starts_with("the file cannot be read: "), "{e}");
    assert!(e.help().contains("permissions"), "{e}");
    let e = read_reader(flaky(io::ErrorKind::UnexpectedEof), "plan.json").unwrap_err();
    assert_eq!(e.kind(), PlanErrorKind::Unreadable);
    assert!(e.problem().starts_with("reading the input failed: "), "{e}");
    let e = read_reader(flaky(io::ErrorKind::NotFound), "plan.json").unwrap_err();
    assert_eq!(e.kind(), PlanErrorKind::NotFound);
    // A directory opened as a file fails on its first read.
    let dir = tempfile::tempdir().unwrap();
    let file = std::fs::File::open(dir.path()).unwrap();
    let e = read_reader(file, "dir").unwrap_err();
    assert_eq!(e.kind(), PlanErrorKind::IsDirectory, "{e}");
}

/// A UTF-16 plan several times the reader's 256 KiB block: decoded block by block, it reads as
/// its UTF-8 twin does, and a lone surrogate far into it is refused at its own byte offset (the
/// offset counts every block decoded before it).
#[test]
fn a_large_utf16_plan_is_decoded_block_by_block() {
    let pad = "é".repeat(450_000);
    let text = json!({
        "format_version": "1.2",
        "planned_values": {"root_module": {}},
        "resource_changes": [{"address": "a.b", "mode": "managed", "type": "a", "name": "b",
            "change": {"actions": ["update"], "before": {"k": "MARK", "pad": pad},
                "after": {"k": "é", "pad": pad}}}]
    })
    .to_string();
    let utf8 = read_reader(text.as_bytes(), "plan.json").unwrap();
    let units: Vec<u16> = text.encode_utf16().collect();
    assert!(units.len() * 2 > 6 * 256 * 1024, "{}", units.len());
    for le in [true, false] {
        let encode =
            |units: &[u16]| -> Vec<u8> {
                let bom: [u8; 2] = if le { [0xFF, 0xFE] } else { [0xFE, 0xFF] };
                bom.into_iter()
                    .chain(units.iter().flat_map(|u| {
                        if le {
                            u.to_le_bytes()
                        } else {
                            u.to_be_bytes()
                        }
                    }))
                    .collect()
            };
        let plan = read_reader(&encode(&units)[..], "plan.json").unwrap();
        assert_eq!(plan.changes, utf8.changes);
        // The `M` of MARK (after the first pad, past three blocks) becomes a lone surrogate.
        let m = text.rfind("MARK").unwrap();
        let unit = text[..m].encode_utf16().count();
        let mut bad = units.clone();
        bad[unit] = 0xDC00;
        let at = 2 + 2 * unit as u64;
        assert!(at > 3 * 256 * 1024, "{at}");
        let e = read_reader(&encode(&bad)[..], "plan.json").unwrap_err();
        assert_eq!(e.kind(), PlanErrorKind::InvalidUtf16 { offset: at }, "{e}");
    }
}
