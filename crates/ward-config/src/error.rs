//! The one error of reading `ward.hcl`: where, what, and what to do. Its own module so that the
//! sections and the reader depend on it without depending on the crate root.

use std::fmt;

/// `ward.hcl` could not be used. `Display` gives `file:line:column: what was wrong` and, on the
/// next line, `  help: what to do`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file, as cited.
    pub file: String,
    /// 1-based line; 0 when the problem is the file as a whole.
    pub line: usize,
    /// 1-based column; 0 when unknown.
    pub column: usize,
    /// What was wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(h) = &self.help {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// ward-hcl's reader's error, and so ward-rules' (`RulesError` is the same type).
impl From<ward_hcl::ReadError> for ConfigError {
    fn from(e: ward_hcl::ReadError) -> Self {
        ConfigError {
            file: e.file,
            line: e.line.unwrap_or(0),
            column: e.column.unwrap_or(0),
            message: e.message,
            help: e.help,
        }
    }
}
