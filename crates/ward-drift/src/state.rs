//! State preflight: what `state pull` printed, judged before any plan is trusted.
//!
//! Terraform's own exit codes say nothing here: with no state at all, `state pull` prints 0 bytes
//! and exits 0, and `plan -refresh-only -detailed-exitcode` exits 0 ("no changes"). Reading the
//! pulled bytes is ward-terraform's ([`ward_terraform::state`]); the judgement is drift's.

use std::collections::BTreeSet;
use ward_store::StateMark;
pub use ward_terraform::state::{parse, StateInfo};

/// The verdict of the preflight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Preflight {
    /// The state is there and continuous with the recorded one.
    Ok(StateInfo),
    /// `missing-state`: why.
    Missing(String),
    /// `state-replaced`: why; the state read.
    Replaced(String, StateInfo),
}

/// Judges the pulled state against the mark recorded for the root.
pub fn preflight(bytes: &[u8], expect_empty: bool, recorded: Option<&StateMark>) -> Preflight {
    let info = match parse(bytes) {
        Ok(i) => i,
        Err(_) if expect_empty && bytes.iter().all(u8::is_ascii_whitespace) => {
            // An expected-empty root may have no state at all yet.
            return Preflight::Ok(StateInfo {
                lineage: String::new(),
                serial: 0,
                terraform_version: None,
                resources: 0,
                provider_hosts: BTreeSet::new(),
            });
        }
        Err(e) => return Preflight::Missing(e),
    };
    if info.resources == 0 && !expect_empty {
        return Preflight::Missing(format!(
            "the state (lineage {}, serial {}) holds no resources; set expect_empty = true on the root if that is correct",
            info.lineage, info.serial
        ));
    }
    if let Some(m) = recorded {
        if m.lineage != info.lineage {
            return Preflight::Replaced(
                format!(
                    "lineage is {} but {} was recorded: this is another state (copied from another root, or recreated)",
                    info.lineage, m.lineage
                ),
                info,
            );
        }
        if info.serial < m.serial {
            return Preflight::Replaced(
                format!(
                    "serial went backwards from {} to {}: an older copy of the state was restored",
                    m.serial, info.serial
                ),
                info,
            );
        }
    }
    Preflight::Ok(info)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn state(lineage: &str, serial: i64, n: usize) -> Vec<u8> {
        let res: Vec<serde_json::Value> = (0..n)
            .map(|i| {
                serde_json::json!({"mode":"managed","type":"null_resource","name":format!("r{i}"),
                "provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[]})
            })
            .collect();
        serde_json::to_vec(
            &serde_json::json!({"version":4,"terraform_version":"1.11.4",
            "serial":serial,"lineage":lineage,"outputs":{},"resources":res}),
        )
        .unwrap()
    }

    #[test]
    fn missing_states() {
        assert!(
            matches!(preflight(b"", false, None), Preflight::Missing(m) if m.contains("0 bytes"))
        );
        assert!(matches!(
            preflight(b"\n", false, None),
            Preflight::Missing(_)
        ));
        assert!(
            matches!(preflight(b"{not json", false, None), Preflight::Missing(m) if m.contains("valid JSON"))
        );
        assert!(
            matches!(preflight(&state("L", 1, 0), false, None), Preflight::Missing(m) if m.contains("no resources"))
        );
        assert!(matches!(
            preflight(&state("L", 1, 0), true, None),
            Preflight::Ok(_)
        ));
        assert!(matches!(preflight(b"", true, None), Preflight::Ok(_)));
    }

    #[test]
    fn replaced_states() {
        let mark = StateMark {
            lineage: "L".into(),
            serial: 5,
        };
        match preflight(&state("L", 6, 1), false, Some(&mark)) {
            Preflight::Ok(i) => {
                assert_eq!(i.serial, 6);
                assert!(i.provider_hosts.contains("registry.terraform.io"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            preflight(&state("L", 5, 1), false, Some(&mark)),
            Preflight::Ok(_)
        ));
        assert!(
            matches!(preflight(&state("M", 9, 1), false, Some(&mark)), Preflight::Replaced(m, _) if m.contains("lineage"))
        );
        assert!(
            matches!(preflight(&state("L", 4, 1), false, Some(&mark)), Preflight::Replaced(m, _) if m.contains("backwards"))
        );
    }
}
