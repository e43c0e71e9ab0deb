"""The step: order and split independence, zero agents, the two-phase update."""

import random

from conformance.solver import AgentParams, Simulator


def random_scene(seed: int, n: int = 60) -> Simulator:
    rng = random.Random(seed)
    segments = [(rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(-8, 8))
                for _ in range(4)]
    sim = Simulator(segments)
    for _ in range(n):
        prm = AgentParams(radius=rng.uniform(0.2, 0.6), max_speed=rng.uniform(0.5, 2.0),
                          neighbor_distance=rng.uniform(2.0, 6.0), max_neighbors=rng.randint(1, 12),
                          time_horizon=rng.uniform(1.0, 5.0), time_horizon_obst=rng.uniform(0.5, 3.0))
        i = sim.add_agent((rng.uniform(-8, 8), rng.uniform(-8, 8)), prm,
                          (rng.uniform(-1, 1), rng.uniform(-1, 1)))
        sim.pref_x[i] = rng.uniform(-2, 2)
        sim.pref_y[i] = rng.uniform(-2, 2)
    return sim


def state(sim: Simulator) -> list[float]:
    return sim.px + sim.py + sim.vx + sim.vy


def test_shuffled_order_and_chunks_give_identical_bits() -> None:
    dt = 0.1
    base = random_scene(3)
    for _ in range(20):
        base.step(dt)
    reference = random_scene(3)
    shuffled = random_scene(3)
    chunked = random_scene(3)
    rng = random.Random(11)
    for _ in range(20):
        reference.step(dt)
        order = list(range(len(shuffled)))
        rng.shuffle(order)
        shuffled.apply(shuffled.new_velocities(dt, order), dt)
        grid = chunked.grid()
        velocities: dict[int, tuple[float, float]] = {}
        for lo in reversed(range(0, len(chunked), 7)):  # seven-agent chunks, last first
            velocities.update(chunked.new_velocities(dt, range(lo, min(lo + 7, len(chunked))), grid))
        chunked.apply(velocities, dt)
    assert state(reference) == state(base)
    assert state(shuffled) == state(reference)
    assert state(chunked) == state(reference)
    assert state(reference) != state(random_scene(3))  # the scene really moved


def test_new_velocities_use_start_of_step_state() -> None:
    sim = random_scene(5, 30)
    dt = 0.25
    before = sim.new_velocities(dt)
    again = sim.new_velocities(dt)  # computing twice changes nothing
    assert before == again
    sim.step(dt)
    assert [(sim.vx[i], sim.vy[i]) for i in range(len(sim))] == [before[i] for i in range(len(sim))]


def test_zero_agents_is_a_no_op() -> None:
    sim = Simulator([(0.0, 0.0, 1.0, 0.0)])
    sim.step(0.1)
    assert len(sim) == 0 and sim.segments == [(0.0, 0.0, 1.0, 0.0)]


def test_position_update_is_componentwise() -> None:
    prm = AgentParams(0.5, 2.0, 0.0, 0, 2.0, 2.0)
    sim = Simulator()
    sim.add_agent((0.1, 0.2), prm)
    sim.pref_x[0] = 0.3
    sim.pref_y[0] = -0.7
    sim.step(0.1)
    assert (sim.vx[0], sim.vy[0]) == (0.3, -0.7)
    assert (sim.px[0], sim.py[0]) == (0.1 + 0.3 * 0.1, 0.2 + -0.7 * 0.1)
