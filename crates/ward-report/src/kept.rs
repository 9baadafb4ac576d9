//! Plan reports of a plan read change by change: each verdict rendered as it is classified and
//! kept as its report entry, the verdict itself slimmed to what the summary needs.

use crate::{group_of, Format, RenderOptions};
use std::collections::BTreeSet;
use ward_classify::explain::reword_reason;
use ward_classify::Verdict;
use ward_model::Product;
use ward_rules::RuleOrigin;

/// The terminal or Markdown report's entries of a plan's changes, rendered one verdict at a
/// time as the classifier hands them over (`ward_classify::Assessor::add_with`), so that memory
/// holds what the report prints, not every verdict whole: [`Keep::keep`] returns the verdict
/// without its explanation, attributes and identity changes. [`crate::write_kept`] then writes
/// the same bytes as [`crate::write`] on the whole verdicts.
///
/// ```ignore
/// let mut keep = Keep::new(&render);
/// let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| assessor.add_with(c, |v| keep.keep(v)))?;
/// let (assessment, order) = assessor.finish_ordered(&plan, &options);
/// ward_report::write_kept(&assessment, &outcome, &render, &keep, &order, out)?;
/// ```
#[derive(Debug)]
pub struct Keep {
    format: Format,
    color: bool,
    /// Per kept verdict, in the order kept.
    entries: Vec<Entry>,
    /// The origins of every rule that decided something in a kept verdict (for the header's
    /// "decided by packs").
    pub(crate) origins: BTreeSet<RuleOrigin>,
}

#[derive(Debug)]
struct Entry {
    /// The entry as the report prints it: the change block (terminal: detailed classes) or row
    /// (terminal: free), or the detailed entry (Markdown); empty when the report prints none.
    main: Box<str>,
    /// `main` worded for OpenTofu, when that differs (the explanation's `action_reason` line
    /// names the product, known only once the whole plan is read).
    tofu: Option<Box<str>>,
    /// Markdown's brief entry (empty for the terminal).
    brief: Box<str>,
}

impl Keep {
    /// Entries for the report `opts` describes (terminal or Markdown; for JSON use
    /// [`crate::json::Spill`]).
    pub fn new(opts: &RenderOptions) -> Keep {
        Keep {
            format: opts.format,
            color: opts.color,
            entries: Vec::new(),
            origins: BTreeSet::new(),
        }
    }

    /// Renders the verdict's entry, keeps it, and returns the verdict slimmed to what the
    /// summary, the outcome and the coverage gate need.
    pub fn keep(&mut self, mut v: Verdict) -> Verdict {
        let g = group_of(&v);
        let main = self.main(g, &v);
        let tofu = if v.action_reason.is_some() {
            let before = v.explanation.clone();
            reword_reason(&mut v, Product::OpenTofu);
            (v.explanation != before).then(|| self.main(g, &v))
        } else {
            None
        };
        let brief = match self.format {
            Format::Markdown => crate::markdown::brief_entry(&v).into_boxed_str(),
            Format::Terminal | Format::Json => Box::default(),
        };
        for r in v
            .decided_by
            .iter()
            .chain(v.attributes.iter().filter_map(|a| a.rule.as_ref()))
        {
            if !self.origins.contains(&r.origin) {
                self.origins.insert(r.origin.clone());
            }
        }
        self.entries.push(Entry { main, tofu, brief });
        v.explanation = Vec::new();
        v.attributes = Vec::new();
        v.identity_changes = Vec::new();
        v
    }

    fn main(&self, g: crate::Group, v: &Verdict) -> Box<str> {
        match self.format {
            Format::Terminal => crate::terminal::entry(self.color, g, v),
            Format::Markdown => crate::markdown::entry(g, v),
            Format::Json => String::new(),
        }
        .into_boxed_str()
    }

    /// How many verdicts were kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no verdict was kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A [`Keep`] with the assessment's order and product: the entry of each verdict.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Kept<'k> {
    pub(crate) keep: &'k Keep,
    /// For each verdict of the assessment, its position among those kept.
    pub(crate) order: &'k [usize],
    pub(crate) product: Product,
}

impl<'k> Kept<'k> {
    fn get(&self, i: usize) -> Option<&'k Entry> {
        self.keep.entries.get(*self.order.get(i)?)
    }

    /// The main entry of the assessment's verdict `i`, when it was kept (verdicts of changes
    /// the reader did not hand over are whole, and rendered from the verdict).
    pub(crate) fn main(&self, i: usize) -> Option<&'k str> {
        let e = self.get(i)?;
        Some(match (&e.tofu, self.product) {
            (Some(t), Product::OpenTofu) => t,
            _ => &e.main,
        })
    }

    /// The brief entry of verdict `i` (Markdown), when it was kept.
    pub(crate) fn brief(&self, i: usize) -> Option<&'k str> {
        self.get(i).map(|e| &*e.brief)
    }
}
