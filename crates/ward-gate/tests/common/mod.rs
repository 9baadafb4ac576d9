//! The typed results of `ward_gate::run` rendered the way ward-cli prints them
//! (`ward_report::gate`), for the tests that read the output.
#![allow(dead_code)]

use ward_gate::run::{Approved, GateRun, Verified};
use ward_model::Exit;
use ward_report::gate::{self, Format};

/// What the command would print and how it would end.
#[derive(Debug)]
pub struct Out {
    /// Standard output: the rendered report.
    pub stdout: String,
    /// Standard error: the notes, a line each.
    pub stderr: String,
    /// The exit.
    pub exit: Exit,
}

fn notes(n: &[String]) -> String {
    n.iter().map(|l| format!("{l}\n")).collect()
}

/// `ward gate --format F`.
pub fn gate(r: GateRun, format: Format) -> Out {
    Out {
        stdout: gate::render(&r.report, format),
        stderr: notes(&r.notes),
        exit: r.exit,
    }
}

/// `ward approve`.
pub fn approve(a: Approved) -> Out {
    Out {
        stdout: gate::approve_text(&a),
        stderr: notes(&a.notes),
        exit: a.exit,
    }
}

/// `ward verify` (`--format json` when `json`).
pub fn verify(v: Verified, json: bool) -> Out {
    Out {
        stdout: gate::verify(&v, json),
        stderr: notes(&v.notes),
        exit: v.exit,
    }
}
