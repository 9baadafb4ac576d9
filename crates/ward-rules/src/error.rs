//! The error every rule-loading failure becomes: where, what, and what to do.

use std::fmt;

/// A rule file or pack could not be loaded. `Display` gives `file:line:column: what was wrong`
/// and, on the next line, what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError {
    /// The file: a pack (`packs/aws.hcl`) or a user file as given (`ward.hcl`).
    pub file: String,
    /// 1-based line, when the problem has a place.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// What was wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl RulesError {
    /// An error in `file`, without a place yet.
    pub fn new(file: &str, message: impl Into<String>) -> RulesError {
        RulesError {
            file: file.to_string(),
            line: None,
            column: None,
            message: message.into(),
            help: None,
        }
    }

    /// Placed at (line, column), when known.
    pub fn at(mut self, pos: Option<(usize, usize)>) -> RulesError {
        if let Some((line, column)) = pos {
            self.line = Some(line);
            self.column = Some(column);
        }
        self
    }

    /// With what to do about it.
    pub fn help(mut self, help: impl Into<String>) -> RulesError {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesError {}
