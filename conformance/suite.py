"""Where the suite's data lives: the scenarios and goldens folders of one checkout.

Contract: ``Suite.locate(explicit)`` uses, in order, the explicit folder, the environment
variable ORCA_CONFORMANCE_SUITE, the current folder if it has ``scenarios/``, and the folder
above the installed package; it raises ``InputError`` when none has ``scenarios/``.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError
from .scenario import Scenario, load_suite


@dataclass(frozen=True)
class Suite:
    root: Path

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
            candidates += [Path.cwd(), Path(__file__).resolve().parent.parent]
        for root in candidates:
            if (root / "scenarios").is_dir():
                return cls(root.resolve())
        raise InputError(str(candidates[0]), "scenarios", "no scenarios/ folder here (use --suite DIR)")

    def scenarios(self) -> list[Scenario]:
        return load_suite(self.scenarios_dir)

    def select(self, patterns: list[str] | None, include_slow: bool) -> list[Scenario]:
        """Scenarios whose id matches any glob pattern (all when none); slow ones only when
        ``include_slow`` or when a pattern names them exactly."""
        chosen = []
        everything = self.scenarios()
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
                    raise InputError("command line", "scenarios", f"no scenario matches {pattern!r}")
        return chosen
