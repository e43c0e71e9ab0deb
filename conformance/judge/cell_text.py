"""How a cell reads in a terminal: the matrix table, then one short entry per cause of red cells.

Contract: ``format_table(result, verbose)`` gives the table (rows scenarios, columns runners, one
status per cell) and, below it, every cell that is not PASS: a SKIPPED column once, with the
doctor's line of what it needs; a NOT PROVIDED vectors row as one line (the families the port's
hello leaves out; not a red cell); the DIVERGED and ERROR cells grouped by cause
(judge/cell_groups.py): a cause said by one cell is that cell's ``cell_lines``, a cause said by
several is ``group_lines`` (one headline "N cells: ...", the cells as scenario@step and agent,
the first cell's values and the clause).  A cause that every row of a
column says (a port that died at start-up) is ``every row (N cells)``, its cells not listed.
``verbose`` lists every red cell on its own, whole.

``cell_lines(cell)`` is a red cell in at most three lines: a headline (status, row, runner,
step, agent, field, the cause in one sentence, the clause it breaks), then, in at most
``WIDTH`` characters each, the values that differ and the clause.  The values line is shortened
by dropping words and decimal renderings, never by cutting a bit pattern or a number
(line_fit.py).  The clause line quotes the text's own words, in quotation marks, when the pinned
orca-spec.txt is at hand (contract/clause_quote.py); otherwise it gives the suite's paraphrase,
marked "in short".  ``cell_lines(cell, verbose=True)`` is the headline and then everything the
cell holds: the whole diagnosis (``Cell.reason``) and its notes, wrapped.  Nothing is lost: the
short form leaves out only what the verbose form, report.json and matrix.html keep.
"""

from __future__ import annotations

import textwrap

from ..contract.clause_quote import SpecQuotes, spec_quotes
from ..contract.clauses import clause_map
from .cell_groups import CauseGroup, group_cells, own_head
from .diagnosis import Diagnosis
from .line_fit import INDENT, WIDTH, Piece, fit_pieces, fit_words
from .matrix import NOT_PROVIDED, PASS, SKIPPED, Cell, MatrixResult
from .state_difference import Difference, hex_bits

VERBOSE_HINT = "(--verbose or matrix.html: each red cell's whole diagnosis)"
ROOM = WIDTH - len(INDENT)
"""The width of a red cell's second and third lines after their indent."""
IN_SHORT = ", in short: "


def clause_line(ids: list[str], found: bool, quotes: SpecQuotes | None = None) -> str:
    """``<id>, <where>: "<the text's words>"`` when ``quotes`` has the clause, else ``<id>,
    <where>, in short: <the suite's paraphrase>``; "nearest clause: " first when the clause could
    not be told.  At most ``ROOM`` characters: a long quote or paraphrase ends at a word, with an
    ellipsis (inside the quotation marks)."""
    if not ids:
        return ""
    clause = clause_map().get(ids[0])
    head = f"{'' if found else 'nearest clause: '}{clause.id}, {clause.where()}"
    words = quotes.quote(clause) if quotes is not None else None
    if words is not None:
        return f'{head}: "{fit_words(words, max(ROOM - len(head) - 4, 20))}"'
    return f"{head}{IN_SHORT}{fit_words(clause.says.rstrip('.'), max(ROOM - len(head) - len(IN_SHORT), 20))}"


def _where(d: Diagnosis) -> str:
    if d.state is not None and d.state.agent >= 0:
        return f"step {d.step}, agent {d.state.agent} {d.state.field}"
    return f"step {d.step}"


def _pair(expected: float, got: float, decimals: bool) -> list[Piece]:
    """``expected 0x... (decimal), got 0x... (decimal)``: the decimals may be dropped, the bits not."""
    def value(v: float) -> list[Piece]:
        return [Piece(hex_bits(v))] + ([Piece(f" ({v!r})", 3)] if decimals else [])
    return [Piece("expected "), *value(expected), Piece(", got "), *value(got)]


def _constraint_pieces(d: Diagnosis) -> list[Piece]:
    c = d.constraint
    pieces = [Piece(f"constraint {c.index}")] + ([Piece(f" ({c.neighbor})", 1)] if c.neighbor else [])
    if c.field in ("missing", "extra"):
        return pieces + [Piece(f" is {c.field} in the port's list"), Piece(f" ({c.got})", 3)]
    if c.expected_value is None or c.got_value is None:
        return [Piece(c.describe())]
    return pieces + [Piece(f" differs in {c.field}: ")] + _pair(c.expected_value, c.got_value, True)


def _preferred_pieces(p: Difference) -> list[Piece]:
    return [Piece(f"agent {p.agent} {p.field}: ", 1)] + _pair(p.expected, p.got, True) + \
        [Piece(f", {p.distance_text()}", 2)]


def evidence(d: Diagnosis) -> list[Piece]:
    """The values that differ, as pieces: the state's first field, then the constraint's or the
    preferred velocity's (each value's bits kept, its decimal and the names around it droppable)."""
    parts: list[list[Piece]] = []
    if d.non_finite is not None:
        parts.append([Piece(f"non-finite: {d.non_finite}")])
    if d.state is not None and d.state.agent >= 0:
        s = d.state
        parts.append([Piece(hex_bits(s.expected)), Piece(" expected, "), Piece(hex_bits(s.got)), Piece(" got"),
                      Piece(f" ({s.distance_text()})", 2)])
    if d.preferred is not None:
        parts.append(_preferred_pieces(d.preferred))
    elif d.constraint is not None and d.constraint.index is not None:
        parts.append(_constraint_pieces(d))
    out: list[Piece] = []
    for k, part in enumerate(parts):
        out += ([Piece("; ")] if k else []) + part
    return out


def _headline_of(d: Diagnosis) -> str:
    return d.headline or "no cause could be told"  # every Cause with words has a headline (cause_record.py)


def _diagnosed(cell: Cell, d: Diagnosis) -> tuple[str, list[str]]:
    clause = f" (breaks {d.citation.primary})" if d.citation is not None and d.citation.found else ""
    head = f"{_where(d)}: {_headline_of(d)}{clause}"
    if cell.status != "DIVERGED":  # an ERROR cell: its reason first, the diagnosis of its failing step after
        head = f"{cell.failure}; at {head}"  # the port's own reason: no stderr tail, no diagnosis
    rest = [fit_pieces(evidence(d), ROOM)]
    if d.citation is not None:
        rest.append(clause_line(d.citation.ids, d.citation.found, spec_quotes()))
    return head, rest


def _undiagnosed(cell: Cell) -> tuple[str, list[str]]:
    """The vectors or protocol row from its brief; any other cell from its reason (stderr after " | ")."""
    head = own_head(cell)
    if cell.brief:
        rest = list(cell.brief[1:])
    else:
        parts = cell.reason.split(" | ")
        rest = [" | ".join(parts[1:])] if len(parts) > 1 else []
    if cell.citation is not None:
        rest.append(clause_line(cell.citation.ids, cell.citation.found, spec_quotes()))
    return head, [fit_words(line, ROOM) for line in rest]


def cell_lines(cell: Cell, verbose: bool = False) -> list[str]:
    """A red cell: the headline and at most two lines (or, ``verbose``, everything it holds)."""
    head, rest = _diagnosed(cell, cell.diagnosis) if cell.diagnosis is not None else _undiagnosed(cell)
    first = f"{cell.status:<8} {cell.row} [{cell.runner}]: {head}"
    if verbose:
        body = textwrap.wrap(cell.reason, ROOM, break_on_hyphens=False)
        notes = cell.diagnosis.notes if cell.diagnosis is not None else []
        return [first] + [INDENT + line for line in body] + [f"{INDENT}note: {n}" for n in notes]
    return [first] + [INDENT + line for line in rest if line][:2]


def _packed(items: list[str], width: int) -> list[str]:
    """``items`` joined by ", " into lines of at most ``width`` characters, never splitting an item."""
    lines: list[str] = []
    for k, item in enumerate(items):
        text = item + ("," if k < len(items) - 1 else "")
        if lines and len(lines[-1]) + 1 + len(text) <= width:
            lines[-1] += " " + text
        else:
            lines.append(text)
    return lines


def group_lines(group: CauseGroup, every_row: bool = False) -> list[str]:
    """A cause several red cells say, once: ``STATUS N cells [runner]: <cause> (breaks <clause>)``,
    then every cell as scenario@step and agent, then the first cell's values (after its
    scenario@step) and the clause, each in at most ``WIDTH`` characters.  ``every_row``: the
    cause is every row of its column (a port that could not start), ``every row (N cells)``,
    with no list of them."""
    cause, first = group.cause, group.members[0]
    count = f"every row ({len(group.places)} cells)" if every_row else f"{len(group.places)} cells"
    lines = [f"{cause.status:<8} {count} [{cause.column}]: {cause.said()}"]
    if not every_row:
        lines += [INDENT + line for line in _packed([p.text() for p in group.places], ROOM)]
    d = first.diagnosis
    if d is not None:
        field = f" {d.state.field}" if d.state is not None and d.state.agent == group.places[0].agent else ""
        lines.append(INDENT + fit_pieces([Piece(f"{group.places[0].text()}{field}: ")] + evidence(d), ROOM))
    else:
        lines += [INDENT + fit_words(f"{first.row}: {line}", ROOM) for line in _undiagnosed(first)[1][:1]]
    if cause.clauses:
        lines.append(INDENT + clause_line(list(cause.clauses), cause.found, spec_quotes()))
    return lines


def red_lines(cells: list[Cell], verbose: bool = False, rows: int | None = None) -> list[str]:
    """The red cells below the table: each whole when ``verbose``, else each cause once (a cause
    of all ``rows`` rows of a column as ``every row``)."""
    if verbose:
        return [line for c in cells for line in cell_lines(c, True)]
    out: list[str] = []
    for group in group_cells(cells):
        every_row = rows is not None and rows > 1 and len(group.members) == rows
        out += cell_lines(group.members[0]) if len(group.members) == 1 else group_lines(group, every_row)
    return out


def format_table(result: MatrixResult, verbose: bool = False) -> str:
    """Rows scenarios, columns runners, one status per cell; then the red cells (``red_lines``;
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
    lines.extend(red_lines(red, verbose, rows=len(result.rows)))
    if red and not verbose:
        lines.append(VERBOSE_HINT)
    return "\n".join(lines)
