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
