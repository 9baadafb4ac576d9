//! The three renderings of `ward stack`'s typed report: terminal, JSON (`schema_version`
//! [`STACK_SCHEMA_VERSION`], schema in `docs/stack.schema.json`) and Markdown.
//!
//! The report's types are ward-stack's (`ward_stack::report`, re-exported here): the stack
//! decides and builds them; this module only renders them.

use crate::escape::{md_cell_code, md_code, md_code_block, md_text};
use crate::format::{Format, Unsupported};
use crate::paint::Painter;
use crate::term_line;
use ward_model::Exit;

/// The version of the JSON report's schema.
pub const STACK_SCHEMA_VERSION: u32 = 1;

pub use ward_stack::report::{
    Backup, Changes, Command, PendingApproval, RootOutcome, RootReport, StackReport, StateMark,
};

/// What `ward stack approve` prints, as `ward approve` does: (standard output, standard error).
/// Standard output holds each approval recorded ([`crate::gate::approve_text`]); standard error
/// the notes, and with `--all` first the destroys the teardown waits on, each with the digest it
/// saw, then a note for any approved at another digest.
pub fn approved(a: &ward_stack::Approved) -> (String, String) {
    let lines = |notes: &[String]| notes.iter().map(|n| format!("{n}\n")).collect::<String>();
    let (instance, each) = match a {
        ward_stack::Approved::One(done) => {
            return (crate::gate::approve_text(done), lines(&done.notes));
        }
        ward_stack::Approved::All { instance, each } => (instance, each),
    };
    let mut notes = String::new();
    term_line!(
        &mut notes,
        "{instance} waits on {} destroy(s); each is approved on its own, bound to its digest:",
        each.len()
    );
    for (p, _) in each {
        term_line!(
            &mut notes,
            "  {} ({}, {}) {}",
            p.address,
            p.action,
            p.impact,
            p.digest
        );
    }
    let mut out = String::new();
    for (p, done) in each {
        for c in done.changes.iter().filter(|c| c.digest != p.digest) {
            term_line!(
                &mut notes,
                "note: {} was approved at {}, not the {} listed: the saved plan is what the gate checks",
                c.address,
                c.digest,
                p.digest
            );
        }
        notes.push_str(&lines(&done.notes));
        out.push_str(&crate::gate::approve_text(done));
    }
    (out, notes)
}

/// JSON, `schema_version` first.
pub fn json(r: &StackReport) -> String {
    crate::json::versioned(STACK_SCHEMA_VERSION, r)
}

fn headline(r: &StackReport) -> String {
    let mut s = format!("ward stack {}", r.command.as_str());
    if let Some(site) = &r.site {
        s.push_str(&format!(" --site {site}"));
    }
    if let Some(root) = &r.only_root {
        s.push_str(&format!(" --root {root}"));
    }
    s
}

fn facts(x: &RootReport) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(b) = &x.binary {
        v.push(format!("binary: {b}"));
    }
    if let Some(c) = &x.changes {
        v.push(format!("plan: {}", c.describe()));
    }
    if let Some(u) = &x.upstream_sha256 {
        v.push(format!("upstream outputs: {u}"));
    }
    if let Some(o) = &x.outputs_sha256 {
        v.push(format!("outputs: {o}"));
    }
    if let Some(s) = &x.state {
        v.push(format!(
            "state: serial {}, lineage {}, {} resource(s)",
            s.serial, s.lineage, s.resources
        ));
    }
    if let Some(b) = &x.backup {
        v.push(format!(
            "backup: {} ({}, serial {}, lineage {})",
            b.path, b.sha256, b.serial, b.lineage
        ));
    }
    v
}

/// The report in `format`: [`text`] (coloured when `color`), [`json`] or [`markdown`]; any other
/// format is [`Unsupported`].
pub fn render(r: &StackReport, format: Format, color: bool) -> Result<String, Unsupported> {
    Ok(match format {
        Format::Terminal => text_with(r, color),
        Format::Json => json(r),
        Format::Markdown => markdown(r),
        f => return Err(crate::format::Command::Stack.unsupported(f)),
    })
}

/// For a terminal.
pub fn text(r: &StackReport) -> String {
    text_with(r, false)
}

/// [`text`], its result line coloured when `color` (passed green, anything else red).
pub fn text_with(r: &StackReport, color: bool) -> String {
    let mut s = String::new();
    term_line!(
        &mut s,
        "{}{}",
        headline(r),
        r.run
            .as_deref()
            .map(|id| format!(" (run {id})"))
            .unwrap_or_default()
    );
    if let Some(p) = &r.resumed {
        term_line!(&mut s, "resumes run {p}");
    }
    for x in &r.roots {
        s.push('\n');
        term_line!(
            &mut s,
            "{:<22} {} (layer {}, level {}, {})",
            x.outcome.as_str(),
            x.id(),
            x.layer,
            x.level,
            x.path
        );
        for d in &x.detail {
            term_line!(&mut s, "  {d}");
        }
        for f in facts(x) {
            term_line!(&mut s, "  {f}");
        }
        for a in &x.approvals {
            term_line!(
                &mut s,
                "  needs approval ({}): {} {} ({}) {}",
                a.status,
                a.action,
                a.address,
                a.impact,
                a.digest
            );
            term_line!(&mut s, "    {}", a.command);
        }
    }
    s.push('\n');
    Painter { color }.verdict_line(
        &mut s,
        r.exit == Exit::Pass,
        &format!("result: {} (exit {})", r.exit.as_str(), r.exit.code()),
    );
    if let Some(why) = &r.stopped {
        term_line!(&mut s, "stopped: {why}");
    }
    if let Some(c) = &r.resume {
        term_line!(&mut s, "continue with: {c}");
    }
    s
}

/// For a pull-request comment or a runbook.
pub fn markdown(r: &StackReport) -> String {
    let mut s = format!(
        "### {} — {}\n\n",
        md_code(&headline(r)),
        md_text(r.exit.as_str())
    );
    if let Some(id) = &r.run {
        s.push_str(&format!("Run {}", md_code(id)));
        if let Some(p) = &r.resumed {
            s.push_str(&format!(", resuming {}", md_code(p)));
        }
        s.push_str(".\n\n");
    }
    s.push_str("| root | site | layer | outcome | outputs | backup |\n|---|---|---|---|---|---|\n");
    for x in &r.roots {
        s.push_str(&format!(
            "| {} | {} | {} ({}) | {} | {} | {} |\n",
            md_cell_code(&x.root),
            md_cell_code(&x.site),
            md_cell_code(&x.layer),
            x.level,
            md_text(x.outcome.as_str()),
            x.outputs_sha256
                .as_deref()
                .map(md_cell_code)
                .unwrap_or_default(),
            x.backup
                .as_ref()
                .map(|b| md_cell_code(&b.sha256))
                .unwrap_or_default(),
        ));
    }
    for x in r
        .roots
        .iter()
        .filter(|x| !x.detail.is_empty() || !x.approvals.is_empty())
    {
        s.push_str(&format!("\n**{}**\n\n", md_text(&x.id())));
        for d in &x.detail {
            s.push_str(&format!("- {}\n", md_text(d)));
        }
        if !x.approvals.is_empty() {
            for a in &x.approvals {
                s.push_str(&format!(
                    "- needs approval ({}): {} {} ({}), digest {}\n",
                    md_text(&a.status),
                    md_text(&a.action),
                    md_code(&a.address),
                    md_text(&a.impact),
                    md_code(&a.digest)
                ));
            }
            let cmds: Vec<String> = x.approvals.iter().map(|a| a.command.clone()).collect();
            s.push('\n');
            s.push_str(&md_code_block("", "sh", &cmds));
        }
    }
    if let Some(why) = &r.stopped {
        s.push_str(&format!("\nStopped: {}\n", md_text(why)));
    }
    if let Some(c) = &r.resume {
        s.push_str(&format!("\nContinue with {}.\n", md_code(c)));
    }
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    pub(crate) fn sample() -> StackReport {
        let base = RootReport {
            root: "network".into(),
            site: "dc0".into(),
            layer: "substrate".into(),
            level: 0,
            path: "network".into(),
            outcome: RootOutcome::AlreadyEmpty,
            detail: vec![],
            binary: Some("terraform 1.15.5".into()),
            changes: None,
            upstream_sha256: None,
            outputs_sha256: None,
            state: None,
            backup: None,
            approvals: vec![],
        };
        StackReport {
            command: Command::Teardown,
            run: Some("2026-12-01T12:00:00Z-teardown".into()),
            resumed: None,
            site: Some("dc0".into()),
            only_root: None,
            roots: vec![
                RootReport {
                    root: "volumes".into(),
                    layer: "resources".into(),
                    level: 2,
                    path: "volumes".into(),
                    outcome: RootOutcome::ApprovalRequired,
                    detail: vec!["2 destroy(s) need their own approval".into()],
                    changes: Some(Changes { delete: 2, ..Changes::default() }),
                    upstream_sha256: Some(format!("sha256:{}", "a".repeat(64))),
                    state: Some(StateMark { serial: 3, lineage: "l-1".into(), resources: 2 }),
                    backup: Some(Backup {
                        path: "/b/volumes/dc0/3-l-1-bb.tfstate".into(),
                        sha256: format!("sha256:{}", "b".repeat(64)),
                        serial: 3,
                        lineage: "l-1".into(),
                    }),
                    approvals: vec![PendingApproval {
                        address: "fakecloud_volume.data|`x`\u{1b}[31m".into(),
                        action: "delete".into(),
                        impact: "data-loss".into(),
                        digest: format!("sha256:{}", "c".repeat(64)),
                        status: "missing".into(),
                        command: "ward stack approve --site dc0 --root volumes --address 'fakecloud_volume.data' --reason \"...\"".into(),
                    }],
                    ..base.clone()
                },
                RootReport { root: "instances".into(), layer: "nodes".into(), level: 1, outcome: RootOutcome::NotReached, ..base.clone() },
                base,
            ],
            exit: Exit::ApprovalRequired,
            exit_code: Exit::ApprovalRequired,
            stopped: Some("volumes/dc0: 1 destroy needs its own approval".into()),
            resume: Some("ward stack resume".into()),
        }
    }

    #[test]
    fn renderings() {
        let r = sample();
        insta::assert_snapshot!("stack_text", text(&r));
        insta::assert_snapshot!("stack_markdown", markdown(&r));
        insta::assert_snapshot!("stack_json", json(&r));
        // Hostile characters never reach a terminal raw.
        assert!(!text(&r).contains('\u{1b}'));
        assert!(!markdown(&r).contains('\u{1b}'));
    }

    #[test]
    fn json_matches_its_schema() {
        let schema: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../docs/stack.schema.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let v = jsonschema::draft202012::new(&schema).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&json(&sample())).unwrap();
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        // A report that breaks the schema is caught.
        let mut bad = doc.clone();
        bad["roots"][0]["outcome"] = "exploded".into();
        assert!(!v.is_valid(&bad));
    }
}
