//! Plan reports of a plan read change by change: each verdict rendered as it is classified and
//! kept as its report entry, the verdict itself slimmed to what the summary needs.

use crate::format::Format;
use crate::group::{group_of, Counted, Group};
use crate::options::{Expand, RenderOptions};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::BuildHasher;
use ward_classify::explain::reason_line;
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
    expand: Expand,
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
    /// Markdown: the sum of the entries' `shown` in `ranked`.
    shown_chars: usize,
    /// Markdown: the first key of `ranked` at which the entries' `shown`, summed from the
    /// first, pass the limit, and that sum (see [`Keep::never_detailed`]); `None` while they do
    /// not.
    cut: Option<(RankKey, usize)>,
    /// Markdown: the limit.
    limit: usize,
    /// How many verdicts were kept (dropped ones included).
    seen: usize,
    /// The origins of every rule that decided something in a kept verdict (for the header's
    /// "decided by packs").
    pub(crate) origins: BTreeSet<RuleOrigin>,
    /// The verdicts [`Keep::keep_or_count`] counted instead of returning.
    pub(crate) counted: Counted,
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
    /// Markdown: the fewest characters the report can show of it: the shorter wording of
    /// `main`, or `brief` when `main` is empty (0 for the terminal).
    shown: usize,
}

/// Where a terminal entry's text is in [`Texts`]: its lines' numbers are `Texts::ids[start..]`,
/// `main` of them for its main wording, then `tofu - 1` more for its OpenTofu wording when that
/// differs (`tofu` 0: the same). `main` 0: no entry. `start` [`u32::MAX`]: the entry is in `Keep::big`.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    start: u32,
    main: u32,
    tofu: u32,
}

/// Where one distinct line's text is: its chunk, where it starts there, its length in bytes.
#[derive(Debug, Clone, Copy)]
struct Line {
    chunk: u32,
    start: u32,
    len: u32,
}

/// The terminal entries' text, line by line. Entries repeat most of their lines (a rule's
/// rationale, "decided by", the identity lines of a type, ...), so each distinct line is stored
/// once, and an entry is the list of its lines' numbers: memory holds the distinct lines, 4 bytes
/// per line of each entry, and about 40 bytes per distinct line of index. The text is appended in
/// chunks of about [`CHUNK`] bytes that are never reallocated once full (not one allocation per
/// line, nor a growing buffer's doubling).
#[derive(Debug, Default)]
struct Texts {
    chunks: Vec<String>,
    /// Every stored line.
    lines: Vec<Line>,
    /// Stored lines by the hash of their text. Two lines with one hash: the later is stored
    /// again, unindexed (the text decides, never the hash).
    index: foldhash::HashMap<u64, u32>,
    hasher: foldhash::fast::RandomState,
    /// The entries' line numbers, one entry after the other.
    ids: Vec<u32>,
}

/// The size of a [`Texts`] chunk.
const CHUNK: usize = 1 << 20;

impl Texts {
    /// Appends the main wording and, when given and different, the OpenTofu one; `None` when a
    /// number does not fit a slot (a line of 4 GiB, 4 billion lines).
    fn push(&mut self, main: &str, tofu: Option<&str>) -> Option<Slot> {
        let start = u32::try_from(self.ids.len()).ok()?;
        let main_lines = self.push_lines(main)?;
        let tofu_lines = match tofu.filter(|t| *t != main) {
            Some(t) => self.push_lines(t)?.checked_add(1)?,
            None => 0,
        };
        Some(Slot {
            start,
            main: main_lines,
            tofu: tofu_lines,
        })
    }

    /// Appends the numbers of `text`'s lines (each with its line feed), storing those not yet
    /// stored; returns how many. The first line (the change's address) is never seen twice: it
    /// is stored without being indexed.
    fn push_lines(&mut self, text: &str) -> Option<u32> {
        let mut n = 0u32;
        let mut rest = text;
        // Line by line as `split_inclusive('\n')` cuts them, each end found by memchr (a line
        // feed is one byte: every cut is at a character's boundary).
        while !rest.is_empty() {
            let cut = memchr::memchr(b'\n', rest.as_bytes()).map_or(rest.len(), |k| k + 1);
            let (line, after) = rest.split_at_checked(cut)?;
            rest = after;
            let id = if n == 0 {
                self.store(line)?
            } else {
                let hash = self.hasher.hash_one(line);
                match self.index.get(&hash) {
                    Some(&id) if self.line(id) == line => id,
                    Some(_) => self.store(line)?,
                    None => {
                        let id = self.store(line)?;
                        self.index.insert(hash, id);
                        id
                    }
                }
            };
            self.ids.push(id);
            n = n.checked_add(1)?;
        }
        Some(n)
    }

    /// Stores one line's text; returns its number.
    fn store(&mut self, line: &str) -> Option<u32> {
        let fits = self
            .chunks
            .last()
            .is_some_and(|c| c.capacity() - c.len() >= line.len());
        if !fits {
            self.chunks
                .push(String::with_capacity(line.len().max(CHUNK)));
        }
        let at = Line {
            chunk: u32::try_from(self.chunks.len().saturating_sub(1)).ok()?,
            start: u32::try_from(self.chunks.last().map_or(0, String::len)).ok()?,
            len: u32::try_from(line.len()).ok()?,
        };
        let id = u32::try_from(self.lines.len()).ok()?;
        self.chunks.last_mut()?.push_str(line);
        self.lines.push(at);
        Some(id)
    }

    /// The text of line `id`.
    fn line(&self, id: u32) -> &str {
        let Some(l) = self.lines.get(id as usize) else {
            return "";
        };
        let (start, len) = (l.start as usize, l.len as usize);
        self.chunks
            .get(l.chunk as usize)
            .and_then(|c| c.get(start..start + len))
            .unwrap_or("")
    }

    /// The numbers of the slot's lines worded for `product`.
    fn ids(&self, s: Slot, product: Product) -> &[u32] {
        let (start, main) = (s.start as usize, s.main as usize);
        let (from, n) = if product == Product::OpenTofu && s.tofu > 0 {
            (start + main, s.tofu as usize - 1)
        } else {
            (start, main)
        };
        self.ids.get(from..from + n).unwrap_or(&[])
    }

    /// Appends the slot's text worded for `product` to `out`, line by line.
    fn push_to(&self, s: Slot, product: Product, out: &mut String) {
        for id in self.ids(s, product) {
            out.push_str(self.line(*id));
        }
    }
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
/// on a line of its own ([`crate::entry::terminal::explanation_line`]), so those lines of the text are
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
    crate::entry::terminal::explanation_line(&mut was_line, &was);
    crate::entry::terminal::explanation_line(&mut now_line, &now);
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
            expand: opts.expand,
            slots: Vec::new(),
            texts: Texts::default(),
            big: BTreeMap::new(),
            ranked: BTreeMap::new(),
            brief_chars: 0,
            shown_chars: 0,
            cut: None,
            limit: opts.markdown_limit,
            seen: 0,
            origins: BTreeSet::new(),
            counted: Counted::new(),
        }
    }

    /// [`Keep::keep`], or `None` when the report only counts the verdict (a no-op or read of
    /// the none group with no fact, which the report does not list; see `group::counted`):
    /// for `ward_classify::Assessor::add_kept`, so that memory holds no verdict of such a change.
    pub fn keep_or_count(&mut self, v: Verdict) -> Option<Verdict> {
        // Neither report lists such a change unless the none group is expanded.
        let count = crate::group::counted(&v) && !self.expand.none;
        let action = v.action;
        let v = self.keep(v);
        if !count {
            return Some(v);
        }
        *self.counted.entry(action).or_default() += 1;
        None
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
            // The none group is counted, not listed (unless expanded): no entry.
            let slot = if g == Group::Class(Impact::None) && !self.expand.none {
                Slot::default()
            } else {
                // The block's text goes into `texts` as rendered: boxed (a reallocation to
                // its length) only when it is kept whole in `big`.
                let main = crate::entry::terminal::entry(self.color, self.expand, g, &v);
                let tofu = terminal_tofu(&main, &v);
                match self.texts.push(&main, tofu.as_deref()) {
                    Some(slot) => slot,
                    None => {
                        let e = Entry {
                            main: main.into_boxed_str(),
                            tofu,
                            brief: Box::default(),
                            shown: 0,
                        };
                        self.big.insert(self.slots.len(), e);
                        Slot {
                            start: u32::MAX,
                            main: 1,
                            tofu: 0,
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
        if !crate::entry::markdown::listed(g, v, self.expand) {
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
        let entry = match self.never_detailed(g, v, &key) {
            Some(least) => self.briefly(v, least),
            None => self.entry(g, v),
        };
        self.brief_chars += entry.brief.chars().count();
        self.shown_chars += entry.shown;
        let shown = entry.shown;
        self.ranked.insert(key.clone(), entry);
        self.move_cut(&key, shown);
        while let Some(last) = self.ranked.last_entry() {
            let chars = last.get().brief.chars().count();
            if self.brief_chars - chars <= self.limit {
                break;
            }
            self.brief_chars -= chars;
            self.shown_chars -= last.get().shown;
            // The entries before the cut are never dropped before it.
            if self.cut.as_ref().is_some_and(|(cut, _)| cut == last.key()) {
                self.cut = None;
            }
            last.remove();
        }
    }

    /// Markdown: the verdict's entries (the terminal's are rendered in [`Keep::keep`]).
    fn entry(&self, g: Group, v: &mut Verdict) -> Entry {
        let main = self.main(g, v);
        let tofu = if v.action_reason.is_some() {
            let before = v.explanation.clone();
            v.reword_reason(Product::OpenTofu);
            (v.explanation != before).then(|| self.main(g, v))
        } else {
            None
        };
        let brief = crate::entry::markdown::brief_entry(v, self.expand).into_boxed_str();
        let shown = if main.is_empty() {
            brief.chars().count()
        } else {
            let main = main.chars().count();
            tofu.as_deref()
                .map_or(main, |t| main.min(t.chars().count()))
        };
        Entry {
            main,
            tofu,
            brief,
            shown,
        }
    }

    /// Markdown: when the detailed block of the verdict (ranked at `key`) can never be shown,
    /// the fewest characters it would have. Showing it shows every entry ranked before it
    /// detailed as well (the report makes the last entries brief first), so when those entries
    /// at their shortest already pass the limit ([`Keep::cut`] is before `key`), no report
    /// that fits holds it. Entries ranked before it stay while it stays (the last go first),
    /// and more may come before it, never fewer. The 60 MB bench plan's 4,687 blocks were
    /// rendered for a report that fits none (about 27,000 instructions each).
    fn never_detailed(&self, g: Group, v: &Verdict, key: &RankKey) -> Option<usize> {
        if !crate::entry::markdown::is_block(g) {
            return None;
        }
        // One ranked before the cut is rendered, even where the entries before it and its
        // least would pass the limit: finding that out walked the kept entries for every block,
        // and at a limit that holds most of a large plan it took most of the run (the 500 MB
        // bench plan at 20,000,000 characters: 15.6 s, against 2.6 s).
        let (cut, _) = self.cut.as_ref()?;
        (key > cut).then(|| crate::entry::markdown::least_block_chars(g, v))
    }

    /// Markdown: keeps [`Keep::cut`] the first key at which the kept entries' `shown`, summed,
    /// pass the limit, once the entry at `key` (`shown` characters at its shortest) is kept.
    /// It only moves towards the first entry, a step for each entry it passes; it is found by
    /// a walk from the first entry when there is none (at first, and once it was dropped).
    fn move_cut(&mut self, key: &RankKey, shown: usize) {
        match &mut self.cut {
            Some((cut, sum)) if key < cut => {
                *sum += shown;
                // While the entries before the cut pass the limit alone, it moves back.
                while let Some((before, at)) = self
                    .ranked
                    .range(..cut.clone())
                    .next_back()
                    .zip(self.ranked.get(cut))
                {
                    if *sum - at.shown <= self.limit {
                        break;
                    }
                    *sum -= at.shown;
                    *cut = before.0.clone();
                }
            }
            Some(_) => {}
            None if self.shown_chars > self.limit => {
                let mut sum = 0;
                for (k, e) in &self.ranked {
                    sum += e.shown;
                    if sum > self.limit {
                        self.cut = Some((k.clone(), sum));
                        break;
                    }
                }
            }
            None => {}
        }
    }

    /// Markdown: the verdict's brief entry, and in place of its block one of `least`
    /// characters that no report that fits holds ([`Keep::never_detailed`]): it weighs what
    /// the block would at least, as the report is fitted, and is never written.
    fn briefly(&self, v: &Verdict, least: usize) -> Entry {
        let brief = crate::entry::markdown::brief_entry(v, self.expand).into_boxed_str();
        Entry {
            main: " ".repeat(least).into_boxed_str(),
            tofu: None,
            brief,
            shown: least,
        }
    }

    /// Markdown: the detailed entry.
    fn main(&self, g: Group, v: &Verdict) -> Box<str> {
        crate::entry::markdown::entry(g, v, self.expand).into_boxed_str()
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
    /// The terminal report's [`Kept::held`] written into `out`: the entry of the assessment's
    /// verdict `i` appended line by line (not gathered into a string of its own first), nothing
    /// when it has none; `false` when the verdict was not kept (it is whole: [`Held::Whole`]).
    pub(crate) fn push_terminal(&self, i: usize, v: &Verdict, out: &mut String) -> bool {
        let Some(&at) = self.order.get(i).filter(|at| **at < self.keep.seen) else {
            return false;
        };
        if self.keep.format == Format::Markdown {
            if let Held::Entry(text, _) = self.held(i, v) {
                out.push_str(&text);
            }
            return true;
        }
        match (self.keep.slots.get(at), self.keep.big.get(&at)) {
            (_, Some(e)) => out.push_str(e.worded(self.product)),
            (Some(s), None) => self.keep.texts.push_to(*s, self.product, out),
            (None, None) => {}
        }
        true
    }

    /// What the keep holds for the assessment's verdict `i` (`v`).
    pub(crate) fn held(&self, i: usize, v: &Verdict) -> Held<'k> {
        let Some(&at) = self.order.get(i).filter(|at| **at < self.keep.seen) else {
            return Held::Whole;
        };
        if self.keep.format != Format::Markdown {
            return match (self.keep.slots.get(at), self.keep.big.get(&at)) {
                (_, Some(e)) => Held::Entry(Cow::Borrowed(e.worded(self.product)), ""),
                (Some(s), None) => {
                    let mut text = String::new();
                    self.keep.texts.push_to(*s, self.product, &mut text);
                    Held::Entry(Cow::Owned(text), "")
                }
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

    /// The slot's text as the terminal report writes it ([`Texts::push_to`]).
    fn text(t: &Texts, s: Slot, product: Product) -> String {
        let mut out = String::new();
        t.push_to(s, product, &mut out);
        out
    }

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
            assert_eq!(text(&t, s, Product::Terraform), *m);
            assert_eq!(text(&t, s, Product::Unknown), *m);
            assert_eq!(text(&t, s, Product::OpenTofu), o.unwrap_or(m));
        }
    }

    /// A line longer than a chunk gets a chunk of its own; the next line starts another.
    #[test]
    fn long_lines_get_their_own_chunk() {
        let mut t = Texts::default();
        let long = "x".repeat(CHUNK + 10);
        let a = t.push("a", None).unwrap();
        let b = t.push(&long, None).unwrap();
        let c = t.push("c", None).unwrap();
        let chunks: Vec<(u32, u32)> = t.lines.iter().map(|l| (l.chunk, l.start)).collect();
        assert_eq!(chunks, [(0, 0), (1, 0), (2, 0)]);
        assert_eq!(text(&t, b, Product::Terraform), long);
        assert_eq!(text(&t, c, Product::Terraform), "c");
        assert_eq!(text(&t, a, Product::Terraform), "a");
    }

    /// A line seen in an earlier entry is stored once, wherever it comes in the entry, except
    /// the first line of each entry (a change's own); every entry reads back whole.
    #[test]
    fn repeated_lines_are_stored_once() {
        let mut t = Texts::default();
        let entries = [
            "A x\n  rule\n  decided\n",
            "B y\n  other\n  rule\n  decided\n",
            "A x\n  decided\n  rule",
            "\n\n",
            "",
        ];
        let slots: Vec<Slot> = entries.iter().map(|e| t.push(e, None).unwrap()).collect();
        for (e, s) in entries.iter().zip(&slots) {
            assert_eq!(text(&t, *s, Product::OpenTofu), *e);
        }
        let stored: Vec<&str> = (0..t.lines.len() as u32).map(|i| t.line(i)).collect();
        assert_eq!(
            stored,
            [
                "A x\n",
                "  rule\n",
                "  decided\n",
                "B y\n",
                "  other\n",
                "A x\n",
                "  rule",
                "\n",
                "\n"
            ]
        );
        assert_eq!(slots[4].main, 0);
    }
}
