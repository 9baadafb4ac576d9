//! A `resource` entry: its type, its selector, its keys, its `attribute` blocks and `free`
//! entries, and its `overwrites`/`modifies` blocks.

use super::{FileKind, Reader};
use crate::error::RulesError;
use crate::pattern::{is_type_name, Pattern};
use crate::rule::{AttrRule, Direction, Overwrites, Rule, RulePaths, Selector};
use crate::{RuleOrigin, RuleRef};
use hcl_edit::structure::{Attribute, Block, Structure};
use hcl_edit::Span;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;
use ward_model::Impact;

const RESOURCE_KEYS: &[&str] = &[
    "summary",
    "source",
    "rationale",
    "holds_data",
    "identity",
    "on_create",
    "on_update",
    "on_delete",
    "on_replace",
    "free",
    "final_snapshot_skip",
    "final_snapshot_name",
    "access_rules",
    "grants_access",
    "address",
    "module",
    "provider",
    "when",
];
const ATTRIBUTE_KEYS: &[&str] = &["impact", "why", "decrease", "increase", "unbounded"];

impl Reader<'_> {
    /// What an `attribute` block's change costs: `impact`, or `decrease` and `increase` (with
    /// `unbounded`), never both.
    fn attribute_cost(
        &self,
        ab: &Block,
        aplace: &str,
        aattrs: &BTreeMap<String, &Attribute>,
    ) -> Result<(Impact, Option<Direction>), RulesError> {
        let get = |k: &str| aattrs.get(k).copied();
        match (get("impact"), get("decrease"), get("increase")) {
            (Some(ia), None, None) => {
                if let Some(u) = get("unbounded") {
                    return Err(self
                        .err(u.key.span(), format!("`unbounded` in {aplace} without `decrease` and `increase`"))
                        .help("`unbounded` lists the values that mean \"no limit\" for a directional entry: give `decrease = ...` and `increase = ...` instead of `impact`, or remove it"));
                }
                Ok((self.impact(ia)?, None))
            }
            (Some(ia), _, _) => Err(self
                .err(ia.key.span(), format!("{aplace} gives `impact` and a direction"))
                .help("write `impact = ...` for one cost, or `decrease = ...` and `increase = ...` for a cost by direction (an unknown direction costs the worse of the two), not both")),
            (None, Some(d), Some(i)) => {
                let decrease = self.impact(d)?;
                let increase = self.impact(i)?;
                let unbounded = match get("unbounded") {
                    None => Vec::new(),
                    Some(u) => self.bounds(u)?,
                };
                Ok((
                    decrease.max(increase),
                    Some(Direction {
                        decrease,
                        increase,
                        unbounded,
                    }),
                ))
            }
            (None, Some(one), None) | (None, None, Some(one)) => {
                let missing = if one.key.as_str() == "decrease" { "increase" } else { "decrease" };
                Err(self
                    .err(one.key.span(), format!("{aplace} gives `{}` without `{missing}`", one.key.as_str()))
                    .help(format!("a directional entry says what both directions cost: add `{missing} = \"...\"` (or write one `impact` for both)")))
            }
            (None, None, None) => Err(self
                .err(ab.ident.span(), format!("{aplace} has no `impact`"))
                .help("add `impact = \"in-place\"` (or none, free, interrupt, replace, data-loss), or `decrease = ...` and `increase = ...`")),
        }
    }

    /// A `resource` entry, read in named steps in the order its errors are reported: the head
    /// (type, keys, origin), the selector, `identity`, the body's entries in file order, the other
    /// keys, and last the refusal of a user entry that decides nothing.
    pub(super) fn resource(
        &self,
        b: &Block,
        origin: &RuleOrigin,
        kind: FileKind,
    ) -> Result<Rule, RulesError> {
        let head = self.resource_head(b, origin, kind)?;
        let attrs = &head.attrs;
        let opt_string = |key: &str| attrs.get(key).map(|a| self.string(a)).transpose();
        let opt_impact = |key: &str| attrs.get(key).map(|a| self.impact(a)).transpose();

        let selector = self.selector(attrs)?;
        let identity = self.identity(attrs)?;
        let Entries {
            attributes,
            overwrites,
            modifies,
            ..
        } = self.entries(b, &head.place, &head.base)?;

        let final_snapshot_skip = self.one_name(attrs, "final_snapshot_skip")?;
        let final_snapshot_name = self.one_name(attrs, "final_snapshot_name")?;
        let access_rules = self.access_rules(attrs)?;
        let grants_access = attrs
            .get("grants_access")
            .map(|a| self.boolean(a))
            .transpose()?;
        let paths = RulePaths::of(identity.as_deref(), access_rules.as_deref());
        let rule = Rule {
            final_snapshot_skip,
            final_snapshot_name,
            access_rules,
            grants_access,
            overwrites,
            modifies,
            origin: head.origin,
            type_name: head.type_name,
            line: head.line,
            summary: opt_string("summary")?,
            source: opt_string("source")?,
            rationale: opt_string("rationale")?,
            holds_data: attrs
                .get("holds_data")
                .map(|a| self.boolean(a))
                .transpose()?,
            identity,
            on_create: opt_impact("on_create")?,
            on_update: opt_impact("on_update")?,
            on_delete: opt_impact("on_delete")?,
            on_replace: opt_impact("on_replace")?,
            attributes,
            rank: (0, selector.specificity(), 0, head.line),
            paths,
            selector,
            reference: Arc::new(head.base),
        };
        if kind == FileKind::User {
            self.decides_something(b, &head.place, attrs, &rule)?;
        }
        Ok(rule)
    }

    /// A `resource` block's head: its one label (a type name), its keys, its line and what its
    /// decisions cite.
    fn resource_head<'b>(
        &self,
        b: &'b Block,
        origin: &RuleOrigin,
        kind: FileKind,
    ) -> Result<Head<'b>, RulesError> {
        let type_name =
            self.one_label(b, "the resource type", "resource \"aws_instance\" { ... }")?;
        if !is_type_name(&type_name) {
            return Err(self
                .err(
                    b.labels.first().and_then(|l| l.span()),
                    format!("`{type_name}` is not a resource type name"),
                )
                .help("use the type as Terraform spells it, e.g. `aws_instance`"));
        }
        let place = format!("`resource \"{type_name}\"`");
        let attrs = self.attributes(
            &b.body,
            &place,
            RESOURCE_KEYS,
            &["attribute", "overwrites", "modifies"],
        )?;
        let line = self.line_of(b.ident.span());
        let origin = match (kind, origin) {
            (FileKind::User, RuleOrigin::User { file, .. }) => RuleOrigin::User {
                file: file.clone(),
                line,
            },
            _ => origin.clone(),
        };
        // What every decision by this rule cites; an attribute entry's adds its pattern.
        let base = RuleRef {
            origin: origin.clone(),
            type_name: type_name.clone(),
            attribute: None,
        };
        Ok(Head {
            type_name,
            place,
            attrs,
            line,
            origin,
            base,
        })
    }

    /// The selector: `address`, `module`, `provider` and `when`, each checked, in that order.
    fn selector(&self, attrs: &BTreeMap<String, &Attribute>) -> Result<Selector, RulesError> {
        let opt_nonempty = |key: &str| attrs.get(key).map(|a| self.nonempty(a)).transpose();
        let address = opt_nonempty("address")?;
        let module = opt_nonempty("module")?;
        if let (Some(m), Some(a)) = (&module, attrs.get("module")) {
            if !m.starts_with("module.") {
                return Err(self
                    .err(a.value.span(), format!("`module = \"{m}\"` is not a module path"))
                    .help("write the module path as in addresses, e.g. `module = \"module.ledger\"`; for the root module use `address` instead"));
            }
        }
        let provider = opt_nonempty("provider")?;
        if let (Some(p), Some(a)) = (&provider, attrs.get("provider")) {
            if p.split('/').any(|s| s.trim().is_empty()) {
                return Err(self
                    .err(a.value.span(), format!("`provider = \"{p}\"` has an empty segment"))
                    .help("write `namespace/type` (`hashicorp/aws`), a full address or a local name (`aws`)"));
            }
        }

        let when = match attrs.get("when") {
            None => BTreeMap::new(),
            Some(a) => self.when(a)?,
        };
        Ok(Selector {
            address,
            module,
            provider,
            when,
        })
    }

    /// `identity`: attribute names without `*`, each once.
    fn identity(
        &self,
        attrs: &BTreeMap<String, &Attribute>,
    ) -> Result<Option<Vec<String>>, RulesError> {
        let identity = match attrs.get("identity") {
            None => None,
            Some(a) => {
                let mut out: Vec<String> = Vec::new();
                for (text, span) in self.strings(a)? {
                    let p = self.pattern(&text, span.clone(), "identity")?;
                    if p.has_wildcard() {
                        return Err(self
                            .err(span, format!("identity entry `{text}` uses `*`"))
                            .help("name each identity attribute, e.g. `[\"id\", \"mac\"]`"));
                    }
                    let shown = p.to_string();
                    if out.contains(&shown) {
                        return Err(self
                            .err(span, format!("identity lists `{shown}` twice"))
                            .help("keep one"));
                    }
                    out.push(shown);
                }
                Some(out)
            }
        };
        Ok(identity)
    }

    /// The body's `attribute` blocks, `free` entries and `overwrites`/`modifies` blocks, in
    /// file order.
    fn entries<'p>(
        &self,
        b: &Block,
        place: &'p str,
        base: &'p RuleRef,
    ) -> Result<Entries<'p>, RulesError> {
        let mut entries = Entries::new(place, base);
        // Attribute blocks and `free` entries, in file order.
        for s in b.body.iter() {
            match s {
                Structure::Attribute(a) if a.key.as_str() == "free" => {
                    for (text, span) in self.strings(a)? {
                        let p = self.pattern(&text, span.clone(), "attribute")?;
                        entries.add(self, p, (Impact::Free, None), None, span)?;
                    }
                }
                Structure::Block(ob) if ob.ident.as_str() == "overwrites" => {
                    if entries.overwrites.is_some() {
                        return Err(self
                            .err(
                                ob.ident.span(),
                                format!("a second `overwrites` block in {place}"),
                            )
                            .help("a type overwrites one thing; say it in one block"));
                    }
                    entries.overwrites = Some(self.overwrites(ob, place, "overwrites")?);
                }
                Structure::Block(ob) if ob.ident.as_str() == "modifies" => {
                    if entries.modifies.is_some() {
                        return Err(self
                            .err(
                                ob.ident.span(),
                                format!("a second `modifies` block in {place}"),
                            )
                            .help("a type modifies one existing object; say it in one block"));
                    }
                    entries.modifies = Some(self.overwrites(ob, place, "modifies")?);
                }
                Structure::Block(ab) => {
                    let text = self.one_label(
                        ab,
                        "the attribute pattern",
                        "attribute \"instance_type\" { impact = \"interrupt\" }",
                    )?;
                    let label_span = ab.labels.first().and_then(|l| l.span());
                    let p = self.pattern(&text, label_span, "attribute")?;
                    let aplace = format!("`attribute \"{text}\"` of {place}");
                    let aattrs = self.attributes(&ab.body, &aplace, ATTRIBUTE_KEYS, &[])?;
                    let cost = self.attribute_cost(ab, &aplace, &aattrs)?;
                    let why = aattrs.get("why").map(|a| self.nonempty(a)).transpose()?;
                    entries.add(self, p, cost, why, ab.ident.span())?;
                }
                _ => {}
            }
        }
        Ok(entries)
    }

    /// `final_snapshot_skip` or `final_snapshot_name`: one attribute, without `*`.
    fn one_name(
        &self,
        attrs: &BTreeMap<String, &Attribute>,
        key: &str,
    ) -> Result<Option<String>, RulesError> {
        let Some(a) = attrs.get(key) else {
            return Ok(None);
        };
        let text = self.nonempty(a)?;
        let p = self.pattern(&text, a.value.span(), key)?;
        if p.has_wildcard() {
            return Err(self
                .err(a.value.span(), format!("`{key} = \"{text}\"` uses `*`"))
                .help("name one attribute, e.g. `skip_final_snapshot`"));
        }
        Ok(Some(p.to_string()))
    }

    /// `access_rules`: the attributes that hold lists of rules, without `*`.
    fn access_rules(
        &self,
        attrs: &BTreeMap<String, &Attribute>,
    ) -> Result<Option<Vec<String>>, RulesError> {
        let access_rules = match attrs.get("access_rules") {
            None => None,
            Some(a) => {
                let mut out: Vec<String> = Vec::new();
                for (text, span) in self.strings(a)? {
                    let p = self.pattern(&text, span.clone(), "access_rules")?;
                    if p.has_wildcard() {
                        return Err(self
                            .err(span, format!("access_rules entry `{text}` uses `*`"))
                            .help("name each list of rules, e.g. `[\"ingress\", \"egress\"]`"));
                    }
                    out.push(p.to_string());
                }
                Some(out)
            }
        };
        Ok(access_rules)
    }

    /// A user entry must decide something: one that only describes or narrows (`NOT_DECIDING`)
    /// would pass the coverage gate without saying what a change costs.
    fn decides_something(
        &self,
        b: &Block,
        place: &str,
        attrs: &BTreeMap<String, &Attribute>,
        rule: &Rule,
    ) -> Result<(), RulesError> {
        // Keys that describe or narrow a rule; every other key decides something.
        const NOT_DECIDING: &[&str] = &[
            "summary",
            "source",
            "rationale",
            "address",
            "module",
            "provider",
            "when",
        ];
        if rule.attributes.is_empty()
            && rule.overwrites.is_none()
            && rule.modifies.is_none()
            && attrs.keys().all(|k| NOT_DECIDING.contains(&k.as_str()))
        {
            return Err(self
                .err(
                    b.ident.span(),
                    format!("{place} decides nothing"),
                )
                .help(format!(
                    "an empty rule would pass the coverage gate without saying what a change costs; state at least one of `holds_data`, `on_update`, `on_delete`, `on_replace`, `identity`, `free`, an `attribute` block or an `overwrites` block (the defaults: `ward docs rules`), e.g.\n    resource \"{}\" {{\n      holds_data = false\n      on_update  = \"in-place\"\n    }}",
                    rule.type_name
                )));
        }
        Ok(())
    }
}

/// A `resource` block's head, read before anything else in it.
struct Head<'b> {
    type_name: String,
    /// How errors name the block: `` `resource "aws_instance"` ``.
    place: String,
    attrs: BTreeMap<String, &'b Attribute>,
    line: usize,
    origin: RuleOrigin,
    /// What every decision by this rule cites.
    base: RuleRef,
}

/// What a `resource` block's body holds besides its keys.
struct Entries<'p> {
    /// How errors name the block.
    place: &'p str,
    /// What every decision by the rule cites.
    base: &'p RuleRef,
    attributes: Vec<AttrRule>,
    /// The line of each attribute pattern given, to refuse a second entry for it.
    seen_patterns: BTreeMap<String, usize>,
    overwrites: Option<Overwrites>,
    modifies: Option<Overwrites>,
}

impl<'p> Entries<'p> {
    fn new(place: &'p str, base: &'p RuleRef) -> Self {
        Entries {
            place,
            base,
            attributes: Vec::new(),
            seen_patterns: BTreeMap::new(),
            overwrites: None,
            modifies: None,
        }
    }

    /// Adds an attribute entry (an `attribute` block or a `free` entry), refusing a pattern given
    /// twice.
    fn add(
        &mut self,
        this: &Reader<'_>,
        compiled: Pattern,
        (impact, direction): (Impact, Option<Direction>),
        why: Option<String>,
        span: Option<Range<usize>>,
    ) -> Result<(), RulesError> {
        let pattern = compiled.to_string();
        let line = this.line_of(span.clone());
        if let Some(first) = self.seen_patterns.get(&pattern) {
            return Err(this
                .err(
                    span,
                    format!("attribute `{pattern}` is given twice in {}", self.place),
                )
                .help(format!(
                    "the first is at line {first}; keep one (a `free` entry counts as one)"
                )));
        }
        self.seen_patterns.insert(pattern.clone(), line);
        let reference = Arc::new(RuleRef {
            attribute: Some(pattern.clone()),
            ..self.base.clone()
        });
        self.attributes.push(AttrRule {
            pattern,
            impact,
            direction,
            why,
            line,
            reference,
            compiled,
        });
        Ok(())
    }
}
