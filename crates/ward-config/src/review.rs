//! The `reviewers { }` block: who may approve what when approvals come from pull-request
//! reviews (`ward gate --approvals-from`). Read by ward-gate's review evaluation
//! (`ward_gate::review`); format in `docs/gate.md`, "Review approvals".
//!
//! ```hcl
//! reviewers {
//!   comment_author = "github-actions[bot]"  # only ward's comments by this account list digests
//!   allow_author   = false                  # the pull request's author never approves own changes
//!   require "dba" {
//!     impact  = ["data-loss"]
//!     root    = ["live/prod/*"]
//!     from    = ["@org/dba"]
//!     count   = 2
//!   }
//! }
//! ```
//!
//! A change that needs an approval and that no `require` block covers needs one approving
//! review from anyone but the author; a change several blocks cover needs each of them.

use crate::error::ConfigError;
use crate::read::Schema;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use std::collections::BTreeSet;
use ward_hcl::Reader;
use ward_model::{pattern, Impact};

/// The `reviewers` block (defaults when absent: one approving review from anyone but the
/// author, every comment read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reviewers {
    /// Only comments by this account list the digests a review approves; `None`: comments by
    /// anyone (the gate warns, since anyone could post a list).
    pub comment_author: Option<String>,
    /// A review by the pull request's own author counts (default false).
    pub allow_author: bool,
    /// `require "NAME" { }` blocks, in file order.
    pub require: Vec<Requirement>,
}

/// One `require "NAME" { impact, address, root, from, count }` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// Its name (the label), for reports.
    pub name: String,
    /// The impact classes it covers; empty: every class.
    pub impact: BTreeSet<Impact>,
    /// Address patterns ([`ward_model::pattern`]) it covers; empty: every address.
    pub address: Vec<String>,
    /// Root patterns (the root's path relative to the directory of `ward.hcl`, `/`-separated);
    /// empty: every root.
    pub root: Vec<String>,
    /// Who may approve: logins (`alice`) and teams (`@org/team-slug`).
    pub from: Vec<String>,
    /// How many distinct approving reviewers among `from` (at least 1).
    pub count: u64,
    /// Line of the block.
    pub line: usize,
}

impl Requirement {
    /// Whether it covers a change of class `impact` at `address` in `root` (`None`: the root is
    /// not known, so only a block without `root` covers it).
    pub fn covers(&self, impact: Impact, address: &str, root: Option<&str>) -> bool {
        (self.impact.is_empty() || self.impact.contains(&impact))
            && (self.address.is_empty()
                || self
                    .address
                    .iter()
                    .any(|p| pattern::address_matches(p, address)))
            && (self.root.is_empty()
                || root.is_some_and(|r| self.root.iter().any(|p| pattern::matches(p, r))))
    }

    /// The teams it names (`org/slug`, without the `@`).
    pub fn teams(&self) -> impl Iterator<Item = &str> {
        self.from.iter().filter_map(|f| f.strip_prefix('@'))
    }
}

/// The block's schemas (suggestions elsewhere).
pub(crate) const SCHEMAS: &[Schema] = &[
    Schema {
        place: "`reviewers { }`",
        keys: REVIEWERS_KEYS,
        blocks: &["require"],
    },
    Schema {
        place: "`reviewers { require \"NAME\" { } }`",
        keys: REQUIRE_KEYS,
        blocks: &[],
    },
];
const REVIEWERS_KEYS: &[&str] = &["comment_author", "allow_author"];
const REQUIRE_KEYS: &[&str] = &["impact", "address", "root", "from", "count"];

pub(crate) fn reviewers(src: &Reader<'_>, b: &Block) -> Result<Reviewers, ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`reviewers`", REVIEWERS_KEYS, &["require"])?;
    let mut r = Reviewers::default();
    if let Some(a) = f.get("comment_author") {
        r.comment_author = Some(src.nonempty(a)?);
    }
    if let Some(a) = f.get("allow_author") {
        r.allow_author = src.boolean(a)?;
    }
    for rb in &f.blocks {
        let req = require(src, rb)?;
        if let Some(first) = r.require.iter().find(|x| x.name == req.name) {
            return Err(src
                .err(
                    rb.ident.span(),
                    format!("a second `require \"{}\"` block", req.name),
                )
                .help(format!(
                    "the first is at line {}; give each a name of its own",
                    first.line
                ))
                .into());
        }
        r.require.push(req);
    }
    Ok(r)
}

fn require(src: &Reader<'_>, b: &Block) -> Result<Requirement, ConfigError> {
    let name = src.one_label(b, "its name", "require \"dba\" { ... }")?;
    let place = format!("`require \"{name}\"`");
    let f = src.fields(&b.body, &place, REQUIRE_KEYS, &[])?;
    let mut impact = BTreeSet::new();
    if let Some(a) = f.get("impact") {
        for (s, span) in src.strings(a)? {
            let i: Impact = s.parse().map_err(|e: ward_model::ParseImpactError| {
                let names: Vec<&str> = Impact::ALL.iter().map(|i| i.as_str()).collect();
                let help = match ward_hcl::did_you_mean(&s, &names) {
                    Some(k) => format!("did you mean \"{k}\"?"),
                    None => format!("use impact classes: {}", names.join(", ")),
                };
                src.err(span, format!("{place}: impact: {e}")).help(help)
            })?;
            impact.insert(i);
        }
    }
    let address = match f.get("address") {
        Some(a) => crate::read::patterns(src, a)?,
        None => Vec::new(),
    };
    let root = match f.get("root") {
        Some(a) => crate::read::patterns(src, a)?,
        None => Vec::new(),
    };
    let fa = f.get("from").ok_or_else(|| {
        src.err(b.ident.span(), format!("{place} has no `from`"))
            .help("add `from = [\"@org/team\", \"login\"]`: who may approve what it covers")
    })?;
    let mut from = Vec::new();
    for (s, span) in src.strings(fa)? {
        let ok = match s.strip_prefix('@') {
            Some(team) => team
                .split_once('/')
                .is_some_and(|(o, t)| login_like(o) && login_like(t)),
            None => login_like(&s),
        };
        if !ok {
            return Err(src
                .err(
                    span,
                    format!("{place}: `{s}` is neither a login nor a team"),
                )
                .help("write a login (`alice`) or a team as `@org/team-slug`")
                .into());
        }
        from.push(s);
    }
    if from.is_empty() {
        return Err(src
            .err(
                fa.value.span(),
                format!("{place}: `from` is empty, so nobody could approve"),
            )
            .help("name at least one login or `@org/team`")
            .into());
    }
    let count = match f.get("count") {
        Some(a) => {
            let n = src.count(a)?;
            if n == 0 {
                return Err(src
                    .err(
                        a.value.span(),
                        format!("{place}: `count = 0` would require no review at all"),
                    )
                    .help("give at least 1, or remove the block")
                    .into());
            }
            n
        }
        None => 1,
    };
    Ok(Requirement {
        name,
        impact,
        address,
        root,
        from,
        count,
        line: src.line_of(b.ident.span()),
    })
}

/// A login or team slug as forges spell them: letters, digits, `-`, `_`, `.`, and `[bot]`.
fn login_like(s: &str) -> bool {
    let s = s.strip_suffix("[bot]").unwrap_or(s);
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::Config;
    use std::path::Path;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(text, "ward.hcl", Path::new(".")).map_err(|e| e.to_string())
    }

    #[test]
    fn a_requirement_reads_with_its_defaults() {
        let c = parse(
            "reviewers {\n  comment_author = \"github-actions[bot]\"\n  require \"dba\" {\n    impact = [\"data-loss\"]\n    root = [\"live/prod/*\"]\n    from = [\"@org/dba\", \"alice\"]\n    count = 2\n  }\n}\n",
        )
        .unwrap();
        let r = &c.policy.reviewers;
        assert_eq!(r.comment_author.as_deref(), Some("github-actions[bot]"));
        assert!(!r.allow_author);
        let q = &r.require[0];
        assert_eq!((q.name.as_str(), q.count, q.line), ("dba", 2, 3));
        assert_eq!(q.teams().collect::<Vec<_>>(), ["org/dba"]);
        assert!(q.covers(ward_model::Impact::DataLoss, "a.b", Some("live/prod/db")));
        assert!(!q.covers(ward_model::Impact::DataLoss, "a.b", Some("live/dev/db")));
        assert!(!q.covers(ward_model::Impact::DataLoss, "a.b", None));
        assert!(!q.covers(ward_model::Impact::Replace, "a.b", Some("live/prod/db")));
    }

    #[test]
    fn errors_are_placed() {
        let e =
            parse("reviewers {\n  require \"x\" {\n    from = [\"@org\"]\n  }\n}\n").unwrap_err();
        assert!(
            e.starts_with("ward.hcl:3:13: `require \"x\"`: `@org` is neither"),
            "{e}"
        );
        let e = parse("reviewers {\n  require \"x\" {\n    count = 1\n  }\n}\n").unwrap_err();
        assert!(
            e.starts_with("ward.hcl:2:3: `require \"x\"` has no `from`"),
            "{e}"
        );
        let e =
            parse("reviewers {\n  require \"x\" {\n    from = [\"a\"]\n    count = 0\n  }\n}\n")
                .unwrap_err();
        assert!(e.starts_with("ward.hcl:4:13:"), "{e}");
        let e = parse("reviewers {\n  require \"x\" {\n    from = [\"a\"]\n    impact = [\"data-los\"]\n  }\n}\n")
            .unwrap_err();
        assert!(
            e.starts_with("ward.hcl:4:15:") && e.contains("data-loss"),
            "{e}"
        );
        let e = parse("reviewers {\n  alow_author = true\n}\n").unwrap_err();
        assert!(
            e.starts_with("ward.hcl:2:3: unknown key `alow_author`"),
            "{e}"
        );
        let e = parse("reviewers {\n}\nreviewers {\n}\n").unwrap_err();
        assert!(
            e.starts_with("ward.hcl:3:1: a second `reviewers` block"),
            "{e}"
        );
        let e = parse(
            "reviewers {\n  require \"x\" {\n    from = [\"a\"]\n  }\n  require \"x\" {\n    from = [\"b\"]\n  }\n}\n",
        )
        .unwrap_err();
        assert!(
            e.starts_with("ward.hcl:5:3: a second `require \"x\"`"),
            "{e}"
        );
    }
}
