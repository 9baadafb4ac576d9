//! Embeds every `packs/*.hcl` file: lists the directory (sorted, so the table is deterministic) and
//! writes a table to `$OUT_DIR/packs.rs`. A new pack file is picked up without any code change.
//!
//! The packs are 5.4 MB of HCL, most of the binary's data: each is embedded as its head (the text
//! up to the first `resource` block after its `pack` header), plain, since every run reads every
//! header, and the rest deflated in chunks of about [`CHUNK`] bytes, each cut where a `resource`
//! block starts, so a lookup inflates only the chunk holding its type's entries: 0.42 MB in all,
//! about what one stream per pack gives, without a plan naming one aws type inflating all 0.8 MB
//! of aws.
//!
//! It also indexes each pack's top-level blocks (a lexical scan: strings, comments, heredocs and
//! braces, no HCL parse), so that a run reads only the entries of the types its plan names
//! (`Knowledge::builtin`): the header's and each `resource` block's byte range, its type and the
//! line it starts on. A pack the scan does not understand (anything but one `pack` header and
//! `resource` blocks, each starting a line; a label with an escape; a template interpolation) is
//! marked to be read whole, so its errors are the parser's. The tests check that every entry
//! read this way equals the whole-file parse.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::PathBuf;

/// Uncompressed bytes per deflated chunk (a chunk ends at the first `resource` block starting
/// past it): 64 KiB inflates in well under a millisecond and compresses almost as well as a
/// whole pack.
const CHUNK: usize = 64 * 1024;

/// One top-level block found by [`scan`].
struct Found {
    /// `pack` or `resource`.
    ident: String,
    /// The first label (resource type), for `resource`.
    label: Option<String>,
    start: usize,
    end: usize,
    /// 0-based line of `start`.
    line: usize,
}

/// The top-level blocks of a pack, or `None` when the text is not of the simple shape the
/// index supports (then the pack is read whole at run time).
fn scan(text: &str) -> Option<Vec<Found>> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut line = 0;
    let mut out = Vec::new();
    // Skips a comment or whitespace at `i`; returns false when there is none.
    fn skip_trivia(b: &[u8], i: &mut usize, line: &mut usize) -> bool {
        match b.get(*i) {
            Some(b'\n') => {
                *line += 1;
                *i += 1;
                true
            }
            Some(c) if c.is_ascii_whitespace() => {
                *i += 1;
                true
            }
            Some(b'#') => {
                while b.get(*i).is_some_and(|c| *c != b'\n') {
                    *i += 1;
                }
                true
            }
            Some(b'/') if b.get(*i + 1) == Some(&b'/') => {
                while b.get(*i).is_some_and(|c| *c != b'\n') {
                    *i += 1;
                }
                true
            }
            Some(b'/') if b.get(*i + 1) == Some(&b'*') => {
                *i += 2;
                while *i < b.len() && !(b[*i] == b'*' && b.get(*i + 1) == Some(&b'/')) {
                    if b[*i] == b'\n' {
                        *line += 1;
                    }
                    *i += 1;
                }
                *i += 2;
                true
            }
            _ => false,
        }
    }
    // A quoted string at `i` (on the opening quote): its raw content, `i` after the closing quote.
    // `None` for an unterminated string or one with an interpolation or directive.
    fn string<'t>(t: &'t str, i: &mut usize) -> Option<&'t str> {
        let b = t.as_bytes();
        let start = *i + 1;
        let mut j = start;
        loop {
            match b.get(j)? {
                b'"' => break,
                b'\\' => j += 2,
                b'\n' => return None,
                b'$' | b'%' if b.get(j + 1) == Some(&b'{') => {
                    if b.get(j.wrapping_sub(1)) != Some(&b[j]) {
                        return None;
                    }
                    j += 2;
                }
                _ => j += 1,
            }
        }
        *i = j + 1;
        t.get(start..j)
    }
    while i < b.len() {
        if skip_trivia(b, &mut i, &mut line) {
            continue;
        }
        // A top-level block: it must start a line.
        if i > 0 && b[i - 1] != b'\n' {
            return None;
        }
        let start = i;
        let start_line = line;
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            i += 1;
        }
        let ident = text.get(start..i)?.to_string();
        if ident != "pack" && ident != "resource" {
            return None;
        }
        let mut label = None;
        // Labels, then the opening brace.
        loop {
            if skip_trivia(b, &mut i, &mut line) {
                continue;
            }
            match b.get(i)? {
                b'"' => {
                    let l = string(text, &mut i)?;
                    if l.contains('\\') {
                        return None;
                    }
                    if label.is_none() {
                        label = Some(l.to_string());
                    }
                }
                b'{' => break,
                _ => return None,
            }
        }
        // The body: braces counted outside strings, comments and heredocs.
        let mut depth = 0usize;
        loop {
            if skip_trivia(b, &mut i, &mut line) {
                continue;
            }
            match b.get(i)? {
                b'{' => {
                    depth += 1;
                    i += 1;
                }
                b'}' => {
                    depth -= 1;
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'"' => {
                    string(text, &mut i)?;
                }
                b'<' if b.get(i + 1) == Some(&b'<') => {
                    i += 2;
                    if b.get(i) == Some(&b'-') {
                        i += 1;
                    }
                    let id_start = i;
                    while b
                        .get(i)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                    {
                        i += 1;
                    }
                    let id = text.get(id_start..i)?;
                    if id.is_empty() || b.get(i) != Some(&b'\n') {
                        return None;
                    }
                    // Lines until one that is the identifier alone.
                    loop {
                        i += 1;
                        line += 1;
                        let end = text.get(i..)?.find('\n').map_or(b.len(), |n| i + n);
                        let l = text.get(i..end)?;
                        if l.contains("${") || l.contains("%{") {
                            return None;
                        }
                        i = end;
                        if l.trim() == id {
                            break;
                        }
                        if i >= b.len() {
                            return None;
                        }
                    }
                }
                _ => i += 1,
            }
        }
        out.push(Found {
            ident,
            label,
            start,
            end: i,
            line: start_line,
        });
    }
    let headers = out.iter().filter(|f| f.ident == "pack").count();
    (headers == 1 && out.iter().all(|f| f.ident == "pack" || f.label.is_some())).then_some(out)
}

fn main() -> io::Result<()> {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let packs_dir = manifest_dir.join("packs");
    println!("cargo:rerun-if-changed=packs");

    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if packs_dir.is_dir() {
        for entry in fs::read_dir(&packs_dir)? {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("hcl") || !path.is_file() {
                continue;
            }
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                return Err(io::Error::other(format!(
                    "pack file name is not UTF-8: {}",
                    path.display()
                )));
            };
            println!("cargo:rerun-if-changed={}", path.display());
            files.push((name.to_string(), path.clone()));
        }
    }
    files.sort();

    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    let z_dir = out_dir.join("packs");
    fs::create_dir_all(&z_dir)?;
    let mut out = String::from(
        "/// Every embedded pack file, sorted by file name: its plain head and deflated chunks.\n\
         pub(crate) static EMBEDDED_PACKS: &[File] = &[\n",
    );
    // (type, pack index, start, end, line) of every indexed resource block.
    let mut entries: Vec<(String, usize, usize, usize, usize)> = Vec::new();
    let mut index_table = String::from(
        "/// Per embedded pack (same order): its header block, or `None` when the pack is read whole.\n\
         pub(crate) static PACK_INDEX: &[Option<Header>] = &[\n",
    );
    for (index, (name, path)) in files.iter().enumerate() {
        let text = fs::read_to_string(path)?;
        // Where the plain head ends and the deflated chunks begin.
        let mut head_end = 0;
        let mut cuts: Vec<usize> = Vec::new();
        match scan(text.strip_prefix('\u{feff}').unwrap_or(&text)) {
            Some(found) if !text.starts_with('\u{feff}') => {
                let mut header = None;
                let mut count = 0;
                let mut starts = Vec::new();
                for f in found {
                    match f.label {
                        Some(label) if f.ident == "resource" => {
                            count += 1;
                            starts.push(f.start);
                            entries.push((label, index, f.start, f.end, f.line));
                        }
                        _ => header = Some((f.start, f.end, f.line)),
                    }
                }
                match header {
                    Some((start, end, line)) => {
                        head_end = starts
                            .iter()
                            .copied()
                            .find(|s| *s >= end)
                            .unwrap_or(text.len());
                        for s in starts {
                            if s > head_end && s - cuts.last().copied().unwrap_or(head_end) >= CHUNK
                            {
                                cuts.push(s);
                            }
                        }
                        let _ = writeln!(
                            index_table,
                            "    Some(Header {{ block: Block {{ start: {start}, end: {end}, line: {line} }}, entries: {count} }}),"
                        );
                    }
                    None => index_table.push_str("    None,\n"),
                }
            }
            _ => index_table.push_str("    None,\n"),
        }
        // Deflate [head_end, cut1), [cut1, cut2), ... [cutN, len) into one file, back to back.
        let mut bounds = vec![head_end];
        bounds.extend(cuts);
        bounds.push(text.len());
        let mut z: Vec<u8> = Vec::new();
        let mut chunks = String::new();
        for pair in bounds.windows(2) {
            let (at, to) = (pair[0], pair[1]);
            if at >= to {
                continue;
            }
            let Some(part) = text.get(at..to) else {
                return Err(io::Error::other(format!(
                    "{}: a chunk boundary at byte {at} is not a character boundary",
                    path.display()
                )));
            };
            let packed = miniz_oxide::deflate::compress_to_vec(part.as_bytes(), 9);
            let _ = write!(
                chunks,
                "Chunk {{ at: {at}, len: {}, z: {}..{} }}, ",
                to - at,
                z.len(),
                z.len() + packed.len()
            );
            z.extend_from_slice(&packed);
        }
        let z_file = z_dir.join(format!("{name}.z"));
        fs::write(&z_file, &z)?;
        let head = text.get(..head_end).unwrap_or_default();
        let _ = writeln!(
            out,
            "    File {{ name: {name:?}, head: {head:?}, deflated: include_bytes!({:?}), chunks: &[{chunks}] }},",
            z_file.display().to_string()
        );
    }
    out.push_str("];\n");
    index_table.push_str("];\n");
    out.push_str(&index_table);
    entries.sort();
    // The types back to back, each once; entries name theirs by its byte range (plain numbers,
    // no pointers to relocate at load).
    let mut names = String::new();
    out.push_str(
        "/// Every indexed `resource` block, sorted by type, pack, position.\n\
         pub(crate) static ENTRIES: &[Entry] = &[\n",
    );
    let mut last: Option<(&str, usize, usize)> = None;
    for (label, pack, start, end, line) in &entries {
        let (from, to) = match last {
            Some((l, from, to)) if l == label.as_str() => (from, to),
            _ => {
                let from = names.len();
                names.push_str(label);
                (from, names.len())
            }
        };
        last = Some((label, from, to));
        let _ = writeln!(
            out,
            "    Entry {{ name: ({from}, {to}), pack: {pack}, block: Block {{ start: {start}, end: {end}, line: {line} }} }},"
        );
    }
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "/// The types of [`ENTRIES`], back to back.\npub(crate) static NAMES: &str = {names:?};"
    );
    // The index's numbers are u32: refuse a pack that would not fit.
    if entries
        .iter()
        .any(|(_, _, _, end, line)| u32::try_from(*end).is_err() || u32::try_from(*line).is_err())
        || u32::try_from(names.len()).is_err()
    {
        return Err(io::Error::other("a pack is larger than 4 GiB"));
    }

    fs::write(out_dir.join("packs.rs"), out)
}
