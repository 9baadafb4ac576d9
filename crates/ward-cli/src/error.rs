//! The one error type of the `ward` command: printed as `error: …` (plus help lines) on stderr,
//! and exit code 2.

use std::fmt;

/// An error that stops a command: bad input, unreadable file, bad configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// What went wrong. May span lines (the plan reader's and rule loader's messages end with
    /// their own `help:` line).
    pub message: String,
    /// What to do about it, when there is something to say.
    pub hint: Option<String>,
}

impl CliError {
    /// An error with a message only.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            hint: None,
        }
    }

    /// Adds a hint line.
    pub fn hint(mut self, hint: impl Into<String>) -> CliError {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

impl From<ward_plan::PlanError> for CliError {
    fn from(e: ward_plan::PlanError) -> Self {
        CliError::new(e.to_string())
    }
}

impl From<ward_config::ConfigError> for CliError {
    fn from(e: ward_config::ConfigError) -> Self {
        CliError::new(e.to_string())
    }
}

impl From<ward_rules::RulesError> for CliError {
    fn from(e: ward_rules::RulesError) -> Self {
        CliError::new(format!("in rule file {e}"))
    }
}

/// A renderer given a format its command does not write (the `--format` parser lets none
/// through; see `output::format`).
impl From<ward_report::Unsupported> for CliError {
    fn from(e: ward_report::Unsupported) -> Self {
        CliError::new(e.to_string()).hint("choose one of the formats `--help` lists")
    }
}
