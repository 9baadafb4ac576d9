//! Backups under `stack.backup_dir`: where it may lie (outside the checkout), owner-only
//! directories that never follow a link, and the verified state backup written before a destroy.

use crate::order::Instance;
use crate::report::Backup;
use crate::{usage, Options, StackError};
use std::path::{Path, PathBuf};

/// The checkout a directory belongs to: the nearest ancestor holding `.git`, else itself.
fn checkout_of(dir: &Path) -> PathBuf {
    let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut p: &Path = &start;
    loop {
        if p.join(".git").exists() {
            return p.to_path_buf();
        }
        match p.parent() {
            Some(q) => p = q,
            None => return start,
        }
    }
}

/// Where `p` really lands: its nearest existing ancestor resolved through symlinks, then the
/// rest of it.
pub(crate) fn resolve(p: &Path) -> PathBuf {
    let mut tail: Vec<std::ffi::OsString> = Vec::new();
    let mut cur = p.to_path_buf();
    loop {
        if let Ok(real) = std::fs::canonicalize(&cur) {
            let mut out = real;
            for t in tail.iter().rev() {
                out.push(t);
            }
            return out;
        }
        match (cur.file_name().map(|f| f.to_os_string()), cur.parent()) {
            (Some(f), Some(parent)) => {
                tail.push(f);
                cur = parent.to_path_buf();
            }
            _ => return p.to_path_buf(),
        }
    }
}

/// `stack.backup_dir`, which must be set and lie outside the checkout.
pub(crate) fn backup_dir(opts: &Options) -> Result<PathBuf, StackError> {
    let Some(b) = &opts.config.stack.backup_dir else {
        return Err(usage(format!(
            "{}: `stack {{ backup_dir = ... }}` is not set: ward stack keeps a backup of every root's state before any destroy, outside the repository; set it to a directory outside the checkout",
            opts.config.file
        )));
    };
    let checkout = checkout_of(&opts.repo);
    let real = resolve(b);
    if real.starts_with(&checkout) {
        return Err(usage(format!(
            "{}:{}: stack.backup_dir {} lies inside the checkout {}: a backup in a checkout is lost with it (a re-clone, or a CI workspace wiped between jobs); set it to a directory outside the repository",
            opts.config.file,
            opts.config.stack.line,
            b.display(),
            checkout.display()
        )));
    }
    Ok(real)
}

/// Creates (0700) `base/<part>/<part>...` one component at a time and returns it, never
/// following a symlink below `base`: a component that exists as a link, or as anything but a
/// directory, is refused. `base` is the resolved `stack.backup_dir`, checked to lie outside the
/// checkout; without this, a link planted at `backup_dir/<root>` sent the "verified backup
/// outside the checkout" back into it.
pub(crate) fn private_dir_under(base: &Path, parts: &[&str]) -> Result<PathBuf, String> {
    use std::os::unix::fs::DirBuilderExt;
    private_dir(base)?;
    let mut d = base.to_path_buf();
    for part in parts {
        d.push(part);
        let mut created = false;
        loop {
            match std::fs::symlink_metadata(&d) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(format!(
                        "{} is a symbolic link: ward keeps backups and pending plans only in real directories under stack.backup_dir; remove the link",
                        d.display()
                    ))
                }
                Ok(m) if m.is_dir() => break,
                Ok(_) => {
                    return Err(format!(
                        "{} is not a directory: remove it, or set stack.backup_dir elsewhere",
                        d.display()
                    ))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && !created => {
                    created = true;
                    match std::fs::DirBuilder::new().mode(0o700).create(&d) {
                        // Made now, or by another ward at the same moment: looked at again.
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                        Err(e) => return Err(format!("cannot create {}: {e}", d.display())),
                    }
                }
                Err(e) => return Err(format!("cannot inspect {}: {e}", d.display())),
            }
        }
    }
    Ok(d)
}

/// Creates a directory (and its parents) readable by its owner only.
fn private_dir(d: &Path) -> Result<(), String> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(d)
        .map_err(|e| format!("cannot create {}: {e}", d.display()))
}

/// A root, site or lineage as one path component under `backup_dir`: letters, digits, `-`, `_`
/// and `.` kept, anything else (`/` included) written `_`, and never `.` or `..`.
pub(crate) fn safe_name(x: &str) -> String {
    let s: String = x
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        s.replace('.', "_") + "_"
    } else {
        s
    }
}

/// Writes the pulled state to `dir/<root>/<site>/<serial>-<lineage>-<sha256>.tfstate`
/// (atomic, owner-only), then reads it back and compares.
pub(crate) fn backup(
    dir: &Path,
    inst: &Instance,
    s: &ward_terraform::PulledState,
) -> Result<Backup, String> {
    let Some(info) = &s.info else {
        return Err("the state is empty: nothing to back up".into());
    };
    if s.bytes.is_empty() {
        return Err("`state pull` printed nothing: the backup would be empty; stopping".into());
    }
    let hex = s.sha256.trim_start_matches("sha256:");
    let safe = safe_name;
    let name = format!("{}-{}-{hex}.tfstate", info.serial, safe(&info.lineage));
    let shown = dir
        .join(safe(&inst.root))
        .join(safe(&inst.site.name))
        .join(&name);
    let fail = |e: String| {
        format!(
            "cannot write the state backup {}: {e}; nothing was destroyed. Make stack.backup_dir writable, then `ward stack resume`",
            shown.display()
        )
    };
    let p = private_dir_under(dir, &[&safe(&inst.root), &safe(&inst.site.name)])
        .map_err(fail)?
        .join(&name);
    ward_fs::write_atomic(&p, &s.bytes, ward_fs::Mode::Private).map_err(|e| fail(e.to_string()))?;
    let back = std::fs::read(&p).map_err(|e| fail(e.to_string()))?;
    let sha = ward_terraform::sha256(&back);
    if sha != s.sha256 {
        return Err(fail(format!(
            "read back as {sha}, not the {} `state pull` printed",
            s.sha256
        )));
    }
    Ok(Backup {
        path: p.display().to_string(),
        sha256: sha,
        serial: info.serial,
        lineage: info.lineage.clone(),
    })
}
