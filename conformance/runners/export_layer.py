"""The export layer of runners/wasm/exports.c, driven from Python in any in-process guest.

Contract: the freestanding build of the C port (the wasm module, the Unicorn ELF) exports the
same C functions (docs/wasm.md).  ``ExportLayerRunner`` runs scenes, dumps and primitive
vectors through them for any engine: a subclass gives ``_guest()``, a ready ``GuestMemory``
(an instance, a reset CPU) and its fuel settings; every call gets a budget proportional to its
work, so a runaway guest becomes a ``RunnerError``.  ``PRIMITIVES`` is the vector glue, one
function per family (a view of the family records: each record's ``wasm_name`` is its export,
``GLUE`` the code that calls it), in the guest's byte order.
"""

from __future__ import annotations

import hashlib
from typing import Iterator

from ..data import vectors
from ..contract.scenario import Scene
from ..contract.state_hash import AGENT_BYTES
from .base import OutOfMemory, Runner, RunnerError, StateDump
from .cffi_runner import non_finite_error
from .guest_memory import GuestMemory

ABI_VERSION = 1

FUEL_CALL = 1_000_000
"""Fuel of any call, on top of its work (setup, allocation, a grid rebuild)."""
FUEL_PER_AGENT_STEP = 100_000
"""Fuel per agent and step; the suite's scenes use 2,600-13,000 (docs/wasm.md)."""
FUEL_PER_PAIR = 100
"""Fuel per agent-agent and agent-segment pair and step: room for the brute-force scans."""
FUEL_PER_VECTOR_ITEM = 100_000
"""Fuel of one vector case: FUEL_CALL + this * (1 + list elements)^2."""
MAX_CALL_FUEL = 20_000_000_000
"""Batches of steps are cut so that no call gets more than this (a few seconds of work), so a
runaway module is stopped within seconds."""

BATCH_BYTES = 8 * 1024 * 1024
MAX_BATCH_STEPS = 256

OW_BAD_ARGUMENT = -2
OW_OUT_OF_MEMORY = -3


def _signed64(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


class ExportLayerRunner(Runner):
    """Scenes, dumps and vectors through the export layer; subclasses provide the guest."""

    fuel_call = FUEL_CALL
    fuel_per_agent_step = FUEL_PER_AGENT_STEP
    fuel_per_pair = FUEL_PER_PAIR

    def _guest(self) -> GuestMemory:
        """A guest holding the loaded program in its pristine state."""
        raise NotImplementedError

    # ------------------------------------------------------------------ scenes

    def step_fuel(self, scene: Scene) -> int:
        """Fuel of one step: linear in agents, plus the pair term for the brute-force scans."""
        n = len(scene.agents)
        return n * (self.fuel_per_agent_step + self.fuel_per_pair * (n + len(scene.segments)) + 64)

    def batch_steps(self, scene: Scene, stride: int) -> int:
        """Steps per call: at most 256, 8 MiB of states and MAX_CALL_FUEL."""
        by_fuel = MAX_CALL_FUEL // max(1, self.step_fuel(scene))
        return max(1, min(MAX_BATCH_STEPS, BATCH_BYTES // max(1, stride), by_fuel))

    def _advance(self, inst: GuestMemory, scene: Scene, run: int, done: int, count: int, out: int) -> int:
        what = f"steps {done + 1}..{done + count} of {len(scene.agents)} agents"
        return inst.call("orca_run_advance", self.fuel_call + count * self.step_fuel(scene), run, count, out,
                         what=what)

    def _start(self, scene: Scene) -> tuple[GuestMemory, int]:
        inst = self._guest()
        n = len(scene.agents)
        setup = self.fuel_call + 10_000 * (n + len(scene.segments))
        handle = inst.call("orca_scene_create", setup, scene.dt, scene.steps, _signed64(scene.seed), scene.magnitude)
        if handle == 0:
            raise OutOfMemory("out of memory creating the scene")
        for ax, ay, bx, by in scene.segments:
            if inst.call("orca_scene_add_segment", setup, handle, ax, ay, bx, by) < 0:
                raise OutOfMemory("out of memory adding a segment")
        if n:
            # one call for every agent (calls from Python into wasmtime cost ~0.1 ms each)
            records = [v for a in scene.agents for v in (
                a.position[0], a.position[1], a.velocity[0], a.velocity[1], a.params.radius, a.params.max_speed,
                a.params.neighbor_distance, a.params.time_horizon, a.params.time_horizon_obst, a.goal_radius)]
            counts = [v for a in scene.agents for v in (a.params.max_neighbors, len(a.waypoints))]
            flat = [c for a in scene.agents for w in a.waypoints for c in w]
            records_at = inst.put_doubles(records)
            waypoints_at = inst.put_doubles(flat)
            counts_at = inst.alloc(4 * len(counts))
            inst.put_ints(counts_at, counts)
            added = inst.call("orca_scene_add_agents", setup + 1_000 * len(flat), handle, records_at, counts_at, n,
                              waypoints_at)
            if added != n:
                raise OutOfMemory(f"out of memory adding agent {-1 - added}")
            for pointer in (records_at, waypoints_at, counts_at):
                inst.call("orca_free", self.fuel_call, pointer)
        run = inst.call("orca_run_create", setup, handle)
        if run == 0:
            raise OutOfMemory("out of memory creating the run")
        return inst, run

    def hashes(self, scene: Scene, steps: int | None = None) -> Iterator[str]:
        """States 0..``steps`` (default the scene's): the scene is created whole, and advanced only so far."""
        inst, run = self._start(scene)
        stride = len(scene.agents) * AGENT_BYTES
        state = inst.alloc(max(1, stride))
        inst.call("orca_run_canonical_state", self.fuel_call + 64 * stride, run, state)
        first = inst.read(state, stride)
        if not _finite(first):
            raise non_finite_error(0, self._rows(inst, scene, run))
        yield hashlib.sha256(first).hexdigest()
        batch = self.batch_steps(scene, stride)
        buffer = inst.alloc(max(1, batch * stride))
        done, total = 0, scene.steps if steps is None else steps
        while done < total:
            count = min(batch, total - done)
            bad = self._advance(inst, scene, run, done, count, buffer)
            good = count if bad == 0 else bad - 1
            view = inst.view(buffer, good * stride)  # hashed before the next call into the module
            for k in range(good):
                yield hashlib.sha256(view[k * stride:(k + 1) * stride]).hexdigest()
            if bad:
                # the states before it stand, as in the protocol
                raise non_finite_error(done + bad, self._rows(inst, scene, run))
            done += count

    def _rows(self, inst: GuestMemory, scene: Scene, run: int) -> tuple[tuple[float, ...], ...]:
        """orca_run_dump of the run's current state: 6 values per agent."""
        n = len(scene.agents)
        out = inst.alloc(max(1, 48 * n))
        inst.call("orca_run_dump", self.fuel_call + self.step_fuel(scene), run, out)
        values = inst.doubles(out, 6 * n)
        return tuple(tuple(values[6 * i:6 * i + 6]) for i in range(n))

    def dump(self, scene: Scene, step: int) -> StateDump:
        """The state after ``step`` steps; the first non-finite state itself can be dumped (its
        NaNs are data for the diagnosis), a step beyond it is a RunnerError."""
        inst, run = self._start(scene)
        batch = self.batch_steps(scene, 0)
        done = 0
        while done < step:
            count = min(batch, step - done)
            bad = self._advance(inst, scene, run, done, count, 0)
            if bad and done + bad < step:
                raise non_finite_error(done + bad, self._rows(inst, scene, run))
            done += bad or count
        return StateDump(step, self._rows(inst, scene, run))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ vectors

    def vectors(self, family: str, args: list[list]) -> list[list]:
        fam = vectors.FAMILY_BY_NAME[family]
        call = PRIMITIVES[family]
        inst = self._guest()
        results = []
        for index, encoded in enumerate(args):
            values = [vectors.decode_value(c, v) for c, v in zip(fam.args, encoded)]
            items = sum(len(v) for v in values if isinstance(v, list))
            fuel = self.fuel_call + FUEL_PER_VECTOR_ITEM * (1 + items) * (1 + items)
            try:
                out = call(inst, fuel, *values)
            except _BadCase as err:
                raise RunnerError(f"vectors {family}: case {index}, {err}") from None
            results.append([vectors.encode_value(c, v) for c, v in zip(fam.result, out)])
        return results


def _finite(state: bytes) -> bool:
    """Every double of canonical bytes finite (exponent bits not all ones)."""
    for k in range(0, len(state), 8):
        if (state[k + 7] & 0x7F) == 0x7F and (state[k + 6] & 0xF0) == 0xF0:
            return False
    return True


class _BadCase(Exception):
    """A vector case whose arguments the export layer refused."""


def _check(code: int, what: str) -> int:
    if code == OW_BAD_ARGUMENT:
        raise _BadCase(what)
    if code == OW_OUT_OF_MEMORY:
        raise OutOfMemory("out of memory in the module")
    return code


def _rows(inst: GuestMemory, rows, extra: int = 0) -> int:
    return inst.scratch((v for row in rows for v in row), extra)


def _support(inst, fuel, ax, ay, bx, by, r, tau, xx, xy, overlap):
    inst.call("orca_support_distance", fuel, ax, ay, bx, by, r, tau, xx, xy, int(overlap))
    return inst.results(3)


def _for_boundary(inst, fuel, ax, ay, bx, by, clearance, tau):
    found = inst.call("orca_for_boundary", fuel, ax, ay, bx, by, clearance, tau)
    return (list(inst.results(4)) if found else [],)


def _solve(name):
    def call(inst, fuel, lines, radius, x, y):
        failed = inst.call(name, fuel, _rows(inst, lines), len(lines), radius, x, y)
        return (*inst.results(2), failed)
    return call


def _relax(inst, fuel, lines, hard, radius, failed):
    if not 0 <= hard <= len(lines):
        raise _BadCase("argument 1: hardCount must be in 0 .. len(lines)")
    _check(inst.call("orca_relax", fuel, _rows(inst, lines), len(lines), hard, radius, failed),
           "argument 1: hardCount must be in 0 .. len(lines)")
    return inst.results(2)


def _obstacle_neighbors(inst, fuel, x, y, reach, segments):
    segs = _rows(inst, segments, 4 * len(segments))
    out = segs + 32 * len(segments)
    n = _check(inst.call("orca_obstacle_neighbors", fuel, x, y, reach, segs, len(segments), out), "bad segments")
    return (inst.ints(out, n),)


def _agent_neighbors(inst, fuel, i, xs, ys, nd, max_n):
    if len(xs) != len(ys):
        raise _BadCase("argument 2: xs and ys differ in length")
    if not 0 <= i < len(xs):
        raise _BadCase("argument 0: agent index out of range")
    pos = inst.scratch((c for xy in zip(xs, ys) for c in xy), 4 * len(xs))
    out = pos + 16 * len(xs)
    n = _check(inst.call("orca_agent_neighbors", fuel, i, pos, len(xs), nd, max_n, out),
               "argument 0: agent index out of range")
    return (inst.ints(out, n),)


def _preferred(inst, fuel, px, py, waypoints, k, goal_radius, max_speed, dt, seed, magnitude, step, agent, count):
    if not waypoints:
        raise _BadCase("argument 2: at least one waypoint is needed")
    if not 0 <= k < len(waypoints):
        raise _BadCase("argument 3: waypoint index out of range")
    new_k = _check(inst.call("orca_preferred_velocity", fuel, px, py, _rows(inst, waypoints), len(waypoints), k,
                             goal_radius, max_speed, dt, _signed64(seed), magnitude, step, agent, count),
                   "argument 3: waypoint index out of range")
    return (*inst.results(2), new_k)


def _scalar(name, results):
    def call(inst, fuel, *args):
        inst.call(name, fuel, *args)
        return inst.results(results)
    return call


def _splitmix(inst, fuel, seed, n):
    z = inst.call("orca_splitmix64", fuel, _signed64(seed), _signed64(n))
    return (f"{z & ((1 << 64) - 1):016x}",)


def _uniform(inst, fuel, seed, n):
    inst.call("orca_uniform", fuel, _signed64(seed), _signed64(n))
    return inst.results(1)


def _agent_step(inst, fuel, i, xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, max_ns, taus, tau_obsts,
                segments, dt):
    """One agent's constraint list, hard count and new velocity through orca_agent_step."""
    n = len(xs)
    per_agent = (xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, taus, tau_obsts)
    if len(max_ns) != n or any(len(v) != n for v in per_agent):
        raise _BadCase("the per-agent lists (arguments 1-12) differ in length")
    if not 0 <= i < n:
        raise _BadCase("argument 0: agent index out of range")
    records = [v for k in range(n) for v in (xs[k], ys[k], vxs[k], vys[k], prefxs[k], prefys[k], radii[k],
                                             max_speeds[k], nds[k], taus[k], tau_obsts[k])]
    records_at = inst.scratch(records + [c for s in segments for c in s], 32 * (n + len(segments)) + 4 * n + 4)
    segments_at = records_at + 88 * n
    lines_at = segments_at + 32 * len(segments)
    ints_at = lines_at + 32 * (n + len(segments))
    inst.put_ints(ints_at, max_ns)
    hard_at = ints_at + 4 * n
    count = _check(inst.call("orca_agent_step", fuel, i, records_at, ints_at, n, segments_at, len(segments), dt,
                             lines_at, hard_at), "argument 0: agent index out of range")
    flat = inst.doubles(lines_at, 4 * count)
    lines = [tuple(flat[4 * k:4 * k + 4]) for k in range(count)]
    return (lines, inst.ints(hard_at, 1)[0], *inst.results(2))


GLUE = {
    "orca_support_distance": _support,
    "orca_for_boundary": _for_boundary,
    "orca_solve_closest": _solve("orca_solve_closest"),
    "orca_solve_direction": _solve("orca_solve_direction"),
    "orca_relax": _relax,
    "orca_obstacle_neighbors": _obstacle_neighbors,
    "orca_agent_neighbors": _agent_neighbors,
    "orca_splitmix64": _splitmix,
    "orca_uniform": _uniform,
    "orca_preferred_velocity": _preferred,
    "orca_agent_step": _agent_step,
}
"""Export -> the glue that calls it (lists into guest memory, integers as the ABI passes them).
An export of doubles only, giving doubles only, needs none: ``_scalar`` calls it."""


def glue(family: vectors.Family):
    """The glue of a family's export (its record's ``wasm_name``); None when the layer has none."""
    call = GLUE.get(family.wasm_name)
    if call is None and family.wasm_name and set(family.args) == {"d"} and set(family.result) == {"d"}:
        return _scalar(family.wasm_name, len(family.result))
    return call


PRIMITIVES = vectors.FAMILIES.view(glue, lambda f: glue(f) is not None)
"""Family name -> its glue: a live view of the family records."""
