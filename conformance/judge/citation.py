"""Citations: the clause of the text that a red cell's cause breaks.

Contract: each ``cite_*`` returns a ``Citation`` (contract/clauses.py): the clause id it names
first, others that may apply, and ``found`` (False when the suite could only name the clauses
of the nearest primitive).  The evidence, in the order it is trusted:

1. a reading that reproduces the port's result (a misreading of READINGS for the constraint
   list, an alternative driver rule for the preferred velocity) names its own clause;
2. the port's own primitives, asked with the inputs of the divergent step, localise the
   difference to the neighbour search, the program's start, the closest program or the
   fallback;
3. the reference's evaluation of that one primitive is traced through the shadow
   (data/shadow.py): a decision whose two sides came within ``NEAR_BAND`` ulps of its boundary is
   where a plausible misreading changes the branch, and its site's clause (data/site_clauses.py)
   is cited;
4. otherwise the branch the reference took, and the field that differs, name the rule that
   computed the differing value (the cutoff, a leg, the overlap capsule, the projection).
"""

from __future__ import annotations

import sys
from typing import Callable

from ..contract.clauses import Citation
from ..contract.float_bits import bits
from ..data.shadow import NEAR_BAND, REWRITTEN, SHADOW, TOLERANCE_NAMES, TRACE_LOCK, site_bands, traced, traced_module
from ..data.site_clauses import SITE_CLAUSES
from ..runners.base import Runner, StateDump
from .constraint_difference import Side
from .step_comparison import _reach, _simulator, ask_family
from ..contract.scenario import Scene

_MODULES: dict[str, object] = {}


def _modules() -> dict[str, object]:
    """The traced shadow's modules by name (loaded once; a later census run may replace
    sys.modules' entries, the ones kept here stay bound to the trace)."""
    if not _MODULES:
        for name in ("solver.constraint", "solver.neighbors", "solver.linear_program", "solver.fallback", "solver"):
            _MODULES[name] = traced_module(name)
    return _MODULES


HARMLESS_TIES = frozenset({
    "solver.obstacle.support_distance: vb < va",
    "solver.obstacle.support_distance: vb < va #2",
    "solver.linear_program.line_interval: t > lower",
    "solver.linear_program.line_interval: t < upper",
    "solver.linear_program.solve_closest: t < lower",
    "solver.linear_program.solve_closest: t > upper",
    "solver.linear_program.solve_direction: t < lower",
    "solver.linear_program.solve_direction: t > upper",
})
"""Selections whose two branches give the same value when the sides are equal (a min, a bound
update, a clamp): being on their boundary cannot change a bit, so they are never cited."""


FLIP_PASSES = 4
"""How many single evaluations of a repeated decision ``flip_reproduces`` tries one by one."""


def near_sites(call: Callable[[], object], within: tuple[str, ...] = (),
               without: frozenset[str] = frozenset()) -> tuple[list[str], dict]:
    """Run ``call`` on the traced shadow; the decisions it took near their boundary, in the
    order it first took them (an earlier flip changes everything after it), restricted to site
    ids starting with one of ``within`` and not in ``without``, leaving out exact (in)equality
    tests, which sit on their boundary by construction (a point obstacle's a == b;
    ``flip_reproduces`` still tries them); and every site's last outcome.  Near: doubles within
    NEAR_BAND ulps, integers equal, a sort that met equal keys, a tolerance test that the
    tolerance decided."""
    with TRACE_LOCK:
        trace = _run(call)
        found = [site for site in _near(trace) if " == " not in site and " != " not in site and site not in without
                 and (not within or site.startswith(within))]
        return found, dict(trace.outcome)


def _run(call: Callable[[], object]):
    """The trace of one call on the shadow (a call that raises leaves what it decided so far)."""
    _, trace = traced()
    trace.reset()
    try:
        call()
    except (ArithmeticError, ValueError, IndexError):
        pass
    return trace


def _near(trace) -> list[str]:
    """The sites of a trace near their boundary, in first-seen order, without the harmless ties."""
    return [site for site, gap in trace.closest.items() if site not in HARMLESS_TIES
            and (gap == 0 if site in trace.integer else gap <= NEAR_BAND)]


def flip_reproduces(call: Callable[[], object], reproduces: Callable[[object], bool],
                    without: frozenset[str] = frozenset(), near_only: bool = False) -> tuple[str, str | int] | None:
    """The first decision of ``call`` (in the order it was taken) that, answered the other way,
    makes the reference's result the port's: every site's alternative reading as a candidate,
    first as a port's rewrite (mode "roots" / "squares": decided on its sides' roots or squares,
    where a side is a square or a root), then near its boundary, then every time, then at one of its first FLIP_PASSES
    evaluations alone (a loop's pass more or less).  None when none does."""
    with TRACE_LOCK:  # one Trace per process: the matrix cites from a thread per column
        trace = _run(call)
        near = [site for site in _near(trace) if site not in without]
        every = [site for site in trace.outcome if site not in HARMLESS_TIES and site not in without]
        counts = dict(trace.seen)
        met = {site for site, gap in trace.closest.items() if gap == 0}  # both sides equal, or a sort's equal keys
        candidates = [(site, kind) for site in near for kind in REWRITTEN if kind in site_bands(site)]
        candidates += [(site, "near") for site in near] + ([] if near_only else [(site, "always") for site in every] + [
            (site, n) for site in every for n in range(1, min(counts[site], FLIP_PASSES) + 1) if counts[site] > 1])
        for site, mode in candidates:
            trace.reset()
            trace.flip = (site, mode)
            try:
                result = call()
            except (ArithmeticError, ValueError, IndexError):
                continue
            finally:
                trace.flip = None
            if reproduces(result):
                return site, ("equal" if mode == "near" and site in met else mode)
        return None


def same_bits(a, b) -> bool:
    """Two results (numbers, or nested tuples and lists of them) with the same bits."""
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same_bits(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        try:
            return bits(float(a)) == bits(float(b))
        except (TypeError, ValueError):
            return False
    return a == b


OTHER_STRICTNESS = {"<=": "<", "<": "<=", ">=": ">", ">": ">="}


def _reading(text: str, mode: str | int) -> str:
    """The other reading of one decision, in words: the other strictness where both sides were
    equal, a tie broken otherwise, a rounding band, an inverted test or a pass more or less."""
    if mode == "equal" and text.endswith(" ties"):
        return f"equal keys of `{text[:-5]}` ordered the other way (a tie broken otherwise)"
    if mode in REWRITTEN:  # "roots compared instead of squares at `d2 <= reach2`"
        return f"{mode} compared instead of {'squares' if mode == 'roots' else 'roots'} at `{text}`"
    if mode == "equal" and any(name in text for name in TOLERANCE_NAMES):
        return f"answering `{text}` the other way where its tolerance decides it (another tolerance, or none)"
    operator = next((op for op in (" <= ", " >= ", " < ", " > ") if op in text), "")
    if mode == "equal" and operator:
        other = text.replace(operator, f" {OTHER_STRICTNESS[operator.strip()]} ", 1)
        return f"`{text}` read as `{other}` (the other strictness, where both sides are equal)"
    how = {"near": "near its boundary (its sides rounded otherwise: a root for a square, another grouping, "
                   "a narrower type or a tolerance)",
           "equal": "where both sides are equal",
           "always": "every time (the test inverted)"}.get(mode, f"at its evaluation {mode} alone (a loop's pass "
                                                                 "more or less)")
    return f"answering `{text}` the other way {how}"


def from_flip(flip: tuple[str, str | int] | None) -> Citation | None:
    """The citation of a decision whose other reading reproduces the port, with that reading."""
    if flip is None:
        return None
    site, mode = flip
    clauses = SITE_CLAUSES[site]
    text = site.split(": ", 1)[1].split(" #", 1)[0]
    return Citation(clauses[0], list(clauses[1:]), reading=f"{_reading(text, mode)} reproduces the port's result")


def _from_sites(found: list[str], others: list[str]) -> Citation | None:
    if not found:
        return None
    primary = SITE_CLAUSES[found[0]][0]
    rest = [SITE_CLAUSES[s][0] for s in found[1:3]] + others
    return Citation(primary, [c for c in dict.fromkeys(rest) if c != primary])


# ----------------------------------------------------------------------------- the constraint list

INSIDE_CONSTRAINTS = frozenset(site for site in SITE_CLAUSES if site.startswith(("solver.obstacle.",
                                                                                  "solver.constraint.")))
"""The decisions inside the constraint primitives (agent_constraint, segment_constraint)."""


def flip_list(scene: Scene, state: StateDump, agent: int, port_lines: tuple, port_hard: int,
              primitives_right: bool = False) -> Citation | None:
    """A decision of the constraint assembly that, read the other way at its boundary only,
    gives the port's whole list (hard count included): preferred to a stock reading, which
    changes a formula everywhere and can match a boundary scene by chance.  With
    ``primitives_right`` (the port's own constraint primitive gave the reference's plane), the
    decisions inside the primitives are not candidates."""
    sim = _simulator(scene, state, _modules()["solver"].Simulator)
    want = [tuple(bits(v) for v in line) for line in port_lines]

    def assembly():
        lines, hard = sim.constraints(agent, scene.dt, sim.grid())
        return [tuple(bits(v) for v in line) for line in lines], hard
    return from_flip(flip_reproduces(assembly, lambda r: r == (want, port_hard),
                                     INSIDE_CONSTRAINTS if primitives_right else frozenset(), near_only=True))


def cite_constraint(scene: Scene, state: StateDump, difference, reference_lines: tuple, port_lines: tuple,
                    reference_hard: int, runner: Runner | None = None) -> Citation:
    """The clause behind a differing constraint list (``difference`` a ConstraintDifference);
    ``runner``, when given, is asked for its own primitives."""
    if difference.reading:
        return Citation(difference.reading_clause)
    if runner is not None:
        distance = cite_segment_distance(runner, scene, state, difference)
        if distance is not None:
            return distance
    obstacle_part = difference.index is not None and difference.index < reference_hard
    selection = "neighbors.obstacles" if obstacle_part else "neighbors.agents"
    if difference.neighbors:
        return _cite_neighbors(difference)
    want = sorted(tuple(bits(v) for v in line) for line in reference_lines)
    have = sorted(tuple(bits(v) for v in line) for line in port_lines)
    if difference.field in ("missing", "extra") or want == have:
        return _cite_selection(scene, state, difference.agent, obstacle_part) or Citation(selection)
    return _cite_plane(scene, state, difference, port_lines[difference.index], runner)


def _cite_neighbors(difference) -> Citation:
    """The port's own neighbour primitive disagrees: the decision of the search whose other
    reading gives the port's list, else the search's clause."""
    clause = "neighbors.obstacles" if "obstacle_neighbors" in difference.neighbors else "neighbors.agents"
    if difference.port_neighbors is None:
        return Citation(clause)
    family, args, got = difference.port_neighbors
    reference = traced()[0].FAMILY_BY_NAME[family].reference
    return from_flip(flip_reproduces(lambda: reference(*args), lambda r: list(r[0]) == got)) or Citation(clause)


def _cite_selection(scene: Scene, state: StateDump, agent: int, obstacles: bool) -> Citation | None:
    """A neighbour list that differs: the range test or the tie order nearest its boundary."""
    sim = _simulator(scene, state)
    prm = sim.params[agent]
    nb = _modules()["solver.neighbors"]
    if obstacles:
        found, _ = near_sites(lambda: nb.obstacle_neighbors(sim.px[agent], sim.py[agent], _reach(prm),
                                                            list(sim.segments)))
        return _from_sites(found, ["neighbors.obstacles"])
    found, _ = near_sites(lambda: nb.agent_neighbors_brute_force(agent, list(sim.px), list(sim.py),
                                                                 prm.neighbor_distance, prm.max_neighbors))
    return _from_sites(found, ["neighbors.agents"])


def _cite_plane(scene: Scene, state: StateDump, difference, port_plane: tuple, runner: Runner | None) -> Citation:
    """One constraint's plane differs: trace the reference's construction of it."""
    sim = _simulator(scene, state)
    i, prm = difference.agent, sim.params[difference.agent]
    x, y = sim.px[i], sim.py[i]
    build = _modules()["solver.constraint"]
    normal = difference.field in ("N.x", "N.y")
    if (j := difference.neighbor_index(Side.AGENT)) is not None:
        args = (sim.px[j] - x, sim.py[j] - y, prm.radius + sim.params[j].radius, prm.time_horizon, scene.dt,
                sim.vx[i], sim.vy[i], sim.vx[j], sim.vy[j])
        found, outcome = near_sites(lambda: build.agent_constraint(*args))
        flipped = from_flip(flip_reproduces(lambda: build.agent_constraint(*args),
                                             lambda plane: same_bits(plane, port_plane)))
        if flipped is not None:
            return flipped
        overlap = outcome.get("solver.constraint.agent_constraint: ax * ax + ay * ay <= r * r", False)
        if overlap:
            branch = _support_branch(outcome, normal)
        elif outcome.get("solver.obstacle.agent_case_form: dot1 * dot1 > r * r * ww") and \
                outcome.get("solver.obstacle.agent_case_form: dot1 < 0.0"):
            branch = "agents.cutoff"
        else:
            branch = "agents.leg-side" if normal else "agents.leg-u"
        return _from_sites(found, [branch]) or Citation(branch, ["agents.responsibility"])
    if (s := difference.neighbor_index(Side.OBSTACLE)) is not None:
        ax, ay, bx, by = sim.segments[s]
        args = (ax - x, ay - y, bx - x, by - y, prm.radius, prm.time_horizon_obst, scene.dt)
        found, outcome = near_sites(lambda: build.segment_constraint(*args))
        overlap = outcome.get(SEGMENT_OVERLAP, False)
        support = [*args[:5], scene.dt if overlap else prm.time_horizon_obst, 0.0, 0.0, int(overlap)]
        flipped = from_flip(flip_reproduces(lambda: build.segment_constraint(*args),
                                             lambda plane: same_bits(plane, port_plane),
                                             _support_form_wrong(runner, support)))
        if flipped is not None:
            return flipped
        branch = _support_branch(outcome, normal)
        return _from_sites(found, [branch]) or Citation(branch, ["segments.responsibility"])
    return Citation("step.start-state", found=False)


SEGMENT_OVERLAP = "solver.constraint.segment_constraint: segment_distance_squared(ax, ay, bx, by) <= r * r"


def _support_form_wrong(runner: Runner | None, args: list) -> frozenset[str]:
    """The overlap test left out of the candidates when the port's own support_distance already
    differs for the branch the reference took: then the support form is wrong, not the choice."""
    if runner is None:
        return frozenset()
    from ..solver.obstacle import support_distance
    got = ask_family(runner, "support_distance", args)
    if got is not None and not same_bits(got, support_distance(*args[:8], bool(args[8]))):
        return frozenset({SEGMENT_OVERLAP, "solver.constraint.agent_constraint: ax * ax + ay * ay <= r * r"})
    return frozenset()


def _support_branch(outcome: dict, normal: bool) -> str:
    """The rule of the support form that computed a differing plane: the no-candidate direction
    when the reference fell back to it, else the candidates (normal) or u (point)."""
    if "solver.obstacle.support_distance: ls == 0.0" in outcome:
        return "support.fallback-direction"
    return "support.candidates" if normal else "support.u"


def cite_segment_distance(runner: Runner, scene: Scene, state: StateDump, difference) -> Citation | None:
    """A differing segment constraint whose segment distance the port's own primitive already
    gets wrong: the distance (overlap test, reach and order all use it)."""
    if (s := difference.neighbor_index(Side.OBSTACLE)) is None:
        return None
    sim = _simulator(scene, state)
    x, y = sim.px[difference.agent], sim.py[difference.agent]
    ax, ay, bx, by = sim.segments[s]
    args = [ax - x, ay - y, bx - x, by - y]
    from ..solver.obstacle import segment_distance_squared
    got = ask_family(runner, "segment_distance_squared", args)
    if got is not None and not same_bits(got, (segment_distance_squared(*args),)):
        return Citation("overlap.test", ["note.segment-distance", "neighbors.obstacles"])
    return None


# ----------------------------------------------------------------------------- the programs

_START = frozenset({"solver.linear_program.solve_closest: plen <= radius"})


def cite_velocity(runner: Runner, lines: tuple, hard: int, max_speed: float, pref: tuple[float, float],
                  got: tuple[float, float]) -> Citation:
    """Same constraint list, another velocity (``got``): which program, and the rule within it."""
    lp = _modules()["solver.linear_program"]
    fb = _modules()["solver.fallback"]
    rows = [list(line) for line in lines]
    start = ask_family(runner, "solve_closest", [[], max_speed, pref[0], pref[1]])
    if start is not None and not same_bits(start, lp.solve_closest([], max_speed, pref[0], pref[1])):
        return Citation("lp.start", ["note.lp-start"])

    def velocity() -> tuple[float, float]:
        vx, vy, failed = lp.solve_closest(rows, max_speed, pref[0], pref[1])
        return (vx, vy) if failed < 0 else fb.relax(rows, hard, max_speed, failed)
    flipped = from_flip(flip_reproduces(velocity, lambda v: same_bits(v, got),
                                         frozenset() if start is None else _START))
    if flipped is not None:
        return flipped
    closest = lp.solve_closest(rows, max_speed, pref[0], pref[1])
    port_closest = ask_family(runner, "solve_closest", [rows, max_speed, pref[0], pref[1]])
    in_closest = port_closest is not None and not same_bits(port_closest, closest)
    if closest[2] < 0 or in_closest:
        found, _ = near_sites(lambda: lp.solve_closest(rows, max_speed, pref[0], pref[1]),
                              ("solver.linear_program.solve_closest", "solver.linear_program.line_interval"),
                              frozenset() if start is None else _START)
        return _from_sites(found, ["lp.project"]) or Citation("lp.project", ["lp.interval"])
    soft = lines[hard] if hard < len(lines) else lines[0]
    direction = ask_family(runner, "solve_direction", [[], max_speed, soft[2], soft[3]])
    if direction is not None and not same_bits(direction, lp.solve_direction([], max_speed, soft[2], soft[3])):
        return Citation("lp.direction", ["note.direction-program"])
    found, _ = near_sites(lambda: fb.relax(rows, hard, max_speed, closest[2]), ("solver.fallback",))
    return _from_sites(found, ["fallback.subprogram"]) or Citation("fallback.bisector", ["fallback.subprogram"])


# ----------------------------------------------------------------------------- the vectors row

def cite_vector_cases(family: str, cases: list[dict], results: list, bad: list[int], most: int = 24) -> Citation:
    """The clause the failing cases of a family share: each of the first ``most`` bad cases is
    traced through the reference, and the clause of the decision whose other reading gives the
    port's result (else of its first near decision) counts one vote; the family's main clause
    when no case has one."""
    from ..data.family_clauses import FAMILY_CLAUSES
    shadow_vectors, _ = traced()
    fam = shadow_vectors.FAMILY_BY_NAME[family]
    votes: dict[str, int] = {}
    for index in bad[:most]:
        args = [shadow_vectors.decode_value(c, v) for c, v in zip(fam.args, cases[index]["args"])]
        try:
            got = [shadow_vectors.decode_value(c, v) for c, v in zip(fam.result, results[index])]
        except (IndexError, TypeError, ValueError):
            got = None
        flip = None if got is None else flip_reproduces(lambda: fam.reference(*args),
                                                         lambda r: same_bits(list(r), got))
        site = flip[0] if flip is not None else None
        if site is None:
            found, _ = near_sites(lambda: fam.reference(*args))
            site = found[0] if found else None
        if site is not None:
            clause = SITE_CLAUSES[site][0]
            votes[clause] = votes.get(clause, 0) + 1
    main = FAMILY_CLAUSES[family]
    if not votes:
        return Citation(main[0], list(main[1:3]))
    ranked = sorted(votes, key=lambda c: -votes[c])
    return Citation(ranked[0], [c for c in ranked[1:3]])
