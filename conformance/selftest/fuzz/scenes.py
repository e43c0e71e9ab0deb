"""Seeded random scenes for ``orca-conformance fuzz``: small, valid, reproducible.

Contract: ``make_scene(seed, index)`` returns a ``FuzzScene`` that depends on nothing but the
suite version (``conformance.__version__``), ``seed`` and ``index``: a ``random.Random`` is
seeded with a string of those three (Python hashes a str seed with SHA-512, the same on every
machine), and the kind is ``KINDS[index % len(KINDS)]``, so choosing ``--kinds`` only skips
indices and never changes a scene.  The harness may use any arithmetic to make a scene; what
a port receives is the finished ``Scene`` of exact doubles.  Every scene obeys the scenario
schema's rules (radius > 0, max_speed >= 0, horizons > 0, coordinates below 2^21, dt in
(0, 1], 2 to 15 agents, 15 to 60 steps), so a shrunk one can be written as a scenario file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ... import __version__
from ...contract.scenario import DEFAULT_PARAMS, POSITION_LIMIT, AgentSpec, Scene, Vec2
from ...solver import AgentParams
from .bands import band_scene

KINDS: tuple[str, ...] = ("walls", "overlap", "dense", "coarse-dt", "far", "params", "velocities",
                          "waypoints", "grid-ties", "mixed", "contract", "bands")
"""Scene kinds, in the order of ``index % len(KINDS)``."""

DEFAULT_AGENT = AgentParams(*(DEFAULT_PARAMS[k] for k in ("radius", "max_speed", "neighbor_distance",
                                                            "max_neighbors", "time_horizon", "time_horizon_obst")))
DEFAULT_GOAL_RADIUS = float(DEFAULT_PARAMS["goal_radius"])


@dataclass(frozen=True)
class FuzzScene:
    """One generated scene and where it came from."""

    kind: str
    seed: int
    index: int
    scene: Scene

    @property
    def id(self) -> str:
        return f"fuzz/{self.kind}-{self.seed}-{self.index}"


def scene_rng(seed: int, index: int) -> random.Random:
    """The generator of one scene: a function of (suite version, seed, index) alone."""
    return random.Random(f"orca-conformance {__version__} fuzz seed={seed} index={index}")


def kind_of(index: int) -> str:
    return KINDS[index % len(KINDS)]


def make_scene(seed: int, index: int) -> FuzzScene:
    """The scene number ``index`` of ``seed``."""
    kind = kind_of(index)
    rng = scene_rng(seed, index)
    builder = _Builder(rng)
    _BUILDERS[kind](builder)
    return FuzzScene(kind, seed, index, builder.scene())


class _Builder:
    """Accumulates agents and segments in local coordinates; ``scene()`` applies the offset."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.dt = rng.choice((0.1, 0.1, 0.05, 0.25))
        self.steps = rng.randint(15, 60)
        self.seed = rng.randrange(2 ** 53)
        self.magnitude = 0.0 if rng.random() < 0.7 else rng.choice((1e-4, 0.01, rng.uniform(0.0, 0.1)))
        self.offset: Vec2 = (0.0, 0.0)
        self.agents: list[AgentSpec] = []
        self.segments: list[tuple[float, float, float, float]] = []
        self.exact: bool = False
        """Hand the coordinates over as they are (no offset, no clamp): ``bands`` keeps its -0.0."""

    def point(self, half: float = 8.0) -> Vec2:
        return (self.rng.uniform(-half, half), self.rng.uniform(-half, half))

    def agent(self, position: Vec2, goal: Vec2 | None = None, params: AgentParams = DEFAULT_AGENT,
              velocity: Vec2 = (0.0, 0.0), goal_radius: float = DEFAULT_GOAL_RADIUS,
              waypoints: tuple[Vec2, ...] = ()) -> None:
        goal = goal if goal is not None else (-position[0], -position[1])
        self.agents.append(AgentSpec(position, velocity, params, goal_radius, waypoints + (goal,)))

    def random_agents(self, count: int, half: float = 8.0, **kw) -> None:
        for _ in range(count):
            self.agent(self.point(half), self.point(half), **kw)

    def random_walls(self, count: int, half: float = 8.0) -> None:
        for _ in range(count):
            shape = self.rng.random()
            if shape < 0.6:
                a, b = self.point(half), self.point(half)
                self.segments.append((*a, *b))
            else:  # a polyline (or closed polygon) of 3-4 points
                pts = [self.point(half) for _ in range(self.rng.randint(3, 4))]
                if shape > 0.85:
                    pts.append(pts[0])
                self.segments += [(*a, *b) for a, b in zip(pts, pts[1:])]

    def random_params(self) -> AgentParams:
        r = self.rng
        return AgentParams(r.choice((0.5, 0.25, r.uniform(0.05, 1.0))), r.choice((0.0, 1.0, 2.0, r.uniform(0.0, 3.0))),
                           r.choice((0.0, 1.0, 5.0, r.uniform(0.0, 10.0))), r.choice((0, 1, 1, 2, 3, 10)),
                           r.choice((0.5, 2.0, r.uniform(0.05, 5.0))), r.choice((0.5, 2.0, r.uniform(0.05, 5.0))))

    def scene(self) -> Scene:
        ox, oy = self.offset

        def move(p: Vec2) -> Vec2:
            return p if self.exact else (_inside(p[0] + ox), _inside(p[1] + oy))
        agents = tuple(AgentSpec(move(a.position), a.velocity, a.params, a.goal_radius,
                                 tuple(move(w) for w in a.waypoints)) for a in self.agents)
        segments = tuple((*move(s[:2]), *move(s[2:])) for s in self.segments)
        return Scene(self.dt, self.steps, self.seed, self.magnitude, agents, segments)  # type: ignore[arg-type]


def _inside(value: float) -> float:
    limit = POSITION_LIMIT * 0.99
    return max(-limit, min(limit, value))


def _walls(b: _Builder) -> None:
    b.random_walls(b.rng.randint(1, 6))
    b.random_agents(b.rng.randint(2, 8))


def _overlap(b: _Builder) -> None:
    """Agents started inside each other and inside walls (some exactly touching)."""
    r = b.rng
    b.random_walls(r.randint(1, 3), half=5.0)
    for _ in range(r.randint(2, 6)):
        b.agent(b.point(5.0), b.point(5.0))
    for _ in range(r.randint(1, 4)):  # a partner inside (or exactly touching) an agent
        host = r.choice(b.agents)
        gap = r.choice((0.0, 0.5, 1.0, r.uniform(0.0, 1.0))) * 2 * host.params.radius
        dx, dy = r.choice(((gap, 0.0), (0.0, gap), (gap * 0.6, gap * 0.8)))
        b.agent((host.position[0] + dx, host.position[1] + dy), b.point(5.0))
    for seg in list(b.segments)[:3]:  # an agent on or just off a wall
        t = r.choice((0.0, 0.5, 1.0, r.random()))
        p = (seg[0] + t * (seg[2] - seg[0]) + r.uniform(-0.3, 0.3), seg[1] + t * (seg[3] - seg[1]))
        b.agent(p, b.point(5.0))


def _dense(b: _Builder) -> None:
    """A tight pack in a closed box, heading for the far side."""
    r = b.rng
    cols, rows = r.randint(2, 4), r.randint(2, 3)
    spacing = r.choice((1.0, 1.05, r.uniform(0.8, 1.3)))
    w, h = cols * spacing + 1.0, rows * spacing + 1.0
    x0, y0 = -w / 2, -h / 2
    corners = [(x0 - 0.5, y0 - 0.5), (x0 + w + 2.5, y0 - 0.5), (x0 + w + 2.5, y0 + h + 0.5), (x0 - 0.5, y0 + h + 0.5)]
    b.segments += [(*a, *c) for a, c in zip(corners, corners[1:] + corners[:1])]
    for i in range(cols):
        for j in range(rows):
            p = (x0 + 0.5 + i * spacing, y0 + 0.5 + j * spacing)
            b.agent(p, (x0 + w + 1.5 - (cols - 1 - i) * 0.3, p[1] + r.uniform(-0.5, 0.5)))


def _coarse_dt(b: _Builder) -> None:
    b.dt = b.rng.choice((0.5, 1.0, 0.75, b.rng.uniform(0.2, 1.0)))
    b.random_walls(b.rng.randint(0, 3))
    b.random_agents(b.rng.randint(2, 8))


def _far(b: _Builder) -> None:
    """A walls scene moved near 10^6, where an ulp is about 1e-10."""
    r = b.rng
    b.offset = (r.choice((1.0, -1.0)) * r.uniform(0.9e6, 1.1e6), r.choice((1.0, -1.0, 0.0)) * r.uniform(0.9e6, 1.1e6))
    _walls(b)


def _params(b: _Builder) -> None:
    b.random_walls(b.rng.randint(0, 3))
    for _ in range(b.rng.randint(2, 8)):
        position, goal, params = b.point(), b.point(), b.random_params()
        b.agent(position, goal, params=params, goal_radius=b.rng.choice((0.0, 0.1, b.rng.uniform(0, 2))))


def _velocities(b: _Builder) -> None:
    b.random_walls(b.rng.randint(0, 3))
    for _ in range(b.rng.randint(2, 8)):
        speed = b.rng.uniform(0.0, 2.5)
        b.agent(b.point(), b.point(), velocity=(b.rng.uniform(-speed, speed), b.rng.uniform(-speed, speed)))


def _waypoints(b: _Builder) -> None:
    b.random_walls(b.rng.randint(0, 3))
    for _ in range(b.rng.randint(2, 6)):
        via = tuple(b.point() for _ in range(b.rng.randint(1, 4)))
        b.agent(b.point(), b.point(), waypoints=via, goal_radius=b.rng.choice((0.0, 0.1, 0.5, b.rng.uniform(0, 2))))


def _grid_ties(b: _Builder) -> None:
    """Everything on a dyadic grid, mirrored: equal distances, exact touching, ties of every order."""
    r = b.rng
    unit = r.choice((0.5, 0.25, 1.0))
    b.dt = r.choice((0.125, 0.25, 0.5, 1.0))
    radius = r.choice((0.5, 0.25, 1.0))
    params = AgentParams(radius, r.choice((1.0, 2.0, 0.5)), r.choice((1.0, 2.0, 4.0, 5.0)), r.choice((0, 1, 2, 10)),
                         r.choice((1.0, 2.0, 0.5)), r.choice((1.0, 2.0, 0.5)))

    def grid(n: int = 8) -> Vec2:
        return (r.randint(-n, n) * unit, r.randint(-n, n) * unit)
    for _ in range(r.randint(1, 4)):  # each agent with its mirror images (x -> -x, and y -> -y)
        p, g = grid(), grid()
        b.agent(p, g, params=params, goal_radius=r.choice((0.0, unit)))
        b.agent((-p[0], p[1]), (-g[0], g[1]), params=params)
        if r.random() < 0.5:
            b.agent((p[0], -p[1]), (g[0], -g[1]), params=params)
    if r.random() < 0.5:  # a pair exactly touching (distance = radius sum), and an agent touching a wall
        p = grid(4)
        step = r.choice(((2 * radius, 0.0), (0.0, 2 * radius)))
        b.agent(p, grid(), params=params)
        b.agent((p[0] + step[0], p[1] + step[1]), grid(), params=params)
        q = grid(4)
        b.agent(q, grid(), params=params)
        b.segments.append((q[0] - 2 * unit, q[1] + radius, q[0] + 2 * unit, q[1] + radius))
    for _ in range(r.randint(0, 3)):  # walls on the grid, mirrored too
        a, c = grid(), grid()
        b.segments.append((*a, *c))
        if r.random() < 0.5:
            b.segments.append((-a[0], a[1], -c[0], c[1]))


def _mixed(b: _Builder) -> None:
    r = b.rng
    b.dt = r.choice((0.1, 0.25, 0.5, 1.0))
    b.random_walls(r.randint(0, 4))
    if r.random() < 0.3:
        a = b.point()
        b.segments.append((*a, *a))  # a degenerate (point) segment
    for _ in range(r.randint(2, 10)):
        via = tuple(b.point() for _ in range(r.randint(0, 2)))
        speed = r.uniform(0.0, 1.5)
        b.agent(b.point(), b.point(), params=b.random_params() if r.random() < 0.5 else DEFAULT_AGENT,
                velocity=(r.uniform(-speed, speed), r.uniform(-speed, speed)), waypoints=via)
    if r.random() < 0.3:
        b.offset = (r.uniform(-1.5e6, 1.5e6), r.uniform(-1.5e6, 1.5e6))


def _contract(b: _Builder) -> None:
    """The port contract rather than the geometry: every field at a boundary of the scene schema
    now and then (zero radius, goal radius, neighbors, neighbor distance, speed; a start
    velocity; one or many waypoints; no walls or many; dt up to 10; fast agents that cross
    several grid cells in a step), so that a port that reads a value with a default, skips
    a "point" or keeps a stale index meets it."""
    r = b.rng
    b.dt = r.choice((0.1, 0.5, 2.0, 10.0, r.uniform(0.05, 10.0)))
    b.steps = r.randint(1, 30)
    b.random_walls(r.choice((0, 0, 1, 3, r.randint(20, 60))))
    for _ in range(r.randint(1, 8)):
        radius, speed, reach = (r.choice((0.0, 0.0, 0.25, 0.5)), r.choice((0.0, 1.0, 5.0, 20.0)),
                                r.choice((0.0, 0.5, 2.0, 10.0)))
        params = AgentParams(radius, speed, reach, r.choice((0, 1, 2, 10)), r.choice((0.5, 2.0, 10.0)),
                             r.choice((0.5, 2.0)))
        via = tuple(b.point() for _ in range(r.choice((0, 0, 1, r.randint(2, 40)))))
        velocity = (0.0, 0.0) if r.random() < 0.5 else (r.uniform(-speed, speed), r.uniform(-speed, speed))
        b.agent(b.point(), b.point(), params=params, velocity=velocity, waypoints=via,
                goal_radius=r.choice((0.0, 0.0, 0.1, r.uniform(0.0, 3.0))))
    if r.random() < 0.5:  # a dash: an agent crosses several grid cells in one step to stop by another
        reach = r.choice((0.5, 1.0, 2.0))
        near = AgentParams(r.choice((0.0, 0.2)), 0.0, reach, 10, 2.0, 2.0)
        cells = r.randint(3, 8)
        fast = AgentParams(r.choice((0.0, 0.2)), reach * cells / b.dt, reach, 10, 2.0, 2.0)
        p, sign = b.point(), r.choice((1.0, -1.0))
        b.agent(p, p, params=near)
        # one step lands it 0.6 of the reach from the other, still on its way past it
        b.agent((p[0] + sign * reach * (cells + 0.6), p[1] + 0.1 * reach), (p[0] - sign * 4 * reach * cells, p[1]),
                params=fast)


def _bands(b: _Builder) -> None:
    """Data inside the rounding bands of the decisions (bands.py): two or three vignettes,
    tens of steps, the coordinates exactly as computed (a -0.0 stays -0.0)."""
    b.steps = b.rng.randint(15, 30)
    agents, segments = band_scene(b.rng, b.dt)
    b.agents += agents
    b.segments += segments
    b.exact = True


_BUILDERS: dict[str, Callable[[_Builder], None]] = {
    "walls": _walls, "overlap": _overlap, "dense": _dense, "coarse-dt": _coarse_dt, "far": _far,
    "params": _params, "velocities": _velocities, "waypoints": _waypoints, "grid-ties": _grid_ties, "mixed": _mixed,
    "contract": _contract, "bands": _bands,
}
assert tuple(_BUILDERS) == KINDS
