//! Where a malformed plan's error is: for generated plans of every section the reader walks
//! (changes, drift, prior state down to child modules, large skipped sections walked child by
//! child), each broken at one byte or cut short, the reader's error is the one a whole-document
//! serde_json pass finds first, at the same byte offset, whichever path (one slice, framed,
//! walked) first met the bad byte.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};
use serde::de::IgnoredAny;
use serde_json::{json, Value};
use ward_plan::{read_reader, PlanErrorKind};

/// Values from proptest's deterministic generator: the same on every run.
struct Gen(TestRng);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n
    }

    fn value(&mut self, depth: u32) -> Value {
        match if depth == 0 {
            self.next(3)
        } else {
            self.next(6)
        } {
            0 => Value::String(
                ["a", "\"]}", "\\", "é", "[{", "x y"][..(self.next(6) as usize + 1)].concat(),
            ),
            1 => json!(self.next(1000) as i64 - 500),
            2 => [json!(null), json!(true), json!(1.5e3)][self.next(3) as usize].clone(),
            3 | 4 => Value::Array((0..self.next(4)).map(|_| self.value(depth - 1)).collect()),
            _ => Value::Object(
                (0..self.next(4))
                    .map(|i| (format!("k{i}"), self.value(depth - 1)))
                    .collect(),
            ),
        }
    }

    fn change(&mut self, i: u64) -> Value {
        let actions = [
            json!(["update"]),
            json!(["create"]),
            json!(["delete"]),
            json!(["no-op"]),
            json!(["delete", "create"]),
        ][self.next(5) as usize]
            .clone();
        json!({
            "address": format!("fake_thing.r{i}"), "mode": "managed", "type": "fake_thing",
            "name": format!("r{i}"), "provider_name": "registry.terraform.io/x/fake",
            "change": {"actions": actions, "before": {"v": self.value(3), "n": i},
                "after": {"v": self.value(3), "n": i + 1}, "after_unknown": {},
                "before_sensitive": {}, "after_sensitive": {}}
        })
    }

    /// A plan with every walked section; `big` adds a skipped section longer than the
    /// reader checks as one slice.
    fn plan(&mut self, big: bool) -> Vec<u8> {
        let changes: Vec<Value> = (0..self.next(6)).map(|i| self.change(i)).collect();
        let drift: Vec<Value> = (0..self.next(3)).map(|i| self.change(100 + i)).collect();
        let resources: Vec<Value> = (0..self.next(4))
            .map(|i| {
                json!({"address": format!("fake_thing.s{i}"), "mode": "managed",
                "type": "fake_thing", "name": format!("s{i}"), "values": {"v": self.value(3)}})
            })
            .collect();
        let mut doc = json!({
            "format_version": "1.2",
            "terraform_version": "1.15.5",
            "planned_values": {"root_module": {"resources": [{"values": self.value(4)}]}},
            "resource_drift": drift,
            "resource_changes": changes,
            "prior_state": {"values": {"root_module": {"resources": resources,
                "child_modules": [{"address": "module.m", "resources": [], "child_modules": []}]}}},
            "configuration": {"root_module": {"resources": [], "extra": self.value(4)}},
            "zz_unknown": self.value(4)
        });
        if big {
            let filler: Vec<Value> = (0..6000)
                .map(|i| json!({"i": i, "pad": "p".repeat(200), "v": [i, "]}\""]}))
                .collect();
            doc["configuration"]["filler"] = Value::Array(filler);
        }
        let text = if self.next(2) == 0 {
            serde_json::to_string_pretty(&doc).unwrap()
        } else {
            doc.to_string()
        };
        text.into_bytes()
    }
}

/// Where serde_json, parsing the whole input as one value, first fails: `None` when it parses.
fn whole_error(bytes: &[u8]) -> Option<(bool, u64, String)> {
    let e = serde_json::from_slice::<IgnoredAny>(bytes).err()?;
    let mut at = 0usize;
    for _ in 1..e.line() {
        at += bytes[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
    }
    Some((
        e.is_eof(),
        (at + e.column().saturating_sub(1)) as u64,
        e.to_string(),
    ))
}

#[test]
fn a_broken_byte_is_reported_where_a_whole_document_parse_finds_it() {
    let mut g = Gen(TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let (mut compared, mut shape) = (0, 0);
    for n in 0..80 {
        let plan = g.plan(n % 16 == 0);
        read_reader(&plan[..], "plan.json").unwrap();
        for _ in 0..8 {
            let mut bytes = plan.clone();
            let at = g.next(bytes.len() as u64) as usize;
            if g.next(4) == 0 {
                bytes.truncate(at);
            } else {
                bytes[at] = b"}],:\"x{[ \\"[g.next(10) as usize];
            }
            let Some((eof, offset, message)) = whole_error(&bytes) else {
                continue;
            };
            // A cut that leaves only whitespace, or no object, is another error.
            if bytes.iter().all(u8::is_ascii_whitespace) || bytes.first() != Some(&b'{') {
                continue;
            }
            let e = read_reader(&bytes[..], "plan.json").unwrap_err();
            let bad_utf8 = std::str::from_utf8(&bytes)
                .err()
                .map(|e| e.valid_up_to() as u64);
            let expected = if let Some(bad) = bad_utf8.filter(|&bad| eof || bad <= offset) {
                // A byte cut out of a character: not UTF-8, which the reader says first.
                PlanErrorKind::InvalidUtf8 { offset: bad }
            } else if eof {
                PlanErrorKind::Truncated {
                    offset: bytes.len() as u64,
                }
            } else if message.starts_with("control character") {
                // serde_json puts it a byte before or after the character; the reader says
                // the character's own offset.
                let o = offset as usize;
                let k = (o.saturating_sub(1)..=o + 1)
                    .find(|&k| bytes[k] < 0x20)
                    .unwrap();
                PlanErrorKind::InvalidJson { offset: k as u64 }
            } else {
                PlanErrorKind::InvalidJson { offset }
            };
            let context = || {
                format!(
                    "plan {n}, byte {at} of {}: {e}\n{}",
                    bytes.len(),
                    String::from_utf8_lossy(
                        &bytes[at.saturating_sub(60)..(at + 60).min(bytes.len())]
                    )
                )
            };
            match e.kind() {
                // An entry of the wrong shape before the bad byte: read first, said first
                // (a typed read of that entry; the whole-document pass types nothing).
                PlanErrorKind::Malformed { offset: m } if m <= offset => {
                    shape += 1;
                    continue;
                }
                // A key the change made into another of the same object's keys, before the
                // bad byte: a repeated key, refused where it is read (the whole-document
                // pass, which keeps no keys, cannot see it).
                PlanErrorKind::DuplicateKey { offset: m } if m <= offset => {
                    shape += 1;
                    continue;
                }
                // The broken byte is in a value the reader checks as it reads it.
                PlanErrorKind::UnsupportedFormatVersion
                | PlanErrorKind::UnknownAction
                | PlanErrorKind::UnknownMode => {
                    shape += 1;
                    continue;
                }
                kind => assert_eq!(kind, expected, "{}", context()),
            }
            compared += 1;
        }
    }
    assert!(
        compared > 400 && shape < compared / 4,
        "{compared} compared, {shape} of the wrong shape first"
    );
}

/// Found by the test above: a `\u` escape cut by its string's closing quote was framed whole,
/// and serde_json, wanting the escape's four digits, said the slice ended: the reader called
/// the file truncated at its last byte.
#[test]
fn a_short_unicode_escape_is_invalid_json_not_a_truncated_file() {
    for text in [
        r#"{"format_version": "1.2", "planned_va\ues": {}, "resource_changes": []}"#,
        r#"{"format_version": "1.2", "resource_changes": [{"address": "a.b\u12"}]}"#,
        r#"{"format_version": "1.2", "zz": ["\u"], "resource_changes": []}"#,
    ] {
        let e = read_reader(text.as_bytes(), "plan.json").unwrap_err();
        let (_, offset, message) = whole_error(text.as_bytes()).unwrap();
        assert_eq!(
            e.kind(),
            PlanErrorKind::InvalidJson { offset },
            "{text}: {e}"
        );
        assert!(message.starts_with("invalid escape"), "{message}");
        assert!(e.to_string().contains("invalid escape"), "{e}");
    }
}

/// Found by the test above: a newline in a string was placed at the start of the next line.
#[test]
fn a_newline_in_a_string_is_placed_on_the_newline() {
    for text in [
        "{\"format_version\": \"1.2\", \"planned\n_values\": {}}",
        "{\"format_version\": \"1.2\",\n  \"resource_changes\": [{\"address\": \"a\n.b\"}]}",
        "{\"format_version\": \"1.2\", \"zz\": {\"k\": \"\tx\"}}",
    ] {
        let e = read_reader(text.as_bytes(), "plan.json").unwrap_err();
        let at = text.rfind(['\n', '\t']).unwrap() as u64;
        assert_eq!(
            e.kind(),
            PlanErrorKind::InvalidJson { offset: at },
            "{text:?}: {e}"
        );
        assert!(e.to_string().contains("control character"), "{e}");
    }
}
