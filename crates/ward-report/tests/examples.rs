//! The terminal and Markdown reports of every plan in `examples/plans/`, as an operator reads
//! them (no threshold, as `ward plan PLAN` runs by default).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use ward_classify::outcome::{evaluate, GateOptions};
use ward_classify::Assessment;
use ward_report::{
    render, render_markdown, render_terminal, Expand, Format, RenderOptions, DEFAULT_MARKDOWN_LIMIT,
};

fn plans() -> Vec<(String, Assessment)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let k = ward_rig::rules::knowledge().unwrap();
    names
        .into_iter()
        .map(|p| {
            let plan = ward_plan::read_file(&p).unwrap();
            let a = ward_classify::assess(&plan, &k, &ward_classify::Options::default());
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, a)
        })
        .collect()
}

#[test]
fn snapshot_every_example_plan() {
    for (name, a) in plans() {
        let o = evaluate(&a, &GateOptions::default());
        insta::assert_snapshot!(
            format!("example_{name}_terminal"),
            render_terminal(&a, &o, false)
        );
        insta::assert_snapshot!(
            format!("example_{name}_markdown"),
            render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT)
        );
    }
}

/// With data-loss in the plan and no threshold, the heading must not read as a pass.
#[test]
fn markdown_heading_of_data_loss_without_threshold_names_the_cost() {
    let (_, a) = plans().into_iter().find(|(n, _)| n == "data-loss").unwrap();
    let o = evaluate(&a, &GateOptions::default());
    let md = render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT);
    let heading = md.lines().next().unwrap();
    assert!(heading.starts_with("### ward plan: "), "{heading}");
    assert!(heading.contains("data-loss"), "{heading}");
    assert!(!heading.to_lowercase().contains("pass"), "{heading}");
    let term = render_terminal(&a, &o, false);
    let result = term.lines().find(|l| l.starts_with("result: ")).unwrap();
    assert!(
        result.contains("data-loss") && !result.to_lowercase().contains("pass"),
        "{result}"
    );
}

/// The header names only the packs that decided something.
#[test]
fn the_header_names_only_deciding_packs() {
    for (name, a) in plans() {
        let o = evaluate(&a, &GateOptions::default());
        let term = render_terminal(&a, &o, false);
        assert!(!term.contains("azurerm"), "{name}: {term}");
    }
}

/// fakecloud is not a shipped pack: the example plans are decided by the user rule file, and the
/// header's "decided by" line names it by its path, in both formats.
#[test]
fn the_header_names_the_user_rule_file_that_decided() {
    let (_, a) = plans().into_iter().find(|(n, _)| n == "hazards").unwrap();
    let o = evaluate(&a, &GateOptions::default());
    let term = render_terminal(&a, &o, false);
    assert_eq!(
        term.lines().nth(1),
        Some("decided by rule files: examples/rules/fakecloud.hcl"),
        "{term}"
    );
    assert!(!term.contains("fakecloud 2026"), "{term}");
    let md = render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT);
    assert!(
        md.contains("· decided by rule files: `examples/rules/fakecloud.hcl`"),
        "{md}"
    );
}

/// A change block's sentences as plain text: Markdown and HTML escapes undone, bullets, code
/// marks and the `(per RULE)` suffix dropped, so the same fact reads the same in every place.
fn sentences(line: &str) -> Vec<String> {
    let plain = line
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
        .replace(['\\', '`'], "");
    let plain = plain.trim().trim_start_matches("- ").trim();
    let plain = match plain.find(" (per ") {
        Some(i) => &plain[..i],
        None => plain,
    };
    plain
        .split(" — ")
        .flat_map(|p| p.split("; "))
        .map(|s| s.trim().to_string())
        .filter(|s| s.len() >= 20)
        .collect()
}

/// Every change block, terminal and Markdown (its `<details>` summary included), says each fact
/// once: no sentence of a block is printed twice in it.
#[test]
fn each_change_block_says_each_fact_once() {
    for (name, a) in plans() {
        let o = evaluate(&a, &GateOptions::default());
        let md = render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT);
        let term = render_terminal(&a, &o, false);
        let md_blocks: Vec<&str> = md.split("<details>").skip(1).collect();
        let term_blocks: Vec<&str> = term.split("\n\n").collect();
        for block in md_blocks.iter().chain(&term_blocks) {
            let mut seen = std::collections::BTreeSet::new();
            for s in block.lines().flat_map(sentences) {
                assert!(
                    seen.insert(s.clone()),
                    "{name}: {s:?} is printed twice in\n{block}"
                );
            }
        }
    }
}

fn hazards() -> Assessment {
    plans()
        .into_iter()
        .find(|(n, _)| n == "hazards")
        .map(|(_, a)| a)
        .unwrap()
}

fn rendered(a: &Assessment, format: Format, expand: Expand) -> String {
    let o = evaluate(a, &GateOptions::default());
    let opts = RenderOptions {
        format,
        expand,
        ..RenderOptions::default()
    };
    render(a, &o, &opts).unwrap()
}

/// The README's first command: the hazards report fits in 50 lines, and no change block, in
/// either human format, names its rule more than once (the attribute line, a `(per RULE)` and
/// `decided by` each named it before).
#[test]
fn the_hazards_report_is_short_and_names_each_rule_once() {
    let a = hazards();
    let term = rendered(&a, Format::Terminal, Expand::default());
    assert!(
        term.lines().count() <= 50,
        "{} lines:\n{term}",
        term.lines().count()
    );
    let md = rendered(&a, Format::Markdown, Expand::default());
    let blocks = term.split("\n\n").chain(md.split("<details>").skip(1));
    let mut checked = 0;
    for block in blocks {
        let named = block.matches("fakecloud.hcl:").count();
        assert!(named <= 1, "the rule is named {named} times in\n{block}");
        checked += usize::from(named == 1);
    }
    // 5 detailed changes, in each format.
    assert_eq!(checked, 10, "{term}\n{md}");
}

/// A `free` change is one row by default; `--expand free` lists its attributes under it
/// (terminal) or in a collapsed `<details>` block (Markdown).
#[test]
fn a_free_change_shows_its_diff_only_when_expanded() {
    let a = hazards();
    let free = Expand {
        free: true,
        none: false,
    };
    let term = rendered(&a, Format::Terminal, Expand::default());
    assert!(
        term.contains("    fakecloud_network.main  update in place (tags.team)\n"),
        "{term}"
    );
    assert!(!term.contains("~ tags.team:"), "{term}");
    let term = rendered(&a, Format::Terminal, free);
    assert!(
        term.contains(
            "    fakecloud_network.main  update in place\n        ~ tags.team: null → \"platform\"\n"
        ),
        "{term}"
    );
    let md = rendered(&a, Format::Markdown, Expand::default());
    assert!(!md.contains("<b>free</b>"), "{md}");
    assert!(
        md.contains("- `fakecloud_network.main`: update in place (`tags.team`)\n"),
        "{md}"
    );
    let md = rendered(&a, Format::Markdown, free);
    assert!(
        md.contains(
            "<details><summary><b>free</b> <code>fakecloud_network.main</code>: update in place (1 attribute)</summary>\n\n- `tags.team`: `null` → `\"platform\"`\n\n</details>"
        ),
        "{md}"
    );
    // Free only: the no-op stays counted, not listed.
    assert!(!term.contains("data.fakecloud_image"), "{term}");
}

/// `--expand none` lists every `none` change (a no-op, a read) by address; without it they
/// are only counted.
#[test]
fn none_changes_are_listed_only_when_expanded() {
    let a = hazards();
    let none = Expand {
        free: false,
        none: true,
    };
    let noop = a
        .verdicts
        .iter()
        .find(|v| v.impact == ward_model::Impact::None)
        .map(|v| v.address.clone())
        .unwrap();
    for format in [Format::Terminal, Format::Markdown] {
        let plain = rendered(&a, format, Expand::default());
        assert!(!plain.contains(&noop), "{plain}");
        let listed = rendered(&a, format, none);
        assert!(listed.contains(&noop), "{listed}");
        // None only: the free update keeps its one row.
        assert!(!listed.contains("~ tags.team") && !listed.contains("<b>free</b>"));
    }
}

/// The JSON report carries what a create sets (every attribute from `absent`, no secret) and
/// what a delete removes, read from a real plan.
#[test]
fn the_json_report_has_the_attributes_of_a_create_and_a_delete() {
    let changes = |name: &str| -> Vec<serde_json::Value> {
        let (_, a) = plans().into_iter().find(|(n, _)| n == name).unwrap();
        let o = evaluate(&a, &GateOptions::default());
        let doc: serde_json::Value = serde_json::from_str(
            &render(
                &a,
                &o,
                &RenderOptions {
                    format: Format::Json,
                    ..RenderOptions::default()
                },
            )
            .unwrap(),
        )
        .unwrap();
        doc["changes"].as_array().unwrap().clone()
    };
    let created = changes("create");
    let bucket = created
        .iter()
        .find(|c| c["address"] == "fakecloud_bucket.backups")
        .unwrap();
    assert_eq!(bucket["action"], "create");
    let attrs = bucket["attributes"].as_array().unwrap();
    assert!(!attrs.is_empty(), "{bucket:#}");
    assert!(
        attrs.iter().all(|a| a["before"]["kind"] == "absent"),
        "{bucket:#}"
    );
    assert!(
        attrs
            .iter()
            .any(|a| a["path"] == "name" && a["after"]["value"] == "backups"),
        "{bucket:#}"
    );
    assert_eq!(bucket["attributes_left_out"], 0);
    let destroyed = changes("destroy");
    let gone: Vec<&serde_json::Value> = destroyed
        .iter()
        .filter(|c| c["action"] == "delete")
        .collect();
    assert!(!gone.is_empty());
    for c in gone {
        let attrs = c["attributes"].as_array().unwrap();
        assert!(!attrs.is_empty(), "{c:#}");
        assert!(
            attrs.iter().all(|a| a["after"]["kind"] == "absent"),
            "{c:#}"
        );
    }
}

/// A create above `free`, or one whose type overwrites state outside the root, lists what it
/// sets in both human formats, at most 20 attributes and how many more; a free create lists
/// nothing unless expanded.
#[test]
fn a_costly_or_overwriting_create_shows_what_it_sets() {
    use std::sync::Arc;
    use ward_classify::{AttrVerdict, Verdict};
    use ward_model::{Action, AttrChange, AttrPath, Impact, Shown};
    let mut a = hazards();
    let set = |i: usize| AttrVerdict {
        change: AttrChange {
            path: AttrPath::dotted(&format!("k{i:02}")),
            before: Shown::Absent,
            after: Shown::Known(serde_json::json!(format!("v{i}"))),
            hidden: None,
        },
        impact: Impact::Free,
        rule: None,
        why: None,
        forces_replacement: false,
    };
    let mut policy = Verdict::new(
        "google_organization_iam_policy.org",
        "google_organization_iam_policy",
        "registry.terraform.io/hashicorp/google",
        Action::Create,
        Impact::Free,
    );
    policy.classified = true;
    policy.attributes = (0..25).map(set).collect();
    policy.attributes_left_out = 3;
    let free = policy.clone();
    let mut costly = policy.clone();
    costly.address = "google_organization_iam_policy.costly".into();
    costly.impact = Impact::Interrupt;
    policy.overwrites = a.verdicts[0].decided_by.clone().map(|r| Arc::clone(&r));
    assert!(policy.overwrites.is_some());
    let mut quiet = free;
    quiet.address = "google_organization_iam_policy.quiet".into();
    a.verdicts = vec![policy, costly, quiet];
    let term = rendered(&a, Format::Terminal, Expand::default());
    for addr in ["org", "costly"] {
        let block = term
            .split("\n\n")
            .find(|b| b.contains(&format!("google_organization_iam_policy.{addr}  ")))
            .unwrap();
        assert!(block.contains("    + k00 = \"v0\"\n"), "{block}");
        assert!(block.contains("    + k19 = \"v19\"\n"), "{block}");
        assert!(!block.contains("k20"), "{block}");
        assert!(
            block.contains("… and 8 more attributes (the JSON report lists them)"),
            "{block}"
        );
    }
    let quiet = term
        .lines()
        .find(|l| l.contains("google_organization_iam_policy.quiet"))
        .unwrap();
    assert_eq!(quiet, "    google_organization_iam_policy.quiet  create");
    let after_quiet = term
        .lines()
        .skip_while(|l| !l.contains("google_organization_iam_policy.quiet"))
        .nth(1)
        .unwrap();
    assert!(!after_quiet.contains("+ k"), "{term}");
    let md = rendered(&a, Format::Markdown, Expand::default());
    assert!(md.contains("- `k00` = `\"v0\"`\n"), "{md}");
    assert!(
        md.contains("- … and 8 more attributes (the JSON report lists them)"),
        "{md}"
    );
    let expanded = rendered(&a, Format::Terminal, Expand::ALL);
    assert!(
        expanded
            .contains("    google_organization_iam_policy.quiet  create\n        + k00 = \"v0\"\n"),
        "{expanded}"
    );
}
