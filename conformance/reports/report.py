"""Per-platform conformance reports: JSON (with a schema), JUnit XML and Markdown.

Contract: ``build_report(result, suite)`` turns a MatrixResult into one JSON document with a
header (suite version, goldens digest, OS, architecture, CPU, Python, each runner's compiler
and flags, wasmtime and node versions, start time; a shard's ``shard`` and ``run_columns``) and
one record per cell (status, first divergent step, diagnosis, time taken; a red cell's short form
``brief`` and its typed ``cause``), and ``causes``: the red cells grouped by cause
(judge/cell_groups.py), each cause once with its cells.  ``write_reports``
writes ``report.json``, ``junit.xml`` (each test suite with the suite version, goldens digest,
platform and shard as properties), ``matrix.md`` and ``matrix.html`` into a folder, atomically.  ``goldens_digest`` identifies the
exact goldens a report was made against, so that ``merge`` can refuse to mix them.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import platform
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from .. import __version__
from .brief import brief_of
from .html_report import html_page
from ..jsonfile import write_json_atomic, write_text_atomic
from ..judge.cell_groups import cause_json, group_cells
from ..judge.cell_text import cell_lines
from ..judge.matrix import DIVERGED, ERROR, NOT_PROVIDED, PASS, SKIPPED, STATUSES, Cell, MatrixResult, status_text
from ..data.suite import Suite
from ..runners.needs import check

REPORT_FORMAT = "orca-report/1"


def goldens_digest(goldens: Path, framed: bool = True) -> str:
    """SHA-256 over every golden and vector file (relative path and contents, sorted); without
    ``framed``, over those of the scenario files' own scenes only (no ``ID~FRAME`` golden: what
    the self-tests read)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in goldens.rglob("*.json") if not p.name.startswith(".")
                       and (framed or "~" not in p.name)):
        digest.update(path.relative_to(goldens).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return "sha256:" + digest.hexdigest()


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _tool_version(kind: str) -> str | None:
    """The version of a tool the columns use (``runners.needs``), None when it is missing."""
    need = check(kind)
    return need.found if need.present else None


def platform_label() -> str:
    return f"{platform.system().lower()}-{platform.machine().lower()}"


def build_report(result: MatrixResult, suite: Suite, started: _dt.datetime | None = None,
                 header: dict | None = None) -> dict:
    """The JSON report of one matrix run on this machine; ``header``: fields added to its header
    (a shard's ``shard`` and ``run_columns``, ``runners.shard``)."""
    started = started or _dt.datetime.now(_dt.timezone.utc)
    runners = {}
    for runner_id in result.runners:
        info = result.infos.get(runner_id)
        if info is None:
            reasons = {c.reason for (row, r), c in result.cells.items() if r == runner_id}
            runners[runner_id] = {"id": runner_id, "available": False, "reason": "; ".join(sorted(reasons))}
        else:
            runners[runner_id] = {**info.to_json(), "available": True}
    counts = {s: sum(1 for c in result.cells.values() if c.status == s) for s in STATUSES}
    return {
        "format": REPORT_FORMAT,
        "header": {
            "suite_version": __version__,
            "goldens_digest": goldens_digest(suite.goldens_dir),
            "platform": platform_label(),
            "os": f"{platform.system()} {platform.release()}",
            "architecture": platform.machine().lower(),
            "cpu": _cpu(),
            "python": platform.python_version(),
            "wasmtime": _tool_version("wasmtime"),
            "node": _tool_version("node"),
            "started": started.isoformat(timespec="seconds"),
            "seconds": round(result.seconds, 3),
            **(header or {}),
        },
        "runners": runners,
        "rows": list(result.rows),
        "summary": {**counts, "compared": result.compared()},
        "cells": [_cell_json(result.cells[(row, r)]) for row in result.rows for r in result.runners],
        "causes": [g.to_json() for g in group_cells([result.cells[(row, r)] for row in result.rows
                                                     for r in result.runners])],
    }


def _cell_json(cell: Cell) -> dict:
    """A cell as the report holds it: with its short form (``brief``) and its cause (``cause``,
    what cells of one mistake share: judge/cell_groups.py) when it is red."""
    if cell.status not in (DIVERGED, ERROR):
        return {**cell.to_json(), "brief": []}
    return {**cell.to_json(), "brief": [line.strip() for line in cell_lines(cell)], "cause": cause_json(cell)}



_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """Text XML 1.0 can hold: a port's stderr may carry control characters (colour codes)."""
    return _NOT_XML.sub("?", text)


JUNIT_PROPERTIES = ("suite_version", "goldens_digest", "platform", "shard")
"""Header fields each JUnit <testsuite> carries as <properties> (a port pins the first two)."""


def junit_xml(report: dict) -> str:
    """One <testsuite> per runner, one <testcase> per row (xml.etree writes and escapes it)."""
    root = ET.Element("testsuites")
    label = report["header"]["platform"]
    properties = [(k, str(report["header"][k])) for k in JUNIT_PROPERTIES if report["header"].get(k) is not None]
    for runner_id in report["runners"]:
        cells = [c for c in report["cells"] if c["runner"] == runner_id]
        suite = ET.SubElement(root, "testsuite", {
            "name": f"orca-conformance {label} {runner_id}", "tests": str(len(cells)),
            "failures": str(sum(c["status"] == DIVERGED for c in cells)),
            "errors": str(sum(c["status"] == ERROR for c in cells)),
            "skipped": str(sum(c["status"] in (SKIPPED, NOT_PROVIDED) for c in cells)),
            "time": f"{sum(c['seconds'] for c in cells):.3f}"})
        if properties:
            listed = ET.SubElement(suite, "properties")
            for name, value in properties:
                ET.SubElement(listed, "property", {"name": name, "value": value})
        for c in cells:
            case = ET.SubElement(suite, "testcase", {"classname": f"{label}.{runner_id}", "name": c["row"],
                                                     "time": f"{c['seconds']:.3f}"})
            reason = _xml_text(c["reason"])
            kind = {DIVERGED: ("failure", "diverged"), ERROR: ("error", "error")}.get(c["status"])
            if kind:  # the message leads with the clause the cell cites: CI tools show it truncated
                cites = f"[{', '.join(c['clauses'][:2])}] " if c.get("clauses") else ""
                ET.SubElement(case, kind[0], {"message": (cites + reason)[:500], "type": kind[1]}).text = reason
            elif c["status"] in (SKIPPED, NOT_PROVIDED):  # NOT PROVIDED: the families the port's hello leaves out
                ET.SubElement(case, "skipped", {"message": reason[:500]})
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def markdown(report: dict, columns: list[tuple[str, str]] | None = None, title: str | None = None) -> str:
    """A Markdown hash matrix: rows x columns (column key, label), then the red cells."""
    header = report["header"]
    columns = columns or [(r, r) for r in report["runners"]]
    index = {(c["row"], c.get("column", c["runner"])): c for c in report["cells"]}
    where = header["platform"] + (f", shard {header['shard']}" if header.get("shard") else "")
    lines = [f"## {title or 'orca-conformance hash matrix'} ({where})", "",
             f"Suite {header['suite_version']}, goldens `{header['goldens_digest']}`, "
             f"{header['started']}, {header['seconds']:.0f} s. "
             f"{report['summary'][PASS]} passed, {report['summary'][DIVERGED]} diverged, "
             f"{report['summary'][ERROR]} errors, {_not_provided(report)}{report['summary'][SKIPPED]} skipped.", ""]
    lines.append("| scenario | " + " | ".join(label for _, label in columns) + " |")
    lines.append("|---|" + "---|" * len(columns))
    for row in report["rows"]:
        cells = []
        for key, _ in columns:
            cell = index.get((row, key))
            cells.append("–" if cell is None else status_text(cell["status"], cell["step"]))
        lines.append(f"| `{row}` | " + " | ".join(cells) + " |")
    problems = [c for c in report["cells"] if c["status"] in (DIVERGED, ERROR)]
    skipped = {}
    for c in report["cells"]:
        if c["status"] == SKIPPED:
            skipped.setdefault(c.get("column", c["runner"]), c["reason"])
    lacking = [c for c in report["cells"] if c["status"] == NOT_PROVIDED]
    if problems or skipped or lacking:
        lines.append("")
    for c in problems:  # the short form, then the whole diagnosis folded away (GitHub renders <details>)
        head, *rest = brief_of(c)
        lines.append(f"- **{c['status']}** `{c['row']}` on `{c.get('column', c['runner'])}`: "
                     f"{head.split(']: ', 1)[-1]}")
        lines.extend(f"  {line}  " for line in rest)
        lines.append(f"  <details><summary>whole diagnosis</summary>\n\n  {c['reason']}\n  </details>")
    for c in lacking:
        lines.append(f"- NOT PROVIDED `{c['row']}` on `{c.get('column', c['runner'])}`: {c['reason']}")
    for column, reason in skipped.items():
        lines.append(f"- SKIPPED `{column}`: {reason}")
    return "\n".join(lines) + "\n"


def _not_provided(report: dict) -> str:
    """"2 not provided, " when vectors rows are NOT PROVIDED (a report of 0.1.0 has no such count)."""
    count = report["summary"].get(NOT_PROVIDED, 0)
    return f"{count} not provided, " if count else ""


def write_reports(result: MatrixResult, suite: Suite, folder: Path, runners: dict | None = None,
                  divergence: bool = True, header: dict | None = None) -> list[Path]:
    """report.json, junit.xml, matrix.md and matrix.html in folder; returns their paths.

    With ``divergence`` (the default), every DIVERGED scenario cell's diagnosis gains the
    growth of the difference (``divergence.attach_to_report``): the runner is taken from
    ``runners`` (id -> Runner) or resolved again from its id, within a time bound.  ``header``:
    fields added to the report's header (``build_report``)."""
    folder.mkdir(parents=True, exist_ok=True)
    report = build_report(result, suite, header=header)
    if divergence and any(c["status"] == DIVERGED for c in report["cells"]):
        from ..judge.divergence import attach_to_report
        chosen = set(result.rows)
        attach_to_report(report, {s.id: s for s in suite.scenarios() if s.id in chosen}, runners)
    paths = [folder / "report.json", folder / "junit.xml", folder / "matrix.md", folder / "matrix.html"]
    write_json_atomic(paths[0], report)
    write_text_atomic(paths[1], junit_xml(report))
    write_text_atomic(paths[2], markdown(report))
    write_text_atomic(paths[3], html_page(report))
    return paths
