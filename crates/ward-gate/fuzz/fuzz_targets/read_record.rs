//! The gate record and protection record readers on arbitrary bytes. Both read a file
//! (`record::load`, `protect::load_record`), so each input is written to one scratch file first.
//! Every input gives a record or a `GateError` whose message renders, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ward-gate-fuzz-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir.join("record.json")
    })
}

fuzz_target!(|data: &[u8]| {
    let path = scratch();
    if std::fs::write(path, data).is_err() {
        return;
    }
    match ward_gate::record::load(path) {
        Ok(r) => {
            let _ = r.changes.len();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match ward_gate::protect::load_record(path) {
        Ok(r) => {
            let _ = r.protected.len();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
