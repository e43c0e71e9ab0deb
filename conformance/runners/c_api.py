"""The C port's public API as cffi declarations (ABI mode), and helpers to call it.

Contract: ``load(path)`` dlopens one built shared library of runners/c and returns
``(ffi, lib)``; ``new_scene(ffi, lib, scene)`` hands a Scene over as exact doubles (no decimal
parsing in C).  The declarations are read from the headers (``header_declarations``), never
written by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import cffi

from . import fpenv
from .build.sources import C_DIR, HARNESS, SOLVER, SOLVER_FILES

HEADERS = tuple(f"{SOLVER}/{f}" for f in SOLVER_FILES if f.endswith(".h") and f != "orca.h") + (
    f"{HARNESS}/scene.h", f"{HARNESS}/driver.h", f"{HARNESS}/state_hash.h")
"""The headers whose declarations cffi needs, in an order that defines every type before its use."""

_TYPEDEF = re.compile(r"^typedef (?:struct \w+\s*(?:\{[^}]*\}\s*)?\w+|\w+ \(\*\w+\)\([^;]*\));", re.M)
_EXPORTED = re.compile(r"^OC_API ([^;{]*;)", re.M)


def header_declarations(tree: Path = C_DIR) -> str:
    """The cffi declarations of the library, read from its headers: every ``typedef struct``, every
    function-pointer typedef and every ``OC_API`` function (comments dropped), so that they cannot drift from the C."""
    out = []
    for name in HEADERS:
        text = re.sub(r"//[^\n]*", "", (tree / name).read_text(encoding="utf-8"))
        found = sorted([(m.start(), m.group(0)) for m in _TYPEDEF.finditer(text)]
                       + [(m.start(), m.group(1)) for m in _EXPORTED.finditer(text)])
        out += [f"// {name}"] + [" ".join(decl.split()) for _, decl in found]
    return "\n".join(out) + "\n"


CDEF = header_declarations()
"""The declarations of the production headers (a patched tree declares the same API)."""


def load(path: Path):
    """(ffi, lib) of one shared library; each variant is its own file, so nothing clashes.
    Loading may change the process's floating-point environment (a -ffast-math build turns on
    flush-to-zero): it is put back at once (conformance/runners/fpenv.py)."""
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    lib = ffi.dlopen(str(path))
    if not fpenv.restore():
        raise RuntimeError(f"loading {path.name} changed the floating-point environment for good")
    return ffi, lib


def new_scene(ffi, lib, scene):
    """An ocScene* (garbage-collected) holding the scene's exact doubles."""
    handle = ffi.gc(lib.oc_Scene_Create(scene.dt, scene.steps, scene.seed, scene.magnitude), lib.oc_Scene_Destroy)
    if handle == ffi.NULL:
        raise MemoryError("oc_Scene_Create")
    for ax, ay, bx, by in scene.segments:
        lib.oc_Scene_AddSegment(handle, ax, ay, bx, by)
    params = ffi.new("ocAgentParams*")
    for agent in scene.agents:
        p = agent.params
        params.radius = p.radius
        params.maxSpeed = p.max_speed
        params.neighborDistance = p.neighbor_distance
        params.maxNeighbors = p.max_neighbors
        params.timeHorizon = p.time_horizon
        params.timeHorizonObst = p.time_horizon_obst
        flat = [c for w in agent.waypoints for c in w]
        waypoints = ffi.new("double[]", flat)
        index = lib.oc_Scene_AddAgent(handle, agent.position[0], agent.position[1], agent.velocity[0],
                                      agent.velocity[1], params, agent.goal_radius, waypoints, len(agent.waypoints))
        if index < 0:
            raise MemoryError("oc_Scene_AddAgent")
    return handle
