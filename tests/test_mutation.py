"""The suite's teeth: a fixed sample of mutants of the C port must stay killed.

The full run is ``orca-conformance mutate --out DIR`` (about 22 minutes); this sample, built
from scratch, takes well under two minutes and notices when a change to the scenarios or
vectors makes the suite blind to a mistake it used to catch.
"""

from __future__ import annotations

import pytest

from collections import Counter


from conformance.selftest.variants.evidence import gather_evidence
from conformance.selftest.variants.mutate import KILLED, SURVIVED, Outcome, _judge, generate_mutants, run_mutants
from conformance.selftest.variants.review import Equivalence, Evidence, evidence_cases, load_equivalent, load_gap_notes
from conformance.selftest.variants.tree import sources_digest
from conformance.selftest.variants.mutation_report import score
from conftest import ROOT


# (mutant id, what kills it first: the full run's, or a cheaper scene added since): vectors of
# every solver file (agent_step for the simulator's assembly), a scenario on the bulk path and one
# on the single-agent API path
SAMPLE = {
    "constraint.c:44:comparison:8f4bb88637": "vector:for_boundary",
    "constraint.h:37:arithmetic:7962324b90": "vector:agent_constraint",
    "fallback.c:52:comparison:70aa982d6d": "vector:relax",
    "linear_program.c:23:arithmetic:9aaf5d4511": "vector:solve_closest",
    "linear_program.c:178:delete:0aff16460d": "vector:solve_direction",
    "neighbors.c:524:arithmetic:0737ab99b0": "vector:agent_neighbors",
    "obstacle.c:53:comparison:ce62ce21cd": "vector:support_distance",
    "obstacle.h:85:arithmetic:827752ab03": "vector:agent_case_form",
    "simulator.c:188:comparison:fa00138451": "vector:agent_step",
    "simulator.c:289:delete:6309ef8520": "scenario:orca/band-driver-squares[per-agent]",
    "simulator.c:603:comparison:befe2c700f": "scenario:orca/band-driver-squares",
    "vector.h:81:operands:639423d493": "vector:segment_distance_squared",
}


def test_mutant_generation_covers_every_operator() -> None:
    mutants = generate_mutants()
    kinds = Counter(m.operator for m in mutants)
    assert {"arithmetic", "comparison", "constant", "operands", "delete", "loop-bound"} <= set(kinds), kinds
    assert len(mutants) > 500 and len({m.id for m in mutants}) == len(mutants)
    assert generate_mutants() == mutants  # stable ids and order


@pytest.mark.heavy
def test_fixed_sample_is_still_killed() -> None:
    by_id = {m.id: m for m in generate_mutants()}
    missing = [i for i in SAMPLE if i not in by_id]
    assert not missing, f"the C sources changed; pick a new sample from a full run: {missing}"
    outcomes = run_mutants([by_id[i] for i in SAMPLE], ROOT, jobs=2, timeout=60.0, cached=False)
    for outcome in outcomes:
        print(outcome.mutant.id, outcome.status, outcome.killed_by, outcome.step, f"{outcome.seconds:.1f} s")
    for outcome in outcomes:
        assert outcome.status == KILLED, outcome.mutant.diff()
        assert outcome.killed_by.split("#")[0] == SAMPLE[outcome.mutant.id], (outcome.mutant.id, outcome.killed_by)


def test_judging_does_not_use_the_verdict_cache() -> None:
    mutant = next(m for m in generate_mutants() if m.id == "vector.h:81:operands:639423d493")
    outcome = _judge(mutant, ROOT, 60.0)
    assert outcome.status == KILLED and outcome.seconds > 0.0


def test_equivalence_counts_only_with_evidence_on_the_current_sources() -> None:
    first, second, third = generate_mutants()[:3]
    outcomes = [Outcome(first, SURVIVED), Outcome(second, SURVIVED), Outcome(third, SURVIVED)]
    current = sources_digest()[:16]
    reviewed = {first.id: Equivalence(first.id, "reason", Evidence(1000, 0, "", current)),
                second.id: Equivalence(second.id, "reason", Evidence(1000, 0, "", "0" * 16)),
                third.id: Equivalence(third.id, "reason", None)}
    summary = score(outcomes, reviewed)
    assert (summary["equivalent"], summary["gaps"]) == (1, 2)
    assert not Evidence(1000, 3, "relax#4", current).holds()


def test_evidence_tells_a_killed_mutant_apart() -> None:
    mutant = next(m for m in generate_mutants() if m.id == "vector.h:81:operands:639423d493")
    evidence = gather_evidence(mutant, evidence_cases(seeds=1), ROOT)
    assert evidence.compared > 5000 and evidence.differ > 0 and not evidence.holds()


def test_reviewed_list_matches_the_current_sources() -> None:
    """Every reviewed mutant still exists and its evidence was taken on these C sources: after
    an edit of runners/c, run ``orca-conformance mutate --evidence`` (and review new ids)."""
    path = ROOT / "docs" / "mutation" / "equivalent.json"
    reviewed = load_equivalent(path)
    ids = {m.id for m in generate_mutants()}
    assert len(reviewed) >= 50
    stale = [i for i, entry in reviewed.items() if i not in ids or entry.evidence is None or not entry.evidence.holds()]
    assert not stale, stale[:5]
    assert all(entry.reason.strip() for entry in reviewed.values())
    assert set(load_gap_notes(path)) <= ids
