"""Neighbor selection: the grid returns exactly what brute force returns."""

import random

from conformance.solver.neighbors import (AgentGrid, agent_neighbors_brute_force,
                                          obstacle_neighbors)


def test_grid_equals_brute_force_on_random_scenes() -> None:
    rng = random.Random(7)
    compared = 0
    nonempty = 0
    for scene in range(60):
        n = rng.randint(1, 150)
        spread = rng.choice([2.0, 10.0, 40.0])
        xs = [rng.uniform(-spread, spread) for _ in range(n)]
        ys = [rng.uniform(-spread, spread) for _ in range(n)]
        # heterogeneous neighbor distances; the grid is sized by the largest
        nds = [rng.choice([0.0, 1.0, 3.0, 5.0, rng.uniform(0.1, 6.0)]) for _ in range(n)]
        mns = [rng.choice([0, 1, 3, 10, 200]) for _ in range(n)]
        grid = AgentGrid(xs, ys, max(nds))
        for i in range(n):
            got = grid.neighbors(i, nds[i], mns[i])
            want = agent_neighbors_brute_force(i, xs, ys, nds[i], mns[i])
            assert got == want, (scene, i)
            compared += 1
            nonempty += bool(want)
    assert compared > 3000 and nonempty > 1000


def test_ties_at_equal_squared_distance_break_by_index() -> None:
    # agent 0 at the centre of a ring of 8 agents at equal squared distance 1 (axis) or 2
    pts = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0),
           (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
    order = [4, 2, 3, 1, 8, 5, 7, 6]  # shuffle the indices so the order is not insertion order
    xs = [0.0] * 9
    ys = [0.0] * 9
    for slot, (x, y) in zip([0] + order, pts):
        xs[slot] = x
        ys[slot] = y
    grid = AgentGrid(xs, ys, 2.0)
    got = grid.neighbors(0, 2.0, 6)
    assert got == agent_neighbors_brute_force(0, xs, ys, 2.0, 6)
    assert [j for _, j in got] == [1, 2, 3, 4, 5, 6]
    assert [d for d, _ in got] == [1.0, 1.0, 1.0, 1.0, 2.0, 2.0]


def test_grid_cell_boundaries_and_exact_radius() -> None:
    # a neighbor exactly at neighborDistance is excluded (strict <); just inside is included
    xs = [0.0, 5.0, -4.999999999, 2.5, 10.0 - 1e-12]
    ys = [0.0, 0.0, 0.0, 4.33, 0.0]
    grid = AgentGrid(xs, ys, 5.0)
    got = [j for _, j in grid.neighbors(0, 5.0, 10)]
    assert got == [j for _, j in agent_neighbors_brute_force(0, xs, ys, 5.0, 10)]
    assert 1 not in got and 2 in got and 3 in got and 4 not in got


def test_obstacles_ordered_by_distance_then_index() -> None:
    segments = [(3.0, -1.0, 3.0, 1.0), (-2.0, -1.0, -2.0, 1.0), (-1.0, 2.0, 1.0, 2.0),
                (10.0, 0.0, 11.0, 0.0), (-1.0, -2.0, 1.0, -2.0)]
    got = obstacle_neighbors(0.0, 0.0, 3.0, segments)
    assert got == [(4.0, 1), (4.0, 2), (4.0, 4), (9.0, 0)]


def test_tiny_cells_fall_back_to_brute_force() -> None:
    # 1e3 / 1e-150 is far outside the exact-integer range of cell indices
    xs = [0.0, 1e3, 1e3]
    ys = [0.0, 0.0, 0.0]
    grid = AgentGrid(xs, ys, 1e-150)
    assert grid.brute_force
    assert grid.neighbors(1, 1e-150, 5) == agent_neighbors_brute_force(1, xs, ys, 1e-150, 5) == [(0.0, 2)]
