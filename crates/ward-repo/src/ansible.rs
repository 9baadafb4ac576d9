//! Version pins on the Ansible side: collections and roles in `requirements.yml`, the version in
//! `galaxy.yml`, and variables named `*_version` in inventories, `group_vars` and `host_vars`.
//!
//! YAML is read with `saphyr`, which keeps the position of every node, so each pin has a line.

use saphyr::{LoadableYamlNode, MarkedYamlOwned, ScalarOwned, YamlDataOwned};
use saphyr_parser::{Event, Marker};
use serde::Serialize;

/// Where a version pin was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PinKind {
    /// A collection in `requirements.yml`.
    Collection,
    /// A role in `requirements.yml`.
    Role,
    /// The `version` of a collection's own `galaxy.yml`.
    Galaxy,
    /// An inventory / group_vars / host_vars variable named `*_version`.
    Variable,
}

/// One version pin.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct VersionPin {
    /// Repository-relative file.
    pub file: String,
    /// 1-based line of the value (or of the entry when the version is missing).
    pub line: usize,
    /// What kind of pin.
    pub kind: PinKind,
    /// Collection/role name (`acme.platform`), or the variable name.
    pub name: String,
    /// The version as written; `None` when the entry names no version at all.
    pub version: Option<String>,
}

/// A YAML file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlProblem {
    /// 1-based line.
    pub line: usize,
    /// The parser's message.
    pub message: String,
}

/// Lines as ward cites them: counted by line feeds, as git, editors and CI annotations count
/// them. YAML also breaks lines at a lone carriage return, so the parser's own line numbers can
/// run past the end of the file; every line of an Ansible file is taken from here instead.
pub(crate) struct Lines {
    /// The character index of every line feed, in order.
    feeds: Vec<usize>,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        Lines {
            feeds: text
                .chars()
                .enumerate()
                .filter(|(_, c)| *c == '\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// The 1-based line of a parser position (its character index).
    pub(crate) fn of(&self, m: &Marker) -> usize {
        self.feeds.partition_point(|&f| f < m.index()) + 1
    }
}

/// Which Ansible file a path is, by name and place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnsibleFileKind {
    /// `requirements.yml` / `requirements.yaml` (any directory).
    Requirements,
    /// `galaxy.yml` / `galaxy.yaml`.
    Galaxy,
    /// A variables file: under `group_vars/` or `host_vars/`, or a YAML file under a directory
    /// named `inventory` or `inventories`.
    Vars,
    /// An INI inventory: `hosts`, `hosts.ini`, `inventory.ini`, or a file without extension or
    /// with `.ini` under `inventory/` or `inventories/` (not under `group_vars`/`host_vars`).
    IniInventory,
}

/// Tells whether a repository-relative path is an Ansible file ward reads.
pub fn ansible_kind(rel: &str) -> Option<AnsibleFileKind> {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
    if matches!(name, "requirements.yml" | "requirements.yaml") {
        return Some(AnsibleFileKind::Requirements);
    }
    if matches!(name, "galaxy.yml" | "galaxy.yaml") {
        return Some(AnsibleFileKind::Galaxy);
    }
    let dirs: Vec<&str> = rel.split('/').collect();
    let dirs = &dirs[..dirs.len().saturating_sub(1)];
    let in_vars = dirs.iter().any(|d| *d == "group_vars" || *d == "host_vars");
    let in_inv = dirs
        .iter()
        .any(|d| *d == "inventory" || *d == "inventories");
    if (in_vars && (yaml || !name.contains('.'))) || (in_inv && yaml) {
        return Some(AnsibleFileKind::Vars);
    }
    if matches!(name, "hosts" | "hosts.ini" | "inventory.ini")
        || (in_inv && (name.ends_with(".ini") || !name.contains('.')))
    {
        return Some(AnsibleFileKind::IniInventory);
    }
    None
}

/// `*_version` variables of an INI inventory: `key=value` lines in `[group:vars]` sections and
/// `key=value` pairs on host lines.
fn ini_pins(text: &str, file: &str) -> Vec<VersionPin> {
    let mut out = Vec::new();
    let mut in_vars = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.starts_with('[') {
            in_vars = line.trim_end_matches(']').ends_with(":vars");
            continue;
        }
        let pairs: Vec<&str> = if in_vars {
            vec![line]
        } else {
            line.split_whitespace().skip(1).collect()
        };
        for pair in pairs {
            let Some((k, v)) = pair.split_once('=') else {
                continue;
            };
            let k = k.trim();
            if k.ends_with("_version") {
                let v = v
                    .split(" #")
                    .next()
                    .unwrap_or(v)
                    .trim()
                    .trim_matches(['"', '\'']);
                out.push(VersionPin {
                    file: file.to_string(),
                    line: i + 1,
                    kind: PinKind::Variable,
                    name: k.to_string(),
                    version: Some(v.to_string()).filter(|v| !v.is_empty()),
                });
            }
        }
    }
    out
}

/// Reads the pins of one Ansible file.
pub fn read_pins(
    kind: AnsibleFileKind,
    text: &str,
    file: &str,
) -> Result<Vec<VersionPin>, YamlProblem> {
    if kind == AnsibleFileKind::IniInventory {
        return Ok(ini_pins(text, file));
    }
    check_depth(text)?;
    let lines = Lines::new(text);
    let docs = MarkedYamlOwned::load_from_str(text).map_err(|e| YamlProblem {
        line: lines.of(e.marker()),
        message: e.info().to_string(),
    })?;
    let ctx = Ctx { text, file, lines };
    let mut out = Vec::new();
    for doc in &docs {
        match kind {
            AnsibleFileKind::Requirements => ctx.requirements(doc, &mut out),
            AnsibleFileKind::Galaxy => ctx.galaxy(doc, &mut out),
            AnsibleFileKind::Vars => ctx.vars(doc, &mut out),
            AnsibleFileKind::IniInventory => {}
        }
    }
    Ok(out)
}

/// How deep sequences and mappings may nest in an Ansible file. The loaded tree is walked (and
/// dropped) recursively, so a deeper file would overflow the stack; real files stay far below.
pub const MAX_YAML_DEPTH: usize = 128;

/// Refuses a YAML text nested deeper than [`MAX_YAML_DEPTH`], from the parser's event stream
/// (which keeps its own stack), before anything builds a tree.
pub(crate) fn check_depth(text: &str) -> Result<(), YamlProblem> {
    let mut depth = 0usize;
    let lines = std::cell::OnceCell::new();
    let line = |m: &Marker| lines.get_or_init(|| Lines::new(text)).of(m);
    for event in saphyr_parser::Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| YamlProblem {
            line: line(e.marker()),
            message: e.info().to_string(),
        })?;
        match event {
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    return Err(YamlProblem {
                        line: line(&span.start),
                        message: format!(
                            "sequences and mappings nested more than {MAX_YAML_DEPTH} levels deep; flatten the file (ward reads Ansible files up to that depth)"
                        ),
                    });
                }
            }
            Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

struct Ctx<'a> {
    text: &'a str,
    file: &'a str,
    lines: Lines,
}

pub(crate) fn get<'n>(node: &'n MarkedYamlOwned, key: &str) -> Option<&'n MarkedYamlOwned> {
    match &node.data {
        YamlDataOwned::Mapping(m) => m
            .iter()
            .find(|(k, _)| scalar_plain(k).as_deref() == Some(key))
            .map(|(_, v)| v),
        _ => None,
    }
}

pub(crate) fn scalar_plain(n: &MarkedYamlOwned) -> Option<String> {
    match &n.data {
        YamlDataOwned::Value(ScalarOwned::String(s)) => Some(s.clone()),
        YamlDataOwned::Value(ScalarOwned::Integer(i)) => Some(i.to_string()),
        YamlDataOwned::Value(ScalarOwned::FloatingPoint(f)) => Some(f.to_string()),
        YamlDataOwned::Value(ScalarOwned::Boolean(b)) => Some(b.to_string()),
        YamlDataOwned::Representation(s, _, _) => Some(s.clone()),
        _ => None,
    }
}

impl Ctx<'_> {
    /// A scalar as written in the source (so `1.10` stays `1.10`, not the float `1.1`).
    fn scalar(&self, n: &MarkedYamlOwned) -> Option<String> {
        match &n.data {
            YamlDataOwned::Value(ScalarOwned::String(s)) => Some(s.clone()),
            YamlDataOwned::Value(ScalarOwned::Null) => None,
            YamlDataOwned::Value(_) => {
                let (a, b) = (n.span.start.index(), n.span.end.index());
                let raw: String = self
                    .text
                    .chars()
                    .skip(a)
                    .take(b.saturating_sub(a))
                    .collect();
                let raw = raw.trim().trim_matches(['"', '\'']).to_string();
                if raw.is_empty() {
                    scalar_plain(n)
                } else {
                    Some(raw)
                }
            }
            _ => scalar_plain(n),
        }
    }

    fn pin(
        &self,
        kind: PinKind,
        name: String,
        entry: &MarkedYamlOwned,
        version: Option<&MarkedYamlOwned>,
    ) -> VersionPin {
        VersionPin {
            file: self.file.to_string(),
            line: self.lines.of(&version.unwrap_or(entry).span.start),
            kind,
            name,
            version: version.and_then(|v| self.scalar(v)),
        }
    }

    fn requirements(&self, doc: &MarkedYamlOwned, out: &mut Vec<VersionPin>) {
        match &doc.data {
            // The old format: a bare list of roles.
            YamlDataOwned::Sequence(items) => {
                for it in items {
                    self.entry(PinKind::Role, it, out);
                }
            }
            YamlDataOwned::Mapping(_) => {
                for (key, kind) in [
                    ("collections", PinKind::Collection),
                    ("roles", PinKind::Role),
                ] {
                    if let Some(YamlDataOwned::Sequence(items)) = get(doc, key).map(|n| &n.data) {
                        for it in items {
                            self.entry(kind, it, out);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn entry(&self, kind: PinKind, it: &MarkedYamlOwned, out: &mut Vec<VersionPin>) {
        match &it.data {
            YamlDataOwned::Mapping(_) => {
                let name = get(it, "name")
                    .or_else(|| get(it, "src"))
                    .and_then(|n| self.scalar(n));
                if let Some(name) = name {
                    out.push(self.pin(kind, name, it, get(it, "version")));
                }
            }
            _ => {
                if let Some(s) = self.scalar(it) {
                    // `acme.platform` or `acme.platform:1.2.3` / `role,v1.2.3`
                    let (name, version) = match s.split_once([':', ',']) {
                        Some((n, v)) if !s.contains("://") => {
                            (n.trim().to_string(), Some(v.trim().to_string()))
                        }
                        _ => (s.clone(), None),
                    };
                    out.push(VersionPin {
                        file: self.file.to_string(),
                        line: self.lines.of(&it.span.start),
                        kind,
                        name,
                        version,
                    });
                }
            }
        }
    }

    fn galaxy(&self, doc: &MarkedYamlOwned, out: &mut Vec<VersionPin>) {
        let ns = get(doc, "namespace").and_then(|n| self.scalar(n));
        let name = get(doc, "name").and_then(|n| self.scalar(n));
        if let (Some(ns), Some(name)) = (ns, name) {
            out.push(self.pin(
                PinKind::Galaxy,
                format!("{ns}.{name}"),
                doc,
                get(doc, "version"),
            ));
        }
    }

    fn vars(&self, node: &MarkedYamlOwned, out: &mut Vec<VersionPin>) {
        match &node.data {
            YamlDataOwned::Mapping(m) => {
                for (k, v) in m.iter() {
                    let key = scalar_plain(k);
                    let is_scalar = matches!(
                        v.data,
                        YamlDataOwned::Value(_) | YamlDataOwned::Representation(..)
                    );
                    match key {
                        Some(key) if key.ends_with("_version") && is_scalar => {
                            out.push(self.pin(PinKind::Variable, key, k, Some(v)));
                        }
                        _ => self.vars(v, out),
                    }
                }
            }
            YamlDataOwned::Sequence(items) => items.iter().for_each(|i| self.vars(i, out)),
            YamlDataOwned::Tagged(_, inner) => self.vars(inner, out),
            _ => {}
        }
    }
}

/// Discovery's reading of the Ansible files the walk found (`files`, repository-relative, with
/// their kind): every version pin; a file that cannot be read or is not valid YAML is a problem.
pub(crate) fn read_pins_in(
    root: &std::path::Path,
    files: Vec<(String, AnsibleFileKind)>,
    problems: &mut Vec<crate::FileProblem>,
) -> Vec<VersionPin> {
    let mut pins = Vec::new();
    for (rel, kind) in files {
        match std::fs::read_to_string(root.join(&rel)) {
            Ok(text) => match read_pins(kind, &text, &rel) {
                Ok(p) => pins.extend(p),
                Err(e) => problems.push(yaml_problem(rel, e)),
            },
            Err(e) => problems.push(unreadable(rel, e)),
        }
    }
    pins.sort();
    pins
}

/// A YAML file that does not parse, as a problem of the tree.
pub(crate) fn yaml_problem(file: String, e: YamlProblem) -> crate::FileProblem {
    crate::FileProblem {
        loc: crate::Loc { file, line: e.line },
        column: 0,
        message: format!("not valid YAML: {}", e.message),
    }
}

/// A file that cannot be read, as a problem of the tree.
pub(crate) fn unreadable(file: String, e: std::io::Error) -> crate::FileProblem {
    crate::FileProblem {
        loc: crate::Loc { file, line: 0 },
        column: 0,
        message: format!("cannot read: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_path() {
        assert_eq!(
            ansible_kind("ansible/requirements.yml"),
            Some(AnsibleFileKind::Requirements)
        );
        assert_eq!(
            ansible_kind("inventories/prod/group_vars/all.yml"),
            Some(AnsibleFileKind::Vars)
        );
        assert_eq!(ansible_kind("group_vars/all"), Some(AnsibleFileKind::Vars));
        assert_eq!(ansible_kind("playbooks/site.yml"), None);
    }

    #[test]
    fn reads_requirements() {
        let t = "collections:\n  - name: acme.platform\n    version: 1.10.0\n  - community.general\n  - name: acme.other\n    version: latest\nroles:\n  - src: geerlingguy.docker\n    version: \"7.1.0\"\n";
        let p = read_pins(AnsibleFileKind::Requirements, t, "requirements.yml").unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[0].version.as_deref(), Some("1.10.0"));
        assert_eq!(p[0].line, 3);
        assert_eq!(p[1].version, None);
        assert_eq!(p[2].version.as_deref(), Some("latest"));
        assert_eq!(p[3].kind, PinKind::Role);
    }

    #[test]
    fn reads_vars_and_galaxy() {
        let t = "all:\n  vars:\n    platform_version: v1.2.0\n    other: x\n";
        let p = read_pins(AnsibleFileKind::Vars, t, "inventory/hosts.yml").unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].line, 3);
        let g = "namespace: acme\nname: platform\nversion: 1.2.0\n";
        let p = read_pins(AnsibleFileKind::Galaxy, g, "galaxy.yml").unwrap();
        assert_eq!(p[0].name, "acme.platform");
    }

    #[test]
    fn reads_ini_inventories() {
        assert_eq!(
            ansible_kind("inventories/prod/hosts"),
            Some(AnsibleFileKind::IniInventory)
        );
        assert_eq!(
            ansible_kind("hosts.ini"),
            Some(AnsibleFileKind::IniInventory)
        );
        let t = "[web]\nweb1 ansible_host=10.0.0.1 app_version=1.2.0\n\n[all:vars]\nplatform_version = v1.2.0 # pinned\nother=x\n";
        let p = read_pins(AnsibleFileKind::IniInventory, t, "hosts").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].name.as_str(), p[0].line), ("app_version", 2));
        assert_eq!(p[1].version.as_deref(), Some("v1.2.0"));
        assert_eq!(p[1].line, 5);
    }

    /// YAML also breaks lines at a lone carriage return; ward cites lines as git, editors' line
    /// numbers and CI annotations count them: by line feeds. (Found by fuzz/repo_files: a problem
    /// at line 34 of a 7-line file.)
    #[test]
    fn lines_are_counted_by_line_feeds() {
        let t = "collections:\r\r\n  - name: acme.platform\r\r\n    version: 1.2.0\n";
        let p = read_pins(AnsibleFileKind::Requirements, t, "requirements.yml").unwrap();
        assert_eq!((p[0].name.as_str(), p[0].line), ("acme.platform", 3));
        let bad = format!("a: 1\n{}b: [\n", "\r".repeat(30));
        let e = read_pins(AnsibleFileKind::Vars, &bad, "x.yml").unwrap_err();
        assert!(
            e.line <= bad.split('\n').count(),
            "line {} of a 3-line file",
            e.line
        );
    }

    #[test]
    fn bad_yaml_has_a_line() {
        let e = read_pins(AnsibleFileKind::Vars, "a: [\n", "x.yml").unwrap_err();
        assert!(e.line >= 1);
    }

    #[test]
    fn deep_block_nesting_is_a_problem_not_a_stack_overflow() {
        for text in [
            format!("{}x\n", "- ".repeat(20_000)),
            (0..1_000)
                .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
                .collect::<String>(),
        ] {
            for kind in [
                AnsibleFileKind::Requirements,
                AnsibleFileKind::Galaxy,
                AnsibleFileKind::Vars,
            ] {
                let e = read_pins(kind, &text, "x.yml").unwrap_err();
                assert!(e.message.contains("nested more than"), "{}", e.message);
                assert!(e.line >= 1);
            }
        }
        // Deep but reasonable nesting still reads.
        let ok = format!("{}a_version: 1\n", "- ".repeat(50));
        assert_eq!(
            read_pins(AnsibleFileKind::Vars, &ok, "x.yml")
                .unwrap()
                .len(),
            1
        );
    }
}
