//! The one shape of a parse failure. Its own module so that the budget and the crate root both
//! depend on it, not on each other.

/// A native HCL text that could not be parsed, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the failure.
    pub line: usize,
    /// 1-based column of the failure.
    pub column: usize,
    /// What was wrong (hcl-edit's message, or the budget's, which also says what to do).
    pub message: String,
    /// The text of the line it failed on, trimmed (for a "fix the syntax near ..." hint).
    pub near: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}
