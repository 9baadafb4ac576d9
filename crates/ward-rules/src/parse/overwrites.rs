//! An `overwrites` or `modifies` block of a `resource` entry.

use super::Reader;
use crate::error::RulesError;
use crate::rule::Overwrites;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use ward_model::Impact;

const OVERWRITES_KEYS: &[&str] = &["impact", "what", "why", "target", "when_set"];

impl Reader<'_> {
    /// An `overwrites` or `modifies` block (`name`): `impact` (above `free`) and `what` required,
    /// `why`, `target` and `when_set` optional.
    pub(super) fn overwrites(
        &self,
        ob: &Block,
        place: &str,
        name: &str,
    ) -> Result<Overwrites, RulesError> {
        let example = if name == "modifies" {
            "modifies { impact = \"in-place\", what = \"adds a rule to an existing security group\", target = [\"security_group_id\"] }"
        } else {
            "overwrites { impact = \"interrupt\", what = \"replaces the whole IAM policy of the organization\", target = [\"org_id\"] }"
        };
        if !ob.labels.is_empty() {
            return Err(self
                .err(
                    ob.ident.span(),
                    format!("the `{name}` block takes no label"),
                )
                .help(format!("write `{example}`")));
        }
        let oplace = format!("`{name}` of {place}");
        let attrs = self.attributes(&ob.body, &oplace, OVERWRITES_KEYS, &[])?;
        let required = |key: &str| {
            attrs.get(key).copied().ok_or_else(|| {
                self.err(ob.ident.span(), format!("{oplace} has no `{key}`"))
                    .help(format!("write `{example}`"))
            })
        };
        let ia = required("impact")?;
        let impact = self.impact(ia)?;
        if impact <= Impact::Free {
            return Err(self
                .err(ia.value.span(), format!("{oplace} costs `{impact}`"))
                .help("changing or taking over state that exists outside this root is never free: give `in-place`, `interrupt`, `replace` or `data-loss`"));
        }
        let what = self.nonempty(required("what")?)?;
        let why = attrs.get("why").map(|a| self.nonempty(a)).transpose()?;
        let top_level = |key: &str, help: &str| -> Result<Vec<String>, RulesError> {
            let mut out: Vec<String> = Vec::new();
            if let Some(a) = attrs.get(key) {
                for (text, span) in self.strings(a)? {
                    let p = self.pattern(&text, span.clone(), key)?;
                    if p.has_wildcard() || p.len() != 1 {
                        return Err(self
                            .err(
                                span,
                                format!("{key} `{text}` is not one top-level attribute"),
                            )
                            .help(help.to_string()));
                    }
                    let shown = p.to_string();
                    if out.contains(&shown) {
                        return Err(self
                            .err(span, format!("{key} lists `{shown}` twice"))
                            .help("keep one"));
                    }
                    out.push(shown);
                }
            }
            Ok(out)
        };
        let target = top_level(
            "target",
            "name the top-level attributes whose planned values name the existing object, e.g. `[\"org_id\"]`",
        )?;
        let when_set = top_level(
            "when_set",
            "name the top-level attributes whose planned values change the existing object, e.g. `[\"map_public_ip_on_launch\"]`",
        )?;
        if let (Some(a), true) = (attrs.get("when_set"), when_set.is_empty()) {
            return Err(self
                .err(a.value.span(), format!("{oplace} has an empty `when_set`"))
                .help("list the attributes whose planned values change the existing object, or leave `when_set` out (every create changes it)"));
        }
        Ok(Overwrites {
            impact,
            what,
            why,
            target,
            when_set,
            line: self.line_of(ob.ident.span()),
        })
    }
}
