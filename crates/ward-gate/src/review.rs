//! Approvals from pull-request reviews (`ward gate --approvals-from github:OWNER/REPO#N`).
//!
//! ward's pull-request comment lists, in a hidden block ([`marker`]), the digest of every change
//! that needs an approval, with the commit and the time it was listed:
//!
//! ```text
//! <!-- ward-review-digests v1
//! listed 3f2a... 2026-12-04T10:00:00Z 9c1e... 77ab...
//! -->
//! ```
//!
//! A review that approves the pull request at commit C, submitted at time T, approves exactly the
//! digests of the latest listing at C made at or before T: what the reviewer saw. It does not
//! count when the head has moved on from C (a push after the review), for a digest that listing
//! does not hold (a new plan), once `policy.approval_expiry` has passed since T, when it is the
//! author's own (unless `reviewers { allow_author = true }`), or when the reviewer's later review
//! requested changes or was dismissed. Who must approve what is `ward.hcl`'s `reviewers` block
//! ([`ward_config::review`]): each `require` block covering a change needs `count` distinct
//! approvers among its `from` (logins, and members of `@org/team` as the forge lists them); a
//! change no block covers needs one approving review from anyone but the author.
//!
//! Reading the forge can fail (unreachable, rate limit, a denied token, an unknown team): every
//! change that needs an approval is then refused with the reason, never approved.

use crate::{ApprovalStatus, GateReport};
use std::collections::{BTreeMap, BTreeSet};
use ward_config::review::{Requirement, Reviewers};
use ward_forge::{Client, ForgeError, PullRequest, ReviewState, Source};
use ward_time::Timestamp;

/// The first line of the hidden block in ward's comment.
pub const MARKER: &str = "<!-- ward-review-digests v1";

/// The most listings a comment carries (the newest are kept).
pub const MAX_LISTINGS: usize = 40;

/// Where reviews are read from: a client (built by the caller, with its token) and the pull
/// request.
pub struct ReviewSource {
    /// The forge client.
    pub client: Client,
    /// The pull request.
    pub source: Source,
}

/// What was read from the forge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviews {
    /// The pull request: head, author, reviews, comments.
    pub pull: PullRequest,
    /// The members of each team the `reviewers` block names (`org/slug` → logins).
    pub teams: BTreeMap<String, BTreeSet<String>>,
}

/// One listing of digests in ward's comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The commit the comment was made at.
    pub commit: String,
    /// When it was listed (RFC 3339).
    pub at: String,
    /// The digests that needed an approval then.
    pub digests: BTreeSet<String>,
}

/// Reads the pull request and every team `reviewers` names.
pub fn read(src: &ReviewSource, reviewers: &Reviewers) -> Result<Reviews, ForgeError> {
    let pull = src.client.pull_request(&src.source)?;
    let mut teams = BTreeMap::new();
    let named: BTreeSet<&str> = reviewers.require.iter().flat_map(|r| r.teams()).collect();
    for t in named {
        let members = src.client.team_members(t)?;
        teams.insert(t.to_string(), members.into_iter().collect());
    }
    Ok(Reviews { pull, teams })
}

/// The listings in the comments `reviewers.comment_author` wrote (every comment's when unset),
/// oldest first, each once.
pub fn listings(pull: &PullRequest, reviewers: &Reviewers) -> Vec<Listing> {
    let mut out: Vec<Listing> = Vec::new();
    for c in &pull.comments {
        if reviewers
            .comment_author
            .as_ref()
            .is_some_and(|a| a != &c.by)
        {
            continue;
        }
        for l in parse(&c.body) {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }
    out.sort_by(|a, b| a.at.cmp(&b.at));
    out
}

/// The listings in one comment's text.
pub fn parse(body: &str) -> Vec<Listing> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in body.lines() {
        let line = line.trim();
        if line == MARKER {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if line == "-->" {
            inside = false;
            continue;
        }
        let mut words = line.split_whitespace();
        if words.next() != Some("listed") {
            continue;
        }
        let (Some(commit), Some(at)) = (words.next(), words.next()) else {
            continue;
        };
        let hexish = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_hexdigit());
        if !hexish(commit) || ward_time::parse_timestamp(at).is_err() {
            continue;
        }
        // A digest: `sha256:` and hex (or bare hex).
        let digestish = |s: &str| {
            let hex = s.rsplit_once(':').map_or(s, |(algo, hex)| {
                if algo.chars().all(|c| c.is_ascii_alphanumeric()) {
                    hex
                } else {
                    ""
                }
            });
            hexish(hex)
        };
        let digests: BTreeSet<String> =
            words.filter(|w| digestish(w)).map(str::to_string).collect();
        out.push(Listing {
            commit: commit.to_string(),
            at: at.to_string(),
            digests,
        });
    }
    out
}

/// The hidden block for ward's comment: the listings already on the pull request and, when it
/// differs from the latest one at the head, the listing of this report's digests at the head.
/// Empty when nothing needs an approval and nothing was listed before.
pub fn marker(reviews: &Reviews, reviewers: &Reviewers, report: &GateReport) -> String {
    let mut all = listings(&reviews.pull, reviewers);
    let now: BTreeSet<String> = report.required.iter().map(|r| r.digest.clone()).collect();
    let latest_at_head = all
        .iter()
        .rev()
        .find(|l| l.commit == reviews.pull.head)
        .map(|l| &l.digests);
    if latest_at_head != Some(&now) && !now.is_empty() {
        all.push(Listing {
            commit: reviews.pull.head.clone(),
            at: report.now.clone(),
            digests: now,
        });
    }
    if all.is_empty() {
        return String::new();
    }
    let skip = all.len().saturating_sub(MAX_LISTINGS);
    let mut s = format!("{MARKER}\n");
    for l in all.iter().skip(skip) {
        s.push_str(&format!("listed {} {}", l.commit, l.at));
        for d in &l.digests {
            s.push(' ');
            s.push_str(d);
        }
        s.push('\n');
    }
    s.push_str("-->\n");
    s
}

/// One reviewer's approval that counts for some digests.
struct Counted<'a> {
    by: &'a str,
    at: Timestamp,
    at_text: &'a str,
    digests: &'a BTreeSet<String>,
}

/// One change the reviews must approve.
#[derive(Debug, Clone, Copy)]
pub struct Wanted<'a> {
    /// Its approval digest (the one ward's comment lists).
    pub digest: &'a str,
    /// Its impact class.
    pub impact: ward_model::Impact,
    /// Its address.
    pub address: &'a str,
}

/// The approving reviews that count (each reviewer's latest decisive one, at the head, after a
/// listing at that commit, not expired) and why each other approval does not.
struct Tally<'a> {
    counted: Vec<Counted<'a>>,
    not_counted: Vec<String>,
}

fn tally<'a>(
    pull: &'a PullRequest,
    all: &'a [Listing],
    reviewers: &Reviewers,
    expiry: Option<std::time::Duration>,
    now: Option<Timestamp>,
) -> Tally<'a> {
    // Each reviewer's latest decisive review (a comment-only or pending review decides nothing).
    let mut latest: BTreeMap<&str, &ward_forge::Review> = BTreeMap::new();
    for r in &pull.reviews {
        if matches!(r.state, ReviewState::Commented | ReviewState::Pending) {
            continue;
        }
        latest.insert(r.by.as_str(), r);
    }
    let mut counted: Vec<Counted<'_>> = Vec::new();
    let mut not_counted: Vec<String> = Vec::new();
    for (by, r) in &latest {
        let short = |c: &str| c.chars().take(12).collect::<String>();
        if r.state != ReviewState::Approved {
            continue;
        }
        let (Some(commit), Some(at_text)) = (r.commit.as_deref(), r.submitted_at.as_deref()) else {
            not_counted.push(format!(
                "{by}: the forge gave no commit or time for the review"
            ));
            continue;
        };
        if *by == pull.author && !reviewers.allow_author {
            not_counted.push(format!(
                "{by}: the pull request's author (reviewers.allow_author is false)"
            ));
            continue;
        }
        if commit != pull.head {
            not_counted.push(format!(
                "{by}: approved at {}, the head is now {} (pushed since: review again)",
                short(commit),
                short(&pull.head)
            ));
            continue;
        }
        let Ok(at) = ward_time::parse_timestamp(at_text) else {
            not_counted.push(format!(
                "{by}: the review's time `{at_text}` is not RFC 3339"
            ));
            continue;
        };
        if let (Some(e), Some(now)) = (expiry, now) {
            match ward_time::add(at, e) {
                Ok(until) if until > now => {}
                _ => {
                    not_counted.push(format!(
                        "{by}: the review of {at_text} has expired (policy.approval_expiry)"
                    ));
                    continue;
                }
            }
        }
        if now.is_some_and(|n| at > n) {
            not_counted.push(format!(
                "{by}: the review's time {at_text} is in the future"
            ));
            continue;
        }
        let seen = all.iter().rev().find(|l| {
            l.commit == commit && ward_time::parse_timestamp(&l.at).is_ok_and(|t| t <= at)
        });
        let Some(seen) = seen else {
            not_counted.push(format!(
                "{by}: no ward comment listed digests at {} before the review",
                short(commit)
            ));
            continue;
        };
        counted.push(Counted {
            by,
            at,
            at_text,
            digests: &seen.digests,
        });
    }
    Tally {
        counted,
        not_counted,
    }
}

/// Settles every change that needs an approval from the reviews (replacing what the approvals
/// file said), or refuses each with `error` when the forge could not be read. `root` is the
/// gated root's path relative to the directory of `ward.hcl` (`None`: unknown). The caller
/// settles the outcome afterwards (guards run only when everything is approved).
pub fn apply(
    report: &mut GateReport,
    reviews: Result<&Reviews, &ForgeError>,
    reviewers: &Reviewers,
    expiry: Option<std::time::Duration>,
    root: Option<&str>,
) {
    let reviews = match reviews {
        Ok(r) => r,
        Err(e) => {
            for r in &mut report.required {
                r.approval = ApprovalStatus::Refused {
                    by: "pull-request reviews".into(),
                    why: e.to_string(),
                };
            }
            return;
        }
    };
    if reviewers.comment_author.is_none() && !report.required.is_empty() {
        report.warnings.push(
            "reviewers.comment_author is not set: a digest list in anyone's comment on the pull request counts; set it to the account that posts ward's comment".into(),
        );
    }
    let now = ward_time::parse_timestamp(&report.now).ok();
    let all = listings(&reviews.pull, reviewers);
    let t = tally(&reviews.pull, &all, reviewers, expiry, now);
    for r in &mut report.required {
        let w = Wanted {
            digest: &r.digest,
            impact: r.impact,
            address: &r.address,
        };
        r.approval = status(w, &t, reviews, reviewers, expiry, root);
    }
}

/// [`apply`] for one change, at `now` (RFC 3339): what the reviews say of it. `ward verify`
/// re-checks a gated change with it ([`crate::verify_reviews`]).
pub fn settle_one(
    wanted: Wanted<'_>,
    reviews: &Reviews,
    reviewers: &Reviewers,
    expiry: Option<std::time::Duration>,
    root: Option<&str>,
    now: &str,
) -> ApprovalStatus {
    let now = ward_time::parse_timestamp(now).ok();
    let all = listings(&reviews.pull, reviewers);
    let t = tally(&reviews.pull, &all, reviewers, expiry, now);
    status(wanted, &t, reviews, reviewers, expiry, root)
}

/// What the counted reviews say of one change.
fn status(
    w: Wanted<'_>,
    t: &Tally<'_>,
    reviews: &Reviews,
    reviewers: &Reviewers,
    expiry: Option<std::time::Duration>,
    root: Option<&str>,
) -> ApprovalStatus {
    let pull = &reviews.pull;
    let approvers: Vec<&Counted<'_>> = t
        .counted
        .iter()
        .filter(|c| c.digests.contains(w.digest))
        .collect();
    let default = Requirement {
        name: "any reviewer".into(),
        impact: BTreeSet::new(),
        address: Vec::new(),
        root: Vec::new(),
        from: Vec::new(),
        count: 1,
        line: 0,
    };
    let mut applies: Vec<&Requirement> = reviewers
        .require
        .iter()
        .filter(|q| q.covers(w.impact, w.address, root))
        .collect();
    if applies.is_empty() {
        applies.push(&default);
    }
    let mut needs = Vec::new();
    let mut who: BTreeSet<&str> = BTreeSet::new();
    for q in &applies {
        let ok: Vec<&str> = approvers
            .iter()
            .filter(|c| q.from.is_empty() || may_approve(q, c.by, &reviews.teams))
            .map(|c| c.by)
            .collect();
        if (ok.len() as u64) < q.count {
            let from = if q.from.is_empty() {
                "anyone but the author".to_string()
            } else {
                q.from.join(", ")
            };
            let have = if ok.is_empty() {
                "none yet".to_string()
            } else {
                format!("have {}: {}", ok.len(), ok.join(", "))
            };
            needs.push(format!(
                "`{}` needs {} approving review(s) at {} from {from} ({have})",
                q.name, q.count, pull.head
            ));
        }
        who.extend(ok);
    }
    let others: Vec<String> = approvers
        .iter()
        .filter(|c| !who.contains(c.by))
        .map(|c| format!("{}: not among those a requirement names", c.by))
        .collect();
    if needs.is_empty() {
        let used: Vec<&&Counted<'_>> = approvers.iter().filter(|c| who.contains(c.by)).collect();
        let last = used.iter().max_by_key(|c| c.at);
        let first = used.iter().min_by_key(|c| c.at);
        ApprovalStatus::Approved {
            by: who.iter().copied().collect::<Vec<_>>().join(", "),
            reason: format!(
                "pull-request review of {} at {} ({})",
                pull.source,
                pull.head,
                applies
                    .iter()
                    .map(|q| q.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            approved_at: last.map(|c| c.at_text.to_string()).unwrap_or_default(),
            expires_at: expiry.and_then(|e| {
                first.and_then(|c| ward_time::add(c.at, e).ok().map(ward_time::rfc3339))
            }),
            signed: false,
        }
    } else {
        let mut nc = t.not_counted.clone();
        nc.extend(others);
        for c in &t.counted {
            if !c.digests.contains(w.digest) {
                nc.push(format!(
                    "{}: the review approved other digests (the change differs from the one listed)",
                    c.by
                ));
            }
        }
        ApprovalStatus::Awaiting {
            needs,
            not_counted: nc,
        }
    }
}

/// Whether `login` is one of `q.from`, directly or through a team.
fn may_approve(q: &Requirement, login: &str, teams: &BTreeMap<String, BTreeSet<String>>) -> bool {
    q.from.iter().any(|f| match f.strip_prefix('@') {
        Some(t) => teams.get(t).is_some_and(|m| m.contains(login)),
        None => f.eq_ignore_ascii_case(login),
    })
}

/// The gate's hook for reviews ([`crate::run::gate_reviewed`]): reads the forge once, when some
/// change needs an approval, and settles those changes from what it read.
pub struct Settle<'a> {
    /// Where the reviews are.
    pub source: &'a ReviewSource,
    /// The gated root's path relative to the directory of `ward.hcl` (`/`-separated; `None`:
    /// unknown, so only `require` blocks without `root` apply).
    pub root: Option<String>,
    read: std::cell::OnceCell<Result<Reviews, ForgeError>>,
}

impl<'a> Settle<'a> {
    /// A hook reading `source`, for the root at `root`.
    pub fn new(source: &'a ReviewSource, root: Option<String>) -> Settle<'a> {
        Settle {
            source,
            root,
            read: std::cell::OnceCell::new(),
        }
    }

    /// Settles the report's changes that need an approval (nothing is read when none does).
    pub fn apply(&self, report: &mut GateReport, policy: &ward_config::policy::Policy) {
        if report.required.is_empty() {
            return;
        }
        let read = self
            .read
            .get_or_init(|| read(self.source, &policy.reviewers));
        apply(
            report,
            read.as_ref(),
            &policy.reviewers,
            policy.approval_expiry,
            self.root.as_deref(),
        );
    }

    /// What was read from the forge (`None`: nothing was, as nothing needed an approval).
    pub fn reviews(&self) -> Option<&Result<Reviews, ForgeError>> {
        self.read.get()
    }
}
