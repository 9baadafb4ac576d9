//! The groups a plan report lists its changes in (the changes of unknown cost first, then each
//! class, worst first) and the counts the reports' summaries are made of.

use crate::outcome::cost_unknown;
use std::collections::BTreeMap;
use ward_classify::{Assessment, Verdict};
use ward_model::Impact;

/// A group of verdicts in a report: the changes of unknown cost first, then each class, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Group {
    /// Unclassified type, action that does something: cost unknown.
    Unknown,
    /// A class.
    Class(Impact),
}

impl Group {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Group::Unknown => "unclassified",
            Group::Class(i) => i.as_str(),
        }
    }
}

/// Which group a verdict is reported in.
pub(crate) fn group_of(v: &Verdict) -> Group {
    if cost_unknown(v) {
        Group::Unknown
    } else {
        Group::Class(v.impact)
    }
}

/// Every group, worst first, each with its verdicts (as indices into `a.verdicts`) sorted by
/// address then deposed key (empty groups included).
pub(crate) fn grouped_indexed(a: &Assessment) -> Vec<(Group, Vec<usize>)> {
    let mut order: Vec<Group> = vec![Group::Unknown];
    order.extend(Impact::ALL.iter().rev().map(|i| Group::Class(*i)));
    let mut map: BTreeMap<Group, Vec<usize>> = order.iter().map(|g| (*g, Vec::new())).collect();
    for (i, v) in a.verdicts.iter().enumerate() {
        map.entry(group_of(v)).or_default().push(i);
    }
    order
        .into_iter()
        .map(|g| {
            let mut is = map.remove(&g).unwrap_or_default();
            is.sort_by(|x, y| {
                let (x, y) = (&a.verdicts[*x], &a.verdicts[*y]);
                (&x.address, &x.deposed).cmp(&(&y.address, &y.deposed))
            });
            (g, is)
        })
        .collect()
}

/// The verdicts a [`crate::Keep`] or [`crate::json::Stream`] counted instead of keeping (see [`counted`]),
/// by action: the report needs of them only how many there are.
pub(crate) type Counted = BTreeMap<ward_model::Action, usize>;

/// True when the report needs nothing of the verdict but to count it: a change of the none
/// group that changes nothing (a no-op, a read) and has no fact. Its class, its action and
/// that it costs nothing are all the summary, the outcome and the none group's line use; the
/// coverage gate counts it by type (`ward_classify::Assessor::add_kept`).
pub(crate) fn counted(v: &Verdict) -> bool {
    group_of(v) == Group::Class(Impact::None) && !v.action.is_change() && v.facts.is_empty()
}

/// How many changes the report is of: the assessment's verdicts and those `counted`.
pub(crate) fn total(a: &Assessment, counted: &Counted) -> usize {
    a.verdicts.len() + counted.values().sum::<usize>()
}

/// The changes of each class and those of unknown cost, `counted` included (in none).
pub(crate) fn class_counts(a: &Assessment, counted: &Counted) -> (BTreeMap<Impact, usize>, usize) {
    let mut m: BTreeMap<Impact, usize> = Impact::ALL.iter().map(|i| (*i, 0)).collect();
    *m.entry(Impact::None).or_default() += counted.values().sum::<usize>();
    let mut unknown = 0;
    for v in &a.verdicts {
        match group_of(v) {
            Group::Unknown => unknown += 1,
            Group::Class(i) => *m.entry(i).or_default() += 1,
        }
    }
    (m, unknown)
}

/// The worst class among classified changes (changes of unknown cost excluded).
pub(crate) fn worst_class(a: &Assessment) -> Impact {
    a.verdicts
        .iter()
        .filter(|v| !cost_unknown(v))
        .map(|v| v.impact)
        .max()
        .unwrap_or_default()
}
