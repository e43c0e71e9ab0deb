"""The worked example of orca-lesson.txt, through the reference solver."""

from conformance.solver.constraint import agent_constraint
from conformance.solver.obstacle import agent_case_form


def close(a: float, b: float, tol: float = 5e-5) -> bool:
    return abs(a - b) <= tol


def test_lesson_u_and_half_planes() -> None:
    # A at (0, 0) moving (1, 0); B at (6, 0.5) moving (-1, 0); radii 0.4 each; tau = 5.
    ux, uy, nx, ny = agent_case_form(6.0, 0.5, 0.8, 5.0, 2.0, 0.0)
    print("u =", ux, uy, "n =", nx, ny)
    assert close(ux, -0.0050) and close(uy, -0.1001)
    # right (lower) leg: the normal points down and slightly back
    assert ny < 0.0 and nx < 0.0
    pa = agent_constraint(6.0, 0.5, 0.8, 5.0, 0.1, 1.0, 0.0, -1.0, 0.0)
    pb = agent_constraint(-6.0, -0.5, 0.8, 5.0, 0.1, -1.0, 0.0, 1.0, 0.0)
    print("A's plane", pa, "B's plane", pb)
    assert close(pa[0], 0.9975) and close(pa[1], -0.0500)
    assert close(pb[0], -0.9975) and close(pb[1], 0.0500)
    # reciprocity: B's normal is A's reversed, and the new relative velocity is v + u
    assert pb[2] == -pa[2] and pb[3] == -pa[3]
    assert close(pa[0] - pb[0], 2.0 + ux) and close(pa[1] - pb[1], uy)


def test_lesson_head_on_has_no_sideways_push() -> None:
    # B moved to (6, 0): cross(a, w) == 0 takes the right leg; u has the leg's direction.
    ux, uy, nx, ny = agent_case_form(6.0, 0.0, 0.8, 5.0, 2.0, 0.0)
    print("head-on u =", ux, uy, "n =", nx, ny)
    assert ny < 0.0  # right leg for both agents of the pair
    ux_b, uy_b, nx_b, ny_b = agent_case_form(-6.0, 0.0, 0.8, 5.0, -2.0, 0.0)
    # the mirrored pair takes the mirrored (again right) leg: same turning sense
    assert ny_b > 0.0 and nx_b == -nx
