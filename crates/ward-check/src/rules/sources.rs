//! Every non-local module source use, classified once for WARD-MOD-001..005 (with
//! `--resolve`, each remote is asked once), and the source × directory × ref matrix the report
//! lists.

use crate::finding::MatrixRow;
use crate::resolve::Resolver;
use ward_repo::source::classify_ref_by_shape;
use ward_repo::{Loc, RefKind, Repo, SourceKind};

/// One module call with a git or registry source.
#[derive(Debug, Clone)]
pub struct Use {
    /// The calling directory.
    pub dir: String,
    /// The module block's name.
    pub call: String,
    /// Where its source is.
    pub loc: Loc,
    /// What it names.
    pub what: What,
}

/// What a source names.
#[derive(Debug, Clone)]
pub enum What {
    /// A git repository at a ref.
    Git {
        /// The normalized repository.
        repository: String,
        /// The ref as written, `(none)` when missing.
        shown: String,
        /// Its class (by shape, or as `--resolve` found it).
        class: RefKind,
        /// How it was classified, when not by shape alone.
        note: Option<String>,
    },
    /// A registry module.
    Registry {
        /// Its address.
        address: String,
        /// Its `version`, when given.
        version: Option<String>,
    },
}

/// Every use and the matrix.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The git and registry uses, in discovery order.
    pub uses: Vec<Use>,
    /// Every non-local source use, sorted.
    pub matrix: Vec<MatrixRow>,
}

impl Sources {
    /// Reads every module call of `repo`; `resolver` (`--resolve`) asks remotes about refs the
    /// shape cannot tell.
    pub fn read(repo: &Repo, mut resolver: Option<&mut Resolver>) -> Sources {
        let mut uses = Vec::new();
        let mut rows = Vec::new();
        for m in &repo.modules {
            for call in &m.module_calls {
                let Some(src) = &call.source else { continue };
                let loc = &call.loc;
                let kind = m.kind.as_str();
                let at = format!("{}:{}", loc.file, loc.line);
                let (what, row) = match &src.kind {
                    SourceKind::Local { .. } => continue,
                    SourceKind::Git {
                        repository,
                        url,
                        git_ref,
                    } => {
                        let (class, note) = match git_ref {
                            None => (RefKind::Missing, None),
                            Some(r) => {
                                let shape = classify_ref_by_shape(r);
                                match (&mut resolver, shape) {
                                    (
                                        Some(res),
                                        RefKind::Unknown | RefKind::Branch | RefKind::Tag,
                                    ) => match res.classify(url, r) {
                                        Ok(k) => {
                                            (k, Some("resolved with git ls-remote".to_string()))
                                        }
                                        Err(e) => (shape, Some(format!("--resolve failed: {e}"))),
                                    },
                                    _ => (shape, None),
                                }
                            }
                        };
                        let shown = git_ref.clone().unwrap_or_else(|| "(none)".to_string());
                        let row = MatrixRow {
                            package: repository.clone(),
                            dir: m.dir.clone(),
                            kind: kind.to_string(),
                            reference: shown.clone(),
                            class: class.as_str().to_string(),
                            at,
                        };
                        (
                            Some(What::Git {
                                repository: repository.clone(),
                                shown,
                                class,
                                note,
                            }),
                            row,
                        )
                    }
                    SourceKind::Registry { address } => {
                        let class = match &call.version {
                            None => "none",
                            Some(v) if !ward_version::is_exact(v) => "range",
                            Some(_) => "exact",
                        };
                        let row = MatrixRow {
                            package: address.to_lowercase(),
                            dir: m.dir.clone(),
                            kind: kind.to_string(),
                            reference: call.version.clone().unwrap_or_else(|| "(none)".to_string()),
                            class: class.to_string(),
                            at,
                        };
                        (
                            Some(What::Registry {
                                address: address.clone(),
                                version: call.version.clone(),
                            }),
                            row,
                        )
                    }
                    SourceKind::Other { address } => (
                        None,
                        MatrixRow {
                            package: address.clone(),
                            dir: m.dir.clone(),
                            kind: kind.to_string(),
                            reference: "(none)".to_string(),
                            class: "other".to_string(),
                            at,
                        },
                    ),
                };
                if let Some(what) = what {
                    uses.push(Use {
                        dir: m.dir.clone(),
                        call: call.name.clone(),
                        loc: loc.clone(),
                        what,
                    });
                }
                rows.push(row);
            }
        }
        rows.sort();
        Sources { uses, matrix: rows }
    }
}
