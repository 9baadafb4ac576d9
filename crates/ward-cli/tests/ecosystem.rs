//! The ecosystem check (ruff's, for `ward check`): `ward check` with no configuration on the
//! slimmed public repositories of `WARD_FIELD` (`.ci/run` sets it to `../shared/field`) reports
//! exactly the findings of the reviewed baseline `ecosystem/field.tsv`, each judged right, noise
//! or wrong with a reason. A finding that appears or disappears fails until the baseline is
//! updated (`scripts/ecosystem --set field --update`) and the new rows are judged; every rule
//! with an error severity keeps a precision (right / all) of at least 90 % there.
//! Skipped, and says so, when `WARD_FIELD` is unset; fails when it is set but holds no repository.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// (repo, file, line, rule, severity): one finding.
type Key = (String, String, String, String, String);

const VERDICTS: &[&str] = &["right", "noise", "wrong"];

fn baseline() -> BTreeMap<Key, Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ecosystem/field.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    assert_eq!(
        lines.next(),
        Some("repo\tfile\tline\trule\tseverity\tverdict\treason"),
        "{}: header",
        path.display()
    );
    let mut out: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for (n, l) in lines.enumerate() {
        let c: Vec<&str> = l.split('\t').collect();
        assert_eq!(c.len(), 7, "{}:{}: {l}", path.display(), n + 2);
        assert!(
            VERDICTS.contains(&c[5]),
            "{}:{}: verdict {:?} is not one of {VERDICTS:?}: judge the finding",
            path.display(),
            n + 2,
            c[5]
        );
        assert!(
            !c[6].trim().is_empty(),
            "{}:{}: a verdict needs its reason",
            path.display(),
            n + 2
        );
        let key = (c[0], c[1], c[2], c[3], c[4]);
        let key = (
            key.0.into(),
            key.1.into(),
            key.2.into(),
            key.3.into(),
            key.4.into(),
        );
        out.entry(key).or_default().push(c[5].to_string());
    }
    out
}

fn findings(name: &str, dir: &Path) -> BTreeMap<Key, usize> {
    let out = Command::new(env!("CARGO_BIN_EXE_ward"))
        .arg("check")
        .arg(dir)
        .args(["--format", "json"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{name}: ward check exited {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut m = BTreeMap::new();
    for f in report["findings"].as_array().unwrap() {
        let s = |k: &str| match &f[k] {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => String::new(),
        };
        let line = match s("line") {
            l if l.is_empty() => "0".to_string(),
            l => l,
        };
        *m.entry((name.to_string(), s("file"), line, s("rule"), s("severity")))
            .or_default() += 1;
    }
    m
}

#[test]
fn ward_check_on_real_repositories_matches_the_reviewed_baseline() {
    let Some(root) = std::env::var_os("WARD_FIELD") else {
        eprintln!("skipped: WARD_FIELD is not set (.ci/run sets it to ../shared/field)");
        return;
    };
    let root = PathBuf::from(root);
    let mut repos: Vec<(String, PathBuf)> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("WARD_FIELD={}: {e}", root.display()))
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    repos.sort();
    assert!(
        !repos.is_empty(),
        "WARD_FIELD={} holds no repository",
        root.display()
    );
    let base = baseline();

    let mut now: BTreeMap<Key, usize> = BTreeMap::new();
    for (name, dir) in &repos {
        now.extend(findings(name, dir));
    }
    let mut problems = Vec::new();
    for (k, n) in &now {
        let had = base.get(k).map_or(0, Vec::len);
        if *n > had {
            problems.push(format!("new finding ({}x): {k:?}", n - had));
        }
    }
    for (k, v) in &base {
        let has = now.get(k).copied().unwrap_or(0);
        if v.len() > has {
            problems.push(format!("finding gone ({}x): {k:?}", v.len() - has));
        }
    }
    // Precision per rule, over the findings of this run, from their verdicts.
    let mut per_rule: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    for (k, v) in &base {
        let e = per_rule.entry((k.3.clone(), k.4.clone())).or_default();
        e.0 += v.iter().filter(|v| *v == "right").count();
        e.1 += v.len();
    }
    for ((rule, severity), (right, all)) in &per_rule {
        eprintln!("ecosystem: {rule} {severity}: {right} right of {all}");
        if severity == "error" && right * 10 < all * 9 {
            problems.push(format!(
                "{rule} is an error whose precision on real repositories is {right}/{all}, \
                 below 90 %: fix the rule, not the baseline"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "ward check on WARD_FIELD differs from ecosystem/field.tsv (update it with \
         `scripts/ecosystem --set field --update` and judge every new row):\n{}",
        problems.join("\n")
    );
    eprintln!(
        "ecosystem: {} repositories, {} findings as in the baseline",
        repos.len(),
        now.values().sum::<usize>()
    );
}
