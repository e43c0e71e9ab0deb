"""One variant's verdict, in its own process: ``python -m conformance.selftest.variants.worker
[--sanitize NAME] PROFILE TREE SUITE`` (or the evidence for a survivor, on fresh inputs and the
slow scenarios: ``... worker --evidence TREE CASES SUITE``).

Contract: builds the variant's tree through the build layer (``tree.variant_build``: with the
sanitizer's flags when one is named; the parent starts this process with its runtime preloaded,
else SanitizerUnavailable) and judges it on the non-slow scenarios, cheapest first, and every
primitive vector family, stopping at the first divergence.  It prints one JSON line in the
engine's words (``verdicts.VariantStatus``): ``scene`` (``killed_by`` ``scenario:ID[PATH]``,
``step`` or ``detail``; with the red cell's ``headline`` and ``clauses`` under a diagnosing
profile), ``vectors`` (``vector:FAMILY#CASE``), ``survived``, ``build-failed``, or ``no-verdict``.
A crash or a sanitizer's report ends this process: the parent names that kill.  Before each
vector family and scenario run it writes ``variant-worker: at WHAT`` on stderr.

The generator's ``Profile`` says how: the mutants' (``MUTATION``) runs the vectors first and the
scenes on three run paths, hashes compared; the operators' (``OPERATOR``) refuses a suite
without usable goldens, runs the scenes first as the matrix judges a cell (the divergence
diagnosed: a kill there is what a port that only runs scenes would see), on the bulk path only.
Under ThreadSanitizer the scenes of several chunks also run first on a real pool of two threads.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from ...data import vectors
from ...data.goldens import OK as GOLDEN_OK, golden_path, golden_status, read_golden
from ...data.suite import Suite
from ...judge.cell_engine import compare_hashes
from ...judge.cell_text import cell_lines
from ...judge.matrix import DIVERGED, ERROR, compare_scenario, run_families
from ...runners.base import RunnerError
from ...runners.build.layer import BuildFailed
from ...runners.build.sanitizer import SanitizerUnavailable, drop_preload, loaded
from ...runners.cffi_runner import CffiRunner
from ...runners.reference import ReferenceRunner
from ..controls.catalogue import by_cost
from .tree import variant_build
from .variant import MUTATION, OPERATOR
from .verdicts import AT, VariantStatus


@dataclass(frozen=True)
class Profile:
    scenes_first: bool
    diagnose: bool
    """Judge a scene as the matrix judges a cell (headline and clauses), goldens checked first."""
    all_paths: bool
    """The interleaved and per-agent paths too (``run_paths``), else the bulk path alone."""
    name: str
    """The build's runner name (``tree.variant_build``), which a red cell's headline shows."""


PROFILES = {MUTATION: Profile(scenes_first=False, diagnose=False, all_paths=True, name="mutant"),
            OPERATOR: Profile(scenes_first=True, diagnose=True, all_paths=False, name="operator")}

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
(oc_Run_SetThreads).  TSan reports a race from the order of the accesses (happens-before), not
from a lucky timing: one step in which both threads take a chunk of the same pass is enough."""

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


def _cost(scenario) -> int:
    return len(scenario.scene.agents) * scenario.scene.steps


def run_paths(scenarios: list, sanitizer: str | None = None, all_paths: bool = True) -> list[tuple[str, dict, list]]:
    """(tag, ``hashes`` options, scenarios) of each run path (the bulk path alone without
    ``all_paths``): the bulk path on every scenario, the
    other two on the cheaper ones, and under ThreadSanitizer the threaded path on the scenes of at least ``THREADED_MIN_CHUNKS`` chunks (``verdict`` runs it first)."""
    cheap = [s for s in scenarios if _cost(s) <= OTHER_PATHS_BUDGET]
    paths = [(tag, options, cheap if options else scenarios) for tag, options in RUN_PATHS[:None if all_paths else 1]]
    if sanitizer == "thread" and all_paths:
        tag, options = THREADED_PATH
        many = [s for s in scenarios if len(s.scene.agents) > (THREADED_MIN_CHUNKS - 1) * PHASE_ONE_CHUNK]
        paths.append((tag, options, many))
    return paths


def _started(tree: Path, sanitizer: str | None, name: str) -> CffiRunner | dict:
    """The variant's runner, or its build-failed verdict."""
    if sanitizer is not None:
        if not loaded(sanitizer):
            raise SanitizerUnavailable(f"the {sanitizer} sanitizer's runtime is not loaded in this process "
                                       "(start it with runners.build.sanitizer.environment)")
        drop_preload()  # the runtime stays loaded here; the compiler this process starts runs without it
    runner = CffiRunner(variant_build(tree, sanitizer, name))
    try:
        runner.info()
    except (RunnerError, BuildFailed) as err:
        return {"status": VariantStatus.BUILD_FAILED, "detail": str(err)[-300:]}
    return runner


def verdict(tree: Path, root: Path, profile: Profile, *, sanitizer: str | None = None,
            progress: Callable[[str], None] | None = None) -> dict:
    """The verdict on one tree laid out like runners/c (the module's contract); ``progress``
    hears what runs next (``vector:FAMILY``, ``scenario:ID[PATH]``) before it runs."""
    say = progress or (lambda _what: None)
    runner = _started(tree, sanitizer, profile.name)
    if isinstance(runner, dict):
        return runner
    suite = Suite(root)
    scenarios = by_cost(suite.files(False))
    if profile.diagnose:
        unusable = [s.id for s in scenarios if golden_status(suite.goldens_dir, s).kind != GOLDEN_OK]
        if unusable:  # a suite without its goldens judges nothing: never a kill
            return {"status": VariantStatus.NO_VERDICT, "detail": f"no usable golden for {', '.join(unusable)}"}
    paths = run_paths(scenarios, sanitizer, profile.all_paths)
    # a data race shows only in the threaded path: under TSan it runs first, its report soonest
    first, rest = [p for p in paths if p[0] == THREADED_PATH[0]], [p for p in paths if p[0] != THREADED_PATH[0]]
    order = [first, rest, None] if profile.scenes_first else [first, None, rest]
    for step in order:
        killed = (_vectors_kill(runner, suite, say) if step is None
                  else _paths_kill(runner, suite, step, profile.diagnose, say))
        if killed is not None:
            return killed
    return {"status": VariantStatus.SURVIVED}


def _vectors_kill(runner: CffiRunner, suite: Suite, say: Callable[[str], None]) -> dict | None:
    """The first vector family that tells the variant apart (its first bad case), or None."""
    for name, cases in vectors.load_all(suite.goldens_dir / "vectors").items():
        say(f"vector:{name}")
        run = next(run_families(runner, {name: cases}))
        if run.error is not None:
            return {"status": VariantStatus.VECTORS, "killed_by": f"vector:{run.name}", "detail": run.error.reason}
        if run.bad:
            return {"status": VariantStatus.VECTORS, "killed_by": f"vector:{run.name}#{run.bad[0]}",
                    "detail": f"{len(run.bad)} cases"}
    return None


def _paths_kill(runner: CffiRunner, suite: Suite, paths: list, diagnose: bool,
                say: Callable[[str], None]) -> dict | None:
    """The first kill of the scenario runs on ``paths`` (run_paths' triples), in order, or None."""
    for tag, options, scenarios in paths:
        for scenario in scenarios:
            killer = f"scenario:{scenario.id}{tag}"
            say(killer)
            if diagnose and not options:
                killed = _cell_kill(runner, suite, scenario, killer)
            else:
                killed = _scenario_kill(runner, suite, scenario, options, killer)
            if killed is not None:
                return killed
    return None


def _cell_kill(runner: CffiRunner, suite: Suite, scenario, killer: str) -> dict | None:
    """The kill of one scenario judged as a matrix cell (diagnosed: headline, clauses), or None."""
    cell = compare_scenario(scenario, runner, suite.goldens_dir, _reference(), None)
    if cell.status in (DIVERGED, ERROR):
        return {"status": VariantStatus.SCENE, "killed_by": killer, "step": cell.step,
                "headline": cell_lines(cell)[0], "clauses": cell.clauses(), "cell": cell.status}
    return None


@lru_cache(maxsize=1)
def _reference() -> ReferenceRunner:
    """The reference runner a diagnosis compares against (one per process)."""
    return ReferenceRunner()


def _scenario_kill(runner: CffiRunner, suite: Suite, scenario, options: dict, killer: str) -> dict | None:
    """The kill of one scenario run on one path (its first differing step, or its error), or None."""
    golden = read_golden(golden_path(suite.goldens_dir, scenario.id))
    outcome = compare_hashes(runner.hashes(scenario.scene, **options), golden.hashes)
    scene = {"status": VariantStatus.SCENE, "killed_by": killer}
    if outcome.first_difference() is not None:
        return {**scene, "step": outcome.first_difference()}
    if outcome.error is not None:
        return {**scene, "detail": outcome.error.reason}
    if not outcome.passed:  # fewer states than the golden's
        return {**scene, "detail": f"returned {outcome.compared} states, expected {outcome.expected}"}
    return None


def evidence(tree: Path, cases_file: Path, root: Path) -> dict:
    """The variant on fresh random primitive inputs (``review.evidence_cases``) and on the slow
    scenarios the verdict skips: how many cases and scenarios it was given, and on how many its
    bits differ from the reference's.  Zero on a large set, with every non-slow scenario passed
    (the verdict), is the evidence an equivalence claim needs."""
    runner = CffiRunner(variant_build(tree))
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
    """``--evidence TREE CASES SUITE``, or ``[--sanitize NAME] PROFILE TREE SUITE``: one JSON line."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[0] == "--evidence":
        print(json.dumps(evidence(Path(args[1]), Path(args[2]), Path(args[3]))), flush=True)
        return 0
    sanitizer = None
    if args[0] == "--sanitize":
        sanitizer, args = args[1], args[2:]
    profile, tree, root = PROFILES[args[0]], Path(args[1]), Path(args[2])
    print(json.dumps(verdict(tree, root, profile, sanitizer=sanitizer, progress=_tell)), flush=True)
    return 0


def _tell(what: str) -> None:
    print(AT + what, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
