//! Step 3 of discovery: Terragrunt. A `terragrunt.hcl` that no other one includes is a unit, and
//! its directory's module takes its backend, version and source; a `terragrunt.stack.hcl` adds
//! one unit per `unit` block, at the directory Terragrunt would generate it.

use super::parse::lock_providers_in;
use super::Found;
use crate::stack::{self, Generated};
use crate::terragrunt::{self, Unit};
use crate::{layout, Module};
use std::collections::BTreeSet;
use std::path::Path;

/// The module at `dir` in `modules` (sorted by directory), added empty when there is none;
/// `true` when it was added.
fn module_at<'a>(modules: &'a mut Vec<Module>, dir: &str) -> Option<(&'a mut Module, bool)> {
    let (i, added) = match modules.binary_search_by(|m| m.dir.as_str().cmp(dir)) {
        Ok(i) => (i, false),
        Err(i) => {
            modules.insert(i, Module::new(dir.to_string()));
            (i, true)
        }
    };
    modules.get_mut(i).map(|m| (m, added))
}

/// Reads every `terragrunt.hcl` of `tg_files` and gives each unit's directory its module;
/// returns the files some unit includes (they are not units themselves).
pub(crate) fn add_units(
    root: &Path,
    tg_files: &[String],
    lock_dirs: &BTreeSet<String>,
    found: &mut Found,
) -> BTreeSet<String> {
    let mut units = Vec::new();
    for rel in tg_files {
        found.files_parsed += 1;
        match terragrunt::read_unit(root, rel) {
            Ok((unit, p)) => {
                found.problems.extend(p);
                units.push(unit);
            }
            Err(p) => {
                let templated = std::fs::read_to_string(root.join(rel))
                    .is_ok_and(|t| layout::is_template_text(&t));
                if templated {
                    found.template_files.push(layout::Template {
                        path: rel.clone(),
                        what: "a template file ({{ … }} expressions: not HCL until rendered)"
                            .to_string(),
                    });
                } else {
                    found.problems.push(p);
                }
            }
        }
    }
    let included: BTreeSet<String> = units
        .iter()
        .flat_map(|u| u.includes.iter().cloned())
        .collect();
    found.files_parsed += included.iter().filter(|f| !tg_files.contains(f)).count();
    found.problems.sort();
    found.problems.dedup();
    for unit in units {
        if included.contains(&unit.file) {
            continue;
        }
        let dir = match unit.file.rsplit_once('/') {
            Some((d, _)) => d.to_string(),
            None => ".".to_string(),
        };
        let Some((m, added)) = module_at(&mut found.modules, &dir) else {
            continue;
        };
        if added {
            m.lock_file = lock_dirs.contains(&dir);
            if m.lock_file {
                m.lock_providers = lock_providers_in(root, &dir);
            }
        }
        absorb_unit(m, unit);
    }
    included
}

/// Reads every `terragrunt.stack.hcl` of `stack_files` and adds the units its `unit` blocks
/// generate (and the stacks its `stack` blocks name, as module calls).
pub(crate) fn add_stacks(
    root: &Path,
    stack_files: &[String],
    lock_dirs: &BTreeSet<String>,
    found: &mut Found,
) {
    for rel in stack_files {
        found.files_parsed += 1;
        match stack::read_stack(root, rel) {
            Ok((generated, p)) => {
                found.problems.extend(p);
                for g in generated {
                    add_generated(root, g, lock_dirs, found);
                }
            }
            Err(p) => found.problems.push(p),
        }
    }
    found.problems.sort();
    found.problems.dedup();
}

/// One `unit` or `stack` block of a stack file, at the directory Terragrunt generates it.
fn add_generated(root: &Path, g: Generated, lock_dirs: &BTreeSet<String>, found: &mut Found) {
    let catalog = g.local.as_ref().map(|l| {
        if l == "." {
            terragrunt::UNIT_FILE.to_string()
        } else {
            format!("{l}/{}", terragrunt::UNIT_FILE)
        }
    });
    let catalog = catalog.filter(|c| root.join(c).is_file());
    if g.entry == stack::Entry::Stack && g.local.is_some() {
        return;
    }
    let Some((m, _)) = module_at(&mut found.modules, &g.dir) else {
        return;
    };
    if !m.files.contains(&g.stack_file) {
        m.files.push(g.stack_file.clone());
    }
    if let Some(c) = g.source.clone() {
        m.module_calls.push(c);
    }
    if g.entry == stack::Entry::Stack {
        m.files.sort();
        return;
    }
    if let Some(l) = &g.local {
        m.lock_file = lock_dirs.contains(l);
        if m.lock_file {
            m.lock_providers = lock_providers_in(root, l);
        }
    }
    let mut unit = match &catalog {
        Some(c) => match terragrunt::read_unit_at(root, c, &g.dir, &g.values) {
            Ok((mut unit, p)) => {
                found.problems.extend(p);
                unit.stack = Some(g.loc.clone());
                unit
            }
            Err(p) => {
                found.problems.push(p);
                return;
            }
        },
        None => Unit::from_stack(
            &g.loc,
            format!(
                "unit \"{}\" of {}: its source {} is not in the repository, so its terragrunt.hcl is not read",
                g.name,
                g.stack_file,
                g.source
                    .as_ref()
                    .and_then(|c| c.source.as_ref())
                    .map_or("(not a literal)", |s| s.raw.as_str())
            ),
        ),
    };
    unit.values = g.values.into_iter().collect();
    absorb_unit(m, unit);
}

/// What a Terragrunt unit gives its directory's module: its backend and `required_version`
/// (unless the directory's own files set them), its source as a module call, its files.
fn absorb_unit(m: &mut Module, unit: Unit) {
    if m.backend.is_none() {
        m.backend = unit.backend.clone();
    }
    if m.required_version.is_empty() {
        if let Some(v) = &unit.version_constraint {
            m.required_version.push(v.clone());
        }
    }
    if let Some(c) = &unit.source {
        m.module_calls.push(c.clone());
    }
    for f in std::iter::once(&unit.file).chain(unit.includes.iter()) {
        if !m.files.contains(f) {
            m.files.push(f.clone());
        }
    }
    m.files.sort();
    m.terragrunt = Some(unit);
}
