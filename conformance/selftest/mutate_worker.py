"""One mutant's verdict, in its own process: ``python -m conformance.selftest.mutate_worker TREE SUITE``
(or its evidence on fresh inputs and the slow scenarios:
``python -m conformance.selftest.mutate_worker --evidence TREE CASES SUITE``).

Builds the mutated tree through the build layer, runs every primitive vector family and then
the non-slow scenarios cheapest first (by the bulk path, then threaded, then per agent), and
prints one JSON line: killed (by what, at which step), survived, or build-failed.  A crash of the mutant kills this process, which the parent
reports as a kill by crash.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..data import vectors
from ..runners.build import DETERMINISM_FLAGS, BuildFailed, system_cc
from .controls import by_cost
from ..judge.matrix import run_families
from ..data.goldens import golden_path, read_golden
from ..runners.base import RunnerError
from ..runners.cffi_runner import CffiRunner, CVariant
from ..data.suite import Suite


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


def verdict(tree: Path, root: Path) -> dict:
    runner = CffiRunner(CVariant("mutant", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
    try:
        runner.info()
    except (RunnerError, BuildFailed) as err:
        return {"status": "build-failed", "detail": str(err)[-300:]}
    suite = Suite(root)
    for run in run_families(runner, vectors.load_all(suite.goldens_dir / "vectors")):
        if run.error is not None:
            return {"status": "killed", "killed_by": f"vector:{run.name}", "detail": run.error.reason}
        if run.bad:
            return {"status": "killed", "killed_by": f"vector:{run.name}#{run.bad[0]}", "detail": f"{len(run.bad)} cases"}
    scenarios = by_cost(suite.select(None, False))
    for tag, options in RUN_PATHS:
        for scenario in scenarios if not options else [s for s in scenarios if _cost(s) <= OTHER_PATHS_BUDGET]:
            golden = read_golden(golden_path(suite.goldens_dir, scenario.id))
            killer = f"scenario:{scenario.id}{tag}"
            try:
                for step, got in enumerate(runner.hashes(scenario.scene, **options)):
                    if got != golden.hashes[step]:
                        return {"status": "killed", "killed_by": killer, "step": step}
            except RunnerError as err:
                return {"status": "killed", "killed_by": killer, "detail": err.reason}
    return {"status": "survived"}


def _cost(scenario) -> int:
    return len(scenario.scene.agents) * scenario.scene.steps


def evidence(tree: Path, cases_file: Path, root: Path) -> dict:
    """The mutant on fresh random primitive inputs (``equivalents.evidence_cases``) and on the slow
    scenarios the verdict skips: how many cases and scenarios it was given, and on how many its
    bits differ from the reference's.  Zero on a large set, with every non-slow scenario passed
    on every run path (the verdict), is the evidence an equivalence claim needs."""
    runner = CffiRunner(CVariant("mutant", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
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
    slow = [s for s in suite.select(None, True) if s.slow]
    for scenario in slow:
        golden = read_golden(golden_path(suite.goldens_dir, scenario.id))
        try:
            same = list(runner.hashes(scenario.scene)) == list(golden.hashes)
        except RunnerError:
            same = False
        if not same:
            differ += 1
            first = first or f"scenario:{scenario.id}"
    return {"compared": compared, "differ": differ, "first": first, "scenarios": len(slow)}


def main() -> int:
    if sys.argv[1] == "--evidence":
        print(json.dumps(evidence(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))), flush=True)
        return 0
    tree, root = Path(sys.argv[1]), Path(sys.argv[2])
    print(json.dumps(verdict(tree, root)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
