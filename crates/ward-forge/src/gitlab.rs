//! GitLab merge requests (REST API v4), read as a [`PullRequest`].
//!
//! GitLab's approvals name no commit: `GET …/merge_requests/:iid/approvals` lists who approves
//! now and, on recent versions, when (`approved_at`). An approval is bound to a commit here, and
//! counted only, when all of these hold:
//! - the project removes every approval when commits are added to the source branch
//!   (`reset_approvals_on_push` in `GET /projects/:id/approvals`). Without it an approval given
//!   before a push stays listed after it; the project is then refused, naming the setting, and
//!   nothing is approved. (The setting is read, not assumed: a project whose API does not say is
//!   refused too.)
//! - its time is known: `approved_at`, else the approver's latest system note
//!   "approved this merge request" (its `created_at`). An approval with neither gets no commit,
//!   and the gate does not count it.
//! - its commit is the head of the merge-request version (`GET …/versions`: `head_commit_sha`,
//!   `created_at`) that was current at that time: the code the approver saw. A push after it
//!   makes a new version whose head differs, so the gate's "pushed since" rule refuses it even
//!   in the seconds before GitLab's asynchronous reset removes it.
//!
//! ward's comments are the merge request's notes that are not system notes; the gate then
//! binds each approval to the digests ward's note listed at that commit before it, as for
//! GitHub.

use crate::{Client, Comment, ForgeError, PullRequest, Review, ReviewState, Source};
use serde::Deserialize;

#[derive(Deserialize)]
pub(crate) struct GlUser {
    pub(crate) username: String,
}

#[derive(Deserialize)]
struct GlMergeRequest {
    sha: Option<String>,
    author: GlUser,
}

#[derive(Deserialize)]
struct GlProjectApprovals {
    reset_approvals_on_push: Option<bool>,
}

#[derive(Deserialize)]
struct GlApprover {
    user: GlUser,
    #[serde(default)]
    approved_at: Option<String>,
}

#[derive(Deserialize)]
struct GlApprovals {
    #[serde(default)]
    approved_by: Vec<GlApprover>,
}

#[derive(Deserialize)]
struct GlVersion {
    head_commit_sha: String,
    created_at: String,
}

#[derive(Deserialize)]
struct GlNote {
    author: Option<GlUser>,
    body: Option<String>,
    #[serde(default)]
    system: bool,
    created_at: String,
    #[serde(default)]
    updated_at: Option<String>,
}

impl Client {
    /// Reads GitLab merge request `source` (`gitlab:GROUP/PROJECT!IID`): its head and author,
    /// its approvals as approving reviews (each bound to a commit as the module documentation
    /// says), and its notes as comments. A project that does not reset approvals on push is
    /// [`ForgeError::Unsupported`], naming the setting.
    pub fn gitlab_merge_request(&self, source: &Source) -> Result<PullRequest, ForgeError> {
        let project = format!("/projects/{}", crate::encode_path(&source.project));
        let mr = format!("{project}/merge_requests/{}", source.number);
        let settings: GlProjectApprovals = self.get_one(
            &format!("{project}/approvals"),
            &format!("the approval settings of {}", source.project),
        )?;
        if settings.reset_approvals_on_push != Some(true) {
            return Err(ForgeError::Unsupported(format!(
                "{source}: the project keeps approvals when commits are pushed (reset_approvals_on_push is {}), so an approval cannot be bound to the code it approved; turn on Settings > Merge requests > Approval settings > \"Remove all approvals when commits are added to the source branch\" (or use `ward approve`)",
                settings
                    .reset_approvals_on_push
                    .map_or("not reported".to_string(), |b| b.to_string())
            )));
        }
        let what = format!("merge request {source}");
        let m: GlMergeRequest = self.get_one(&mr, &what)?;
        let head = m.sha.ok_or_else(|| ForgeError::Malformed {
            what: what.clone(),
            message: "it has no head commit (`sha`)".into(),
        })?;
        let approvals: GlApprovals = self.get_one(
            &format!("{mr}/approvals"),
            &format!("the approvals of {source}"),
        )?;
        let mut versions: Vec<GlVersion> = self.get_all(
            &format!("{mr}/versions"),
            &format!("the versions of {source}"),
        )?;
        let notes: Vec<GlNote> = self.get_all(
            &format!("{mr}/notes?sort=asc&order_by=created_at"),
            &format!("the notes of {source}"),
        )?;
        // Oldest first, by time (GitLab lists the newest first).
        let mut parsed: Vec<(ward_time::Timestamp, String)> = Vec::new();
        for v in versions.drain(..) {
            let t =
                ward_time::parse_timestamp(&v.created_at).map_err(|e| ForgeError::Malformed {
                    what: format!("the versions of {source}"),
                    message: e,
                })?;
            parsed.push((t, v.head_commit_sha));
        }
        parsed.sort();
        let commit_at = |at: &str| -> Option<String> {
            let t = ward_time::parse_timestamp(at).ok()?;
            parsed
                .iter()
                .rev()
                .find(|(v, _)| *v <= t)
                .map(|(_, c)| c.clone())
        };
        let approved_note = |by: &str| -> Option<String> {
            notes
                .iter()
                .filter(|n| {
                    n.system
                        && n.author.as_ref().is_some_and(|a| a.username == by)
                        && n.body.as_deref().map(str::trim) == Some(crate::GITLAB_APPROVED_NOTE)
                })
                .map(|n| n.created_at.clone())
                .max_by(|a, b| {
                    let (x, y) = (
                        ward_time::parse_timestamp(a).ok(),
                        ward_time::parse_timestamp(b).ok(),
                    );
                    x.cmp(&y)
                })
        };
        let reviews = approvals
            .approved_by
            .into_iter()
            .map(|a| {
                let at = a
                    .approved_at
                    .filter(|t| !t.is_empty())
                    .or_else(|| approved_note(&a.user.username));
                Review {
                    commit: at.as_deref().and_then(commit_at),
                    by: a.user.username,
                    state: ReviewState::Approved,
                    submitted_at: at,
                }
            })
            .collect();
        let comments = notes
            .into_iter()
            .filter(|n| !n.system)
            .filter_map(|n| {
                Some(Comment {
                    by: n.author?.username,
                    body: n.body.unwrap_or_default(),
                    updated_at: n.updated_at.unwrap_or(n.created_at),
                })
            })
            .collect();
        Ok(PullRequest {
            source: source.clone(),
            head,
            author: m.author.username,
            reviews,
            comments,
        })
    }
}
