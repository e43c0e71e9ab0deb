"""How a cell reads in a terminal: the matrix table, then one short entry per red cell.

Contract: ``format_table(result, verbose)`` gives the table (rows scenarios, columns runners, one
status per cell) and, below it, every cell that is not PASS: a SKIPPED column once, with the
doctor's line of what it needs; a NOT PROVIDED vectors row as one line (the families the port's
hello leaves out; not a red cell); a DIVERGED or ERROR cell as ``cell_lines``, except that a
column whose every cell is the same undiagnosed ERROR (its port died at start-up) is one entry
for the column, ``every row (N cells)``, not N copies.

``cell_lines(cell)`` is a red cell in at most three lines: a headline (status, row, runner,
step, agent, field, the cause in one sentence, the clause it breaks), then, in at most
``WIDTH`` characters each, the values that differ and the clause's place and paraphrase.  ``cell_lines(cell,
verbose=True)`` is the headline and then everything the cell holds: the whole diagnosis
(``Cell.reason``) and its notes, wrapped.  Nothing is lost: the short form leaves out only
what the verbose form, report.json and matrix.html keep.
"""

from __future__ import annotations

import textwrap

from ..contract.clauses import clause_map
from .diagnosis import Diagnosis
from .matrix import ERROR, NOT_PROVIDED, PASS, SKIPPED, Cell, MatrixResult
from .state_difference import hex_bits

WIDTH = 200
"""The longest line of a red cell's short form (a longer one ends in an ellipsis)."""
INDENT = "         "
VERBOSE_HINT = "(--verbose or matrix.html: each red cell's whole diagnosis)"


def _fit(text: str, width: int = WIDTH) -> str:
    return text if len(text) <= width else text[:width - 1].rstrip() + "\u2026"


def _clause_line(ids: list[str], found: bool) -> str:
    """``breaks <id>: <where>: <paraphrase>`` (or the nearest clause when it could not be told)."""
    if not ids:
        return ""
    clause = clause_map().get(ids[0])
    verb = "" if found else "nearest clause: "
    return f"{verb}{clause.id}, {clause.where()}: {clause.says.rstrip('.')}"


def _where(d: Diagnosis) -> str:
    if d.state is not None and d.state.agent >= 0:
        return f"step {d.step}, agent {d.state.agent} {d.state.field}"
    return f"step {d.step}"


def _evidence(d: Diagnosis) -> str:
    """The values that differ: the state's first field, then the constraint's or the preferred velocity's."""
    parts = []
    if d.non_finite:
        parts.append(f"non-finite: {d.non_finite}")
    if d.state is not None and d.state.agent >= 0:
        parts.append(f"{hex_bits(d.state.expected)} expected, {hex_bits(d.state.got)} got ({d.state.distance_text()})")
    if d.preferred is not None:
        parts.append(d.preferred.describe())
    elif d.constraint is not None and d.constraint.index is not None:
        parts.append(d.constraint.describe())
    return "; ".join(parts)


def _headline_of(d: Diagnosis) -> str:
    return d.headline or d.cause.split(": ")[0] or "no cause could be told"


def _diagnosed(cell: Cell, d: Diagnosis) -> tuple[str, list[str]]:
    clause = f" (breaks {d.citation.primary})" if d.citation is not None and d.citation.found else ""
    head = f"{_where(d)}: {_headline_of(d)}{clause}"
    if cell.status != "DIVERGED":  # an ERROR cell: its reason first, the diagnosis of its failing step after
        head = f"{cell.reason.split(' | ')[0]}; at {head}"
    rest = [_evidence(d)]
    if d.citation is not None:
        rest.append(_clause_line(d.citation.ids, d.citation.found))
    return head, rest


def _undiagnosed(cell: Cell) -> tuple[str, list[str]]:
    """The vectors or protocol row from its brief; any other cell from its reason (stderr after " | ")."""
    if cell.brief:
        head, rest = cell.brief[0], list(cell.brief[1:])
    else:
        parts = cell.reason.split(" | ")
        head, rest = parts[0], [" | ".join(parts[1:])] if len(parts) > 1 else []
    if cell.citation is not None:
        rest.append(_clause_line(cell.citation.ids, cell.citation.found))
    return head, rest


def cell_lines(cell: Cell, verbose: bool = False) -> list[str]:
    """A red cell: the headline and at most two lines (or, ``verbose``, everything it holds)."""
    head, rest = _diagnosed(cell, cell.diagnosis) if cell.diagnosis is not None else _undiagnosed(cell)
    first = f"{cell.status:<8} {cell.row} [{cell.runner}]: {head}"
    if verbose:
        body = textwrap.wrap(cell.reason, WIDTH - len(INDENT), break_on_hyphens=False)
        notes = cell.diagnosis.notes if cell.diagnosis is not None else []
        return [first] + [INDENT + line for line in body] + [f"{INDENT}note: {n}" for n in notes]
    return [first] + [_fit(INDENT + line) for line in rest if line][:2]


def format_table(result: MatrixResult, verbose: bool = False) -> str:
    """Rows scenarios, columns runners, one status per cell; then each red cell (``cell_lines``;
    a SKIPPED column also gets the doctor's needs line: what is missing and how to install it;
    a NOT PROVIDED row is one line with its reason; a column that is the same undiagnosed ERROR
    in every row is one entry)."""
    from ..runners.needs import needs_line
    first = max([len("scenario")] + [len(r) for r in result.rows])
    widths = [max([len(r)] + [len(result.cells[(row, r)].short()) for row in result.rows if (row, r) in result.cells])
              for r in result.runners]
    lines = ["  ".join(["scenario".ljust(first)] + [r.ljust(w) for r, w in zip(result.runners, widths)])]
    lines.append("  ".join(["-" * first] + ["-" * w for w in widths]))
    for row in result.rows:
        cells = [result.cells[(row, r)].short().ljust(w) for r, w in zip(result.runners, widths)]
        lines.append("  ".join([row.ljust(first)] + cells).rstrip())
    details = [c for c in result.cells.values() if c.status != PASS]
    skipped_runners = {c.runner: c.reason for c in details if c.status == SKIPPED}
    if details:
        lines.append("")
    for runner, reason in skipped_runners.items():
        lines.append(f"SKIPPED  {runner}: {reason}")
        lines.append(f"         {needs_line(runner)}")
    lines.extend(f"{c.status} {c.row} [{c.runner}]: {c.reason}" for c in details if c.status == NOT_PROVIDED)
    red = [c for c in details if c.status not in (SKIPPED, NOT_PROVIDED)]
    once = _one_reason_columns(red, len(result.rows))
    for c in red:
        if c.runner not in once:
            lines.extend(cell_lines(c, verbose))
        elif c is once[c.runner][0]:
            lines.extend(_column_lines(once[c.runner], verbose))
    if red and not verbose:
        lines.append(VERBOSE_HINT)
    return "\n".join(lines)


def _one_reason_columns(red: list[Cell], rows: int) -> dict[str, list[Cell]]:
    """The columns whose every cell (all ``rows`` of them) is the same ERROR, undiagnosed (a
    port that could not start, or died at its hello): their cells by runner, to be told once,
    not once a row."""
    by_runner: dict[str, list[Cell]] = {}
    for c in red:
        by_runner.setdefault(c.runner, []).append(c)
    return {runner: cells for runner, cells in by_runner.items()
            if len(cells) == rows > 1 and len({(c.status, c.reason) for c in cells}) == 1 and cells[0].status == ERROR
            and all(c.diagnosis is None and not c.brief for c in cells)}


def _column_lines(cells: list[Cell], verbose: bool) -> list[str]:
    """One column's identical ERROR cells as one entry: ``cell_lines`` of the first, its row
    replaced by how many cells it stands for."""
    first = cells[0]
    lines = cell_lines(first, verbose)
    head = f"{first.status:<8} {first.row} [{first.runner}]: "
    lines[0] = f"{first.status:<8} every row ({len(cells)} cells) [{first.runner}]: " + lines[0][len(head):]
    return lines
