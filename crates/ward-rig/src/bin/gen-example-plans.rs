//! Regenerates ward's example plans (`examples/plans/*.json`) from the example deployment,
//! with the newest pinned Terraform. Deterministic: same inputs, same bytes.
//!
//! Usage: `gen-example-plans [--check] [--terraform PATH] [OUT_DIR]`
//! (`scripts/gen-example-plans` installs the tools, builds and runs this).

use std::path::PathBuf;
use std::process::ExitCode;
use ward_rig::{examples, Rig};

const USAGE: &str = "usage: gen-example-plans [--check] [--terraform PATH] [OUT_DIR]";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gen-example-plans: error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut check = false;
    let mut terraform: Option<PathBuf> = None;
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--terraform" => {
                terraform = Some(PathBuf::from(
                    args.next()
                        .ok_or(format!("--terraform needs a path\n{USAGE}"))?,
                ))
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other}\n{USAGE}"))
            }
            other => out = Some(PathBuf::from(other)),
        }
    }
    let mut builder = Rig::builder();
    if let Some(tf) = terraform {
        builder = builder.terraform(tf);
    }
    let rig = builder.build().map_err(|e| e.to_string())?;
    let tf = rig
        .newest_terraform()
        .ok_or("no Terraform binary found: run scripts/install-tools")?
        .clone();
    let out = out.unwrap_or_else(|| rig.workspace().join("examples").join("plans"));
    eprintln!("gen-example-plans: {tf} ({})", tf.path.display());
    if check {
        let mut stale = Vec::new();
        for (name, text) in examples::render_all(&rig, &tf).map_err(|e| e.to_string())? {
            let path = out.join(format!("{name}.json"));
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        }
        if stale.is_empty() {
            eprintln!("gen-example-plans: {} is up to date", out.display());
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "gen-example-plans: out of date: {}\nrun scripts/gen-example-plans",
            stale.join(", ")
        );
        return Ok(ExitCode::FAILURE);
    }
    let written = examples::write_plans(&rig, &tf, &out).map_err(|e| e.to_string())?;
    for path in &written {
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
