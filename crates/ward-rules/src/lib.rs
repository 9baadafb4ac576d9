//! ward's impact knowledge (being written; the types below are the contract other crates use).

use serde::Serialize;
use std::fmt;

/// Where a rule comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum RuleOrigin {
    /// A built-in pack, e.g. `aws` version `2026.11.0`.
    Pack {
        /// Pack name.
        name: String,
        /// Pack version.
        version: String,
    },
    /// A user rule from a `ward.hcl` file.
    User {
        /// The file, as given or found (relative to the repository root when found there).
        file: String,
        /// 1-based line of the `resource` block.
        line: usize,
    },
}

/// The rule that decided something: which pack or file, which resource type entry and, when the
/// decision came from an attribute entry, which attribute pattern.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct RuleRef {
    /// Pack or file.
    pub origin: RuleOrigin,
    /// The resource type entry.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The attribute pattern, for attribute-level decisions.
    pub attribute: Option<String>,
}

impl fmt::Display for RuleRef {
    /// `aws@2026.11.0:aws_instance[instance_type]` or `ward.hcl:12:fakecloud_volume`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.origin {
            RuleOrigin::Pack { name, version } => write!(f, "{name}@{version}:")?,
            RuleOrigin::User { file, line } => write!(f, "{file}:{line}:")?,
        }
        f.write_str(&self.type_name)?;
        if let Some(a) = &self.attribute {
            write!(f, "[{a}]")?;
        }
        Ok(())
    }
}

/// Name and version of a loaded pack, as reports print it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct PackInfo {
    /// Pack name, e.g. `aws`.
    pub name: String,
    /// Pack version, e.g. `2026.11.0`.
    pub version: String,
}
