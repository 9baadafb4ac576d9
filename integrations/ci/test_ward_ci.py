#!/usr/bin/env python3
"""Tests of ward_ci.py against a fake GitHub and GitLab API (no network).

The fake answers the few requests ward_ci.py makes with the shapes the real APIs return (a
comment or note object: id, body, user/author...), keeps the comments in memory and records
every request. Run by `cargo test -p ward-cli --test integrations`, which sets WARD_BIN (the
ward binary under test) and WARD_PLAN (a fixture plan).
"""

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "ward_ci.py")
TOKEN = "fake-token-value-0123456789"


class Fake(http.server.BaseHTTPRequestHandler):
    """One fake for both platforms; state on the server object."""

    def log_message(self, *args):
        pass

    def _send(self, code, obj, headers=()):
        data = json.dumps(obj).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _record(self):
        n = int(self.headers.get("Content-Length") or 0)
        payload = json.loads(self.rfile.read(n)) if n else None
        self.server.requests.append(
            {"method": self.command, "path": self.path, "headers": dict(self.headers), "payload": payload}
        )
        return payload

    def _authorized(self):
        gh = self.headers.get("Authorization") == "Bearer " + TOKEN
        gl = self.headers.get("PRIVATE-TOKEN") == TOKEN
        return gh or gl

    def _route(self):
        path = self.path.split("?")[0]
        parts = path.strip("/").split("/")
        # GitHub: /repos/o/r/issues/7/comments, /repos/o/r/issues/comments/ID
        if parts[:1] == ["repos"] and "issues" in parts:
            if parts[-1] == "comments":
                return "collection", None
            return "one", parts[-1]
        # GitLab: /api/v4/projects/ID/merge_requests/IID/notes[/ID]
        if "notes" in parts:
            if parts[-1] == "notes":
                return "collection", None
            return "one", parts[-1]
        return None, None

    def _handle(self):
        payload = self._record()
        if self.command != "GET" and self.server.read_only:
            # A fork's pull request: the token may read, not write.
            return self._send(403, {"message": "Resource not accessible by integration"})
        if not self._authorized():
            return self._send(401, {"message": "Bad credentials"})
        # The pull request and its reviews, for ward gate --approvals-from.
        bare = self.path.split("?")[0]
        if self.command == "GET" and bare == "/repos/acme/infra/pulls/7" and self.server.pull:
            return self._send(200, self.server.pull)
        if self.command == "GET" and bare == "/repos/acme/infra/pulls/7/reviews":
            return self._send(200, self.server.reviews)
        # The merge request, its versions, approvals and the project's setting (GitLab).
        mr = "/api/v4/projects/grp%2Finfra/merge_requests/9"
        gitlab = {
            "/api/v4/projects/grp%2Finfra/approvals": {"reset_approvals_on_push": True},
            mr: self.server.mr,
            mr + "/versions": self.server.versions,
            mr + "/approvals": {"approved_by": self.server.approvals},
        }
        if self.command == "GET" and bare in gitlab and self.server.mr:
            return self._send(200, gitlab[bare])
        kind, cid = self._route()
        comments = self.server.comments
        if kind == "collection" and self.command == "GET":
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            page = int(query.get("page", ["1"])[0])
            per = int(query.get("per_page", ["30"])[0])
            link = ()
            if page * per < len(comments):
                base = "http://%s:%d" % self.server.server_address
                nxt = "%s%s?per_page=%d&page=%d" % (base, bare, per, page + 1)
                link = (("Link", '<%s>; rel="next"' % nxt),)
            return self._send(200, comments[(page - 1) * per : page * per], link)
        if kind == "collection" and self.command == "POST":
            c = {"id": self.server.next_id, "body": payload["body"], "user": {"login": "ward-bot"}}
            if "notes" in bare:
                c.update({"author": {"username": "ward-bot"}, "system": False, "created_at": self.server.now})
            self.server.next_id += 1
            comments.append(c)
            return self._send(201, c)
        if kind == "one" and self.command in ("PATCH", "PUT"):
            for c in comments:
                if str(c["id"]) == cid:
                    c["body"] = payload["body"]
                    return self._send(200, c)
            return self._send(404, {"message": "Not Found"})
        return self._send(404, {"message": "Not Found"})

    do_GET = do_POST = do_PATCH = do_PUT = _handle


class Server:
    def __enter__(self):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Fake)
        self.httpd.requests = []
        # Someone else's comment, and 120 unrelated ones: the marker is found past page 1.
        self.httpd.comments = [{"id": 1, "body": "LGTM", "user": {"login": "someone"}}]
        self.httpd.comments += [{"id": 100 + i, "body": "note %d" % i} for i in range(120)]
        self.httpd.next_id = 1000
        self.httpd.read_only = False
        self.httpd.pull = None
        self.httpd.reviews = []
        self.httpd.mr = None
        self.httpd.versions = []
        self.httpd.approvals = []
        self.httpd.now = "2026-01-01T00:00:00Z"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        return self.httpd

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def run(args, env):
    full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    full.update(env)
    return subprocess.run(
        [sys.executable, SCRIPT] + args, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300
    )


class Tests(unittest.TestCase):
    ward = os.environ.get("WARD_BIN", "")
    plan = os.environ.get("WARD_PLAN", "")

    def setUp(self):
        self.assertTrue(self.ward and os.path.exists(self.ward), "WARD_BIN must name the ward binary")
        self.assertTrue(self.plan and os.path.exists(self.plan), "WARD_PLAN must name a plan")
        self.tmp = tempfile.TemporaryDirectory()
        self.body = os.path.join(self.tmp.name, "body.md")

    def tearDown(self):
        self.tmp.cleanup()

    def gate(self, env, post=None, id_="ward-gate"):
        args = ["gate", "--plan", self.plan, "--ward", self.ward, "--body-out", self.body, "--id", id_]
        if post:
            args += ["--post", post]
        return run(args, env)

    def check_one_comment(self, srv, platform, env):
        first = self.gate(env, post=platform)
        self.assertIn(first.returncode, (0, 1, 3, 4, 5, 6), first.stderr.decode())
        self.assertIn(b"created comment 1000", first.stdout)
        second = self.gate(env, post=platform)
        self.assertEqual(second.returncode, first.returncode, second.stderr.decode())
        self.assertIn(b"updated comment 1000", second.stdout)
        ours = [c for c in srv.comments if c["body"].startswith("<!-- ward-gate:ward-gate -->")]
        self.assertEqual(len(ours), 1, "one comment, updated, not one per run")
        self.assertEqual(len(srv.comments), 122, "nobody else's comment touched or added")
        self.assertEqual(srv.comments[0]["body"], "LGTM")
        with open(self.body, encoding="utf-8") as f:
            self.assertEqual(ours[0]["body"], f.read())
        methods = [r["method"] for r in srv.requests if r["method"] != "GET"]
        self.assertEqual(methods, ["POST", "PATCH" if platform == "github" else "PUT"])
        for r in srv.requests:
            self.assertNotIn(TOKEN, r["path"], "the token never goes in a URL")
        out = first.stdout + first.stderr + second.stdout + second.stderr
        self.assertNotIn(TOKEN.encode(), out, "the token is never printed")

    def test_body_is_the_gate_markdown_with_a_marker(self):
        p = self.gate({})
        self.assertIn(p.returncode, (0, 1, 3, 4, 5, 6), p.stderr.decode())
        with open(self.body, encoding="utf-8") as f:
            body = f.read()
        self.assertTrue(body.startswith("<!-- ward-gate:ward-gate -->\n"), body[:80])
        direct = subprocess.run([self.ward, "gate", self.plan, "--format", "markdown"], stdout=subprocess.PIPE)
        self.assertEqual(p.returncode, direct.returncode, "the script exits with ward gate's code")
        self.assertEqual(body.split("\n", 1)[1], direct.stdout.decode())

    def test_github_updates_one_comment(self):
        with Server() as srv:
            event = os.path.join(self.tmp.name, "event.json")
            with open(event, "w") as f:
                json.dump({"pull_request": {"number": 7}}, f)
            env = {
                "GITHUB_API_URL": "http://127.0.0.1:%d" % srv.server_address[1],
                "GITHUB_REPOSITORY": "acme/infra",
                "GITHUB_EVENT_PATH": event,
                "GITHUB_TOKEN": TOKEN,
            }
            self.check_one_comment(srv, "github", env)
            self.assertTrue(all(r["path"].startswith("/repos/acme/infra/issues/") for r in srv.requests))

    def test_gitlab_updates_one_note(self):
        with Server() as srv:
            env = {
                "CI_API_V4_URL": "http://127.0.0.1:%d/api/v4" % srv.server_address[1],
                "CI_PROJECT_ID": "42",
                "CI_MERGE_REQUEST_IID": "9",
                "GITLAB_TOKEN": TOKEN,
            }
            self.check_one_comment(srv, "gitlab", env)
            self.assertTrue(
                all(r["path"].startswith("/api/v4/projects/42/merge_requests/9/notes") for r in srv.requests)
            )

    def test_missing_token_is_a_clear_error(self):
        p = run(["post", "--platform", "gitlab", "--body", self.plan], {"CI_API_V4_URL": "http://127.0.0.1:9"})
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"GITLAB_TOKEN is not set", p.stderr)

    def direct_exit(self):
        return subprocess.run([self.ward, "gate", self.plan, "--format", "markdown"], stdout=subprocess.PIPE).returncode

    def github_env(self, srv):
        event = os.path.join(self.tmp.name, "event.json")
        with open(event, "w") as f:
            json.dump({"pull_request": {"number": 7}}, f)
        return {
            "GITHUB_API_URL": "http://127.0.0.1:%d" % srv.server_address[1],
            "GITHUB_REPOSITORY": "acme/infra",
            "GITHUB_EVENT_PATH": event,
            "GITHUB_TOKEN": TOKEN,
        }

    def test_a_failed_post_is_a_warning_and_the_exit_is_the_gates(self):
        expected = self.direct_exit()
        self.assertNotIn(expected, (0, 2), "the fixture plan must make the gate refuse, so the exit tells")
        with Server() as srv:
            srv.read_only = True
            env = dict(self.github_env(srv), GITHUB_ACTIONS="true")
            p = self.gate(env, post="github")
            err = p.stderr.decode()
            self.assertEqual(p.returncode, expected, err)
            self.assertIn("ward_ci: warning: could not post the comment", err)
            self.assertIn("HTTP 403", err)
            self.assertIn(b"::warning title=ward_ci::could not post the comment", p.stdout)
            self.assertNotIn(TOKEN.encode(), p.stdout + p.stderr)
        # No API at all (the variables are missing): a warning too, never exit 2.
        p = self.gate({}, post="gitlab")
        self.assertEqual(p.returncode, expected, p.stderr.decode())
        self.assertIn(b"CI_API_V4_URL is not set", p.stderr)

    def test_reviews_of_the_pull_request_approve_the_digests_its_comment_listed(self):
        with Server() as srv:
            srv.pull = {"head": {"sha": "c0ffee1"}, "user": {"login": "dev"}}
            env = self.github_env(srv)
            args = ["gate", "--plan", self.plan, "--ward", self.ward, "--body-out", self.body]
            args += ["--post", "github", "--reviews", "--", "--allow-unclassified", "--no-record-protection"]
            first = run(args, env)
            self.assertEqual(first.returncode, 4, first.stderr.decode())
            ours = [c for c in srv.comments if c["body"].startswith("<!-- ward-gate:ward-gate -->")]
            listed = [l for l in ours[0]["body"].splitlines() if l.startswith("listed c0ffee1 ")]
            self.assertEqual(len(listed), 1, ours[0]["body"][-400:])
            at = listed[0].split()[2]
            # A review at the commit the comment listed, after it: the gate passes, and the
            # comment (found past the first page of comments) is updated, not duplicated.
            srv.reviews = [{"user": {"login": "alice"}, "state": "APPROVED", "commit_id": "c0ffee1", "submitted_at": at}]
            second = run(args, env)
            self.assertEqual(second.returncode, 0, second.stderr.decode())
            self.assertIn(b"updated comment 1000", second.stdout)
            # A push after the review: refused again.
            srv.pull = {"head": {"sha": "d00d2"}, "user": {"login": "dev"}}
            third = run(args, env)
            self.assertEqual(third.returncode, 4, third.stderr.decode())
            self.assertIn("pushed since", srv.comments[-1]["body"])
            for p in (first, second, third):
                self.assertNotIn(TOKEN.encode(), p.stdout + p.stderr)

    def test_merge_request_approvals_approve_the_digests_its_note_listed(self):
        with Server() as srv:
            srv.comments = []
            srv.mr = {"sha": "c0ffee1", "author": {"username": "dev"}}
            srv.versions = [{"head_commit_sha": "c0ffee1", "created_at": "2026-01-01T00:00:00Z"}]
            env = {
                "CI_API_V4_URL": "http://127.0.0.1:%d/api/v4" % srv.server_address[1],
                "CI_PROJECT_ID": "42",
                "CI_PROJECT_PATH": "grp/infra",
                "CI_MERGE_REQUEST_IID": "9",
                "GITLAB_TOKEN": TOKEN,
            }
            # No --post: the forge is the one whose CI this is (a merge request pipeline).
            args = ["gate", "--plan", self.plan, "--ward", self.ward, "--body-out", self.body, "--reviews"]
            args += ["--", "--allow-unclassified", "--no-record-protection"]
            first = run(args, env)
            self.assertEqual(first.returncode, 4, first.stderr.decode())
            self.assertTrue(any("/projects/grp%2Finfra/merge_requests/9" in r["path"] for r in srv.requests))
            with open(self.body, encoding="utf-8") as f:
                body = f.read()
            listed = [l for l in body.splitlines() if l.startswith("listed c0ffee1 ")]
            self.assertEqual(len(listed), 1, body[-400:])
            at = listed[0].split()[2]
            # ward's note is posted (as the template does), then approved after it: the gate passes.
            srv.now = at
            posted = run(["post", "--platform", "gitlab", "--body", self.body], env)
            self.assertEqual(posted.returncode, 0, posted.stderr.decode())
            srv.approvals = [{"user": {"username": "alice"}, "approved_at": at}]
            second = run(args, env)
            self.assertEqual(second.returncode, 0, second.stderr.decode())
            # A push after the approval: refused again.
            srv.mr = {"sha": "d00d2", "author": {"username": "dev"}}
            srv.versions.append({"head_commit_sha": "d00d2", "created_at": "2026-12-31T00:00:00Z"})
            third = run(args, env)
            self.assertEqual(third.returncode, 4, third.stderr.decode())
            for p in (first, second, third):
                self.assertNotIn(TOKEN.encode(), p.stdout + p.stderr)

    def test_the_report_goes_to_the_step_summary(self):
        summary = os.path.join(self.tmp.name, "summary.md")
        with open(summary, "w") as f:
            f.write("earlier step\n")
        p = run(["gate", "--plan", self.plan, "--ward", self.ward, "--body-out", self.body, "--summary", summary], {})
        self.assertEqual(p.returncode, self.direct_exit(), p.stderr.decode())
        with open(summary, encoding="utf-8") as f:
            text = f.read()
        self.assertTrue(text.startswith("earlier step\n"), "appended, not replaced")
        self.assertIn("ward gate:", text)
        self.assertNotIn("<!-- ward-gate", text, "the summary is the report, without the comment marker")
        # A summary that cannot be written is a warning; the exit is still the gate's.
        p = run(["gate", "--plan", self.plan, "--ward", self.ward, "--body-out", self.body, "--summary", self.tmp.name], {})
        self.assertEqual(p.returncode, self.direct_exit(), p.stderr.decode())
        self.assertIn(b"could not write the step summary", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
