"""The README's figures are the suite's: the counts its example shows are the counts a run gives.

A scenario or a column added without touching the README would make its example output lie;
these tests catch that.  Timings cannot be checked, so they must say when and where they were
measured.
"""

from __future__ import annotations

import re

from conformance.data.suite import Suite
from conformance.runners import DEFAULT_COLUMNS
from conformance.runners.cross import TARGETS
from conftest import ROOT

README = ROOT / "README.md"
SUMMARY = re.compile(r"matrix: (\d+) scenarios x (\d+) runners: (\d+) passed, (\d+) failed, (\d+) skipped"
                     r"; (\d+) states and vectors compared in [\d.]+ s")
COLUMN_LINE = re.compile(r"^column (\S+): (\d+) pass \(", re.MULTILINE)


def _main_job() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("## The main job"):text.index("\n## ", text.index("## The main job") + 5)]


def _scenarios() -> int:
    return len(Suite(ROOT).select(None, False))


def test_the_example_summary_counts_are_the_suites() -> None:
    found = SUMMARY.findall(_main_job())
    assert found, "the README's main job shows no matrix summary line"
    for scenarios, runners, passed, failed, skipped, _ in found:
        assert int(scenarios) == _scenarios(), "the README shows another number of scenarios than the suite has"
        assert int(runners) == len(DEFAULT_COLUMNS)
        # + the vectors row and the protocol row
        assert int(passed) + int(failed) + int(skipped) == (int(scenarios) + 2) * int(runners)


def test_the_example_table_and_column_lines_are_the_default_columns() -> None:
    job = _main_job()
    header = next(line for line in job.splitlines() if line.startswith("scenario "))
    assert header.split()[1:] == DEFAULT_COLUMNS
    rows = [line.split()[0] for line in job.splitlines()[job.splitlines().index(header) + 2:] if line.strip()]
    assert rows[:2] == ["vectors", "protocol"], rows
    lines = COLUMN_LINE.findall(job)
    assert lines and all(int(count) == _scenarios() + 2 for _, count in lines), lines  # + vectors, protocol
    assert all(column in DEFAULT_COLUMNS for column, _ in lines)
    # with QEMU and Wine: every default column, one per cross target, and c:windows
    assert f"({len(DEFAULT_COLUMNS) + len(TARGETS) + 1} columns)" in job


FIGURE = re.compile(r"^(\d+(\.\d+)?( to \d+(\.\d+)?)? s|-)$")
"""A cell of the figures table: seconds (one figure, or a range), or '-' where it does not apply."""


def _table_after(text: str, marker: str) -> list[str]:
    """The rows of the first Markdown table after ``marker``."""
    rows: list[str] = []
    for line in text[text.index(marker):].splitlines()[1:]:
        if line.startswith("|"):
            rows.append(line.strip())
        elif rows:
            break
    return rows


def test_the_readmes_figures_are_those_of_docs_results_with_date_and_machine() -> None:
    """The README's times are one table, the same as docs/results.md's, whose header names the
    date and the machine; each cell is seconds or '-'."""
    readme = _table_after(README.read_text(encoding="utf-8"), "### How long it takes")
    results = _table_after((ROOT / "docs" / "results.md").read_text(encoding="utf-8"), "## The README's figures")
    assert len(readme) >= 6 and readme == results, "the README's figures are not docs/results.md's"
    assert re.search(r"\d{4}-\d{2}-\d{2}", readme[0]) and re.search(r"\d+-core", readme[0]), readme[0]
    for row in readme[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert all(FIGURE.match(cell) for cell in cells[1:]), row


def test_the_main_jobs_prose_quotes_no_time_of_its_own() -> None:
    """Outside its example output (a dated run) and the figures table, the main job's text gives no
    time: a figure lives in the table, with its date and machine, or nowhere."""
    job = _main_job()
    prose = re.sub(r"```.*?```", "", job, flags=re.S)
    prose = "\n".join(line for line in prose.splitlines() if not line.startswith("|"))
    assert not re.findall(r"\b\d+(?:\.\d+)? (?:s|seconds|minutes)\b", prose)


def test_ci_runs_the_readme_commands() -> None:
    """The README opens with two commands, set up and run the main job, then the tests; CI runs
    both (the second as written), so neither can go stale."""
    text = README.read_text(encoding="utf-8")
    block = text[text.index("```\n") + 4:text.index("```", text.index("```\n") + 4)]
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2, commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[1] in ci, f"{commands[1]!r} is not a line of .ci/run"
    install, main_job = commands[0].split(" && ")
    assert install in [line.replace(" -q", "") for line in ci] and main_job in ci, commands[0]  # CI installs quietly
