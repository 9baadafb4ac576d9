//! What a `ward check` run produced, for `ward_report::check` to render, and the formats it
//! renders. The command (flags, configuration, exit) is `ward check` in ward-cli.

use crate::finding::Report;
use ward_model::Exit;

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    Terminal,
    /// The full report as JSON.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// JUnit XML, for CI test reports.
    Junit,
}

/// What a `ward check` run produced, for `ward_report::check::render`.
#[derive(Debug)]
pub enum Output {
    /// `--list-rules`: the rule catalog.
    Catalog,
    /// The checks' report.
    Report(Box<Report>),
}

impl Output {
    /// How the run ends: [`Exit::Fail`] when findings reach the failing severity, else
    /// [`Exit::Pass`].
    pub fn exit(&self) -> Exit {
        match self {
            Output::Report(r) if r.summary.failed => Exit::Fail,
            _ => Exit::Pass,
        }
    }
}
