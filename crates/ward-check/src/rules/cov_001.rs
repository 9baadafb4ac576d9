//! WARD-COV-001: Resource type unclassified by ward's knowledge.

use super::prelude::*;

/// WARD-COV-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Cov001,
    name: "resource-type-unclassified",
    title: "Resource type unclassified by ward's knowledge",
    severity: Severity::Error,
    category: Category::Coverage,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(2),
    doc: "A managed resource in the repository's configuration has a type that no rule of ward's knowledge classifies (neither a built-in pack nor a `resource` block in `ward.hcl`). `ward plan` and `ward gate` fail on a change to it, on the day the change comes: the gate belongs here, before any plan, so that every module resource is classified while nobody is waiting on an apply. Add a `resource \"TYPE\" { ... }` block to `ward.hcl` that decides what changes to it cost (docs/rules.md); an empty block is refused.",
    fix: "Add `resource \"TYPE\" { holds_data = ..., on_update = ..., on_delete = ... }` to `ward.hcl` (docs/rules.md).",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-COV-001/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-COV-001/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Every managed resource type is classified: one finding per type, at its first resource
/// (modules in discovery order), naming how many more there are.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use crate::knowledge::Subject;
    use std::collections::BTreeMap;
    use ward_repo::Loc;
    let call_names = crate::rules::shared::local_call_names(cx.repo);
    // Type → (first location and module dir, how many resources).
    let mut found: BTreeMap<String, (Loc, String, usize)> = BTreeMap::new();
    for m in &cx.repo.modules {
        for r in &m.resources {
            if r.mode != "managed" {
                continue;
            }
            let addr = format!("{}.{}", r.type_name, r.name);
            let mut candidates: Vec<(String, Option<String>)> = vec![(addr.clone(), None)];
            for n in call_names.get(&m.dir).into_iter().flatten() {
                candidates.push((format!("module.{n}.{addr}"), Some(format!("module.{n}"))));
            }
            // Classified only when every address it has as seen from a root is.
            let unclassified = candidates.iter().any(|(a, module)| {
                let subject = Subject {
                    resource_type: &r.type_name,
                    address: a,
                    module: module.as_deref(),
                };
                cx.knowledge.classified(&subject) == Some(false)
            });
            if unclassified {
                found
                    .entry(r.type_name.clone())
                    .or_insert_with(|| (r.loc.clone(), m.dir.clone(), 0))
                    .2 += 1;
            }
        }
    }
    for (t, (loc, dir, n)) in found {
        let more = if n > 1 {
            format!(" ({} more resource(s) of this type elsewhere)", n - 1)
        } else {
            String::new()
        };
        cx.out.push(
            at(
                RuleId::Cov001,
                &loc,
                format!(
                    "resource type {t} is classified by no rule of ward's knowledge (built-in packs, ward.hcl){more}; add to ward.hcl: resource \"{t}\" {{ holds_data = ..., on_update = ..., on_delete = ... }} (`ward docs rules`)"
                ),
            )
            .in_dir(&dir),
        );
    }
    Ok(())
}
