#!/usr/bin/env python3
"""Install a released ward binary, verified against a pinned sha256, for CI jobs.

    install_ward.py --version 0.2.0 --dest DIR [--sha256 HEX] [--pins FILE] [--base-url URL]
                    [--target TRIPLE]
    install_ward.py --from-source --version 0.2.0 --dest DIR     # cargo install --locked

The release workflow (.github/workflows/release.yml) publishes, for each tag vX.Y.Z, one archive
per platform, `ward-X.Y.Z-TRIPLE.tar.gz` (holding `ward-X.Y.Z-TRIPLE/ward`), and a SHA256SUMS file.
This script downloads the archive for this machine from --base-url (the action passes the
release's download URL) and refuses it unless its sha256 is the one pinned:

- --sha256 HEX, when given (the caller pins it, e.g. an input of the action), else
- the line for that archive in --pins (default: releases.sha256 beside this script, which each
  release of the action updates; the same `HEX  NAME` format as SHA256SUMS).

A version with no pinned checksum is refused, never trusted on first use: pin it, or build from
source with --from-source (cargo install --locked, slower: several minutes). The archive must
hold exactly one regular file named `ward`; links, other files and paths leaving the directory
are refused. It is installed as DEST/ward (mode 0755) by an atomic rename, and DEST is printed
on stdout (the action appends it to $GITHUB_PATH).

Exit codes: 0 installed, 1 refused (checksum, archive), 2 usage or download error.
Python 3.8+ standard library only; every download has a timeout and a size limit.
"""

import argparse
import hashlib
import io
import os
import platform
import re
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT = 60
MAX_BYTES = 256 * 1024 * 1024
HERE = os.path.dirname(os.path.abspath(__file__))
VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$")
TRIPLES = {
    ("Linux", "x86_64"): "x86_64-unknown-linux-musl",
    ("Linux", "aarch64"): "aarch64-unknown-linux-musl",
    ("Linux", "arm64"): "aarch64-unknown-linux-musl",
    ("Darwin", "x86_64"): "x86_64-apple-darwin",
    ("Darwin", "arm64"): "aarch64-apple-darwin",
}


class Refused(Exception):
    """The download is not what was pinned: exit 1."""


class Usage(Exception):
    """A usage, environment or network problem: exit 2."""


def target_triple(given):
    if given:
        return given
    key = (platform.system(), platform.machine())
    if key not in TRIPLES:
        raise Usage("no release binary for %s %s: use --from-source" % key)
    return TRIPLES[key]


def pinned(pins_file, name):
    """The sha256 pinned for archive `name`, or None."""
    try:
        with open(pins_file, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Usage("cannot read the pins %s: %s" % (pins_file, e))
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("*") == name:
            return parts[0].lower()
    return None


def download(url):
    parts = urllib.parse.urlsplit(url)
    loopback = parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")
    if parts.scheme != "https" and not loopback:
        raise Usage("refusing to download from %s: only https (or a loopback test server)" % url)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as resp:
            data = resp.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as e:
        raise Usage("GET %s: HTTP %d %s (is the version released?)" % (url, e.code, e.reason))
    except (urllib.error.URLError, OSError) as e:
        raise Usage("GET %s: %s" % (url, getattr(e, "reason", e)))
    if len(data) > MAX_BYTES:
        raise Refused("%s is larger than %d bytes" % (url, MAX_BYTES))
    return data


def the_binary(data, name):
    """The one regular file `ward` in the archive, or Refused."""
    try:
        tar = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")
        members = tar.getmembers()
    except (tarfile.TarError, OSError, EOFError) as e:
        raise Refused("%s is not a gzip tar archive: %s" % (name, e))
    files = [m for m in members if not m.isdir()]
    if len(files) != 1:
        raise Refused("%s holds %d entries besides directories, expected only `ward`" % (name, len(files)))
    m = files[0]
    parts = m.name.split("/")
    if not m.isreg() or parts[-1] != "ward" or m.name.startswith("/") or ".." in parts:
        raise Refused("%s holds %r, expected one regular file named ward" % (name, m.name))
    f = tar.extractfile(m)
    if f is None:
        raise Refused("%s: cannot read %s" % (name, m.name))
    return f.read()


def place(dest, binary):
    """Writes DEST/ward atomically (a temporary file renamed over it), mode 0755."""
    os.makedirs(dest, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".ward-", dir=dest)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(binary)
        os.chmod(tmp, 0o755)
        os.replace(tmp, os.path.join(dest, "ward"))
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def from_source(version, dest):
    cmd = ["cargo", "install", "--locked", "--root", dest, "ward-cli", "--version", version]
    try:
        subprocess.run(cmd, check=True, timeout=3600)
    except FileNotFoundError:
        raise Usage("cargo is not installed: install a Rust toolchain, or use the release binary")
    except subprocess.CalledProcessError as e:
        raise Usage("cargo install failed with exit %d" % e.returncode)
    except subprocess.TimeoutExpired:
        raise Usage("cargo install did not finish in an hour")
    return os.path.join(dest, "bin")


def main(argv):
    ap = argparse.ArgumentParser(prog="install_ward.py", description=__doc__.split("\n")[0])
    ap.add_argument("--version", required=True, help="the ward version, X.Y.Z (no leading v)")
    ap.add_argument("--dest", required=True, help="the directory to install ward into")
    ap.add_argument("--sha256", help="the archive's sha256, pinned by the caller")
    ap.add_argument("--pins", default=os.path.join(HERE, "releases.sha256"))
    ap.add_argument("--base-url", help="where the release's archives are (the action passes it)")
    ap.add_argument("--target", help="the platform triple (default: this machine's)")
    ap.add_argument("--from-source", action="store_true", help="cargo install --locked instead")
    a = ap.parse_args(argv)
    try:
        if not VERSION.match(a.version):
            raise Usage("--version %r is not X.Y.Z (write 0.2.0, not v0.2.0 or latest)" % a.version)
        if a.from_source:
            print(from_source(a.version, os.path.abspath(a.dest)))
            return 0
        if not a.base_url:
            raise Usage("--base-url is needed (the release's download URL), or use --from-source")
        name = "ward-%s-%s.tar.gz" % (a.version, target_triple(a.target))
        want = (a.sha256 or "").lower() or pinned(a.pins, name)
        if not want:
            raise Refused(
                "no sha256 is pinned for %s: pass --sha256 (from the release's SHA256SUMS, checked "
                "out of band), add it to %s, or use --from-source" % (name, a.pins)
            )
        if not re.fullmatch(r"[0-9a-f]{64}", want):
            raise Usage("the pinned sha256 for %s is not 64 hex digits" % name)
        data = download("%s/%s" % (a.base_url.rstrip("/"), name))
        got = hashlib.sha256(data).hexdigest()
        if got != want:
            raise Refused("%s has sha256 %s, pinned %s: refusing it" % (name, got, want))
        place(os.path.abspath(a.dest), the_binary(data, name))
        print(os.path.abspath(a.dest))
        return 0
    except Refused as e:
        sys.stderr.write("install_ward: refused: %s\n" % e)
        return 1
    except Usage as e:
        sys.stderr.write("install_ward: error: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
