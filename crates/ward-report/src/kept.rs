//! Plan reports of a plan read change by change: each verdict rendered as it is classified and
//! kept as its report entry, the verdict itself slimmed to what the summary needs.

use crate::{group_of, Format, Group, RenderOptions};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use ward_classify::explain::{reason_line, reword_reason};
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
    /// Terminal: per kept verdict, in the order kept, where its entry's text is.
    slots: Vec<Slot>,
    /// Terminal: the text of every entry.
    texts: Texts,
    /// Terminal: the entries too long for a slot, by position among those kept.
    big: BTreeMap<usize, Entry>,
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

/// Where a terminal entry's text is in [`Texts`]: its main wording, then what its OpenTofu
/// wording has in place of the main one's middle (the two differ in the `action_reason` line
/// only). An empty main wording: no entry. `chunk` [`u32::MAX`]: the entry is in `Keep::big`.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    chunk: u32,
    /// Within the chunk: a chunk holds [`CHUNK`] bytes, or one entry longer than that.
    start: u32,
    main: u32,
    /// The OpenTofu wording: the main one's first `same_start` bytes, `tofu` bytes of its own,
    /// the main one's last `same_end` bytes (the same wording: `tofu` 0 and the two `same_`
    /// lengths adding up to `main`).
    same_start: u32,
    tofu: u32,
    same_end: u32,
}

/// The terminal entries' text, appended in chunks of about [`CHUNK`] bytes that are never
/// reallocated once full: memory holds the text and at most a chunk's slack, not one allocation
/// per entry (nor a growing buffer's doubling).
#[derive(Debug, Default)]
struct Texts {
    chunks: Vec<String>,
}

/// The size of a [`Texts`] chunk.
const CHUNK: usize = 1 << 20;

impl Texts {
    /// Appends the main wording and what the OpenTofu one (when given) has of its own; `None`
    /// when a length does not fit a slot (an entry of 4 GiB).
    fn push(&mut self, main: &str, tofu: Option<&str>) -> Option<Slot> {
        let (same_start, own, same_end) = match tofu {
            Some(t) => differ(main, t),
            None => (main.len(), "", 0),
        };
        let len = main.len() + own.len();
        let fits = self
            .chunks
            .last()
            .is_some_and(|c| c.capacity() - c.len() >= len);
        if !fits {
            self.chunks.push(String::with_capacity(len.max(CHUNK)));
        }
        let slot = Slot {
            chunk: u32::try_from(self.chunks.len().saturating_sub(1)).ok()?,
            start: u32::try_from(self.chunks.last().map_or(0, String::len)).ok()?,
            main: u32::try_from(main.len()).ok()?,
            same_start: u32::try_from(same_start).ok()?,
            tofu: u32::try_from(own.len()).ok()?,
            same_end: u32::try_from(same_end).ok()?,
        };
        let c = self.chunks.last_mut()?;
        c.push_str(main);
        c.push_str(own);
        Some(slot)
    }

    /// The slot's text worded for `product`.
    fn get(&self, s: Slot, product: Product) -> Cow<'_, str> {
        let c = self.chunks.get(s.chunk as usize).map_or("", String::as_str);
        let (start, main) = (s.start as usize, s.main as usize);
        let text = |from: usize, len: usize| c.get(from..from + len).unwrap_or("");
        let same = s.tofu == 0 && s.same_start as usize + s.same_end as usize == main;
        if product != Product::OpenTofu || same {
            return Cow::Borrowed(text(start, main));
        }
        let (same_start, same_end) = (s.same_start as usize, s.same_end as usize);
        let mut t = String::with_capacity(same_start + s.tofu as usize + same_end);
        t.push_str(text(start, same_start));
        t.push_str(text(start + main, s.tofu as usize));
        t.push_str(text(start + main - same_end, same_end));
        Cow::Owned(t)
    }
}

/// How `b` differs from `a`: the bytes they share at the start, `b`'s own middle, the bytes they
/// share at the end (both cut at character boundaries, never overlapping).
fn differ<'b>(a: &str, b: &'b str) -> (usize, &'b str, usize) {
    let mut start = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !a.is_char_boundary(start) {
        start -= 1;
    }
    let room = a.len().min(b.len()) - start;
    let mut end = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !a.is_char_boundary(a.len() - end) || !b.is_char_boundary(b.len() - end) {
        end -= 1;
    }
    (start, b.get(start..b.len() - end).unwrap_or(""), end)
}

impl Entry {
    /// The main entry, worded for `product`.
    fn worded(&self, product: Product) -> &str {
        match (&self.tofu, product) {
            (Some(t), Product::OpenTofu) => t,
            _ => &self.main,
        }
    }
}

/// The terminal entry `main` of `v` worded for OpenTofu, when that differs: rewording changes
/// only the `action_reason` line of the explanation, and the block prints each explanation line
/// on a line of its own ([`crate::terminal::explanation_line`]), so those lines of the text are
/// replaced instead of rendering the entry a second time. Nothing else in the block depends on
/// the wording (what it leaves out of the explanation, or says once, names no product).
fn terminal_tofu(main: &str, v: &Verdict) -> Option<Box<str>> {
    let reason = v.action_reason.as_deref()?;
    let was = reason_line(Product::Unknown, reason);
    let now = reason_line(Product::OpenTofu, reason);
    if was == now || !v.explanation.contains(&was) {
        return None;
    }
    let (mut was_line, mut now_line) = (String::new(), String::new());
    crate::terminal::explanation_line(&mut was_line, &was);
    crate::terminal::explanation_line(&mut now_line, &now);
    let mut out = String::with_capacity(main.len() + 8);
    for line in main.split_inclusive('\n') {
        out.push_str(if line == was_line { &now_line } else { line });
    }
    Some(out.into_boxed_str())
}

impl Keep {
    /// Entries for the report `opts` describes (terminal or Markdown; for JSON use
    /// [`crate::json::Stream`]).
    pub fn new(opts: &RenderOptions) -> Keep {
        Keep {
            format: opts.format,
            color: opts.color,
            slots: Vec::new(),
            texts: Texts::default(),
            big: BTreeMap::new(),
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
            // The none group is counted, not listed: no entry.
            let slot = if g == Group::Class(Impact::None) {
                Slot::default()
            } else {
                let e = self.entry(g, &mut v);
                match self.texts.push(&e.main, e.tofu.as_deref()) {
                    Some(slot) => slot,
                    None => {
                        self.big.insert(self.slots.len(), e);
                        Slot {
                            chunk: u32::MAX,
                            main: 1,
                            ..Slot::default()
                        }
                    }
                }
            };
            self.slots.push(slot);
            // The terminal report needs the address of a change it lists (their order) or
            // that has a fact; the header's rules are in `origins`.
            if slot.main == 0 && v.facts.is_empty() {
                v.address = String::new();
                v.deposed = None;
            }
            v.action_reason = None;
            v.decided_by = None;
            v.destroyed_object = None;
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
        let tofu = if self.format == Format::Terminal {
            terminal_tofu(&main, v)
        } else if v.action_reason.is_some() {
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
        self.slots.len() + self.ranked.len()
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
#[derive(Debug, Clone)]
pub(crate) enum Held<'k> {
    /// Its entries: the main one (worded for the assessment's product) and the brief one.
    Entry(Cow<'k, str>, &'k str),
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
        if self.keep.format != Format::Markdown {
            return match (self.keep.slots.get(at), self.keep.big.get(&at)) {
                (_, Some(e)) => Held::Entry(Cow::Borrowed(e.worded(self.product)), ""),
                (Some(s), None) => Held::Entry(self.keep.texts.get(*s, self.product), ""),
                (None, None) => Held::Dropped,
            };
        }
        match self.keep.ranked.get(&rank_key(group_of(v), v)) {
            Some(e) => Held::Entry(Cow::Borrowed(e.worded(self.product)), &e.brief),
            None => Held::Dropped,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every wording comes back whole, whatever the two share: nothing, a prefix, a suffix,
    /// one inside the other, multi-byte characters at the edges.
    #[test]
    fn texts_give_back_both_wordings() {
        let cases = [
            ("a Terraform: x — y\nz", Some("a OpenTofu: x — y\nz")),
            ("abc", Some("abcd")),
            ("abcd", Some("abc")),
            ("abc", Some("xabc")),
            ("abc", Some("")),
            ("é→é", Some("é←é")),
            ("→", Some("←")),
            ("same", Some("same")),
            ("only", None),
        ];
        let mut t = Texts::default();
        let slots: Vec<Slot> = cases.iter().map(|(m, o)| t.push(m, *o).unwrap()).collect();
        for ((m, o), s) in cases.iter().zip(slots) {
            assert_eq!(t.get(s, Product::Terraform), *m);
            assert_eq!(t.get(s, Product::Unknown), *m);
            assert_eq!(t.get(s, Product::OpenTofu), o.unwrap_or(m));
        }
    }

    /// An entry longer than a chunk gets a chunk of its own; the next entry starts another.
    #[test]
    fn long_entries_get_their_own_chunk() {
        let mut t = Texts::default();
        let long = "x".repeat(CHUNK + 10);
        let a = t.push("a", None).unwrap();
        let b = t.push(&long, None).unwrap();
        let c = t.push("c", None).unwrap();
        assert_eq!((a.chunk, b.chunk, b.start), (0, 1, 0));
        assert_eq!(t.get(b, Product::Terraform), long);
        assert_eq!(t.get(c, Product::Terraform), "c");
        assert_eq!(t.get(a, Product::Terraform), "a");
    }
}
