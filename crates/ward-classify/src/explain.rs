//! Plain words: action reasons, actions and values as explanations print them.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use ward_model::{Action, AttrChange, AttrPath, PathStep, Product, Shown};

/// The longest rendering of one value inside an explanation (characters); longer ones end in `…`.
pub const MAX_VALUE_CHARS: usize = 120;

/// Every `action_reason` Terraform and OpenTofu write, in words. (The machine-readable UI's short
/// spellings `cannot_update`, `tainted`, `requested` and `replace_triggered_by` are accepted too.)
pub fn reason_words(reason: &str) -> Option<&'static str> {
    Some(match reason {
        "replace_because_tainted" | "tainted" => {
            "the object is tainted (its creation or a provisioner failed, or it was marked with `taint`), so it is replaced"
        }
        "replace_because_cannot_update" | "cannot_update" => {
            "the provider cannot change this in place"
        }
        "replace_by_request" | "requested" => "replacement was requested with -replace",
        "replace_by_triggers" | "replace_triggered_by" => {
            "a resource named in its lifecycle replace_triggered_by changed"
        }
        "delete_because_no_resource_config" => {
            "its resource block is no longer in the configuration"
        }
        "delete_because_wrong_repetition" => {
            "the resource switched between count, for_each and a single instance, so this instance's key no longer exists"
        }
        "delete_because_count_index" => "its count index is beyond the new count",
        "delete_because_each_key" => "its for_each key is no longer in the for_each collection",
        "delete_because_no_module" => {
            "its module call (or this module instance) is no longer in the configuration"
        }
        "delete_because_no_move_target" => {
            "a moved block points it to an address that is not declared"
        }
        "read_because_config_unknown" => {
            "its configuration depends on values known only after apply, so it is read during apply"
        }
        "read_because_dependency_pending" => {
            "it depends on resources with pending changes, so it is read during apply"
        }
        "read_because_check_nested" => {
            "it is declared inside a check block, whose data sources are read during apply"
        }
        _ => return None,
    })
}

/// `Terraform: replace_because_cannot_update — the provider cannot change this in place`; an
/// unknown reason is printed verbatim.
pub fn reason_line(product: Product, reason: &str) -> String {
    let who = match product {
        Product::OpenTofu => "OpenTofu",
        Product::Terraform | Product::Unknown => "Terraform",
    };
    // Sized and pushed: `format!` would grow the string from its guess.
    let words = reason_words(reason);
    let mut out = String::with_capacity(who.len() + reason.len() + 8 + words.map_or(0, str::len));
    out.push_str(who);
    out.push_str(": ");
    push_plain_reason(&mut out, reason, words);
    out
}

/// [`reason_line`] without the product's name: `replace_because_cannot_update — the provider
/// cannot change this in place`. For a report written before the product is known (the JSON
/// report, which names the product in its `plan` section).
pub fn plain_reason_line(reason: &str) -> String {
    let words = reason_words(reason);
    let mut out = String::with_capacity(reason.len() + 8 + words.map_or(0, str::len));
    push_plain_reason(&mut out, reason, words);
    out
}

/// [`plain_reason_line`] appended to `out`, with the reason's `words`.
fn push_plain_reason(out: &mut String, reason: &str, words: Option<&str>) {
    out.push_str(reason);
    if let Some(words) = words {
        out.push_str(" — ");
        out.push_str(words);
    }
}

/// What apply will do, as the first line of an explanation.
pub fn action_line(action: Action) -> &'static str {
    match action {
        Action::NoOp => "no change",
        Action::Create => "will be created",
        Action::Read => "will be read during apply",
        Action::Update => "will be updated in place",
        Action::ReplaceDeleteFirst => "will be replaced: destroyed first, then created again",
        Action::ReplaceCreateFirst => {
            "will be replaced: a new object is created, then the old one destroyed"
        }
        Action::Delete => "will be destroyed",
        Action::Forget => "will be forgotten",
        Action::CreateThenForget => "will be created, and the previous object forgotten",
        Action::Open => "ephemeral resource: opened during the run, never stored in state",
    }
}

/// A value for an explanation: sensitive values are only ever `(sensitive)`.
pub fn value(v: &Shown) -> String {
    let mut out = String::new();
    push_value(&mut out, v);
    out
}

/// [`value`] written at the end of `out`: a known value's first [`MAX_VALUE_CHARS`] characters,
/// then `…` when there were more.
fn push_value(out: &mut String, v: &Shown) {
    match v {
        Shown::Sensitive => out.push_str("(sensitive)"),
        Shown::Unknown => out.push_str("(known after apply)"),
        Shown::Absent => out.push_str("null"),
        Shown::Known(j) => {
            let start = out.len();
            // serde_json's own writer: the same text as `Display`, without a `Formatter`.
            match serde_json::to_string(j) {
                Ok(text) => out.push_str(&text),
                Err(_) => {
                    let _ = write!(out, "{j}");
                }
            }
            let cut = out
                .get(start..)
                .and_then(|s| s.char_indices().nth(MAX_VALUE_CHARS));
            if let Some((at, _)) = cut {
                out.truncate(start + at);
                out.push('…');
            }
        }
    }
}

/// `before → after`.
pub fn before_after(c: &AttrChange) -> String {
    // Written into one string: two values and the arrow, most under 64 bytes.
    let mut out = String::with_capacity(64);
    push_before_after(&mut out, c);
    out
}

/// [`before_after`] written at the end of `out`.
pub(crate) fn push_before_after(out: &mut String, c: &AttrChange) {
    push_value(out, &c.before);
    out.push_str(" → ");
    push_value(out, &c.after);
}

/// `a, b, c`.
pub fn paths(ps: &[AttrPath]) -> String {
    // Each path written into the one string: no string per path, no join.
    let mut out = String::new();
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = p.write_to(&mut out);
    }
    out
}

/// How many addresses a suggestion names before it says how many more.
const MAX_ADDRESSES: usize = 3;
/// How many changed attributes a suggestion offers `attribute` blocks for.
const MAX_SUGGESTED_ATTRIBUTES: usize = 12;

/// What a plan's changes showed of one unclassified type: where, what they do, which top-level
/// attributes they change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    /// The first few addresses (plan order).
    pub addresses: Vec<String>,
    /// How many changes in all.
    pub count: usize,
    /// The actions the changes take.
    pub actions: BTreeSet<Action>,
    /// The top-level attributes the changes change (names a pattern can hold as they are).
    pub attributes: BTreeSet<String>,
}

impl Seen {
    /// Notes one change.
    pub fn add(&mut self, address: &str, action: Action, changed: &[AttrChange]) {
        self.count += 1;
        if self.addresses.len() < MAX_ADDRESSES {
            self.addresses.push(address.to_string());
        }
        self.actions.insert(action);
        for ch in changed {
            if let Some(PathStep::Key(k)) = ch.path.0.first() {
                let plain = !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if plain && self.attributes.len() < MAX_SUGGESTED_ATTRIBUTES {
                    self.attributes.insert(k.clone());
                }
            }
        }
    }
}

/// A paste-ready `resource "TYPE" { ... }` block for `ward.hcl`: a comment saying where the type
/// was seen, then every question to decide, each with its default filled in so the block is
/// valid as pasted, and an `attribute` block for each attribute the plan changes.
pub fn suggestion(type_name: &str, seen_in: &[&str], seen: Option<&Seen>) -> String {
    let mut out = String::new();
    let mut place = format!("# seen in {}", seen_in.join(", "));
    if let Some(s) = seen {
        let more = s.count.saturating_sub(s.addresses.len());
        place.push_str(&format!(": {}", s.addresses.join(", ")));
        if more > 0 {
            place.push_str(&format!(" and {more} more"));
        }
    }
    // One comment line whatever the plan's names hold: control characters (a newline would end
    // the comment) are written as escapes.
    for c in place.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('\n');
    // The label through the writer's string encoder: a type name from the plan is data.
    out.push_str(&format!(
        "resource {} {{\n",
        ward_repo::write::quoted(type_name)
    ));
    out.push_str("  rationale  = \"TODO: why these costs\"\n");
    out.push_str("  holds_data = false      # true: destroying or replacing it loses data\n");
    out.push_str("  identity   = [\"id\"]     # attributes that are new after a replacement\n");
    out.push_str("  on_create  = \"free\"\n");
    out.push_str("  on_update  = \"in-place\" # a changed attribute no `attribute` block names\n");
    out.push_str("  on_delete  = \"replace\"\n");
    out.push_str("  on_replace = \"replace\"\n");
    if let Some(s) = seen {
        for a in &s.attributes {
            out.push_str(&format!(
                "  attribute {} {{\n    impact = \"in-place\" # changed by this plan: none, free, in-place, interrupt, replace or data-loss\n  }}\n",
                ward_repo::write::quoted(a)
            ));
        }
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `paths` is each path's display joined with `, `: none, one, keys that need quoting,
    /// indices.
    #[test]
    fn paths_are_their_displays_joined() {
        let lists = [
            vec![],
            vec![AttrPath::dotted("id")],
            vec![
                AttrPath::dotted("network.0.ip"),
                AttrPath(vec![
                    PathStep::Key("tags".into()),
                    PathStep::Key("kubernetes.io/role".into()),
                ]),
                AttrPath::dotted("arn"),
            ],
        ];
        for ps in &lists {
            let joined: Vec<String> = ps.iter().map(ToString::to_string).collect();
            assert_eq!(paths(ps), joined.join(", "));
        }
        assert_eq!(
            paths(&lists[2]),
            r#"network[0].ip, tags["kubernetes.io/role"], arn"#
        );
    }

    /// A known value is cut after [`MAX_VALUE_CHARS`] characters (not bytes), with `…`; one of
    /// exactly that many is whole; `before_after` cuts each side on its own.
    #[test]
    fn values_are_cut_by_characters() {
        let known = |s: &str| Shown::Known(serde_json::Value::String(s.to_string()));
        // Quoted: the string's 118 characters and its two quotes are 120.
        let whole = "é".repeat(MAX_VALUE_CHARS - 2);
        assert_eq!(value(&known(&whole)), format!("\"{whole}\""));
        let long = format!("{whole}x");
        assert_eq!(value(&known(&long)), format!("\"{whole}x…"));
        let change = AttrChange {
            path: AttrPath::dotted("a"),
            before: known(&long),
            after: Shown::Sensitive,
            hidden: None,
        };
        assert_eq!(before_after(&change), format!("\"{whole}x… → (sensitive)"));
    }

    /// A type name or address from a hostile plan cannot break out of the label or the comment:
    /// the block, parsed back, is one `resource` block labelled with the name as given.
    #[test]
    #[allow(clippy::panic)]
    fn a_hostile_type_name_stays_one_label() {
        for name in [
            "a\" {}\nresource \"evil",
            "x\ny",
            "${file(\"/etc/passwd\")}",
            "%{ if true }x%{ endif }",
            "back\\slash\\",
            "tab\tand\r",
        ] {
            let mut seen = Seen::default();
            seen.add(
                &format!("{name}.n[\"k\\nresource \\\"z\\\" {{}}\n\"]"),
                Action::Create,
                &[],
            );
            let text = suggestion(name, &["config\nresource \"y\" {}"], Some(&seen));
            let body = ward_hcl::parse_body(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let blocks: Vec<_> = body.blocks().collect();
            assert_eq!(blocks.len(), 1, "{text}");
            assert_eq!(body.attributes().count(), 0, "{text}");
            assert_eq!(blocks[0].ident.as_str(), "resource");
            let labels: Vec<&str> = blocks[0].labels.iter().map(|l| l.as_str()).collect();
            assert_eq!(labels, [name], "{text}");
            assert_eq!(blocks[0].body.attributes().count(), 7, "{text}");
        }
    }

    #[test]
    fn every_documented_reason_has_words() {
        for r in [
            "replace_because_tainted",
            "replace_because_cannot_update",
            "replace_by_request",
            "replace_by_triggers",
            "delete_because_no_resource_config",
            "delete_because_wrong_repetition",
            "delete_because_count_index",
            "delete_because_each_key",
            "delete_because_no_module",
            "delete_because_no_move_target",
            "read_because_config_unknown",
            "read_because_dependency_pending",
            "read_because_check_nested",
        ] {
            let line = reason_line(Product::Terraform, r);
            assert!(line.starts_with(&format!("Terraform: {r} — ")), "{line}");
        }
        assert_eq!(
            reason_line(Product::OpenTofu, "replace_because_a_future_thing"),
            "OpenTofu: replace_because_a_future_thing"
        );
    }

    #[test]
    fn values_are_shortened_and_sensitive_hidden() {
        assert_eq!(value(&Shown::Sensitive), "(sensitive)");
        let long = Shown::Known(serde_json::Value::String("x".repeat(500)));
        let v = value(&long);
        assert_eq!(v.chars().count(), MAX_VALUE_CHARS + 1);
        assert!(v.ends_with('…'));
    }
}
