"""matrix --shard K/N: a deterministic split by column, and merge of the shards = the unsharded run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import cli
from conformance.errors import InputError
from conformance.reports.merge import load_report, merge_reports
from conformance.runners.shard import Shard, columns_of, parse_shard
from conftest import ROOT

COLUMNS = ("c", "c:O0", "c:cli", "control:horizon-swap")
"""Three green columns and a deliberately wrong one (red cells: its vectors row and wall-gap)."""
SCENARIOS = ("orca/head-on-exact", "orca/wall-gap", "orca/boundary-lp-lines")
VERDICT = ("status", "step", "reason", "compared")


def matrix(folder: Path, *extra: str) -> int:
    args = ["--suite", str(ROOT), "matrix", "--runners", ",".join(COLUMNS), "--jobs", "1", "--report", str(folder)]
    for scenario in SCENARIOS:
        args += ["--scenarios", scenario]
    return cli.main(args + list(extra))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, list[Path]]:
    """The matrix unsharded and in three shards: (report.json, [shard report.json, ...])."""
    out = tmp_path_factory.mktemp("shards")
    assert matrix(out / "whole") == 1  # the control's red cells fail the run
    codes = [matrix(out / f"shard-{k}", "--shard", f"{k}/3") for k in (1, 2, 3)]
    assert codes == [1, 0, 0]  # the control is dealt to shard 1 (column 4 = 1 + 3)
    return out / "whole" / "report.json", [out / f"shard-{k}" / "report.json" for k in (1, 2, 3)]


def by_cell(cells: list[dict]) -> dict[tuple[str, str], tuple]:
    return {(c["row"], c["runner"]): tuple(c[k] for k in VERDICT) for c in cells}


def test_the_split_deals_the_columns_in_turn() -> None:
    ids = ["a", "b", "c", "d", "e"]
    assert [Shard(k, 2).columns(ids) for k in (1, 2)] == [["a", "c", "e"], ["b", "d"]]
    shares = [columns_of(ids, k, 3) for k in (1, 2, 3)]
    assert sorted(sum(shares, [])) == ids  # every column in exactly one shard
    assert Shard(1, 1).columns(ids) == ids and Shard(1, 1).header(ids) == {}
    assert Shard(2, 3).header(ids) == {"shard": "2/3", "run_columns": ids}
    with pytest.raises(InputError) as info:
        Shard(1, 6).columns(ids)
    assert info.value.key_path == "--shard" and "at most the number of columns" in info.value.reason


@pytest.mark.parametrize("text", ["0/3", "4/3", "x", "3/0", "1/", "-1/3", "2/3/4"])
def test_a_bad_shard_is_one_error_line_naming_the_option(text: str, capsys) -> None:
    assert cli.main(["matrix", "--runners", "c", f"--shard={text}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--shard" in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    with pytest.raises(InputError):
        parse_shard(text)


@pytest.mark.heavy  # four matrix runs, shared by the module's fixture
def test_a_shard_report_says_which_shard_it_is(runs) -> None:
    _, shards = runs
    second = load_report(shards[1])  # valid against the report schema, shard fields included
    assert second["header"]["shard"] == "2/3" and second["header"]["run_columns"] == list(COLUMNS)
    assert list(second["runners"]) == ["c:O0"] and second["rows"][0] == "vectors"
    assert "shard 2/3" in (shards[1].parent / "matrix.md").read_text(encoding="utf-8")
    assert 'name="shard" value="2/3"' in (shards[1].parent / "junit.xml").read_text(encoding="utf-8")


@pytest.mark.heavy  # four matrix runs, shared by the module's fixture
def test_merge_of_the_shards_is_the_unsharded_report_cell_for_cell(runs, tmp_path: Path, capsys) -> None:
    whole, shards = runs
    assert cli.main(["merge", *map(str, reversed(shards)), "--out", str(tmp_path)]) == 1  # the red cells
    captured = capsys.readouterr()
    assert "warning:" not in captured.err
    merged = json.loads((tmp_path / "matrix.json").read_text(encoding="utf-8"))
    alone = load_report(whole)
    assert by_cell(merged["cells"]) == by_cell(alone["cells"])
    assert merged["summary"] == alone["summary"] and merged["rows"] == alone["rows"]
    assert [c.split("/", 1)[1] for c in merged["columns"]] == list(COLUMNS)  # the run's order
    red = {(c["row"], c["runner"]) for c in merged["cells"] if c["status"] != "PASS"}
    assert red == {("vectors", "control:horizon-swap"), ("orca/wall-gap", "control:horizon-swap")}
    assert len(merged["reports"]) == 3 and not merged["notes"]


@pytest.mark.heavy  # four matrix runs, shared by the module's fixture
def test_a_missing_shard_is_a_warning_naming_its_columns(runs, tmp_path: Path, capsys) -> None:
    _, shards = runs
    assert cli.main(["merge", str(shards[0]), str(shards[2]), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("warning: ") and "shard 2/3" in err[0] and "c:O0" in err[0], err
    assert "shard 2/3" in (tmp_path / "matrix.md").read_text(encoding="utf-8")


@pytest.mark.heavy  # four matrix runs, shared by the module's fixture
def test_a_shard_given_twice_is_fine_and_a_contradicting_one_is_refused(runs) -> None:
    _, shards = runs
    reports = [(str(p), load_report(p)) for p in shards]
    again = merge_reports(reports + [("copy", load_report(shards[1]))])
    assert by_cell(again["cells"]) == by_cell(merge_reports(reports)["cells"])
    other = load_report(shards[1])
    other["cells"][1]["status"], other["cells"][1]["step"] = "DIVERGED", 5
    with pytest.raises(InputError) as info:
        merge_reports(reports + [("other.json", other)])
    message = str(info.value)
    assert message.startswith("other.json: cells[") and "DIVERGED@5" in message and "disagree" in message
    assert "\n" not in message
