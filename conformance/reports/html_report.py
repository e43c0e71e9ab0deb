"""A self-contained HTML page of a (merged) hash matrix: colours, details and pictures.

Contract: ``html_page(doc)`` takes a report or merged document and returns one HTML string
with inline CSS.  It reads top-down: the distinct causes of the red cells first ("What
failed": each cause once, grouped by its typed fields in judge/cell_groups.py, with the cells
that say it folded in a ``<details>``), then the matrix, then each red cell as a cause box (its
short form: judge/cell_text.py), its pictures, and its whole diagnosis folded in a
``<details>`` (with, for a cell that carries a ``picture``, an inline SVG of the reference and
the runner around the first divergent step with the divergent agent marked).
When the diagnosis carries a ``divergence`` series (divergence.py), the cell also shows how the
difference grows (a log chart of max |Δposition| in metres and ulps, the step where it becomes
visible marked) and both runs at that step, overlaid, with a legend and a scale bar.  A table
under the matrix gives each column's platform, compiler and flags.

The pictures are hand-drawn SVG rather than matplotlib: they need no dependency (matplotlib
and its numpy would be the suite's largest install, for a CI artefact), stay a few kilobytes
inline in one self-contained file, are plain text that tests can read (legend entries, axis
labels, the "visible at step N" mark), and come out the same on every machine, so reports
from several machines merge into one page that looks alike.
No external resource is referenced, so the file can be attached to a CI run as it is.
"""

from __future__ import annotations

from html import escape
from importlib import resources
from string import Template

from .divergence_drawing import divergence_chart_svg, divergence_overlay_svg
from .brief import brief_of
from ..judge.cell_groups import CauseGroup, group_report_cells
from .drawing import neighborhood_svg
from ..judge.matrix import DIVERGED, ERROR, NOT_PROVIDED, PASS, SKIPPED, status_text

PAGE = Template(resources.files(__package__).joinpath("page.html").read_text(encoding="utf-8"))
"""The page around the tables (reports/page.html): string.Template from the standard library is
enough for one page of substitutions, and keeps the report free of a template engine dependency."""


def html_page(doc: dict) -> str:
    s = doc["summary"]
    header = doc["header"]
    columns = doc.get("columns") or list(doc["runners"])
    runners = doc.get("runners") or {}
    platforms = [f"<p><small>{escape(r['platform'])}: {escape(r.get('os', ''))}, {escape(r.get('cpu', ''))}, "
                 f"Python {escape(r.get('python', ''))}</small></p>" for r in doc.get("reports", [])]
    return PAGE.substitute(
        suite_version=escape(header["suite_version"]), goldens_digest=escape(header["goldens_digest"]),
        started=escape(str(header["started"])), passed=s[PASS], diverged=s[DIVERGED], errors=s[ERROR],
        not_provided=s.get(NOT_PROVIDED, 0), skipped=s[SKIPPED], compared=s["compared"], platforms="\n".join(platforms),
        causes=_causes(doc), matrix=_matrix_table(doc, columns, runners), columns=_columns_table(columns, runners),
        details="\n".join(_details(doc)))


def css_class(status: str) -> str:
    """A status as the class of its table cell: NOT PROVIDED as ``NOT_PROVIDED`` (a class has no space)."""
    return status.replace(" ", "_")


def _matrix_table(doc: dict, columns: list[str], runners: dict) -> str:
    """The matrix: one row per scenario (and the vectors), a coloured cell per column; a red cell
    links to its detail below."""
    index = {(c["row"], c.get("column", c["runner"])): c for c in doc["cells"]}
    rows = ["<table><tr><th>scenario</th>" + "".join(
        f'<th title="{escape(_column_line(runners.get(c)))}">{escape(c)}</th>' for c in columns) + "</tr>"]
    for row in doc["rows"]:
        cells = []
        for column in columns:
            cell = index.get((row, column))
            if cell is None:
                cells.append("<td>–</td>")
                continue
            anchor = f' href="#{_anchor(row, column)}"' if cell["status"] in (DIVERGED, ERROR) else ""
            text = escape(status_text(cell["status"], cell["step"]))
            body = f"<a{anchor}>{text}</a>" if anchor else text
            cells.append(f'<td class="{css_class(cell["status"])}" title="{escape(cell["reason"])}">{body}</td>')
        rows.append(f"<tr><td><code>{escape(row)}</code></td>{''.join(cells)}</tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _cause_box(cell: dict, column: str) -> str:
    """A red cell's short form: status, scenario, column, the headline's cause and clause, then
    the values that differ and the clause's words, each clause linked to clauses.html."""
    head, *rest = brief_of(cell)
    said = head.split("]: ", 1)[-1]
    links = ", ".join(f'<a href="clauses.html#{escape(c)}"><code>{escape(c)}</code></a>' for c in cell.get("clauses", []))
    lines = "".join(f"<br><small>{escape(line)}</small>" for line in rest)
    cites = f'<br><small class="cites">clauses: {links}</small>' if links else ""
    return (f'<div class="cause"><b>{cell["status"]}</b> <code>{escape(cell["row"])}</code> on '
            f"<code>{escape(column)}</code>: {escape(said)}{lines}{cites}</div>")


def _causes(doc: dict) -> str:
    """Each distinct cause of the red cells once (judge/cell_groups.py: grouped by kind, key and
    clauses), with the cells that say it folded under it: read before the matrix."""
    groups = group_report_cells(doc["cells"])
    if not groups:
        return ""
    items = [_cause_group(g) for g in groups[:MAX_CAUSES]]
    if len(groups) > MAX_CAUSES:
        items.append(f'<p class="note">{len(groups) - MAX_CAUSES} more causes: see each red cell below.</p>')
    return "<h2>What failed</h2>\n" + "\n".join(items)


def _cause_group(group: CauseGroup) -> str:
    """One cause: status, column, "N cells: <cause> (breaks <clause>)", the first cell's values and
    the clause, then every cell (scenario@step, agent, linked to its detail) in a ``<details>``."""
    cause, first = group.cause, group.members[0]
    _, *rest = brief_of(first)
    if len(group.members) == 1:
        said = escape(brief_of(first)[0].split("]: ", 1)[-1])
        where = f'<a href="#{_anchor(first["row"], cause.column)}">{escape(first["row"])}</a>: '
        lines = "".join(f"<br><small>{escape(line)}</small>" for line in rest)
        return (f'<div class="cause"><b>{cause.status}</b> on <code>{escape(cause.column)}</code>, 1 cell: '
                f"{where}{said}{lines}</div>")
    label = escape(group.places[0].text())
    lines = "".join(f"<br><small>{label + ': ' if k == 0 else ''}{escape(line)}</small>" for k, line in enumerate(rest))
    cells = ", ".join(f'<a href="#{_anchor(c["row"], cause.column)}">{escape(p.text())}</a>'
                      for c, p in zip(group.members, group.places))
    return (f'<div class="cause"><b>{cause.status}</b> on <code>{escape(cause.column)}</code>, '
            f"{escape(cause.headline(len(group.members)))}{lines}"
            f"<details><summary>the {len(group.members)} cells</summary><small>{cells}</small></details></div>")


MAX_CAUSES = 12
"""Distinct causes listed above the matrix; the others are in their cells' details."""


def _details(doc: dict) -> list[str]:
    """One block per DIVERGED or ERROR cell, read top-down: the cause box, the growth chart and the
    overlay at the step where the difference becomes visible, then (folded) the whole diagnosis
    and the neighborhood at the divergent step."""
    parts = []
    for cell in doc["cells"]:
        if cell["status"] not in (DIVERGED, ERROR):
            continue
        column = cell.get("column", cell["runner"])
        parts.append(f'<div class="detail" id="{_anchor(cell["row"], column)}">{_cause_box(cell, column)}')
        diagnosis = cell.get("diagnosis") or {}
        if diagnosis.get("divergence") and diagnosis.get("kind") != "hash-encoding":  # equal states: no growth
            parts.append(_divergence_html(diagnosis["divergence"], cell["row"], column))
        parts.append(f"<details><summary>the whole diagnosis</summary><p>{escape(cell['reason'])}</p>")
        parts.extend(f'<p class="note">note: {escape(n)}</p>' for n in diagnosis.get("notes", []))
        if diagnosis.get("picture"):
            parts.append("<div>" + neighborhood_svg(diagnosis["picture"], f"{cell['row']} on {column}") + "</div>")
        parts.append("</details></div>")
    return parts


def _column_line(info: dict | None) -> str:
    if not info:
        return ""
    if not info.get("available", True):
        return f"not available: {info.get('reason', '')}"
    return f"{info.get('platform', '')}, {info.get('compiler', '')}, {info.get('flags', '')}"


def _columns_table(columns: list[str], runners: dict) -> str:
    """One row per column: its name, platform, architecture, compiler and flags (or why it is missing)."""
    rows = ["<h2>Columns</h2>", '<table class="columns"><tr><th>column</th><th>runner</th><th>platform</th>'
            "<th>architecture</th><th>compiler</th><th>flags</th></tr>"]
    for column in columns:
        info = runners.get(column) or {}
        if info and not info.get("available", True):
            rows.append(f"<tr><td><code>{escape(column)}</code></td><td colspan=\"5\">not available: "
                        f"{escape(info.get('reason', ''))}</td></tr>")
            continue
        values = [info.get(k, "") or "" for k in ("name", "platform", "architecture", "compiler", "flags")]
        rows.append(f"<tr><td><code>{escape(column)}</code></td>"
                    + "".join(f"<td>{escape(str(v))}</td>" for v in values[:4])
                    + f"<td><code>{escape(str(values[4]))}</code></td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _divergence_html(series: dict, row: str, column: str) -> str:
    """The growth chart and the overlay at the visible step, or a note saying why there is none."""
    if not series.get("steps"):
        return f'<p class="note">No growth chart: {escape(series.get("stopped") or "no positions were compared")}.</p>'
    visible = series.get("visible_step")
    threshold = series["visible_metres"]
    last = series["steps"][-1]
    if visible is not None:
        said = (f"The positions differ by {threshold * 100:g} cm or more (one pixel of the overlay) from step "
                f"{visible} on, {_steps(visible - series['first_step'])} after the hashes first differ.")
    elif not any(m for m in series["metres"] if m):
        said = (f"The positions stay bit-equal at every sampled step up to {last}: the difference stays in "
                f"the velocities (or below one ulp of a position).")
    else:
        said = f"The positions never differ by {threshold * 100:g} cm (one pixel of the overlay) up to step {last}."
    if series.get("stopped"):
        said += f" The series ends early: {series['stopped']}."
    chart = divergence_chart_svg(series, f"{row} on {column}: max |Δposition| from step {series['first_step']}")
    parts = [f'<p class="note">{escape(said)}</p>', '<div class="pictures">', chart]
    if series.get("picture"):
        picture = series["picture"]
        when = "visible" if visible is not None and picture["step"] == visible else "largest difference"
        parts.append(divergence_overlay_svg(picture, f"step {picture['step']} ({when})", f"runner {column}"))
    parts.append("</div>")
    return "\n".join(parts)


def _steps(count: int) -> str:
    return "1 step" if count == 1 else f"{count} steps"


def _anchor(row: str, column: str) -> str:
    return "cell-" + "".join(ch if ch.isalnum() else "-" for ch in f"{row}-{column}")
