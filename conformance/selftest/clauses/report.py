"""The ``spec`` and ``clauses`` commands' reports: the text checked clause by clause, the coverage table.

Contract: ``spec_report(path, scenarios, say)`` says whether a copy of orca-spec.txt is the pinned
version, then how many clauses stand in place, moved or changed, and for each changed clause
what in the suite depends on it; True when the copy differs.  ``clauses_report`` prints the
coverage table (coverage.py), writes docs/clauses.md with ``write``, and is True while a
clause is OPEN or a piece of the suite names no clause.  ``write_clause_page`` writes
``clauses.html`` beside a matrix report: the same table, each clause with the red cells of that
report that cite it (matrix.html links each red cell's clauses there).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Callable

from ...contract import spec_text
from ...contract.clauses import CHANGED, MOVED, clause_map, verify_text
from ...data.suite import Suite
from ...jsonfile import read_json, write_text_atomic
from .coverage import OPEN, coverage, dependents, docs_path, format_rows, to_markdown, totals, unnamed_pieces


def spec_report(path: Path, scenarios: Callable[[], list], say: Callable[[str], None]) -> bool:
    result = spec_text.check(path)
    say(result.message(path))
    checks = verify_text(path)
    changed = [c for c in checks if c.status == CHANGED]
    moved = [c for c in checks if c.status == MOVED]
    say(f"clauses: {len(checks)} of orca-spec.txt: {len(checks) - len(changed) - len(moved)} in place, "
        f"{len(moved)} moved, {len(changed)} changed")
    for check in moved[:8]:
        say(f"  MOVED   {check.clause.id}: now lines {check.lines[0]}-{check.lines[1]}")
    if len(moved) > 8:
        say(f"  ... and {len(moved) - 8} more moved (the same words, lines added or removed above them)")
    if changed:
        depends = dependents(scenarios())
        for check in changed:
            say(f"  CHANGED {check.clause.id} ({check.clause.where()}, in short: {check.clause.says})")
            for kind, names in depends.get(check.clause.id, {}).items():
                say(f"          {kind}: {', '.join(names)}")
    return not result.exact


def clauses_report(suite: Suite, write: bool, listing: bool, say: Callable[[str], None]) -> bool:
    scenarios, root = suite.files(True), suite.root
    if listing:
        for clause in clause_map().clauses.values():
            say(f"{clause.id:<28} {clause.where():<26} {clause.says}")
        return False
    rows = coverage(scenarios, root)
    say(format_rows(rows))
    problems = unnamed_pieces(scenarios)
    for problem in problems:
        say(f"unnamed: {problem}")
    t = totals(rows)
    say(f"clauses: {len(rows)}: " + ", ".join(f"{n} {k.lower()}" for k, n in sorted(t.items())))
    if write:
        write_text_atomic(docs_path(root), to_markdown(rows))
        say(f"wrote {docs_path(root)}")
    return bool(t.get(OPEN)) or bool(problems)


def write_clause_page(folder: Path, suite: Suite, report_path: Path) -> Path:
    """clauses.html in ``folder``: every clause (anchored by its id), its status and what serves
    it, and the cells of the report at ``report_path`` that cite it."""
    citing: dict[str, list[str]] = {}
    for cell in read_json(report_path).get("cells", []):
        for clause_id in cell.get("clauses") or []:
            citing.setdefault(clause_id, []).append(f"{cell['row']} on {cell['runner']}")
    rows = []
    for r in coverage(suite.files(True), suite.root):
        cells = ", ".join(citing.get(r.clause.id, [])) or "-"
        controls = ", ".join(r.caught + [f"{n} (vectors)" for n in r.vectors_only]) or "-"
        rows.append(f'<tr id="{escape(r.clause.id)}"><td><code>{escape(r.clause.id)}</code></td>'
                    f"<td>{escape(r.clause.where())}</td><td>{escape(r.clause.says)}</td><td>{r.status}</td>"
                    f"<td>scenarios: {len(r.scenarios)}; vector cases on a boundary: {r.vector_cases}</td>"
                    f"<td>{escape(controls)}</td><td>{escape(cells)}</td></tr>")
    page = ("<!doctype html><html><head><meta charset=\"utf-8\"><title>orca-conformance: clauses</title>"
            "<style>body{font-family:sans-serif;margin:1em}td,th{border:1px solid #ccc;padding:3px 6px;"
            "vertical-align:top;font-size:90%}table{border-collapse:collapse}:target{background:#ffd}</style>"
            "</head><body><h1>Clauses of orca-spec.txt, the spec notes and the porting rules</h1>"
            "<p>What pins and defends each rule (docs/boundaries.md, Clauses); the last column lists the red "
            "cells of this report that cite it. <a href=\"matrix.html\">Back to the matrix</a>.</p><table><tr>"
            "<th>clause</th><th>where</th><th>says</th><th>status</th><th>data</th><th>controls</th>"
            "<th>cited here by</th></tr>" + "".join(rows) + "</table></body></html>\n")
    path = folder / "clauses.html"
    write_text_atomic(path, page)
    return path
