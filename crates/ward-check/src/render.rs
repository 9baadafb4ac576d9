//! Rendered equality (WARD-RENDER-001..003): every `render "NAME"` block of `ward.hcl` names a
//! command that renders files from the repository's sources. ward runs it in a scratch copy of
//! the repository and compares what it wrote with the committed files, and, with
//! `determinism = true`, renders a second time and compares the two renders.
//!
//! The command runs through [`ward_exec`]: a timeout, its own process group, bounded output,
//! stdin closed, and of the environment only [`ward_exec::BASE_ALLOW_LIST`] (no credentials).
//! Every copy lives in one [`ward_exec::ScratchDir`] (owner-only, removed on every exit).
//!
//! With `--exec`, every rendered directory that holds `.tf` files is a generated root and goes
//! through the `--exec` checks ([`crate::exec`]), with its local module sources rewritten to the
//! checkout: a generated root that names a module input that no longer exists fails `validate`
//! even while every unit test of the generator passes.

use crate::exec::{self, ExecOptions, Step, Target};
use crate::finding::Finding;
use crate::rules::RuleId;
use similar::TextDiff;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use ward_config::Render;
use ward_repo::Repo;

/// How many diff lines a WARD-RENDER-001 finding carries; the rest is counted, never dropped
/// silently.
pub const MAX_DIFF_LINES: usize = 200;

/// How much a render may write (all files together) before ward stops reading it.
pub const MAX_RENDER_BYTES: u64 = 64 << 20;

/// How much of the command's stdout and stderr is kept (each).
const OUTPUT_CAP: u64 = 1 << 20;

/// The files of one render: path relative to the output (`""` when the output is one file) →
/// bytes.
type Files = BTreeMap<String, Vec<u8>>;

/// Why a render could not be compared (WARD-RENDER-003).
struct Failed(String);

/// Runs every `render` block of the configuration.
pub fn run(
    repo: &Repo,
    config: Option<&ward_config::Config>,
    exec: Option<&ExecOptions>,
    out: &mut Vec<Finding>,
) {
    let Some(cfg) = config else { return };
    for r in &cfg.renders {
        let mut found = Vec::new();
        one(repo, &cfg.file, r, exec, &mut found);
        out.extend(found);
    }
}

fn one(repo: &Repo, file: &str, r: &Render, exec: Option<&ExecOptions>, out: &mut Vec<Finding>) {
    let fail = |out: &mut Vec<Finding>, msg: String| {
        out.push(Finding::new(
            RuleId::Render003,
            file,
            r.line,
            format!("render \"{}\": {msg}", r.name),
        ));
    };
    let scratch = match ward_exec::ScratchDir::new("ward-render-") {
        Ok(s) => s,
        Err(e) => return fail(out, format!("cannot create a scratch directory: {e}")),
    };
    let first = match render_once(repo, r, &scratch.path().join("a")) {
        Ok(f) => f,
        Err(Failed(m)) => return fail(out, m),
    };
    let committed = match read_files(&repo.root.join(&r.compare), &r.compare) {
        Ok(Some(f)) => f,
        Ok(None) => Files::new(),
        Err(Failed(m)) => return fail(out, m),
    };
    if let Some(f) = differs(r, file, &first, &committed) {
        out.push(f);
    }
    if r.determinism {
        match render_once(repo, r, &scratch.path().join("b")) {
            Ok(second) => {
                if let Some((path, byte)) = first_difference(&first, &second) {
                    let shown = join(&r.compare, &path);
                    out.push(Finding::new(
                        RuleId::Render002,
                        file,
                        r.line,
                        format!(
                            "render \"{}\" is not deterministic: two renders of the same tree differ first in {shown} at byte {byte}{}; pin whatever the command draws at random or from the clock (seeds, timestamps, map order)",
                            r.name,
                            position(first.get(&path), byte)
                        ),
                    ));
                }
            }
            Err(Failed(m)) => fail(out, format!("second render: {m}")),
        }
    }
    if let Some(opts) = exec {
        let mut found = Vec::new();
        generated_roots(
            repo,
            r,
            &committed,
            &scratch.path().join("a"),
            scratch.path(),
            opts,
            &mut found,
        );
        let why = format!(
            "rendered by render \"{}\" ({file}:{}), validated in a scratch directory with its local module sources rewritten to the checkout",
            r.name, r.line
        );
        for mut f in found {
            f.detail.push(why.clone());
            out.push(f);
        }
    }
}

/// ` (line L, column C)` of a byte offset in a text file, when it is text.
fn position(bytes: Option<&Vec<u8>>, byte: usize) -> String {
    let Some(b) = bytes else {
        return String::new();
    };
    let upto = &b[..byte.min(b.len())];
    if std::str::from_utf8(upto).is_err() {
        return String::new();
    }
    let line = upto.iter().filter(|c| **c == b'\n').count() + 1;
    let col = upto.iter().rev().take_while(|c| **c != b'\n').count() + 1;
    format!(" (line {line}, column {col})")
}

/// `compare` joined with a path under it (`""`: the output is one file).
fn join(base: &str, rel: &str) -> String {
    if rel.is_empty() {
        base.to_string()
    } else {
        format!("{base}/{rel}")
    }
}

/// A program written with a `/` is the repository's (relative to its root); it must not leave
/// the repository.
fn program(copy: &Path, p: &str) -> Result<PathBuf, Failed> {
    if !p.contains('/') || Path::new(p).is_absolute() {
        return Ok(PathBuf::from(p));
    }
    if Path::new(p)
        .components()
        .any(|c| matches!(c, Component::ParentDir))
    {
        return Err(Failed(format!(
            "the program {p} leaves the repository; name a program inside it (e.g. ./scripts/render) or one on PATH"
        )));
    }
    Ok(copy.join(p))
}

/// Copies the repository to `copy`, removes `output` there, runs the command and reads what it
/// wrote.
fn render_once(repo: &Repo, r: &Render, copy: &Path) -> Result<Files, Failed> {
    exec::copy_tree(&repo.root, copy).map_err(|e| {
        Failed(format!(
            "cannot copy the repository to a scratch directory: {e}"
        ))
    })?;
    let target = copy.join(&r.output);
    // Only inside the copy ward made: a stale output must not pass for a fresh one.
    match std::fs::symlink_metadata(&target) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(&target),
        Ok(_) => std::fs::remove_file(&target),
        Err(_) => Ok(()),
    }
    .map_err(|e| {
        Failed(format!(
            "cannot clear {} in the scratch copy: {e}",
            r.output
        ))
    })?;
    let Some((first, rest)) = r.command.split_first() else {
        return Err(Failed("`command` is empty".to_string()));
    };
    let out = ward_exec::Command::new(program(copy, first)?, r.timeout)
        .args(rest)
        .current_dir(copy)
        .env_allow_list(ward_exec::BASE_ALLOW_LIST.iter().copied())
        .output_cap(OUTPUT_CAP)
        .timeout_hint(format!(
            "raise `timeout` in render \"{}\" (ward.hcl)",
            r.name
        ))
        .run()
        .map_err(|e| Failed(e.to_string()))?;
    if !out.success() {
        let why = match ward_exec::error_summary(&out.stderr_text(), 3) {
            s if s.is_empty() => "no message on stderr".to_string(),
            s => s,
        };
        return Err(Failed(format!(
            "`{}` failed ({}): {why}",
            shell_words(&r.command),
            match (out.code, out.signal) {
                (Some(c), _) => format!("exit {c}"),
                (None, Some(s)) => format!("signal {s}"),
                _ => "no exit code".to_string(),
            }
        )));
    }
    match read_files(&target, &r.output)? {
        Some(f) => Ok(f),
        None => Err(Failed(format!(
            "`{}` succeeded but wrote nothing at {}; `output` must name what the command writes",
            shell_words(&r.command),
            r.output
        ))),
    }
}

/// The files at `path` (a file: one entry `""`; a directory: every file under it, symlinks not
/// followed); `None` when nothing is there.
fn read_files(path: &Path, shown: &str) -> Result<Option<Files>, Failed> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(_) => return Ok(None),
    };
    let mut files = Files::new();
    let mut total = 0u64;
    let mut add = |rel: String, p: &Path| -> Result<(), Failed> {
        let bytes = std::fs::read(p).map_err(|e| Failed(format!("cannot read {shown}: {e}")))?;
        total += bytes.len() as u64;
        if total > MAX_RENDER_BYTES {
            return Err(Failed(format!(
                "{shown} holds more than {} MiB; ward compares renders up to that size",
                MAX_RENDER_BYTES >> 20
            )));
        }
        files.insert(rel, bytes);
        Ok(())
    };
    if meta.is_file() {
        add(String::new(), path)?;
        return Ok(Some(files));
    }
    if !meta.is_dir() {
        return Err(Failed(format!(
            "{shown} is neither a file nor a directory (a symlink is not followed)"
        )));
    }
    for entry in ward_repo::walk::Walk::new(path).skip_dirs(false) {
        let entry = entry.map_err(|e| Failed(format!("cannot read {shown}: {e}")))?;
        if entry.is_file() {
            add(entry.rel().to_string(), entry.path())?;
        }
    }
    Ok(Some(files))
}

/// The command as one would type it in a shell: shlex's quoting, as ward gate's approve command.
pub fn shell_words(argv: &[String]) -> String {
    // With NUL bytes allowed, shlex's only error cannot happen.
    shlex::Quoter::new()
        .allow_nul(true)
        .join(argv.iter().map(String::as_str))
        .unwrap_or_default()
}

/// What to run to bring the committed files up to date (and commit them, with `commit`).
fn regenerate(r: &Render, commit: bool) -> String {
    let cmd = shell_words(&r.command);
    let then = if commit { " and commit it" } else { "" };
    if r.output == r.compare {
        format!(
            "run `{cmd}` at the repository root{}",
            if commit {
                format!(" and commit {}", r.compare)
            } else {
                String::new()
            }
        )
    } else {
        format!(
            "run `{cmd}` at the repository root, copy {} to {}{then}",
            r.output, r.compare
        )
    }
}

/// `None`: no file; `Some(None)`: not UTF-8.
fn text(b: Option<&Vec<u8>>) -> Option<Option<&str>> {
    b.map(|b| std::str::from_utf8(b).ok())
}

/// WARD-RENDER-001: the render differs from the committed files.
fn differs(r: &Render, file: &str, rendered: &Files, committed: &Files) -> Option<Finding> {
    let names: BTreeSet<&String> = rendered.keys().chain(committed.keys()).collect();
    let mut changed = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for n in names {
        let (old, new) = (committed.get(n), rendered.get(n));
        if old == new {
            continue;
        }
        let path = join(&r.compare, n);
        changed.push(path.clone());
        match (text(old), text(new)) {
            (Some(None), _) | (_, Some(None)) => {
                lines.push(format!("binary file {path} differs"));
            }
            (o, n) => {
                let o = o.flatten().unwrap_or("");
                let nw = n.flatten().unwrap_or("");
                let from = if old.is_some() {
                    format!("a/{path}")
                } else {
                    "/dev/null".to_string()
                };
                let to = if new.is_some() {
                    format!("b/{path}")
                } else {
                    "/dev/null".to_string()
                };
                let diff = TextDiff::from_lines(o, nw);
                let udiff = diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&from, &to)
                    .to_string();
                for l in udiff.lines() {
                    lines.push(l.to_string());
                }
            }
        }
    }
    if changed.is_empty() {
        return None;
    }
    let total = lines.len();
    if total > MAX_DIFF_LINES {
        lines.truncate(MAX_DIFF_LINES);
        lines.push(format!(
            "… {} more diff lines not shown ({total} in all); to see all of them, {} and run `git diff -- {}`",
            total - MAX_DIFF_LINES,
            regenerate(r, false),
            r.compare
        ));
    }
    let shown: Vec<&str> = changed.iter().take(5).map(String::as_str).collect();
    let more = if changed.len() > shown.len() {
        format!(" and {} more", changed.len() - shown.len())
    } else {
        String::new()
    };
    Some(
        Finding::new(
            RuleId::Render001,
            file,
            r.line,
            format!(
                "render \"{}\": {} file(s) differ from what `{}` renders ({}{more}); to regenerate, {}",
                r.name,
                changed.len(),
                shell_words(&r.command),
                shown.join(", "),
                regenerate(r, true)
            ),
        )
        .with_detail(lines),
    )
}

/// The first file (in path order) where two renders differ, and the first differing byte.
fn first_difference(a: &Files, b: &Files) -> Option<(String, usize)> {
    let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for n in names {
        match (a.get(n), b.get(n)) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => {
                let at = x
                    .iter()
                    .zip(y.iter())
                    .position(|(p, q)| p != q)
                    .unwrap_or(x.len().min(y.len()));
                return Some((n.clone(), at));
            }
            _ => return Some((n.clone(), 0)),
        }
    }
    None
}

/// `--exec` on every rendered directory holding `.tf` files: fmt -check on the files as
/// rendered, then init + validate with local module sources rewritten to the checkout copy.
#[allow(clippy::too_many_arguments)]
fn generated_roots(
    repo: &Repo,
    r: &Render,
    committed: &Files,
    copy: &Path,
    scratch: &Path,
    opts: &ExecOptions,
    out: &mut Vec<Finding>,
) {
    let rendered = copy.join(&r.output);
    let Ok(Some(files)) = read_files(&rendered, &r.output) else {
        return;
    };
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for n in files.keys() {
        let name = n.rsplit('/').next().unwrap_or(n);
        if n.is_empty() || !ward_repo::is_config_file(name) {
            continue;
        }
        dirs.insert(
            n.rsplit_once('/')
                .map(|(d, _)| d.to_string())
                .unwrap_or_default(),
        );
    }
    for (i, d) in dirs.iter().enumerate() {
        let committed_dir = join(&r.compare, d);
        // Committed byte for byte as rendered: the --exec pass over the repository validates it
        // in place already.
        let in_dir = |n: &String| n.rsplit_once('/').map(|(x, _)| x).unwrap_or("") == d.as_str();
        let same = files
            .iter()
            .filter(|(n, _)| in_dir(n))
            .eq(committed.iter().filter(|(n, _)| in_dir(n)));
        if same && repo.module(&committed_dir).is_some() {
            continue;
        }
        let work = scratch.join(format!("generated-{i}"));
        let data_dir = scratch.join(format!("generated-data-{i}"));
        let fail = |out: &mut Vec<Finding>, e: String| {
            out.push(
                Finding::new(
                    RuleId::Exec002,
                    &committed_dir,
                    0,
                    format!("generated root of render \"{}\": {e}", r.name),
                )
                .in_dir(&committed_dir),
            );
        };
        if let Err(e) = std::fs::create_dir_all(&work) {
            fail(out, format!("cannot create a scratch directory: {e}"));
            continue;
        }
        let mut tf_files = Vec::new();
        for (n, bytes) in &files {
            let (fd, name) = n.rsplit_once('/').unwrap_or(("", n));
            if fd != d || name.contains('/') {
                continue;
            }
            if let Err(e) = std::fs::write(work.join(name), bytes) {
                fail(
                    out,
                    format!("cannot write {name} to a scratch directory: {e}"),
                );
                continue;
            }
            if ward_repo::is_config_file(name) && !name.ends_with(".json") {
                tf_files.push((name.to_string(), bytes.clone()));
            }
        }
        let mut anchor = tf_files
            .first()
            .map(|(n, _)| join(&committed_dir, n))
            .unwrap_or_else(|| committed_dir.clone());
        if let Some((n, _)) = tf_files.iter().find(|(n, _)| n == "main.tf") {
            anchor = join(&committed_dir, n);
        }
        let t = Target {
            dir: &work,
            prefix: format!("{committed_dir}/"),
            anchor,
            label: committed_dir.clone(),
            data_dir,
        };
        if exec::fmt_check(opts, &t, out) == Step::Stop {
            return;
        }
        // Local module sources name directories relative to where the root is committed; in the
        // scratch directory they point at the same directories of the checkout copy.
        for (name, bytes) in &tf_files {
            let text = String::from_utf8_lossy(bytes);
            let rewritten = ward_repo::rewrite_local_sources(&text, |src| {
                let target = ward_repo::join_rel(&committed_dir, src)?;
                // A module rendered beside the root is the rendered one, not the committed one.
                let target = match target.strip_prefix(&format!("{}/", r.compare)) {
                    Some(rest) => format!("{}/{rest}", r.output),
                    None if target == r.compare => r.output.clone(),
                    None => target,
                };
                Some(copy.join(target).display().to_string())
            });
            match rewritten {
                Ok(t) if t != text => {
                    if let Err(e) = std::fs::write(work.join(name), t) {
                        fail(out, format!("cannot write {name}: {e}"));
                    }
                }
                Ok(_) => {}
                Err(e) => fail(out, format!("{name}: {e}")),
            }
        }
        if exec::init_validate(opts, &t, out) == Step::Stop {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> Files {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect()
    }

    fn render(output: &str, compare: &str) -> Render {
        Render {
            name: "p".to_string(),
            command: vec!["./gen.sh".to_string(), "out dir".to_string()],
            output: output.to_string(),
            compare: compare.to_string(),
            determinism: false,
            timeout: std::time::Duration::from_secs(5),
            line: 3,
        }
    }

    #[test]
    fn first_difference_names_file_and_byte() {
        let a = files(&[("a.json", "same"), ("b.json", "{\"x\": 1}")]);
        let b = files(&[("a.json", "same"), ("b.json", "{\"x\": 2}")]);
        assert_eq!(first_difference(&a, &b), Some(("b.json".to_string(), 6)));
        assert_eq!(first_difference(&a, &a), None);
        let c = files(&[("a.json", "same")]);
        assert_eq!(first_difference(&a, &c), Some(("b.json".to_string(), 0)));
        let d = files(&[("a.json", "same!"), ("b.json", "{\"x\": 1}")]);
        assert_eq!(first_difference(&a, &d), Some(("a.json".to_string(), 4)));
    }

    #[test]
    fn diff_is_bounded_and_says_so() {
        let old: String = (0..500).map(|i| format!("line {i}\n")).collect();
        let new: String = (0..500).map(|i| format!("LINE {i}\n")).collect();
        let r = render("out", "gen");
        let f = differs(
            &r,
            "ward.hcl",
            &files(&[("x.tf", &new)]),
            &files(&[("x.tf", &old)]),
        )
        .unwrap();
        assert_eq!(f.detail.len(), MAX_DIFF_LINES + 1);
        let last = f.detail.last().unwrap();
        assert!(last.contains("more diff lines not shown"), "{last}");
        assert!(last.contains("git diff -- gen"), "{last}");
        assert!(f.message.contains("copy out to gen"), "{}", f.message);
        assert!(f.message.contains("`./gen.sh 'out dir'`"), "{}", f.message);
        assert_eq!(f.detail[0], "--- a/gen/x.tf");
        assert_eq!(f.detail[1], "+++ b/gen/x.tf");
    }

    #[test]
    fn equal_renders_find_nothing_and_new_files_are_named() {
        let r = render("gen", "gen");
        let a = files(&[("x", "1\n")]);
        assert!(differs(&r, "ward.hcl", &a, &a).is_none());
        let f = differs(&r, "ward.hcl", &files(&[("x", "1\n"), ("y", "2\n")]), &a).unwrap();
        assert!(f.message.contains("1 file(s) differ"), "{}", f.message);
        assert!(
            f.detail.iter().any(|l| l == "--- /dev/null"),
            "{:?}",
            f.detail
        );
    }

    #[test]
    fn positions() {
        let b = b"ab\ncd".to_vec();
        assert_eq!(position(Some(&b), 4), " (line 2, column 2)");
        assert_eq!(position(None, 4), "");
    }

    #[test]
    fn programs_stay_inside() {
        let c = Path::new("/copy");
        assert_eq!(program(c, "sh").ok(), Some(PathBuf::from("sh")));
        assert_eq!(
            program(c, "./scripts/gen").ok(),
            Some(PathBuf::from("/copy/./scripts/gen"))
        );
        assert!(program(c, "../x/gen").is_err());
    }
}
