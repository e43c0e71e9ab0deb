"""The suite's teeth: a fixed sample of mutants of the C port must stay killed.

The full run is ``orca-conformance mutate --out DIR`` (about 16 minutes); this sample, built
from scratch, takes well under two minutes and notices when a change to the scenarios or
vectors makes the suite blind to a mistake it used to catch.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conformance.mutate import KILLED, _judge, generate_mutants, run_mutants

ROOT = Path(__file__).resolve().parent.parent

# (mutant id, what killed it in the full run): vectors, scenarios and crashes, across files
SAMPLE = {
    "constraint.c:44:comparison:8f4bb88637": "vector:for_boundary",
    "constraint.h:37:arithmetic:7962324b90": "vector:agent_constraint",
    "fallback.c:62:arithmetic:2d2f1e2486": "vector:relax",
    "linear_program.c:18:arithmetic:c597798352": "vector:solve_closest",
    "linear_program.c:173:delete:fb12bd423f": "vector:relax",
    "neighbors.c:451:arithmetic:303e3a09de": "scenario:orca/equal-distance-ties",
    "neighbors.h:16:constant:e9e166f367": "scenario:orca/overlap-wall-deep",
    "obstacle.c:119:comparison:d2462ba4e3": "vector:support_distance",
    "obstacle.h:85:arithmetic:827752ab03": "vector:agent_case_form",
    "simulator.c:151:comparison:729185ca13": "scenario:orca/degenerate",
    "vector.h:81:operands:639423d493": "vector:segment_distance_squared",
}


def test_mutant_generation_covers_every_operator() -> None:
    mutants = generate_mutants()
    kinds = Counter(m.operator for m in mutants)
    assert {"arithmetic", "comparison", "constant", "operands", "delete", "loop-bound"} <= set(kinds), kinds
    assert len(mutants) > 500 and len({m.id for m in mutants}) == len(mutants)
    assert generate_mutants() == mutants  # stable ids and order


def test_fixed_sample_is_still_killed() -> None:
    by_id = {m.id: m for m in generate_mutants()}
    missing = [i for i in SAMPLE if i not in by_id]
    assert not missing, f"the C sources changed; pick a new sample from a full run: {missing}"
    outcomes = run_mutants([by_id[i] for i in SAMPLE], ROOT, jobs=2, timeout=60.0, cached=False)
    for outcome in outcomes:
        print(outcome.mutant.id, outcome.status, outcome.killed_by, outcome.step, f"{outcome.seconds:.1f} s")
    for outcome in outcomes:
        assert outcome.status == KILLED, outcome.mutant.diff()
        assert outcome.killed_by.startswith(SAMPLE[outcome.mutant.id]), (outcome.mutant.id, outcome.killed_by)


def test_judging_does_not_use_the_verdict_cache() -> None:
    mutant = next(m for m in generate_mutants() if m.id == "vector.h:81:operands:639423d493")
    outcome = _judge(mutant, ROOT, 60.0)
    assert outcome.status == KILLED and outcome.seconds > 0.0
