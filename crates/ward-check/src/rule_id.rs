//! Rule IDs: [`RuleId`], one variant per rule of the registry, with the ID as written and the
//! name of the rule's file. Findings, layouts and waivers name rules by these IDs; the rules
//! themselves (metadata, documentation, checks) are the registry in `rules.rs`, which generates
//! its [`RULES`](crate::rules::RULES) and [`RuleId::rule`] from the same list ([`each_rule!`]).
//! This module depends on nothing else in the crate, so a finding can name its rule without
//! depending on the rules that produce findings.

use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The list of rules: `Variant "ID" file;` one line per rule file (`rules/<file>.rs`), sorted by
/// ID. Calls the macro it is given with the list; [`RuleId`] here and the registry in `rules.rs`
/// are both generated from it, so an ID without a rule, or a rule without an ID, does not build.
///
/// Adding a rule: one line here, its file `rules/<family>_<nnn>.rs`, its fixtures.
macro_rules! each_rule {
    ($then:ident) => {
        $then! {
            Ans001 "WARD-ANS-001" ans_001;
            Ans002 "WARD-ANS-002" ans_002;
            Ans003 "WARD-ANS-003" ans_003;
            Ans004 "WARD-ANS-004" ans_004;
            Ans005 "WARD-ANS-005" ans_005;
            Ans006 "WARD-ANS-006" ans_006;
            Cov001 "WARD-COV-001" cov_001;
            Data001 "WARD-DATA-001" data_001;
            Disc001 "WARD-DISC-001" disc_001;
            Disc002 "WARD-DISC-002" disc_002;
            Disc003 "WARD-DISC-003" disc_003;
            Exec001 "WARD-EXEC-001" exec_001;
            Exec002 "WARD-EXEC-002" exec_002;
            Imp001 "WARD-IMP-001" imp_001;
            Imp002 "WARD-IMP-002" imp_002;
            Key001 "WARD-KEY-001" key_001;
            Layer001 "WARD-LAYER-001" layer_001;
            Layer002 "WARD-LAYER-002" layer_002;
            Layer003 "WARD-LAYER-003" layer_003;
            Mod001 "WARD-MOD-001" mod_001;
            Mod002 "WARD-MOD-002" mod_002;
            Mod003 "WARD-MOD-003" mod_003;
            Mod004 "WARD-MOD-004" mod_004;
            Mod005 "WARD-MOD-005" mod_005;
            Parse001 "WARD-PARSE-001" parse_001;
            Render001 "WARD-RENDER-001" render_001;
            Render002 "WARD-RENDER-002" render_002;
            Render003 "WARD-RENDER-003" render_003;
            State001 "WARD-STATE-001" state_001;
            State002 "WARD-STATE-002" state_002;
            State003 "WARD-STATE-003" state_003;
            State004 "WARD-STATE-004" state_004;
            Sup001 "WARD-SUP-001" sup_001;
            Sup002 "WARD-SUP-002" sup_002;
            Sup003 "WARD-SUP-003" sup_003;
            Ver001 "WARD-VER-001" ver_001;
            Ver002 "WARD-VER-002" ver_002;
            Ver003 "WARD-VER-003" ver_003;
            Ver004 "WARD-VER-004" ver_004;
        }
    };
}
pub(crate) use each_rule;

macro_rules! ids {
    ($($variant:ident $id:literal $module:ident;)*) => {
        /// A rule's ID: one variant per rule file, generated from the registry. Ordered as the
        /// IDs sort.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $(#[doc = $id] $variant,)*
        }

        impl RuleId {
            /// Every ID, in order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];

            /// The ID as written (`WARD-MOD-005`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $id,)*
                }
            }

            /// The name of the rule's file (`mod_005`).
            pub const fn file(self) -> &'static str {
                match self {
                    $(RuleId::$variant => stringify!($module),)*
                }
            }
        }
    };
}

each_rule!(ids);

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`: widths and alignment apply (`{:<14}` in the terminal report).
        f.pad(self.as_str())
    }
}

/// The ID as written, so an ID reads as text where text is asked (`id.starts_with("WARD-SUP-")`).
impl std::ops::Deref for RuleId {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Serialize for RuleId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for RuleId {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

/// An ID that names no rule, with the closest one when it looks like a typo.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{given}\" names no rule{}; `ward check --list-rules` lists them", .closest.map(|c| format!(" (did you mean {c}?)")).unwrap_or_default())]
pub struct UnknownRule {
    /// What was written.
    pub given: String,
    /// The closest ID.
    pub closest: Option<RuleId>,
}

impl FromStr for RuleId {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<RuleId, UnknownRule> {
        if let Some(id) = RuleId::ALL.iter().find(|r| r.as_str() == s) {
            return Ok(*id);
        }
        // Case and a missing zero are the usual typos (`ward-mod-5`).
        let upper = s.trim().to_ascii_uppercase();
        let known: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        let closest = ward_hcl::did_you_mean(&upper, &known)
            .and_then(|c| RuleId::ALL.iter().copied().find(|r| r.as_str() == c));
        Err(UnknownRule {
            given: s.to_string(),
            closest,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_id_names_the_closest() {
        assert_eq!("WARD-MOD-005".parse::<RuleId>(), Ok(RuleId::Mod005));
        let e = "WARD-MOD-05".parse::<RuleId>().unwrap_err();
        assert_eq!(e.closest, Some(RuleId::Mod005));
        assert!(e.to_string().contains("did you mean WARD-MOD-005?"), "{e}");
        let e = "ward-ver-004".parse::<RuleId>().unwrap_err();
        assert_eq!(e.closest, Some(RuleId::Ver004));
        let e = "no-such-thing".parse::<RuleId>().unwrap_err();
        assert_eq!(e.closest, None, "{e}");
    }
}
