"""The exec runner survives misbehaving ports: every one becomes a failed cell with a reason."""

from __future__ import annotations

import sys
import time

import pytest

from conformance.judge.matrix import ERROR, PASS, run_matrix
from conformance.runners.exec_runner import ExecRunner, Limits
from conformance.contract.scenario import load_scenario
from conftest import FAKE_PORT, ROOT

SCENARIO = load_scenario(ROOT / "scenarios" / "orca" / "head-on-perturbed.yaml")
LIMITS = Limits(handshake=15.0, reply=5.0, run=20.0, line_bytes=4 * 1024 * 1024)
"""The fake port imports the suite before it answers hello: on a loaded 2-core host that took
over 5 s once, so the handshake has 15 s (the no-hang bound below still holds)."""


HANG_LIMITS = {
    "hang-hello": Limits(handshake=1.5, reply=5.0, run=20.0, line_bytes=4 * 1024 * 1024),
    "hang-run": Limits(handshake=15.0, reply=1.0, run=20.0, line_bytes=4 * 1024 * 1024),
    "no-read": Limits(handshake=15.0, reply=1.0, run=20.0, line_bytes=4 * 1024 * 1024),
}
"""For the ports that stop answering: the limit they hit is waited out whole, and no answer is
coming however loaded the host, so it is short (the other limits stay as above; no reply the
port does give is timed by the short one: hang-hello gives none, the other two only hello)."""


def fake(mode: str) -> ExecRunner:
    return ExecRunner(f"exec:fake-{mode}", [sys.executable, str(FAKE_PORT), mode], HANG_LIMITS.get(mode, LIMITS))


def cell(mode: str):
    runner = fake(mode)
    started = time.monotonic()
    result = run_matrix([SCENARIO], [runner], ROOT / "goldens", with_vectors=False, with_protocol=False)
    elapsed = time.monotonic() - started
    c = result.cells[(SCENARIO.id, runner.id)]
    print(mode, c.status, c.reason[:300], f"{elapsed:.1f} s")
    return c, elapsed


def test_honest_fake_passes() -> None:
    c, _ = cell("honest")
    assert c.status == PASS and c.compared == SCENARIO.scene.steps + 1


@pytest.mark.parametrize("mode, reason", [
    ("crash", "port exited (status 3)"),
    ("segfault", "SIGSEGV"),
    ("hang-hello", "no reply to hello within"),
    ("hang-run", "no reply to run"),
    ("flood", "reply to run (step 150) longer than 1024 bytes (the limit for run lines; docs/protocol.md#limits)"),
    ("garbage", "garbage reply to run"),
    ("short", "returned 300 states, expected 301"),
    ("long", "returned more than the 301 states asked for"),
    ("nan", "non-finite state at step 150"),
    ("no-read", "no reply to run"),
    ("bad-hello", "reply to hello does not follow the protocol (hello-reply.schema.json): protocol: 3 is not one of [2, 1]"),
    ("unknown-family", "reply to hello does not follow the protocol (docs/protocol.md#hello): provides[1]: "
                       "'segmnet_constraint' (did you mean 'segment_constraint'?) and provides[2]: 'agent_stepper' "
                       "(did you mean 'agent_step'?) are not vector families of the suite"),
    ("upper-hash", "reply to run (step 0) does not follow the protocol (run-step-reply.schema.json): hash: '"),
    ("string-step", "(run-step-reply.schema.json): step: '150' is not of type 'integer'"),
    ("extra-field", "(run-step-reply.schema.json): time_ms: unknown key 'time_ms'"),
    ("spam-stderr", "port exited (status 4)"),
])
def test_misbehaving_port_is_a_failed_cell(mode: str, reason: str) -> None:
    c, elapsed = cell(mode)
    assert c.status == ERROR
    assert reason in c.reason
    assert elapsed < 30.0  # limits held: no hang


@pytest.mark.parametrize("mode, kind", [("garbage", "BadReply"), ("upper-hash", "BadReply"), ("extra-field", "BadReply"),
                                        ("bad-hello", "BadReply"), ("crash", "RunnerError"), ("hang-run", "NoReply")])
def test_the_failure_is_typed_by_what_the_port_did(mode: str, kind: str) -> None:
    """The judge dispatches on the class, never on the reason's words: a line that is no reply
    is a ``BadReply``, a port that exits a plain ``RunnerError``, silence a ``NoReply``."""
    from conformance.runners import base
    runner = fake(mode)
    try:
        with pytest.raises(base.RunnerError) as raised:
            runner.info()
            list(runner.hashes(SCENARIO.scene, SCENARIO.scene.steps))
    finally:
        runner.close()
    assert type(raised.value) is getattr(base, kind), (type(raised.value), raised.value.reason)


def test_stderr_tail_is_kept_and_bounded() -> None:
    c, _ = cell("spam-stderr")
    assert "last words before the crash" in c.reason
    assert len(c.reason) < 2000


def test_suite_goes_on_after_a_crash() -> None:
    crash, honest = fake("crash"), fake("honest")
    result = run_matrix([SCENARIO, SCENARIO], [crash, honest], ROOT / "goldens", with_vectors=False, with_protocol=False)
    statuses = [c.status for c in result.cells.values()]
    assert statuses.count(ERROR) == 1 and statuses.count(PASS) == 1


def test_missing_executable_is_an_error_not_a_crash() -> None:
    runner = ExecRunner("exec:nope", ["/nonexistent/port"], LIMITS)
    result = run_matrix([SCENARIO], [runner], ROOT / "goldens", with_vectors=False, with_protocol=False)
    c = result.cells[(SCENARIO.id, runner.id)]
    assert c.status == ERROR and "cannot start" in c.reason


@pytest.mark.parametrize("mode, provides", [("honest", None), ("protocol-1", None), ("protocol-2", None),
                                            ("wrapper", ())])
def test_both_protocols_are_accepted_and_provides_reaches_the_info(mode: str, provides) -> None:
    """protocol 1 (asked again after it refuses 2) and protocol 2 without ``provides`` answer every
    family; a protocol-2 ``provides`` is the runner's."""
    runner = fake(mode)
    try:
        info = runner.info()
        assert info.provides == provides
        assert ("provides" in info.to_json()) == (provides is not None)
    finally:
        runner.close()
    if mode != "wrapper":
        c, _ = cell(mode)
        assert c.status == PASS


def test_a_port_that_provides_no_family_is_not_provided_without_noise() -> None:
    """A wrapped library that answers no family: the vectors row is NOT PROVIDED (nothing asked,
    no error), and a diverging scene is diagnosed from the scenes alone."""
    from conformance.judge.matrix import DIVERGED, NOT_PROVIDED, VECTORS_ROW
    from conformance.judge.provided import AGENT_STEP_NOT_PROVIDED
    wall = load_scenario(ROOT / "scenarios" / "orca" / "overlap-wall-deep.yaml")
    runner = fake("wrapper")
    result = run_matrix([wall, SCENARIO], [runner], ROOT / "goldens")
    row = result.cells[(VECTORS_ROW, runner.id)]
    assert row.status == NOT_PROVIDED and row.compared == 0
    assert row.reason == ("not provided (the port's hello): segment_distance_squared, support_distance, "
                          "agent_case_form, agent_constraint, segment_constraint, for_boundary, solve_closest, "
                          "solve_direction, relax, obstacle_neighbors, agent_neighbors, splitmix64, uniform, "
                          "preferred_velocity, agent_step; 0 of 15 families pass")
    assert result.cells[(SCENARIO.id, runner.id)].status == PASS
    diverged = result.cells[(wall.id, runner.id)]
    assert diverged.status == DIVERGED and diverged.diagnosis is not None
    d = diverged.diagnosis
    said = " ".join([diverged.reason, d.headline, *d.notes])
    for noise in ("unknown family", "(vectors)", "failed", "not implemented"):
        assert noise not in said, (noise, said)
    assert d.vector_family is None and d.notes == (AGENT_STEP_NOT_PROVIDED,)
    assert d.cause.startswith("solver bug: same state and preferred velocities at step")


@pytest.mark.parametrize("reply", [
    {"step": 0, "hash": "0" * 64}, {"step": 12, "hash": "ab" * 32},  # the plain case
    {"step": 1.0, "hash": "0" * 64}, {"step": True, "hash": "0" * 64}, {"step": -1, "hash": "0" * 64},
    {"step": 1, "hash": "0" * 64 + "\n"}, {"step": 1, "hash": "A" * 64}, {"step": 1, "hash": "0" * 63},
    {"step": 1, "hash": "0" * 64, "extra": 1}, {"step": 1}, {"hash": "0" * 64}, {"step": "1", "hash": "0" * 64},
])
def test_the_plain_step_reply_shortcut_agrees_with_the_schema(reply: dict) -> None:
    """The shortcut for the common run-step line accepts only what the schema accepts, and every
    other reply is judged by the schema itself, its reason naming the field."""
    from conformance.contract import schema_files
    from conformance.runners.exec_runner import schema_problem
    by_schema = schema_files.problem("protocol/run-step-reply", reply)
    assert (schema_problem(reply, "run-step-reply") is None) == (by_schema is None), (reply, by_schema)
