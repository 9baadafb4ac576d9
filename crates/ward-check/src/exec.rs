//! `--exec`: `fmt -check` and `init -backend=false` + `validate` on every module, standalone,
//! with the selected binary (WARD-EXEC-001, WARD-EXEC-002).
//!
//! The repository is copied to a temporary directory first (without `.git`, `.terraform` and
//! other caches), and every command runs in the copy with its own `TF_DATA_DIR`: `init` writes
//! lock files and caches, and ward never writes into the repository it checks. Each directory is
//! reported separately.

use crate::finding::Finding;
use crate::rules::anchor;
use std::path::{Path, PathBuf};
use std::process::Command;
use ward_repo::Repo;

/// Which binary to run.
#[derive(Debug, Clone)]
pub struct ExecOptions {
    /// `terraform`, `tofu`, or a path.
    pub binary: PathBuf,
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    let walker = ignore::WalkBuilder::new(from)
        .standard_filters(false)
        .follow_links(false)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && ward_repo::SKIPPED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()))
        })
        .build();
    for entry in walker {
        let entry = entry.map_err(std::io::Error::other)?;
        let Ok(rel) = entry.path().strip_prefix(from) else {
            continue;
        };
        let dst = to.join(rel);
        match entry.file_type() {
            Some(t) if t.is_dir() => std::fs::create_dir_all(&dst)?,
            Some(t) if t.is_file() => {
                if let Some(p) = dst.parent() {
                    std::fs::create_dir_all(p)?;
                }
                std::fs::copy(entry.path(), &dst)?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn first_error(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_matches(|c: char| c == '│' || c == '╷' || c == '╵' || c.is_whitespace()))
        .find(|l| l.starts_with("Error:"))
        .or_else(|| text.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("failed without a message")
        .to_string()
}

/// Runs fmt and validate over every directory of `repo`.
pub fn run(repo: &Repo, opts: &ExecOptions, out: &mut Vec<Finding>) {
    let tmp = match tempfile::Builder::new()
        .prefix("ward-check-exec-")
        .tempdir()
    {
        Ok(t) => t,
        Err(e) => {
            out.push(Finding::new(
                "WARD-EXEC-002",
                ".",
                0,
                format!("--exec: cannot create a temporary directory: {e}"),
            ));
            return;
        }
    };
    let copy = tmp.path().join("repo");
    if let Err(e) = copy_tree(&repo.root, &copy) {
        out.push(Finding::new(
            "WARD-EXEC-002",
            ".",
            0,
            format!(
                "--exec: cannot copy the repository to {}: {e}",
                copy.display()
            ),
        ));
        return;
    }
    let bin = &opts.binary;
    let name = bin
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "terraform".to_string());
    for (i, m) in repo.modules.iter().enumerate() {
        let dir = copy.join(&m.dir);
        let a = anchor(m);
        let prefix = if m.dir == "." {
            String::new()
        } else {
            format!("{}/", m.dir)
        };
        let data_dir = tmp.path().join(format!("data-{i}"));
        let cmd = |args: &[&str]| {
            Command::new(bin)
                .args(args)
                .current_dir(&dir)
                .env("TF_DATA_DIR", &data_dir)
                .env("TF_IN_AUTOMATION", "1")
                .env("TF_INPUT", "0")
                .output()
        };
        // fmt
        match cmd(&["fmt", "-check", "-list=true", "-no-color"]) {
            Err(e) => {
                out.push(Finding::new(
                    "WARD-EXEC-001",
                    &a.file,
                    0,
                    format!("cannot run {}: {e}", bin.display()),
                ));
                return;
            }
            Ok(o) if !o.status.success() => {
                let listed: Vec<String> = String::from_utf8_lossy(&o.stdout)
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect();
                if listed.is_empty() {
                    out.push(
                        Finding::new(
                            "WARD-EXEC-001",
                            &a.file,
                            0,
                            format!(
                                "fmt -check failed: {}",
                                first_error(&String::from_utf8_lossy(&o.stderr))
                            ),
                        )
                        .in_dir(&m.dir),
                    );
                }
                for f in listed {
                    out.push(
                        Finding::new(
                            "WARD-EXEC-001",
                            &format!("{prefix}{f}"),
                            0,
                            format!("fmt -check: not formatted; run `{name} fmt` in {}", m.dir),
                        )
                        .in_dir(&m.dir),
                    );
                }
            }
            Ok(_) => {}
        }
        // init + validate
        match cmd(&["init", "-backend=false", "-input=false", "-no-color"]) {
            Ok(o) if !o.status.success() => {
                out.push(
                    Finding::new(
                        "WARD-EXEC-002",
                        &a.file,
                        0,
                        format!(
                            "init -backend=false failed: {}",
                            first_error(&String::from_utf8_lossy(&o.stderr))
                        ),
                    )
                    .in_dir(&m.dir),
                );
                continue;
            }
            Err(e) => {
                out.push(Finding::new(
                    "WARD-EXEC-002",
                    &a.file,
                    0,
                    format!("cannot run {}: {e}", bin.display()),
                ));
                continue;
            }
            Ok(_) => {}
        }
        match cmd(&["validate", "-json", "-no-color"]) {
            Ok(o) => {
                let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
                let diags = v["diagnostics"].as_array().cloned().unwrap_or_default();
                let mut any = false;
                for d in diags.iter().filter(|d| d["severity"] == "error") {
                    any = true;
                    let file = d["range"]["filename"]
                        .as_str()
                        .map(|f| format!("{prefix}{f}"))
                        .unwrap_or_else(|| a.file.clone());
                    let line = d["range"]["start"]["line"].as_u64().unwrap_or(0) as usize;
                    let mut msg = format!("validate: {}", d["summary"].as_str().unwrap_or("error"));
                    if let Some(det) = d["detail"].as_str().filter(|s| !s.is_empty()) {
                        msg.push_str(": ");
                        msg.push_str(det.lines().next().unwrap_or(""));
                    }
                    out.push(Finding::new("WARD-EXEC-002", &file, line, msg).in_dir(&m.dir));
                }
                if !any && !o.status.success() {
                    out.push(
                        Finding::new(
                            "WARD-EXEC-002",
                            &a.file,
                            0,
                            format!(
                                "validate failed: {}",
                                first_error(&String::from_utf8_lossy(&o.stderr))
                            ),
                        )
                        .in_dir(&m.dir),
                    );
                }
            }
            Err(e) => out.push(Finding::new(
                "WARD-EXEC-002",
                &a.file,
                0,
                format!("cannot run {}: {e}", bin.display()),
            )),
        }
    }
}
