"""The ``bands`` fuzz kind: each band builder lands in its band (checked with this file's own
reading of the decisions, not the builder's), its scenes are valid and keep their signed zeros,
the C port agrees with the reference on them, and a port that reads the neighbor distance as
float32 (tests/c_variants/float32-neighbor-distance.json), which the other kinds miss, is found
within a few bands scenes and shrunk."""

from __future__ import annotations

import math
import random
import struct
from pathlib import Path

import pytest

from conformance.contract.scenario import AgentSpec, Scene
from conformance.judge.matrix import DIVERGED
from conformance.runners import resolve
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.selftest.fuzz import campaign as fuzz
from conformance.selftest.fuzz.bands import BANDS, DECISIONS, EDGE_ULPS, VIGNETTES, decision_vignette
from conformance.selftest.fuzz.scenes import KINDS, make_scene
from conformance.selftest.fuzz.shrink import complexity
from conformance.selftest.controls.patches import load_patch, patched_tree
from conformance.solver.obstacle import segment_distance_squared
from conftest import ROOT

VECTORS = ROOT / "goldens" / "vectors"
PLANTED = ROOT / "tests" / "c_variants" / "float32-neighbor-distance.json"
BANDS_BUDGET = 40
"""Bands scenes (seed 0) within which the planted float32 port must be found (it is at the 9th)."""
OLD_KINDS_SCENES = 300
SEEDS = 40
DT = 0.1


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def negative(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def quantities(name: str, agents: list[AgentSpec], segments: list) -> tuple[float, object]:
    """Agent 0's decision as the text states it: the squared distance it looks at, and the
    threshold (a function of the tuned parameter, the parameter read from the vignette)."""
    a, p = agents[0], agents[0].position
    if name in ("overlap", "neighbor"):
        q = agents[1].position
        data = (q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1])
        if name == "overlap":
            return data, (lambda r1: a.params.radius + r1, agents[1].params.radius)
        assert agents[1].params.neighbor_distance == a.params.neighbor_distance
        return data, (lambda nd: nd, a.params.neighbor_distance)
    if name in ("reach", "wall"):
        ax, ay, bx, by = segments[0]
        data = segment_distance_squared(ax - p[0], ay - p[1], bx - p[0], by - p[1])
        if name == "wall":
            return data, (lambda r: r, a.params.radius)
        return data, (lambda tho: tho * a.params.max_speed + a.params.radius, a.params.time_horizon_obst)
    g = a.waypoints[0]
    data = (g[0] - p[0]) * (g[0] - p[0]) + (g[1] - p[1]) * (g[1] - p[1])
    if name == "waypoint":
        return data, (lambda gr: gr, a.goal_radius)
    assert len(a.waypoints) == 1
    return data, (lambda ms: ms * DT, a.params.max_speed)


def decides(name: str, data: float, t: float) -> bool:
    """The reference's test: squares (strict for the neighbor range), roots for the arrival."""
    if name == "arrival":
        return math.sqrt(data) <= t
    return data < t * t if name == "neighbor" else data <= t * t


@pytest.mark.parametrize("name", DECISIONS)
def test_each_decision_lands_in_each_band(name: str) -> None:
    gaps = []
    for band in BANDS:
        for seed in range(SEEDS):
            v = decision_vignette(random.Random(f"{name} {band} {seed}"), (64.0, 0.0), DT, name, band)
            assert v.band == f"{band}:{name}", (seed, v.band)
            data, (threshold, param) = quantities(name, v.agents, v.segments)
            t = threshold(param)
            if band == "edge":
                gap = bits(t) - bits(math.sqrt(data)) if name == "arrival" else bits(t * t) - bits(data)
                assert abs(gap) <= EDGE_ULPS, (seed, gap)
                gaps.append(gap)
            elif band == "roots":  # the roots agree, the squares do not
                assert math.sqrt(data) == t and data != t * t, (seed, data, t)
            else:  # not a float32, and its float32 rounding decides the other way
                assert f32(param) != param
                assert decides(name, data, t) != decides(name, data, threshold(f32(param))), seed
    assert min(gaps) < 0 < max(gaps) and 0 in gaps, gaps  # both sides, and exact ties


def test_the_roots_versus_squares_pair() -> None:
    """The overlap pair of the roots band: fl(d*d) != fl(r*r) while sqrt(fl(d*d)) == r."""
    for seed in range(SEEDS):
        v = decision_vignette(random.Random(seed), (0.0, -64.0), DT, "overlap", "roots")
        (px, py), (qx, qy) = v.agents[0].position, v.agents[1].position
        d2 = (qx - px) * (qx - px) + (qy - py) * (qy - py)
        r = v.agents[0].params.radius + v.agents[1].params.radius
        assert d2 != r * r and math.sqrt(d2) == r


def test_order_zeros_and_tiny_vignettes_land_in_their_bands() -> None:
    gaps = set()
    for seed in range(SEEDS):
        rng = random.Random(seed)
        order = VIGNETTES["order"](rng, (0.0, 0.0), DT)
        p, q1, q2 = (a.position for a in order.agents)
        d2 = (q2[0] - p[0]) * (q2[0] - p[0]) + (q2[1] - p[1]) * (q2[1] - p[1])
        d1 = (q1[0] - p[0]) * (q1[0] - p[0]) + (q1[1] - p[1]) * (q1[1] - p[1])
        gap = bits(d1) - bits(d2)  # the later neighbor is nearer by this many ulps (0: a tie)
        assert 0 <= gap <= 8 and order.band == f"order:{gap}" and order.agents[0].params.max_neighbors == 1
        assert f32(d1) == f32(d2) and math.sqrt(d1) - math.sqrt(d2) <= 2 * math.ulp(math.sqrt(d1))
        gaps.add(gap)
        zeros = VIGNETTES["zeros"](rng, (0.0, 64.0), DT)
        a, b = zeros.agents[:2]
        assert negative(b.position[0] - a.position[0]) and not negative(a.position[0] - b.position[0])
        assert negative(a.waypoints[0][0] - a.position[0])  # a -0.0 goal offset
        assert all(v == 0.0 for agent in zeros.agents for v in agent.velocity)
        assert all(negative(s[0]) for s in zeros.segments)
        tiny = VIGNETTES["tiny"](rng, (64.0, 0.0), DT)
        parts = tiny.band.removeprefix("tiny:").split(",")
        if "segment" in parts:
            assert 0.0 < math.dist(tiny.segments[0][:2], tiny.segments[0][2:]) < 1e-5
        if "wedge" in parts:  # two walls of length 4 whose directions differ by less than 1e-5
            (ax, ay, bx, by), (cx, cy, dx, dy) = tiny.segments[-2:]
            assert (ax, ay) == (cx, cy) and abs((bx - ax) * (dy - cy) - (by - ay) * (dx - cx)) / 16.0 < 1e-5
        if "pair" in parts:
            assert math.dist(tiny.agents[0].position, tiny.agents[1].position) < 1e-5
        if "velocity" in parts:
            assert all(0.0 < abs(v) < 1e-5 for v in tiny.agents[0].velocity)
    assert {0, 1} <= gaps, gaps


def test_bands_scenes_are_valid_cheap_and_keep_their_signed_zeros() -> None:
    assert KINDS[-1] == "bands"
    indices = [i for i in range(40 * len(KINDS)) if KINDS[i % len(KINDS)] == "bands"]
    signed = 0
    for index in indices:
        fs = make_scene(5, index)
        scene = fs.scene
        assert fs.kind == "bands" and Scene.from_json(scene.to_json()).fingerprint() == scene.fingerprint()
        assert 2 <= len(scene.agents) <= 15 and 15 <= scene.steps <= 30 and 0 < scene.dt <= 1
        assert all(a.params.radius > 0 and a.params.time_horizon_obst > 0 for a in scene.agents)
        signed += any(negative(a.position[0]) for a in scene.agents)
    assert signed > 0  # the scene's coordinates are handed over as built: no offset turns -0.0 into 0.0


def test_the_c_port_and_its_cli_agree_with_the_reference_on_bands_scenes() -> None:
    result = fuzz.run_fuzz(["c", "c:cli"], seed=2, count=60, seconds=None, kinds=("bands",),
                           expected=fuzz.Expected(), vector_folder=VECTORS)
    assert result.findings == [], [fuzz.format_finding(f) for f in result.findings]
    assert result.passed == {"c": 60, "c:cli": 60}


@pytest.fixture(scope="module")
def planted() -> CffiRunner:
    tree = patched_tree((load_patch(PLANTED),))
    return CffiRunner(CVariant("c-variant:float32-neighbor-distance", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))


def test_the_float32_neighbor_distance_port_is_found_by_bands_and_shrunk(planted: CffiRunner, tmp_path: Path) -> None:
    result = fuzz.run_fuzz([planted], seed=0, count=BANDS_BUDGET, seconds=None, kinds=("bands",),
                           expected=fuzz.Expected(), vector_folder=VECTORS, shrink_to=tmp_path, stop_at_divergence=True)
    finding = next((f for f in result.findings if f.cell.status == DIVERGED), None)
    assert finding is not None, f"not found in {result.scenes} bands scenes"
    assert result.scenes <= BANDS_BUDGET
    assert finding.cell.diagnosis.citation.primary == "neighbors.agents", finding.cell.reason
    shrunk = finding.shrunk
    assert shrunk is not None and complexity(shrunk.scene) < complexity(finding.scene.scene)
    assert len(shrunk.scene.agents) <= 2 and not shrunk.scene.segments and shrunk.scene.steps <= 2, shrunk.size()
    assert fuzz.divergence_oracle(planted)(shrunk.scene) is not None  # still fails
    assert fuzz.divergence_oracle(resolve("c"))(shrunk.scene) is None  # and the right port passes it
    nd = {a.params.neighbor_distance for a in shrunk.scene.agents}
    assert any(f32(v) != v for v in nd), nd  # the band it sits in: a neighbor distance that is no float32


def test_the_other_kinds_miss_the_planted_port(planted: CffiRunner) -> None:
    """Why the kind exists: the same number of scenes of every other kind (and more) pass."""
    others = tuple(k for k in KINDS if k != "bands")
    result = fuzz.run_fuzz([planted], seed=0, count=OLD_KINDS_SCENES, seconds=None, kinds=others,
                           expected=fuzz.Expected(), vector_folder=VECTORS, with_vectors=False)
    assert result.findings == [] and result.passed[planted.id] == OLD_KINDS_SCENES
