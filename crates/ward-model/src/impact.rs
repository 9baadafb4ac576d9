//! Impact classes: what a change costs the running deployment.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What a change costs the running deployment, from nothing to lost data. Ordered: a change's
/// impact is the worst of everything it does, and `--fail-on CLASS` fails on that class and above.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum Impact {
    /// Nothing happens to any running object (no-op, data source read, forget, a pure move).
    #[default]
    None,
    /// Metadata only: tags, labels, descriptions. Nothing running notices.
    Free,
    /// Changed in place, without stopping anything.
    InPlace,
    /// Changed in place, but the object is stopped, restarted, rebooted or fails over while it
    /// happens: the service is interrupted.
    Interrupt,
    /// The object is destroyed (and perhaps recreated): it gets a new identity (id, ip, mac...),
    /// and everything that refers to it must follow. No data is lost.
    Replace,
    /// An object that holds data is destroyed or replaced: its data is gone.
    DataLoss,
}

impl Impact {
    /// Every class, lowest first.
    pub const ALL: [Impact; 6] = [
        Impact::None,
        Impact::Free,
        Impact::InPlace,
        Impact::Interrupt,
        Impact::Replace,
        Impact::DataLoss,
    ];

    /// The class's name as ward spells it in configuration, flags and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Impact::None => "none",
            Impact::Free => "free",
            Impact::InPlace => "in-place",
            Impact::Interrupt => "interrupt",
            Impact::Replace => "replace",
            Impact::DataLoss => "data-loss",
        }
    }

    /// One sentence a reader can act on.
    pub fn meaning(self) -> &'static str {
        match self {
            Impact::None => "nothing running is touched",
            Impact::Free => "metadata only (tags, labels, descriptions); nothing running notices",
            Impact::InPlace => "changed in place without stopping anything",
            Impact::Interrupt => {
                "changed in place, but stopped, restarted or failed over: service is interrupted"
            }
            Impact::Replace => {
                "destroyed (and perhaps recreated) with a new identity; no data lost"
            }
            Impact::DataLoss => "an object holding data is destroyed or replaced: its data is lost",
        }
    }
}

impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error for an unknown impact class name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseImpactError(pub String);

impl fmt::Display for ParseImpactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown impact class `{}`: expected one of none, free, in-place, interrupt, replace, data-loss",
            self.0
        )
    }
}

impl std::error::Error for ParseImpactError {}

impl FromStr for Impact {
    type Err = ParseImpactError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Impact::ALL
            .into_iter()
            .find(|i| i.as_str() == s)
            .ok_or_else(|| ParseImpactError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_and_round_trips() {
        for w in Impact::ALL.windows(2) {
            assert!(w[0] < w[1]);
        }
        for i in Impact::ALL {
            assert_eq!(i.as_str().parse::<Impact>(), Ok(i));
        }
        assert!("interrupts".parse::<Impact>().is_err());
    }
}
