"""The suite's lint (``orca-conformance check``): what is wrong with the suite's own files.

Contract: ``lint_suite(suite)`` reads every scenario, golden and vector file and never stops
at the first broken one: it returns the scenarios that load, the lint problems (a golden
missing, stale or under another id; figures that break the scenario's ``expect:``; an
orphan golden; a missing vector file), one sentence each, the bad input (one ``InputError``
per unreadable scenario, golden or vector file) and the summary line.  It writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..contract.expectations import check_expectations
from ..contract.scenario import Scenario
from ..errors import InputError
from . import vectors
from .goldens import OK, golden_status, orphans
from .suite import Suite


@dataclass(frozen=True)
class Lint:
    scenarios: list[Scenario]
    problems: list[str]
    """Lint problems (the suite ran and something is wrong: exit 1)."""
    bad_input: list[InputError]
    """Broken scenario, golden or vector files (exit 2)."""

    def summary(self) -> str:
        return (f"check: {_plural(len(self.scenarios), 'scenario')}, {_plural(len(self.problems), 'problem')}"
                + (f", {_plural(len(self.bad_input), 'broken file')}" if self.bad_input else ""))


def lint_suite(suite: Suite) -> Lint:
    """Every problem of the suite's files, however many are broken."""
    loaded = suite.load()
    scenarios = list(loaded.scenarios)
    bad_input = [b.error for b in loaded.broken]
    problems = []
    for s in scenarios:
        try:
            status = golden_status(suite.goldens_dir, s)
        except InputError as err:
            bad_input.append(err)
            continue
        if status.kind != OK:
            problems.append(status.problem(s.id, status.path.relative_to(suite.root)))
        else:
            for violation in check_expectations(s, status.golden.figures):
                problems.append(f"{s.id}: {violation} ({Path(s.source).relative_to(suite.root)}; "
                                "the golden's figures are the reference's: loosen the bound or change the scene)")
    # a broken file's golden is not an orphan: its scenario is still there, only unreadable
    known = [s.id for s in scenarios] + [b.presumed_id for b in loaded.broken]
    for orphan in orphans(suite.goldens_dir, known):
        problems.append(f"{orphan.relative_to(suite.root)}: orphan golden (no scenario has this id)")
    for family in vectors.FAMILIES:
        path = vectors.vector_path(suite.goldens_dir / "vectors", family.name)
        if not path.exists():
            problems.append(f"vectors/{path.name}: missing; run: orca-conformance goldens regen")
        else:
            try:
                vectors.read_vectors(path)
            except InputError as err:
                bad_input.append(err)
    return Lint(scenarios, problems, bad_input)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")
