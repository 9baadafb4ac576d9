#!/usr/bin/env python3
"""Times commands side by side for scripts/bench-fleet (docs/performance.md, "Fleet"): each
command RUNS times, round-robin (so that the shared machine's load changes hit every command
alike), wall time and CPU time (user + system of the command and everything it waited for:
wait4's rusage), and the sha256 of its standard output, so that before and after can be shown
to print the same bytes.

Usage: bench-fleet-time.py [--ok N] [--server PID] RUNS LABEL COMMAND [LABEL COMMAND ...]

COMMAND is one string, split as a shell would split words (shlex; no shell runs it). A command
that exits with a code above N (default 0: ward's exit codes up to 6 are results, such as
`ward plan`'s 3 for a plan with hazards) or is killed stops the benchmark. Prints a Markdown table: the load
average (1 minute) before the first and after the last round, then per command the wall time's
minimum, median and maximum, the median CPU time (ms) and the output's digest (short).

--server PID: the PostgreSQL postmaster's process id (postmaster.pid's first line). The CPU a
command's database session took is not the command's: the server runs each session in a
backend process of its own, which the postmaster reaps when the session ends. The growth of
the postmaster's reaped children's CPU time (/proc/PID/stat, cutime + cstime) across a run is
that backend's CPU (and of anything else of the server that ended meanwhile: an autovacuum
worker), added as a column: the mean over the runs, since the kernel counts it in ticks of
10 ms.
"""
import hashlib
import os
import shlex
import statistics
import subprocess
import sys
import time


def children_cpu(pid):
    """The CPU seconds of process `pid`'s reaped children (0 without a pid)."""
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # After the command's closing parenthesis: field 3 (state) is fields[0]; cutime and cstime
    # are fields 16 and 17.
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def children(pid):
    """The process ids of `pid`'s children (zombies included: they are not reaped yet)."""
    if pid is None:
        return set()
    out = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out.update(f.read().split())
    return out


def once(cmd, ok, server):
    kept = children(server)
    before = children_cpu(server)
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    digest = hashlib.sha256()
    assert p.stdout is not None
    for chunk in iter(lambda: p.stdout.read(1 << 16), b""):
        digest.update(chunk)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code < 0 or code > ok:
        sys.exit(f"bench-fleet-time: {shlex.join(cmd)} exited {code}")
    # The backend ends after the client: wait (at most 5 s) until it has been reaped.
    deadline = time.monotonic() + 5
    while children(server) - kept and time.monotonic() < deadline:
        time.sleep(0.005)
    server_cpu = children_cpu(server) - before
    return wall, ru.ru_utime + ru.ru_stime, digest.hexdigest()[:12], server_cpu


def main():
    args = sys.argv[1:]
    ok, server = 0, None
    while args[:1] in (["--ok"], ["--server"]) and len(args) > 1 and args[1].isdigit():
        if args[0] == "--ok":
            ok = int(args[1])
        else:
            server = int(args[1])
        args = args[2:]
    if len(args) < 3 or len(args) % 2 != 1 or not args[0].isdigit():
        sys.exit("usage: bench-fleet-time.py [--ok N] [--server PID] RUNS LABEL COMMAND [LABEL COMMAND ...]")
    runs = int(args[0])
    tools = [(args[i], shlex.split(args[i + 1])) for i in range(1, len(args), 2)]
    results = {label: [] for label, _ in tools}
    load_start = os.getloadavg()[0]
    for _ in range(runs):
        for label, cmd in tools:
            results[label].append(once(cmd, ok, server))
    load_end = os.getloadavg()[0]
    print(f"load {load_start:.1f} -> {load_end:.1f}; {runs} runs each, round-robin")
    extra = " server CPU ms (mean) |" if server is not None else ""
    print(f"| command | wall ms (min / median / max) | CPU ms (median) |{extra} output |")
    print("|---|---:|---:|" + ("---:|" if server is not None else "") + "---|")
    for label, _ in tools:
        rs = results[label]
        walls = [r[0] * 1000 for r in rs]
        cpu = statistics.median(r[1] * 1000 for r in rs)
        digests = sorted({r[2] for r in rs})
        srv = f" {statistics.mean(r[3] for r in rs) * 1000:.0f} |" if server is not None else ""
        print(f"| {label} | {min(walls):.0f} / {statistics.median(walls):.0f} / {max(walls):.0f} "
              f"| {cpu:.0f} |{srv} {','.join(digests)} |")


if __name__ == "__main__":
    main()
