//! Fuzz target: the files ward-gate reads. The first byte picks the reader, the rest is the
//! file's text: even: the approvals file (`.ward/approvals.json`); odd: the protection record
//! (`.ward/protection.json`). Any text gives a value or an error, never a panic; and what
//! reads round-trips: the file ward would write back (`approvals::render`,
//! `protect::render_record`) reads as the same value, and writing it again gives the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ward_gate::{approvals, protect};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if pick % 2 == 0 {
        let Ok(f) = approvals::parse(text, "approvals.json") else {
            return;
        };
        let written = approvals::render(&f);
        let again = match approvals::parse(&written, "approvals.json") {
            Ok(a) => a,
            Err(e) => panic!("the approvals ward writes do not read back: {e}\n{written}"),
        };
        let mut sorted = f.clone();
        approvals::sort(&mut sorted);
        assert_eq!(
            again, sorted,
            "the approvals changed on the way through the file"
        );
        assert_eq!(approvals::render(&again), written, "writing twice differs");
    } else {
        let Ok(r) = protect::parse_record(text, "protection.json") else {
            return;
        };
        let written = protect::render_record(&r);
        let again = match protect::parse_record(&written, "protection.json") {
            Ok(a) => a,
            Err(e) => panic!("the record ward writes does not read back: {e}\n{written}"),
        };
        let mut sorted = r.clone();
        sorted.protected.sort();
        assert_eq!(
            again, sorted,
            "the record changed on the way through the file"
        );
        assert_eq!(
            protect::render_record(&again),
            written,
            "writing twice differs"
        );
    }
});
