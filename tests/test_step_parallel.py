"""oc_Simulator_StepParallel's contract, through the C library: whatever runs its chunks, in
whatever order and on whichever workers, the step gives the bits of oc_Simulator_Step.

The "runner" here is Python: it takes the chunks the solver asks for in reverse order, and
alternates the worker id, so that a pass that depended on chunk order, or a task that wrote
outside its own indices, would show.
"""

from __future__ import annotations

import struct

import pytest

from conformance.contract.scenario import load_scenario
from conformance.runners.cffi_runner import CffiRunner, c_variants
from conformance.solver.vector import sub
from conftest import ROOT

WORKERS = 2


def _simulator(ffi, lib, scene):
    """An ocSimulator* (garbage-collected) with the scene's agents and segments, and the preferred
    velocity of each: its first waypoint minus its position (a fixed push, enough to crowd)."""
    sim = ffi.gc(lib.oc_Simulator_Create(), lib.oc_Simulator_Destroy)
    params = ffi.new("ocAgentParams*")
    for ax, ay, bx, by in scene.segments:
        lib.oc_Simulator_AddSegment(sim, (ax, ay), (bx, by))
    for i, agent in enumerate(scene.agents):
        p = agent.params
        params.radius, params.maxSpeed, params.neighborDistance = p.radius, p.max_speed, p.neighbor_distance
        params.maxNeighbors, params.timeHorizon, params.timeHorizonObst = (
            p.max_neighbors, p.time_horizon, p.time_horizon_obst)
        assert lib.oc_Simulator_AddAgent(sim, agent.position, params, agent.velocity) == i
        lib.oc_Simulator_SetPreferredVelocity(sim, i, sub(agent.waypoints[0], agent.position))
    assert lib.oc_Simulator_SetWorkerCount(sim, WORKERS)
    return sim


def _state(ffi, lib, sim, n: int) -> bytes:
    positions, velocities = ffi.new("ocVec2[]", n), ffi.new("ocVec2[]", n)
    lib.oc_Simulator_GetPositions(sim, positions)
    lib.oc_Simulator_GetVelocities(sim, velocities)
    return b"".join(struct.pack("<4d", p.x, p.y, v.x, v.y) for p, v in zip(positions, velocities))


@pytest.mark.parametrize("name", ["crossing-blocks", "wall-gap"])
def test_chunks_in_any_order_on_any_worker_give_the_bits_of_step(name: str) -> None:
    ffi, lib = CffiRunner(c_variants()["c"])._load()
    scene = load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml").scene
    n = len(scene.agents)
    serial, parallel = _simulator(ffi, lib, scene), _simulator(ffi, lib, scene)
    chunks_seen: list[tuple[int, int]] = []

    @ffi.callback("ocParallelFor")
    def reverse_order(runner, count, chunk, task, context):
        starts = list(range(0, count, chunk))
        chunks_seen.append((count, len(starts)))
        for k, first in enumerate(reversed(starts)):
            task(context, k % WORKERS, first, min(chunk, count - first))

    for _ in range(60):
        lib.oc_Simulator_Step(serial, scene.dt)
        lib.oc_Simulator_StepParallel(parallel, scene.dt, reverse_order, ffi.NULL)
        assert _state(ffi, lib, parallel, n) == _state(ffi, lib, serial, n)
    # every pass went through the runner, and phase 1 (chunks of 32) came in several chunks
    assert len(chunks_seen) == 60 * 4
    assert max(pieces for _, pieces in chunks_seen) >= n // 32
