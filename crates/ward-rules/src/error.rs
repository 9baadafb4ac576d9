//! The error every rule-loading failure becomes: where, what, and what to do.

/// A rule file or pack could not be loaded. `Display` gives `file:line:column: what was wrong`
/// and, on the next line, what to do about it. It is ward-hcl's [`ward_hcl::ReadError`], the
/// error of the one typed HCL reader the rule format is read with.
pub use ward_hcl::ReadError as RulesError;
