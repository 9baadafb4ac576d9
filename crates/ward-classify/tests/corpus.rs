//! Every plan of the shared real-plan corpus (`WARD_CORPUS`) is assessed with the built-in
//! knowledge: nothing panics, the result is deterministic, every verdict is sorted and explained,
//! the coverage gate lists exactly the unclassified managed types, and a relaxed run differs only
//! in `relaxed`. Skipped (and says so) when `WARD_CORPUS` is unset; fails when it is set but the
//! corpus is missing or holds no plan.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use ward_classify::{assess, Options};
use ward_model::{Impact, Mode};
use ward_rules::Knowledge;

fn plans(root: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv"))
        .unwrap_or_else(|e| panic!("WARD_CORPUS={} has no MANIFEST.tsv: {e}", root.display()));
    let mut out = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(1) == Some(&"plan") {
            out.push(root.join(cols[0]));
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_plan_is_assessed() {
    let Some(root) = std::env::var_os("WARD_CORPUS") else {
        eprintln!("skipped: WARD_CORPUS is not set");
        return;
    };
    let root = PathBuf::from(root);
    let files = plans(&root);
    assert!(!files.is_empty(), "no plan in {}", root.display());
    let k = Knowledge::builtin().unwrap();
    let (mut read, mut verdicts, mut gated) = (0usize, 0usize, 0usize);
    let mut missing: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for f in &files {
        let Ok(plan) = ward_plan::read_file(f) else {
            continue; // the reader's own corpus test says which files are not plans
        };
        read += 1;
        let a = assess(&plan, &k, &Options::default());
        let b = assess(&plan, &k, &Options::default());
        let ja = serde_json::to_string(&a).unwrap();
        assert_eq!(ja, serde_json::to_string(&b).unwrap(), "{}", f.display());
        assert_eq!(a.verdicts.len(), plan.changes.len());
        let keys: Vec<_> = a
            .verdicts
            .iter()
            .map(|v| (&v.address, &v.deposed))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{}", f.display());
        for v in &a.verdicts {
            assert!(!v.explanation.is_empty(), "{}: {}", f.display(), v.address);
            if v.mode != Mode::Managed {
                assert_eq!(v.impact, Impact::None);
                assert!(v.classified);
            }
            if !v.classified {
                assert!(a.coverage.unclassified.contains_key(&*v.type_name));
            }
        }
        verdicts += a.verdicts.len();
        if a.coverage.fails() {
            gated += 1;
        }
        for t in a.coverage.unclassified.keys() {
            *missing.entry(t.clone()).or_default() += 1;
        }
        let relaxed = assess(
            &plan,
            &k,
            &Options {
                allow_unclassified: true,
            },
        );
        assert!(!relaxed.coverage.fails());
        assert_eq!(relaxed.coverage.unclassified, a.coverage.unclassified);
        assert_eq!(relaxed.verdicts, a.verdicts);
    }
    assert!(read > 0, "no corpus file read as a plan");
    eprintln!(
        "corpus: {read} plans assessed, {verdicts} verdicts, {gated} plans with unclassified types"
    );
    let mut top: Vec<(usize, String)> = missing.into_iter().map(|(t, n)| (n, t)).collect();
    top.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let top: Vec<String> = top
        .iter()
        .take(20)
        .map(|(n, t)| format!("{t} ({n})"))
        .collect();
    eprintln!("corpus: most common unclassified types: {}", top.join(", "));
}
