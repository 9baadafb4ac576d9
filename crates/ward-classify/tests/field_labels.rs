//! The labelled field set (#31 item 6): changes of real public plans judged by hand against the
//! providers' documentation (`tests/field/labels.tsv`), compared with what ward answers today.
//!
//! The plans stay outside the repository: `scripts/field-plans DIR` rebuilds them from fetched
//! mirrors (listed in `tests/field/plans.tsv`), and `WARD_FIELD_PLANS=DIR` runs the labels. A
//! label ward gets wrong today is listed in `tests/field/known-wrong.tsv`; the label keeps the
//! truth. The test fails on every wrong answer that is not listed and on every listed one that
//! ward now gets right (remove it from the list), so knowledge fixes and regressions both show.
//! Skipped (and says why) when `WARD_FIELD_PLANS` is unset or names no directory. The data files
//! themselves are checked on every run.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use ward_classify::{assess, Options};
use ward_model::Impact;
use ward_rules::Knowledge;

const FIELD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/field");

/// One hand-judged change.
#[derive(Debug, Clone)]
struct Label {
    plan: String,
    address: String,
    action: String,
    expected: Impact,
}

/// Rows of a tab-separated file after its `#` comments, keyed by the header's column names.
fn rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    lines
        .enumerate()
        .map(|(i, line)| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), header.len(), "row {}: {line}", i + 1);
            header
                .iter()
                .zip(cols)
                .map(|(h, c)| ((*h).to_string(), c.to_string()))
                .collect()
        })
        .collect()
}

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(FIELD).join(name))
        .unwrap_or_else(|e| panic!("tests/field/{name}: {e}"))
}

fn labels() -> Vec<Label> {
    rows(&read("labels.tsv"))
        .into_iter()
        .map(|r| Label {
            expected: r["expected"].parse().unwrap_or_else(|_| {
                panic!(
                    "{} {}: bad class {}",
                    r["plan"], r["address"], r["expected"]
                )
            }),
            plan: r["plan"].clone(),
            address: r["address"].clone(),
            action: r["action"].clone(),
        })
        .collect()
}

/// (plan, address) of the labels ward answers wrongly today.
fn known_wrong() -> BTreeSet<(String, String)> {
    rows(&read("known-wrong.tsv"))
        .into_iter()
        .map(|r| (r["plan"].clone(), r["address"].clone()))
        .collect()
}

/// What ward answers for one change: its class, or `unclassified`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Class(Impact),
    Unclassified,
    /// The plan has no change at that address, or the plan could not be read.
    Missing(String),
}

/// Every disagreement between the labels, the known-wrong list and ward's answers, one line each.
fn judge(
    labels: &[Label],
    known_wrong: &BTreeSet<(String, String)>,
    answers: &BTreeMap<(String, String), (String, Answer)>,
) -> Vec<String> {
    let mut out = Vec::new();
    for l in labels {
        let key = (l.plan.clone(), l.address.clone());
        let listed = known_wrong.contains(&key);
        let Some((action, answer)) = answers.get(&key) else {
            out.push(format!("{} {}: no answer", l.plan, l.address));
            continue;
        };
        if let Answer::Missing(why) = answer {
            out.push(format!("{} {}: {why}", l.plan, l.address));
            continue;
        }
        if *action != l.action {
            out.push(format!(
                "{} {}: the plan's action is {action}, the label says {}",
                l.plan, l.address, l.action
            ));
        }
        let right = *answer == Answer::Class(l.expected);
        let said = match answer {
            Answer::Class(c) => c.as_str().to_string(),
            _ => "unclassified".to_string(),
        };
        if right && listed {
            out.push(format!(
                "{} {}: ward now answers {said}, as labelled: remove it from known-wrong.tsv",
                l.plan, l.address
            ));
        } else if !right && !listed {
            out.push(format!(
                "{} {}: ward answers {said}, the label says {} (fix the knowledge; list it in known-wrong.tsv only if the fix is elsewhere)",
                l.plan, l.address, l.expected
            ));
        }
    }
    let labelled: BTreeSet<_> = labels
        .iter()
        .map(|l| (l.plan.clone(), l.address.clone()))
        .collect();
    for (plan, address) in known_wrong.difference(&labelled) {
        out.push(format!(
            "known-wrong.tsv lists {plan} {address}, which has no label"
        ));
    }
    out
}

fn action_name(a: ward_model::Action) -> String {
    serde_json::to_value(a)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

#[test]
fn field_labels_match_ward() {
    let Some(dir) = std::env::var_os("WARD_FIELD_PLANS") else {
        eprintln!("skipped: WARD_FIELD_PLANS is not set (rebuild the plans with scripts/field-plans DIR, then set it to DIR)");
        return;
    };
    let dir = PathBuf::from(dir);
    if !dir.is_dir() {
        eprintln!(
            "skipped: WARD_FIELD_PLANS={} is not a directory (rebuild it with scripts/field-plans)",
            dir.display()
        );
        return;
    }
    let labels = labels();
    let k = Knowledge::builtin().unwrap();
    let opts = Options {
        allow_unclassified: true,
    };
    let plans: BTreeSet<&str> = labels.iter().map(|l| l.plan.as_str()).collect();
    let mut answers = BTreeMap::new();
    // the provider (last part of its address) of every labelled change ward found
    let mut providers: BTreeMap<(String, String), String> = BTreeMap::new();
    for plan in plans {
        let wanted: Vec<&Label> = labels.iter().filter(|l| l.plan == plan).collect();
        let read = ward_plan::read_file(&dir.join(plan));
        let verdicts = match &read {
            Ok(p) => assess(p, &k, &opts).verdicts,
            Err(e) => {
                for l in &wanted {
                    let why = format!("plan not read: {e}");
                    answers.insert(
                        (l.plan.clone(), l.address.clone()),
                        (String::new(), Answer::Missing(why)),
                    );
                }
                continue;
            }
        };
        for l in wanted {
            let found = verdicts
                .iter()
                .find(|v| v.address == l.address && v.deposed.is_none());
            if let Some(v) = found {
                // a plan without a provider address: the type's prefix names it
                let name = match v.provider_name.rsplit('/').next() {
                    Some(n) if !n.is_empty() => n,
                    _ => v.type_name.split('_').next().unwrap_or_default(),
                };
                providers.insert((l.plan.clone(), l.address.clone()), name.to_string());
            }
            let entry = match found {
                Some(v) if v.classified => (action_name(v.action), Answer::Class(v.impact)),
                Some(v) => (action_name(v.action), Answer::Unclassified),
                None => (
                    String::new(),
                    Answer::Missing("no change at that address".to_string()),
                ),
            };
            answers.insert((l.plan.clone(), l.address.clone()), entry);
        }
    }
    let mut per_provider: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for l in &labels {
        let key = (l.plan.clone(), l.address.clone());
        let name = providers.get(&key).map_or("?", String::as_str);
        let tally = per_provider.entry(name).or_default();
        tally.1 += 1;
        if answers.get(&key) == Some(&(l.action.clone(), Answer::Class(l.expected))) {
            tally.0 += 1;
        }
    }
    let right: usize = per_provider.values().map(|(r, _)| r).sum();
    eprintln!(
        "field set: ward agrees with {right} of {} labels",
        labels.len()
    );
    for (name, (right, judged)) in &per_provider {
        eprintln!("  {name}: {right} right of {judged}");
    }
    let problems = judge(&labels, &known_wrong(), &answers);
    assert!(
        problems.is_empty(),
        "{} disagreements:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn field_data_is_well_formed() {
    let listed = rows(&read("plans.tsv"));
    let mut blobs = BTreeSet::new();
    let plans: BTreeSet<String> = listed
        .iter()
        .map(|r| {
            assert_eq!(r["sha256"].len(), 64, "{}", r["key"]);
            assert_eq!(r["commit"].len(), 40, "{}", r["key"]);
            assert!(
                blobs.insert(r["sha256"].clone()),
                "{}: the same plan twice",
                r["key"]
            );
            r["key"].clone()
        })
        .collect();
    assert_eq!(plans.len(), listed.len(), "a key listed twice in plans.tsv");
    assert!(plans.len() >= 300, "{} plans", plans.len());
    let rows_ = rows(&read("labels.tsv"));
    let mut seen = BTreeSet::new();
    for r in &rows_ {
        let at = format!("{} {}", r["plan"], r["address"]);
        assert!(plans.contains(&r["plan"]), "{at}: plan not in plans.tsv");
        assert!(seen.insert(at.clone()), "{at}: labelled twice");
        assert!(r["expected"].parse::<Impact>().is_ok(), "{at}: bad class");
        assert!(
            r["source"].starts_with("https://"),
            "{at}: source is not a URL"
        );
        assert!(!r["reason"].trim().is_empty(), "{at}: no reason");
    }
    let changes = rows_.iter().filter(|r| r["action"] != "create").count();
    assert!(rows_.len() >= 150, "{} labels", rows_.len());
    assert!(changes >= 60, "{changes} updates, replaces or deletes");
    for r in rows(&read("known-wrong.tsv")) {
        assert!(
            seen.contains(&format!("{} {}", r["plan"], r["address"])),
            "known-wrong.tsv: {} {} has no label",
            r["plan"],
            r["address"]
        );
    }
}

/// The comparison itself can fail: a listed wrong answer that ward now gets right, an unlisted
/// wrong answer, an unclassified type, a missing change and a stale list entry are each reported.
#[test]
fn judge_reports_every_disagreement() {
    let label = |address: &str, expected: Impact| Label {
        plan: "p.json".to_string(),
        address: address.to_string(),
        action: "create".to_string(),
        expected,
    };
    let labels = vec![
        label("a.right", Impact::Free),
        label("a.fixed", Impact::Interrupt),
        label("a.broken", Impact::Free),
        label("a.unknown", Impact::InPlace),
        label("a.listed", Impact::Interrupt),
        label("a.gone", Impact::Free),
    ];
    let key = |a: &str| ("p.json".to_string(), a.to_string());
    let known: BTreeSet<_> = [key("a.fixed"), key("a.listed"), key("a.stale")].into();
    let create = |a: Answer| ("create".to_string(), a);
    let answers: BTreeMap<_, _> = [
        (key("a.right"), create(Answer::Class(Impact::Free))),
        (key("a.fixed"), create(Answer::Class(Impact::Interrupt))),
        (key("a.broken"), create(Answer::Class(Impact::InPlace))),
        (key("a.unknown"), create(Answer::Unclassified)),
        (key("a.listed"), create(Answer::Class(Impact::Free))),
        (
            key("a.gone"),
            (
                String::new(),
                Answer::Missing("no change at that address".into()),
            ),
        ),
    ]
    .into();
    let problems = judge(&labels, &known, &answers);
    let about = |a: &str| problems.iter().filter(|p| p.contains(a)).count();
    assert_eq!(about("a.right"), 0, "{problems:#?}");
    assert_eq!(about("a.listed"), 0, "{problems:#?}");
    assert_eq!(about("a.fixed"), 1, "{problems:#?}");
    assert_eq!(about("a.broken"), 1, "{problems:#?}");
    assert_eq!(about("a.unknown"), 1, "{problems:#?}");
    assert_eq!(about("a.gone"), 1, "{problems:#?}");
    assert_eq!(about("a.stale"), 1, "{problems:#?}");
    assert_eq!(problems.len(), 5, "{problems:#?}");
}
