"""Primitive conformance vectors: inputs and the reference's outputs, as exact bits.

Contract: every family is one entry point of the solver or the driver (docs/protocol.md lists
the argument and result layouts).  ``generate(family)`` makes the family's cases (fixed-seed
random inputs plus hand-picked edges: ties, parallel lines, tolerance boundaries, overlap, the
hard-prefix fallback, ForBoundary's cut-offs; vector_random.py draws the inputs that need no
result of the reference, vector_edges.py and vector_boundaries.py the edges) and evaluates them
on the reference; the files ``goldens/vectors/<family>.json`` hold them; ``compare`` says which
cases a runner got wrong.  Doubles travel as 16 hex digits of their bit pattern, so no decimal
conversion is involved.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..contract import driver, schema_files
from . import vector_bands, vector_boundaries, vector_edges, vector_offaxis, vector_operators, vector_random
from ..errors import InputError, cannot_read, did_you_mean
from ..contract.float_bits import hexd, unhexd
from ..solver import constraint, fallback, linear_program, neighbors, obstacle
from .vector_random import TOUCHING, magnitude, point, program_lines, unit

VECTOR_FORMAT = "orca-vectors/1"


# Type codes of arguments and results: d double, i int, d4* list of 4-double rows,
# d2* list of pairs, d* list of doubles, i* list of ints, s a string passed as it is.
def encode_value(code: str, value):
    if code == "s":
        return value
    if code == "d":
        return hexd(value)
    if code == "i":
        return int(value)
    if code == "d*":
        return [hexd(v) for v in value]
    if code == "i*":
        return [int(v) for v in value]
    if code in ("d2*", "d4*"):
        return [[hexd(v) for v in row] for row in value]
    raise ValueError(code)


def decode_value(code: str, value):
    if code == "s":
        return value
    if code == "d":
        return unhexd(value)
    if code == "i":
        return int(value)
    if code == "d*":
        return [unhexd(v) for v in value]
    if code == "i*":
        return [int(v) for v in value]
    if code in ("d2*", "d4*"):
        return [tuple(unhexd(v) for v in row) for row in value]
    raise ValueError(code)


@dataclass(frozen=True)
class Family:
    """One primitive: argument and result type codes and the reference implementation."""

    name: str
    args: tuple[str, ...]
    result: tuple[str, ...]
    reference: Callable[..., tuple]


def _for_boundary(ax, ay, bx, by, clearance, tau):
    plane = constraint.for_boundary(ax, ay, bx, by, clearance, tau)
    return (list(plane) if plane is not None else [],)


def _preferred(px, py, waypoints, k, goal_radius, max_speed, dt, seed, magnitude, step, agent, count):
    """The driver's rule for one agent, through the reference Driver."""
    from ..contract.scenario import AgentSpec, Scene
    from ..solver import AgentParams, Simulator
    prm = AgentParams(0.5, max_speed, 1.0, 1, 1.0, 1.0)
    agents = [AgentSpec((0.0, 0.0), (0.0, 0.0), prm, goal_radius, ((0.0, 0.0),))] * count
    agents[agent] = AgentSpec((px, py), (0.0, 0.0), prm, goal_radius, tuple(waypoints))
    scene = Scene(dt, 1, seed, magnitude, tuple(agents), ())
    sim = Simulator()
    for a in agents:
        sim.add_agent(a.position, prm)
    drv = driver.Driver(scene)
    drv.waypoint[agent] = k
    vx, vy = drv.preferred_velocity(sim, agent, step)
    return vx, vy, drv.waypoint[agent]


def _agent_step(i, xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, neighbor_distances, max_neighbors,
                time_horizons, time_horizon_obsts, segments, dt):
    """One agent's work in a step, from a start-of-step state given as parallel per-agent lists:
    its constraint list (obstacles first, then agents), the hard count and its new velocity."""
    from ..solver import AgentParams, Simulator
    sim = Simulator(segments)
    for k in range(len(xs)):
        prm = AgentParams(radii[k], max_speeds[k], neighbor_distances[k], max_neighbors[k], time_horizons[k],
                          time_horizon_obsts[k])
        sim.add_agent((xs[k], ys[k]), prm, (vxs[k], vys[k]))
        sim.pref_x[k] = prefxs[k]
        sim.pref_y[k] = prefys[k]
    grid = sim.grid()
    lines, hard_count = sim.constraints(i, dt, grid)
    vx, vy = sim.new_velocity(i, dt, grid)
    return [tuple(line) for line in lines], hard_count, vx, vy


FAMILIES: tuple[Family, ...] = (
    Family("segment_distance_squared", ("d",) * 4, ("d",),
           lambda ax, ay, bx, by: (obstacle.segment_distance_squared(ax, ay, bx, by),)),
    Family("support_distance", ("d",) * 8 + ("i",), ("d", "d", "d"),
           lambda ax, ay, bx, by, r, tau, xx, xy, ov: obstacle.support_distance(
               ax, ay, bx, by, r, tau, xx, xy, bool(ov))),
    Family("agent_case_form", ("d",) * 6, ("d",) * 4, obstacle.agent_case_form),
    Family("agent_constraint", ("d",) * 9, ("d",) * 4, constraint.agent_constraint),
    Family("segment_constraint", ("d",) * 7, ("d",) * 4, constraint.segment_constraint),
    Family("for_boundary", ("d",) * 6, ("d*",), _for_boundary),
    Family("solve_closest", ("d4*", "d", "d", "d"), ("d", "d", "i"), linear_program.solve_closest),
    Family("solve_direction", ("d4*", "d", "d", "d"), ("d", "d", "i"), linear_program.solve_direction),
    Family("relax", ("d4*", "i", "d", "i"), ("d", "d"), fallback.relax),
    Family("obstacle_neighbors", ("d", "d", "d", "d4*"), ("i*",),
           lambda x, y, reach, segs: ([k for _, k in neighbors.obstacle_neighbors(x, y, reach, segs)],)),
    Family("agent_neighbors", ("i", "d*", "d*", "d", "i"), ("i*",),
           lambda i, xs, ys, nd, mn: ([j for _, j in neighbors.agent_neighbors_brute_force(i, xs, ys, nd, mn)],)),
    Family("splitmix64", ("i", "i"), ("s",), lambda seed, n: (f"{driver.splitmix64(seed, n):016x}",)),
    Family("uniform", ("i", "i"), ("d",), lambda seed, n: (driver.uniform(seed, n),)),
    Family("preferred_velocity", ("d", "d", "d2*", "i", "d", "d", "d", "i", "d", "i", "i", "i"),
           ("d", "d", "i"), _preferred),
    Family("agent_step", ("i",) + ("d*",) * 9 + ("i*", "d*", "d*", "d4*", "d"), ("d4*", "i", "d", "d"), _agent_step),
)
FAMILY_BY_NAME = {f.name: f for f in FAMILIES}


# ----------------------------------------------------------------------------- generation

def _cases_support(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for _ in range(600):
        s = magnitude(rng)
        r = rng.uniform(0.05, 2.0)
        tau = rng.choice([0.1, 0.5, 1.0, 2.0, 5.0, 10.0])
        a = point(rng, s)
        b = a if rng.random() < 0.3 else point(rng, s)
        x = point(rng, rng.choice([0.1, 1.0, 3.0]))
        d2 = obstacle.segment_distance_squared(*a, *b)
        overlap = d2 <= r * r
        dt = rng.choice([0.05, 0.1, 0.25])
        cases.append([*a, *b, r, dt if overlap else tau, *x, int(overlap)])
    # x exactly at a/dt (wa = 0 -> fallback direction), coincident agents, symmetric segment
    # segments touching within rounding: an end inside r although the distance is above r,
    # so rho2 - r*r < 0 and that end's legs are skipped (spec note 5)
    for ax, ay, bx, by, r in TOUCHING:
        cases.append([ax, ay, bx, by, r, 2.0, 0.1, -0.2, 0])
    cases += [[0.3, 0.4, 0.6, 0.8, 1.0, 0.5, 1.2, 1.6, 1],  # x = b/dt exactly: wb = 0
              [0.3, 0.4, 0.3, 0.4, 1.0, 0.5, 0.6, 0.8, 1], [0.0, 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.0, 1],
              [5.0, -1.0, 5.0, 1.0, 0.5, 1.0, 0.0, 0.0, 0], [-1.0, 0.0, 1.0, 0.0, 0.5, 0.1, 0.0, 0.0, 1],
              [2.0, 0.0, 2.0, 0.0, 1.0, 2.0, 1.0, 0.0, 0], [4.0, 0.0, 4.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0]]
    return cases


def _cases_programs(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for n in range(500):
        radius = rng.choice([0.0, 0.5, 1.0, 2.0]) if n % 10 == 0 else rng.uniform(0.3, 3.0)
        lines = program_lines(rng, rng.randint(0, 10), max(radius, 0.5))
        if name == "solve_closest":
            cases.append([lines, radius, *point(rng, 2.0 * max(radius, 0.5))])
        elif name == "solve_direction":
            cases.append([lines, radius, *unit(rng)])
        else:
            hard = rng.randint(0, min(3, len(lines)))
            # hard prefix that admits the zero velocity, like the text's obstacle constraints,
            # except now and then (deep wall overlap): then the failure may be inside it
            for k in range(hard):
                px, py, nx, ny = lines[k]
                if px * nx + py * ny > 0.0 and rng.random() < 0.8:
                    lines[k] = (-px, -py, nx, ny)
            pref = point(rng, 2.0)
            _, _, failed = linear_program.solve_closest(lines, radius, *pref)
            if failed < 0:
                continue
            cases.append([lines, hard, radius, failed])
    if name == "solve_closest":
        cases += [[[(0.0, 0.5, 0.0, 1.0), (0.0, -0.5, 0.0, -1.0)], 2.0, 0.0, 0.0],   # facing parallels
                  [[(0.0, 0.5, 0.0, 1.0), (0.0, 1.0, 0.0, 1.0)], 2.0, 0.0, 0.0],     # same direction
                  [[(0.0, 3.0, 0.0, 1.0)], 2.0, 0.0, 0.0],                           # misses the disc
                  [[(0.0, 2.0, 0.0, 1.0)], 2.0, 0.0, 0.0],                           # tangent: disc == 0
                  [[], 1.0, 3.0, 4.0], [[], 0.0, -3.0, 4.0], [[], 2.0, 0.5, 0.5]]
    return cases


_MAKERS = {
    **vector_random.MAKERS,
    "support_distance": _cases_support,
    "solve_closest": _cases_programs, "solve_direction": _cases_programs, "relax": _cases_programs,
}


def raw_cases(name: str, seed: int | None = None) -> list[list]:
    """Fixed-seed cases of one family (the stored vectors use the family's name as the seed;
    other seeds give fresh random cases of the same kinds, e.g. for mutation evidence)."""
    tag = f"orca-vectors/{name}" if seed is None else f"orca-vectors/{name}/{seed}"
    rng = random.Random(tag)
    cases = _MAKERS[name](name, rng)
    return (cases + vector_edges.cases(name, rng) + vector_boundaries.cases(name) + vector_bands.cases(name)
            + vector_operators.cases(name) + vector_offaxis.cases(name))


def generate(name: str, seed: int | None = None) -> list[dict]:
    """The family's cases with encoded args and the reference's encoded result."""
    family = FAMILY_BY_NAME[name]
    out = []
    for raw in raw_cases(name, seed):
        args = [encode_value(c, v) for c, v in zip(family.args, raw)]
        out.append({"args": args, "result": evaluate_reference(family, args)})
    return out


def evaluate_reference(family: Family, encoded_args: list) -> list:
    values = [decode_value(c, v) for c, v in zip(family.args, encoded_args)]
    result = family.reference(*values)
    return [encode_value(c, v) for c, v in zip(family.result, result)]


# ----------------------------------------------------------------------------- files

def vector_path(folder: Path, name: str) -> Path:
    return folder / f"{name}.json"


def to_document(name: str, cases: list[dict]) -> dict:
    family = FAMILY_BY_NAME[name]
    return {"format": VECTOR_FORMAT, "family": name, "args": list(family.args),
            "result": list(family.result), "cases": cases}


_READ: dict[tuple[str, int, int], tuple[str, list[dict]]] = {}
"""Vector files already read and validated, by (path, mtime, size): the schema check costs six
times the parse (0.18 s for the 15 files), and the matrix, controls and fuzz read them per
column, per control and per runner."""


def read_vectors(path: Path) -> tuple[str, list[dict]]:
    """(family name, cases) of one vector file, validated; read once per process while the file
    is unchanged, so the cases are shared: callers read them and never change them."""
    try:
        stat = path.stat()
    except OSError as err:
        raise cannot_read(path, err) from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _READ:
        _READ[key] = _read_vectors(path)
    return _READ[key]


def _read_vectors(path: Path) -> tuple[str, list[dict]]:
    file = str(path)
    data = schema_files.read_valid(path, "vectors")
    name = data["family"]
    if name not in FAMILY_BY_NAME:
        raise InputError(file, "family", f"unknown vector family {name!r}{did_you_mean(name, list(FAMILY_BY_NAME))}")
    family = FAMILY_BY_NAME[name]
    for key, codes in (("args", family.args), ("result", family.result)):
        if tuple(data[key]) != codes:
            raise InputError(file, key, f"type codes {data[key]} are not the family's {list(codes)}")
    return name, data["cases"]


def load_all(folder: Path) -> dict[str, list[dict]]:
    """Every family's cases, in registry order; a missing file is an error."""
    out = {}
    for family in FAMILIES:
        path = vector_path(folder, family.name)
        if not path.exists():
            raise InputError(str(path), "", "missing vector file (orca-conformance goldens regen)")
        name, cases = read_vectors(path)
        if name != family.name:
            raise InputError(str(path), "family", f"file holds {name!r}")
        out[name] = cases
    return out


def compare(cases: Sequence[dict], results: Sequence[list]) -> list[int]:
    """Indices of the cases whose result differs from the expected one (bit for bit)."""
    if len(results) != len(cases):
        return list(range(len(cases)))
    return [k for k, (case, got) in enumerate(zip(cases, results)) if case["result"] != got]


def replay_reference(folder: Path) -> tuple[int, int]:
    """Re-evaluate every stored case on the reference (used by coverage): (cases, mismatches)."""
    total = bad = 0
    for name, cases in load_all(folder).items():
        family = FAMILY_BY_NAME[name]
        total += len(cases)
        bad += sum(evaluate_reference(family, case["args"]) != case["result"] for case in cases)
    return total, bad


def regenerate_all(folder: Path, names: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """Write every family's file, or the named ones (atomically, only when it changed);
    (family, verdict) pairs."""
    from ..jsonfile import write_json_atomic
    report = []
    for family in FAMILIES:
        if names is not None and family.name not in names:
            continue
        path = vector_path(folder, family.name)
        document = to_document(family.name, generate(family.name))
        if path.exists():
            old = json.loads(path.read_text(encoding="utf-8"))
            if old == document:
                report.append((family.name, "unchanged"))
                continue
            first = next((k for k, (a, b) in enumerate(zip(old.get("cases", []), document["cases"])) if a != b),
                         min(len(old.get("cases", [])), len(document["cases"])))
            verdict = f"changed (first differing case {first})"
        else:
            verdict = "new"
        write_json_atomic(path, document)
        report.append((family.name, verdict))
    return report


def check_all(folder: Path) -> list[str]:
    """Problems of the stored vectors against the reference: missing files, changed inputs
    (the generator moved on), or results the reference no longer produces."""
    problems = []
    for family in FAMILIES:
        path = vector_path(folder, family.name)
        if not path.exists():
            problems.append(f"{family.name}: missing {path.name}")
            continue
        name, cases = read_vectors(path)
        fresh = generate(family.name)
        if [c["args"] for c in cases] != [c["args"] for c in fresh]:
            problems.append(f"{family.name}: stored inputs differ from the generator's (regenerate)")
            continue
        bad = compare(cases, [c["result"] for c in fresh])
        if bad:
            problems.append(f"{family.name}: the reference now differs on {len(bad)} cases, first case {bad[0]}")
    known = {vector_path(folder, f.name).name for f in FAMILIES}
    for path in sorted(folder.glob("*.json")):
        if path.name not in known:
            problems.append(f"{path.name}: orphan vector file (no such family)")
    return problems
