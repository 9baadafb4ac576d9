//! Baseline for `scripts/bench`: a bare serde_json typed skim of `resource_changes` (the whole
//! file read into memory, then each entry's address, type and actions parsed; everything else
//! skipped), the yardstick the issue compares the reader with. Prints the number of changes.
//!
//! ```text
//! cargo run --release -p ward-plan --example skim -- plan.json
//! ```

use serde::Deserialize;
use std::process::ExitCode;

#[derive(Deserialize)]
struct Top {
    #[serde(default)]
    resource_changes: Vec<Entry>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Entry {
    address: String,
    #[serde(rename = "type")]
    type_name: String,
    change: Change,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Change {
    actions: Vec<String>,
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: skim PLAN.json");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(1);
        }
    };
    match serde_json::from_slice::<Top>(&bytes) {
        Ok(top) => {
            println!("{}", top.resource_changes.len());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(1)
        }
    }
}
