//! Each change's report entry, the one owner of how a verdict is written in the terminal and
//! Markdown reports. The whole reports (`crate::terminal`, `crate::markdown`) and the entries
//! kept as a plan is read change by change (`crate::kept`) both take their entries from here,
//! so neither report module and the keep depend on each other's rendering.

pub(crate) mod markdown;
pub(crate) mod terminal;
