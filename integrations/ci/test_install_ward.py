#!/usr/bin/env python3
"""Tests of install_ward.py against a loopback release server (no network).

Run by `cargo test -p ward-cli --test integrations`, or directly with python3.
"""

import hashlib
import http.server
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "install_ward.py")
VERSION = "0.9.1"
TRIPLE = "x86_64-unknown-linux-musl"
NAME = "ward-%s-%s.tar.gz" % (VERSION, TRIPLE)
BINARY = b"#!/bin/sh\necho ward 0.9.1\n"


def archive(entries):
    """A tar.gz of (name, bytes or ('link', target)) entries."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, content in entries:
            info = tarfile.TarInfo(name)
            if isinstance(content, tuple):
                info.type = tarfile.SYMTYPE
                info.linkname = content[1]
                tar.addfile(info)
            else:
                info.size = len(content)
                info.mode = 0o755
                tar.addfile(info, io.BytesIO(content))
    return buf.getvalue()


GOOD = archive([("ward-%s-%s/ward" % (VERSION, TRIPLE), BINARY)])
GOOD_SHA = hashlib.sha256(GOOD).hexdigest()


class Release(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        files = self.server.files
        name = self.path.rsplit("/", 1)[-1]
        if name not in files:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(files[name])))
        self.end_headers()
        self.wfile.write(files[name])


class Tests(unittest.TestCase):
    def setUp(self):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Release)
        self.httpd.files = {NAME: GOOD}
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = "http://127.0.0.1:%d/v%s" % (self.httpd.server_address[1], VERSION)
        self.tmp = tempfile.TemporaryDirectory()
        self.dest = os.path.join(self.tmp.name, "bin")
        self.pins = os.path.join(self.tmp.name, "releases.sha256")
        with open(self.pins, "w") as f:
            f.write("# pins\n%s  %s\n" % (GOOD_SHA, NAME))

    def tearDown(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.tmp.cleanup()

    def install(self, *extra, pins=None):
        args = [sys.executable, SCRIPT, "--version", VERSION, "--dest", self.dest, "--target", TRIPLE]
        args += ["--base-url", self.base, "--pins", pins or self.pins] + list(extra)
        return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)

    def installed(self):
        return os.path.exists(os.path.join(self.dest, "ward"))

    def test_a_pinned_release_is_installed(self):
        p = self.install()
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stdout.decode().strip(), self.dest)
        path = os.path.join(self.dest, "ward")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), BINARY)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o755)
        self.assertEqual(sorted(os.listdir(self.dest)), ["ward"], "no temporary file left behind")

    def test_a_checksum_mismatch_is_refused(self):
        p = self.install("--sha256", "0" * 64)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"refusing it", p.stderr)
        self.assertFalse(self.installed())
        # A tampered archive against the pinned sum, too.
        self.httpd.files[NAME] = archive([("ward-x/ward", b"#!/bin/sh\necho evil\n")])
        p = self.install()
        self.assertEqual(p.returncode, 1, p.stderr.decode())
        self.assertIn(("pinned %s" % GOOD_SHA).encode(), p.stderr)
        self.assertFalse(self.installed())

    def test_no_pin_is_refused_not_trusted(self):
        empty = os.path.join(self.tmp.name, "empty.sha256")
        with open(empty, "w") as f:
            f.write("# nothing yet\n")
        p = self.install(pins=empty)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"no sha256 is pinned for " + NAME.encode(), p.stderr)
        self.assertIn(b"--from-source", p.stderr)
        self.assertFalse(self.installed())
        # The shipped pins file parses (comments only until the first release).
        shipped = os.path.join(HERE, "releases.sha256")
        p = self.install(pins=shipped)
        self.assertIn(p.returncode, (0, 1), p.stderr.decode())

    def test_archives_that_are_not_one_binary_are_refused(self):
        for entries in (
            [("ward-x/ward", BINARY), ("ward-x/extra", b"x")],
            [("ward-x/ward", ("link", "/bin/sh"))],
            [("../ward", BINARY)],
            [("ward-x/notward", BINARY)],
        ):
            data = archive(entries)
            self.httpd.files[NAME] = data
            p = self.install("--sha256", hashlib.sha256(data).hexdigest())
            self.assertEqual(p.returncode, 1, (entries, p.stderr.decode()))
            self.assertFalse(self.installed(), entries)
        self.httpd.files[NAME] = b"not a tar"
        p = self.install("--sha256", hashlib.sha256(b"not a tar").hexdigest())
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"not a gzip tar archive", p.stderr)

    def test_usage_errors_say_what_to_do(self):
        p = subprocess.run(
            [sys.executable, SCRIPT, "--version", "latest", "--dest", self.dest, "--base-url", self.base],
            stderr=subprocess.PIPE,
            timeout=60,
        )
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"is not X.Y.Z", p.stderr)
        p = subprocess.run(
            [sys.executable, SCRIPT, "--version", VERSION, "--dest", self.dest, "--target", TRIPLE,
             "--base-url", "http://example.invalid/x", "--sha256", GOOD_SHA],
            stderr=subprocess.PIPE,
            timeout=60,
        )
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"only https", p.stderr)
        del self.httpd.files[NAME]
        p = self.install()
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"HTTP 404", p.stderr)
        self.assertFalse(self.installed())


if __name__ == "__main__":
    unittest.main(verbosity=2)
