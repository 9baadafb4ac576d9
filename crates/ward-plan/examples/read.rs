//! Reads one plan (a path, or `-` for stdin) and prints a summary, or with `--json` the whole
//! model as JSON. With `--each` the changes are handed over one at a time
//! (`read_with` without content fingerprints, as `ward plan` reads) and only counted. Used by `scripts/bench`
//! to measure the reader on its own.
//!
//! ```text
//! cargo run --release -p ward-plan --example read -- plan.json [--json | --each]
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let each = args.iter().any(|a| a == "--each");
    let light = args.iter().any(|a| a == "--light");
    let Some(path) = args
        .iter()
        .find(|a| !matches!(a.as_str(), "--json" | "--each" | "--light"))
    else {
        eprintln!("usage: read PLAN.json|- [--json | --each] [--light]");
        return ExitCode::from(2);
    };
    if each {
        let mut actions: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut changed = 0usize;
        let mut count = |c: ward_model::ResourceChange| {
            *actions.entry(c.action.as_terraform()).or_default() += 1;
            changed += c.changed.len();
        };
        let options = ward_plan::ReadOptions {
            content: false,
            objects: false,
            ..ward_plan::ReadOptions::default()
        };
        return match ward_plan::read_with(path, options, Some(&mut count)).map(|(p, _)| p) {
            Ok(plan) => {
                let n: usize = actions.values().sum();
                println!(
                    "format {} product {:?} changes {n} drift {} changed-attributes {changed} \
                     actions {actions:?}",
                    plan.format_version,
                    plan.product,
                    plan.drift.len(),
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        };
    }
    let options = ward_plan::ReadOptions {
        content: !light,
        objects: false,
        ..ward_plan::ReadOptions::default()
    };
    let plan = match ward_plan::read_with(path, options, None).map(|(p, _)| p) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = if json {
        serde_json::to_writer(&mut out, &plan).map_err(std::io::Error::from)
    } else {
        let mut actions: BTreeMap<String, usize> = BTreeMap::new();
        for c in &plan.changes {
            *actions.entry(c.action.to_string()).or_default() += 1;
        }
        let changed: usize = plan.changes.iter().map(|c| c.changed.len()).sum();
        writeln!(
            out,
            "format {} product {:?} changes {} drift {} outputs {} changed-attributes {} \
             configured-types {} state-types {} actions {:?}",
            plan.format_version,
            plan.product,
            plan.changes.len(),
            plan.drift.len(),
            plan.output_changes.len(),
            changed,
            plan.configured_types.len(),
            plan.state_types.len(),
            actions
        )
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("writing the output failed: {e}");
            ExitCode::from(1)
        }
    }
}
