#!/usr/bin/env python3
"""Prints one table of a ward SQLite history as PostgreSQL COPY text (tab-separated, \\N for
NULL), for scripts/bench-fleet to copy a synthesized history into PostgreSQL.

Usage: bench-fleet-copy.py SQLITE_FILE TABLE
"""
import sqlite3
import sys

TABLES = {
    "runs",
    "outcomes",
    "root_state",
    "root_latest",
    "findings",
    "records",
    "approvals",
    "gate_outcomes",
}


def cell(v):
    if v is None:
        return "\\N"
    return (
        str(v)
        .replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
    )


def main():
    db, table = sys.argv[1], sys.argv[2]
    if table not in TABLES:
        sys.exit(f"bench-fleet-copy: {table}: not a history table ({', '.join(sorted(TABLES))})")
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    out = sys.stdout
    for row in con.execute(f"SELECT * FROM {table}"):
        out.write("\t".join(cell(v) for v in row) + "\n")


if __name__ == "__main__":
    main()
