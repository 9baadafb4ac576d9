//! `ward rules list` and `ward rules show TYPE`: what ward knows (the built-in packs, the user
//! rule files, every classified type and its rules), for people and for machines. The knowledge
//! is ward-rules'; this module only renders it.

use crate::format::{Command, Format, Unsupported};
use crate::paint::Painter;
use crate::term_line;
use anstyle::Style;
use serde::Serialize;
use ward_rules::{Knowledge, Pack, Rule, RuleOrigin};

/// The version of the JSON that `ward rules list|show --format json` writes.
pub const RULES_SCHEMA_VERSION: u32 = 1;

/// `ward rules list` in `format`: terminal text (its headings bold when `color`) or JSON; any
/// other format is [`Unsupported`].
pub fn list(k: &Knowledge, format: Format, color: bool) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => list_text(k, color),
        Format::Json => crate::json::versioned(RULES_SCHEMA_VERSION, &list_json(k)),
        f => return Err(Command::Rules.unsupported(f)),
    })
}

/// `ward rules show TYPE` in `format`: every rule about `type_name` (`rules`, in precedence
/// order) as terminal text (each rule's name bold when `color`) or JSON; any other format is
/// [`Unsupported`].
pub fn show(
    k: &Knowledge,
    type_name: &str,
    rules: &[Rule],
    format: Format,
    color: bool,
) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => show_text(k, type_name, rules, color),
        Format::Json => {
            crate::json::versioned(RULES_SCHEMA_VERSION, &ShowJson { type_name, rules })
        }
        f => return Err(Command::Rules.unsupported(f)),
    })
}

fn sorted_packs(k: &Knowledge) -> Vec<&Pack> {
    let mut packs: Vec<&Pack> = k.pack_details().iter().collect();
    packs.sort_by(|a, b| a.name.cmp(&b.name));
    packs
}

fn origin_short(r: &Rule) -> String {
    match &r.origin {
        RuleOrigin::Pack { name, version } => format!("{name}@{version}"),
        RuleOrigin::User { file, line } => format!("{file}:{line}"),
    }
}

fn list_text(k: &Knowledge, color: bool) -> String {
    let p = Painter { color };
    let bold = Style::new().bold();
    let mut out = String::new();
    let packs = sorted_packs(k);
    p.line(&mut out, bold, &format!("packs ({}):", packs.len()));
    for p in &packs {
        term_line!(
            &mut out,
            "  {} {}  provider {}  {}  schema: {}",
            p.name,
            p.version,
            p.provider,
            if p.entries == 1 {
                "1 type".to_string()
            } else {
                format!("{} types", p.entries)
            },
            p.schema
        );
    }
    let files = k.user_files();
    if files.is_empty() {
        term_line!(
            &mut out,
            "user rules: none (no ward.hcl found, no --config)"
        );
    } else {
        term_line!(&mut out, "user rules: {}", files.join(", "));
    }
    let types = k.types();
    out.push('\n');
    p.line(
        &mut out,
        bold,
        &format!("classified resource types ({}):", types.len()),
    );
    let width = types.iter().map(|t| t.type_name.len()).max().unwrap_or(0);
    for t in &types {
        let from: Vec<String> = t.rules.iter().map(origin_short).collect();
        term_line!(&mut out, "  {:width$}  {}", t.type_name, from.join(", "));
    }
    out
}

fn impact_or_default(v: Option<ward_model::Impact>, default: ward_model::Impact) -> String {
    match v {
        Some(i) => i.to_string(),
        None => format!("{default} (default)"),
    }
}

fn show_text(k: &Knowledge, type_name: &str, rules: &[Rule], color: bool) -> String {
    let p = Painter { color };
    use ward_rules::defaults;
    let mut out = String::new();
    term_line!(
        &mut out,
        "{type_name}: {} in precedence order (the first that answers a question decides it)",
        if rules.len() == 1 {
            "1 rule".to_string()
        } else {
            format!("{} rules", rules.len())
        }
    );
    for r in rules {
        out.push('\n');
        p.line(&mut out, Style::new().bold(), &r.rule_ref().to_string());
        term_line!(&mut out, "  from: {}:{}", origin_file(k, r), r.line);
        let s = &r.selector;
        if let Some(a) = &s.address {
            term_line!(&mut out, "  applies to addresses: {a}");
        }
        if let Some(m) = &s.module {
            term_line!(&mut out, "  applies to module: {m}");
        }
        if let Some(p) = &s.provider {
            term_line!(&mut out, "  applies to provider: {p}");
        }
        for (attribute, glob) in &s.when {
            term_line!(&mut out, "  applies when {attribute} matches: {glob}");
        }
        if let Some(x) = &r.summary {
            term_line!(&mut out, "  summary: {x}");
        }
        if let Some(x) = &r.rationale {
            term_line!(&mut out, "  rationale: {x}");
        }
        if let Some(x) = &r.source {
            term_line!(&mut out, "  source: {x}");
        }
        term_line!(
            &mut out,
            "  holds data: {}",
            match r.holds_data {
                Some(b) => b.to_string(),
                None => "not stated".into(),
            }
        );
        if let Some(ids) = &r.identity {
            term_line!(&mut out, "  identity: {}", ids.join(", "));
        }
        term_line!(
            &mut out,
            "  on create: {}; on update: {}; on delete: {}; on replace: {}",
            impact_or_default(r.on_create, defaults::ON_CREATE),
            impact_or_default(r.on_update, defaults::ON_UPDATE),
            impact_or_default(r.on_delete, defaults::ON_DELETE),
            impact_or_default(r.on_replace, defaults::ON_REPLACE),
        );
        if r.holds_data == Some(true) {
            term_line!(
                &mut out,
                "  (it holds data: a delete or replacement is data-loss whatever its cost says)"
            );
        }
        if let Some(o) = &r.overwrites {
            let why = o
                .why
                .as_deref()
                .map(|w| format!(": {w}"))
                .unwrap_or_default();
            let target = if o.target.is_empty() {
                String::new()
            } else {
                format!(" (target: {})", o.target.join(", "))
            };
            term_line!(
                &mut out,
                "  overwrites state outside this root: a create or replacement costs at least {}; {}{target}{why}",
                o.impact, o.what
            );
        }
        for a in &r.attributes {
            let why = a
                .why
                .as_deref()
                .map(|w| format!(": {w}"))
                .unwrap_or_default();
            match &a.direction {
                Some(d) => {
                    let unbounded = if d.unbounded.is_empty() {
                        String::new()
                    } else {
                        let shown: Vec<String> = d
                            .unbounded
                            .iter()
                            .map(|b| serde_json::to_string(b).unwrap_or_default())
                            .collect();
                        format!(", no limit: {}", shown.join(", "))
                    };
                    term_line!(
                        &mut out,
                        "  attribute {} → decrease: {}, increase: {}{unbounded}{why}",
                        a.pattern,
                        d.decrease,
                        d.increase
                    );
                }
                None => {
                    term_line!(&mut out, "  attribute {} → {}{why}", a.pattern, a.impact);
                }
            }
        }
    }
    out
}

fn origin_file(k: &Knowledge, r: &Rule) -> String {
    match &r.origin {
        RuleOrigin::Pack { name, .. } => k
            .pack_details()
            .iter()
            .find(|p| &p.name == name)
            .map_or_else(|| format!("pack {name}"), |p| p.file.clone()),
        RuleOrigin::User { file, .. } => file.clone(),
    }
}

#[derive(Serialize)]
struct ListJson<'a> {
    packs: Vec<&'a Pack>,
    user_files: Vec<String>,
    types: Vec<TypeJson>,
}

#[derive(Serialize)]
struct TypeJson {
    #[serde(rename = "type")]
    type_name: String,
    /// The rules naming it, in precedence order, as reports cite them.
    rules: Vec<String>,
}

#[derive(Serialize)]
struct ShowJson<'a> {
    #[serde(rename = "type")]
    type_name: &'a str,
    rules: &'a [Rule],
}

fn list_json(k: &Knowledge) -> ListJson<'_> {
    ListJson {
        packs: sorted_packs(k),
        user_files: k.user_files(),
        types: k
            .types()
            .into_iter()
            .map(|t| TypeJson {
                rules: t.rules.iter().map(|r| r.rule_ref().to_string()).collect(),
                type_name: t.type_name,
            })
            .collect(),
    }
}
