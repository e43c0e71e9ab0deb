"""Where the suite's data lives: the scenarios and goldens folders of one checkout.

Contract: ``Suite.locate(explicit)`` uses, in order, the explicit folder, the environment
variable ORCA_CONFORMANCE_SUITE, the current folder if it has ``scenarios/``, and the suite
shipped with the package (``shipped.root()``: the checkout, or the wheel's copy); it raises
``InputError`` when the folder named has no ``scenarios/``, or when neither of the last two has
one (``shipped.MissingData`` when an installed wheel lost files).

A broken scenario file blocks only the commands that need it.  ``load()`` never raises for a
broken file: it returns the scenarios that loaded and one error per broken file (``check``
lists them all).  ``select(None, ...)`` means "every scenario", so any broken file raises
``ScenarioFileErrors`` naming every one; ``select(patterns, ...)`` and ``scenario(id)`` raise
only for broken files whose id (their path below scenarios/) is asked for, and print one
``warning:`` line on stderr for each other broken file, once per ``Suite``.  ``scenarios()``
is every scenario that loads, with the same warnings.  ``id_of(text)`` turns a scenario file's
path into its id (a command may be given either).  An id or glob that matches nothing is an
``InputError`` suggesting the nearest id (``errors.did_you_mean``), if one is near.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .. import shipped
from ..errors import InputError, did_you_mean
from ..contract import frames
from ..contract.scenario import BrokenFile, Scenario, ScenarioFileErrors, SuiteLoad, load_each, presumed_id


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
        """The suite of ``--suite DIR``, else of $ORCA_CONFORMANCE_SUITE, else the current folder
        when it has ``scenarios/``, else the shipped one (``shipped.root``)."""
        given = explicit or os.environ.get("ORCA_CONFORMANCE_SUITE")
        if given:
            root = Path(given)
            if (root / "scenarios").is_dir():
                return cls(root.resolve())
            what = "no such folder" if not root.exists() else "no scenarios/ folder here"
            source = "--suite DIR" if explicit else "ORCA_CONFORMANCE_SUITE"
            raise InputError(given, "scenarios", f"{what} (named by {source}; a suite is a folder holding "
                             "scenarios/ and goldens/, such as a checkout of orca-conformance)")
        for root in (Path.cwd(), shipped.root()):
            if (root / "scenarios").is_dir():
                return cls(root.resolve())
        shipped.require()  # an installed wheel missing its scenarios says so, and how to get them back
        raise InputError(str(Path.cwd()), "scenarios", "no scenarios/ folder here, and none shipped with the "
                         f"package in {shipped.root()} (use --suite DIR)")

    def load(self) -> SuiteLoad:
        """Every scenario file, loaded or broken, then every framed variant of the suite's
        ``scenarios/frames.json`` (a broken frames file is one more broken file); never raises
        for a broken file."""
        return frames.with_frames(load_each(self.scenarios_dir), self.scenarios_dir / frames.FRAMES_FILE)

    def scenarios(self) -> list[Scenario]:
        """Every scenario that loads, sorted by id (a warning line for each broken file)."""
        loaded = self.load()
        self._warn(loaded.broken)
        return list(loaded.scenarios)

    def scenario(self, scenario_id: str) -> Scenario:
        """The scenario of one id; ``InputError`` if its file is broken or there is none."""
        loaded = self.load()
        wanted = [b for b in loaded.broken if b.presumed_id == frames.split_id(scenario_id)[0]]
        if wanted:
            raise ScenarioFileErrors([b.error for b in wanted])
        self._warn(loaded.broken)
        for scenario in loaded.scenarios:
            if scenario.id == scenario_id:
                return scenario
        raise _no_match("id", scenario_id, [s.id for s in loaded.scenarios])

    def id_of(self, given: str) -> str:
        """The scenario id a command-line argument names: an id as it is, or a scenario file
        (a path ending in ``.yaml``, relative to the working folder or else to the suite) as its
        path below ``scenarios/`` without ``.yaml``; ``InputError`` for a file outside it."""
        if not given.endswith(".yaml"):
            return given
        path = Path(given)
        tries = [path.resolve()] + ([] if path.is_absolute() else [(self.root / path).resolve()])
        for full in tries:
            if full.is_relative_to(self.scenarios_dir):
                return presumed_id(full, self.scenarios_dir)
        raise InputError("command line", "id", f"{given!r} is not a file below {self.scenarios_dir} "
                         "(give a scenario id, or the path of a file below the suite's scenarios/)")

    def select(self, patterns: list[str] | None, include_slow: bool,
               include_frames: bool | None = None) -> list[Scenario]:
        """Scenarios whose id matches any glob pattern (all when none); slow ones only when
        ``include_slow``, framed variants outside the default matrix only when ``include_frames``
        (default: ``include_slow``, so ``--all`` takes every variant), either when a pattern
        names them exactly.  A broken file that the patterns match (any broken file, without
        patterns) raises ``ScenarioFileErrors``; a framed id matches its scenario's file."""
        if include_frames is None:
            include_frames = include_slow
        loaded = self.load()
        if patterns:
            wanted = [b for b in loaded.broken if _matches(b.presumed_id, patterns + [frames.split_id(p)[0] for p in patterns])]
        else:
            wanted = list(loaded.broken)
        if wanted:
            raise ScenarioFileErrors([b.error for b in wanted])
        self._warn(loaded.broken)
        everything = loaded.scenarios
        chosen = [s for s in everything if (not patterns or _matches(s.id, patterns))
                  and (patterns and s.id in patterns or _by_default(s, include_slow, include_frames))]
        if patterns:
            for pattern in patterns:
                if not any(fnmatch.fnmatchcase(s.id, pattern) for s in everything):
                    raise _no_match("scenarios", pattern, [s.id for s in everything])
        return chosen

    def files(self, include_slow: bool) -> list[Scenario]:
        """The scenario files' own scenes, no framed variant (slow ones with ``include_slow``):
        what the self-tests (census, clauses, schema coverage, mutation, controls) read."""
        return [s for s in self.select(None, include_slow, False) if not s.frame]

    def _warn(self, broken: tuple[BrokenFile, ...]) -> None:
        """One stderr line per broken file that the command goes on without (once each)."""
        for b in broken:
            if b.path not in self._warned:
                self._warned.add(b.path)
                print(f"warning: skipping a broken scenario file: {b.error}", file=sys.stderr, flush=True)


def _no_match(key_path: str, pattern: str, ids: list[str]) -> InputError:
    """``no scenario matches 'orca/hed-on*'; did you mean 'orca/head-on-exact'?`` (an id whose
    name is near the pattern's literal part), or where to see the ids when none is near."""
    hint = did_you_mean(pattern, ids) or " (see: orca-conformance check --list)"
    return InputError("command line", key_path, f"no scenario matches {pattern!r}{hint}")


def _by_default(scenario: Scenario, include_slow: bool, include_frames: bool) -> bool:
    """Whether a selection by glob, or of everything, takes ``scenario``."""
    if scenario.frame:
        return scenario.default or include_frames
    return include_slow or not scenario.slow


def _matches(scenario_id: str, patterns: list[str]) -> bool:
    return any(scenario_id == p or fnmatch.fnmatchcase(scenario_id, p) for p in patterns)
