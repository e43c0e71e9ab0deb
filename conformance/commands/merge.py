"""``orca-conformance merge REPORT... --out DIR``: per-platform reports into one matrix.

Contract: merging is ``reports.merge``'s; a note it makes (a shard missing, another suite
version) is a ``warning:`` line on stderr, an unreadable report or ``--out`` is bad input, and
the command fails when a merged cell diverged or errored.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..jsonfile import writable_folder
from .command import Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``REPORT...`` and ``--out DIR``."""
    p.add_argument("reports", nargs="+", metavar="REPORT", help="report.json files from matrix --report")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for matrix.json, matrix.md, matrix.html")


def run(args: argparse.Namespace) -> int:
    """Load, merge and write the reports; print the merged summary."""
    from ..reports.merge import load_report, merge_reports, write_merged
    writable_folder(args.out, "--out")
    reports = [(str(p), load_report(Path(p))) for p in args.reports]
    merged = merge_reports(reports)
    for note in merged["notes"]:
        print(f"warning: {note}", file=sys.stderr, flush=True)
    for path in write_merged(merged, Path(args.out)):
        say(f"merged: {path}")
    s = merged["summary"]
    say(f"merge: {len(reports)} reports, {len(merged['columns'])} columns: {s['PASS']} passed, "
        f"{s['DIVERGED']} diverged, {s['ERROR']} errors, "
        + (f"{s['NOT PROVIDED']} not provided, " if s.get("NOT PROVIDED") else "") + f"{s['SKIPPED']} skipped")
    return exit_code(bool(s["DIVERGED"] or s["ERROR"]))


COMMAND = Command(
    "merge", "combine per-platform reports into one matrix", """
Combine the report.json files of several machines (matrix --report) into one
matrix whose columns are <platform>/<runner>, and say per CPU architecture
whether its columns agree.  The reports of one run's shards (matrix --shard K/N)
are first put back together into that run's report; a shard missing is a
warning, two shards that disagree on one cell are bad input.  Refuses reports
made against other goldens; warns when they come from other suite versions.
Writes matrix.json, matrix.md and a self-contained matrix.html into --out.""",
    ("orca-conformance merge linux-x64/report.json linux-arm64/report.json --out merged",
     "orca-conformance merge shard-1/report.json shard-2/report.json shard-3/report.json --out merged"),
    ok="no merged cell diverged or errored", failed="one did",
    add_arguments=add_arguments, run=run)
