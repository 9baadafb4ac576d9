//! WARD-ANS-001: Ansible version disagrees with the Terraform release.

use super::prelude::*;

/// WARD-ANS-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans001,
    name: "ansible-release-version-split",
    title: "Ansible version disagrees with the Terraform release",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "A release is one version across every layer: the Ansible collection in `requirements.yml`, the collection's own `galaxy.yml`, the inventory variable that names the release and every `?ref=` or `version` of the Terraform modules from the same release must name the same vX.Y.Z. When they disagree, hosts are configured by one release while the infrastructure comes from another, and nothing fails until the two meet at run time. Which names belong to one release is declared in `ward.hcl` with `check { release \"name\" { module_sources, collections, variables } }`; the rule reports every version found for the release, with file and line.",
    fix: "Name the same vX.Y.Z in `requirements.yml`, `galaxy.yml`, the release variable and every module `?ref=`/`version` of the release.",
    waive: "",
    fails: &[
        Example {
            path: "ansible/requirements.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-001/fail/ansible/requirements.yml"),
        },
    ],
    passes: &[
        Example {
            path: "ansible/requirements.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-001/pass/ansible/requirements.yml"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// The versions of one release (`check { release }`) across Terraform and Ansible agree.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use std::collections::BTreeSet;
    use ward_repo::source::named_version;
    use ward_repo::{PinKind, SourceKind};
    let Some(cfg) = cx.config else {
        return Ok(());
    };
    for rel in &cfg.check.releases {
        // (version, where, what)
        let mut tf: Vec<(String, String, String)> = Vec::new();
        for m in &cx.repo.modules {
            for c in &m.module_calls {
                let Some(src) = &c.source else { continue };
                let Some(pkg) = src.package() else { continue };
                if !crate::rules::shared::in_release(&rel.module_sources, &pkg) {
                    continue;
                }
                let raw = match &src.kind {
                    SourceKind::Git { git_ref, .. } => git_ref.clone(),
                    SourceKind::Registry { .. } => c.version.clone(),
                    _ => None,
                };
                let Some(raw) = raw else { continue };
                let v = named_version(&raw).unwrap_or(raw);
                tf.push((
                    v,
                    format!("{}:{}", c.loc.file, c.loc.line),
                    format!("module {} ({pkg})", c.name),
                ));
            }
        }
        let pins: Vec<&ward_repo::VersionPin> = cx.repo
            .pins
            .iter()
            .filter(|p| match p.kind {
                PinKind::Collection | PinKind::Galaxy => rel.collections.contains(&p.name),
                PinKind::Variable => rel.variables.contains(&p.name),
                PinKind::Role => false,
            })
            .collect();
        let pin_version = |p: &ward_repo::VersionPin| {
            p.version
                .as_deref()
                .map(|v| named_version(v).unwrap_or_else(|| v.to_string()))
                .unwrap_or_else(|| "(none)".to_string())
        };
        let tf_versions: BTreeSet<&str> = tf.iter().map(|(v, _, _)| v.as_str()).collect();
        let all: BTreeSet<String> = tf_versions
            .iter()
            .map(|s| s.to_string())
            .chain(pins.iter().map(|p| pin_version(p)))
            .collect();
        if all.len() < 2 {
            continue;
        }
        let mut detail: Vec<String> = tf
            .iter()
            .map(|(v, w, what)| format!("terraform: {what} = {v} at {w}"))
            .collect();
        detail.extend(pins.iter().map(|p| {
            format!(
                "ansible: {} = {} at {}:{}",
                p.name,
                pin_version(p),
                p.file,
                p.line
            )
        }));
        for p in &pins {
            let v = pin_version(p);
            if tf_versions.len() == 1 && tf_versions.contains(v.as_str()) {
                continue;
            }
            cx.out.push(
                Finding::new(
                    RuleId::Ans001,
                    &p.file,
                    p.line,
                    format!(
                        "release \"{}\": {} = {v}, but the release is named at {} ({})",
                        rel.name,
                        p.name,
                        if tf_versions.is_empty() {
                            "other Ansible pins"
                        } else {
                            "Terraform refs"
                        },
                        all.iter()
                            .filter(|x| **x != v)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
                .with_detail(detail.clone()),
            );
        }
        if pins.is_empty() && tf_versions.len() > 1 {
            // Terraform refs disagree among themselves: reported by WARD-MOD-005 when the
            // package is the same; across packages of one release it is this rule's.
            if let Some((_, w, _)) = tf.first() {
                let (file, line) = crate::rules::shared::split_at(w);
                cx.out.push(
                    Finding::new(
                        RuleId::Ans001,
                        file,
                        line,
                        format!(
                            "release \"{}\": its Terraform modules name {} different versions ({})",
                            rel.name,
                            tf_versions.len(),
                            tf_versions.iter().copied().collect::<Vec<_>>().join(", ")
                        ),
                    )
                    .with_detail(detail.clone()),
                );
            }
        }
    }
    Ok(())
}
