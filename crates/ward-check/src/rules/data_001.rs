//! WARD-DATA-001: Data-holding resource without protection.

use super::prelude::*;

/// WARD-DATA-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Data001,
    name: "data-holder-unprotected",
    title: "Data-holding resource without protection",
    severity: Severity::Warning,
    category: Category::Data,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(11),
    doc: "A resource type that holds data (per ward's knowledge: databases, volumes, buckets...) has no `lifecycle { prevent_destroy = true }` and no ward protection rule (`check { protected = [...] }`). Removing the block or a replacement plan destroys the data. Protect it, or suppress with a reason when the data is disposable. Not raised in a module repository, nor in a module no root of this repository calls (an atmos component, a module published from here): `prevent_destroy` is a literal, so only whoever instantiates it can decide; nor in a `deprecated/` directory, code nobody maintains (each counted in `not_raised`).",
    fix: "Add `lifecycle { prevent_destroy = true }`, or list the address in `check { protected = [...] }`.",
    waive: "Data that is disposable is suppressed inline with the reason.",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-DATA-001/fail/main.tf"),
        },
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-DATA-001/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "components/store/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-DATA-001/pass/components/store/main.tf"),
        },
        Example {
            path: "deprecated/old-store/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-DATA-001/pass/deprecated/old-store/main.tf"),
        },
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-DATA-001/pass/main.tf"),
        },
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-DATA-001/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A data-holding resource without `prevent_destroy` or a ward protection.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use crate::knowledge::Subject;
    use ward_repo::{ModuleKind, RepoKind};
    // Address patterns, one syntax (ward_model::pattern): `*` any run, `[0]` literal.
    let protects = |c: &str| {
        cx.settings.protected
            .iter()
            .any(|p| ward_model::pattern::address_matches(p, c))
    };
    let call_names = crate::rules::shared::local_call_names(cx.repo);
    for m in &cx.repo.modules {
        for r in &m.resources {
            if r.mode != "managed" || r.prevent_destroy == Some(true) {
                continue;
            }
            let addr = format!("{}.{}", r.type_name, r.name);
            // The addresses it has as seen from a root: its own, and one per local module call.
            let mut candidates: Vec<(String, Option<String>)> = vec![(addr.clone(), None)];
            for n in call_names.get(&m.dir).into_iter().flatten() {
                candidates.push((format!("module.{n}.{addr}"), Some(format!("module.{n}"))));
            }
            let holding = candidates.iter().find_map(|(a, module)| {
                let subject = Subject {
                    resource_type: &r.type_name,
                    address: a,
                    module: module.as_deref(),
                };
                (cx.knowledge.holds_data(&subject) == Some(true)).then(|| cx.knowledge.source(&subject))
            });
            let Some(source) = holding else { continue };
            if candidates.iter().any(|(c, _)| protects(c)) {
                continue;
            }
            if cx.repo.kind == RepoKind::Module {
                skip(&mut cx.skipped, 
                    RuleId::Data001,
                    "a module repository: prevent_destroy cannot be parameterised in a reusable module, so its callers protect",
                );
                continue;
            }
            if ward_repo::is_deprecated_dir(&m.dir) {
                skip(&mut cx.skipped,
                    RuleId::Data001,
                    "in a directory the repository calls deprecated: nobody adds protection to code that is no longer maintained",
                );
                continue;
            }
            if m.kind != ModuleKind::Root && m.callers.is_empty() {
                skip(&mut cx.skipped, 
                    RuleId::Data001,
                    "a module no root of this repository calls (an atmos component, a module published from here): whoever instantiates it protects it",
                );
                continue;
            }
            cx.out.push(
                at(
                    RuleId::Data001,
                    &r.loc,
                    format!(
                        "{addr} holds data ({source}) but has no lifecycle {{ prevent_destroy = true }} and no ward protection"
                    ),
                )
                .in_dir(&m.dir),
            );
        }
    }
    Ok(())
}
