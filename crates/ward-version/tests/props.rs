//! The constraint semantics against an independent model, on generated *valid* constraints and
//! versions; and the parser on anything.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use std::cmp::Ordering;
use ward_version::{Constraint, Error, Version};

/// Pre-releases the generators use, in their documented precedence order (a release is above all
/// of them). The model orders by position in this list, not by parsing.
const PRES: [&str; 5] = ["1", "2", "alpha", "alpha.1", "rc1"];

/// A version as the model sees it.
#[derive(Debug, Clone)]
struct MV {
    core: [u64; 3],
    parts: usize,
    pre: Option<usize>,
    build: Option<&'static str>,
    v_prefix: bool,
}

impl MV {
    fn render(&self) -> String {
        let mut s = String::new();
        if self.v_prefix {
            s.push('v');
        }
        let nums: Vec<String> = self.core[..self.parts].iter().map(u64::to_string).collect();
        s.push_str(&nums.join("."));
        if let Some(p) = self.pre {
            s.push('-');
            s.push_str(PRES[p]);
        }
        if let Some(b) = self.build {
            s.push('+');
            s.push_str(b);
        }
        s
    }

    /// Missing parts are 0; build metadata does not count; a release is above its pre-releases.
    fn cmp(&self, o: &MV) -> Ordering {
        self.core.cmp(&o.core).then(match (self.pre, o.pre) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(a), Some(b)) => a.cmp(&b),
        })
    }
}

const OPS: [&str; 8] = ["", "=", "!=", ">", ">=", "<", "<=", "~>"];

#[derive(Debug, Clone)]
struct MC {
    op: usize,
    version: MV,
    space: bool,
}

/// The model of one clause, written from Terraform's documentation, independently of the crate.
fn model_clause(c: &MC, v: &MV) -> bool {
    let o = v.cmp(&c.version);
    if v.pre.is_some() {
        // Pre-releases are selected only by an exact constraint.
        return (OPS[c.op] == "=" || OPS[c.op].is_empty()) && o == Ordering::Equal;
    }
    match OPS[c.op] {
        "" | "=" => o == Ordering::Equal,
        "!=" => o != Ordering::Equal,
        ">" => o == Ordering::Greater,
        ">=" => o != Ordering::Less,
        "<" => o == Ordering::Less,
        "<=" => o != Ordering::Greater,
        _ => {
            // ~> 1 and ~> 1.2: same major; ~> 1.2.3: same major and minor; and not below.
            let w = &c.version.core;
            let same = if c.version.parts == 3 {
                v.core[0] == w[0] && v.core[1] == w[1]
            } else {
                v.core[0] == w[0]
            };
            same && o != Ordering::Less
        }
    }
}

fn render(cs: &[MC], sep: &str) -> String {
    cs.iter()
        .map(|c| {
            format!(
                "{}{}{}",
                OPS[c.op],
                if c.space { " " } else { "" },
                c.version.render()
            )
        })
        .collect::<Vec<_>>()
        .join(sep)
}

fn number() -> impl Strategy<Value = u64> {
    prop_oneof![8 => 0u64..4, 1 => Just(u64::MAX), 1 => Just(u64::MAX - 1)]
}

fn mversion(release_only: bool) -> impl Strategy<Value = MV> {
    let pre = if release_only {
        Just(None).boxed()
    } else {
        proptest::option::weighted(0.3, 0..PRES.len()).boxed()
    };
    (
        [number(), number(), number()],
        1usize..=3,
        pre,
        proptest::option::weighted(0.2, prop_oneof![Just("build.5"), Just("abc")]),
        any::<bool>(),
    )
        .prop_map(|(mut core, parts, pre, build, v_prefix)| {
            for p in core.iter_mut().skip(parts) {
                *p = 0;
            }
            MV {
                core,
                parts,
                pre,
                build,
                v_prefix,
            }
        })
}

fn mclause() -> impl Strategy<Value = MC> {
    (0..OPS.len(), mversion(false), any::<bool>()).prop_map(|(op, version, space)| MC {
        op,
        version,
        space,
    })
}

fn to_version(m: &MV) -> Version {
    Version::parse(&m.render()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn constraints_follow_the_model(
        cs in proptest::collection::vec(mclause(), 1..4),
        v in mversion(false),
        sep in prop_oneof![Just(","), Just(", "), Just(" , ")],
    ) {
        let text = render(&cs, sep);
        let c = Constraint::parse(&text).unwrap();
        let want = cs.iter().all(|mc| model_clause(mc, &v));
        prop_assert_eq!(c.admits(&to_version(&v)), want, "{} admits {}?", text, v.render());
        // Display writes a constraint that reads back the same.
        prop_assert_eq!(Constraint::parse(&c.to_string()).unwrap(), c);
    }

    #[test]
    fn version_order_follows_the_model(a in mversion(false), b in mversion(false)) {
        prop_assert_eq!(to_version(&a).cmp(&to_version(&b)), a.cmp(&b));
        prop_assert_eq!(to_version(&a) == to_version(&b), a.cmp(&b) == Ordering::Equal);
    }

    #[test]
    fn exact_means_one_version(c in mclause(), v in mversion(false)) {
        let text = render(std::slice::from_ref(&c), ",");
        let parsed = Constraint::parse(&text).unwrap();
        if let Some(e) = parsed.exact() {
            // An exact constraint admits that version and nothing else.
            prop_assert!(parsed.admits(e));
            prop_assert_eq!(parsed.admits(&to_version(&v)), to_version(&v) == *e);
        } else {
            prop_assert!(!(OPS[c.op] == "=" || OPS[c.op].is_empty()) || c.version.parts < 3);
        }
    }

    #[test]
    fn too_large_numbers_are_named(n in "[1-9][0-9]{20,40}", at in 0usize..3, op in 0..OPS.len()) {
        let mut parts = ["1".to_string(), "2".to_string(), "3".to_string()];
        parts[at] = n.clone();
        let text = format!("{} {}", OPS[op], parts.join("."));
        match Constraint::parse(&text) {
            Err(Error::TooLarge { part, .. }) => prop_assert_eq!(part, n),
            other => prop_assert!(false, "{text}: {other:?}"),
        }
    }

    #[test]
    fn any_text_is_an_answer_or_an_error(s in "\\PC*") {
        if let Ok(c) = Constraint::parse(&s) {
            let _ = c.admits(&Version::new(1, 2, 3));
            prop_assert_eq!(Constraint::parse(&c.to_string()).unwrap(), c);
        }
        let _ = Version::parse(&s);
    }
}
