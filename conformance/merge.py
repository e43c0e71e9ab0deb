"""Merging per-platform reports into one hash matrix.

Contract: ``load_report(path)`` validates one report.json against the report schema (an
``InputError`` names the file, key path and reason); ``merge_reports`` refuses reports made
against different goldens (and says which digests differ) and returns one merged document
whose columns are labelled ``<platform>/<runner>``; ``write_merged`` writes matrix.json,
matrix.md and a self-contained matrix.html.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema

from .errors import InputError, format_path
from .html_report import html_page
from .jsonfile import read_json, write_json_atomic
from .matrix import DIVERGED, ERROR, PASS, SKIPPED
from .report import markdown

MERGED_FORMAT = "orca-merged/1"


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("conformance").joinpath("schemas/report.schema.json").read_text()
    return jsonschema.Draft202012Validator(json.loads(text))


def load_report(path: Path) -> dict:
    file = str(path)
    data = read_json(path)
    errors = list(_validator().iter_errors(data))
    if errors:
        err = jsonschema.exceptions.best_match(errors)
        raise InputError(file, format_path(list(err.absolute_path)), err.message)
    return data


def merge_reports(reports: list[tuple[str, dict]]) -> dict:
    """One matrix from (file, report) pairs made against the same goldens."""
    if not reports:
        raise InputError("command line", "REPORT", "no report given")
    digests = {}
    for file, report in reports:
        digests.setdefault(report["header"]["goldens_digest"], []).append(file)
    if len(digests) > 1:
        listing = "; ".join(f"{d[:19]}… in {', '.join(files)}" for d, files in digests.items())
        raise InputError(reports[0][0], "header.goldens_digest",
                         f"reports were made against different goldens ({listing}): re-run them on one suite version")
    columns: list[tuple[str, str]] = []
    cells = []
    rows: list[str] = []
    runners = {}
    headers = []
    for file, report in reports:
        platform = report["header"]["platform"]
        headers.append({**report["header"], "file": file})
        for row in report["rows"]:
            if row not in rows:
                rows.append(row)
        for runner_id, info in report["runners"].items():
            column = f"{platform}/{runner_id}"
            if column in runners:
                column = f"{column}#{len(runners)}"
            runners[column] = {**info, "platform_label": platform}
            columns.append((column, column))
            for cell in report["cells"]:
                if cell["runner"] == runner_id:
                    cells.append({**cell, "column": column})
    counts = {s: sum(1 for c in cells if c["status"] == s) for s in (PASS, DIVERGED, ERROR, SKIPPED)}
    return {
        "format": MERGED_FORMAT,
        "header": {"suite_version": headers[0]["suite_version"], "goldens_digest": next(iter(digests)),
                   "platform": f"{len(reports)} reports", "started": min(h["started"] for h in headers),
                   "seconds": sum(h["seconds"] for h in headers)},
        "reports": headers,
        "columns": [c for c, _ in columns],
        "runners": runners,
        "rows": rows,
        "summary": {**counts, "compared": sum(c["compared"] for c in cells)},
        "cells": cells,
    }


def write_merged(merged: dict, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    columns = [(c, c) for c in merged["columns"]]
    paths = [folder / "matrix.json", folder / "matrix.md", folder / "matrix.html"]
    write_json_atomic(paths[0], merged)
    for path, text in ((paths[1], markdown(merged, columns, "merged hash matrix")), (paths[2], html_page(merged))):
        tmp = path.with_name("." + path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return paths
