//! Helpers shared by the `ward` binary's test files (each uses some of them).
#![allow(dead_code)]

pub mod process;

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A file of `tests/data`, as a path string.
pub fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}

/// Runs ward under a pseudo-terminal (util-linux `script`), so that standard output is a TTY.
#[allow(clippy::expect_used)]
pub fn ward_on_tty(args: &str, no_color: Option<&str>) -> String {
    let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_ward"));
    let mut c = Command::new("script");
    c.args(["-qec", &cmd, "/dev/null"])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null());
    match no_color {
        Some(v) => c.env("NO_COLOR", v),
        None => c.env_remove("NO_COLOR"),
    };
    let o = c
        .output()
        .expect("util-linux `script` runs ward under a pseudo-terminal");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `s` without its ANSI sequences (ESC `[` … `m`).
pub fn plain(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\u{1b}[") {
        out.push_str(&rest[..i]);
        rest = rest[i..].split_once('m').map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    out
}
