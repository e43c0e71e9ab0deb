"""Merging per-platform reports into one hash matrix.

Contract: ``load_report(path)`` validates one report.json against the report schema (an
``InputError`` names the file, key path and reason); ``merge_reports`` refuses reports made
against different goldens (and says which digests differ), puts the shards of one run back
together (``shards.combine_shards``: N shard reports merge as the unsharded report would), notes
reports of different suite versions and missing shards (``notes``, which the CLI prints as
``warning:`` lines and matrix.md shows above the table) and returns one merged document
whose columns are labelled ``<platform>/<runner>``, with ``architectures``: per CPU
architecture, every column that ran it across the reports (a native build on one machine, an
emulated one on another) and whether they agree row by row; ``write_merged`` writes
matrix.json, matrix.md (with that table) and a self-contained matrix.html.
"""

from __future__ import annotations

from pathlib import Path

from ..contract import schema_files
from ..errors import InputError
from .html_report import html_page
from ..jsonfile import write_json_atomic, write_text_atomic
from ..judge.cell_groups import group_report_cells
from ..judge.matrix import NOT_PROVIDED, PASS, SKIPPED, STATUSES
from .report import markdown
from .shards import combine_shards

MERGED_FORMAT = "orca-merged/1"


def load_report(path: Path) -> dict:
    """A report.json, valid against report.schema.json."""
    return schema_files.read_valid(path, "report")


def merge_reports(reports: list[tuple[str, dict]]) -> dict:
    """One matrix from (file, report) pairs made against the same goldens; the shards of one
    run are put back together first (``shards.combine_shards``).  ``notes``: what the merge
    warns of (a missing shard, reports of different suite versions)."""
    if not reports:
        raise InputError("command line", "REPORT", "no report given")
    digests = _files_by(reports, "goldens_digest")
    if len(digests) > 1:
        listing = "; ".join(f"{d[:19]}… in {', '.join(files)}" for d, files in digests.items())
        raise InputError(reports[0][0], "header.goldens_digest",
                         f"reports were made against different goldens ({listing}): re-run them on one suite version")
    notes: list[str] = []
    versions = _files_by(reports, "suite_version")
    if len(versions) > 1:
        listing = "; ".join(f"{v} in {', '.join(files)}" for v, files in versions.items())
        notes.append(f"the reports come from different suite versions ({listing}): the goldens are the same, "
                     "but diagnoses and report fields may differ; pin one version to compare them exactly")
    columns: list[str] = []
    cells = []
    rows: list[str] = []
    runners = {}
    headers = []
    for run in combine_shards(reports, notes):
        report = run.report
        platform = report["header"]["platform"]
        headers.extend(run.headers)
        rows += [row for row in report["rows"] if row not in rows]
        for runner_id, info in report["runners"].items():
            column = f"{platform}/{runner_id}"
            if column in runners:
                column = f"{column}#{len(runners)}"
            runners[column] = {**info, "platform_label": platform}
            columns.append(column)
            cells.extend({**cell, "column": column} for cell in report["cells"] if cell["runner"] == runner_id)
    counts = {s: sum(1 for c in cells if c["status"] == s) for s in STATUSES}
    merged = {
        "format": MERGED_FORMAT,
        "header": {"suite_version": ", ".join(versions), "goldens_digest": next(iter(digests)),
                   "platform": f"{len(reports)} reports", "started": min(h["started"] for h in headers),
                   "seconds": sum(h["seconds"] for h in headers)},
        "reports": headers,
        "columns": columns,
        "runners": runners,
        "rows": rows,
        "summary": {**counts, "compared": sum(c["compared"] for c in cells)},
        "cells": cells,
        "causes": [g.to_json() for g in group_report_cells(cells)],
        "notes": notes,
    }
    merged["architectures"] = architectures(merged)
    return merged


def _files_by(reports: list[tuple[str, dict]], key: str) -> dict[str, list[str]]:
    """A header field's values, each with the files that carry it (in the order first met)."""
    found: dict[str, list[str]] = {}
    for file, report in reports:
        found.setdefault(report["header"][key], []).append(file)
    return found


ARCH_NAMES = {"arm64": "aarch64", "amd64": "x86_64", "x64": "x86_64", "x86": "i386", "i686": "i386",
              "powerpc64le": "ppc64le"}
"""Spellings of one architecture in runner infos (platform.machine(), Zig targets) -> one name."""


def architectures(merged: dict) -> list[dict]:
    """Per architecture with columns on more than one platform or engine: the columns and whether
    they agree (every row that all of them ran has the same status, and none is red; a SKIPPED
    cell or a NOT PROVIDED vectors row did not run).  Equal PASS means equal bits: each PASS is
    every hash equal to the same goldens."""
    groups: dict[str, list[str]] = {}
    for column, info in merged["runners"].items():
        arch = str(info.get("architecture", "")).lower().rsplit("-", 1)[-1]  # an exec port's "linux-aarch64"
        arch = ARCH_NAMES.get(arch, arch)
        if arch and arch != "wasm32":
            groups.setdefault(arch, []).append(column)
    status = {(c["row"], c["column"]): c["status"] for c in merged["cells"]}
    out = []
    for arch, columns in sorted(groups.items()):
        if len(columns) < 2:
            continue
        differing = []
        for row in merged["rows"]:
            seen = {column: status[(row, column)] for column in columns
                    if status.get((row, column)) not in (None, SKIPPED, NOT_PROVIDED)}
            if len(seen) > 1 and set(seen.values()) != {PASS}:
                differing.append({"row": row, "statuses": seen})
        compared = sum(1 for row in merged["rows"] for column in columns if status.get((row, column)) == PASS)
        out.append({"architecture": arch, "columns": columns, "agree": not differing and compared > 0,
                    "passed_cells": compared, "differing": differing})
    return out


def architecture_table(merged: dict) -> str:
    """The Markdown section: one line per architecture."""
    lines = ["", "## Same architecture, other machines and engines", "",
             "| architecture | columns | agree |", "|---|---|---|"]
    for group in merged.get("architectures", []):
        verdict = (f"yes ({group['passed_cells']} cells PASS)" if group["agree"] else
                   "NO: " + "; ".join(f"{d['row']}: " + ", ".join(f"{c} {s}" for c, s in d["statuses"].items())
                                      for d in group["differing"][:5]) if group["differing"] else "nothing compared")
        lines.append(f"| {group['architecture']} | {', '.join(group['columns'])} | {verdict} |")
    return "\n".join(lines) + "\n"


def with_notes(text: str, notes: list[str]) -> str:
    """The Markdown matrix with each note (a warning of the merge) above its table."""
    if not notes:
        return text
    at = text.index("\n| scenario |")
    return text[:at] + "".join(f"\n> **Warning:** {note}\n" for note in notes) + text[at:]


def write_merged(merged: dict, folder: Path) -> list[Path]:
    """matrix.json, matrix.md (the notes above the table) and matrix.html into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    columns = [(c, c) for c in merged["columns"]]
    paths = [folder / "matrix.json", folder / "matrix.md", folder / "matrix.html"]
    write_json_atomic(paths[0], merged)
    table = markdown(merged, columns, "merged hash matrix") + architecture_table(merged)
    write_text_atomic(paths[1], with_notes(table, merged.get("notes", [])))
    write_text_atomic(paths[2], html_page(merged))
    return paths
