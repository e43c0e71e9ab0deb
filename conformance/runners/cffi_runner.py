"""The in-process C columns: runners/c built as a shared library and called through cffi.

Column ids: ``c`` (host compiler, -O2), ``c:O0``, ``c:O3-native`` (-O3 -march=native with
contraction off) and ``c:zig`` (the same sources built by Zig's clang).  Python crosses into
C once per batch of steps: ``oc_Run_Advance`` writes every state's canonical bytes into one
buffer, which is hashed here.  A non-finite state ends the hashes with a ``RunnerError`` naming
the step, agent and field ("non-finite state at step k: agent i velocity.x is nan"); ``dump``
reaches that state but no further.  The ``agent_step`` vectors go through the simulator's
per-agent API (a fresh ``oc_Simulator`` per case), the others through the primitives; each
family reaches its glue through its record's ``c_name`` (data/vector_family.py).
"""

from __future__ import annotations

import functools

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from . import fpenv
from ..data import vectors
from .build.layer import DETERMINISM_FLAGS, BuildFailed, BuildSpec, Toolchain, ToolchainMissing, build, system_cc, zig_available, zig_cc
from .build.sources import C_DIR, include_dirs, library_sources
from ..contract.scenario import Scene
from ..contract.state_hash import AGENT_BYTES, NonFiniteState, check_finite
from . import c_api
from .base import (CannotStart, NonFinite, OutOfMemory, Runner, RunnerError, RunnerInfo, RunnerUnavailable,
                   StateDump)

BATCH_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class CVariant:
    """One build of the C port: which compiler, which flags."""

    id: str
    toolchain: Toolchain
    flags: tuple[str, ...]
    source_dir: Path | None = None
    """A patched copy of runners/c (variants and controls); None for the production sources."""

    def spec(self) -> BuildSpec:
        name = self.id.replace(":", "-").replace("/", "-")
        tree = C_DIR if self.source_dir is None else self.source_dir
        return BuildSpec(name=name, toolchain=self.toolchain, sources=library_sources(tree), flags=self.flags,
                         output="shared", include_dirs=include_dirs(tree), link_flags=("-lm", "-pthread"))


def c_variants() -> dict[str, CVariant]:
    """The x64 builds that a port's users really produce."""
    cc = system_cc()
    return {
        "c": CVariant("c", cc, DETERMINISM_FLAGS + ("-O2",)),
        "c:O0": CVariant("c:O0", cc, DETERMINISM_FLAGS + ("-O0",)),
        "c:O3-native": CVariant("c:O3-native", cc, DETERMINISM_FLAGS + ("-O3", "-march=native")),
        "c:zig": CVariant("c:zig", zig_cc(), DETERMINISM_FLAGS + ("-O2",)),
    }


class CffiRunner(Runner):
    """A C build loaded in-process."""

    def __init__(self, variant: CVariant):
        self.id = variant.id
        self.variant = variant
        self._lib = None
        self._ffi = None
        self._artifact = None
        self._unavailable: str | None = None

    def _load(self):
        if self._lib is not None:
            return self._ffi, self._lib
        if self._unavailable is not None:
            raise RunnerUnavailable(self._unavailable)
        if self.variant.toolchain.name == "zig":
            reason = zig_available()
            if reason:
                self._unavailable = reason
                raise RunnerUnavailable(reason)
        try:
            self._artifact = build(self.variant.spec())
        except ToolchainMissing as err:
            self._unavailable = f"no C compiler: {err}"
            raise RunnerUnavailable(self._unavailable) from None
        except BuildFailed as err:
            raise CannotStart(f"build failed: {err}") from None
        self._ffi, self._lib = c_api.load(self._artifact.path)
        return self._ffi, self._lib

    def info(self) -> RunnerInfo:
        self._load()
        described = self._artifact.describe()
        return RunnerInfo(self.id, "orca-c (cffi)", compiler=described["compiler"], flags=described["flags"],
                          versions={"library_sha256": described["sha256"]})

    def _start(self, scene: Scene, threads: int = 1, per_agent: bool = False, interleaved: int = 0):
        ffi, lib = self._load()
        handle = c_api.new_scene(ffi, lib, scene)
        run = ffi.gc(lib.oc_Run_Create(handle), lib.oc_Run_Destroy)
        if run == ffi.NULL:
            raise OutOfMemory("oc_Run_Create failed (out of memory)")
        if (not lib.oc_Run_SetThreads(run, threads) or (per_agent and not lib.oc_Run_SetPerAgent(run, True))
                or (interleaved and not lib.oc_Run_SetInterleaved(run, interleaved))):
            raise OutOfMemory("oc_Run_SetThreads, oc_Run_SetPerAgent or oc_Run_SetInterleaved failed (out of memory)")
        return ffi, lib, handle, run

    def hashes(self, scene: Scene, steps: int | None = None, threads: int = 1, per_agent: bool = False,
               interleaved: int = 0) -> Iterator[str]:
        """Per-step hashes of states 0..``steps`` (default the scene's); ``threads`` workers for every pass of the step, the simulator's
        single-agent calls when ``per_agent`` (see oc_Run_StepPerAgent), or, when
        ``interleaved`` > 0, one thread that takes the chunks of every pass last first on that
        many workspaces in turn (oc_Run_StepInterleaved; on even steps the embedders' per-range
        calls, oc_Run_StepInterleavedOrPerRange): none may change the bits."""
        ffi, lib, handle, run = self._start(scene, threads, per_agent, interleaved)
        stride = len(scene.agents) * AGENT_BYTES
        state = ffi.new("unsigned char[]", max(1, stride))
        lib.oc_Run_CanonicalState(run, state)
        yield hashlib.sha256(ffi.buffer(state, stride)).hexdigest()
        batch = max(1, min(256, BATCH_BYTES // max(1, stride)))
        buffer = ffi.new("unsigned char[]", max(1, batch * stride))
        done, total = 0, scene.steps if steps is None else steps
        while done < total:
            count = min(batch, total - done)
            bad = lib.oc_Run_Advance(run, count, buffer)
            _check_fpenv()
            good = count if bad == 0 else bad - 1
            view = ffi.buffer(buffer, good * stride)
            for k in range(good):
                yield hashlib.sha256(view[k * stride:(k + 1) * stride]).hexdigest()
            if bad:
                # the states before it stand, as in the protocol
                raise non_finite_error(done + bad, self._rows(ffi, lib, run, len(scene.agents)))
            done += count
        del handle

    @staticmethod
    def _rows(ffi, lib, run, n: int) -> tuple[tuple[float, ...], ...]:
        """oc_Run_Dump of the run's current state: 6 values per agent."""
        out = ffi.new("double[]", max(1, 6 * n))
        lib.oc_Run_Dump(run, out)
        return tuple(tuple(out[6 * i + f] for f in range(6)) for i in range(n))

    def dump(self, scene: Scene, step: int) -> StateDump:
        """The state after ``step`` steps; the first non-finite state itself can be dumped (its
        NaNs are data for the diagnosis), a step beyond it is a RunnerError."""
        ffi, lib, handle, run = self._start(scene)
        bad = lib.oc_Run_Advance(run, step, ffi.NULL)
        rows = self._rows(ffi, lib, run, len(scene.agents))
        del handle
        if bad and bad < step:
            raise non_finite_error(bad, rows)
        return StateDump(step, rows)  # type: ignore[arg-type]

    def vectors(self, family: str, args: list[list]) -> list[list]:
        ffi, lib = self._load()
        fam = vectors.FAMILY_BY_NAME[family]
        call = _PRIMITIVES[family]
        if call is _agent_step:  # one simulator per state the cases share
            call = functools.partial(_agent_step, built={})
        results = []
        decoded: dict[int, object] = {}  # a list shared by the cases (one object) is decoded once
        for index, encoded in enumerate(args):
            values = [_decoded(decoded, c, v) for c, v in zip(fam.args, encoded)]
            try:
                out = call(ffi, lib, *values)
            except _BadCase as err:
                raise RunnerError(f"vectors {family}: case {index}, {err}") from None
            results.append([vectors.encode_value(c, v) for c, v in zip(fam.result, out)])
        _check_fpenv()
        return results


def _decoded(seen: dict[int, object], code: str, value):
    """``vectors.decode_value(code, value)``, once per list object of a request: the cases of one
    request (first_decision's agent_step of every agent) share their state lists, which would
    otherwise be decoded once per case.  The request keeps each list alive, so ids are stable."""
    if not isinstance(value, list):
        return vectors.decode_value(code, value)
    key = id(value)
    if key not in seen:
        seen[key] = vectors.decode_value(code, value)
    return seen[key]


def non_finite_error(step: int, rows) -> NonFinite:
    """The error of a run that met a NaN or an infinity at ``step``, naming the first agent and
    field that are not finite (rows: px, py, vx, vy, ... per agent) when there is one."""
    try:
        check_finite([v for row in rows for v in row[:4]])
    except NonFiniteState as err:
        return NonFinite(step, err.agent, err.field, repr(err.value))
    return NonFinite(step)


def _check_fpenv() -> None:
    """A call that left the process's floating-point environment changed (flush-to-zero, another
    rounding) invalidates its own results and would poison every later computation: restore it
    and fail the cell."""
    if not fpenv.is_default():
        fpenv.restore()
        raise RunnerError("the library changed the process's floating-point environment during a call "
                          "(flush-to-zero or a rounding mode); results computed under it are not trusted")


def _v(x: float, y: float):
    return {"x": x, "y": y}


def _planes(ffi, lines):
    planes = ffi.new("ocHalfPlane[]", max(1, len(lines)))
    for k, (px, py, nx, ny) in enumerate(lines):
        planes[k].point.x, planes[k].point.y, planes[k].normal.x, planes[k].normal.y = px, py, nx, ny
    return planes


def _support(ffi, lib, ax, ay, bx, by, r, tau, xx, xy, overlap):
    s = lib.oc_SupportDistance(_v(ax, ay), _v(bx, by), r, tau, _v(xx, xy), bool(overlap))
    return s.distance, s.normal.x, s.normal.y


def _case(ffi, lib, ax, ay, r, tau, xx, xy):
    c = lib.oc_AgentCaseForm(_v(ax, ay), r, tau, _v(xx, xy))
    return c.u.x, c.u.y, c.normal.x, c.normal.y


def _plane_tuple(p):
    return p.point.x, p.point.y, p.normal.x, p.normal.y


def _for_boundary(ffi, lib, ax, ay, bx, by, clearance, tau):
    plane = ffi.new("ocHalfPlane*")
    ok = lib.oc_ForBoundary(_v(ax, ay), _v(bx, by), clearance, tau, plane)
    return (list(_plane_tuple(plane)) if ok else [],)


def _solve(name):
    def call(ffi, lib, lines, radius, x, y):
        r = getattr(lib, name)(_planes(ffi, lines), len(lines), radius, _v(x, y))
        return r.velocity.x, r.velocity.y, r.failed
    return call


def _relax(ffi, lib, lines, hard, radius, failed):
    scratch = ffi.new("ocHalfPlane[]", max(1, 2 * len(lines) + 4))
    v = lib.oc_Relax(_planes(ffi, lines), len(lines), hard, radius, failed, scratch)
    return v.x, v.y


def _obstacle_neighbors(ffi, lib, x, y, reach, segments):
    segs = ffi.new("ocSegment[]", max(1, len(segments)))
    for k, (ax, ay, bx, by) in enumerate(segments):
        segs[k].a.x, segs[k].a.y, segs[k].b.x, segs[k].b.y = ax, ay, bx, by
    out = ffi.new("ocNeighbor[]", max(1, len(segments)))
    n = lib.oc_ObstacleNeighbors(_v(x, y), reach, segs, len(segments), out)
    return ([out[k].index for k in range(n)],)


def _agent_neighbors(ffi, lib, i, xs, ys, nd, max_n):
    pos = ffi.new("ocVec2[]", max(1, len(xs)))
    for k, (x, y) in enumerate(zip(xs, ys)):
        pos[k].x, pos[k].y = x, y
    out = ffi.new("ocNeighbor[]", max(1, len(xs)))
    n = lib.oc_AgentNeighbors(i, pos, len(xs), nd, max_n, out)
    return ([out[k].index for k in range(n)],)


def _preferred(ffi, lib, px, py, waypoints, k, goal_radius, max_speed, dt, seed, magnitude, step, agent, count):
    wps = ffi.new("ocVec2[]", max(1, len(waypoints)))
    for j, (x, y) in enumerate(waypoints):
        wps[j].x, wps[j].y = x, y
    index = ffi.new("int*", k)
    v = lib.oc_PreferredVelocity(_v(px, py), wps, len(waypoints), index, goal_radius, max_speed, dt, seed,
                                 magnitude, step, agent, count)
    return v.x, v.y, index[0]




class _BadCase(Exception):
    """A vector case whose arguments cannot be given to the C API (the C code would assert)."""


def _agent_step(ffi, lib, i, xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, max_ns, taus, tau_obsts,
                segments, dt, built: dict | None = None):
    """One agent's constraint list, hard count and new velocity through an oc_Simulator of the
    case's state.  ``built`` (one request's): the simulators already made, by the identity of the
    state lists, so that the cases of one state (first_decision asks every agent of a step in one
    request, sharing the lists) make it once; constraints and new velocity are queries that leave
    it as it was."""
    state = (xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, max_ns, taus, tau_obsts, segments)
    key = tuple(id(v) for v in state)
    sim = built.get(key, (None,))[0] if built is not None else None
    if sim is None:
        sim = _simulator(ffi, lib, *state)
        if built is not None:
            built[key] = (sim, state)  # the lists stay alive with it, so their ids stay theirs
    if not 0 <= i < len(xs):
        raise _BadCase("argument 0: agent index out of range")
    planes = ffi.new("ocHalfPlane[]", len(xs) + len(segments))
    hard = ffi.new("int*")
    count = lib.oc_Simulator_Constraints(sim, i, dt, planes, hard)
    v = lib.oc_Simulator_NewVelocity(sim, i, dt)
    return [_plane_tuple(planes[k]) for k in range(count)], hard[0], v.x, v.y


def _simulator(ffi, lib, xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, max_ns, taus, tau_obsts, segments):
    """A fresh oc_Simulator holding one agent_step case's state (agents, parameters, preferred
    velocities, segments)."""
    n = len(xs)
    if any(len(v) != n for v in (ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, max_ns, taus, tau_obsts)):
        raise _BadCase("the per-agent lists (arguments 1-12) differ in length")
    sim = ffi.gc(lib.oc_Simulator_Create(), lib.oc_Simulator_Destroy)
    if sim == ffi.NULL:
        raise OutOfMemory("oc_Simulator_Create failed (out of memory)")
    for ax, ay, bx, by in segments:
        if lib.oc_Simulator_AddSegment(sim, _v(ax, ay), _v(bx, by)) < 0:
            raise OutOfMemory("oc_Simulator_AddSegment failed (out of memory)")
    params = ffi.new("ocAgentParams*")
    for k in range(n):
        params.radius, params.maxSpeed, params.neighborDistance = radii[k], max_speeds[k], nds[k]
        params.maxNeighbors, params.timeHorizon, params.timeHorizonObst = max_ns[k], taus[k], tau_obsts[k]
        if lib.oc_Simulator_AddAgent(sim, _v(xs[k], ys[k]), params, _v(vxs[k], vys[k])) < 0:
            raise OutOfMemory("oc_Simulator_AddAgent failed (out of memory)")
        lib.oc_Simulator_SetPreferredVelocity(sim, k, _v(prefxs[k], prefys[k]))
    return sim


_GLUE = {
    "oc_SegmentDistanceSquared": lambda ffi, lib, ax, ay, bx, by: (
        lib.oc_SegmentDistanceSquared(_v(ax, ay), _v(bx, by)),),
    "oc_SupportDistance": _support,
    "oc_AgentCaseForm": _case,
    "oc_AgentConstraint": lambda ffi, lib, ax, ay, r, tau, dt, vax, vay, vbx, vby: _plane_tuple(
        lib.oc_AgentConstraint(_v(ax, ay), r, tau, dt, _v(vax, vay), _v(vbx, vby))),
    "oc_SegmentConstraint": lambda ffi, lib, ax, ay, bx, by, r, tau, dt: _plane_tuple(
        lib.oc_SegmentConstraint(_v(ax, ay), _v(bx, by), r, tau, dt)),
    "oc_ForBoundary": _for_boundary,
    "oc_SolveClosest": _solve("oc_SolveClosest"),
    "oc_SolveDirection": _solve("oc_SolveDirection"),
    "oc_Relax": _relax,
    "oc_ObstacleNeighbors": _obstacle_neighbors,
    "oc_AgentNeighbors": _agent_neighbors,
    "oc_SplitMix64": lambda ffi, lib, seed, n: (f"{lib.oc_SplitMix64(seed, n):016x}",),
    "oc_Uniform": lambda ffi, lib, seed, n: (lib.oc_Uniform(seed, n),),
    "oc_PreferredVelocity": _preferred,
    "oc_Simulator_Constraints": _agent_step,
}
"""The C port's entry point (a family record's ``c_name``) -> the glue that calls it."""
_PRIMITIVES = vectors.FAMILIES.view(lambda f: _GLUE[f.c_name], lambda f: f.c_name in _GLUE)
"""Family name -> its glue: a live view of the family records."""
