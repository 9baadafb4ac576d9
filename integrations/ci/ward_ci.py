#!/usr/bin/env python3
"""ward in CI: run `ward gate` on a plan and keep one pull/merge-request comment up to date.

    ward_ci.py gate --plan plan.json [--id NAME] [--post github|gitlab] [--ward PATH]
                    [--body-out FILE] [--summary FILE] [-- GATE_ARGS...]
    ward_ci.py post --platform github|gitlab --body FILE [--id NAME]

`gate` runs `ward gate PLAN --format markdown`, writes the comment body (a hidden marker line,
then ward's Markdown report) to --body-out (default ward-gate.md), posts it with --post, and exits
with ward gate's exit code (docs/exit-codes.md: 0 pass, 4 approval required, 5 budget exceeded...),
so the job fails when the gate refuses the plan. The job's exit is always the gate's: when the
comment cannot be posted (a fork's read-only token, an outage, a missing variable), the script says
why as a warning (a GitHub `::warning::` annotation in Actions) and still exits with the gate's
code. With --summary FILE (the action passes $GITHUB_STEP_SUMMARY) the report is also appended
there, so the run's summary page shows it even when no comment could be written.

`post` finds the comment carrying the marker `<!-- ward-gate:NAME -->` (NAME from --id, default
`ward-gate`; one per root when several plans are gated in one pull request) and updates it, or
creates it when there is none: one comment, updated, never a new one per run.

Where to post comes from the platform's own CI variables:

- github: GITHUB_API_URL (default the public API), GITHUB_REPOSITORY (owner/name), the pull
  request number from WARD_PR_NUMBER or the event file GITHUB_EVENT_PATH, and the token from
  GITHUB_TOKEN (sent as a bearer token).
- gitlab: CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID, and the token from GITLAB_TOKEN
  (a project or personal access token with the api scope, sent as PRIVATE-TOKEN; the job token
  cannot write notes).

The token is read from the environment only, never from the command line, and is never printed.
Every request has a timeout. Python 3.8+ standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT = 30
PER_PAGE = 100
MAX_PAGES = 50


class Failure(Exception):
    """A problem the user must fix, said in one line."""


def marker(name):
    return "<!-- ward-gate:%s -->" % name


def body_for(name, markdown):
    return "%s\n%s" % (marker(name), markdown if markdown.endswith("\n") else markdown + "\n")


def need(env, key, what):
    value = env.get(key, "")
    if not value:
        raise Failure("%s is not set: %s" % (key, what))
    return value


class Api:
    """A JSON API with a token header; errors name the request, never the token."""

    def __init__(self, base, headers):
        self.base = base.rstrip("/")
        self.headers = headers

    def call(self, method, path, payload=None):
        url = self.base + path
        data = None if payload is None else json.dumps(payload).encode("utf-8")
        req = urllib.request.Request(url, data=data, method=method)
        for k, v in self.headers.items():
            req.add_header(k, v)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
                text = resp.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            raise Failure("%s %s: HTTP %d %s" % (method, path, e.code, e.reason))
        except (urllib.error.URLError, OSError) as e:
            raise Failure("%s %s: %s" % (method, path, getattr(e, "reason", e)))
        try:
            return json.loads(text) if text.strip() else None
        except ValueError:
            raise Failure("%s %s: the answer is not JSON (a proxy or a wrong API URL?)" % (method, path))

    def pages(self, path):
        sep = "&" if "?" in path else "?"
        for page in range(1, MAX_PAGES + 1):
            items = self.call("GET", "%s%sper_page=%d&page=%d" % (path, sep, PER_PAGE, page))
            if not isinstance(items, list):
                raise Failure("GET %s: expected a list of comments" % path)
            for item in items:
                yield item
            if len(items) < PER_PAGE:
                return


def github_pull(env):
    """(owner/name, number) of the pull request this run is for (pull_request and
    pull_request_review events carry it; WARD_PR_NUMBER overrides)."""
    repo = need(env, "GITHUB_REPOSITORY", "run inside GitHub Actions, or set it to owner/name")
    number = env.get("WARD_PR_NUMBER", "")
    if not number and env.get("GITHUB_EVENT_PATH"):
        try:
            with open(env["GITHUB_EVENT_PATH"], encoding="utf-8") as f:
                event = json.load(f)
            number = str((event.get("pull_request") or {}).get("number") or "")
        except (OSError, ValueError) as e:
            raise Failure("cannot read GITHUB_EVENT_PATH: %s" % e)
    if not number.isdigit():
        raise Failure("no pull request: run on pull_request events, or set WARD_PR_NUMBER")
    return repo, number


def gitlab_merge_request(env):
    """(group/project, iid) of the merge request this pipeline is for (merge request pipelines
    set both)."""
    project = env.get("CI_MERGE_REQUEST_PROJECT_PATH") or need(env, "CI_PROJECT_PATH", "run inside GitLab CI")
    iid = need(env, "CI_MERGE_REQUEST_IID", "run in a merge request pipeline")
    if not iid.isdigit():
        raise Failure("CI_MERGE_REQUEST_IID is not a number: %r" % iid)
    return project, iid


def review_source(platform, env):
    """ward gate's --approvals-from for this run: the forge named by --post, else the one whose
    CI this is (a GitLab merge request pipeline sets CI_MERGE_REQUEST_IID)."""
    if platform is None:
        platform = "gitlab" if env.get("CI_MERGE_REQUEST_IID") else "github"
    if platform == "gitlab":
        return "gitlab:%s!%s" % gitlab_merge_request(env)
    return "github:%s#%s" % github_pull(env)


def github(env):
    api = Api(
        env.get("GITHUB_API_URL") or "https://api.github.com",
        {
            "Authorization": "Bearer " + need(env, "GITHUB_TOKEN", "give the job a token (the action passes github.token)"),
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
        },
    )
    repo, number = github_pull(env)
    issue = "/repos/%s/issues/%s" % (repo, number)
    return (
        api,
        issue + "/comments",
        lambda cid: "/repos/%s/issues/comments/%s" % (repo, cid),
        "PATCH",
    )


def gitlab(env):
    api = Api(
        need(env, "CI_API_V4_URL", "run inside GitLab CI"),
        {"PRIVATE-TOKEN": need(env, "GITLAB_TOKEN", "set a masked CI/CD variable with an api-scoped token")},
    )
    project = urllib.parse.quote(need(env, "CI_PROJECT_ID", "run inside GitLab CI"), safe="")
    mr = need(env, "CI_MERGE_REQUEST_IID", "run in a merge request pipeline")
    notes = "/projects/%s/merge_requests/%s/notes" % (project, mr)
    return api, notes, lambda cid: "%s/%s" % (notes, cid), "PUT"


def post(platform, body, name, env):
    """Updates the comment with the marker, or creates it. Returns ("updated"|"created", id)."""
    api, collection, one, update_method = (github if platform == "github" else gitlab)(env)
    mark = marker(name)
    for c in api.pages(collection):
        if isinstance(c, dict) and str(c.get("body", "")).startswith(mark):
            api.call(update_method, one(c["id"]), {"body": body})
            return "updated", c["id"]
    created = api.call("POST", collection, {"body": body}) or {}
    return "created", created.get("id")


def warn(message):
    """A warning on stderr, and a GitHub annotation when running in Actions."""
    sys.stderr.write("ward_ci: warning: %s\n" % message)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        # A workflow command's data escapes %, CR and LF (GitHub's toolkit does the same).
        data = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        print("::warning title=ward_ci::%s" % data)


def append_summary(path, markdown):
    """Appends the report to a step summary; a summary that cannot be written is a warning."""
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(markdown if markdown.endswith("\n") else markdown + "\n")
    except OSError as e:
        warn("could not write the step summary %s: %s" % (path, e))


def run_gate(ward, plan, extra):
    cmd = [ward, "gate", plan, "--format", "markdown"] + list(extra)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    except FileNotFoundError:
        raise Failure("cannot run %s: install ward (cargo install --path crates/ward-cli) or pass --ward PATH" % ward)
    except subprocess.TimeoutExpired:
        raise Failure("ward gate did not finish in 600 seconds")
    sys.stderr.write(p.stderr.decode("utf-8", "replace"))
    return p.returncode, p.stdout.decode("utf-8", "replace")


def main(argv):
    ap = argparse.ArgumentParser(prog="ward_ci.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gate", help="run ward gate, write the comment body, optionally post it")
    g.add_argument("--plan", required=True)
    g.add_argument("--id", default="ward-gate")
    g.add_argument("--ward", default=os.environ.get("WARD", "ward"))
    g.add_argument("--body-out", default="ward-gate.md")
    g.add_argument("--post", choices=["github", "gitlab"])
    g.add_argument("--summary", help="append the report to this file (GitHub's $GITHUB_STEP_SUMMARY)")
    g.add_argument(
        "--reviews",
        action="store_true",
        help="approvals from this pull request's reviews or merge request's approvals "
        "(ward gate --approvals-from github:REPO#N or gitlab:GROUP/PROJECT!IID)",
    )
    g.add_argument("gate_args", nargs=argparse.REMAINDER)
    p = sub.add_parser("post", help="post or update the comment")
    p.add_argument("--platform", required=True, choices=["github", "gitlab"])
    p.add_argument("--body", required=True)
    p.add_argument("--id", default="ward-gate")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "gate":
            extra = a.gate_args[1:] if a.gate_args[:1] == ["--"] else a.gate_args
            if a.reviews:
                # ward reads the reviews itself (GITHUB_TOKEN and GITHUB_API_URL, or GITLAB_TOKEN
                # and CI_API_V4_URL, from the environment); a run without a pull or merge request
                # cannot gate on its reviews: an error, not a pass.
                extra = list(extra) + ["--approvals-from", review_source(a.post, os.environ)]
            code, markdown = run_gate(a.ward, a.plan, extra)
            if not markdown.strip():
                # A usage or input error (exit 2): ward said why on stderr; nothing to post.
                return code
            body = body_for(a.id, markdown)
            with open(a.body_out, "w", encoding="utf-8") as f:
                f.write(body)
            if a.summary:
                append_summary(a.summary, markdown)
            if a.post:
                try:
                    what, cid = post(a.post, body, a.id, os.environ)
                    print("ward_ci: %s comment %s" % (what, cid))
                except Failure as e:
                    # The comment is a convenience; the gate's answer is the job's result.
                    warn("could not post the comment (%s); the job's result is ward gate's exit %d" % (e, code))
            return code
        with open(a.body, encoding="utf-8") as f:
            body = f.read()
        if not body.startswith(marker(a.id)):
            body = body_for(a.id, body)
        what, cid = post(a.platform, body, a.id, os.environ)
        print("ward_ci: %s comment %s" % (what, cid))
        return 0
    except Failure as e:
        sys.stderr.write("ward_ci: error: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
