"""The clause map: ids for every rule of the text, every piece of the suite naming them, coverage."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.contract.clauses import CHANGED, MOVED, SAME, clause_map, parse_map, verify_lines, text_lines
from conformance.contract.scenario import load_suite, parse_scenario
from conformance.data.family_clauses import FAMILY_CLAUSES
from conformance.data.site_clauses import SITE_CLAUSES
from conformance.data.vectors import FAMILIES
from conformance.errors import InputError
from conformance.selftest.census.boundary import find_sites
from conformance.selftest.clauses.coverage import ARGUED, DEFENDED, INFORMATIVE, coverage, dependents, docs_path, to_markdown, unnamed_pieces
from conformance.data.suite import Suite
from conformance.selftest.clauses.report import write_clause_page
from conformance.selftest.controls.catalogue import CONTROLS
from conftest import ROOT

SCENARIOS = load_suite(ROOT / "scenarios")
MAP = json.loads((ROOT / "conformance" / "contract" / "clauses.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def spec_lines(spec_file: Path) -> list[str]:
    """The lines of the text (the test skips, with the reason, where no copy is at hand)."""
    return text_lines(spec_file.read_bytes())


def test_every_clause_of_the_map_is_where_it_says_in_the_text(spec_lines: list[str]) -> None:
    checks = verify_lines(spec_lines, clause_map())
    assert len(checks) > 60
    assert [c.clause.id for c in checks if c.status != SAME] == []


def test_the_spec_command_checks_the_clauses(spec_file: Path, capsys) -> None:
    assert main(["spec", str(spec_file)]) == 0
    assert "0 moved, 0 changed" in capsys.readouterr().out


def test_a_changed_sentence_names_its_clause_and_what_depends_on_it(spec_lines: list[str], tmp_path: Path,
                                                                     capsys) -> None:
    lines = spec_lines
    cutoff = clause_map().get("agents.cutoff").lines[0]
    edited = lines[:cutoff - 1] + [lines[cutoff - 1].replace(">", ">=", 1)] + lines[cutoff:]
    edited.insert(3, "a line added near the top")
    checks = {c.clause.id: c.status for c in verify_lines(edited, clause_map())}
    assert checks["agents.cutoff"] == CHANGED
    assert [cid for cid, status in checks.items() if status == CHANGED] == ["agents.cutoff"]
    assert checks["lp.start"] == MOVED and checks["text.scope"] == SAME
    copy = tmp_path / "orca-spec.txt"
    copy.write_text("\n".join(edited) + "\n", encoding="utf-8")
    assert main(["spec", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "CHANGED agents.cutoff" in out
    assert "orca/boundary-cutoff" in out and "cutoff-grouping" in out
    assert "scenarios" in dependents(SCENARIOS)["agents.cutoff"]


@pytest.mark.parametrize("edit, key_path, reason", [
    (lambda d: d["clauses"].append(dict(d["clauses"][0])), "clauses[", "duplicate clause id"),
    (lambda d: d["clauses"][5].update(notes=["note.nosuch"]), "clauses[5].notes[0]", "unknown clause"),
    (lambda d: d["clauses"][3].update(sha256="xyz"), "clauses[3].sha256", "does not match"),
    (lambda d: d["clauses"][1].pop("lines"), "clauses[1].lines", "missing"),
])
def test_a_bad_clause_map_is_one_clear_error(edit, key_path, reason) -> None:
    data = json.loads(json.dumps(MAP))
    edit(data)
    with pytest.raises(InputError) as err:
        parse_map(data, "clauses.json")
    assert err.value.file == "clauses.json"
    assert err.value.key_path.startswith(key_path) and reason in err.value.reason


def test_an_unknown_clause_in_a_scenario_is_named_with_the_nearest_id() -> None:
    data = {"id": "orca/x", "description": "x", "clauses": ["agents.cutof"], "dt": 0.1, "steps": 1,
            "agents": [], "expect": {"max_overlap": 0.1}}
    with pytest.raises(InputError) as err:
        parse_scenario(data, "x.yaml")
    assert err.value.key_path == "clauses[0]"
    assert "unknown clause 'agents.cutof'" in err.value.reason and "did you mean 'agents.cutoff'" in err.value.reason


def test_every_piece_of_the_suite_names_known_clauses() -> None:
    assert unnamed_pieces(SCENARIOS) == []
    assert set(SITE_CLAUSES) == {s.id for s in find_sites()}
    assert set(FAMILY_CLAUSES) == {f.name for f in FAMILIES}
    known = clause_map().clauses
    for ids in list(SITE_CLAUSES.values()) + list(FAMILY_CLAUSES.values()) + [c.clauses for c in CONTROLS]:
        assert ids and all(i in known for i in ids), ids


def test_every_clause_is_served_and_every_normative_one_defended_or_argued() -> None:
    rows = coverage(SCENARIOS, ROOT)
    assert {r.clause.id: r.status for r in rows if r.status not in (DEFENDED, ARGUED, INFORMATIVE)} == {}
    assert all(r.served for r in rows)
    assert sum(r.status == DEFENDED for r in rows) > 60


def test_the_clause_table_in_the_docs_is_fresh() -> None:
    assert docs_path(ROOT).read_text(encoding="utf-8") == to_markdown(coverage(SCENARIOS, ROOT)), \
        "run: orca-conformance clauses --write"


def test_every_note_of_the_spec_notes_has_an_id() -> None:
    text = (ROOT / "docs" / "spec-notes.md").read_text(encoding="utf-8")
    anchors = re.findall(r'<a id="(note\.[a-z0-9-]+)"></a>', text)
    notes = [c.id for c in clause_map().clauses.values() if c.source == "docs/spec-notes.md"]
    assert sorted(anchors) == sorted(notes)
    assert len(re.findall(r"\*\*Note \d+ ", text)) == len([n for n in notes if clause_map().get(n).note.isdigit()])
    porting = (ROOT / "docs" / "porting.md").read_text(encoding="utf-8")
    for clause in clause_map().clauses.values():
        if clause.source == "docs/porting.md":
            assert f'<a id="{clause.anchor}"></a>' in porting


def test_the_clauses_command_exits_0_with_every_clause_defended_or_argued(capsys) -> None:
    assert main(["clauses"]) == 0
    out = capsys.readouterr().out
    assert "agents.cutoff" in out and "DEFENDED" in out and "OPEN" not in out
    assert main(["clauses", "--list"]) == 0
    assert "driver.arrive" in capsys.readouterr().out


def test_a_hash_that_does_not_match_the_text_is_named_by_spec(spec_lines: list[str]) -> None:
    data = json.loads(json.dumps(MAP))
    data["clauses"][3]["sha256"] = "0" * 64
    checks = {c.clause.id: c.status for c in verify_lines(spec_lines, parse_map(data, "clauses.json"))}
    assert [cid for cid, status in checks.items() if status == CHANGED] == [MAP["clauses"][3]["id"]]


def test_the_report_gains_a_clause_page_that_red_cells_link_to(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"cells": [{"row": "orca/boundary-cutoff", "runner": "control:cutoff-grouping",
                                             "clauses": ["agents.cutoff", "note.case-form"]}]}), encoding="utf-8")
    page = write_clause_page(tmp_path, Suite.locate(str(ROOT)), report).read_text(encoding="utf-8")
    row = page[page.index('<tr id="agents.cutoff">'):]
    row = row[:row.index("</tr>")]
    assert "DEFENDED" in row and "cutoff-grouping" in row and "orca/boundary-cutoff on control:cutoff-grouping" in row
    assert page.count("<tr id=") == len(clause_map().clauses)
