"""Every red cell names the true cause: each diagnosis class, met by a deliberately wrong build.

The wrong builds are entries of the misreading catalogue (runners/c/misreadings/): the C port's
production sources plus one plausible mistake.  The tests assert on the diagnosis (its kind, the
agent, the constraint, the words of the cause), never on a step number: a step is whatever the
scene makes it.
"""

from __future__ import annotations

import json
import math

import pytest

from conformance.selftest.controls import careless

from conformance.judge import causes, hash_encoding, step_comparison, vector_failure

from conformance.data import vectors
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.judge.matrix import DIVERGED, ERROR, PASS, compare_scenario, vector_cell
from conformance.judge.provided import AGENT_STEP_NOT_PROVIDED
from conformance.runners.base import NonFinite, OutOfMemory, Refused, StateDump
from conformance.runners.exec_runner import error_reply
from conformance.contract.state_hash import FIELDS
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.runners.cli_port import CliRunner, cli_spec
from conformance.runners.reference import ReferenceRunner
from conformance.contract.scenario import Scene, load_scenario
from conformance.selftest.controls.patches import SourcePatch, load_patch, patched_tree
from conftest import ROOT

GOLDENS = ROOT / "goldens"
MISREADINGS = ROOT / "runners" / "c" / "misreadings"
REFERENCE = ReferenceRunner()
FLAGS = DETERMINISM_FLAGS + ("-O2",)


def scenario(name: str):
    return load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")


def misreading(name: str) -> CffiRunner:
    """The C port with one catalogue entry applied, built like the ``c`` column."""
    tree = patched_tree((load_patch(MISREADINGS / f"{name}.json"),))
    return CffiRunner(CVariant(f"misreading:{name}", system_cc(), FLAGS, tree))


def cell(runner, name: str, failure=None):
    found = compare_scenario(scenario(name), runner, GOLDENS, REFERENCE, failure)
    print(found.status, found.reason)
    if found.diagnosis is not None:
        print("notes:", found.diagnosis.notes)
    return found


NEW_ENTRIES = ("hash-big-endian", "hash-field-order", "hash-normalised-zero", "move-with-old-velocity",
               "sequential-step", "horizon-swap", "reach-without-radius", "arrive-as-speed-clamp")


@pytest.mark.parametrize("name", NEW_ENTRIES)
def test_catalogue_entries_are_well_formed(name: str) -> None:
    data = json.loads((MISREADINGS / f"{name}.json").read_text())
    assert data["why"].strip() and data["site"].strip() and data["kind"].strip()
    load_patch(MISREADINGS / f"{name}.json")  # every find occurs in the production sources exactly once
    patched_tree((load_patch(MISREADINGS / f"{name}.json"),))


# ----------------------------------------------------------------------------- hash encoding

@pytest.mark.parametrize("name, scene, encoding", [
    ("hash-big-endian", "head-on-exact", "big-endian doubles"),
    ("hash-field-order", "overlap-agents", "velocity.x, velocity.y, position.x, position.y"),
    ("hash-normalised-zero", "degenerate", "-0.0 written as +0.0"),
])
def test_a_wrong_hash_encoding_is_named_with_the_encoding(name: str, scene: str, encoding: str) -> None:
    found = cell(misreading(name), scene)
    d = found.diagnosis
    assert found.status == DIVERGED
    assert d.kind == causes.ENCODING and d.state is None  # the dumped states are bit-equal
    assert d.cause.startswith("the state hash encoding is wrong: the dumped state of step")
    assert encoding in d.encoding and encoding in d.cause
    assert "not loaded exactly" not in d.cause and "solver bug" not in d.cause


def test_wrong_encodings_reproduce_what_a_port_would_hash() -> None:
    rows = ((1.5, -0.0, 0.25, 3.0), (-2.0, 7.0, 0.0, -1.0))
    by_name = dict(hash_encoding.wrong_encodings(rows))
    import hashlib
    import struct
    flat = [v for r in rows for v in r]
    assert by_name["big-endian doubles"] == hashlib.sha256(struct.pack(">8d", *flat)).hexdigest()
    zeroed = [0.0 if v == 0.0 else v for v in flat]
    assert by_name["-0.0 written as +0.0"] == hashlib.sha256(struct.pack("<8d", *zeroed)).hexdigest()
    assert by_name["positions only"] == hashlib.sha256(struct.pack("<4d", 1.5, -0.0, -2.0, 7.0)).hexdigest()


class _LoadedInFloat32(ReferenceRunner):
    """A port that reads the scene's positions as single precision: a real load error."""

    def __init__(self) -> None:
        super().__init__("fake:float32-load")

    @staticmethod
    def _scene(scene: Scene) -> Scene:
        data = scene.to_json()
        for agent in data["agents"]:
            agent["position"] = [float(f"{v:.7g}") for v in agent["position"]]
        return Scene.from_json(data)

    def hashes(self, scene, steps=None):
        return super().hashes(self._scene(scene), steps)

    def dump(self, scene, step) -> StateDump:
        return super().dump(self._scene(scene), step)


def test_a_real_load_error_keeps_its_own_cause() -> None:
    found = cell(_LoadedInFloat32(), "antipodal-circle-100")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.LOAD and d.state is not None
    assert d.cause == "the initial state differs: the scene was not loaded exactly"
    assert not d.notes  # its hash is the canonical hash of its own dump: the port is consistent


# ----------------------------------------------------------------------------- position update

def test_moving_with_the_old_velocity_is_a_position_update() -> None:
    found = cell(misreading("move-with-old-velocity"), "head-on-exact")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.POSITION_UPDATE
    assert d.state.field.startswith("position.")
    assert d.cause.startswith("position update (p = p + v*dt) is wrong")
    assert "moved with the old velocity" in d.cause and "different new velocities" not in d.cause


# ----------------------------------------------------------------------------- step composition

def test_an_in_place_sequential_step_is_a_composition_error() -> None:
    found = cell(misreading("sequential-step"), "degenerate")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.COMPOSITION
    assert d.cause.startswith("step composition is wrong")
    assert d.constraint.agent == d.state.agent and f"agent {d.state.agent}" in d.cause
    assert "an in-place sequential update reproduces" in d.cause
    assert vector_cell(misreading("sequential-step"), GOLDENS / "vectors")[0].status == PASS  # no primitive is wrong


@pytest.mark.parametrize("name, scene, neighbor, reading", [
    ("horizon-swap", "wide-reach-first", "agent neighbor", "swapping the two time horizons"),
    ("reach-without-radius", "degenerate", "obstacle: segment", "reach without the radius"),
])
def test_a_wrong_constraint_list_names_the_constraint_and_the_misreading(
        name: str, scene: str, neighbor: str, reading: str) -> None:
    runner = misreading(name)
    vectors_row, failure = vector_cell(runner, GOLDENS / "vectors")
    assert vectors_row.status == DIVERGED and failure.family == "agent_step"
    found = cell(runner, scene, failure)
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.CONSTRAINTS
    c = d.constraint
    assert c.agent == d.state.agent and c.index is not None and c.neighbor.startswith(neighbor)
    assert d.cause.startswith(f"solver bug in the constraint list of agent {c.agent}")
    assert f"constraint {c.index} ({c.neighbor})" in d.cause
    assert reading in c.reading and reading in d.cause
    # the vectors row's failing case is shown once, in the vectors row; the headline names the reading
    assert "first failing primitive" not in d.summary() and "first failing primitive: agent_step" in vectors_row.reason
    assert d.headline.startswith(f"agent {c.agent}'s constraint list differs: ") and reading in d.headline


def test_a_wrong_constraint_primitive_is_named_as_the_primitive() -> None:
    """The leg tie read the other way: the constraint differs and no assembly reading explains
    it, so the port's own agent_constraint is asked with the reference's inputs and blamed."""
    found = cell(misreading("leg-tie-left"), "equal-distance-ties")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.CONSTRAINTS
    assert d.constraint.neighbor.startswith("agent neighbor") and not d.constraint.reading
    assert "the port's own agent_constraint primitive gives a wrong plane" in d.cause
    assert "suspect what is fed to them" not in d.cause


def test_a_right_primitive_fed_the_wrong_inputs_is_named_as_such() -> None:
    """Velocities passed to the constraint the other way round: the port's agent_constraint
    answers the reference's plane for the reference's inputs, so the feeding is blamed."""
    patch = SourcePatch.single("swapped-velocities", "solver/simulator.c",
                               "oc_AgentConstraintInline(a, r, tau, dt, velocity, sim->velocities[j])",
                               "oc_AgentConstraintInline(a, r, tau, dt, sim->velocities[j], velocity)")
    tree = patched_tree((patch,))
    found = cell(CffiRunner(CVariant("misreading:swapped-velocities", system_cc(), FLAGS, tree)), "overlap-agents")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.CONSTRAINTS
    assert "primitive gives the reference's plane for the inputs the reference's step feeds it" in d.cause


def test_an_equal_constraint_list_with_another_velocity_is_the_program() -> None:
    found = cell(misreading("lp-project-current"), "overlap-agents")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.VELOCITY
    assert d.constraint.index is None and d.constraint.field.startswith("velocity.")
    assert d.cause.startswith("solver bug in the linear program or its fallback")


def test_a_port_without_primitives_gets_the_plain_cause_and_a_note() -> None:
    runner = ReferenceRunner("control:agents-first", careless.AgentsFirstSimulator, "careless port")
    found = cell(runner, "overlap-wall-deep")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.SOLVER
    assert d.cause.startswith("solver bug: same state and preferred velocities at step")
    assert d.notes == (AGENT_STEP_NOT_PROVIDED,)  # it provides no family: agent_step is never asked
    assert "failed" not in found.reason and "failed" not in d.headline


class _ClaimsEveryFamily(ReferenceRunner):
    """A careless port whose info claims every family (a protocol-1 port) but answers none."""

    def info(self):
        import dataclasses
        return dataclasses.replace(super().info(), provides=None)


def test_a_port_whose_agent_step_fails_gets_the_plain_cause_and_the_failure() -> None:
    found = cell(_ClaimsEveryFamily("control:agents-first", careless.AgentsFirstSimulator, "careless port"),
                 "overlap-wall-deep")
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.SOLVER
    assert any(note.startswith("the port's agent_step primitive failed (this fake port") for note in d.notes)
    assert d.headline.endswith("(the port's agent_step primitive failed)")


def test_compare_steps_names_a_missing_obstacle_and_a_velocity() -> None:
    scene = scenario("overlap-wall").scene
    state = REFERENCE.dump(scene, 0)
    args = step_comparison.agent_step_args(scene, state, 0)
    want = step_comparison.step_result(vectors.FAMILY_BY_NAME["agent_step"].reference(*args))
    assert want.hard >= 1
    missing = step_comparison.StepResult(want.lines[1:], want.hard - 1, want.vx, want.vy)
    c = step_comparison.compare_steps(scene, state, 0, want, missing)
    assert (c.index, c.field) == (0, "missing") and c.neighbor.startswith("obstacle: segment")
    slower = step_comparison.StepResult(want.lines, want.hard, math.nextafter(want.vx, 0.0), want.vy)
    c = step_comparison.compare_steps(scene, state, 0, want, slower)
    assert (c.index, c.field) == (None, "velocity.x")
    assert step_comparison.compare_steps(scene, state, 0, want, want) is None


# ----------------------------------------------------------------------------- non-finite states

def cli_misreading(name: str) -> CliRunner:
    tree = patched_tree((load_patch(MISREADINGS / f"{name}.json"),))
    return CliRunner(f"misreading-cli:{name}", cli_spec(f"misreading-cli-{name}", system_cc(), FLAGS, source_dir=tree))


@pytest.mark.parametrize("make", [misreading, cli_misreading], ids=["cffi", "cli"])
def test_a_non_finite_state_is_an_error_with_the_agent_and_a_diagnosis(make) -> None:
    runner = make("arrive-as-speed-clamp")
    try:
        found = cell(runner, "degenerate")
    finally:
        runner.close()
    d = found.diagnosis
    assert found.status == ERROR and d is not None and found.step == d.step
    assert f"non-finite state at step {d.step}: agent " in found.reason  # the port names the agent
    agent = d.state.agent
    assert d.non_finite.agent == agent and d.state.distance_text() == "NaN involved"
    assert str(d.non_finite).startswith(f"agent {agent} ") and d.non_finite.value == "nan"
    assert d.kind == causes.DRIVER and d.preferred.agent == agent and math.isnan(d.preferred.got)
    assert "| diagnosis: " in found.reason and "driver bug" in found.reason


def test_a_dump_reaches_the_first_non_finite_state_but_not_beyond() -> None:
    runner = misreading("arrive-as-speed-clamp")
    scene = scenario("degenerate").scene
    with pytest.raises(NonFinite) as info:
        list(runner.hashes(scene))
    step = info.value.step
    assert info.value.agent is not None and info.value.field in FIELDS  # the port named them
    assert any(math.isnan(v) for row in runner.dump(scene, step).agents for v in row[:4])
    with pytest.raises(Exception, match=f"non-finite state at step {step}: agent"):
        runner.dump(scene, step + 1)


CRASH_AT_STEP_5 = SourcePatch.single("crash", "harness/driver.c", "\t\trun->step += 1;\n",
                                     "\t\trun->step += 1;\n\t\tif (run->step == 5 && n == 2) { abort(); }\n")
"""Not a misreading: a port that crashes inside its step 5 of a two-agent scene."""


def test_a_crash_mid_run_is_diagnosed_at_the_step_it_cannot_take() -> None:
    tree = patched_tree((CRASH_AT_STEP_5,))
    runner = CliRunner("crash-cli", cli_spec("crash-cli", system_cc(), FLAGS, source_dir=tree))
    try:
        found = cell(runner, "head-on-exact")
    finally:
        runner.close()
    d = found.diagnosis
    assert found.status == ERROR and "SIGABRT" in found.reason and d is not None
    assert found.step == d.step == found.compared  # every state before it matched the golden
    assert d.cause.startswith(f"the port's step {d.step} failed before giving a state to compare")
    assert any(note.startswith(f"dump of step {d.step} by the port failed") for note in d.notes)


@pytest.mark.parametrize("text, kind, parsed", [
    ("non-finite state at step 7: agent 3 velocity.x is nan", NonFinite, (7, 3, "velocity.x")),
    ("non-finite state at step 7", NonFinite, (7, None, "")),
    ("out of memory", OutOfMemory, None),
    ("TODO: agent_constraint", Refused, None),
])
def test_an_error_reply_is_decoded_once_into_its_type(text: str, kind: type, parsed) -> None:
    """A port's error reply becomes a typed error at the protocol's edge; the judge reads fields."""
    err = error_reply("run (step 7)", text)(f"port reported an error during run (step 7): {text}", "")
    assert type(err) is kind
    if parsed is not None:
        assert (err.step, err.agent, err.field) == parsed
    if kind is Refused:
        assert (err.request, err.message) == ("run (step 7)", text) and err.diagnosable
    if kind is OutOfMemory:
        assert not err.diagnosable  # asking the port again cannot tell more


# ----------------------------------------------------------------------------- vector cases

def test_a_failing_vector_case_shows_its_decoded_arguments() -> None:
    runner = misreading("arrive-as-speed-clamp")
    row, failure = vector_cell(runner, GOLDENS / "vectors")
    assert row.status == DIVERGED and failure.family == "preferred_velocity"
    assert "args px=0x" in row.reason and "; expected prefx=0x" in row.reason and "; got prefx=0x" in row.reason
    assert "(nan)" in row.reason  # the actual result, decoded
    found = cell(runner, "touching", failure)
    assert found.status == DIVERGED
    assert "first failing primitive" not in found.reason  # the scene's cell does not repeat the row's case
    assert found.diagnosis.vector_family == "preferred_velocity"  # kept for the rounding finding and report.json


def test_describe_case_reads_every_family() -> None:
    for family in vectors.FAMILIES:
        case = vectors.generate(family.name)[0]
        text = vector_failure.describe_case(family.name, case["args"], case["result"], case["result"])
        names = vector_failure.ARG_NAMES[family.name]
        assert len(names) == len(family.args) and len(vector_failure.RESULT_NAMES[family.name]) == len(family.result)
        assert text.startswith(f"args {names[0]}=") and "; expected " in text and "; got " in text
    assert "got ['oops']" in vector_failure.describe_case("uniform", [1, 2], ["3ff0000000000000"], ["oops"])


def test_rounding_only_tells_rounding_from_a_decision() -> None:
    one_ulp = vectors.hexd(math.nextafter(0.3, 1.0))
    expected = [vectors.hexd(0.3), vectors.hexd(-2.0), vectors.hexd(1.0)]
    assert vector_failure.rounding_only("support_distance", expected, expected) == 0
    assert vector_failure.rounding_only("support_distance", expected, [one_ulp] + expected[1:]) == 1
    far = vectors.hexd(0.3 + 1e-6)
    assert vector_failure.rounding_only("support_distance", expected, [far] + expected[1:]) is None
    # the size bound, on its boundary: 2^-30 apart at size 1 is rounding (a cancelled
    # subtraction), 2^-29 is not
    one = [vectors.hexd(1.0)]
    assert vector_failure.rounding_only("uniform", one, [vectors.hexd(1.0 + 2.0 ** -30)]) == 2 ** 22
    assert vector_failure.rounding_only("uniform", one, [vectors.hexd(1.0 + 2.0 ** -29)]) is None
    # an integer result that differs is a decision, whatever the doubles
    closest = [vectors.hexd(0.3), vectors.hexd(0.4), 0]
    assert vector_failure.rounding_only("solve_closest", closest, [one_ulp, closest[1], 1]) is None
    assert vector_failure.rounding_only("solve_closest", closest, "garbage") is None


def test_a_port_off_by_rounding_is_told_to_look_at_its_arithmetic() -> None:
    """A -ffast-math build (other rounding in every formula): the vectors row says so, and a
    diverged scene names the evaluation first.  One operation done otherwise (hypot) or one
    misread decision is not that: its own primitive is named instead."""
    from conformance.selftest.controls.catalogue import CONTROLS
    fast_math = next(c for c in CONTROLS if c.name == "fast-math-x64").make()
    row, failure = vector_cell(fast_math, GOLDENS / "vectors")
    assert row.status == DIVERGED and failure.rounding, row.reason
    assert "bad cases of the formula primitives (" in row.reason and "differ by rounding only" in row.reason
    found = cell(fast_math, "boundary-touching-walls", failure)
    assert found.status == DIVERGED
    assert found.diagnosis.cause.startswith("the floating-point evaluation differs, not the logic")
    tree = patched_tree((load_patch(ROOT / "tests" / "c_variants" / "hypot-length.json"),))
    for runner in (CffiRunner(CVariant("c-hypot", system_cc(), FLAGS, tree)), misreading("arrive-as-speed-clamp"),
                   misreading("u-as-c-minus-x")):
        row, failure = vector_cell(runner, GOLDENS / "vectors")
        assert row.status == DIVERGED and not failure.rounding, (runner.id, row.reason)


def test_the_arithmetic_rule_on_its_boundaries() -> None:
    """Three formula primitives and exactly 90 % rounding-only cases: the arithmetic; one fewer
    primitive, or one case fewer, is not."""
    from conformance.judge.matrix import arithmetic_differs
    three = {"agent_case_form": (3, 3), "agent_constraint": (3, 3), "support_distance": (3, 4)}
    assert arithmetic_differs(three) == "9 of the 10 bad cases of the formula primitives " \
                                        "(agent_case_form, agent_constraint, support_distance)"
    assert arithmetic_differs({**three, "support_distance": (2, 4)}) == ""  # 8 of 10
    assert arithmetic_differs({"agent_case_form": (30, 30), "agent_constraint": (30, 30)}) == ""  # two primitives
