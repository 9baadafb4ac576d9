//! The stack's instances (one root at one site) and their order: by layer level, then root
//! name, then site in file order; `--site` narrows them.

use crate::report::{RootOutcome, RootReport};
use crate::{usage, StackError};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use ward_config::{Config, PreDestroy, Site};

/// One root at one site.
#[derive(Debug, Clone)]
pub(crate) struct Instance {
    pub(crate) root: String,
    pub(crate) site: Site,
    pub(crate) path: String,
    pub(crate) dir: PathBuf,
    pub(crate) layer: String,
    pub(crate) level: i64,
    /// Instances it reads, as `root/site` ids.
    pub(crate) reads: Vec<String>,
    pub(crate) pre_destroy: Vec<PreDestroy>,
    pub(crate) pin: Option<ward_config::Pin>,
}

impl Instance {
    pub(crate) fn id(&self) -> String {
        format!("{}/{}", self.root, self.site.name)
    }

    pub(crate) fn report(&self, outcome: RootOutcome) -> RootReport {
        RootReport {
            root: self.root.clone(),
            site: self.site.name.clone(),
            layer: self.layer.clone(),
            level: self.level,
            path: self.path.clone(),
            outcome,
            detail: Vec::new(),
            binary: None,
            changes: None,
            upstream_sha256: None,
            outputs_sha256: None,
            state: None,
            backup: None,
            approvals: Vec::new(),
        }
    }

    pub(crate) fn var_files(&self) -> Vec<PathBuf> {
        self.site.var_files.iter().map(PathBuf::from).collect()
    }
}

/// Every instance of the stack, in apply order.
pub(crate) fn instances(cfg: &Config, repo: &Path) -> Result<Vec<Instance>, StackError> {
    let mut out = Vec::new();
    for r in &cfg.roots {
        let Some(layer) = &r.layer else { continue };
        let Some(l) = cfg.layers.iter().find(|l| &l.name == layer) else {
            continue;
        };
        for site in r.stack.instances() {
            out.push(Instance {
                root: r.name.clone(),
                path: r.path.clone(),
                dir: repo.join(&r.path),
                layer: l.name.clone(),
                level: l.level,
                reads: Vec::new(),
                pre_destroy: r.stack.pre_destroy.clone(),
                pin: r.pin.clone(),
                site,
            });
        }
    }
    // Reads resolve to the instance at the same site, or to the read root's only instance.
    let sites_of = |name: &str| -> Vec<String> {
        out.iter()
            .filter(|i| i.root == name)
            .map(|i| i.site.name.clone())
            .collect()
    };
    let mut resolved = Vec::new();
    for i in &out {
        let decl = cfg.roots.iter().find(|r| r.name == i.root);
        let mut reads = Vec::new();
        for read in decl.map(|d| d.stack.reads.clone()).unwrap_or_default() {
            let sites = sites_of(&read);
            if sites.contains(&i.site.name) {
                reads.push(format!("{read}/{}", i.site.name));
            } else if sites.len() == 1 && sites[0] == ward_config::stack::DEFAULT_SITE {
                reads.push(format!("{read}/{}", sites[0]));
            } else {
                return Err(usage(format!(
                    "root \"{}\" at site \"{}\" reads \"{read}\", which has no site \"{}\" (its sites: {}); declare `site \"{}\"` in root \"{read}\", or remove the `site` blocks of one of them",
                    i.root, i.site.name, i.site.name, sites.join(", "), i.site.name
                )));
            }
        }
        resolved.push(reads);
    }
    for (i, reads) in out.iter_mut().zip(resolved) {
        i.reads = reads;
    }
    out.sort_by(|a, b| (a.level, &a.root).cmp(&(b.level, &b.root)));
    if out.is_empty() {
        return Err(usage(
            "no root in ward.hcl has a `layer`: ward stack runs the roots of declared layers; add `layer \"NAME\" { level = N }` blocks and `layer = \"NAME\"` to the roots (see `ward docs stack`)",
        ));
    }
    Ok(out)
}

/// Keeps the instances at `site` (roots without sites serve every site), refusing a site no
/// root declares.
pub(crate) fn at_site(all: Vec<Instance>, site: Option<&str>) -> Result<Vec<Instance>, StackError> {
    let Some(site) = site else { return Ok(all) };
    let known: BTreeSet<String> = all
        .iter()
        .map(|i| i.site.name.clone())
        .filter(|s| s != ward_config::stack::DEFAULT_SITE)
        .collect();
    if !known.contains(site) {
        let names: Vec<&str> = known.iter().map(String::as_str).collect();
        let close = ward_hcl::did_you_mean(site, &names);
        return Err(usage(format!(
            "unknown site \"{site}\": no root declares `site \"{site}\"`{}; the sites are: {}",
            close
                .map(|k| format!(" (did you mean \"{k}\"?)"))
                .unwrap_or_default(),
            if names.is_empty() {
                "none (no root has `site` blocks)".to_string()
            } else {
                names.join(", ")
            }
        )));
    }
    let roots_with_site: BTreeSet<String> = all
        .iter()
        .filter(|i| i.site.name == site)
        .map(|i| i.root.clone())
        .collect();
    Ok(all
        .into_iter()
        .filter(|i| {
            i.site.name == site
                || (i.site.name == ward_config::stack::DEFAULT_SITE
                    && !roots_with_site.contains(&i.root))
        })
        .collect())
}

/// Adds every instance of `sel` not in `roots` as not reached.
pub(crate) fn not_reached(sel: &[Instance], roots: &mut Vec<RootReport>) {
    for inst in sel {
        if !roots.iter().any(|r| r.id() == inst.id()) {
            roots.push(inst.report(RootOutcome::NotReached));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Roots at the sites `sites`, as `ward.hcl` declares them.
    fn at(sites: &[&str]) -> Vec<Instance> {
        let decl: String = sites
            .iter()
            .map(|s| format!("  site \"{s}\" {{}}\n"))
            .collect();
        let text = format!("layer \"l\" {{\n  level = 0\n}}\nroot \"r\" {{\n  path = \"r\"\n  layer = \"l\"\n{decl}}}\n");
        let c = Config::parse(&text, "ward.hcl", Path::new("/repo")).unwrap();
        instances(&c, Path::new("/repo")).unwrap()
    }

    fn refusal(sites: &[&str], site: &str) -> String {
        at_site(at(sites), Some(site)).unwrap_err().to_string()
    }

    /// The site suggestion is ward-hcl's did-you-mean: a word a site name starts names it, and
    /// a two-letter word is no typo of every other two-letter site (the edit distance alone,
    /// at most 2, suggested both ways).
    #[test]
    fn an_unknown_site_is_suggested_as_every_other_word_is() {
        let e = refusal(&["production", "staging"], "prod");
        assert!(e.contains("(did you mean \"production\"?)"), "{e}");
        let e = refusal(&["us", "ap"], "eu");
        assert!(!e.contains("did you mean"), "{e}");
        assert!(e.contains("the sites are: ap, us"), "{e}");
        let e = refusal(&["dc0", "dc1"], "dc2");
        assert!(e.contains("(did you mean \"dc0\"?)"), "{e}");
    }
}
