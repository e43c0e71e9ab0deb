"""Red cells in the terminal and the HTML page: one cause once, values never cut, clauses honest.

Built from synthetic diagnoses (no port runs): the grouping by typed fields, the values line
shortened by words and never inside a bit pattern, and the clause line quoted from the pinned
text only when it is at hand (a synthetic text stands in for it where the real one is absent).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path

import pytest

from conformance import cli
from conformance.contract import clause_quote, spec_text
from conformance.contract.clauses import Citation, ClauseMap, clause_map
from conformance.judge import cell_text
from conformance.judge.cell import DIVERGED, Cell
from conformance.judge.cell_groups import group_cells, group_report_cells
from conformance.judge.cell_text import cell_lines, clause_line, red_lines
from conformance.judge.cause_record import Cause, NonFiniteValue
from conformance.judge.diagnosis import Diagnosis
from conformance.judge.outcomes import CauseKind
from conformance.judge.line_fit import ELLIPSIS, INDENT, WIDTH, Piece, fit_pieces, fit_words
from conformance.judge.state_difference import Difference, hex_bits
from conformance.judge.constraint_difference import ConstraintDifference, Neighbor, Side
from conformance.reports.html_report import _causes
from conformance.reports.report import _cell_json
from conftest import ROOT

RUNNER = "control:horizon-swap"
KEY = "an agent's constraint list differs: swapping the two time horizons reproduces it"
HEX = re.compile(r"0x[0-9A-F]+")


@pytest.fixture(autouse=True)
def no_text(monkeypatch):
    """No copy of the text unless a test gives one."""
    monkeypatch.delenv(spec_text.ENV_VAR, raising=False)
    monkeypatch.setattr(clause_quote, "_chosen", [])
    clause_quote.load_quotes.cache_clear()
    yield
    clause_quote.load_quotes.cache_clear()


def _cell(row: str, agent: int, key: str = KEY, clause: str = "agents.inputs", neighbor: int | None = 5,
          expected: float = 1 / 6, got: float = 0.25) -> Cell:
    source = None if neighbor is None else Neighbor(Side.AGENT, neighbor)
    found = Cause(CauseKind.CONSTRAINTS,
                  headline=f"agent {agent}'s constraint list differs: swapping the two time horizons reproduces it",
                  key=key, citation=Citation(clause),
                  constraint=ConstraintDifference(agent, 0, source, "P.y", expected_value=expected / 2,
                                                  got_value=got / 2))
    d = Diagnosis(1, state=Difference(agent, "velocity.x", expected, got), found=found)
    return Cell(row, RUNNER, DIVERGED, step=1, reason=f"the whole diagnosis of {row}", diagnosis=d)


def test_cells_of_one_cause_are_one_entry_and_verbose_lists_each():
    cells = [_cell(f"orca/scene-{k}", agent=k % 3) for k in range(29)]
    short = red_lines(cells)
    assert short[0].startswith(f"DIVERGED 29 cells [{RUNNER}]: {KEY} (breaks agents.inputs)"), short[0]
    assert sum("29 cells" in line for line in short) == 1
    listed = " ".join(short[1:-2])
    assert all(f"orca/scene-{k}@1 agent {k % 3}" in listed for k in range(29)), listed
    assert all(len(line) <= WIDTH for line in short), max(map(len, short))
    assert "in short: " in short[-1]
    whole = red_lines(cells, verbose=True)
    assert sum(line.startswith("DIVERGED orca/scene-") for line in whole) == 29
    assert "the whole diagnosis of orca/scene-28" in "\n".join(whole)


def test_groups_come_from_typed_fields_not_from_words():
    same_words = _cell("orca/a", 0)
    other_clause = _cell("orca/b", 0, clause="agents.leg")  # the same headline, another clause
    other_key = _cell("orca/c", 0, key="an agent's new velocity differs")
    other_kind = _cell("orca/d", 0)
    other_kind.diagnosis = replace(other_kind.diagnosis, found=replace(other_kind.diagnosis.found,
                                                                       kind=CauseKind.VELOCITY))
    twin = _cell("orca/e", 7)  # another agent in the headline, the same key
    groups = group_cells([same_words, other_clause, other_key, other_kind, twin])
    assert [[c.row for c in g.members] for g in groups] == [["orca/a", "orca/e"], ["orca/b"], ["orca/c"], ["orca/d"]]
    assert red_lines([other_key])[0].startswith("DIVERGED orca/c [")  # a cause of one cell stays a cell


def test_the_values_line_drops_words_not_bits():
    long_name = int("9" * 120)  # a long neighbour name and long decimals: too wide
    cell = _cell("orca/long", 3, neighbor=long_name, expected=-0.1234567890123456e-300, got=0.987654321098765e300)
    line = cell_lines(cell)[1]
    d = cell.diagnosis
    wanted = {hex_bits(d.state.expected), hex_bits(d.state.got), hex_bits(d.constraint.expected_value),
              hex_bits(d.constraint.got_value)}
    assert len(line) <= WIDTH and ELLIPSIS not in line, line
    assert wanted <= set(HEX.findall(line)), line  # every bit pattern, whole
    assert "expected" in line and "got" in line and str(long_name) not in line
    roomy = cell_lines(_cell("orca/short", 0, neighbor=None))[1]  # when it fits, the decimals stay
    assert "(0.08333333333333333)" in roomy and "(0.125)" in roomy and "ulp" in roomy, roomy


def test_fitting_never_cuts_inside_a_piece_or_a_word():
    pieces = [Piece("expected "), Piece("0x3FC5555555555555"), Piece(" (0.16666666666666666)", 3),
              Piece(", got "), Piece("0x3FD0000000000000"), Piece(" (0.25)", 3)]
    assert fit_pieces(pieces, 100) == "expected 0x3FC5555555555555 (0.16666666666666666), got 0x3FD0000000000000 (0.25)"
    assert fit_pieces(pieces, 75) == "expected 0x3FC5555555555555 (0.16666666666666666), got 0x3FD0000000000000"
    assert fit_pieces(pieces, 10) == "expected 0x3FC5555555555555, got 0x3FD0000000000000"  # bits kept past the width
    text = "values 0.03502053084015229, 0.3101975488450028, -0.11218482826751"
    cut = fit_words(text, 50)
    assert cut.endswith(ELLIPSIS) and len(cut) <= 50 and text.startswith(cut[:-1])
    assert cut[:-1].split()[-1] in [w.rstrip(",") for w in text.split()]  # the last word shown is whole


def test_without_the_text_a_clause_is_marked_as_a_paraphrase():
    line = cell_lines(_cell("orca/a", 0))[2]
    clause = clause_map().get("agents.inputs")
    assert line == f"{INDENT}agents.inputs, {clause.where()}, in short: {clause.says.rstrip('.')}"
    assert '"' not in line
    assert ", in short: " in clause_map().cite("agents.inputs")


def _synthetic_text(tmp_path: Path, monkeypatch, words: str, pin: bool = True) -> Path:
    """A fake orca-spec.txt pinned in place of the real one: ``words`` on line 51, and the clause
    map's agents.inputs pointed at them with their own hash (when ``pin``)."""
    lines = [f"line {n}" for n in range(1, 60)]
    lines[50] = words
    path = tmp_path / "orca-spec.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    digest = hashlib.sha256(spec_text.normalise(path.read_bytes())).hexdigest()
    monkeypatch.setattr(spec_text, "SHA256", digest)
    monkeypatch.setattr(spec_text, "NORMALISED_SHA256", digest)
    real = clause_map()
    clause = replace(real.get("agents.inputs"), lines=(51, 51), columns=(1, len(words)),
                     sha256=hashlib.sha256(words.encode()).hexdigest() if pin else "0" * 64)
    fake = ClauseMap({**real.clauses, clause.id: clause}, digest)
    monkeypatch.setattr(cell_text, "clause_map", lambda: fake)
    return path


def test_with_the_pinned_text_a_clause_is_quoted_verbatim(tmp_path: Path, monkeypatch):
    words = "For agent A with neighbour B: a = b = pB - pA, the words of a synthetic text"
    monkeypatch.setenv(spec_text.ENV_VAR, str(_synthetic_text(tmp_path, monkeypatch, words)))
    line = cell_lines(_cell("orca/a", 0))[2]
    assert line == f'{INDENT}agents.inputs, orca-spec.txt line 51: "{words}"', line
    long = clause_line(["agents.inputs"], True, clause_quote.SpecQuotes(("x " * 300,) * 51, tmp_path))
    assert "in short" in long  # a copy whose span does not hash to the clause's: no quote


def test_a_span_that_is_not_the_clause_is_never_quoted(tmp_path: Path, monkeypatch):
    monkeypatch.setenv(spec_text.ENV_VAR, str(_synthetic_text(tmp_path, monkeypatch, "other words", pin=False)))
    line = cell_lines(_cell("orca/a", 0))[2]
    assert ", in short: " in line and "other words" not in line


def test_another_version_of_the_text_gives_the_paraphrase(tmp_path: Path, capsys):
    copy = tmp_path / "orca-spec.txt"
    copy.write_text("not the text\n", encoding="utf-8")
    args = ["--suite", str(ROOT), "matrix", "--runners", "reference", "--no-vectors", "--no-protocol",
            "--scenarios", "orca/zero-agents", "--spec", str(copy)]
    assert cli.main(args) == 0
    assert "not the pinned orca-spec.txt" in capsys.readouterr().out
    assert clause_quote.spec_quotes() is None


def test_the_real_text_is_quoted_in_its_own_words(spec_file: Path, monkeypatch):
    path = spec_file
    monkeypatch.setenv(spec_text.ENV_VAR, str(path))
    line = cell_lines(_cell("orca/a", 0))[2]
    quoted = re.search(r'line 51: "(.*)"$', line)
    assert quoted is not None and "in short" not in line, line
    shown = quoted.group(1).removesuffix(ELLIPSIS)
    assert shown and shown in path.read_text(encoding="utf-8").splitlines()[50], shown
    assert clause_map().get("agents.inputs").says.rstrip(".") not in line


def test_the_page_says_each_cause_once_with_its_cells_folded():
    cells = [_cell(f"orca/scene-{k}", agent=k) for k in range(9)] + [_cell("orca/other", 0, key="another cause")]
    doc_cells = [{**_cell_json(c), "column": RUNNER} for c in cells]
    groups = group_report_cells(doc_cells)
    assert [len(g.members) for g in groups] == [9, 1]
    html = _causes({"cells": doc_cells})
    assert html.count('<div class="cause">') == 2 and "9 cells: " in html
    folded = html[html.index("<details><summary>the 9 cells</summary>"):]
    assert all(f"orca/scene-{k}@1 agent {k}</a>" in folded for k in range(9))
    old = [{k: v for k, v in c.items() if k != "cause"} for c in doc_cells]  # a report of 0.1.0: a box per cell
    assert len(group_report_cells(old)) == 10


def test_errors_that_say_the_same_thing_are_one_entry():
    todo = "port reported an error during run (step 1): TODO(skeleton-js): preferred_velocity is not written yet"
    cells = [Cell(f"orca/s{k}", "exec:port", "ERROR", reason=f"{todo} | stderr of s{k}", failure=todo)
             for k in range(3)]  # the engine keeps the port's own reason apart from its stderr
    cells.append(Cell("orca/other", "exec:port", "ERROR", reason="port crashed (signal 11)",
                      failure="port crashed (signal 11)"))
    short = red_lines(cells)
    assert short[0] == f"ERROR    3 cells [exec:port]: {todo}", short[0]
    assert short[1].strip() == "orca/s0, orca/s1, orca/s2" and short[2].strip() == "orca/s0: stderr of s0"
    assert short[3].startswith("ERROR    orca/other [exec:port]: port crashed")
    stopped = _cell("orca/nan", 2)
    stopped.status, stopped.diagnosis = "ERROR", replace(stopped.diagnosis, non_finite=NonFiniteValue(2, "position.x"))
    twin = _cell("orca/nan2", 4)
    twin.status, twin.diagnosis = "ERROR", replace(twin.diagnosis, non_finite=NonFiniteValue(4, "velocity.y", "inf"))
    assert red_lines([stopped, twin])[0] == (f"ERROR    2 cells [{RUNNER}]: the run stopped on a non-finite state; "
                                             f"at its failing step: {KEY} (breaks agents.inputs)")
