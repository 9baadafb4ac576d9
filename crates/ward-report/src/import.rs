//! `ward import`'s renderers: the check report (`ward import check`) and the acceptance report
//! (`ward import accept`), as terminal text, JSON (versioned: `docs/import-check.schema.json`,
//! `docs/import-accept.schema.json`) and Markdown. Deterministic: same report, same bytes.

use crate::escape::{md_code, md_text};
use crate::format::{Command, Format, Unsupported};
use crate::paint::Painter;
use crate::term_line;
use ward_import::accept::AcceptReport;
use ward_import::check::{CheckReport, Status};

/// The version of `ward import check --format json`.
pub const CHECK_SCHEMA_VERSION: u32 = ward_import::check::SCHEMA_VERSION;

/// The version of `ward import accept --format json`.
pub const ACCEPT_SCHEMA_VERSION: u32 = ward_import::accept::ACCEPTANCE_VERSION;

fn status(s: &Status) -> &'static str {
    match s {
        Status::Import => "import",
        Status::ImportAllowedUpdate => "import + allowed update",
        Status::InState => "in state",
        Status::Refused => "refused",
        Status::Missing => "missing",
    }
}

/// A check in `format`: [`check_terminal_with`] (coloured when `color`), [`check_json`] or
/// [`check_markdown`]; any other format is [`Unsupported`].
pub fn check(r: &CheckReport, format: Format, color: bool) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => check_terminal_with(r, color),
        Format::Json => check_json(r),
        Format::Markdown => check_markdown(r),
        f => return Err(Command::Import.unsupported(f)),
    })
}

/// An acceptance in `format`: [`accept_terminal_with`] (coloured when `color`), [`accept_json`]
/// or [`accept_markdown`]; any other format is [`Unsupported`].
pub fn accept(r: &AcceptReport, format: Format, color: bool) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => accept_terminal_with(r, color),
        Format::Json => accept_json(r),
        Format::Markdown => accept_markdown(r),
        f => return Err(Command::Import.unsupported(f)),
    })
}

/// Terminal text of a check.
pub fn check_terminal(r: &CheckReport) -> String {
    check_terminal_with(r, false)
}

/// [`check_terminal`], its verdict line coloured when `color` (pass green, refused red).
pub fn check_terminal_with(r: &CheckReport, color: bool) -> String {
    let mut s = String::new();
    let verdict = if r.passed { "pass" } else { "refused" };
    Painter { color }.verdict_line(
        &mut s,
        r.passed,
        &format!(
            "ward import check {}: {} objects, {} problems · {verdict}",
            r.plan,
            r.objects.len(),
            r.problems.len()
        ),
    );
    term_line!(
        &mut s,
        "  inventory {} · plan digest {}",
        r.inventory,
        r.plan_digest
    );
    if !r.problems.is_empty() {
        s.push('\n');
        for p in &r.problems {
            let at = if p.address.is_empty() {
                String::new()
            } else {
                format!("{} ", p.address)
            };
            let attrs = if p.attributes.is_empty() {
                String::new()
            } else {
                format!(" [{}]", p.attributes.join(", "))
            };
            let kind = serde_json::to_value(p.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            term_line!(&mut s, "  ✗ {at}{kind}{attrs}: {}", p.message);
            term_line!(&mut s, "      help: {}", p.help);
        }
    }
    s.push('\n');
    for o in &r.objects {
        term_line!(
            &mut s,
            "  {:<24} {} = {}",
            status(&o.status),
            o.address,
            o.id
        );
        for a in &o.allowed {
            term_line!(&mut s, "      allowed: {a}");
        }
    }
    s.push('\n');
    if r.passed {
        term_line!(
            &mut s,
            "result: pass · every object imported with no other change; next: `ward import accept`"
        );
    } else {
        term_line!(
            &mut s,
            "result: refused · fix the model or the inventory, plan again, and check again"
        );
    }
    s
}

/// JSON of a check (`schema_version` first).
pub fn check_json(r: &CheckReport) -> String {
    crate::json::versioned(CHECK_SCHEMA_VERSION, r)
}

/// Markdown of a check, for a pull-request comment.
pub fn check_markdown(r: &CheckReport) -> String {
    let mut s = String::new();
    let verdict = if r.passed { "✅ pass" } else { "❌ refused" };
    s.push_str(&format!(
        "### ward import check: {verdict}\n\n{} objects, {} problems, plan {}, inventory {}\n\n",
        r.objects.len(),
        r.problems.len(),
        md_code(&r.plan),
        md_code(&r.inventory)
    ));
    if !r.problems.is_empty() {
        for p in &r.problems {
            let kind = serde_json::to_value(p.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let attrs = if p.attributes.is_empty() {
                String::new()
            } else {
                format!(
                    " ({})",
                    p.attributes
                        .iter()
                        .map(|a| md_code(a))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let at = if p.address.is_empty() {
                String::new()
            } else {
                format!("{} ", md_code(&p.address))
            };
            s.push_str(&format!(
                "- {at}**{}**{attrs}: {}  \n  {}\n",
                md_text(&kind),
                md_text(&p.message),
                md_text(&p.help)
            ));
        }
        s.push('\n');
    }
    s.push_str("| object | id | status |\n|---|---|---|\n");
    for o in &r.objects {
        s.push_str(&format!(
            "| {} | {} | {} |\n",
            crate::escape::md_cell_code(&o.address),
            crate::escape::md_cell_code(&o.id),
            status(&o.status)
        ));
    }
    s
}

/// Terminal text of an acceptance.
pub fn accept_terminal(r: &AcceptReport) -> String {
    accept_terminal_with(r, false)
}

/// [`accept_terminal`], its verdict line coloured when `color` (accepted green, else red).
pub fn accept_terminal_with(r: &AcceptReport, color: bool) -> String {
    let mut s = String::new();
    let verdict = if r.accepted {
        "accepted"
    } else {
        "not accepted"
    };
    Painter { color }.verdict_line(
        &mut s,
        r.accepted,
        &format!("ward import accept {}: {verdict}", r.root),
    );
    for st in &r.steps {
        term_line!(&mut s, "  {} {}", if st.ok { "✓" } else { "✗" }, st.name);
        for d in &st.detail {
            term_line!(&mut s, "      {d}");
        }
    }
    if let Some(a) = &r.acceptance {
        term_line!(
            &mut s,
            "  recorded: {} objects, plan {}, state {} serial {}, {} {}",
            a.ids.len(),
            a.plan_digest,
            a.lineage,
            a.serial,
            a.product,
            a.version
        );
    }
    s
}

/// JSON of an acceptance (`schema_version` first).
pub fn accept_json(r: &AcceptReport) -> String {
    crate::json::versioned(ACCEPT_SCHEMA_VERSION, r)
}

/// Markdown of an acceptance.
pub fn accept_markdown(r: &AcceptReport) -> String {
    let mut s = format!(
        "### ward import accept {}: {}\n\n",
        md_code(&r.root),
        if r.accepted {
            "✅ accepted"
        } else {
            "❌ not accepted"
        }
    );
    for st in &r.steps {
        s.push_str(&format!(
            "- {} {}\n",
            if st.ok { "✅" } else { "❌" },
            md_text(&st.name)
        ));
        for d in &st.detail {
            s.push_str(&format!("  - {}\n", md_text(d)));
        }
    }
    if let Some(a) = &r.acceptance {
        s.push_str(&format!(
            "\n{} objects adopted; plan {}; state lineage {} serial {}; {} {}\n",
            a.ids.len(),
            md_code(&a.plan_digest),
            md_code(&a.lineage),
            a.serial,
            md_text(&a.product),
            md_text(&a.version)
        ));
    }
    s
}
