//! `--resolve`: classify git refs by asking the remote (`git ls-remote`), with a cache.
//!
//! Each remote is asked once per run; answers are also cached on disk (one file per URL under
//! the cache directory) for [`Resolver::TTL_SECS`], so repeated runs stay fast and work offline
//! within that window. git is run with prompts disabled, so a remote that needs credentials
//! fails instead of hanging, and through [`ward_exec`] with a timeout
//! ([`Resolver::DEFAULT_TIMEOUT`], `--resolve-timeout`), so an unreachable one fails too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use ward_repo::RefKind;

/// Asks remotes what their refs are.
#[derive(Debug)]
pub struct Resolver {
    cache_dir: Option<PathBuf>,
    memo: BTreeMap<String, Result<String, String>>,
    timeout: Duration,
}

impl Resolver {
    /// How long a cached answer is used.
    pub const TTL_SECS: u64 = 24 * 3600;

    /// How long one `git ls-remote` may take unless [`Resolver::with_timeout`] says otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    /// The most `git ls-remote` may print (bytes per stream): 16 MiB.
    const OUTPUT_CAP: u64 = 16 << 20;

    /// A resolver caching under `cache_dir` (none: memory only).
    pub fn new(cache_dir: Option<PathBuf>) -> Resolver {
        Resolver {
            cache_dir,
            memo: BTreeMap::new(),
            timeout: Self::DEFAULT_TIMEOUT,
        }
    }

    /// The same resolver, giving each `git ls-remote` `timeout`.
    pub fn with_timeout(mut self, timeout: Duration) -> Resolver {
        self.timeout = timeout;
        self
    }

    /// The default cache directory in the cache directory the caller computed (ward-cli's
    /// `context::BaseDirs::cache_dir`: `XDG_CACHE_HOME`, else `HOME/.cache`; this crate reads
    /// no environment): `CACHE_DIR/ward/ls-remote`.
    pub fn default_cache_dir(cache_dir: &Path) -> PathBuf {
        cache_dir.join("ward").join("ls-remote")
    }

    fn cache_file(&self, url: &str) -> Option<PathBuf> {
        // FNV-1a (64 bits): a stable file name per URL.
        let mut hasher = fnv::FnvHasher::default();
        std::hash::Hasher::write(&mut hasher, url.as_bytes());
        let h = std::hash::Hasher::finish(&hasher);
        self.cache_dir.as_ref().map(|d| d.join(format!("{h:016x}")))
    }

    fn ls_remote(&mut self, url: &str) -> Result<String, String> {
        if let Some(r) = self.memo.get(url) {
            return r.clone();
        }
        let cached = self.cache_file(url).and_then(|f| {
            let meta = std::fs::metadata(&f).ok()?;
            let age = SystemTime::now()
                .duration_since(meta.modified().ok()?)
                .unwrap_or(Duration::ZERO);
            if age.as_secs() > Self::TTL_SECS {
                return None;
            }
            let text = std::fs::read_to_string(&f).ok()?;
            let (first, rest) = text.split_once('\n')?;
            (first == url).then(|| rest.to_string())
        });
        let result = match cached {
            Some(t) => Ok(t),
            None => {
                let out = ward_exec::Command::new("git", self.timeout)
                    .args(["ls-remote", "--heads", "--tags", "--", url])
                    .env("GIT_TERMINAL_PROMPT", "0")
                    .env("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
                    .output_cap(Self::OUTPUT_CAP)
                    .timeout_hint(
                        "is the remote reachable? raise the limit with --resolve-timeout SECONDS",
                    )
                    .run()
                    .and_then(ward_exec::Output::require_whole)
                    .map_err(|e| e.to_string())?;
                if out.success() {
                    let text = out.stdout_text();
                    if let Some(f) = self.cache_file(url) {
                        if let Some(d) = f.parent() {
                            let _ = std::fs::create_dir_all(d);
                        }
                        // A cache that cannot be written only costs time.
                        let _ = ward_fs::write_atomic(
                            &f,
                            format!("{url}\n{text}").as_bytes(),
                            ward_fs::Mode::Private,
                        );
                    }
                    Ok(text)
                } else {
                    Err(format!(
                        "git ls-remote {url}: {}",
                        out.stderr_text().lines().next().unwrap_or("failed")
                    ))
                }
            }
        };
        self.memo.insert(url.to_string(), result.clone());
        result
    }

    /// Classifies `r` on the remote `url`: a branch (`refs/heads/r`), a tag (`refs/tags/r`), or a
    /// commit (hexadecimal, not a branch or tag name). `Err` when the remote cannot be asked or
    /// has no such ref.
    pub fn classify(&mut self, url: &str, r: &str) -> Result<RefKind, String> {
        let listing = self.ls_remote(url)?;
        let mut is_tag = false;
        let mut is_branch = false;
        for line in listing.lines() {
            let Some((_, name)) = line.split_once('\t') else {
                continue;
            };
            let name = name.trim_end_matches("^{}");
            if name == format!("refs/heads/{r}") || name == r && r.starts_with("refs/heads/") {
                is_branch = true;
            }
            if name == format!("refs/tags/{r}") || name == r && r.starts_with("refs/tags/") {
                is_tag = true;
            }
        }
        if is_branch {
            Ok(RefKind::Branch)
        } else if is_tag {
            Ok(RefKind::Tag)
        } else if r.len() >= 7 && r.chars().all(|c| c.is_ascii_hexdigit()) {
            Ok(RefKind::Commit)
        } else {
            Err(format!("{url} has no branch or tag named \"{r}\""))
        }
    }
}
