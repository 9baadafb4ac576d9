//! The layering of the workspace, enforced (issue #34 item 5).
//!
//! CONTRIBUTING.md's "Layering" section is the one place the layers are written: a table of
//! crate → layer (and the crates of its own layer it may use) and a table of the known upward
//! dependencies. This test reads both, reads every workspace crate's dependencies with
//! `cargo metadata --offline --no-deps`, and fails on any normal or build dependency the tables do
//! not allow, on a workspace crate the table does not place, and on a known upward dependency
//! that no longer exists (so its line goes with the fix). Dev-dependencies are not held to the
//! layers (CONTRIBUTING.md says why).
//!
//! The checking function ([`violations`]) is also run on the real graph with a dependency
//! planted in it, so the test is seen to fail where it must.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// CONTRIBUTING.md's layering tables, parsed.
#[derive(Debug, Clone)]
struct Layers {
    /// crate → (layer number, layer name).
    layer: BTreeMap<String, (u32, String)>,
    /// crate → the crates of its own layer it may depend on.
    within: BTreeMap<String, BTreeSet<String>>,
    /// Known upward dependencies (crate, dependency), each a defect with its issue.
    known: BTreeSet<(String, String)>,
}

/// The kind of a dependency, as cargo names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Normal,
    Build,
    Dev,
}

/// One dependency of a workspace crate on another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    from: String,
    to: String,
    kind: Kind,
}

/// The workspace: its crates and the dependencies among them.
#[derive(Debug, Clone)]
struct Graph {
    crates: BTreeSet<String>,
    edges: Vec<Edge>,
}

/// The crate names written in backticks in a table cell (`` `ward-a`, `ward-b` ``).
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Reads the "Layering" section of CONTRIBUTING.md: the table whose header starts `| layer |`
/// and the one whose header starts `| crate | depends on |`.
fn parse_layers(md: &str) -> Result<Layers, String> {
    let start = md
        .find("\n## Layering")
        .ok_or("CONTRIBUTING.md has no \"## Layering\" section")?;
    let section = &md[start + 1..];
    let section = match section[1..].find("\n## ") {
        Some(end) => &section[..end + 1],
        None => section,
    };
    let mut layers = Layers {
        layer: BTreeMap::new(),
        within: BTreeMap::new(),
        known: BTreeSet::new(),
    };
    #[derive(PartialEq)]
    enum In {
        Nothing,
        Layers,
        Known,
    }
    let mut table = In::Nothing;
    for (n, line) in section.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') {
            table = In::Nothing;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        if table == In::Nothing {
            table = match cells.as_slice() {
                ["layer", "crate", ..] => In::Layers,
                ["crate", "depends on", ..] => In::Known,
                _ => {
                    return Err(format!(
                        "Layering, line {}: a table nobody reads: {line}",
                        n + 1
                    ))
                }
            };
            continue;
        }
        let at = |what: &str| format!("Layering, line {}: {what}: {line}", n + 1);
        match table {
            In::Layers => {
                let [layer, krate, within] = cells.as_slice() else {
                    return Err(at("a layer row has three cells"));
                };
                let (number, name) = layer
                    .split_once(' ')
                    .and_then(|(num, name)| Some((num.parse::<u32>().ok()?, name.to_string())))
                    .ok_or_else(|| at("the layer cell is `NUMBER NAME`"))?;
                let [krate] = ticked(krate)
                    .try_into()
                    .map_err(|_| at("the crate cell names one crate in backticks"))?;
                if layers.layer.insert(krate.clone(), (number, name)).is_some() {
                    return Err(at("a crate placed twice"));
                }
                layers
                    .within
                    .insert(krate, ticked(within).into_iter().collect());
            }
            In::Known => {
                let [krate, dep, _why] = cells.as_slice() else {
                    return Err(at("a known upward dependency has three cells"));
                };
                let ([krate], [dep]) = (
                    <[String; 1]>::try_from(ticked(krate))
                        .map_err(|_| at("the crate cell names one crate"))?,
                    <[String; 1]>::try_from(ticked(dep))
                        .map_err(|_| at("the dependency cell names one crate"))?,
                );
                layers.known.insert((krate, dep));
            }
            In::Nothing => {}
        }
    }
    if layers.layer.is_empty() {
        return Err("the Layering section has no `| layer | crate | ... |` table".to_string());
    }
    Ok(layers)
}

/// The workspace crates and their dependencies on one another, from `cargo metadata`'s JSON.
fn parse_graph(metadata: &serde_json::Value) -> Graph {
    let packages = metadata["packages"]
        .as_array()
        .expect("cargo metadata lists packages");
    let crates: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    let mut edges = Vec::new();
    for p in packages {
        let from = p["name"].as_str().unwrap_or_default().to_string();
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let Some(to) = d["name"].as_str() else {
                continue;
            };
            // A path dependency on a workspace crate (a same-named crate from a registry is not one).
            if d.get("path").is_none() || !crates.contains(to) {
                continue;
            }
            let kind = match d["kind"].as_str() {
                None => Kind::Normal,
                Some("build") => Kind::Build,
                Some("dev") => Kind::Dev,
                Some(other) => {
                    panic!("cargo metadata: a dependency kind this test does not know: {other}")
                }
            };
            edges.push(Edge {
                from: from.clone(),
                to: to.to_string(),
                kind,
            });
        }
    }
    edges.sort();
    edges.dedup();
    Graph { crates, edges }
}

/// Everything the graph does that the layers do not allow, one sentence each, sorted.
fn violations(layers: &Layers, graph: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for c in &graph.crates {
        if !layers.layer.contains_key(c) {
            out.push(format!(
                "{c} is a workspace crate but CONTRIBUTING.md's layering table does not place it: add its row"
            ));
        }
    }
    for c in layers.layer.keys() {
        if !graph.crates.contains(c) {
            out.push(format!(
                "CONTRIBUTING.md's layering table places {c}, which is not a workspace crate: remove the row"
            ));
        }
    }
    let mut upward_seen = BTreeSet::new();
    for e in &graph.edges {
        if e.kind == Kind::Dev || e.from == e.to {
            continue;
        }
        let (Some((from_n, from_name)), Some((to_n, to_name))) =
            (layers.layer.get(&e.from), layers.layer.get(&e.to))
        else {
            continue;
        };
        let listed = layers
            .within
            .get(&e.from)
            .is_some_and(|w| w.contains(&e.to));
        let allowed = to_n < from_n || (to_n == from_n && listed);
        if allowed {
            continue;
        }
        let pair = (e.from.clone(), e.to.clone());
        if layers.known.contains(&pair) {
            upward_seen.insert(pair);
            continue;
        }
        let kind = if e.kind == Kind::Build {
            "a build"
        } else {
            "a"
        };
        out.push(if to_n == from_n {
            format!(
                "{} ({from_n} {from_name}) has {kind} dependency on {}, in its own layer, which its row does not name",
                e.from, e.to
            )
        } else {
            format!(
                "{} ({from_n} {from_name}) has {kind} dependency on {} ({to_n} {to_name}), a layer above it",
                e.from, e.to
            )
        });
    }
    for (from, to) in &layers.known {
        if !upward_seen.contains(&(from.clone(), to.clone())) {
            out.push(format!(
                "CONTRIBUTING.md lists {from} → {to} as a known upward dependency, but there is none now: remove the line"
            ));
        }
    }
    out.sort();
    out
}

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("crates/ward-cli is two levels below the workspace")
}

fn real_layers() -> Layers {
    let md = std::fs::read_to_string(workspace().join("CONTRIBUTING.md"))
        .expect("CONTRIBUTING.md is readable");
    parse_layers(&md).unwrap_or_else(|e| panic!("CONTRIBUTING.md: {e}"))
}

fn real_graph() -> Graph {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--offline",
            "--format-version",
            "1",
            "--no-deps",
        ])
        .current_dir(workspace())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    parse_graph(&json)
}

fn plant(graph: &Graph, from: &str, to: &str, kind: Kind) -> Graph {
    let mut g = graph.clone();
    g.edges.push(Edge {
        from: from.to_string(),
        to: to.to_string(),
        kind,
    });
    g
}

#[test]
fn the_workspace_follows_its_layering() {
    let v = violations(&real_layers(), &real_graph());
    assert!(
        v.is_empty(),
        "the crates' dependencies break CONTRIBUTING.md's layering:\n  {}",
        v.join("\n  ")
    );
}

#[test]
fn the_real_graph_is_read() {
    // A guard against a test that passes because it read nothing: the workspace has its crates
    // and the edges everyone knows.
    let g = real_graph();
    assert!(g.crates.contains("ward-cli") && g.crates.contains("ward-model"));
    let has = |from: &str, to: &str| {
        g.edges
            .iter()
            .any(|e| e.from == from && e.to == to && e.kind == Kind::Normal)
    };
    assert!(has("ward-cli", "ward-classify"));
    assert!(has("ward-classify", "ward-rules"));
    assert!(g
        .edges
        .iter()
        .any(|e| e.from == "ward-cli" && e.to == "ward-rig" && e.kind == Kind::Dev));
}

#[test]
fn an_upward_dependency_planted_in_the_real_graph_is_refused() {
    let layers = real_layers();
    let g = plant(&real_graph(), "ward-time", "ward-report", Kind::Normal);
    assert_eq!(
        violations(&layers, &g),
        vec!["ward-time (1 foundations) has a dependency on ward-report (6 renderer), a layer above it"]
    );
    let g = plant(&real_graph(), "ward-repo", "ward-check", Kind::Build);
    assert_eq!(
        violations(&layers, &g),
        vec!["ward-repo (3 readers) has a build dependency on ward-check (5 deciders), a layer above it"]
    );
    // Test support is a dev-dependency only.
    let g = plant(&real_graph(), "ward-cli", "ward-rig", Kind::Normal);
    assert_eq!(
        violations(&layers, &g),
        vec!["ward-cli (7 front ends) has a dependency on ward-rig (8 test support (dev-dependencies only)), a layer above it"]
    );
}

#[test]
fn a_same_layer_dependency_its_row_does_not_name_is_refused() {
    let layers = real_layers();
    let g = plant(&real_graph(), "ward-check", "ward-import", Kind::Normal);
    assert_eq!(
        violations(&layers, &g),
        vec!["ward-check (5 deciders) has a dependency on ward-import, in its own layer, which its row does not name"]
    );
    // The ones its row names are fine.
    let g = plant(&real_graph(), "ward-gate", "ward-import", Kind::Normal);
    assert!(violations(&layers, &g).is_empty());
}

#[test]
fn dev_dependencies_are_not_held_to_the_layers() {
    let g = plant(&real_graph(), "ward-model", "ward-report", Kind::Dev);
    assert!(violations(&real_layers(), &g).is_empty());
}

#[test]
fn a_crate_the_table_does_not_place_and_a_row_for_no_crate_are_refused() {
    let mut g = real_graph();
    g.crates.insert("ward-new".to_string());
    g.crates.remove("ward-hcl");
    g.edges
        .retain(|e| e.to != "ward-hcl" && e.from != "ward-hcl");
    assert_eq!(
        violations(&real_layers(), &g),
        vec![
            "CONTRIBUTING.md's layering table places ward-hcl, which is not a workspace crate: remove the row",
            "ward-new is a workspace crate but CONTRIBUTING.md's layering table does not place it: add its row",
        ]
    );
}

#[test]
fn a_known_upward_dependency_that_is_gone_is_refused() {
    let mut layers = real_layers();
    layers
        .known
        .insert(("ward-model".to_string(), "ward-cli".to_string()));
    assert_eq!(
        violations(&layers, &real_graph()),
        vec!["CONTRIBUTING.md lists ward-model → ward-cli as a known upward dependency, but there is none now: remove the line"]
    );
}

#[test]
fn a_malformed_table_is_an_error_not_an_empty_layering() {
    let ok = "x\n## Layering\n\n| layer | crate | also |\n|---|---|---|\n| 1 base | `a` | |\n| 2 top | `b` | `c` |\n\n## Next\n| layer | crate | also |\n| 9 x | `z` | |\n";
    let l = parse_layers(ok).unwrap();
    assert_eq!(
        l.layer.len(),
        2,
        "the table of the next section is not read"
    );
    assert_eq!(l.within["b"], BTreeSet::from(["c".to_string()]));
    for (md, why) in [
        ("x\n## Other\n", "no \"## Layering\" section"),
        ("x\n## Layering\nnothing\n", "has no `| layer | crate"),
        (
            "x\n## Layering\n| layer | crate | also |\n|---|---|---|\n| one base | `a` | |\n",
            "`NUMBER NAME`",
        ),
        (
            "x\n## Layering\n| layer | crate | also |\n|---|---|---|\n| 1 base | a | |\n",
            "one crate in backticks",
        ),
        (
            "x\n## Layering\n| layer | crate | also |\n|---|---|---|\n| 1 base | `a` | |\n| 2 top | `a` | |\n",
            "placed twice",
        ),
        (
            "x\n## Layering\n| what | ever |\n|---|---|\n| 1 | 2 |\n",
            "a table nobody reads",
        ),
    ] {
        let e = parse_layers(md).unwrap_err();
        assert!(e.contains(why), "{md:?}: {e}");
    }
}
