"""Edge cases of the neighbor queries (part of vector_edges.py's table): crowds, lattices on
the grid's cell boundaries, positions beyond the cell range, segments exactly at reach.

Contract: each function returns raw argument lists for its family from the given generator;
the results always come from the reference. The agent cases aim at what a grid-based port can
get wrong while a brute-force search cannot: cell hashing and probing, pruning by cell boxes,
pairs exactly nd apart, cell indices at exact integers, and more candidates at once than a
port's buffers hold.
"""

from __future__ import annotations

import random

from .vector_lattice import small


def agent_neighbors(rng: random.Random) -> list[list]:
    cases = []
    for _ in range(60):
        # many agents, small cells: hash collisions, probing, pruning by cell boxes with a
        # tight bound (few neighbors wanted), clusters and empty cells, negative coordinates
        n = rng.randint(40, 160)
        spread = rng.choice([5.0, 20.0, 60.0])
        centres = [(rng.uniform(-spread, spread), rng.uniform(-spread, spread)) for _ in range(rng.randint(1, 6))]
        xs, ys = [], []
        for _ in range(n):
            cx, cy = rng.choice(centres)
            xs.append(cx + rng.gauss(0.0, spread / 8))
            ys.append(cy + rng.gauss(0.0, spread / 8))
        nd = rng.choice([0.5, 1.0, 2.0, 4.0])
        cases.append([rng.randrange(n), xs, ys, nd, rng.choice([1, 2, 3, 5, 10, 200])])
    for _ in range(30):
        # agents on the cell boundaries: a lattice of spacing nd, so distances equal nd
        nd = rng.choice([1.0, 0.5, 2.0])
        n = rng.randint(10, 60)
        xs = [nd * rng.randint(-4, 4) for _ in range(n)]
        ys = [nd * rng.randint(-4, 4) for _ in range(n)]
        cases.append([rng.randrange(n), xs, ys, nd * rng.choice([1.0, 1.5, 2.0]), rng.choice([1, 4, 8, 100])])
    for _ in range(20):
        # agents on and just below multiples of the C port's cell width nd * (1 + 2^-10): cell
        # indices from floor at exact integers, pairs just inside nd in cells two apart when
        # the cells are narrower than nd
        nd = rng.choice([1.0, 0.5, 2.0])
        width = nd * (1.0 + 1.0 / 1024.0)
        n = rng.randint(6, 30)
        xs = [width * rng.randint(-3, 3) - rng.choice([0.0, 0.0, 1e-3 * nd]) for _ in range(n)]
        ys = [width * rng.randint(-3, 3) - rng.choice([0.0, 0.0, 1e-3 * nd]) for _ in range(n)]
        cases.append([rng.randrange(n), xs, ys, nd, rng.choice([3, 100])])
    for _ in range(16):
        # crowds: more candidates within the bound than the C port's query buffers at once (32),
        # with maxNeighbors below, just above and far above that, so the list is still filling
        # when the buffer is first inserted
        nd = rng.choice([1.0, 2.0, 3.0])
        n = rng.randint(40, 120)
        xs = [rng.uniform(-0.6 * nd, 0.6 * nd) for _ in range(n)]
        ys = [rng.uniform(-0.6 * nd, 0.6 * nd) for _ in range(n)]
        cases.append([rng.randrange(n), xs, ys, nd, rng.choice([10, 31, 32, 33, 40, 64, 200])])
    # the same beside an agent far beyond the cell range (every agent scanned)
    crowd = [rng.uniform(-1.0, 1.0) for _ in range(60)]
    cases.append([7, crowd + [1e300], [rng.uniform(-1.0, 1.0) for _ in range(60)] + [0.0], 3.0, 45])
    cases.append([0, [0.999, 1.9985, 5.0], [0.0, 0.0, 0.0], 1.0, 10])
    cases.append([1, [0.0, 0.0, 0.0], [5.0, 0.999, 1.9985], 1.0, 10])
    # positions far beyond the cell range (the grid scans every agent then)
    cases.append([0, [0.0, 1e300, 0.5, -1e300, 0.25], [0.0, 0.0, 0.0, 0.0, 0.5], 1.0, 10])
    cases.append([2, [1e20, 1e20 + 1e5, 1e20, -1e20], [0.0, 0.0, 1e4, 0.0], 1e-30, 3])
    return cases


def obstacle_neighbors(rng: random.Random) -> list[list]:
    cases = []
    for _ in range(60):
        # segments at reach exactly (integer geometry), duplicates for ties by index
        segs = [(small(rng), small(rng), small(rng), small(rng)) for _ in range(rng.randint(1, 8))]
        if segs and rng.random() < 0.3:
            segs.append(rng.choice(segs))
        cases.append([small(rng), small(rng), rng.choice([1.0, 2.0, 3.0, 0.5]), segs])
    return cases
