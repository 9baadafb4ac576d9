#!/usr/bin/env python3
"""Runs the workflow of repos.yaml as Atlantis would, on a local root with real Terraform.

Atlantis runs a project's plan steps, then (on `atlantis apply`) its apply steps, in the project's
directory; a failing step stops the workflow, and a failed plan cannot be applied. Built-in steps
are Atlantis' own commands: `init` is `terraform init -input=false`, `plan` is `terraform plan
-input=false -refresh -out $PLANFILE`, `apply` is `terraform apply $PLANFILE`. `run` steps get
PLANFILE, DIR, WORKSPACE and run in `sh -c`. The resources are `terraform_data` (built into
Terraform: no provider to download).

The `ward-reviews` workflow takes its approvals from pull-request reviews: a fake GitHub API on
the loopback (FakeForge) serves the pull request, its reviews and its comments; the test posts
the plan step's output as the Atlantis bot's comment, as Atlantis would. Atlantis itself is not
run (no binary of it is reachable here): what is tested is the workflow's steps, in Atlantis'
order and environment (PLANFILE, BASE_REPO_OWNER, BASE_REPO_NAME, PULL_NUM), with real Terraform
and ward.

Needs WARD_BIN (the ward binary) and TERRAFORM (a terraform binary). Run by `cargo test -p
ward-cli --test integrations`, which sets both.
"""

import http.server
import json
import os
import re
import subprocess
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BUILTIN = {
    "init": 'terraform init -input=false -no-color',
    "plan": 'terraform plan -input=false -refresh -no-color -out "$PLANFILE"',
    "apply": 'terraform apply -input=false -no-color "$PLANFILE"',
}


def workflow(path, name="ward"):
    """{'plan': [cmd...], 'apply': [cmd...]} read from repos.yaml (the subset this file uses)."""
    stages, stage, in_flow = {}, None, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip().startswith("#") or not line.strip():
                continue
            indent = len(line) - len(line.lstrip())
            text = line.strip()
            if indent == 2 and text == name + ":":
                in_flow = True
                continue
            if in_flow and indent <= 2:
                in_flow = False
            if not in_flow:
                continue
            if indent == 4 and text in ("plan:", "apply:"):
                stage = text[:-1]
                stages[stage] = []
            elif text.startswith("- run:"):
                stages[stage].append(text[len("- run:"):].strip())
            elif re.fullmatch(r"- (init|plan|apply)", text):
                stages[stage].append(BUILTIN[text[2:]])
    return stages


class FakeForge:
    """A GitHub REST API on the loopback: GET answers from `routes` (path with query → JSON)."""

    def __init__(self):
        self.routes = {}
        self.requests = []
        forge = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                forge.requests.append((self.path, self.headers.get("Authorization")))
                body = forge.routes.get(self.path)
                data = json.dumps(body if body is not None else {"message": "Not Found"}).encode()
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Tests(unittest.TestCase):
    def setUp(self):
        self.ward = os.environ.get("WARD_BIN", "")
        self.terraform = os.environ.get("TERRAFORM", "")
        self.assertTrue(os.path.isfile(self.ward), "WARD_BIN must name the ward binary")
        self.assertTrue(os.path.isfile(self.terraform), "TERRAFORM must name a terraform binary")
        self.tmp = tempfile.TemporaryDirectory()
        self.bin = os.path.join(self.tmp.name, "bin")
        os.mkdir(self.bin)
        os.symlink(self.ward, os.path.join(self.bin, "ward"))
        os.symlink(self.terraform, os.path.join(self.bin, "terraform"))
        self.dir = os.path.join(self.tmp.name, "repo")
        os.mkdir(self.dir)
        self.flow = workflow(os.path.join(HERE, "repos.yaml"))
        self.cli_config = os.path.join(self.tmp.name, "terraformrc")
        open(self.cli_config, "w").close()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w", encoding="utf-8") as f:
            f.write(text)

    def run_stage(self, stage, flow=None, extra=None):
        """Runs a stage's steps in order; returns (index of the failing step or None, outputs)."""
        env = {
            "PATH": self.bin + os.pathsep + "/usr/bin:/bin",
            "HOME": self.tmp.name,
            "TF_CLI_CONFIG_FILE": self.cli_config,
            "TF_IN_AUTOMATION": "1",
            "PLANFILE": os.path.join(self.dir, "default.tfplan"),
            "DIR": self.dir,
            "WORKSPACE": "default",
            "NO_COLOR": "1",
        }
        env.update(extra or {})
        outputs = []
        for i, cmd in enumerate((flow or self.flow)[stage]):
            p = subprocess.run(["sh", "-c", cmd], cwd=self.dir, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=300)
            outputs.append(p.stdout.decode("utf-8", "replace"))
            if p.returncode != 0:
                return i, outputs, p.returncode
        return None, outputs, 0

    def state_inputs(self):
        p = subprocess.run([self.terraform, "show", "-json"], cwd=self.dir, stdout=subprocess.PIPE,
                           env={"TF_CLI_CONFIG_FILE": self.cli_config, "PATH": "/usr/bin:/bin"}, timeout=120)
        return p.stdout.decode()

    def test_the_workflow_is_read(self):
        self.assertEqual(len(self.flow["plan"]), 4, self.flow)
        self.assertIn("ward gate", self.flow["plan"][3])
        self.assertIn("ward verify", self.flow["apply"][0])
        self.assertEqual(self.flow["apply"][-1], BUILTIN["apply"], "verify runs before the apply")

    def test_a_gated_plan_is_applied(self):
        self.write("main.tf", 'resource "terraform_data" "app" {\n  input = "v1"\n}\n')
        failed, out, _ = self.run_stage("plan")
        self.assertIsNone(failed, out)
        self.assertIn("ward gate: pass", out[3])
        failed, out, _ = self.run_stage("apply")
        self.assertIsNone(failed, out)
        self.assertIn("Apply complete", out[-1])
        self.assertIn('"v1"', self.state_inputs())

    def test_a_plan_that_is_not_the_gated_one_is_not_applied(self):
        self.write("main.tf", 'resource "terraform_data" "app" {\n  input = "v1"\n}\n')
        failed, out, _ = self.run_stage("plan")
        self.assertIsNone(failed, out)
        # Someone plans again (another change) without the gate; the record is the old one.
        self.write("main.tf", 'resource "terraform_data" "app" {\n  input = "v2"\n}\n')
        p = subprocess.run(["sh", "-c", BUILTIN["plan"]], cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env={"PATH": self.bin + os.pathsep + "/usr/bin:/bin", "TF_CLI_CONFIG_FILE": self.cli_config,
                                "PLANFILE": os.path.join(self.dir, "default.tfplan")}, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout)
        failed, out, code = self.run_stage("apply")
        self.assertEqual(failed, 0, "verify must stop the apply: %s" % out)
        self.assertEqual(code, 1)
        self.assertIn("not the plan that passed the gate", out[0])
        self.assertNotIn('"v2"', self.state_inputs(), "nothing was applied")

    def test_a_refused_gate_fails_the_plan_until_approved(self):
        self.write("ward.hcl", 'policy {\n  protect = ["terraform_data.db"]\n}\n')
        self.write("main.tf", 'resource "terraform_data" "db" {\n  input = "v1"\n}\n')
        self.assertIsNone(self.run_stage("plan")[0])
        self.assertIsNone(self.run_stage("apply")[0])
        # A replacement of a protected address: the gate refuses, so the plan step fails.
        self.write("main.tf", 'resource "terraform_data" "db" {\n  input = "v1"\n  triggers_replace = ["2"]\n}\n')
        failed, out, code = self.run_stage("plan")
        self.assertEqual(failed, 3, out)
        self.assertEqual(code, 4, "approval required")
        self.assertIn("terraform_data.db", out[3])
        # The reviewer approves that exact change; the next `atlantis plan` passes and applies.
        p = subprocess.run([self.ward, "approve", "default.tfplan.json", "--address", "terraform_data.db",
                            "--reason", "planned replacement", "--by", "reviewer"], cwd=self.dir,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        self.assertEqual(p.returncode, 0, p.stdout)
        failed, out, _ = self.run_stage("plan")
        self.assertIsNone(failed, out)
        failed, out, _ = self.run_stage("apply")
        self.assertIsNone(failed, out)

    def test_the_reviews_workflow_is_read(self):
        flow = workflow(os.path.join(HERE, "repos.yaml"), "ward-reviews")
        self.assertIn("--approvals-from", flow["plan"][3])
        self.assertIn("ward verify", flow["apply"][0])
        self.assertIn("--approvals-from", flow["apply"][0])
        self.assertEqual(flow["apply"][-1], BUILTIN["apply"], "verify runs before the apply")

    def test_reviews_approve_and_a_push_after_the_review_stops_the_apply(self):
        flow = workflow(os.path.join(HERE, "repos.yaml"), "ward-reviews")
        forge = FakeForge()
        self.addCleanup(forge.close)
        pull = "/repos/acme/infra/pulls/7"
        reviews = pull + "/reviews?per_page=100"
        comments = "/repos/acme/infra/issues/7/comments?per_page=100"
        forge.routes[pull] = {"head": {"sha": "c0ffee1"}, "user": {"login": "dev"}}
        forge.routes[reviews] = []
        forge.routes[comments] = []
        env = {"BASE_REPO_OWNER": "acme", "BASE_REPO_NAME": "infra", "PULL_NUM": "7",
               "GITHUB_TOKEN": "ghp_atlantis_tok", "GITHUB_API_URL": forge.base}
        self.write("ward.hcl", 'policy {\n  protect = ["terraform_data.db"]\n}\n'
                   'reviewers {\n  comment_author = "atlantis-bot"\n}\n')
        self.write("main.tf", 'resource "terraform_data" "db" {\n  input = "v1"\n}\n')
        self.assertIsNone(self.run_stage("plan", flow, env)[0])
        self.assertIsNone(self.run_stage("apply", flow, env)[0])

        def replace(n):
            self.write("main.tf", 'resource "terraform_data" "db" {\n  input = "v1"\n'
                       '  triggers_replace = ["%s"]\n}\n' % n)

        # A replacement of a protected address: no review yet, the plan step fails and its
        # output (Atlantis' plan comment) lists the digests at the head.
        replace("2")
        failed, out, code = self.run_stage("plan", flow, env)
        self.assertEqual((failed, code), (3, 4), out)
        listed = [l for l in out[3].splitlines() if l.startswith("listed c0ffee1 ")]
        self.assertEqual(len(listed), 1, out[3])
        at = listed[0].split()[2]
        # Atlantis posts it; alice approves the pull request at that commit.
        forge.routes[comments] = [{"user": {"login": "atlantis-bot"}, "body": out[3], "updated_at": at}]
        forge.routes[reviews] = [{"user": {"login": "alice"}, "state": "APPROVED",
                                  "commit_id": "c0ffee1", "submitted_at": at}]
        failed, out, _ = self.run_stage("plan", flow, env)
        self.assertIsNone(failed, out)
        self.assertIn("approved by alice", out[3])
        # `atlantis apply`: verify reads the reviews again, they hold, the plan is applied.
        failed, out, _ = self.run_stage("apply", flow, env)
        self.assertIsNone(failed, out)
        self.assertIn("still hold", out[0])
        self.assertIn("Apply complete", out[-1])

        # Another replacement, reviewed and planned; then a push before `atlantis apply`.
        replace("3")
        failed, out, _ = self.run_stage("plan", flow, env)
        self.assertEqual(failed, 3, out)
        at = [l for l in out[3].splitlines() if l.startswith("listed c0ffee1 ")][-1].split()[2]
        forge.routes[comments] = [{"user": {"login": "atlantis-bot"}, "body": out[3], "updated_at": at}]
        forge.routes[reviews] = [{"user": {"login": "alice"}, "state": "APPROVED",
                                  "commit_id": "c0ffee1", "submitted_at": at}]
        failed, out, _ = self.run_stage("plan", flow, env)
        self.assertIsNone(failed, out)
        forge.routes[pull] = {"head": {"sha": "d00d2"}, "user": {"login": "dev"}}
        failed, out, code = self.run_stage("apply", flow, env)
        self.assertEqual((failed, code), (0, 1), "verify must stop the apply: %s" % out)
        self.assertIn("was pushed to since the gate (gated at c0ffee1, the head is now d00d2)", out[0])
        self.assertNotIn('"3"', self.state_inputs(), "nothing was applied")
        for _, auth in forge.requests:
            self.assertEqual(auth, "Bearer ghp_atlantis_tok")
        self.assertNotIn("ghp_atlantis_tok", "".join(out))


if __name__ == "__main__":
    unittest.main(verbosity=2)
