"""The driver: SplitMix64, exact uniforms, waypoints and the arrival rule."""

from math import sqrt

from conformance.contract.driver import Driver, build_simulator, run, splitmix64, uniform
from conformance.contract.scenario import AgentSpec, Scene
from conformance.solver import AgentParams

PARAMS = AgentParams(0.5, 1.0, 5.0, 10, 2.0, 2.0)


def scene(agents, steps=10, dt=0.1, seed=0, magnitude=0.0) -> Scene:
    return Scene(dt, steps, seed, magnitude, tuple(agents), ())


def test_splitmix64_matches_the_published_stream() -> None:
    # SplitMix64 seeded with 0: the first outputs of the reference implementation
    assert splitmix64(0, 0) == 0xE220A8397B1DCDAF
    assert splitmix64(0, 1) == 0x6E789E6AA1B965F4
    assert splitmix64(0, 2) == 0x06C45D188009454F


def test_uniform_is_exact_and_in_range() -> None:
    values = [uniform(12345, n) for n in range(20000)]
    assert min(values) >= -1.0 and max(values) < 1.0
    assert min(values) < -0.99 and max(values) > 0.99
    for n, v in enumerate(values[:100]):
        assert v == ((splitmix64(12345, n) >> 11) - 2 ** 52) / 2 ** 52


def test_arrival_never_overshoots() -> None:
    agent = AgentSpec((0.0, 0.0), (0.0, 0.0), PARAMS, 0.01, ((0.25, 0.0),))
    sc = scene([agent], steps=5)
    sim = build_simulator(sc)
    driver = Driver(sc)
    assert driver.preferred_velocity(sim, 0, 0) == (1.0, 0.0)
    sim.px[0] = 0.2
    px, py = driver.preferred_velocity(sim, 0, 1)
    assert (px, py) == ((0.25 - 0.2) / 0.1, 0.0)  # d / dt, lands on the goal


def test_waypoints_advance_within_goal_radius() -> None:
    agent = AgentSpec((0.0, 0.0), (0.0, 0.0), PARAMS, 0.5, ((0.3, 0.0), (0.3, 4.0), (9.0, 9.0)))
    sc = scene([agent])
    sim = build_simulator(sc)
    driver = Driver(sc)
    px, py = driver.preferred_velocity(sim, 0, 0)
    dist = sqrt(0.3 * 0.3 + 4.0 * 4.0)
    assert driver.waypoint[0] == 1
    assert (px, py) == (0.3 / dist * 1.0, 4.0 / dist * 1.0)
    sim.py[0] = 3.7  # within 0.5 of (0.3, 4.0): on to the last waypoint, never beyond it
    driver.preferred_velocity(sim, 0, 1)
    assert driver.waypoint[0] == 2
    sim.px[0], sim.py[0] = 9.0, 9.0
    driver.preferred_velocity(sim, 0, 2)
    assert driver.waypoint[0] == 2


def test_perturbation_uses_step_and_agent_counter() -> None:
    agents = [AgentSpec((0.0, float(i)), (0.0, 0.0), PARAMS, 0.1, ((10.0, float(i)),)) for i in range(3)]
    sc = scene(agents, seed=99, magnitude=0.001)
    sim = build_simulator(sc)
    driver = Driver(sc)
    px, py = driver.preferred_velocity(sim, 2, 7)
    n = 2 * (7 * 3 + 2)
    assert (px, py) == (1.0 + 0.001 * uniform(99, n), 0.0 + 0.001 * uniform(99, n + 1))


def test_run_yields_steps_plus_one_states() -> None:
    agent = AgentSpec((0.0, 0.0), (0.0, 0.0), PARAMS, 0.1, ((5.0, 0.0),))
    states = list(run(scene([agent], steps=7)))
    assert len(states) == 8 and len(set(states)) == 8
