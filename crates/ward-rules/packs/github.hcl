# ward built-in pack: integrations/github (provider 6.x).
#
# Which arguments force replacement is read from the provider's source at v6.9.0 (`ForceNew` and
# `customdiff.ForceNewIfChange` in github/resource_github_*.go); the plan shows replacement itself,
# the entries below add what it costs. Facts about GitHub's own behaviour (renames, archiving,
# removal of access) are from GitHub's documentation and are named in the rationale.
#
# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/github.json (from the CDK
# for Terraform package @cdktf/provider-github 15.3.1, generated from `providers schema -json` of
# integrations/github 6.9.0; see scripts/extract-schemas).

pack {
  name     = "github"
  version  = "2026.11.0"
  provider = "integrations/github"
  schema   = "checked"
  summary  = "GitHub repositories, branches, protections, rulesets, teams, memberships, secrets and webhooks."
}

# ------------------------------------------------------------------ repositories and contents

resource "github_repository" {
  summary    = "A GitHub repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository"
  rationale  = <<-EOT
    Deleting a repository deletes its code, issues, pull requests, wiki and releases (and, for
    a private repository, all its private forks; GitHub: what happens to forks when a repository
    is deleted or changes visibility); with
    archive_on_destroy = true the provider archives it instead (ward cannot see that setting in
    the plan's change alone: a ward.hcl rule with holds_data = false can say so for such
    repositories). A changed fork, source_owner or source_repo replaces it (customdiff
    ForceNewIfChange). Every other argument changes in place; a rename keeps the repository.
  EOT
  holds_data = true
  identity   = ["id", "repo_id", "node_id", "full_name", "html_url", "ssh_clone_url", "http_clone_url", "git_clone_url", "svn_url"]
  free       = ["description", "homepage_url", "topics", "archive_on_destroy", "ignore_vulnerability_alerts_during_read", "etag"]

  attribute "name" {
    impact = "interrupt"
    why    = <<-EOT
      Renames the repository in place (GitHub: renaming a repository). Web URLs, issues, wikis,
      stars and git clone/fetch/push to the old name are redirected, but clones' remotes still
      name the old URL (update them with `git remote set-url`), GitHub Pages project-site URLs
      are not redirected, workflows that use an action hosted in the repository fail with
      "repository not found", and a new repository created under the old name ends the redirects.
    EOT
  }
  attribute "archived" {
    impact = "interrupt"
    why    = "Archiving makes the repository read-only: no pushes, issues or pull requests; the provider cannot unarchive it (the API does not support it)."
  }
  attribute "visibility" {
    impact = "interrupt"
    why    = "Changes who can read and clone it. Made private, its public forks are split off into a new network; made public, its private forks become standalone private repositories (GitHub: what happens to forks when a repository is deleted or changes visibility)."
  }
  attribute "private" {
    impact = "interrupt"
    why    = "Deprecated alias of visibility: the same consequences."
  }
  attribute "default_branch" {
    impact = "in-place"
    why    = "Deprecated (use github_branch_default): new pull requests and clones use the other branch."
  }
}

resource "github_branch" {
  summary    = "A branch of a repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/branch"
  rationale  = <<-EOT
    Deleting the branch deletes the ref: commits only it reaches become unreachable (GitHub
    eventually collects them) and open pull requests from it can no longer be merged. A changed
    repository, source_branch or source_sha replaces it (ForceNew): the branch is deleted and
    created again from the source, losing commits pushed to it since.
  EOT
  holds_data = true
  identity   = ["id", "ref"]
  free       = ["etag"]

  attribute "branch" {
    impact = "interrupt"
    why    = "Renames the branch in place (Repositories.RenameBranch): GitHub redirects web URLs, updates branch protection and retargets open pull requests, but clones, CI triggers and anything naming the old branch must follow."
  }
}

resource "github_branch_default" {
  summary    = "Which branch is a repository's default."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/branch_default"
  rationale  = "Changing `branch` changes the base of new pull requests and the branch new clones check out; with rename = true the current default branch is renamed instead. Deleting it changes nothing on GitHub (the provider sends no default branch). A changed repository replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
  free       = ["etag"]
  on_delete  = "free"
}

resource "github_repository_file" {
  summary    = "A file committed to a branch of a repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_file"
  rationale  = <<-EOT
    Content changes are committed in place. Deleting it commits the file's removal: the file
    leaves the branch (earlier versions stay in history), and whatever reads it from the branch
    no longer finds it. A changed repository, file or branch replaces it (ForceNew): the file
    is removed from one place and committed in the other.
  EOT
  holds_data = true
  identity   = ["id", "sha", "commit_sha", "ref"]
  free       = ["commit_message", "commit_author", "commit_email", "overwrite_on_create", "autocreate_branch", "autocreate_branch_source_branch", "autocreate_branch_source_sha"]
}

resource "github_repository_topics" {
  summary    = "The topics of a repository, managed apart from github_repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_topics"
  rationale  = "Topics are labels for discovery; changing or removing them touches nothing else."
  holds_data = false
  identity   = ["id"]
  free       = ["topics"]
  on_delete  = "free"
}

resource "github_release" {
  summary    = "A release of a repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/release"
  rationale  = "Deleting or replacing a release deletes it with its uploaded assets (the git tag stays); assets are usually uploaded outside Terraform and cannot be recreated from the configuration. A changed repository, tag_name, target_commitish, draft or discussion_category_name replaces it (ForceNew); name, body and prerelease change in place."
  holds_data = true
  identity   = ["id", "release_id", "node_id", "html_url", "upload_url", "assets_url", "tarball_url", "zipball_url"]
  free       = ["name", "body", "etag"]
}

resource "github_repository_autolink_reference" {
  summary    = "An autolink reference (e.g. TICKET-123 → a tracker URL)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_autolink_reference"
  rationale  = "Every argument forces replacement (the resource has no update); the link is only rendering, so replacement and deletion only change how references are linked."
  holds_data = false
  identity   = ["id"]
  free       = ["etag"]
  on_delete  = "free"
  on_replace = "free"
}

resource "github_repository_custom_property" {
  summary    = "The value of an organization custom property on one repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_custom_property"
  rationale  = "Every argument forces replacement (the resource has no update). Custom properties are metadata, but rulesets and policies can target repositories by them: a changed value changes which rules apply."
  holds_data = false
  identity   = ["id"]
}

# ------------------------------------------------------------------ protection and rulesets

resource "github_branch_protection" {
  summary    = "A branch protection rule (GraphQL API), matching branches by pattern."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/branch_protection"
  rationale  = "Rules change in place and apply to the next push or merge. Deleting it lifts the protection: force pushes, deletions and unreviewed merges become possible on the matching branches. A changed repository_id replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
}

resource "github_branch_protection_v3" {
  summary    = "Protection of one branch (REST API)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/branch_protection_v3"
  rationale  = "Rules change in place and apply to the next push or merge. Deleting it lifts the protection from the branch. A changed repository or branch replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
  free       = ["etag"]
}

resource "github_repository_ruleset" {
  summary    = "A repository ruleset (branch, tag or push rules)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_ruleset"
  rationale  = "Rules, conditions, bypass actors and enforcement change in place and apply to the next push or merge (enforcement = disabled or evaluate stops enforcing). Deleting it lifts its rules."
  holds_data = false
  identity   = ["id", "ruleset_id", "node_id"]
  free       = ["name", "etag"]
}

resource "github_organization_ruleset" {
  summary    = "An organization ruleset, applied to the repositories its conditions select."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/organization_ruleset"
  rationale  = "Rules, conditions, bypass actors and enforcement change in place and apply to every selected repository at once. Deleting it lifts its rules everywhere."
  holds_data = false
  identity   = ["id", "ruleset_id", "node_id"]
  free       = ["name", "etag"]
}

# ------------------------------------------------------------------ people and teams

resource "github_team" {
  summary    = "A team of an organization."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/team"
  rationale  = <<-EOT
    Privacy, parent and LDAP mapping change in place (a new parent changes the access members
    inherit). Deleting a team removes the repository access it grants (members' private forks of
    repositories they can no longer reach are deleted, per GitHub's documentation), and deleting
    a parent team deletes its child teams too (REST API: delete a team).
  EOT
  holds_data = false
  identity   = ["id", "node_id", "slug"]
  free       = ["description", "create_default_maintainer", "etag"]

  attribute "name" {
    impact = "interrupt"
    why    = "Renaming a team changes its slug (the provider recomputes it): @org/old-slug mentions, CODEOWNERS entries and configuration that name the old slug stop matching."
  }
}

resource "github_team_membership" {
  summary    = "One user's membership of a team."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/team_membership"
  rationale  = "role (member or maintainer) changes in place. Deleting it removes the user from the team and the access the team grants (their private forks of repositories they can no longer reach are deleted). A changed team_id or username replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
  free       = ["etag"]
}

resource "github_team_members" {
  summary    = "The complete member list of a team (authoritative)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/team_members"
  rationale  = "Members are added and removed in place; a user taken off the list loses the access the team grants. Deleting it removes every listed member from the team. A changed team_id replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
}

resource "github_team_repository" {
  summary    = "A team's access to a repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/team_repository"
  rationale  = "permission changes in place. Deleting it revokes the team's access (members without other access lose it, and their private forks of the repository are deleted). A changed team_id or repository replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
  free       = ["etag"]
}

resource "github_team_settings" {
  summary    = "A team's code review settings (review request delegation)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/team_settings"
  rationale  = "Review delegation changes in place and applies to the next review request. A changed team_id replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
}

resource "github_membership" {
  summary    = "A user's membership of an organization, and their role."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/membership"
  rationale  = <<-EOT
    role changes in place (admin is organization owner). Deleting it removes the user from the
    organization, or with downgrade_on_destroy = true only demotes them to member: removed
    members lose access to the organization's repositories and to their private forks of its
    private repositories (restorable if reinstated within three months, per GitHub's
    documentation). A changed username replaces it (ForceNew).
  EOT
  holds_data = false
  identity   = ["id"]
  free       = ["downgrade_on_destroy", "etag"]
}

resource "github_repository_collaborator" {
  summary    = "A person's direct access to a repository (an invitation until accepted)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_collaborator"
  rationale  = <<-EOT
    Every argument forces replacement, permission included: a new permission removes the
    collaborator and invites them again, and they have no access until they accept (unless they
    are an organization member). Removing a collaborator of a private repository deletes their
    forks of it (GitHub: managing an individual's access to an organization repository).
  EOT
  holds_data = false
  identity   = ["id", "invitation_id"]
  free       = ["permission_diff_suppression"]
}

resource "github_repository_collaborators" {
  summary    = "The complete list of users and teams with direct access to a repository (authoritative)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_collaborators"
  rationale  = "Users and teams are added, re-permissioned and removed in place (new users get invitations); anyone taken off the list loses that access. A changed repository replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
}

resource "github_user_ssh_key" {
  summary    = "An SSH key of the authenticated user."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/user_ssh_key"
  rationale  = "Every argument forces replacement (no update): the key is removed and added again; git over SSH with it fails in between, and fails for good after deletion."
  holds_data = false
  identity   = ["id", "url"]
  free       = ["etag"]
}

# ------------------------------------------------------------------ actions and dependabot

resource "github_actions_secret" {
  summary    = "An Actions secret of a repository (sensitive)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/actions_secret"
  rationale  = "The resource has no update: every argument forces replacement, the value included. The secret is deleted and set again; workflow runs that read it in between get an empty value, and after deletion every run does. The value comes from the configuration, so nothing is lost."
  holds_data = false
  identity   = ["id"]
}

resource "github_actions_environment_secret" {
  summary    = "An Actions secret of a deployment environment (sensitive)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/actions_environment_secret"
  rationale  = "The resource has no update: every argument forces replacement, the value included. Jobs in the environment that read it in between get an empty value. The value comes from the configuration, so nothing is lost."
  holds_data = false
  identity   = ["id"]
}

resource "github_actions_organization_secret" {
  summary    = "An Actions secret of an organization (sensitive)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/actions_organization_secret"
  rationale  = "The resource has no update: every argument forces replacement, the value, visibility and selected repositories included. Workflow runs of every repository it is shared with get an empty value in between, and after deletion."
  holds_data = false
  identity   = ["id"]
}

resource "github_dependabot_secret" {
  summary    = "A Dependabot secret of a repository (sensitive)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/dependabot_secret"
  rationale  = "The resource has no update: every argument forces replacement, the value included. Dependabot runs that need it (private registries) fail in between and after deletion."
  holds_data = false
  identity   = ["id"]
}

resource "github_actions_variable" {
  summary    = "An Actions configuration variable of a repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/actions_variable"
  rationale  = "value changes in place and is seen by the next workflow run. A changed variable_name replaces it (ForceNew); deleting it leaves workflows that read it with an empty value."
  holds_data = false
  identity   = ["id"]
}

resource "github_actions_environment_variable" {
  summary    = "An Actions configuration variable of a deployment environment."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/actions_environment_variable"
  rationale  = "value changes in place and is seen by the next job in the environment. A changed environment or variable_name replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
}

resource "github_actions_organization_variable" {
  summary    = "An Actions configuration variable of an organization."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/actions_organization_variable"
  rationale  = "value and selected repositories change in place. A changed variable_name or visibility replaces it (ForceNew); repositories it is shared with see an empty value in between."
  holds_data = false
  identity   = ["id"]
}

# ------------------------------------------------------------------ environments

resource "github_repository_environment" {
  summary    = "A deployment environment of a repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_environment"
  rationale  = "Reviewers, wait timer and branch policy change in place and apply to the next deployment. Deleting or replacing it (a changed repository or environment, ForceNew) deletes the environment with its secrets, variables and protection rules; secret values cannot be read back, so those not managed here are lost."
  holds_data = true
  identity   = ["id"]
}

resource "github_repository_deployment_branch_policy" {
  summary    = "A branch pattern allowed to deploy to an environment (older resource)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_deployment_branch_policy"
  rationale  = "The pattern changes in place. Deleting it stops matching branches from deploying to the environment. A changed repository or environment_name replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
  free       = ["etag"]
}

resource "github_repository_environment_deployment_policy" {
  summary    = "A branch or tag pattern allowed to deploy to an environment."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_environment_deployment_policy"
  rationale  = "The pattern changes in place. Deleting it stops matching refs from deploying to the environment. A changed repository or environment replaces it (ForceNew)."
  holds_data = false
  identity   = ["id"]
}

# ------------------------------------------------------------------ webhooks, keys, labels

resource "github_repository_webhook" {
  summary    = "A webhook of a repository."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_webhook"
  rationale  = "URL, secret, events and active change in place and apply to the next delivery. Deleting it stops deliveries (events in between are not sent to a new hook). A changed repository replaces it (ForceNew)."
  holds_data = false
  identity   = ["id", "url"]
  free       = ["etag"]
}

resource "github_organization_webhook" {
  summary    = "A webhook of an organization."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/organization_webhook"
  rationale  = "URL, secret, events and active change in place and apply to the next delivery. Deleting it stops deliveries for every repository of the organization."
  holds_data = false
  identity   = ["id", "url"]
  free       = ["etag"]
}

resource "github_repository_deploy_key" {
  summary    = "A deploy key (an SSH key with access to one repository)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/repository_deploy_key"
  rationale  = "The resource has no update: every argument forces replacement, title and read_only included. The key is removed and added again; machines cloning or pushing with it fail in between, and for good after deletion."
  holds_data = false
  identity   = ["id"]
  free       = ["etag"]
}

resource "github_issue_label" {
  summary    = "A label of a repository's issues and pull requests."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/issue_label"
  rationale  = "name, color and description change in place; a renamed label stays on its issues. Deleting the label removes it from every issue and pull request that has it, which recreating it does not restore. A changed repository replaces it (ForceNew)."
  holds_data = true
  identity   = ["id", "url"]
  free       = ["color", "description", "etag"]
}

resource "github_issue_labels" {
  summary    = "The complete label list of a repository (authoritative)."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/issue_labels"
  rationale  = "Labels are created, changed and deleted in place; a label taken off the list is deleted and so removed from every issue and pull request that has it. A changed repository replaces it (ForceNew)."
  holds_data = true
  identity   = ["id"]
}

# ------------------------------------------------------------------ organization

resource "github_organization_settings" {
  summary    = "An organization's profile and policies."
  source     = "https://registry.terraform.io/providers/integrations/github/latest/docs/resources/organization_settings"
  rationale  = <<-EOT
    Every setting changes in place; the member policies (who may create, fork or publish
    repositories and pages, default repository permission) apply at once. Deleting it does not
    delete the organization: the provider reverts the settings to defaults and sets the billing
    e-mail to email@example.com (resourceGithubOrganizationSettingsDelete, v6.9.0).
  EOT
  holds_data = false
  identity   = ["id"]
  free       = ["name", "description", "blog", "company", "location", "email", "twitter_username"]
}
