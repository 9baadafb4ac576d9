//! The body of the cargo-fuzz target (`fuzz/fuzz_targets/read_plan.rs`), as a plain function
//! so the property tests run it on stable Rust too.

/// Reads `data` as a plan. Any reader result is acceptable; a panic, a stack overflow or an
/// abort is the bug being looked for. When the input reads, the model is serialized (as every
/// output format does) and checked for invariants that need no oracle: every error message
/// has its help line, and no shown string is longer than the reader allows. `Err` says which
/// invariant broke (the fuzz target panics on it).
pub fn read_bytes(data: &[u8]) -> Result<(), String> {
    let plan = match crate::read_reader(data, "fuzz-input") {
        Ok(plan) => plan,
        Err(e) => {
            let text = e.to_string();
            if !text.contains("\n  help: ") {
                return Err(format!("error without help: {text}"));
            }
            return Ok(());
        }
    };
    serde_json::to_string(&plan).map_err(|e| format!("the model does not serialize: {e}"))?;
    // The walk and one whole-document pass must agree on every plan both read.
    if std::str::from_utf8(data).is_ok() && !data.starts_with(b"\xEF\xBB\xBF") {
        if let Ok(whole) = read_whole(data) {
            if whole != plan {
                return Err("the walk and the whole-document parse read different models".into());
            }
        }
    }
    for c in plan.changes.iter().chain(plan.drift.iter()) {
        for a in &c.changed {
            for side in [&a.before, &a.after] {
                if let ward_model::Shown::Known(v) = side {
                    if longest_string(v) > ward_model::Shown::MAX_STRING + 1 {
                        return Err(format!("{}: a string longer than allowed", a.path));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The body of the `skip_value` fuzz target: the reader's one-pass check of a skipped value
/// (valid JSON, nesting, no key twice in one object) against serde_json's skip and the key
/// scan it replaces. The first byte gives the nesting allowed (0 to 129 levels), the rest is
/// the text (not UTF-8: nothing to check, the reader refuses it before). `Err` says what
/// differs.
pub fn skip_value(data: &[u8]) -> Result<(), String> {
    let Some((&first, rest)) = data.split_first() else {
        return Ok(());
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return Ok(());
    };
    crate::unique::valid::agrees_with_serde(text, u32::from(first % 130))
}

/// The body of the `entry` fuzz target: a `resource_changes` entry read in one pass over its
/// bytes (the walk's way when nothing needs its whole values) against the seeds that read it
/// otherwise: whatever the one pass reads, the seeds read to the same length and the same
/// model; and the same text as a `prior_state` resource, read in one pass against the walk's
/// key-by-key read. The first byte gives how many containers are open around it (0 to 129), the rest is
/// the text (not UTF-8: nothing to check, the reader refuses it before). `Err` says what
/// differs.
pub fn entry(data: &[u8]) -> Result<(), String> {
    let Some((&first, rest)) = data.split_first() else {
        return Ok(());
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return Ok(());
    };
    let depth = u32::from(first % 130);
    crate::walk::agrees_with_seeds(text, depth)?;
    crate::walk::state_resource_agrees_with_walk(text, depth)
}

fn longest_string(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::String(s) => s.chars().count(),
        serde_json::Value::Array(a) => a.iter().map(longest_string).max().unwrap_or(0),
        serde_json::Value::Object(m) => m.values().map(longest_string).max().unwrap_or(0),
        _ => 0,
    }
}

/// Reads `data` (UTF-8, no byte order mark) with one serde_json pass over the whole slice,
/// the way the reader parsed before it walked blocks: the reference that tests and fuzzing
/// compare the walking reader with. Its errors are only roughly placed (kind and offset are
/// not the reader's); on a plan it must give the same model.
pub fn read_whole(data: &[u8]) -> Result<ward_model::Plan, crate::PlanError> {
    crate::read_whole(data, "whole-input")
}

/// The oracle on inputs chosen for it: a plan whose shown values hold a shortened string (as
/// long as the reader allows, no longer) passes, every kind of refusal passes, and the length
/// measure looks into lists and objects.
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(before: serde_json::Value, after: serde_json::Value) -> Vec<u8> {
        serde_json::to_vec(&json!({
            "format_version": "1.2",
            "planned_values": {},
            "resource_changes": [{"address": "a.b", "type": "a", "name": "b",
                "change": {"actions": ["update"], "before": before, "after": after,
                           "before_sensitive": {}, "after_sensitive": {}, "after_unknown": {}}}]
        }))
        .unwrap()
    }

    #[test]
    fn a_plan_with_strings_shortened_to_the_limit_passes() {
        let long = "x".repeat(ward_model::Shown::MAX_STRING * 3);
        let data = plan(
            json!({"s": "a", "l": [1]}),
            json!({"s": long, "l": [long, 2]}),
        );
        let read = crate::read_reader(&data[..], "t").unwrap();
        assert_eq!(read.changes[0].changed.len(), 2);
        assert_eq!(read_bytes(&data), Ok(()));
        assert_eq!(read_bytes(&plan(json!({"s": 1}), json!({"s": 2}))), Ok(()));
    }

    #[test]
    fn refusals_pass_with_their_help() {
        for data in [&b""[..], b"{}", b"[", b"{\"serial\": 1}", b"\xff\xfe{"] {
            assert!(crate::read_reader(data, "t").is_err());
            assert_eq!(read_bytes(data), Ok(()), "{data:?}");
        }
    }

    #[test]
    fn the_longest_string_is_found_at_any_depth() {
        assert_eq!(longest_string(&json!("abc")), 3);
        assert_eq!(longest_string(&json!("é…")), 2);
        assert_eq!(longest_string(&json!([1, "ab", ["abcd"]])), 4);
        assert_eq!(longest_string(&json!({"k": {"x": "abcde"}, "y": "a"})), 5);
        assert_eq!(longest_string(&json!([])), 0);
        assert_eq!(longest_string(&json!(12345)), 0);
    }

    #[test]
    fn the_whole_document_reference_reads_the_same_plan() {
        let data = plan(json!({"s": "a"}), json!({"s": "b"}));
        let whole = read_whole(&data).unwrap();
        assert_eq!(whole, crate::read_reader(&data[..], "t").unwrap());
        assert_eq!(whole.changes.len(), 1);
    }
}
