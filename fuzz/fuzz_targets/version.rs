//! Fuzz target: version and constraint text (`required_version`, provider and module
//! `version`, Ansible pins) read by ward-version. Any text gives a value or an `Error`, never a
//! panic; and what reads also round-trips and keeps the operators' meaning:
//! - a version's `Display` reads back as the same version, build metadata included;
//! - a constraint's `Display` reads back as the same constraint;
//! - a release version satisfies `=`, `>=`, `<=` and `~>` of itself and not `!=`, `>`, `<`;
//! - `is_exact` agrees with `Constraint::exact`, and an exact constraint admits its version.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ward_version::{Constraint, Op, Version};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(v) = Version::parse(text) {
        let shown = v.to_string();
        match Version::parse(&shown) {
            Ok(again) => assert!(
                again == v && again.build == v.build,
                "{text:?} reads as {v:?}, shown as {shown:?}, which reads as {again:?}"
            ),
            Err(e) => panic!("{text:?} reads, but its display {shown:?} does not: {e}"),
        }
    }
    let Ok(c) = Constraint::parse(text) else {
        assert!(!ward_version::is_exact(text));
        return;
    };
    let shown = c.to_string();
    match Constraint::parse(&shown) {
        Ok(again) => assert_eq!(again, c, "{text:?} shown as {shown:?} reads differently"),
        Err(e) => panic!("{text:?} reads, but its display {shown:?} does not: {e}"),
    }
    assert_eq!(ward_version::is_exact(text), c.exact().is_some());
    if let Some(v) = c.exact() {
        assert!(c.admits(v), "{text:?} does not admit the version it names");
    }
    for clause in c.clauses() {
        let v = &clause.version;
        if v.is_prerelease() {
            continue;
        }
        let own = matches!(clause.op, Op::Eq | Op::Ge | Op::Le | Op::Pessimistic);
        assert_eq!(
            clause.admits(v),
            own,
            "{clause} and its own version {v}: {}",
            if own { "refused" } else { "admitted" }
        );
    }
});
