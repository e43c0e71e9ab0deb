"""The C grid's query with a head start (oc_AgentGrid_NeighborsWithin) and with seeds
(oc_AgentGrid_NeighborsSeeded), through the C library.

The simulator hands each query the largest current squared distance of the agent's previous
neighbours. Any bound at least the squared distance of the cap-th nearest other agent must give
exactly the reference's neighbours, ties included; here on compact scenes (the grid's dense cell
table) and on scenes kilometres wide (its hash), with the bound exactly at the cap-th squared
distance, between it and the cut-off, beyond it, and NaN. The simulator also hands the query the
previous neighbours themselves as seeds, inserted before the scan, which then leaves them out: any
set of distinct candidates given with their squared distances, in any order, as many as the cap
or more, must give the same neighbours too.
"""

from __future__ import annotations

import random

import cffi

import pytest

from conformance.runners.c_api import CDEF
from conformance.runners.cffi_runner import CffiRunner, c_variants
from conformance.solver.neighbors import agent_neighbors_brute_force

CAP = 6
DISTANCE = 2.0


def _scenes() -> list[tuple[str, list[float], list[float]]]:
    rng = random.Random(20261201)
    scenes = []
    for k in range(12):
        n = rng.randint(20, 60)
        if k % 2 == 0:
            # compact: a few cells
            xs = [rng.uniform(-2.5, 2.5) for _ in range(n)]
            ys = [rng.uniform(-2.5, 2.5) for _ in range(n)]
        else:
            # clusters kilometres apart: far too wide for the dense table
            centres = [(rng.uniform(-5e3, 5e3), rng.uniform(-5e3, 5e3)) for _ in range(3)]
            xs, ys = [], []
            for j in range(n):
                cx, cy = centres[j % 3]
                xs.append(cx + rng.uniform(-2.0, 2.0))
                ys.append(cy + rng.uniform(-2.0, 2.0))
        scenes.append((f"random-{k}", xs, ys))
    # a lattice: many agents tie at the cap-th squared distance, so a bound exactly there must
    # let every tie through for the index order to choose among them
    xs = [float(c) for c in range(-3, 4) for _ in range(-3, 4)]
    ys = [float(r) for _ in range(-3, 4) for r in range(-3, 4)]
    scenes.append(("lattice", xs, ys))
    scenes.append(("lattice-wide", xs + [x + 4e3 for x in xs], ys + [y - 3e3 for y in ys]))
    return scenes


def _grid(ffi, lib, xs: list[float], ys: list[float]):
    """A grid built over the scene (garbage-collected) and an output buffer of len(xs) entries."""
    grid = ffi.gc(lib.oc_AgentGrid_Create(), lib.oc_AgentGrid_Destroy)
    positions = ffi.new("ocVec2[]", list(zip(xs, ys)))
    assert lib.oc_AgentGrid_Build(grid, positions, len(xs), DISTANCE)
    return grid, ffi.new("ocNeighbor[]", len(xs))


def _squared_distances(i: int, xs: list[float], ys: list[float]) -> list[tuple[float, int]]:
    """(d2, j) of every other agent j, d2 as the query computes it: pj - pi, then the dot product."""
    return [((xs[j] - xs[i]) * (xs[j] - xs[i]) + (ys[j] - ys[i]) * (ys[j] - ys[i]), j)
            for j in range(len(xs)) if j != i]


@pytest.mark.parametrize("name,xs,ys", [pytest.param(*scene, id=scene[0]) for scene in _scenes()])
def test_any_valid_bound_gives_the_reference_neighbours(name: str, xs: list[float], ys: list[float]) -> None:
    ffi, lib = CffiRunner(c_variants()["c"])._load()
    n = len(xs)
    grid, out = _grid(ffi, lib, xs, ys)
    limit = DISTANCE * DISTANCE
    bounded = 0
    for i in range(n):
        expected = agent_neighbors_brute_force(i, xs, ys, DISTANCE, CAP)
        d2 = sorted(d for d, _ in _squared_distances(i, xs, ys))
        bounds = [limit, limit * 4, float("inf"), float("nan")]
        if len(d2) >= CAP and d2[CAP - 1] < limit:
            kth = d2[CAP - 1]
            bounds += [kth, (kth + limit) / 2]
            bounded += 1
        for bound in bounds:
            found = lib.oc_AgentGrid_NeighborsWithin(grid, i, DISTANCE, CAP, bound, out)
            got = [(out[k].distanceSquared, out[k].index) for k in range(found)]
            assert got == expected, (name, i, bound)
    # the head start was really taken, not only the no-bound values
    assert bounded > 0


def test_a_bound_below_the_cap_th_neighbour_is_a_broken_contract_and_shows() -> None:
    """The bound is trusted: one a hair below the cap-th squared distance loses a neighbour,
    so the contract is what keeps the result exact (and a test of it can fail)."""
    ffi, lib = CffiRunner(c_variants()["c"])._load()
    xs = [0.0, 1.0, 0.0, -1.5, 0.0]
    ys = [0.0, 0.0, 1.25, 0.0, -1.75]
    grid = ffi.gc(lib.oc_AgentGrid_Create(), lib.oc_AgentGrid_Destroy)
    positions = ffi.new("ocVec2[]", list(zip(xs, ys)))
    assert lib.oc_AgentGrid_Build(grid, positions, len(xs), DISTANCE)
    out = ffi.new("ocNeighbor[]", len(xs))
    assert lib.oc_AgentGrid_NeighborsWithin(grid, 0, DISTANCE, 4, 1.75 * 1.75, out) == 4
    assert lib.oc_AgentGrid_NeighborsWithin(grid, 0, DISTANCE, 4, 1.75 * 1.75 - 1e-12, out) == 3


SEEDED = """int oc_AgentGrid_NeighborsSeeded(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors,
    double bound, const ocNeighbor* seed, int seedCount, const unsigned char* seeded, ocNeighbor* out);"""
"""Not in the cffi API (the simulator's own call): declared here for the test alone."""


def _seeded_library():
    runner = CffiRunner(c_variants()["c"])
    runner._load()
    ffi = cffi.FFI()
    ffi.cdef(CDEF + SEEDED)
    return ffi, ffi.dlopen(str(runner._artifact.path))


def _seed_sets(rng: random.Random, candidates: list[tuple[float, int]], expected: list[tuple[float, int]]):
    """Seed lists (squared distance, index) as the simulator may give them: none, the neighbours
    found (in their order, reversed, shuffled), fewer, more than the cap, and farther ones only."""
    shuffled = expected[:]
    rng.shuffle(shuffled)
    farther = [c for c in candidates if c not in expected]
    sets = [[], expected, expected[::-1], shuffled, expected[: len(expected) // 2], farther[:3]]
    sets.append(rng.sample(candidates, min(len(candidates), CAP + 3)))
    return sets


@pytest.mark.parametrize("name,xs,ys", [pytest.param(*scene, id=scene[0]) for scene in _scenes()])
def test_any_seeds_give_the_reference_neighbours(name: str, xs: list[float], ys: list[float]) -> None:
    ffi, lib = _seeded_library()
    rng = random.Random(name)
    n = len(xs)
    grid, out = _grid(ffi, lib, xs, ys)
    limit = DISTANCE * DISTANCE
    queries = 0
    for i in range(n):
        expected = agent_neighbors_brute_force(i, xs, ys, DISTANCE, CAP)
        candidates = [c for c in _squared_distances(i, xs, ys) if c[0] < limit]
        for seeds in _seed_sets(rng, candidates, expected):
            marks = bytearray(n)
            for _, j in seeds:
                marks[j] = 1
            seed = ffi.new("ocNeighbor[]", [{"distanceSquared": d2, "index": j} for d2, j in seeds] or 1)
            bounds = [limit] + ([sorted(seeds)[CAP - 1][0]] if len(seeds) >= CAP else [])
            for bound in bounds:
                found = lib.oc_AgentGrid_NeighborsSeeded(grid, i, DISTANCE, CAP, bound, seed, len(seeds),
                                                         ffi.from_buffer("unsigned char[]", marks), out)
                got = [(out[k].distanceSquared, out[k].index) for k in range(found)]
                assert got == expected, (name, i, seeds, bound)
                queries += bool(seeds)
    assert queries > n  # seeds were really given
