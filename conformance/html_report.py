"""A self-contained HTML page of a (merged) hash matrix: colours, details and pictures.

Contract: ``html_page(doc)`` takes a report or merged document and returns one HTML string
with inline CSS and, for every diverged cell that carries a ``picture``, an inline SVG of the
reference and the runner around the first divergent step with the divergent agent marked.
No external resource is referenced, so the file can be attached to a CI run as it is.
"""

from __future__ import annotations

from html import escape

from .drawing import neighbourhood_svg
from .matrix import DIVERGED, ERROR, PASS, SKIPPED
from .report import cell_text

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
th { background: #f3f3f3; position: sticky; top: 0; }
td.PASS { background: #e3f4e3; } td.DIVERGED { background: #fbdcdc; font-weight: bold; }
td.ERROR { background: #f9e0b8; font-weight: bold; } td.SKIPPED { background: #eee; color: #777; }
.detail { margin: 1em 0; padding: 0.6em; border-left: 4px solid #d62728; background: #fafafa; }
code { font-size: 12px; }
"""


def html_page(doc: dict) -> str:
    header = doc["header"]
    columns = doc.get("columns") or list(doc["runners"])
    index = {(c["row"], c.get("column", c["runner"])): c for c in doc["cells"]}
    s = doc["summary"]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>orca-conformance hash matrix</title>", f"<style>{STYLE}</style></head><body>",
             "<h1>orca-conformance hash matrix</h1>",
             f"<p>Suite {escape(header['suite_version'])}, goldens <code>{escape(header['goldens_digest'])}</code>, "
             f"{escape(str(header['started']))}. {s[PASS]} passed, {s[DIVERGED]} diverged, {s[ERROR]} errors, "
             f"{s[SKIPPED]} skipped, {s['compared']} states and vectors compared.</p>"]
    for report in doc.get("reports", []):
        parts.append(f"<p><small>{escape(report['platform'])}: {escape(report.get('os', ''))}, "
                     f"{escape(report.get('cpu', ''))}, Python {escape(report.get('python', ''))}</small></p>")
    parts.append("<table><tr><th>scenario</th>" + "".join(f"<th>{escape(c)}</th>" for c in columns) + "</tr>")
    for row in doc["rows"]:
        cells = []
        for column in columns:
            cell = index.get((row, column))
            if cell is None:
                cells.append("<td>–</td>")
                continue
            anchor = f' href="#{_anchor(row, column)}"' if cell["status"] in (DIVERGED, ERROR) else ""
            text = escape(cell_text(cell))
            body = f"<a{anchor}>{text}</a>" if anchor else text
            cells.append(f'<td class="{cell["status"]}" title="{escape(cell["reason"])}">{body}</td>')
        parts.append(f"<tr><td><code>{escape(row)}</code></td>{''.join(cells)}</tr>")
    parts.append("</table>")
    for cell in doc["cells"]:
        if cell["status"] not in (DIVERGED, ERROR):
            continue
        column = cell.get("column", cell["runner"])
        parts.append(f'<div class="detail" id="{_anchor(cell["row"], column)}"><b>{cell["status"]}</b> '
                     f'<code>{escape(cell["row"])}</code> on <code>{escape(column)}</code>: {escape(cell["reason"])}')
        diagnosis = cell.get("diagnosis") or {}
        if diagnosis.get("picture"):
            parts.append("<div>" + neighbourhood_svg(diagnosis["picture"], f"{cell['row']} on {column}") + "</div>")
        parts.append("</div>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _anchor(row: str, column: str) -> str:
    return "cell-" + "".join(ch if ch.isalnum() else "-" for ch in f"{row}-{column}")
