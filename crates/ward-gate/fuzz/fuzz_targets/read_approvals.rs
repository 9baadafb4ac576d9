//! The approvals file reader on arbitrary bytes: every input gives an `ApprovalsFile` or a
//! `GateError`, never a panic; what it accepts survives the checks `ward gate` runs on it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match ward_gate::approvals::parse(text, ".ward/approvals.json") {
            Ok(mut file) => {
                for a in &file.approvals {
                    let _ = a.digest_consistent();
                    let _ = a.expires();
                    let _ = a.signature_state(Some(b"fuzz-key"));
                    let _ = a.signature_state(None);
                }
                ward_gate::approvals::sort(&mut file);
                let _ = ward_gate::approvals::render(&file);
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
