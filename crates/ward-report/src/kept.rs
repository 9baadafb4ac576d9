//! Plan reports of a plan read change by change: each verdict rendered as it is classified and
//! kept as its report entry, the verdict itself slimmed to what the summary needs.

use crate::{group_of, Format, Group, RenderOptions};
use std::collections::{BTreeMap, BTreeSet};
use ward_classify::explain::reword_reason;
use ward_classify::Verdict;
use ward_model::{Impact, Product};
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
///
/// The Markdown report is bounded by its limit: it lists changes worst first, each at least as
/// its brief entry, so a change with more than the limit's worth of brief entries before it is
/// never shown. Such changes are dropped as soon as they are known to be (only counted), and
/// memory holds about the limit's worth of entries.
#[derive(Debug)]
pub struct Keep {
    format: Format,
    color: bool,
    /// Terminal: per kept verdict, in the order kept.
    entries: Vec<Entry>,
    /// Markdown: the entries that may be shown, by report order (group, address, deposed key).
    ranked: BTreeMap<RankKey, Entry>,
    /// Markdown: the characters of the brief entries in `ranked`.
    brief_chars: usize,
    /// Markdown: the limit.
    limit: usize,
    /// How many verdicts were kept (dropped ones included).
    seen: usize,
    /// The origins of every rule that decided something in a kept verdict (for the header's
    /// "decided by packs").
    pub(crate) origins: BTreeSet<RuleOrigin>,
}

/// Where a change's entry comes in the Markdown report: unclassified first, then each class
/// worst first, then by address and deposed key.
type RankKey = (bool, std::cmp::Reverse<Impact>, String, Option<String>);

fn rank_key(g: Group, v: &Verdict) -> RankKey {
    let (class, impact) = match g {
        Group::Unknown => (false, Impact::None),
        Group::Class(i) => (true, i),
    };
    (
        class,
        std::cmp::Reverse(impact),
        v.address.clone(),
        v.deposed.clone(),
    )
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
            ranked: BTreeMap::new(),
            brief_chars: 0,
            limit: opts.markdown_limit,
            seen: 0,
            origins: BTreeSet::new(),
        }
    }

    /// Renders the verdict's entry, keeps it, and returns the verdict slimmed to what the
    /// summary, the outcome and the coverage gate need.
    pub fn keep(&mut self, mut v: Verdict) -> Verdict {
        let g = group_of(&v);
        self.seen += 1;
        for r in v
            .decided_by
            .iter()
            .chain(v.attributes.iter().filter_map(|a| a.rule.as_ref()))
        {
            if !self.origins.contains(&r.origin) {
                self.origins.insert(r.origin.clone());
            }
        }
        if self.format == Format::Markdown {
            self.rank(g, &mut v);
        } else {
            let entry = self.entry(g, &mut v);
            self.entries.push(entry);
        }
        v.explanation = Vec::new();
        v.attributes = Vec::new();
        v.identity_changes = Vec::new();
        v
    }

    /// Markdown: keeps the verdict's entry when it may be shown, then drops the last entries
    /// while the brief entries before them already exceed the limit.
    fn rank(&mut self, g: Group, v: &mut Verdict) {
        // No-ops and reads are counted, not listed, unless a fact makes them worth a line.
        if g == Group::Class(Impact::None) && v.facts.is_empty() {
            return;
        }
        let key = rank_key(g, v);
        if self.brief_chars > self.limit
            && self
                .ranked
                .last_key_value()
                .is_some_and(|(last, _)| key > *last)
        {
            return;
        }
        let entry = self.entry(g, v);
        self.brief_chars += entry.brief.chars().count();
        self.ranked.insert(key, entry);
        while let Some(last) = self.ranked.last_entry() {
            let chars = last.get().brief.chars().count();
            if self.brief_chars - chars <= self.limit {
                break;
            }
            self.brief_chars -= chars;
            last.remove();
        }
    }

    fn entry(&self, g: Group, v: &mut Verdict) -> Entry {
        let main = self.main(g, v);
        let tofu = if v.action_reason.is_some() {
            let before = v.explanation.clone();
            reword_reason(v, Product::OpenTofu);
            (v.explanation != before).then(|| self.main(g, v))
        } else {
            None
        };
        let brief = match self.format {
            Format::Markdown => crate::markdown::brief_entry(v).into_boxed_str(),
            Format::Terminal | Format::Json => Box::default(),
        };
        Entry { main, tofu, brief }
    }

    fn main(&self, g: crate::Group, v: &Verdict) -> Box<str> {
        match self.format {
            Format::Terminal => crate::terminal::entry(self.color, g, v),
            Format::Markdown => crate::markdown::entry(g, v),
            Format::Json => String::new(),
        }
        .into_boxed_str()
    }

    /// How many verdicts were kept (Markdown: dropped ones included).
    pub fn len(&self) -> usize {
        self.seen
    }

    /// How many entries it holds: one per kept verdict for the terminal report; for Markdown,
    /// only those that may be shown (about the limit's worth of brief entries).
    pub fn entries(&self) -> usize {
        self.entries.len() + self.ranked.len()
    }

    /// True when no verdict was kept.
    pub fn is_empty(&self) -> bool {
        self.seen == 0
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

/// What a [`Keep`] holds for one verdict of the assessment.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Held<'k> {
    /// Its entries: the main one (worded for the assessment's product) and the brief one.
    Entry(&'k str, &'k str),
    /// Kept, then dropped: the Markdown report never shows it.
    Dropped,
    /// Not kept (a change the reader did not hand over): its verdict is whole.
    Whole,
}

impl<'k> Kept<'k> {
    /// What the keep holds for the assessment's verdict `i` (`v`).
    pub(crate) fn held(&self, i: usize, v: &Verdict) -> Held<'k> {
        let Some(&at) = self.order.get(i).filter(|at| **at < self.keep.seen) else {
            return Held::Whole;
        };
        let entry = match self.keep.format {
            Format::Markdown => self.keep.ranked.get(&rank_key(group_of(v), v)),
            Format::Terminal | Format::Json => self.keep.entries.get(at),
        };
        match entry {
            Some(e) => Held::Entry(
                match (&e.tofu, self.product) {
                    (Some(t), Product::OpenTofu) => t,
                    _ => &e.main,
                },
                &e.brief,
            ),
            None => Held::Dropped,
        }
    }
}
