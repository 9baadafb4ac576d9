//! How bad a finding is: [`Severity`], which findings, rules and `ward.hcl` tuning share. Depends
//! on nothing else in the crate.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails unless `--fail-on info`.
    Info,
    /// Should be fixed; fails with `--fail-on warning`.
    Warning,
    /// Fails the run by default.
    Error,
}

impl Severity {
    /// The lowercase word.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Severity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "info" => Ok(Severity::Info),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            other => Err(format!(
                "unknown severity \"{other}\": use error, warning or info"
            )),
        }
    }
}
