//! `ward rules`: what ward knows (built-in packs and ward.hcl), for people and for machines.

use crate::error::CliError;
use crate::output;
use clap::{Subcommand, ValueEnum};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use ward_report::Exit;
use ward_rules::{Knowledge, Pack, Rule, RuleOrigin};

/// The version of the JSON that `ward rules list|show --format json` writes.
const RULES_SCHEMA_VERSION: u32 = 1;

/// `ward rules` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the packs (name, version, provider) and every classified resource type.
    List(Common),
    /// Show every rule about one resource type, in precedence order.
    Show {
        /// The resource type, e.g. `aws_instance`.
        #[arg(value_name = "TYPE")]
        type_name: String,
        #[command(flatten)]
        common: Common,
    },
}

/// Options shared by `ward rules` subcommands.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Output format.
    #[arg(long, value_enum, default_value_t = RulesFormat::Terminal)]
    format: RulesFormat,
    /// Rule file to use instead of the ward.hcl found at the repository root.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// `--format` of `ward rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    /// For people.
    Terminal,
    /// For machines (`schema_version` 1).
    Json,
}

/// Runs `ward rules …`.
pub fn run(cmd: Command) -> Result<Exit, CliError> {
    let text = match cmd {
        Command::List(c) => {
            let k = crate::knowledge::load_every_entry(c.config.as_deref())?;
            match c.format {
                RulesFormat::Terminal => list_text(&k),
                RulesFormat::Json => to_json(&list_json(&k))?,
            }
        }
        Command::Show { type_name, common } => {
            let k = crate::knowledge::load_every_entry(common.config.as_deref())?;
            let Some(entry) = k.show(&type_name) else {
                let names: Vec<String> = k.types().into_iter().map(|t| t.type_name).collect();
                let known: Vec<&str> = names.iter().map(String::as_str).collect();
                // Type names are lower case: `aws_Instance` is a typo for `aws_instance`.
                let close = known
                    .iter()
                    .find(|n| n.eq_ignore_ascii_case(&type_name))
                    .map(|n| n.to_string())
                    .or_else(|| ward_rules::hcl::did_you_mean(&type_name, &known));
                let hint = match close {
                    Some(n) => format!("did you mean `{n}`? `ward rules show {n}` shows its rules; `ward rules list` shows every classified type"),
                    None => "`ward rules list` shows every classified type; classify this one with a `resource` block in ward.hcl (`ward docs rules`)".to_string(),
                };
                return Err(CliError::new(format!(
                    "no rule names the resource type `{type_name}`: it is unclassified"
                ))
                .hint(hint));
            };
            match common.format {
                RulesFormat::Terminal => show_text(&k, &entry.type_name, &entry.rules),
                RulesFormat::Json => to_json(&ShowJson {
                    schema_version: RULES_SCHEMA_VERSION,
                    type_name: &entry.type_name,
                    rules: &entry.rules,
                })?,
            }
        }
    };
    output::write(&text, None)?;
    Ok(Exit::Pass)
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

fn list_text(k: &Knowledge) -> String {
    let mut out = String::new();
    let packs = sorted_packs(k);
    let _ = writeln!(out, "packs ({}):", packs.len());
    for p in &packs {
        let _ = writeln!(
            out,
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
        let _ = writeln!(out, "user rules: none (no ward.hcl found, no --config)");
    } else {
        let _ = writeln!(out, "user rules: {}", files.join(", "));
    }
    let types = k.types();
    let _ = writeln!(out, "\nclassified resource types ({}):", types.len());
    let width = types.iter().map(|t| t.type_name.len()).max().unwrap_or(0);
    for t in &types {
        let from: Vec<String> = t.rules.iter().map(origin_short).collect();
        let _ = writeln!(out, "  {:width$}  {}", t.type_name, from.join(", "));
    }
    out
}

fn impact_or_default(v: Option<ward_model::Impact>, default: ward_model::Impact) -> String {
    match v {
        Some(i) => i.to_string(),
        None => format!("{default} (default)"),
    }
}

fn show_text(k: &Knowledge, type_name: &str, rules: &[Rule]) -> String {
    use ward_rules::defaults;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{type_name}: {} in precedence order (the first that answers a question decides it)",
        if rules.len() == 1 {
            "1 rule".to_string()
        } else {
            format!("{} rules", rules.len())
        }
    );
    for r in rules {
        let _ = writeln!(out, "\n{}", r.rule_ref());
        let _ = writeln!(out, "  from: {}:{}", origin_file(k, r), r.line);
        let s = &r.selector;
        if let Some(a) = &s.address {
            let _ = writeln!(out, "  applies to addresses: {a}");
        }
        if let Some(m) = &s.module {
            let _ = writeln!(out, "  applies to module: {m}");
        }
        if let Some(p) = &s.provider {
            let _ = writeln!(out, "  applies to provider: {p}");
        }
        for (attribute, glob) in &s.when {
            let _ = writeln!(out, "  applies when {attribute} matches: {glob}");
        }
        if let Some(x) = &r.summary {
            let _ = writeln!(out, "  summary: {x}");
        }
        if let Some(x) = &r.rationale {
            let _ = writeln!(out, "  rationale: {x}");
        }
        if let Some(x) = &r.source {
            let _ = writeln!(out, "  source: {x}");
        }
        let _ = writeln!(
            out,
            "  holds data: {}",
            match r.holds_data {
                Some(b) => b.to_string(),
                None => "not stated".into(),
            }
        );
        if let Some(ids) = &r.identity {
            let _ = writeln!(out, "  identity: {}", ids.join(", "));
        }
        let _ = writeln!(
            out,
            "  on create: {}; on update: {}; on delete: {}; on replace: {}",
            impact_or_default(r.on_create, defaults::ON_CREATE),
            impact_or_default(r.on_update, defaults::ON_UPDATE),
            impact_or_default(r.on_delete, defaults::ON_DELETE),
            impact_or_default(r.on_replace, defaults::ON_REPLACE),
        );
        if r.holds_data == Some(true) {
            let _ = writeln!(
                out,
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
            let _ = writeln!(
                out,
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
                    let _ = writeln!(
                        out,
                        "  attribute {} → decrease: {}, increase: {}{unbounded}{why}",
                        a.pattern, d.decrease, d.increase
                    );
                }
                None => {
                    let _ = writeln!(out, "  attribute {} → {}{why}", a.pattern, a.impact);
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
    schema_version: u32,
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
    schema_version: u32,
    #[serde(rename = "type")]
    type_name: &'a str,
    rules: &'a [Rule],
}

fn list_json(k: &Knowledge) -> ListJson<'_> {
    ListJson {
        schema_version: RULES_SCHEMA_VERSION,
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

fn to_json<T: Serialize>(v: &T) -> Result<String, CliError> {
    let mut s = serde_json::to_string_pretty(v)
        .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
    s.push('\n');
    Ok(s)
}
