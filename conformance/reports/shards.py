"""Putting the shards of one matrix run back together (``matrix --shard K/N``, ``runners.shard``).

Contract: ``combine_shards(reports, notes)`` takes (file, report) pairs and returns the runs
they hold, in the order first met: a report without a ``shard`` header is a run of its own; the
shards of one run (the same platform, suite version, N, ``run_columns`` and rows) become one
report whose columns are in the run's order and whose cells are ordered as an unsharded
report's, with the summary counted and the causes grouped again: so the N shard reports of a run give that run's
report, cell for cell.  Each run comes with the headers of its files (each with ``file``).  A
shard given twice is fine when it says the same; two reports that give one cell a different
status, step, reason or count of compared states are bad input (``InputError``).  A shard of
the run that is missing is a note (a sentence in ``notes``) naming its columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError
from ..judge.cell_groups import group_report_cells
from ..judge.matrix import STATUSES, status_text
from ..runners.shard import columns_of

VERDICT = ("status", "step", "reason", "compared")
"""What two reports of one cell must agree on."""


@dataclass
class Run:
    """One matrix run: its report (the shards' combined) and the headers of its files."""

    report: dict
    headers: list[dict] = field(default_factory=list)


def _run_key(report: dict) -> tuple:
    header = report["header"]
    return (header["platform"], header["suite_version"], header["shard"].split("/")[1],
            tuple(header["run_columns"]), tuple(report["rows"]))


def combine_shards(reports: list[tuple[str, dict]], notes: list[str]) -> list[Run]:
    """The runs of ``reports``: each unsharded report alone, the shards of one run together."""
    order: list[object] = []
    groups: dict[tuple, list[tuple[str, dict]]] = {}
    for file, report in reports:
        if "shard" not in report["header"]:
            order.append(Run(report, [{**report["header"], "file": file}]))
            continue
        key = _run_key(report)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((file, report))
    return [item if isinstance(item, Run) else _combine(groups[item], notes) for item in order]


def _shard_of(report: dict) -> tuple[int, int]:
    index, count = report["header"]["shard"].split("/")
    return int(index), int(count)


def _combine(shards: list[tuple[str, dict]], notes: list[str]) -> Run:
    """One run from its shards (``combine_shards``)."""
    first = shards[0][1]
    run_columns = first["header"]["run_columns"]
    runners: dict[str, dict] = {}
    cells: dict[tuple[str, str], tuple[str, dict]] = {}
    for file, report in shards:
        for runner_id, info in report["runners"].items():
            if runner_id not in runners or (info.get("available") and not runners[runner_id].get("available")):
                runners[runner_id] = info
        for cell in report["cells"]:
            _add_cell(cells, file, report, cell)
    count = _shard_of(first)[1]
    seen = {_shard_of(report)[0] for _, report in shards}
    for index in (k for k in range(1, count + 1) if k not in seen):
        notes.append(f"{first['header']['platform']}: shard {index}/{count} of a run is missing, so its columns "
                     f"({', '.join(columns_of(run_columns, index, count))}) are not in the merged matrix")
    columns = [c for c in run_columns if c in runners] + [c for c in runners if c not in run_columns]
    ordered = [cells[(row, r)][1] for row in first["rows"] for r in columns if (row, r) in cells]
    counts = {s: sum(1 for c in ordered if c["status"] == s) for s in STATUSES}
    headers = [{**report["header"], "file": file} for file, report in shards]
    header = {k: v for k, v in first["header"].items() if k not in ("shard", "run_columns")}
    header.update(started=min(h["started"] for h in headers), seconds=sum(h["seconds"] for h in headers))
    report = {**first, "header": header, "runners": {c: runners[c] for c in columns}, "cells": ordered,
              "summary": {**counts, "compared": sum(c["compared"] for c in ordered)}}
    if "causes" in first:  # grouped again over every shard's cells, as the unsharded run groups them
        report["causes"] = [g.to_json() for g in group_report_cells(ordered)]
    return Run(report, headers)


def _add_cell(cells: dict, file: str, report: dict, cell: dict) -> None:
    """``cell`` into ``cells``; the same cell from another file must say the same."""
    key = (cell["row"], cell["runner"])
    if key not in cells:
        cells[key] = (file, cell)
        return
    other_file, other = cells[key]
    if all(other[k] == cell[k] for k in VERDICT):
        return
    said = [f"{status_text(c['status'], c['step'])}, {c['compared']} compared" + (f", {c['reason'][:80]!r}"
                                                                                 if c["reason"] != o["reason"] else "")
            for c, o in ((cell, other), (other, cell))]
    raise InputError(file, f"cells[{cell['row']} on {cell['runner']}]",
                     f"shard {report['header']['shard']} says {said[0]}, but {other_file} says {said[1]}: "
                     "two runs of one shard disagree (merge the shards of one run)")
