//! What a `ward check` run produced, for `ward_report::check` to render (in the formats
//! `ward_report::format` lists for it). The command (flags, configuration, exit) is `ward check`
//! in ward-cli.

use crate::finding::Report;
use ward_model::Exit;

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
