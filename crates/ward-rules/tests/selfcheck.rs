//! The pack self-check, the generated coverage page and the corpus coverage share.
//!
//! 1. `packs_name_real_types_and_attributes`: every resource type and attribute path a built-in
//!    pack names (`identity`, `free`, `attribute` blocks) exists in the provider's real schema:
//!    the trimmed reference schemas in `schemas/<provider>.json` (extracted by
//!    `scripts/extract-schemas` from packages generated from `providers schema -json`) and, when
//!    `WARD_CORPUS` is set, every `providers schema -json` file in the corpus. A pack whose header
//!    says `schema = "unavailable: <why>"` is not checked, and the test prints that it was not.
//! 2. `docs_packs_md_is_fresh`: `docs/packs.md` is generated from the packs; the test fails when it
//!    is stale. Regenerate with `WARD_BLESS=1 cargo test -p ward-rules --test selfcheck`.
//! 3. `corpus_type_coverage`: the share of managed resource types (real providers only) in the
//!    corpus plans that the built-in packs classify, and the list still missing. It counts the
//!    set the coverage gate checks (crates/ward-classify: `configuration` with every module call,
//!    `prior_state`, `resource_changes`), and also prints the earlier, narrower measure
//!    (`resource_changes` and `planned_values`). Terraform's test providers are left out, and so
//!    are types named after a real provider that none of its schemas has (lookalike fixtures).
//! 4. `every_schema_type_has_a_pack_entry`: every resource type of every schema in `schemas/` is
//!    in a pack (curated `packs/<provider>.hcl` or generated `packs/<provider>-catalog.hcl`).
//! 5. `catalog_packs_are_fresh`: each generated catalog pack records a digest of its inputs
//!    (`scripts/gen-packs`, its category tables, the schema, the curated type names); the test
//!    recomputes it and fails when the committed output is stale. The generator is never run by
//!    the tests: rerun `scripts/gen-packs` by hand.
//! 6. `catalog_types_that_overwrite_carry_their_block`: every catalog entry of a category whose
//!    table gives it an `overwrites` (or `modifies`) template, and every catalog entry whose name
//!    says it is authoritative (`*_iam_policy`, `*_iam_binding`, `*_exclusive`, a default network
//!    object; google's `*_iam_member` modifies), carries that block with a class above free; and
//!    every `target` / `when_set` of a block is an attribute of the type's schema (check 1).
// A test may panic: a failed unwrap or assertion is a failed check with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hcl_edit::expr::Expression;
use hcl_edit::structure::{Block, Body};
use sha2::{Digest, Sha256};

/// One `resource` entry of a pack, as the self-check and the docs need it.
#[derive(Debug, Default)]
struct Entry {
    type_name: String,
    /// A `when` selector as written (`type = "Microsoft.Storage/storageAccounts@*"`), empty for
    /// an entry about every instance of the type.
    when: String,
    line: usize,
    summary: String,
    source: String,
    rationale: String,
    holds_data: bool,
    identity: Vec<String>,
    free: Vec<String>,
    /// (pattern, impact, why)
    attributes: Vec<(String, String, String)>,
    /// (key, impact) for on_create/on_update/on_delete/on_replace given explicitly.
    actions: Vec<(String, String)>,
    /// The `overwrites` and `modifies` blocks: (block name, impact, target, when_set).
    blocks: Vec<(String, String, Vec<String>, Vec<String>)>,
}

/// One pack file.
#[derive(Debug, Default)]
struct PackFile {
    file: String,
    name: String,
    version: String,
    provider: String,
    schema: String,
    entries: Vec<Entry>,
    /// Entries narrowed by `when` (an ARM type of `azapi_resource`): not types of their own, so
    /// neither counted nor held to a schema; the docs list each under its type.
    narrowed: Vec<Entry>,
    /// A catalog's free names not held to the schema (its header's `# Free on every type
    /// whatever the pinned schema has ...: a, b.` line): system-managed metadata that older
    /// provider versions put on types whose pinned schema no longer has it.
    free_any: Vec<String>,
}

/// The header line scripts/gen-packs writes for a table's `free_any` names.
const FREE_ANY_LINE: &str = "# Free on every type whatever the pinned schema has";

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn expr_str(e: &Expression) -> String {
    match e {
        Expression::String(s) => s.value().clone(),
        Expression::Bool(b) => b.value().to_string(),
        other => format!("{other:?}"),
    }
}

fn expr_list(e: &Expression) -> Vec<String> {
    match e {
        Expression::Array(items) => items.iter().map(expr_str).collect(),
        other => vec![expr_str(other)],
    }
}

fn block_label(b: &Block) -> String {
    b.labels
        .first()
        .map(|l| l.as_str().to_string())
        .unwrap_or_default()
}

/// The 1-based line of each type's first `resource "TYPE"` line in the pack text (for error
/// messages), in one pass: looking each entry's line up by scanning the text from the top was
/// quadratic (most of `selfcheck`'s time with the 1,500-entry catalog packs).
fn resource_lines(text: &str) -> HashMap<&str, usize> {
    let mut lines = HashMap::new();
    for (i, l) in text.lines().enumerate() {
        let Some(rest) = l.trim_start().strip_prefix("resource \"") else {
            continue;
        };
        if let Some((type_name, _)) = rest.split_once('"') {
            lines.entry(type_name).or_insert(i + 1);
        }
    }
    lines
}

fn read_pack(path: &Path) -> PackFile {
    let text = std::fs::read_to_string(path).expect("read pack");
    parse_pack(&text, &path.file_name().unwrap().to_string_lossy())
}

fn parse_pack(text: &str, file: &str) -> PackFile {
    let body: Body =
        hcl_edit::parser::parse_body(text).unwrap_or_else(|e| panic!("{file}: not valid HCL: {e}"));
    let mut pack = PackFile {
        file: file.to_string(),
        ..PackFile::default()
    };
    let lines = resource_lines(text);
    if let Some(l) = text.lines().find(|l| l.starts_with(FREE_ANY_LINE)) {
        let names = l.rsplit_once(": ").map_or("", |(_, n)| n);
        pack.free_any = names
            .trim_end_matches('.')
            .split(", ")
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect();
    }
    for block in body.blocks() {
        match block.ident.as_str() {
            "pack" => {
                for a in block.body.attributes() {
                    let v = expr_str(&a.value);
                    match a.key.as_str() {
                        "name" => pack.name = v,
                        "version" => pack.version = v,
                        "provider" => pack.provider = v,
                        "schema" => pack.schema = v,
                        _ => {}
                    }
                }
            }
            "resource" => {
                let mut e = Entry {
                    type_name: block_label(block),
                    ..Entry::default()
                };
                e.line = lines.get(e.type_name.as_str()).copied().unwrap_or(0);
                for a in block.body.attributes() {
                    match a.key.as_str() {
                        "summary" => e.summary = expr_str(&a.value),
                        "source" => e.source = expr_str(&a.value),
                        "rationale" => e.rationale = expr_str(&a.value),
                        "holds_data" => e.holds_data = expr_str(&a.value) == "true",
                        "identity" => e.identity = expr_list(&a.value),
                        "free" => e.free = expr_list(&a.value),
                        "when" => {
                            if let Expression::Object(o) = &a.value {
                                e.when = o
                                    .iter()
                                    .map(|(k, v)| {
                                        let k = match k {
                                            hcl_edit::expr::ObjectKey::Ident(i) => {
                                                i.as_str().to_string()
                                            }
                                            hcl_edit::expr::ObjectKey::Expression(x) => expr_str(x),
                                        };
                                        format!("{k} = \"{}\"", expr_str(v.expr()))
                                    })
                                    .collect::<Vec<_>>()
                                    .join(", ");
                            }
                        }
                        k if k.starts_with("on_") => {
                            e.actions.push((k.to_string(), expr_str(&a.value)))
                        }
                        _ => {}
                    }
                }
                for ab in block.body.blocks() {
                    let kind = ab.ident.as_str();
                    if kind == "overwrites" || kind == "modifies" {
                        let (mut impact, mut target, mut when_set) =
                            (String::new(), vec![], vec![]);
                        for a in ab.body.attributes() {
                            match a.key.as_str() {
                                "impact" => impact = expr_str(&a.value),
                                "target" => target = expr_list(&a.value),
                                "when_set" => when_set = expr_list(&a.value),
                                _ => {}
                            }
                        }
                        e.blocks.push((kind.to_string(), impact, target, when_set));
                        continue;
                    }
                    if kind != "attribute" {
                        continue;
                    }
                    let mut impact = String::new();
                    let mut why = String::new();
                    for a in ab.body.attributes() {
                        match a.key.as_str() {
                            "impact" => impact = expr_str(&a.value),
                            "why" => why = expr_str(&a.value),
                            _ => {}
                        }
                    }
                    e.attributes.push((block_label(ab), impact, why));
                }
                if e.when.is_empty() {
                    pack.entries.push(e);
                } else {
                    pack.narrowed.push(e);
                }
            }
            _ => {}
        }
    }
    pack
}

/// Every built-in pack, parsed once for the whole test binary (the tests only read them).
fn all_packs() -> &'static [PackFile] {
    static PACKS: OnceLock<Vec<PackFile>> = OnceLock::new();
    PACKS.get_or_init(|| {
        let dir = crate_dir().join("packs");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("packs dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("hcl"))
            .collect();
        paths.sort();
        paths.iter().map(|p| read_pack(p)).collect()
    })
}

/// The packs this self-check is strict about: their header must say `schema = "checked"` or
/// `"unavailable: <why>"`, every entry needs an https source, a summary and a rationale, and every
/// attribute entry a `why`. (Any pack whose header says `checked` is also held to its schema: a
/// type of a provider with no schema at all fails.) Only the test provider's pack is left out.
const PROVIDER_PACKS: &[&str] = &[
    "aws",
    "google",
    "azurerm",
    "kubernetes",
    "helm",
    "libvirt",
    "incus",
    "lxd",
    "hcloud",
    "proxmox",
    "cloudflare",
    "github",
    "aws-catalog",
    "azurerm-catalog",
    "google-catalog",
    "kubernetes-catalog",
    "cloudflare-catalog",
    "github-catalog",
    "datadog-catalog",
    "oci-catalog",
    "maas-catalog",
    "juju-catalog",
    "proxmox-catalog",
    "incus-catalog",
    "lxd-catalog",
    "hcloud-catalog",
    "libvirt-catalog",
    // Breadth (#31 item 5): catalogs from the schema packages and from documented type lists.
    "acme-catalog",
    "ad-catalog",
    "alicloud-catalog",
    "auth0-catalog",
    "aws-legacy-catalog",
    "azapi",
    "azuread-catalog",
    "azuredevops-catalog",
    "azurerm-legacy-catalog",
    "azurestack-catalog",
    "boundary-catalog",
    "consul-catalog",
    "databricks-catalog",
    "digitalocean-catalog",
    "dns-catalog",
    "dnsimple-catalog",
    "docker-catalog",
    "exoscale-catalog",
    "gitlab-catalog",
    "google-beta-catalog",
    "googleworkspace-catalog",
    "grafana-catalog",
    "gsuite-catalog",
    "hcp-catalog",
    "ionoscloud-catalog",
    "kubectl-catalog",
    "launchdarkly-catalog",
    "linode-catalog",
    "mongodbatlas-catalog",
    "mysql-catalog",
    "newrelic-catalog",
    "nomad-catalog",
    "okta-catalog",
    "openstack-catalog",
    "opentelekomcloud-catalog",
    "opsgenie-catalog",
    "pagerduty-catalog",
    "postgresql-catalog",
    "rancher2-catalog",
    "salesforce-catalog",
    "snowflake-catalog",
    "spotinst-catalog",
    "tfe-catalog",
    "upcloud-catalog",
    "vault-catalog",
    "vsphere-catalog",
    "vultr-catalog",
    "yandex-catalog",
    "archive",
    "cloudinit",
    "local",
    "null",
    "random",
    "terraform",
    "time",
    "tls",
];

/// A real schema: which resource types it has and each type's attribute paths.
struct SchemaSource {
    label: String,
    /// provider type name (`aws`), from the provider address's last segment.
    provider: String,
    /// When false, the source lists types but only some types' paths (the trimmed files keep
    /// paths for the types the packs name; an empty list means "not extracted").
    types: BTreeMap<String, BTreeSet<String>>,
}

fn provider_type(addr: &str) -> String {
    addr.rsplit('/').next().unwrap_or(addr).to_string()
}

fn load_trimmed() -> Vec<SchemaSource> {
    let dir = crate_dir().join("schemas");
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return out;
    };
    let mut paths: Vec<PathBuf> = rd.map(|e| e.expect("dir entry").path()).collect();
    paths.sort();
    for p in paths {
        if p.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).expect("read schema"))
                .expect("schema JSON");
        let provider = v["provider"]["source"].as_str().unwrap_or_default();
        let label = format!(
            "schemas/{} ({} {}, from {}@{})",
            p.file_name().unwrap().to_string_lossy(),
            provider,
            v["provider"]["version"].as_str().unwrap_or("?"),
            v["source"]["package"].as_str().unwrap_or("?"),
            v["source"]["version"].as_str().unwrap_or("?"),
        );
        let mut types = BTreeMap::new();
        if let Some(res) = v["resources"].as_object() {
            for (t, paths) in res {
                let set = paths
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                types.insert(t.clone(), set);
            }
        }
        out.push(SchemaSource {
            label,
            provider: provider_type(provider),
            types,
        });
    }
    out
}

/// Attribute paths of a `providers schema -json` block (attributes, nested attributes, nested blocks).
fn block_paths(block: &serde_json::Value, prefix: &str, out: &mut BTreeSet<String>) {
    if let Some(attrs) = block["attributes"].as_object() {
        for (name, a) in attrs {
            let path = format!("{prefix}{name}");
            out.insert(path.clone());
            if a["nested_type"].is_object() {
                block_paths(&a["nested_type"], &format!("{path}."), out);
            }
        }
    }
    if let Some(blocks) = block["block_types"].as_object() {
        for (name, b) in blocks {
            let path = format!("{prefix}{name}");
            out.insert(path.clone());
            block_paths(&b["block"], &format!("{path}."), out);
        }
    }
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("WARD_CORPUS")?);
    let manifest = dir.join("MANIFEST.tsv");
    assert!(
        manifest.is_file(),
        "WARD_CORPUS={} has no MANIFEST.tsv: point it at the shared corpus or unset it",
        dir.display()
    );
    Some(dir)
}

/// Corpus files of one kind (`plan`, `schema`), from MANIFEST.tsv.
fn corpus_files(dir: &Path, kind: &str) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("read MANIFEST.tsv");
    let files: Vec<PathBuf> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let file = cols.next()?;
            (cols.next()? == kind).then(|| dir.join(file))
        })
        .collect();
    assert!(
        !files.is_empty(),
        "the corpus at {} lists no `{kind}` files",
        dir.display()
    );
    files
}

fn load_corpus_schemas(dir: &Path) -> Vec<SchemaSource> {
    let mut out = Vec::new();
    for f in corpus_files(dir, "schema") {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let Some(provs) = v["provider_schemas"].as_object() else {
            continue;
        };
        for (addr, p) in provs {
            let mut types = BTreeMap::new();
            if let Some(res) = p["resource_schemas"].as_object() {
                for (t, s) in res {
                    let mut set = BTreeSet::new();
                    block_paths(&s["block"], "", &mut set);
                    types.insert(t.clone(), set);
                }
            }
            if types.is_empty() {
                continue;
            }
            out.push(SchemaSource {
                label: format!(
                    "corpus {} ({addr})",
                    f.file_name().unwrap().to_string_lossy()
                ),
                provider: provider_type(addr),
                types,
            });
        }
    }
    out
}

/// Does a pack pattern (`a.b`, `*` for any one key) name a path in this set?
fn pattern_in(pattern: &str, paths: &BTreeSet<String>) -> bool {
    if !pattern.contains('*') {
        return paths.contains(pattern);
    }
    let want: Vec<&str> = pattern.split('.').collect();
    paths.iter().any(|p| {
        let got: Vec<&str> = p.split('.').collect();
        got.len() == want.len() && want.iter().zip(&got).all(|(w, g)| *w == "*" || w == g)
    })
}

fn type_provider(type_name: &str) -> &str {
    type_name.split('_').next().unwrap_or(type_name)
}

/// Does this schema source describe types of provider `prov` (a type name's first segment)?
/// A fork's schema does too: google-beta's types are named `google_*`.
fn serves(s: &SchemaSource, prov: &str) -> bool {
    s.provider == prov || s.provider.strip_suffix("-beta") == Some(prov)
}

/// Checks every pack against the schema sources; prints what it checked and what it could not;
/// returns the failures.
fn check_packs(packs: &[PackFile], sources: &[SchemaSource]) -> Vec<String> {
    let mut failures = Vec::new();
    for pack in packs {
        let mut local: Vec<String> = Vec::new();
        let strict = PROVIDER_PACKS.contains(&pack.name.as_str()) || pack.schema == "checked";
        // A pack that says its schema is unavailable is not held to it; when a schema does
        // exist for its provider, the check still runs and reports, as advice.
        let unavailable = pack.schema.strip_prefix("unavailable:");
        if let Some(why) = unavailable {
            println!(
                "pack {} ({}): NOT CHECKED, schema unavailable:{why} ({} types)",
                pack.name,
                pack.file,
                pack.entries.len()
            );
            let prov_has_schema = pack.entries.iter().any(|e| {
                sources
                    .iter()
                    .any(|s| serves(s, type_provider(&e.type_name)))
            });
            if !prov_has_schema {
                continue;
            }
        }
        if strict && pack.schema != "checked" {
            local.push(format!(
                "{}: header `schema` must be \"checked\" or \"unavailable: <why>\", found {:?}",
                pack.file, pack.schema
            ));
        }
        let (mut types_ok, mut paths_ok) = (0usize, 0usize);
        let mut unchecked = Vec::new();
        for e in &pack.entries {
            let prov = type_provider(&e.type_name);
            let have: Vec<&SchemaSource> = sources
                .iter()
                .filter(|s| serves(s, prov) && s.types.contains_key(&e.type_name))
                .collect();
            let any_for_provider = sources.iter().any(|s| serves(s, prov));
            if have.is_empty() {
                if any_for_provider {
                    local.push(format!(
                        "{}:{}: resource type {} is in no real {prov} schema ({})",
                        pack.file,
                        e.line,
                        e.type_name,
                        sources
                            .iter()
                            .filter(|s| serves(s, prov))
                            .map(|s| s.label.as_str())
                            .collect::<Vec<_>>()
                            .join("; ")
                    ));
                } else if strict && unavailable.is_none() {
                    local.push(format!(
                        "{}:{}: no schema for provider {prov} is available: run scripts/extract-schemas or mark the pack `schema = \"unavailable: <why>\"`",
                        pack.file, e.line
                    ));
                } else {
                    unchecked.push(e.type_name.clone());
                }
                continue;
            }
            types_ok += 1;
            if have.iter().all(|s| s.types[&e.type_name].is_empty()) {
                local.push(format!(
                    "{}:{}: {} has no extracted attribute paths: rerun scripts/extract-schemas {}",
                    pack.file, e.line, e.type_name, pack.name
                ));
                continue;
            }
            let patterns = e
                .identity
                .iter()
                .chain(&e.free)
                .chain(e.attributes.iter().map(|a| &a.0))
                .chain(e.blocks.iter().flat_map(|b| b.2.iter().chain(&b.3)));
            for pat in patterns {
                let p = pat.as_str();
                if e.free.contains(pat) && pack.free_any.contains(pat) {
                    continue; // free on every type of the catalog, whatever the pinned schema has
                }
                if have.iter().any(|s| pattern_in(p, &s.types[&e.type_name])) {
                    paths_ok += 1;
                } else {
                    local.push(format!(
                        "{}:{}: {}: attribute `{p}` is in no real schema of that type",
                        pack.file, e.line, e.type_name
                    ));
                }
            }
        }
        println!(
            "pack {} {} ({}): {} types, {types_ok} found in a real schema, {paths_ok} attribute paths found",
            pack.name,
            pack.version,
            pack.file,
            pack.entries.len()
        );
        if !unchecked.is_empty() {
            println!(
                "pack {}: NOT CHECKED (no schema available for their provider): {}",
                pack.name,
                unchecked.join(", ")
            );
        }
        if unavailable.is_some() {
            for l in &local {
                println!(
                    "advice (pack {} marks its schema unavailable, but one exists): {l}",
                    pack.name
                );
            }
            if local.is_empty() {
                println!(
                    "advice: pack {} names only types and attributes found in a real schema: its header could say schema = \"checked\"",
                    pack.name
                );
            }
        } else {
            failures.extend(local);
        }
    }
    // The corpus schemas are older provider versions: report, as notes, what a pack names that
    // such a version lacks (a failure only when no real schema at all has it, above).
    for src in sources.iter().filter(|s| s.label.starts_with("corpus")) {
        let mut present = 0usize;
        let mut absent_paths = Vec::new();
        for pack in packs {
            for e in &pack.entries {
                let Some(paths) = src.types.get(&e.type_name) else {
                    continue;
                };
                if !serves(src, type_provider(&e.type_name)) {
                    continue;
                }
                present += 1;
                let patterns = e
                    .identity
                    .iter()
                    .chain(&e.free)
                    .chain(e.attributes.iter().map(|a| &a.0));
                for pat in patterns {
                    if !pattern_in(pat, paths) {
                        absent_paths.push(format!("{}.{pat}", e.type_name));
                    }
                }
            }
        }
        if present > 0 {
            println!(
                "note: {}: {present} pack types present; {} named attributes absent from this version{}{}",
                src.label,
                absent_paths.len(),
                if absent_paths.is_empty() { "" } else { ": " },
                absent_paths.join(", ")
            );
        }
    }
    failures
}

#[test]
fn packs_name_real_types_and_attributes() {
    let packs = all_packs();
    let mut sources = load_trimmed();
    match corpus_dir() {
        Some(dir) => sources.extend(load_corpus_schemas(&dir)),
        None => println!(
            "note: WARD_CORPUS is unset: checking against schemas/*.json only (the corpus schemas were skipped)"
        ),
    }
    for s in &sources {
        println!(
            "schema source: {} — {} resource types",
            s.label,
            s.types.len()
        );
    }

    let failures = check_packs(packs, &sources);
    assert!(
        failures.is_empty(),
        "pack self-check failed:\n{}",
        failures.join("\n")
    );
}

/// The reference schemas keep the provider's spelling where camelCase → snake_case conversion
/// would not (`contentBase64Sha256` is `content_base64sha256`, not `content_base64_sha256`).
#[test]
fn schemas_keep_the_providers_spelling() {
    let sources = load_trimmed();
    let paths = |provider: &str, type_name: &str| -> BTreeSet<String> {
        sources
            .iter()
            .find(|s| s.provider == provider)
            .and_then(|s| s.types.get(type_name))
            .cloned()
            .unwrap_or_else(|| panic!("schemas/{provider}.json has no {type_name}"))
    };
    for (provider, type_name, want, not) in [
        (
            "local",
            "local_file",
            "content_base64sha256",
            "content_base64_sha256",
        ),
        (
            "archive",
            "archive_file",
            "output_base64sha256",
            "output_base64_sha256",
        ),
    ] {
        let got = paths(provider, type_name);
        assert!(got.contains(want), "{type_name}: {want} missing");
        assert!(!got.contains(not), "{type_name}: misspelt {not} present");
    }
}

fn fake_source() -> SchemaSource {
    let paths: BTreeSet<String> = ["id", "size", "tags", "spec", "spec.image"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    SchemaSource {
        label: "test schema".to_string(),
        provider: "demo".to_string(),
        types: BTreeMap::from([("demo_disk".to_string(), paths)]),
    }
}

const DEMO_PACK_HEADER: &str = "pack {\n  name = \"demo\"\n  version = \"1\"\n  provider = \"x/demo\"\n  schema = \"checked\"\n}\n";

#[test]
fn self_check_passes_names_in_the_schema() {
    let text = format!(
        "{DEMO_PACK_HEADER}resource \"demo_disk\" {{\n  identity = [\"id\"]\n  free = [\"tags\"]\n  attribute \"spec.image\" {{\n    impact = \"in-place\"\n    why = \"x\"\n  }}\n}}\n"
    );
    let failures = check_packs(&[parse_pack(&text, "demo.hcl")], &[fake_source()]);
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn self_check_fails_on_an_attribute_not_in_the_schema() {
    let text = format!(
        "{DEMO_PACK_HEADER}resource \"demo_disk\" {{\n  identity = [\"id\", \"mac\"]\n  attribute \"spec.imag\" {{\n    impact = \"in-place\"\n    why = \"x\"\n  }}\n}}\n"
    );
    let failures = check_packs(&[parse_pack(&text, "demo.hcl")], &[fake_source()]);
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("`mac`"), "{failures:?}");
    assert!(failures[1].contains("`spec.imag`"), "{failures:?}");
}

#[test]
fn self_check_fails_on_a_type_not_in_the_schema() {
    let text = format!("{DEMO_PACK_HEADER}resource \"demo_disc\" {{\n  identity = [\"id\"]\n}}\n");
    let failures = check_packs(&[parse_pack(&text, "demo.hcl")], &[fake_source()]);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("demo_disc is in no real demo schema"),
        "{failures:?}"
    );
}

/// A failure names the line of its entry's `resource` block.
#[test]
fn self_check_failures_name_the_entrys_line() {
    let text = format!(
        "{DEMO_PACK_HEADER}resource \"demo_disk\" {{\n  identity = [\"id\"]\n}}\n\n  resource \"demo_disc\" {{\n  identity = [\"id\"]\n}}\n"
    );
    let failures = check_packs(&[parse_pack(&text, "demo.hcl")], &[fake_source()]);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].starts_with("demo.hcl:11: resource type demo_disc "),
        "{failures:?}"
    );
}

#[test]
fn self_check_fails_on_a_checked_pack_without_a_schema() {
    let text = format!("{DEMO_PACK_HEADER}resource \"other_disk\" {{\n  identity = [\"id\"]\n}}\n");
    let failures = check_packs(&[parse_pack(&text, "demo.hcl")], &[fake_source()]);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("no schema for provider other is available"),
        "{failures:?}"
    );
}

#[test]
fn self_check_does_not_hold_an_unavailable_pack_to_a_schema() {
    let text = "pack {\n  name = \"demo\"\n  version = \"1\"\n  provider = \"x/demo\"\n  schema = \"unavailable: none published\"\n}\nresource \"demo_disc\" {\n  identity = [\"id\"]\n}\n";
    let failures = check_packs(&[parse_pack(text, "demo.hcl")], &[fake_source()]);
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn provider_packs_have_sources_and_rationales() {
    let mut failures = Vec::new();
    for pack in all_packs() {
        if !PROVIDER_PACKS.contains(&pack.name.as_str()) {
            continue;
        }
        assert!(!pack.version.is_empty(), "{}: no version", pack.file);
        let mut seen = BTreeSet::new();
        for e in &pack.entries {
            if !seen.insert(&e.type_name) {
                failures.push(format!(
                    "{}:{}: {} appears twice",
                    pack.file, e.line, e.type_name
                ));
            }
            if !e.source.starts_with("https://") {
                failures.push(format!(
                    "{}:{}: {} has no https source",
                    pack.file, e.line, e.type_name
                ));
            }
            if e.rationale.is_empty() || e.summary.is_empty() {
                failures.push(format!(
                    "{}:{}: {} needs a summary and a rationale",
                    pack.file, e.line, e.type_name
                ));
            }
            for (pat, impact, why) in &e.attributes {
                if why.is_empty() {
                    failures.push(format!(
                        "{}:{}: {}[{pat}] ({impact}) has no why",
                        pack.file, e.line, e.type_name
                    ));
                }
            }
        }
        let mut seen = BTreeSet::new();
        for e in &pack.narrowed {
            if !pack.entries.iter().any(|t| t.type_name == e.type_name) {
                failures.push(format!(
                    "{}: {} when {} narrows a type the pack has no entry for",
                    pack.file, e.type_name, e.when
                ));
            }
            if !seen.insert((&e.type_name, &e.when)) {
                failures.push(format!(
                    "{}: {} when {} appears twice",
                    pack.file, e.type_name, e.when
                ));
            }
            if !e.source.starts_with("https://") || e.rationale.is_empty() {
                failures.push(format!(
                    "{}: {} when {} needs an https source and a rationale",
                    pack.file, e.type_name, e.when
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Pack versions are `YEAR.MONTH.N` (2026.11.0 → 2026.11.1 on a change), so a report's
/// `pack@version` says which knowledge produced a verdict.
#[test]
fn pack_versions_follow_the_scheme() {
    for pack in all_packs() {
        let parts: Vec<&str> = pack.version.split('.').collect();
        let numeric = parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        assert!(
            parts.len() == 3 && numeric && parts[0].len() == 4,
            "{}: version {:?} is not YEAR.MONTH.N (e.g. 2026.11.1)",
            pack.file,
            pack.version
        );
    }
}

#[test]
fn builtin_packs_load() {
    let k = ward_rules::Knowledge::builtin()
        .unwrap_or_else(|e| panic!("the built-in packs do not load: {e}"));
    let names: Vec<String> = k
        .packs()
        .into_iter()
        .map(|p| format!("{}@{}", p.name, p.version))
        .collect();
    for want in PROVIDER_PACKS {
        if crate_dir()
            .join("packs")
            .join(format!("{want}.hcl"))
            .exists()
        {
            assert!(
                names.iter().any(|n| n.starts_with(&format!("{want}@"))),
                "pack {want} not loaded: {names:?}"
            );
        }
    }
}

// ------------------------------------------------------------------ docs/packs.md

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// An entry's free, costs and otherwise cells in docs/packs.md.
fn cost_cells(e: &Entry) -> (String, String, String) {
    let free = e
        .free
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let costs = e
        .attributes
        .iter()
        .map(|(pat, imp, _)| format!("`{pat}`: {imp}"))
        .collect::<Vec<_>>()
        .join("; ");
    let other = e
        .actions
        .iter()
        .map(|(k, v)| format!("{}: {v}", k.trim_start_matches("on_")))
        .collect::<Vec<_>>()
        .join("; ");
    (free, costs, other)
}

fn render_docs(packs: &[PackFile]) -> String {
    let mut out = String::new();
    out.push_str("# Built-in packs: what ward knows\n\n");
    out.push_str(
        "<!-- Generated from crates/ward-rules/packs/*.hcl by crates/ward-rules/tests/selfcheck.rs.\n     \
         Do not edit: run `WARD_BLESS=1 cargo test -p ward-rules --test selfcheck docs_packs_md_is_fresh`. -->\n\n",
    );
    out.push_str(
        "Every resource type below is *classified*: ward knows what changing, replacing or deleting it \
         costs (format in [rules.md](rules.md)). A managed resource type that appears in none of these \
         packs and in none of your `ward.hcl` rules fails the coverage gate. Replacement itself is read \
         from the plan; the packs add what the plan does not say.\n\n",
    );
    out.push_str(
        "Two kinds of pack: a provider's curated pack (`aws`), written type by type, and its \
         catalog pack (`aws-catalog`), which `scripts/gen-packs` generates from the provider's \
         schema and a reviewed category table in `scripts/pack-categories/`: every type the \
         curated pack does not name, with data holders listed one by one and every other type \
         put in a documented category (access, attachment, traffic, dns, monitoring, credential, \
         compute, adopted, workflow, config; for creates that take over or change what exists outside \
         the root: authoritative-policy, authoritative-role, exclusive-members, \
         replacing-association, singleton-settings, adopted-rules, takeover, grant, applied-policy; \
         and a few a table defines for itself: a restore \
         that overwrites its target, a drill that fails a service over, SQL ward cannot read) \
         whose rationale each entry repeats. The self-check \
         fails when a schema type is in no pack or a catalog is stale. For providers with no \
         schema package (proxmox, incus, lxd, hcloud, libvirt, maas, juju, alicloud, auth0, \
         azuredevops, exoscale, grafana, gsuite, kubectl, linode, mysql, opsgenie, rancher2, \
         vultr) the catalog lists \
         the types of the provider's documentation at a named commit and says its schema is \
         unavailable, as aws-legacy-catalog and azurerm-legacy-catalog do for the types the \
         provider removed before the pinned schema (named by an older real schema, and by the \
         azurerm 4.0 upgrade guide), which plans of older versions still have; azapi, whose four types manage any ARM type, is curated and costs each \
         as the worst that type can do, but for the ARM types it names by value (`when = { type = ... }`, \
         listed under `azapi_resource`). google-beta's catalog holds only the types the google \
         schema lacks, decided by the google table's rules: entries match by type name whatever \
         the provider, so the google packs decide the types both providers have.\n\n",
    );
    out.push_str(
        "System-managed metadata: tag and label sets the provider or the platform computes \
         (aws `tags_all`; google and google-beta `terraform_labels`, `effective_labels` and \
         `label_fingerprint`; oci `system_tags`; openstack `all_tags`; upcloud `system_labels`; \
         tfe `effective_tags`; a databricks database instance's `effective_custom_tags`) are \
         `free` wherever their type has them: a change there alone mirrors a change of the tags or \
         labels they are computed from, or was written by the platform, and touches nothing \
         running.\n\n",
    );
    let count = |block: &str| {
        packs
            .iter()
            .flat_map(|p| &p.entries)
            .filter(|e| e.blocks.iter().any(|b| b.0 == block))
            .count()
    };
    let _ = write!(
        out,
        "Creates that overwrite: a type whose create takes over state that exists outside the root \
         (a whole IAM policy, every member of a role or a team, a default object, a resource's one \
         policy or settings) carries an `overwrites` block, and its create is never `free` unless \
         the object it names is made by the same plan; a type whose create adds to an existing \
         object without taking it over (one IAM member, a policy assignment, a deny policy) \
         carries a `modifies` block. {} entries overwrite and {} modify; \
         [authoritative.md](authoritative.md) lists each with its class on create, why and source, \
         and the review of every catalog category rule by rule.\n\n",
        count("overwrites"),
        count("modifies")
    );
    out.push_str("Columns: **data** — the object holds data, so deleting or replacing it is `data-loss`; \
                  **free** — attributes whose change touches nothing running; **costs** — attributes with \
                  their own impact class; **otherwise** — the impact of other updates and of delete/replace \
                  when the entry changes the defaults.\n\n");
    out.push_str(
        "**schema** — `checked`: every type and attribute name in the pack was verified by the \
         self-check (`cargo test -p ward-rules --test selfcheck`) against the provider's real schema \
         (`crates/ward-rules/schemas/`, extracted by `scripts/extract-schemas` from packages generated \
         from `providers schema -json`); `unavailable`: no such schema could be had, the names come \
         from the provider's documentation, and the self-check says it did not check them.\n\n",
    );
    out.push_str("| pack | version | provider | types | schema |\n|---|---|---|---|---|\n");
    for p in packs {
        let _ = writeln!(
            out,
            "| [{}](#{}) | {} | `{}` | {} | {} |",
            p.name,
            p.name,
            p.version,
            p.provider,
            p.entries.len(),
            md_escape(&p.schema)
        );
    }
    let total: usize = packs.iter().map(|p| p.entries.len()).sum();
    let _ = writeln!(out, "\n{total} resource types in all.\n");
    for p in packs {
        let _ = writeln!(out, "## {}\n", p.name);
        let _ = writeln!(
            out,
            "Pack `{}` version `{}`, provider `{}`, schema: {}.\n",
            p.name,
            p.version,
            p.provider,
            md_escape(&p.schema)
        );
        out.push_str("| type | data | free | costs | otherwise | what it means |\n|---|---|---|---|---|---|\n");
        let mut entries: Vec<&Entry> = p.entries.iter().collect();
        entries.sort_by(|a, b| a.type_name.cmp(&b.type_name));
        for e in entries {
            let (free, costs, other) = cost_cells(e);
            let _ = writeln!(
                out,
                "| [`{}`]({}) | {} | {} | {} | {} | {} |",
                e.type_name,
                e.source,
                if e.holds_data { "yes" } else { "no" },
                free,
                costs,
                other,
                md_escape(&e.rationale)
            );
            for n in p.narrowed.iter().filter(|n| n.type_name == e.type_name) {
                let (free, costs, other) = cost_cells(n);
                let _ = writeln!(
                    out,
                    "| [`{}`]({}) when `{}` | {} | {} | {} | {} | {} |",
                    n.type_name,
                    n.source,
                    md_escape(&n.when),
                    if n.holds_data { "yes" } else { "as the type" },
                    free,
                    costs,
                    other,
                    md_escape(&n.rationale)
                );
            }
        }
        out.push('\n');
    }
    out
}

#[test]
fn docs_packs_md_is_fresh() {
    let packs = all_packs();
    let want = render_docs(packs);
    let path = crate_dir().join("../../docs/packs.md");
    if std::env::var_os("WARD_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write docs/packs.md");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/packs.md is stale: regenerate it with `WARD_BLESS=1 cargo test -p ward-rules --test selfcheck docs_packs_md_is_fresh`"
    );
}

// ------------------------------------------------------------------ corpus coverage

/// Terraform's own test providers (and test fixtures' made-up ones): not counted.
const TEST_PROVIDERS: &[&str] = &[
    "test",
    "tfcoremock",
    "corner",
    "example",
    "framework",
    "simple",
    "test_provider_name",
];

/// A managed resource type seen in a plan, with the provider the plan gives for it (a full
/// address, or a local name when that is all the plan says).
type SeenType = (String, Option<String>);

/// The provider's type name from a provider address or local name:
/// `registry.terraform.io/hashicorp/aws` → `aws`, `aws.east` → `aws`.
fn provider_kind(provider: &str) -> &str {
    let last = provider.rsplit('/').next().unwrap_or(provider);
    last.split('.').next().unwrap_or(last)
}

/// Is the mode `managed`? `resource_changes` entries of lookalike plans may omit `mode`; the
/// plan reader then takes it from the address (`data.` and `ephemeral.` after any `module.`
/// prefixes), and so does this.
fn is_managed(r: &serde_json::Value, infer_from_address: bool) -> bool {
    match r["mode"].as_str() {
        Some(m) => m == "managed",
        None if infer_from_address => {
            let addr = r["address"].as_str().unwrap_or("");
            let mut rest = addr;
            while let Some(r) = rest.strip_prefix("module.") {
                match r.find('.') {
                    Some(i) => rest = &r[i + 1..],
                    None => break,
                }
            }
            !(rest.starts_with("data.") || rest.starts_with("ephemeral."))
        }
        None => false,
    }
}

/// The managed types the coverage gate checks (crates/ward-classify `coverage`): every resource
/// of `configuration` (root module and every module call, with the provider that
/// `provider_config` names for its `provider_config_key`), of `prior_state` (root and child
/// modules) and of `resource_changes`.
fn gate_types(v: &serde_json::Value, out: &mut BTreeSet<SeenType>) {
    // configuration
    let providers = &v["configuration"]["provider_config"];
    let resolve = |key: &str| -> String {
        let p = &providers[key];
        if let Some(f) = p["full_name"].as_str() {
            return f.to_string();
        }
        if let Some(n) = p["name"].as_str() {
            return n.to_string();
        }
        let local = key.rsplit(':').next().unwrap_or(key);
        local.split('.').next().unwrap_or(local).to_string()
    };
    fn walk_config(
        m: &serde_json::Value,
        resolve: &dyn Fn(&str) -> String,
        out: &mut BTreeSet<SeenType>,
    ) {
        for r in m["resources"].as_array().into_iter().flatten() {
            if let (true, Some(t)) = (is_managed(r, false), r["type"].as_str()) {
                let provider = r["provider_config_key"].as_str().map(resolve);
                out.insert((t.to_string(), provider));
            }
        }
        for call in m["module_calls"]
            .as_object()
            .into_iter()
            .flat_map(|c| c.values())
        {
            walk_config(&call["module"], resolve, out);
        }
    }
    walk_config(&v["configuration"]["root_module"], &resolve, out);

    // prior_state
    fn walk_state(m: &serde_json::Value, out: &mut BTreeSet<SeenType>) {
        for r in m["resources"].as_array().into_iter().flatten() {
            if let (true, Some(t)) = (is_managed(r, false), r["type"].as_str()) {
                let provider = r["provider_name"].as_str().map(String::from);
                out.insert((t.to_string(), provider));
            }
        }
        for c in m["child_modules"].as_array().into_iter().flatten() {
            walk_state(c, out);
        }
    }
    walk_state(&v["prior_state"]["values"]["root_module"], out);

    // resource_changes
    for r in v["resource_changes"].as_array().into_iter().flatten() {
        if let (true, Some(t)) = (is_managed(r, true), r["type"].as_str()) {
            let provider = r["provider_name"].as_str().map(String::from);
            out.insert((t.to_string(), provider));
        }
    }
}

/// The earlier, narrower measure: managed types in `resource_changes` and `planned_values`
/// (what the plan changes or will hold), ignoring configuration and prior state.
fn change_types(v: &serde_json::Value, out: &mut BTreeSet<SeenType>) {
    let mut add = |r: &serde_json::Value| {
        if let (true, Some(t)) = (is_managed(r, false), r["type"].as_str()) {
            let provider = r["provider_name"].as_str().map(String::from);
            out.insert((t.to_string(), provider));
        }
    };
    if let Some(rcs) = v["resource_changes"].as_array() {
        rcs.iter().for_each(&mut add);
    }
    fn walk(m: &serde_json::Value, add: &mut dyn FnMut(&serde_json::Value)) {
        if let Some(rs) = m["resources"].as_array() {
            rs.iter().for_each(&mut *add);
        }
        if let Some(cs) = m["child_modules"].as_array() {
            cs.iter().for_each(|c| walk(c, add));
        }
    }
    walk(&v["planned_values"]["root_module"], &mut add);
}

fn is_test_type((t, provider): &SeenType) -> bool {
    let by_prov = provider
        .as_deref()
        .is_some_and(|p| TEST_PROVIDERS.contains(&provider_kind(p)));
    let by_type = TEST_PROVIDERS
        .iter()
        .any(|p| t.starts_with(&format!("{p}_")));
    by_prov || by_type
}

/// The plan reader reads format majors 0 and 1 only; the gate never sees other files.
fn reader_accepts(v: &serde_json::Value) -> bool {
    let Some(fv) = v["format_version"].as_str() else {
        return true; // lookalikes without a version are read (with a warning)
    };
    let (maj, min) = fv.split_once('.').unwrap_or(("", ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(maj) && digits(min) && (maj == "0" || maj == "1")
}

/// A plan file's text as the plan reader decodes it: UTF-8 (a byte order mark is dropped) or,
/// with a byte order mark, UTF-16 (what PowerShell's `>` writes on Windows).
fn decode_text(bytes: &[u8]) -> Option<String> {
    let utf16 = |rest: &[u8], unit: fn([u8; 2]) -> u16| {
        let units: Vec<u16> = rest.chunks_exact(2).map(|c| unit([c[0], c[1]])).collect();
        String::from_utf16(&units).ok()
    };
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => String::from_utf8(rest.to_vec()).ok(),
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => String::from_utf8(bytes.to_vec()).ok(),
    }
}

/// One coverage measure over a set of seen types: (types, classified, missing types).
fn share(
    k: &ward_rules::Knowledge,
    seen: &BTreeSet<SeenType>,
    made_up: &BTreeSet<String>,
) -> (usize, usize, BTreeSet<String>) {
    let real: BTreeSet<&SeenType> = seen
        .iter()
        .filter(|s| !is_test_type(s) && !made_up.contains(&s.0))
        .collect();
    let types: BTreeSet<&str> = real.iter().map(|(t, _)| t.as_str()).collect();
    // Like the gate: a type is missing when any sighting is not covered by a type-wide rule
    // (a provider-narrowed rule covers it only where the plan names a matching provider).
    let missing: BTreeSet<String> = real
        .iter()
        .filter(|(t, p)| !k.classifies_type(t, p.as_deref()))
        .map(|(t, _)| t.clone())
        .collect();
    (types.len(), types.len() - missing.len(), missing)
}

fn pct(n: usize, of: usize) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

#[test]
fn corpus_type_coverage() {
    let Some(dir) = corpus_dir() else {
        println!(
            "skipped: WARD_CORPUS is unset (set it to the shared corpus to measure pack coverage)"
        );
        return;
    };
    let k = ward_rules::Knowledge::builtin().expect("built-in packs load");
    let (mut gate, mut changes) = (BTreeSet::new(), BTreeSet::new());
    let (mut read, mut unreadable, mut refused) = (0usize, 0usize, 0usize);
    for f in corpus_files(&dir, "plan") {
        let Some(text) = std::fs::read(&f).ok().and_then(|b| decode_text(&b)) else {
            unreadable += 1;
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            unreadable += 1;
            continue;
        };
        if !v.is_object() || !reader_accepts(&v) {
            refused += 1;
            continue;
        }
        read += 1;
        gate_types(&v, &mut gate);
        change_types(&v, &mut changes);
    }
    // Types named after a provider whose real schemas (schemas/*.json and the corpus schemas)
    // all lack them: made up by a lookalike fixture (driftctl's `aws_managed_resource`).
    let mut sources = load_trimmed();
    sources.extend(load_corpus_schemas(&dir));
    let made_up: BTreeSet<String> = gate
        .iter()
        .chain(&changes)
        .filter(|s| !is_test_type(s))
        .map(|(t, _)| t)
        .filter(|t| {
            let prov = type_provider(t);
            sources.iter().any(|s| serves(s, prov))
                && !sources
                    .iter()
                    .any(|s| serves(s, prov) && s.types.contains_key(*t))
        })
        .cloned()
        .collect();

    let (g_types, g_ok, g_missing) = share(&k, &gate, &made_up);
    let (c_types, c_ok, c_missing) = share(&k, &changes, &made_up);
    println!(
        "corpus plans: {read} read ({unreadable} not JSON in UTF-8 or UTF-16, {refused} not a plan object or a format_version the reader refuses: skipped)"
    );
    println!(
        "coverage gate set (configuration, prior_state, resource_changes): {g_types} managed types from real providers; classified {g_ok} = {:.1}%",
        pct(g_ok, g_types)
    );
    println!(
        "changes only (resource_changes, planned_values; the earlier measure): {c_types} types; classified {c_ok} = {:.1}%",
        pct(c_ok, c_types)
    );
    let list = |s: &BTreeSet<String>| {
        if s.is_empty() {
            "(none)".to_string()
        } else {
            s.iter().cloned().collect::<Vec<_>>().join(", ")
        }
    };
    println!("missing (gate set): {}", list(&g_missing));
    if c_missing != g_missing {
        println!("missing (changes only): {}", list(&c_missing));
    }
    println!(
        "not counted, named after a real provider but in none of its schemas (lookalike fixtures): {}",
        list(&made_up)
    );
    assert!(
        g_types > 0,
        "no managed resource types found in the corpus plans"
    );
}

#[test]
fn gate_types_walks_configuration_state_and_changes() {
    let plan = serde_json::json!({
        "format_version": "1.2",
        "configuration": {
            "provider_config": {
                "aws": {"name": "aws", "full_name": "registry.terraform.io/hashicorp/aws"},
                "module.net:google": {"name": "google"}
            },
            "root_module": {
                "resources": [
                    {"mode": "managed", "type": "aws_s3_bucket", "provider_config_key": "aws"},
                    {"mode": "data", "type": "aws_caller_identity", "provider_config_key": "aws"}
                ],
                "module_calls": {"net": {"module": {"resources": [
                    {"mode": "managed", "type": "google_compute_network", "provider_config_key": "module.net:google"},
                    {"mode": "managed", "type": "tls_private_key", "provider_config_key": "module.net:tls.alt"}
                ]}}}
            }
        },
        "prior_state": {"values": {"root_module": {
            "resources": [{"mode": "managed", "type": "aws_iam_role", "provider_name": "registry.terraform.io/hashicorp/aws"}],
            "child_modules": [{"resources": [{"mode": "managed", "type": "random_id", "provider_name": "registry.terraform.io/hashicorp/random"}]}]
        }}},
        "resource_changes": [
            {"address": "aws_eip.ip", "type": "aws_eip", "provider_name": "aws"},
            {"address": "module.m.data.aws_ami.x", "type": "aws_ami"},
            {"address": "test_instance.t", "mode": "managed", "type": "test_instance", "provider_name": "registry.terraform.io/hashicorp/test"}
        ]
    });
    let mut seen = BTreeSet::new();
    gate_types(&plan, &mut seen);
    let got: Vec<(String, Option<String>)> = seen.into_iter().collect();
    let s = |t: &str, p: Option<&str>| (t.to_string(), p.map(String::from));
    assert_eq!(
        got,
        vec![
            s("aws_eip", Some("aws")),
            s("aws_iam_role", Some("registry.terraform.io/hashicorp/aws")),
            s("aws_s3_bucket", Some("registry.terraform.io/hashicorp/aws")),
            s("google_compute_network", Some("google")),
            s("random_id", Some("registry.terraform.io/hashicorp/random")),
            s(
                "test_instance",
                Some("registry.terraform.io/hashicorp/test")
            ),
            s("tls_private_key", Some("tls")),
        ]
    );
    assert!(is_test_type(&s("test_instance", None)));
    assert!(is_test_type(&s(
        "whatever",
        Some("registry.terraform.io/hashicorp/tfcoremock")
    )));
    assert!(!is_test_type(&s("aws_eip", Some("aws"))));
    assert!(reader_accepts(
        &serde_json::json!({"format_version": "0.1"})
    ));
    assert!(!reader_accepts(
        &serde_json::json!({"format_version": "test_format_version"})
    ));
}

// ------------------------------------------------------------------ completeness

/// Every type of every schema source is named by some pack; returns one failure per type
/// that is not.
fn check_complete(packs: &[PackFile], sources: &[SchemaSource]) -> Vec<String> {
    let named: BTreeSet<&str> = packs
        .iter()
        .flat_map(|p| p.entries.iter().map(|e| e.type_name.as_str()))
        .collect();
    let mut failures = Vec::new();
    for src in sources {
        let missing: Vec<&String> = src
            .types
            .keys()
            .filter(|t| !named.contains(t.as_str()))
            .collect();
        for t in &missing {
            failures.push(format!(
                "{}: resource type {t} is in no pack: curate it in packs/{}.hcl, or classify it in scripts/pack-categories/{}.toml and rerun scripts/gen-packs",
                src.label, src.provider, src.provider
            ));
        }
        println!(
            "coverage: {}: {} of {} schema types in a pack",
            src.label,
            src.types.len() - missing.len(),
            src.types.len()
        );
    }
    failures
}

#[test]
fn every_schema_type_has_a_pack_entry() {
    let failures = check_complete(all_packs(), &load_trimmed());
    assert!(
        failures.is_empty(),
        "{} schema types have no pack entry:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn completeness_fails_on_a_schema_type_without_an_entry() {
    let text = format!("{DEMO_PACK_HEADER}resource \"demo_disk\" {{\n  identity = [\"id\"]\n}}\n");
    let mut src = fake_source();
    assert!(check_complete(&[parse_pack(&text, "demo.hcl")], &[fake_source()]).is_empty());
    src.types.insert("demo_volume".to_string(), BTreeSet::new());
    let failures = check_complete(&[parse_pack(&text, "demo.hcl")], &[src]);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("demo_volume is in no pack"),
        "{failures:?}"
    );
}

// ------------------------------------------------------------------ catalog freshness

/// Curated type names of a pack file, as scripts/gen-packs reads them (`resource "T"` lines).
fn curated_type_names(text: &str) -> Vec<String> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("resource") else {
            continue;
        };
        let rest = rest.trim_start();
        if rest.len() == line.trim_start().len() - "resource".len() {
            continue; // `resource` not followed by white space
        }
        let Some(rest) = rest.strip_prefix('"') else {
            continue;
        };
        if let Some(end) = rest.find('"') {
            if end > 0 {
                names.insert(rest[..end].to_string());
            }
        }
    }
    names.into_iter().collect()
}

/// The table a fork's table inherits, as scripts/gen-packs reads it: a line
/// `inherit = "NAME"` (NAME of lowercase letters, digits, `_` and `-`).
fn inherited(table: &str) -> Option<String> {
    table.lines().find_map(|l| {
        let rest = l.strip_prefix("inherit")?.trim_start().strip_prefix('=')?;
        let name = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
        let ok = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
        ok.then(|| name.to_string())
    })
}

/// The digest scripts/gen-packs writes on a catalog's `# inputs sha256:` line: sha256 over
/// `label NUL length NUL bytes NUL` of each input, in order.
fn catalog_fingerprint(root: &Path, provider: &str) -> Result<String, String> {
    let read = |rel: String| -> Result<Vec<u8>, String> {
        std::fs::read(root.join(&rel)).map_err(|e| format!("{rel}: {e}"))
    };
    let curated =
        match std::fs::read_to_string(root.join(format!("crates/ward-rules/packs/{provider}.hcl")))
        {
            Ok(text) => curated_type_names(&text).join("\n").into_bytes(),
            Err(_) => Vec::new(),
        };
    let mut parts: Vec<(String, Vec<u8>)> = vec![
        ("gen-packs".into(), read("scripts/gen-packs".into())?),
        (
            "common.toml".into(),
            read("scripts/pack-categories/common.toml".into())?,
        ),
        (
            format!("{provider}.toml"),
            read(format!("scripts/pack-categories/{provider}.toml"))?,
        ),
        (
            format!("{provider}.json"),
            // A provider without a schema package has none: its table lists the types.
            std::fs::read(root.join(format!("crates/ward-rules/schemas/{provider}.json")))
                .unwrap_or_default(),
        ),
        ("curated".into(), curated),
    ];
    // A fork's table inherits its parent's (`inherit = "google"` on a line of its own): the
    // parent's table is an input too.
    if let Some(parent) = inherited(&String::from_utf8_lossy(&parts[2].1)) {
        parts.push((
            format!("inherit {parent}.toml"),
            read(format!("scripts/pack-categories/{parent}.toml"))?,
        ));
    }
    let mut h = Sha256::new();
    for (label, data) in &parts {
        h.update(label.as_bytes());
        h.update(b"\0");
        h.update(data.len().to_string().as_bytes());
        h.update(b"\0");
        h.update(data);
        h.update(b"\0");
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Every `packs/*-catalog.hcl` under `root` is what scripts/gen-packs would write from the
/// inputs there now; every category table has its catalog. Returns the failures.
fn check_catalogs(root: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    let packs_dir = root.join("crates/ward-rules/packs");
    let mut providers = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("scripts/pack-categories")).expect("tables dir") {
        let name = entry.expect("dir entry").file_name();
        let name = name.to_string_lossy();
        if let Some(p) = name.strip_suffix(".toml") {
            if p != "common" {
                providers.insert(p.to_string());
            }
        }
    }
    for entry in std::fs::read_dir(&packs_dir).expect("packs dir") {
        let name = entry.expect("dir entry").file_name();
        if let Some(p) = name.to_string_lossy().strip_suffix("-catalog.hcl") {
            if !providers.contains(p) {
                failures.push(format!(
                    "packs/{p}-catalog.hcl has no table scripts/pack-categories/{p}.toml"
                ));
            }
        }
    }
    for p in &providers {
        let file = packs_dir.join(format!("{p}-catalog.hcl"));
        let Ok(text) = std::fs::read_to_string(&file) else {
            failures.push(format!(
                "scripts/pack-categories/{p}.toml has no generated packs/{p}-catalog.hcl: run scripts/gen-packs {p}"
            ));
            continue;
        };
        let recorded = text
            .lines()
            .find_map(|l| l.strip_prefix("# inputs sha256: "))
            .map(str::trim);
        match (recorded, catalog_fingerprint(root, p)) {
            (_, Err(e)) => failures.push(format!("packs/{p}-catalog.hcl: input missing: {e}")),
            (None, _) => failures.push(format!(
                "packs/{p}-catalog.hcl has no `# inputs sha256:` line: it was not written by scripts/gen-packs; run scripts/gen-packs {p}"
            )),
            (Some(have), Ok(want)) if have != want => failures.push(format!(
                "packs/{p}-catalog.hcl is stale (its inputs changed since it was generated): run scripts/gen-packs {p} and commit the result"
            )),
            _ => {}
        }
    }
    failures
}

fn repo_root() -> PathBuf {
    crate_dir().join("../..")
}

#[test]
fn catalog_packs_are_fresh() {
    let failures = check_catalogs(&repo_root());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A copy of the datadog catalog's inputs: fresh as committed, stale after any input changes.
#[test]
fn catalog_check_fails_when_an_input_changes() {
    let root = repo_root();
    let tmp = tempfile::tempdir().unwrap();
    for rel in [
        "scripts/gen-packs",
        "scripts/pack-categories/common.toml",
        "scripts/pack-categories/datadog.toml",
        "crates/ward-rules/schemas/datadog.json",
        "crates/ward-rules/packs/datadog-catalog.hcl",
    ] {
        let to = tmp.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(rel), &to).unwrap();
    }
    assert_eq!(check_catalogs(tmp.path()), Vec::<String>::new());

    // A new type in the schema, a curated pack appearing, an edited table: each is stale.
    let table = tmp.path().join("scripts/pack-categories/datadog.toml");
    let original = std::fs::read_to_string(&table).unwrap();
    std::fs::write(&table, format!("{original}\n# edited\n")).unwrap();
    let failures = check_catalogs(tmp.path());
    assert!(
        failures.len() == 1 && failures[0].contains("datadog-catalog.hcl is stale"),
        "{failures:?}"
    );
    std::fs::write(&table, &original).unwrap();
    std::fs::write(
        tmp.path().join("crates/ward-rules/packs/datadog.hcl"),
        "resource \"datadog_monitor\" {\n}\n",
    )
    .unwrap();
    let failures = check_catalogs(tmp.path());
    assert!(
        failures.len() == 1 && failures[0].contains("stale"),
        "{failures:?}"
    );
    std::fs::remove_file(
        tmp.path()
            .join("crates/ward-rules/packs/datadog-catalog.hcl"),
    )
    .unwrap();
    let failures = check_catalogs(tmp.path());
    assert!(
        failures.iter().any(|f| f.contains("has no generated")),
        "{failures:?}"
    );
}

/// A fork's catalog (google-beta inherits the google table) is stale when the parent's table
/// changes, and `inherit` is read only on a line of its own.
#[test]
fn a_fork_catalog_is_stale_when_its_parent_table_changes() {
    let root = repo_root();
    let tmp = tempfile::tempdir().unwrap();
    for rel in [
        "scripts/gen-packs",
        "scripts/pack-categories/common.toml",
        "scripts/pack-categories/google.toml",
        "scripts/pack-categories/google-beta.toml",
        "crates/ward-rules/schemas/google-beta.json",
        "crates/ward-rules/packs/google-beta-catalog.hcl",
    ] {
        let to = tmp.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(rel), &to).unwrap();
    }
    // The google catalog's own inputs are not copied: only the fork's are checked here.
    let failures: Vec<String> = check_catalogs(tmp.path())
        .into_iter()
        .filter(|f| f.contains("google-beta"))
        .collect();
    assert_eq!(failures, Vec::<String>::new());
    let parent = tmp.path().join("scripts/pack-categories/google.toml");
    let original = std::fs::read_to_string(&parent).unwrap();
    std::fs::write(&parent, format!("{original}\n# edited\n")).unwrap();
    let failures = check_catalogs(tmp.path());
    assert!(
        failures
            .iter()
            .any(|f| f.contains("google-beta-catalog.hcl is stale")),
        "{failures:?}"
    );
    assert_eq!(
        inherited("x = 1\ninherit = \"google\"\n").as_deref(),
        Some("google")
    );
    assert_eq!(inherited("# inherit = \"google\"\n"), None);
    assert_eq!(inherited("inherits = \"google\"\n"), None);
    assert_eq!(inherited("inherit = \"Google\"\n"), None);
}

#[test]
fn curated_type_names_read_resource_lines_only() {
    let text = "pack {\n}\nresource \"a_b\" {\n  # resource \"c_d\"\n}\n  resource  \"e_f\" {}\nresources \"g\"\n";
    assert_eq!(curated_type_names(text), vec!["a_b", "e_f"]);
}

// ------------------------------------------------------------------ creates that overwrite

/// The categories of the catalog tables that carry an `overwrites` or `modifies` template, as
/// `(category, block)`: read from the `[category.NAME.overwrites]` / `[category.NAME.modifies]`
/// headers of scripts/pack-categories/*.toml (common.toml and each provider's own).
fn block_categories(root: &Path) -> BTreeSet<(String, String)> {
    let dir = root.join("scripts/pack-categories");
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).expect("pack-categories dir") {
        let path = entry.expect("dir entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read table");
        for line in text.lines() {
            let Some(rest) = line.trim().strip_prefix("[category.") else {
                continue;
            };
            let Some(rest) = rest.strip_suffix(']') else {
                continue;
            };
            for block in ["overwrites", "modifies"] {
                if let Some(cat) = rest.strip_suffix(&format!(".{block}")) {
                    out.insert((cat.to_string(), block.to_string()));
                }
            }
        }
    }
    out
}

/// Type names that say the type is authoritative, exclusive or adopting, with the block a
/// catalog entry of that name must carry. (`*_iam_binding` of hcp is one principal's grant,
/// not a role's member list: reviewed in docs/authoritative.md, so it is left out.)
fn authoritative_by_name(type_name: &str) -> Option<&'static str> {
    let t = type_name;
    if t.ends_with("_iam_policy")
        || t.ends_with("_iam_audit_config")
        || t.ends_with("_exclusive")
        || (t.ends_with("_iam_binding") && !t.starts_with("hcp_"))
        || [
            "_default_security_group",
            "_default_route_table",
            "_default_network_acl",
            "_default_security_list",
            "_default_dhcp_options",
        ]
        .iter()
        .any(|s| t.ends_with(s))
    {
        return Some("overwrites");
    }
    if t.starts_with("google_") && t.ends_with("_iam_member") {
        return Some("modifies");
    }
    None
}

/// Every catalog entry whose category carries an `overwrites` (or `modifies`) template, and
/// every catalog entry whose name says it is authoritative, has that block; every block says a
/// class above free. One failure per entry that does not.
fn check_overwrites(packs: &[PackFile], categories: &BTreeSet<(String, String)>) -> Vec<String> {
    let mut failures = Vec::new();
    let mut counted = BTreeMap::<&str, usize>::new();
    for pack in packs.iter().filter(|p| p.name.ends_with("-catalog")) {
        for e in &pack.entries {
            let category = e
                .rationale
                .rsplit_once("(category: ")
                .and_then(|(_, c)| c.strip_suffix(')'))
                .unwrap_or("");
            let mut wanted: BTreeSet<&str> = categories
                .iter()
                .filter(|(c, _)| c == category)
                .map(|(_, b)| b.as_str())
                .collect();
            if let Some(b) = authoritative_by_name(&e.type_name) {
                wanted.insert(b);
            }
            for b in wanted {
                match e.blocks.iter().find(|x| x.0 == b) {
                    None => failures.push(format!(
                        "{}:{}: {} (category {category}) has no `{b}` block: give its rule or category an `{b}` template in scripts/pack-categories and rerun scripts/gen-packs",
                        pack.file, e.line, e.type_name
                    )),
                    Some(x) if matches!(x.1.as_str(), "" | "none" | "free") => failures.push(format!(
                        "{}:{}: {}: its `{b}` block costs {:?}, not a class above free",
                        pack.file, e.line, e.type_name, x.1
                    )),
                    Some(_) => *counted.entry(if b == "overwrites" { "overwrites" } else { "modifies" }).or_default() += 1,
                }
            }
        }
    }
    println!("catalog types with their block: {counted:?}");
    failures
}

#[test]
fn catalog_types_that_overwrite_carry_their_block() {
    let categories = block_categories(&repo_root());
    assert!(
        categories.contains(&("authoritative-policy".to_string(), "overwrites".to_string())),
        "{categories:?}"
    );
    let failures = check_overwrites(all_packs(), &categories);
    assert!(
        failures.is_empty(),
        "{} catalog types lack their block:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The review covers the providers the issue names, catalogs included.
    let marked: BTreeSet<&str> = all_packs()
        .iter()
        .filter(|p| p.name.ends_with("-catalog"))
        .flat_map(|p| &p.entries)
        .filter(|e| e.blocks.iter().any(|b| b.0 == "overwrites"))
        .map(|e| e.type_name.as_str())
        .collect();
    for t in [
        "google_compute_instance_iam_policy",
        "google_kms_key_ring_iam_binding",
        "google_storage_bucket_acl",
        "oci_core_default_route_table",
        "tfe_team_members",
        "databricks_permissions",
        "aws_cloudfrontkeyvaluestore_keys_exclusive",
        "azurerm_subnet_nat_gateway_association",
        "yandex_resourcemanager_folder_iam_binding",
    ] {
        assert!(marked.contains(t), "{t} has no overwrites block");
    }
}

#[test]
fn the_overwrites_check_fails_on_a_catalog_type_without_its_block() {
    let header = "pack {\n  name = \"demo-catalog\"\n  version = \"1\"\n  provider = \"x/demo\"\n  schema = \"checked\"\n}\n";
    let categories: BTreeSet<(String, String)> =
        [("authoritative-role".to_string(), "overwrites".to_string())].into();
    let block = "  overwrites {\n    impact = \"interrupt\"\n    what = \"x\"\n  }\n";
    // By category: an entry of an overwriting category without the block fails, with it passes.
    let bare = format!("{header}resource \"demo_thing\" {{\n  rationale = \"r (category: authoritative-role)\"\n}}\n");
    let failures = check_overwrites(&[parse_pack(&bare, "demo-catalog.hcl")], &categories);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("demo_thing (category authoritative-role) has no `overwrites` block"),
        "{failures:?}"
    );
    let good = format!("{header}resource \"demo_thing\" {{\n  rationale = \"r (category: authoritative-role)\"\n{block}}}\n");
    assert!(check_overwrites(&[parse_pack(&good, "demo-catalog.hcl")], &categories).is_empty());
    // By name: an IAM policy put in a plain category fails, and so does a block costing free.
    let by_name = format!("{header}resource \"demo_disk_iam_policy\" {{\n  rationale = \"r (category: access)\"\n}}\n");
    let failures = check_overwrites(&[parse_pack(&by_name, "demo-catalog.hcl")], &categories);
    assert_eq!(failures.len(), 1, "{failures:?}");
    let free = format!("{header}resource \"demo_disk_iam_policy\" {{\n  rationale = \"r (category: access)\"\n  overwrites {{\n    impact = \"free\"\n  }}\n}}\n");
    let failures = check_overwrites(&[parse_pack(&free, "demo-catalog.hcl")], &categories);
    assert!(
        failures.len() == 1 && failures[0].contains("not a class above free"),
        "{failures:?}"
    );
    // A google member grant needs `modifies`; a curated pack is not held to the names.
    let member = format!("{header}resource \"google_demo_iam_member\" {{\n  rationale = \"r (category: grant)\"\n}}\n");
    assert_eq!(
        check_overwrites(&[parse_pack(&member, "demo-catalog.hcl")], &categories).len(),
        1
    );
    let curated = member.replace("demo-catalog", "demo");
    assert!(check_overwrites(&[parse_pack(&curated, "demo.hcl")], &categories).is_empty());
}

#[test]
fn self_check_fails_on_an_overwrites_target_not_in_the_schema() {
    let text = format!(
        "{DEMO_PACK_HEADER}resource \"demo_disk\" {{\n  identity = [\"id\"]\n  overwrites {{\n    impact = \"interrupt\"\n    what = \"x\"\n    target = [\"spec\", \"no_such\"]\n  }}\n}}\n"
    );
    let failures = check_packs(&[parse_pack(&text, "demo.hcl")], &[fake_source()]);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("attribute `no_such` is in no real schema"),
        "{failures:?}"
    );
}

#[test]
fn a_free_name_of_the_catalog_header_is_not_held_to_the_schema() {
    let entry = "resource \"demo_disk\" {\n  identity = [\"id\"]\n  free = [\"tags\", \"system_tags\"]\n}\n";
    let failures = check_packs(
        &[parse_pack(
            &format!("{DEMO_PACK_HEADER}{entry}"),
            "demo.hcl",
        )],
        &[fake_source()],
    );
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("attribute `system_tags` is in no real schema"),
        "{failures:?}"
    );
    let header = format!("{FREE_ANY_LINE} (older provider versions have it): system_tags.\n");
    let pack = parse_pack(&format!("{header}{DEMO_PACK_HEADER}{entry}"), "demo.hcl");
    assert_eq!(pack.free_any, ["system_tags"]);
    assert!(check_packs(&[pack], &[fake_source()]).is_empty());
}

/// docs/authoritative.md lists every catalog entry's block in its generated section (scripts/
/// gen-packs writes it): `| `type` | pack | `class` |` for `overwrites`, `| pack | type | `class` |`
/// for `modifies`, and no `modifies` row for an entry without the block. One failure per row.
fn check_doc_rows(doc: &str, packs: &[PackFile]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut modifies = 0usize;
    for pack in packs.iter().filter(|p| p.name.ends_with("-catalog")) {
        for e in &pack.entries {
            for (block, impact, ..) in &e.blocks {
                let row = if block == "overwrites" {
                    format!("| `{}` | {} | `{impact}` |", e.type_name, pack.name)
                } else {
                    modifies += 1;
                    format!("| {} | {} | `{impact}` |", pack.name, e.type_name)
                };
                if !doc.contains(&row) {
                    failures.push(format!(
                        "docs/authoritative.md lacks `{row}`: rerun scripts/gen-packs"
                    ));
                }
            }
        }
    }
    let rows = doc
        .lines()
        .filter(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            cells.len() > 2 && cells[0].ends_with("-catalog") && cells[0].starts_with("| ")
        })
        .count();
    if rows != modifies {
        failures.push(format!(
            "docs/authoritative.md has {rows} catalog `modifies` rows, the catalogs {modifies}: rerun scripts/gen-packs"
        ));
    }
    failures
}

#[test]
fn docs_authoritative_md_lists_every_catalog_block() {
    let doc = std::fs::read_to_string(repo_root().join("docs/authoritative.md")).unwrap();
    let failures = check_doc_rows(&doc, all_packs());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_doc_check_fails_on_a_missing_or_extra_row() {
    let header = "pack {\n  name = \"demo-catalog\"\n  version = \"1\"\n  provider = \"x/demo\"\n  schema = \"checked\"\n}\n";
    let text = format!("{header}resource \"demo_a_iam_policy\" {{\n  overwrites {{\n    impact = \"interrupt\"\n    what = \"x\"\n  }}\n}}\nresource \"demo_a_iam_member\" {{\n  modifies {{\n    impact = \"in-place\"\n    what = \"x\"\n  }}\n}}\n");
    let packs = [parse_pack(&text, "demo-catalog.hcl")];
    let good = "| `demo_a_iam_policy` | demo-catalog | `interrupt` |  |\n| demo-catalog | demo_a_iam_member | `in-place` |  |\n";
    assert!(check_doc_rows(good, &packs).is_empty());
    let missing = good.lines().next().unwrap();
    let failures = check_doc_rows(missing, &packs);
    assert_eq!(failures.len(), 2, "{failures:?}");
    let extra = format!("{good}| demo-catalog | demo_b_iam_member | `in-place` |  |\n");
    let failures = check_doc_rows(&extra, &packs);
    assert!(
        failures.len() == 1 && failures[0].contains("2 catalog `modifies` rows, the catalogs 1"),
        "{failures:?}"
    );
}
