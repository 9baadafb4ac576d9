//! Reading a code forge: what `ward gate --approvals-from` needs of a pull request (its head
//! commit, its author, its reviews and its comments) and the members of the teams a
//! `reviewers` block names.
//!
//! One blocking HTTP client (ureq, rustls) with a timeout on every request, pagination through
//! `Link: <...>; rel="next"` headers (only to the same API base, so the token never leaves it),
//! and a typed error for everything that is not a plain answer: the forge unreachable, a rate
//! limit, a missing permission, an unknown team. Callers fail closed on every error.
//!
//! This crate reads no environment: the caller passes the API base and the token
//! ([`Options`]). The token is sent in the `Authorization` header only, never in a URL, and no
//! error quotes it.
//!
//! GitHub's REST API and GitLab's (v4) are read. GitLab's approvals carry no commit; see
//! [`Client::pull_request`] for how one is bound to the commit its approver saw (the merge
//! request's versions), and why the project must reset approvals on push.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod gitlab;

use gitlab::GlUser;
use serde::Deserialize;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The API base of github.com, for a source whose caller gives none.
pub const GITHUB_API: &str = "https://api.github.com";

/// The API base of gitlab.com, for a `gitlab:` source whose caller gives none.
pub const GITLAB_API: &str = "https://gitlab.com/api/v4";

/// The system note GitLab adds when someone approves a merge request.
pub const GITLAB_APPROVED_NOTE: &str = "approved this merge request";

/// The default timeout of one request.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);

/// The most pages one listing reads (100 entries a page) before it is refused as too long.
pub const MAX_PAGES: usize = 50;

/// The largest response body read, per page.
const MAX_BODY: u64 = 8 * 1024 * 1024;

/// Which forge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// GitHub (github.com or GitHub Enterprise Server).
    GitHub,
    /// GitLab.
    GitLab,
}

impl Kind {
    /// Its prefix in a source (`github`, `gitlab`).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::GitHub => "github",
            Kind::GitLab => "gitlab",
        }
    }
}

/// A pull (merge) request: `github:OWNER/REPO#NUMBER` or `gitlab:GROUP/PROJECT!IID`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The forge.
    pub kind: Kind,
    /// `OWNER/REPO` (GitHub) or `GROUP/.../PROJECT` (GitLab).
    pub project: String,
    /// The pull request's number (merge request's iid).
    pub number: u64,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = match self.kind {
            Kind::GitHub => '#',
            Kind::GitLab => '!',
        };
        write!(
            f,
            "{}:{}{sep}{}",
            self.kind.as_str(),
            self.project,
            self.number
        )
    }
}

impl FromStr for Source {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let help = "write github:OWNER/REPO#NUMBER or gitlab:GROUP/PROJECT!IID";
        let (kind, rest, sep) = if let Some(r) = s.strip_prefix("github:") {
            (Kind::GitHub, r, '#')
        } else if let Some(r) = s.strip_prefix("gitlab:") {
            (Kind::GitLab, r, '!')
        } else {
            return Err(format!("`{s}` names no forge; {help}"));
        };
        let (project, number) = rest
            .rsplit_once(sep)
            .ok_or_else(|| format!("`{s}` names no request number after `{sep}`; {help}"))?;
        let number: u64 = number
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("`{number}` in `{s}` is not a request number; {help}"))?;
        let parts: Vec<&str> = project.split('/').collect();
        let ok = match kind {
            Kind::GitHub => parts.len() == 2,
            Kind::GitLab => parts.len() >= 2,
        } && parts.iter().all(|p| {
            !p.is_empty()
                && p != &"."
                && p != &".."
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        });
        if !ok {
            return Err(format!(
                "`{project}` in `{s}` is not a project path; {help}"
            ));
        }
        Ok(Source {
            kind,
            project: project.to_string(),
            number,
        })
    }
}

/// A review's state, as the forge reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewState {
    /// Approved.
    Approved,
    /// Changes requested.
    ChangesRequested,
    /// A comment only (neither approves nor withdraws an approval).
    Commented,
    /// Dismissed (withdraws the reviewer's earlier approval).
    Dismissed,
    /// Not submitted yet.
    Pending,
}

/// One review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    /// The reviewer's login.
    pub by: String,
    /// Its state.
    pub state: ReviewState,
    /// The commit the review was made at (`None` when the forge does not say).
    pub commit: Option<String>,
    /// When it was submitted (RFC 3339); `None` for a pending review.
    pub submitted_at: Option<String>,
}

/// One comment on the pull request's conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// Its author's login.
    pub by: String,
    /// Its text.
    pub body: String,
    /// When it was last edited (RFC 3339).
    pub updated_at: String,
}

/// What a pull request says about itself, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRequest {
    /// The source it was read from.
    pub source: Source,
    /// The head commit now.
    pub head: String,
    /// Its author's login.
    pub author: String,
    /// Every review, oldest first.
    pub reviews: Vec<Review>,
    /// Every comment, oldest first.
    pub comments: Vec<Comment>,
}

/// Why the forge could not be read. Every one is a refusal for the gate, never a pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForgeError {
    /// No answer: connection refused, DNS, TLS or a timeout.
    #[error("the forge at {base} could not be reached ({message}); approvals cannot be read, so nothing is approved: retry when it is reachable")]
    Unreachable {
        /// The API base.
        base: String,
        /// What failed.
        message: String,
    },
    /// HTTP 429, or 403 with no requests left.
    #[error("the forge refused {what}: rate limit reached (HTTP {status}{reset}); approvals cannot be read, so nothing is approved: retry later, or use a token with a higher limit")]
    RateLimited {
        /// What was being read.
        what: String,
        /// The status.
        status: u16,
        /// `, resets at EPOCH` when the forge said.
        reset: String,
    },
    /// HTTP 401 or 403: the token is missing, wrong or lacks a permission.
    #[error("the forge refused {what} (HTTP {status}): {hint}")]
    Denied {
        /// What was being read.
        what: String,
        /// The status.
        status: u16,
        /// What to do.
        hint: String,
    },
    /// HTTP 404: the pull request, repository or team does not exist (or the token cannot see
    /// it).
    #[error("{what} was not found on the forge (HTTP 404): check the name, and that the token can read it")]
    NotFound {
        /// What was being read.
        what: String,
    },
    /// Any other status.
    #[error("the forge answered HTTP {status} for {what}")]
    Status {
        /// What was being read.
        what: String,
        /// The status.
        status: u16,
    },
    /// The answer was not what the API documents.
    #[error("the forge's answer for {what} could not be read: {message}")]
    Malformed {
        /// What was being read.
        what: String,
        /// What was wrong.
        message: String,
    },
    /// Not supported yet.
    #[error("{0}")]
    Unsupported(String),
}

/// How to reach the forge.
#[derive(Clone)]
pub struct Options {
    /// The API base (`https://api.github.com`, a GitHub Enterprise `https://HOST/api/v3`, a
    /// test's loopback server), without a trailing `/`.
    pub base: String,
    /// The token; sent as `Authorization: Bearer`. `None`: anonymous (public repositories, low
    /// rate limit).
    pub token: Option<String>,
    /// The timeout of each request.
    pub timeout: Duration,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("base", &self.base)
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// A client of one forge.
pub struct Client {
    kind: Kind,
    agent: ureq::Agent,
    options: Options,
}

impl Client {
    /// A client of `kind` with `options`.
    pub fn new(kind: Kind, mut options: Options) -> Client {
        while options.base.ends_with('/') {
            options.base.pop();
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(options.timeout))
            .http_status_as_error(false)
            // A redirect could carry the token elsewhere: none is followed.
            .max_redirects(0)
            .build()
            .into();
        Client {
            kind,
            agent,
            options,
        }
    }

    /// The API base it reads.
    pub fn base(&self) -> &str {
        &self.options.base
    }

    /// The forge it reads.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Reads the pull request `source`: head, author, every review and comment.
    ///
    /// A GitLab merge request's approvals ([`Client::gitlab_merge_request`]) are read as
    /// approving reviews bound to the commit of the merge-request version current when each was
    /// given.
    pub fn pull_request(&self, source: &Source) -> Result<PullRequest, ForgeError> {
        if self.kind != source.kind {
            return Err(ForgeError::Unsupported(format!(
                "{source}: this client reads {}, not {}",
                self.kind.as_str(),
                source.kind.as_str()
            )));
        }
        if source.kind == Kind::GitLab {
            return self.gitlab_merge_request(source);
        }
        let repo = format!("/repos/{}", source.project);
        let what = format!("pull request {source}");
        let pr: GhPull = self.get_one(&format!("{repo}/pulls/{}", source.number), &what)?;
        let reviews: Vec<GhReview> = self.get_all(
            &format!("{repo}/pulls/{}/reviews", source.number),
            &format!("the reviews of {source}"),
        )?;
        let comments: Vec<GhComment> = self.get_all(
            &format!("{repo}/issues/{}/comments", source.number),
            &format!("the comments of {source}"),
        )?;
        Ok(PullRequest {
            source: source.clone(),
            head: pr.head.sha,
            author: pr.user.login,
            reviews: reviews
                .into_iter()
                .filter_map(|r| {
                    Some(Review {
                        by: r.user?.login,
                        state: match r.state.as_str() {
                            "APPROVED" => ReviewState::Approved,
                            "CHANGES_REQUESTED" => ReviewState::ChangesRequested,
                            "DISMISSED" => ReviewState::Dismissed,
                            "PENDING" => ReviewState::Pending,
                            _ => ReviewState::Commented,
                        },
                        commit: r.commit_id,
                        submitted_at: r.submitted_at,
                    })
                })
                .collect(),
            comments: comments
                .into_iter()
                .filter_map(|c| {
                    Some(Comment {
                        by: c.user?.login,
                        body: c.body.unwrap_or_default(),
                        updated_at: c.updated_at,
                    })
                })
                .collect(),
        })
    }

    /// The logins of team `org/slug`'s members (GitHub: the token needs `read:org`). An
    /// unknown team is [`ForgeError::NotFound`].
    pub fn team_members(&self, team: &str) -> Result<Vec<String>, ForgeError> {
        let Some((org, slug)) = team.split_once('/') else {
            return Err(ForgeError::NotFound {
                what: format!("team @{team}"),
            });
        };
        if self.kind == Kind::GitLab {
            // `@group/subgroup`: every member, inherited ones included.
            let members: Vec<GlUser> = self.get_all(
                &format!("/groups/{}/members/all", encode_path(team)),
                &format!("group @{team}"),
            )?;
            let mut out: Vec<String> = members.into_iter().map(|u| u.username).collect();
            out.sort();
            out.dedup();
            return Ok(out);
        }
        let members: Vec<GhUser> = self.get_all(
            &format!("/orgs/{org}/teams/{slug}/members"),
            &format!("team @{team}"),
        )?;
        let mut out: Vec<String> = members.into_iter().map(|u| u.login).collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    fn get_one<T: for<'de> Deserialize<'de>>(
        &self,
        path: &str,
        what: &str,
    ) -> Result<T, ForgeError> {
        let (text, _) = self.get(&format!("{}{path}", self.options.base), what)?;
        serde_json::from_str(&text).map_err(|e| ForgeError::Malformed {
            what: what.to_string(),
            message: e.to_string(),
        })
    }

    /// Every page of a listing, following `rel="next"` links within the API base.
    fn get_all<T: for<'de> Deserialize<'de>>(
        &self,
        path: &str,
        what: &str,
    ) -> Result<Vec<T>, ForgeError> {
        let sep = if path.contains('?') { '&' } else { '?' };
        let mut url = format!("{}{path}{sep}per_page=100", self.options.base);
        let mut out = Vec::new();
        for _ in 0..MAX_PAGES {
            let (text, next) = self.get(&url, what)?;
            let page: Vec<T> = serde_json::from_str(&text).map_err(|e| ForgeError::Malformed {
                what: what.to_string(),
                message: e.to_string(),
            })?;
            out.extend(page);
            match next {
                None => return Ok(out),
                Some(n) if n.starts_with(&format!("{}/", self.options.base)) => url = n,
                Some(_) => {
                    return Err(ForgeError::Malformed {
                        what: what.to_string(),
                        message: "its next page is outside the API base (not followed, so the token stays with the forge)".into(),
                    })
                }
            }
        }
        Err(ForgeError::Malformed {
            what: what.to_string(),
            message: format!("more than {MAX_PAGES} pages"),
        })
    }

    /// One GET: the body and the `rel="next"` link.
    fn get(&self, url: &str, what: &str) -> Result<(String, Option<String>), ForgeError> {
        let mut req = self
            .agent
            .get(url)
            .header("User-Agent", concat!("ward/", env!("CARGO_PKG_VERSION")));
        req = match self.kind {
            Kind::GitHub => req
                .header("Accept", "application/vnd.github+json")
                .header("X-GitHub-Api-Version", "2022-11-28"),
            Kind::GitLab => req.header("Accept", "application/json"),
        };
        if let Some(t) = &self.options.token {
            req = req.header("Authorization", format!("Bearer {t}"));
        }
        let mut resp = req.call().map_err(|e| ForgeError::Unreachable {
            base: self.options.base.clone(),
            message: self.scrub(&e.to_string()),
        })?;
        let status = resp.status().as_u16();
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let remaining = header("x-ratelimit-remaining").or_else(|| header("ratelimit-remaining"));
        let reset = header("x-ratelimit-reset").or_else(|| header("ratelimit-reset"));
        // GitLab sends `Link` and `X-Next-Page` (only the latter past 10,000 rows).
        let next = header("link").and_then(|l| next_link(&l)).or_else(|| {
            header("x-next-page")
                .filter(|p| !p.is_empty())
                .and_then(|p| p.parse::<u32>().ok())
                .map(|p| with_page(url, p))
        });
        let what = what.to_string();
        match status {
            200..=299 => {}
            429 | 403 if status == 429 || remaining.as_deref() == Some("0") => {
                return Err(ForgeError::RateLimited {
                    what,
                    status,
                    reset: reset
                        .map(|r| format!(", resets at {r}"))
                        .unwrap_or_default(),
                })
            }
            401 | 403 => {
                let hint = match (self.kind, self.options.token.is_none()) {
                    (Kind::GitHub, true) => "no token was given: set GITHUB_TOKEN".to_string(),
                    (Kind::GitHub, false) => "the token is wrong, expired, or lacks a permission (reviews need pull-request read access, teams need read:org)".to_string(),
                    (Kind::GitLab, true) => "no token was given: set GITLAB_TOKEN".to_string(),
                    (Kind::GitLab, false) => "the token is wrong, expired, or lacks a permission (it needs the read_api scope, and at least Reporter access to the project)".to_string(),
                };
                return Err(ForgeError::Denied { what, status, hint });
            }
            404 => return Err(ForgeError::NotFound { what }),
            _ => return Err(ForgeError::Status { what, status }),
        }
        let text = resp
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_string()
            .map_err(|e| ForgeError::Malformed {
                what: what.clone(),
                message: self.scrub(&e.to_string()),
            })?;
        Ok((text, next))
    }

    /// A message with the token, should it appear, removed.
    fn scrub(&self, s: &str) -> String {
        match &self.options.token {
            Some(t) if !t.is_empty() => s.replace(t.as_str(), "(token)"),
            _ => s.to_string(),
        }
    }
}

/// `url` with its `page` query parameter set to `page` (added when absent).
fn with_page(url: &str, page: u32) -> String {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut parts: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("page="))
        .map(str::to_string)
        .collect();
    parts.push(format!("page={page}"));
    format!("{path}?{}", parts.join("&"))
}

/// A GitLab project or group path as one URL path segment (`group/sub/project` →
/// `group%2Fsub%2Fproject`); [`Source`] already refused every other character that would need
/// escaping.
fn encode_path(p: &str) -> String {
    p.replace('/', "%2F")
}

/// The `rel="next"` target of a `Link` header.
pub fn next_link(header: &str) -> Option<String> {
    header.split(',').find_map(|part| {
        let (url, params) = part.split_once(';')?;
        let is_next = params.split(';').any(|p| {
            let p = p.trim();
            p == "rel=\"next\"" || p == "rel=next"
        });
        let url = url.trim().strip_prefix('<')?.strip_suffix('>')?;
        is_next.then(|| url.to_string())
    })
}

#[derive(Deserialize)]
struct GhUser {
    login: String,
}

#[derive(Deserialize)]
struct GhHead {
    sha: String,
}

#[derive(Deserialize)]
struct GhPull {
    head: GhHead,
    user: GhUser,
}

#[derive(Deserialize)]
struct GhReview {
    user: Option<GhUser>,
    state: String,
    commit_id: Option<String>,
    submitted_at: Option<String>,
}

#[derive(Deserialize)]
struct GhComment {
    user: Option<GhUser>,
    body: Option<String>,
    /// Not needed to evaluate reviews (a listing carries its own time): absent is empty.
    #[serde(default)]
    updated_at: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_and_print() {
        let s: Source = "github:acme/infra#42".parse().unwrap();
        assert_eq!(
            (s.kind, s.project.as_str(), s.number),
            (Kind::GitHub, "acme/infra", 42)
        );
        assert_eq!(s.to_string(), "github:acme/infra#42");
        let g: Source = "gitlab:grp/sub/proj!7".parse().unwrap();
        assert_eq!(
            (g.kind, g.project.as_str(), g.number),
            (Kind::GitLab, "grp/sub/proj", 7)
        );
        for bad in [
            "acme/infra#42",
            "github:acme/infra",
            "github:acme#4",
            "github:acme/infra#0",
            "github:acme/infra#x",
            "github:acme/../x#1",
            "github:a/b/c#1",
        ] {
            assert!(bad.parse::<Source>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_next_link_is_found_among_others() {
        let h = r#"<https://api.x/r?page=1>; rel="prev", <https://api.x/r?page=3>; rel="next", <https://api.x/r?page=9>; rel="last""#;
        assert_eq!(next_link(h).as_deref(), Some("https://api.x/r?page=3"));
        assert_eq!(next_link(r#"<https://api.x/r?page=1>; rel="prev""#), None);
    }

    #[test]
    fn the_token_is_not_in_debug_output() {
        let o = Options {
            base: "http://127.0.0.1:1".into(),
            token: Some("s3cr3t".into()),
            timeout: DEFAULT_TIMEOUT,
        };
        assert!(!format!("{o:?}").contains("s3cr3t"));
    }
}
