"""Where the suite's data lives: the scenarios and goldens folders of one checkout.

Contract: ``Suite.locate(explicit)`` uses, in order, the explicit folder, the environment
variable ORCA_CONFORMANCE_SUITE, the current folder if it has ``scenarios/``, and the folder
above the installed package; it raises ``InputError`` when none has ``scenarios/``.

A broken scenario file blocks only the commands that need it.  ``load()`` never raises for a
broken file: it returns the scenarios that loaded and one error per broken file (``check``
lists them all).  ``select(None, ...)`` means "every scenario", so any broken file raises
``ScenarioFileErrors`` naming every one; ``select(patterns, ...)`` and ``scenario(id)`` raise
only for broken files whose id (their path below scenarios/) is asked for, and print one
``warning:`` line on stderr for each other broken file, once per ``Suite``.  ``scenarios()``
is every scenario that loads, with the same warnings.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..contract.scenario import BrokenFile, Scenario, ScenarioFileErrors, SuiteLoad, load_each


@dataclass(frozen=True)
class Suite:
    root: Path
    _warned: set = field(default_factory=set, init=False, repr=False, compare=False, hash=False)

    @property
    def scenarios_dir(self) -> Path:
        return self.root / "scenarios"

    @property
    def goldens_dir(self) -> Path:
        return self.root / "goldens"

    @classmethod
    def locate(cls, explicit: str | None = None) -> "Suite":
        candidates = []
        if explicit:
            candidates.append(Path(explicit))
        elif os.environ.get("ORCA_CONFORMANCE_SUITE"):
            candidates.append(Path(os.environ["ORCA_CONFORMANCE_SUITE"]))
        else:
            candidates += [Path.cwd(), Path(__file__).resolve().parents[2]]
        for root in candidates:
            if (root / "scenarios").is_dir():
                return cls(root.resolve())
        raise InputError(str(candidates[0]), "scenarios", "no scenarios/ folder here (use --suite DIR)")

    def load(self) -> SuiteLoad:
        """Every scenario file, loaded or broken; never raises for a broken file."""
        return load_each(self.scenarios_dir)

    def scenarios(self) -> list[Scenario]:
        """Every scenario that loads, sorted by id (a warning line for each broken file)."""
        loaded = self.load()
        self._warn(loaded.broken)
        return list(loaded.scenarios)

    def scenario(self, scenario_id: str) -> Scenario:
        """The scenario of one id; ``InputError`` if its file is broken or there is none."""
        loaded = self.load()
        wanted = [b for b in loaded.broken if b.presumed_id == scenario_id]
        if wanted:
            raise ScenarioFileErrors([b.error for b in wanted])
        self._warn(loaded.broken)
        for scenario in loaded.scenarios:
            if scenario.id == scenario_id:
                return scenario
        raise InputError("command line", "id", f"no scenario has the id {scenario_id!r} "
                         "(see: orca-conformance check --list)")

    def select(self, patterns: list[str] | None, include_slow: bool) -> list[Scenario]:
        """Scenarios whose id matches any glob pattern (all when none); slow ones only when
        ``include_slow`` or when a pattern names them exactly.  A broken file that the
        patterns match (any broken file, without patterns) raises ``ScenarioFileErrors``."""
        loaded = self.load()
        if patterns:
            wanted = [b for b in loaded.broken if _matches(b.presumed_id, patterns)]
        else:
            wanted = list(loaded.broken)
        if wanted:
            raise ScenarioFileErrors([b.error for b in wanted])
        self._warn(loaded.broken)
        chosen = []
        everything = loaded.scenarios
        for scenario in everything:
            if patterns:
                exact = scenario.id in patterns
                if not exact and not any(fnmatch.fnmatchcase(scenario.id, p) for p in patterns):
                    continue
                if scenario.slow and not (include_slow or exact):
                    continue
            elif scenario.slow and not include_slow:
                continue
            chosen.append(scenario)
        if patterns:
            for pattern in patterns:
                if not any(fnmatch.fnmatchcase(s.id, pattern) for s in everything):
                    from difflib import get_close_matches
                    close = get_close_matches(pattern, [s.id for s in everything], n=1)
                    hint = f"; did you mean {close[0]!r}?" if close else " (see: orca-conformance check --list)"
                    raise InputError("command line", "scenarios", f"no scenario matches {pattern!r}{hint}")
        return chosen

    def _warn(self, broken: tuple[BrokenFile, ...]) -> None:
        """One stderr line per broken file that the command goes on without (once each)."""
        for b in broken:
            if b.path not in self._warned:
                self._warned.add(b.path)
                print(f"warning: skipping a broken scenario file: {b.error}", file=sys.stderr, flush=True)


def _matches(scenario_id: str, patterns: list[str]) -> bool:
    return any(scenario_id == p or fnmatch.fnmatchcase(scenario_id, p) for p in patterns)
