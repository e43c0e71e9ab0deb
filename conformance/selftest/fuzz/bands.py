"""The ``bands`` fuzz kind: data put on purpose inside the rounding bands of the decisions,
where uniform random reals never land (docs/fuzz.md).  The harness finds each boundary with
Python doubles and the solver's own formulas (+ - * / and sqrt; float32 is a ``struct`` round
trip); a port receives only the finished exact doubles.

Contract: ``band_scene(rng, dt)`` returns the agents and segments of two or three *vignettes*
(``VIGNETTES[name](rng, at, dt)``), each around its own centre, 64 units from the others, a
function of ``rng``'s draws and ``dt`` alone.  Agent 0 of a vignette takes the decision in the
band at step 0 (a slip shows at step 1).  The decisions (``DECISIONS``) and the tuned parameter:

* ``overlap``: a.a <= (r0 + r1)^2 for a = p1 - p0 (agent 1's radius);
* ``neighbor``: a.a < nd^2 (the neighbor distance of both agents);
* ``reach``: SegmentDistanceSquared(segment 0) <= (tho * ms + r)^2 (time_horizon_obst);
* ``wall``: SegmentDistanceSquared(segment 0) <= r^2, the overlap of a segment (radius);
* ``waypoint``: the squared distance to waypoint 0 <= goal_radius^2 (goal_radius);
* ``arrival``: sqrt(dist2) <= ms * dt to the only waypoint (max_speed).

The bands: ``edge`` (the compared squares, for ``arrival`` the roots, at most ``EDGE_ULPS`` ulps
apart, either side, or equal), ``roots`` (sqrt of the data equals the threshold, the squares
differ), ``float32`` (the parameter is no float32 and its float32 rounding decides otherwise).
Not a decision: ``order`` (one neighbor slot, two candidates whose squared distances tie or
differ by 1 to 3 ulps, the nearer with the higher index; at the origin), ``zeros`` (-0.0 start
velocities, positions, goals and segment ends that make relative coordinates -0.0; on the x = 0
column) and ``tiny`` (magnitudes in (0, 1e-5): segment, wedge, near-coincident pair, velocity).
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field
from math import nextafter, sqrt
from typing import Callable

from ...contract.scenario import AgentSpec, Vec2
from ...solver import AgentParams
from ...solver.obstacle import segment_distance_squared

Segment = tuple[float, float, float, float]
DECISIONS: tuple[str, ...] = ("overlap", "neighbor", "reach", "wall", "waypoint", "arrival")
BANDS: tuple[str, ...] = ("edge", "roots", "float32")
EDGE_ULPS = 3
"""The ``edge`` band: at most this many ulps between the compared quantities."""
SCAN_ULPS = 64
"""How far (in ulps of the parameter) the finders look around the algebraic boundary."""
ATTEMPTS = 24
"""Fresh geometries tried before a vignette settles for the ``edge`` band."""
CENTRES: tuple[Vec2, ...] = ((64.0, 0.0), (-64.0, 0.0), (64.0, 64.0), (-64.0, 64.0))
"""Where the other vignettes go: 64 units from each other and from ``FIXED_CENTRES``."""


def f32(x: float) -> float:
    """x rounded to the nearest float32 (ties to even), as a double."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def ulps(a: float, b: float) -> int:
    """Signed count of doubles from a to b (both finite and >= 0)."""
    return struct.unpack("<q", struct.pack("<d", b))[0] - struct.unpack("<q", struct.pack("<d", a))[0]


def squared(ax: float, ay: float) -> float:
    """Dot(a, a) as the solver computes it."""
    return ax * ax + ay * ay


@dataclass(frozen=True)
class Decision:
    """One decision of agent 0: ``data`` is the squared distance it looks at (as the solver or
    the driver computes it), ``threshold(p)`` the distance it is compared with for parameter p."""

    name: str
    data: float
    threshold: Callable[[float], float]
    strict: bool = False
    roots: bool = False
    """The reference compares sqrt(data) with the threshold (the arrival test), not the squares."""

    def holds(self, p: float) -> bool:
        t = self.threshold(p)
        if self.roots:
            return sqrt(self.data) <= t
        return self.data < t * t if self.strict else self.data <= t * t

    def gap(self, p: float) -> int:
        """Ulps between the two compared quantities (squares, or roots for ``roots``)."""
        t = self.threshold(p)
        return ulps(sqrt(self.data), t) if self.roots else ulps(self.data, t * t)

    def in_roots_band(self, p: float) -> bool:
        t = self.threshold(p)
        return sqrt(self.data) == t and self.data != t * t


@dataclass
class Vignette:
    """A few agents and segments; ``band`` says what agent 0's decision landed in."""

    band: str
    agents: list[AgentSpec] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    decision: Decision | None = None


def scan(p0: float, width: int = SCAN_ULPS) -> list[float]:
    """The positive doubles from ``width`` ulps below p0 to ``width`` above, ascending."""
    below, above = [p0], [p0]
    for _ in range(width):
        below.append(nextafter(below[-1], 0.0))
        above.append(nextafter(above[-1], float("inf")))
    return [v for v in reversed(below) if v > 0.0] + above[1:]


def edge_param(rng: random.Random, dec: Decision, p0: float) -> float | None:
    """A parameter whose threshold is within ``EDGE_ULPS`` of the data (a tie now and then)."""
    near = [p for p in scan(p0) if abs(dec.gap(p)) <= EDGE_ULPS]
    ties = [p for p in near if dec.gap(p) == 0]
    pool = ties if ties and rng.random() < 0.4 else near
    return rng.choice(pool) if pool else None


def roots_param(rng: random.Random, dec: Decision, p0: float) -> float | None:
    """A parameter whose threshold equals sqrt(data) while its square is not the data."""
    found = [p for p in scan(p0) if dec.in_roots_band(p)]
    return rng.choice(found) if found else None


def float32_param(rng: random.Random, dec: Decision, p0: float) -> float | None:
    """A parameter that decides otherwise than its float32 rounding (so it is no float32)."""
    values = scan(p0)
    for lo, hi in zip(values, values[1:]):
        if dec.holds(lo) != dec.holds(hi):
            rounded = f32(lo)
            for p in (lo, hi) if rng.random() < 0.5 else (hi, lo):
                if f32(p) == rounded and dec.holds(p) != dec.holds(rounded):
                    return p
            return None
    return None


FINDERS: dict[str, Callable[[random.Random, Decision, float], float | None]] = {
    "edge": edge_param, "roots": roots_param, "float32": float32_param}


def _direction(rng: random.Random) -> Vec2:
    """A unit-ish direction: an axis, a 3-4-5 one, or a random one."""
    if rng.random() < 0.4:
        return rng.choice(((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (0.6, 0.8), (-0.8, 0.6)))
    x, y = rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)
    norm = sqrt(x * x + y * y) or 1.0
    return (x / norm, y / norm)


def _near(rng: random.Random, at: Vec2, half: float = 4.0) -> Vec2:
    return (at[0] + rng.uniform(-half, half), at[1] + rng.uniform(-half, half))


def _along(p: Vec2, d: Vec2, length: float) -> Vec2:
    return (p[0] + d[0] * length, p[1] + d[1] * length)


def _params(radius: float = 0.5, max_speed: float = 1.0, neighbor_distance: float = 5.0, max_neighbors: int = 10,
            time_horizon: float = 2.0, time_horizon_obst: float = 2.0) -> AgentParams:
    return AgentParams(radius, max_speed, neighbor_distance, max_neighbors, time_horizon, time_horizon_obst)


def _start(rng: random.Random, toward: Vec2) -> Vec2:
    """A start velocity: zero (of either sign now and then) or a fraction of ``toward``."""
    pick = rng.random()
    if pick < 0.4:
        return (0.0, 0.0)
    if pick < 0.6:
        return (-0.0, -0.0)
    s = rng.uniform(0.1, 1.0)
    return (toward[0] * s, toward[1] * s)


# ----------------------------------------------------------------------------- the decisions

Geometry = tuple[Decision, float, Callable[[float], Vignette]]
"""A decision of agent 0, the parameter that puts its boundary on the data (by algebra, so
within a few ulps), and the vignette made with a chosen parameter."""


def _overlap(rng: random.Random, at: Vec2, dt: float) -> Geometry:
    """Two agents head for each other; agent 1's radius puts r0 + r1 at their distance."""
    p, d, length = _near(rng, at), _direction(rng), rng.uniform(0.3, 1.5)
    q = _along(p, d, length)
    data = squared(q[0] - p[0], q[1] - p[1])
    r0 = rng.choice((0.25, 0.125, sqrt(data) * rng.uniform(0.3, 0.7)))
    r0 = r0 if r0 < 0.9 * sqrt(data) else 0.5 * sqrt(data)
    speed = rng.choice((1.0, 2.0, 0.5))
    back = (-d[0], -d[1])

    def make(r1: float) -> Vignette:
        return Vignette("", [AgentSpec(p, _start(rng, d), _params(r0, speed), 0.1, (_along(p, d, 3 * length),)),
                             AgentSpec(q, _start(rng, back), _params(r1, speed), 0.1, (_along(q, d, -3 * length),))])
    return Decision("overlap", data, lambda r1: r0 + r1), sqrt(data) - r0, make


def _neighbor(rng: random.Random, at: Vec2, dt: float) -> Geometry:
    """Two agents head for each other from about a neighbor distance apart (a long horizon, so
    each one's constraint on the other is active at once)."""
    p, d, length = _near(rng, at), _direction(rng), rng.uniform(1.0, 4.0)
    q = _along(p, d, length)
    data = squared(q[0] - p[0], q[1] - p[1])
    radii = rng.choice(((0.25, 0.25), (0.375, 0.25), (0.25, 0.375)))
    speed, tau = rng.choice((1.0, 2.0)), rng.choice((4.0, 8.0, rng.uniform(3.0, 10.0)))
    back = (-d[0], -d[1])

    def make(nd: float) -> Vignette:
        return Vignette("", [
            AgentSpec(p, _start(rng, d), _params(radii[0], speed, nd, 10, tau), 0.1, (_along(p, d, 3 * length),)),
            AgentSpec(q, _start(rng, back), _params(radii[1], speed, nd, 10, tau), 0.1, (_along(q, d, -3 * length),))])
    return Decision("neighbor", data, lambda nd: nd, strict=True), sqrt(data), make


def _segment_at(rng: random.Random, p: Vec2, d: Vec2, length: float) -> Segment:
    """A segment whose nearest point to p, ``length`` away along d, is its end or inside it."""
    foot = _along(p, d, length)
    if rng.random() < 0.5:  # the segment points away: its near end is the nearest point
        return (*foot, *_along(foot, d, rng.uniform(0.5, 3.0)))
    side = (-d[1], d[0])  # a wall across the way
    return (*_along(foot, side, rng.uniform(0.5, 3.0)), *_along(foot, side, -rng.uniform(0.5, 3.0)))


def _to_segment(p: Vec2, s: Segment) -> float:
    return segment_distance_squared(s[0] - p[0], s[1] - p[1], s[2] - p[0], s[3] - p[1])


def _reach(rng: random.Random, at: Vec2, dt: float) -> Geometry:
    """An agent heads for a segment at its obstacle reach; the horizon puts tho * ms + r there."""
    p, d, length = _near(rng, at), _direction(rng), rng.uniform(1.0, 4.0)
    segment = _segment_at(rng, p, d, length)
    data = _to_segment(p, segment)
    radius, speed = rng.choice((0.5, 0.25)), rng.choice((1.0, 2.0, 0.5))

    def make(tho: float) -> Vignette:
        params = _params(radius, speed, time_horizon_obst=tho)
        return Vignette("", [AgentSpec(p, _start(rng, d), params, 0.1, (_along(p, d, 2 * length + 2),))], [segment])
    return Decision("reach", data, lambda tho: tho * speed + radius), (sqrt(data) - radius) / speed, make


def _wall(rng: random.Random, at: Vec2, dt: float) -> Geometry:
    """An agent heads for a segment it touches; its radius puts r at the segment's distance."""
    p, d, length = _near(rng, at), _direction(rng), rng.uniform(0.2, 1.0)
    segment = _segment_at(rng, p, d, length)
    data, speed = _to_segment(p, segment), rng.choice((1.0, 2.0, 0.5))

    def make(radius: float) -> Vignette:
        agent = AgentSpec(p, _start(rng, d), _params(radius, speed), 0.1, (_along(p, d, 4.0),))
        return Vignette("", [agent], [segment])
    return Decision("wall", data, lambda r: r), sqrt(data), make


def _waypoint(rng: random.Random, at: Vec2, dt: float) -> Geometry:
    """An agent's first waypoint at its goal radius (the driver passes it at step 0 or not)."""
    p, d, length = _near(rng, at), _direction(rng), rng.uniform(0.1, 2.0)
    first = _along(p, d, length)
    data = squared(first[0] - p[0], first[1] - p[1])
    second = _along(p, (-d[1], d[0]), 2 * length + 1.0)
    goal = _along(p, (d[1], -d[0]), rng.uniform(3.0, 6.0))

    def make(goal_radius: float) -> Vignette:
        return Vignette("", [AgentSpec(p, _start(rng, d), _params(), goal_radius, (first, second, goal))])
    return Decision("waypoint", data, lambda gr: gr), sqrt(data), make


def _arrival(rng: random.Random, at: Vec2, dt: float) -> Geometry:
    """An agent one step (max_speed * dt) from its only waypoint: it arrives exactly or not."""
    p, d, length = _near(rng, at), _direction(rng), rng.uniform(0.02, 0.3)
    goal = _along(p, d, length)
    data = squared(goal[0] - p[0], goal[1] - p[1])

    def make(speed: float) -> Vignette:
        return Vignette("", [AgentSpec(p, _start(rng, d), _params(max_speed=speed), 0.1, (goal,))])
    return Decision("arrival", data, lambda ms: ms * dt, roots=True), sqrt(data) / dt, make


GEOMETRIES: dict[str, Callable[[random.Random, Vec2, float], Geometry]] = {
    "overlap": _overlap, "neighbor": _neighbor, "reach": _reach, "wall": _wall, "waypoint": _waypoint,
    "arrival": _arrival}


def decision_vignette(rng: random.Random, at: Vec2, dt: float, name: str, band: str) -> Vignette:
    """Decision ``name`` of agent 0 in ``band`` (fresh geometries until one has such a parameter;
    after ``ATTEMPTS`` the ``edge`` band, which every geometry has).  ``band`` of the result is
    ``<band>:<decision>`` as landed."""
    for _ in range(ATTEMPTS):
        dec, p0, make = GEOMETRIES[name](rng, at, dt)
        p = FINDERS[band](rng, dec, p0)
        if p is not None:
            break
    else:
        band = "edge"
        p = edge_param(rng, dec, p0)
        if p is None:
            band, p = "near", p0
    vignette = make(p)
    vignette.band, vignette.decision = f"{band}:{name}", dec
    return vignette


# ----------------------------------------------------------------------------- the other vignettes

def _order(rng: random.Random, at: Vec2, dt: float) -> Vignette:
    """Agent 0 has one neighbor slot; agents 1 and 2 come from mirrored places, agent 2 moved
    nearer until its squared distance is 0 to 3 ulps below agent 1's.  Band ``order:<gap>``."""
    unit = 0.125
    p = (at[0] + rng.randint(-4, 4) * unit, at[1] + rng.randint(-4, 4) * unit)
    dx, dy = rng.randint(6, 16) * unit, rng.choice((-1, 1)) * rng.randint(1, 8) * unit
    first, sx, y2 = (p[0] + dx, p[1] + dy), p[0] - dx, p[1] + dy
    want, d1 = rng.choice((0, 1, 1, 2, 3)), squared(dx, dy)
    for _ in range(4096):  # y2 toward p: the squared distance falls by an ulp at a time or so
        if ulps(squared(sx - p[0], y2 - p[1]), d1) >= want:
            break
        y2 = nextafter(y2, p[1])
    second, gap = (sx, y2), ulps(squared(sx - p[0], y2 - p[1]), d1)
    tau = rng.choice((2.0, 4.0))
    agents = [AgentSpec(p, _start(rng, (0.0, 1.0)), _params(max_neighbors=1, time_horizon=tau), 0.1,
                        ((p[0], p[1] + rng.choice((-4.0, 4.0))),))]
    for q in (first, second):
        toward = (p[0] - q[0], p[1] - q[1])
        agents.append(AgentSpec(q, _start(rng, toward), _params(time_horizon=tau), 0.1,
                                (_along(q, toward, 2.0),)))
    return Vignette(f"order:{gap}", agents)


def _zeros(rng: random.Random, at: Vec2, dt: float) -> Vignette:
    """On the x = 0 column: agents at x = +0.0 and -0.0 meet head on (agent 0 sees a.x = -0.0),
    goal offsets -0.0, start velocities zeros of either sign, a segment end at x = -0.0."""
    zeros = ((0.0, 0.0), (-0.0, -0.0), (-0.0, 0.0), (0.0, -0.0))
    y0 = at[1] + rng.randint(-8, 8) * 0.25
    length = rng.choice((1.0, 1.5, 2.0, rng.uniform(1.0, 3.0)))
    params = _params(rng.choice((0.5, 0.25)), rng.choice((1.0, 2.0)))
    agents = [AgentSpec((0.0, y0), rng.choice(zeros), params, 0.1, ((-0.0, y0 + length + 4.0),)),
              AgentSpec((-0.0, y0 + length), rng.choice(zeros), params, 0.1, ((0.0, y0 - 4.0),))]
    segments = []
    if rng.random() < 0.5:
        end = y0 + length + rng.choice((2.0, 3.0))
        segments.append((-0.0, end, rng.choice((-2.0, 2.0)), end))
    if rng.random() < 0.5:  # a bystander on the column too, going nowhere
        agents.append(AgentSpec((-0.0, y0 - 2.0), rng.choice(zeros), params, 0.1, ((-0.0, y0 - 2.0),)))
    return Vignette("zeros", agents, segments)


def _tiny(rng: random.Random, at: Vec2, dt: float) -> Vignette:
    """Magnitudes in (0, 1e-5) where tests degenerate: a tiny segment, near-parallel walls,
    a near-coincident (now and then coincident) agent, a tiny start velocity."""
    def eps() -> float:
        return rng.uniform(0.0, 1.0) * 2.0 ** -rng.randint(17, 40)
    p, d = _near(rng, at, 2.0), _direction(rng)
    side = (-d[1], d[0])
    parts = rng.sample(("segment", "wedge", "pair", "velocity"), rng.randint(1, 3))
    velocity = (eps(), -eps()) if "velocity" in parts else _start(rng, d)
    agents = [AgentSpec(p, velocity, _params(), 0.1, (_along(p, d, 6.0),))]
    segments: list[Segment] = []
    if "segment" in parts:
        c = _along(p, d, rng.uniform(0.8, 2.0))
        segments.append((*c, c[0] + eps(), c[1] + eps()))
    if "wedge" in parts:  # two walls from about one point, their directions eps apart
        base, e = _along(p, side, rng.choice((0.75, 1.5))), eps()
        turned = (d[0] - d[1] * e, d[1] + d[0] * e)
        segments += [(*base, *_along(base, d, 4.0)), (*base, *_along(base, turned, 4.0))]
    if "pair" in parts:
        mate = p if rng.random() < 0.2 else _along(p, _direction(rng), eps())
        agents.append(AgentSpec(mate, _start(rng, side), _params(), 0.1, (_along(p, side, 5.0),)))
    return Vignette("tiny:" + ",".join(sorted(parts)), agents, segments)


def _decision_kind(band: str) -> Callable[[random.Random, Vec2, float], Vignette]:
    def build(rng: random.Random, at: Vec2, dt: float) -> Vignette:
        return decision_vignette(rng, at, dt, rng.choice(DECISIONS), band)
    return build


VIGNETTES: dict[str, Callable[[random.Random, Vec2, float], Vignette]] = {
    **{band: _decision_kind(band) for band in BANDS}, "order": _order, "zeros": _zeros, "tiny": _tiny}
FIXED_CENTRES: dict[str, Vec2] = {"order": (0.0, 0.0), "zeros": (0.0, 64.0)}
"""``order`` needs coordinates near 0 (fine ulps), ``zeros`` the x = 0 column."""


def band_vignettes(rng: random.Random, dt: float) -> list[Vignette]:
    """Two or three different vignettes, each around its own centre."""
    free = list(CENTRES)
    rng.shuffle(free)
    out = []
    for name in rng.sample(tuple(VIGNETTES), rng.randint(2, 3)):
        at = FIXED_CENTRES[name] if name in FIXED_CENTRES else free.pop()
        out.append(VIGNETTES[name](rng, at, dt))
    return out


def band_scene(rng: random.Random, dt: float) -> tuple[list[AgentSpec], list[Segment]]:
    """The agents and segments of ``band_vignettes``, vignette after vignette."""
    vignettes = band_vignettes(rng, dt)
    return [a for v in vignettes for a in v.agents], [s for v in vignettes for s in v.segments]
