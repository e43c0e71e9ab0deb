"""One mutant's verdict, in its own process: ``python -m conformance.selftest.variants.mutate_worker
[--sanitize address|thread] TREE SUITE`` (or its evidence on fresh inputs and the slow scenarios:
``python -m conformance.selftest.variants.mutate_worker --evidence TREE CASES SUITE``).

Builds the mutated tree through the build layer, runs every primitive vector family and then
the non-slow scenarios cheapest first (by the bulk path, then interleaved, then per agent), and
prints one JSON line: killed (by what, at which step), survived, or build-failed.  A crash of
the mutant kills this process, which the parent reports as a kill by crash.  With a sanitizer
the library is built with it (``runners.build.sanitizer``; the parent starts this process with the
runtime preloaded) and, under ThreadSanitizer, the scenes of several chunks also run on a real
pool of two threads, first of all (a race shows nowhere else, and its report comes soonest);
a sanitizer report stops this process, and the parent
reports a kill by ``sanitizer:NAME``.  Before each vector family and each scenario run this
process writes ``mutate-worker: at WHAT`` on stderr, so that the parent can say what ran when
it stopped.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Callable

from ...data import vectors
from ...runners.build.layer import DETERMINISM_FLAGS, BuildFailed, system_cc
from ...runners.build.sanitizer import SanitizerUnavailable, compile_flags, drop_preload, loaded
from ..controls.catalogue import by_cost
from .mutate import AT
from ...judge.cell_engine import compare_hashes
from ...judge.matrix import run_families
from ...data.goldens import golden_path, read_golden
from ...runners.base import RunnerError
from ...runners.cffi_runner import CffiRunner, CVariant
from ...data.suite import Suite

RUN_PATHS: tuple[tuple[str, dict], ...] = (("", {}), ("[interleaved=3]", {"interleaved": 3}),
                                           ("[per-agent]", {"per_agent": True}))
"""The C library's three ways through a step, each held to the goldens: the bulk path the
columns use, the split of a threaded step made deterministic (every chunk of every pass, last
first, on three workspaces in turn: a real pool would leave small scenes on one thread), and
the single-agent API calls (driver.c)."""

OTHER_PATHS_BUDGET = 50_000
"""The interleaved and per-agent paths run the scenarios of at most this many agent-steps (all
but the large crowds, which add time and no kills: the paths share the solver). It takes in
the wall gap (40 agents) and the dense pack (72): phase 1 goes in chunks of 32 agents, so
only scenes of more than 32 agents put a chunk on a second workspace."""


THREADED_PATH: tuple[str, dict] = ("[threads=2]", {"threads": 2})
"""Under ThreadSanitizer only, before the vectors and the three paths: a real pool of two threads
(oc_Run_SetThreads).
TSan reports a race from the order of the accesses (happens-before), not from a lucky timing:
one step in which both threads take a chunk of the same pass is enough."""

PHASE_ONE_CHUNK = 32
"""Agents per chunk of phase 1 (simulator.c; the grid's passes go in chunks of 256)."""

THREADED_MIN_CHUNKS = 4
"""The threaded path runs the scenes whose phase 1 has at least this many chunks (more than 96
agents: the two 100-agent scenes and the 300-agent circle, whose grid passes split too). The
calling thread takes its half of the chunks before it steals the other's, so a job must outlast
the second thread's wake-up: with two or three chunks it often does not (the race of
``simulator.c:332:delete`` went unseen in 4 of 5 runs of the 72-agent pack and in 5 of 5 of the
80-agent corridor, two workers at a time on two cores), with four or more it was seen in every
run (5 of 5 for each 100-agent scene, 6 of 6 for the circle of 300, 2026-12-02)."""


def mutant_variant(tree: Path, sanitizer: str | None = None) -> CVariant:
    """The build of a mutated tree: the determinism flags, -O2, and the sanitizer's flags."""
    flags = DETERMINISM_FLAGS + ("-O2",) + (compile_flags(sanitizer) if sanitizer else ())
    return CVariant("mutant" if sanitizer is None else f"mutant-{sanitizer}", system_cc(), flags, tree)


def run_paths(scenarios: list, sanitizer: str | None = None) -> list[tuple[str, dict, list]]:
    """(tag, ``hashes`` options, scenarios) of each run path: the bulk path on every scenario, the
    other two on the cheaper ones, and under ThreadSanitizer the threaded path on the scenes of
    at least ``THREADED_MIN_CHUNKS`` chunks (``verdict`` runs that one first, before the vectors)."""
    cheap = [s for s in scenarios if _cost(s) <= OTHER_PATHS_BUDGET]
    paths = [(tag, options, cheap if options else scenarios) for tag, options in RUN_PATHS]
    if sanitizer == "thread":
        tag, options = THREADED_PATH
        many = [s for s in scenarios if len(s.scene.agents) > (THREADED_MIN_CHUNKS - 1) * PHASE_ONE_CHUNK]
        paths.append((tag, options, many))
    return paths


def verdict(tree: Path, root: Path, *, sanitizer: str | None = None,
            progress: Callable[[str], None] | None = None) -> dict:
    """The verdict on one tree laid out like runners/c: ``{"status": "survived"}``, or killed
    (``killed_by`` ``vector:FAMILY#CASE`` or ``scenario:ID[PATH]``, ``step``, ``detail``), or
    build-failed.  With ``sanitizer`` ("address" or "thread") the library is built with it and
    this process must have its runtime loaded (``sanitizer.environment``; else
    SanitizerUnavailable); a report then ends the process (the caller's kill).  ``progress``
    hears what runs next (``vector:FAMILY``, ``scenario:ID[PATH]``) before it runs."""
    if sanitizer is not None:
        if not loaded(sanitizer):
            raise SanitizerUnavailable(f"the {sanitizer} sanitizer's runtime is not loaded in this process "
                                       "(start it with runners.build.sanitizer.environment)")
        drop_preload()
    say = progress or (lambda _what: None)
    runner = CffiRunner(mutant_variant(tree, sanitizer))
    try:
        runner.info()
    except (RunnerError, BuildFailed) as err:
        return {"status": "build-failed", "detail": str(err)[-300:]}
    suite = Suite(root)
    paths = run_paths(by_cost(suite.files(False)), sanitizer)
    # a data race shows only in the threaded path: under TSan it runs first, its report soonest
    first, rest = [p for p in paths if p[0] == THREADED_PATH[0]], [p for p in paths if p[0] != THREADED_PATH[0]]
    killed = _paths_kill(runner, suite, first, say)
    if killed is not None:
        return killed
    for name, cases in vectors.load_all(suite.goldens_dir / "vectors").items():
        say(f"vector:{name}")
        run = next(run_families(runner, {name: cases}))
        if run.error is not None:
            return {"status": "killed", "killed_by": f"vector:{run.name}", "detail": run.error.reason}
        if run.bad:
            return {"status": "killed", "killed_by": f"vector:{run.name}#{run.bad[0]}", "detail": f"{len(run.bad)} cases"}
    return _paths_kill(runner, suite, rest, say) or {"status": "survived"}


def _paths_kill(runner: CffiRunner, suite: Suite, paths: list, say: Callable[[str], None]) -> dict | None:
    """The first kill of the scenario runs on ``paths`` (run_paths' triples), in order, or None."""
    for tag, options, scenarios in paths:
        for scenario in scenarios:
            killer = f"scenario:{scenario.id}{tag}"
            say(killer)
            killed = _scenario_kill(runner, suite, scenario, options, killer)
            if killed is not None:
                return killed
    return None


def _scenario_kill(runner: CffiRunner, suite: Suite, scenario, options: dict, killer: str) -> dict | None:
    """The kill of one scenario run on one path (its first differing step, or its error), or None."""
    golden = read_golden(golden_path(suite.goldens_dir, scenario.id))
    outcome = compare_hashes(runner.hashes(scenario.scene, **options), golden.hashes)
    if outcome.first_difference() is not None:
        return {"status": "killed", "killed_by": killer, "step": outcome.first_difference()}
    if outcome.error is not None:
        return {"status": "killed", "killed_by": killer, "detail": outcome.error.reason}
    if not outcome.passed:  # fewer states than the golden's
        return {"status": "killed", "killed_by": killer, "detail": f"returned {outcome.compared} states, "
                f"expected {outcome.expected}"}
    return None


def _cost(scenario) -> int:
    return len(scenario.scene.agents) * scenario.scene.steps


def evidence(tree: Path, cases_file: Path, root: Path) -> dict:
    """The mutant on fresh random primitive inputs (``equivalents.evidence_cases``) and on the slow
    scenarios the verdict skips: how many cases and scenarios it was given, and on how many its
    bits differ from the reference's.  Zero on a large set, with every non-slow scenario passed
    on every run path (the verdict), is the evidence an equivalence claim needs."""
    runner = CffiRunner(mutant_variant(tree))
    compared = differ = 0
    first = ""
    for run in run_families(runner, json.loads(cases_file.read_text())):
        if run.error is not None:
            return {"compared": compared, "differ": differ + len(run.cases), "first": f"{run.name}: {run.error.reason}"}
        if run.bad and not first:
            first = f"{run.name}#{run.bad[0]}"
        compared += len(run.cases)
        differ += len(run.bad)
    suite = Suite(root)
    slow = [s for s in suite.files(True) if s.slow]
    for scenario in slow:
        golden = read_golden(golden_path(suite.goldens_dir, scenario.id))
        if not compare_hashes(runner.hashes(scenario.scene), golden.hashes).passed:
            differ += 1
            first = first or f"scenario:{scenario.id}"
    return {"compared": compared, "differ": differ, "first": first, "scenarios": len(slow)}


def main(argv: list[str] | None = None) -> int:
    """``--evidence TREE CASES SUITE``, or ``[--sanitize NAME] TREE SUITE``: one JSON line on stdout."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[0] == "--evidence":
        print(json.dumps(evidence(Path(args[1]), Path(args[2]), Path(args[3]))), flush=True)
        return 0
    sanitizer = None
    if args[0] == "--sanitize":
        sanitizer, args = args[1], args[2:]
    tree, root = Path(args[0]), Path(args[1])
    print(json.dumps(verdict(tree, root, sanitizer=sanitizer, progress=_tell)), flush=True)
    return 0


def _tell(what: str) -> None:
    print(AT + what, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
