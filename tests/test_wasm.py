"""The wasm32 build of the C port: the module, the wasmtime column and the Node.js (V8) column."""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import subprocess
import time
from pathlib import Path

import pytest

from conformance.runners.build.layer import DETERMINISM_FLAGS
from conformance.judge.matrix import ERROR, PASS, VECTORS_ROW, run_matrix
from conformance.judge.cell_text import format_table
from conformance.runners import DEFAULT_COLUMNS, resolve
from conformance.runners.base import BudgetExhausted, RunnerError, RunnerUnavailable
from conformance.runners.exec_runner import Limits
from conformance.runners.wasm_runner import (WASM_DIR, WASM_FLAGS, Metering, WasmRunner, build_module,
                                             module_exports, module_imports, wasm_spec)
from conformance.runners.wasm_v8 import PORT_SCRIPT, WasmV8Runner, node_version
from conformance.contract.scenario import load_scenario, load_suite
from conformance.selftest.controls.patches import SourcePatch, patched_tree
from conftest import ROOT

GOLDENS = ROOT / "goldens"

EXPORTS = {
    "memory", "orca_abi_version", "orca_build_info", "orca_alloc", "orca_free", "orca_result", "orca_heap_bytes",
    "orca_scene_create", "orca_scene_destroy", "orca_scene_add_segment", "orca_scene_add_agent",
    "orca_scene_add_agents", "orca_run_create", "orca_run_destroy", "orca_run_agent_count", "orca_run_step",
    "orca_run_canonical_state", "orca_run_advance", "orca_run_dump", "orca_segment_distance_squared",
    "orca_support_distance", "orca_agent_case_form", "orca_agent_constraint", "orca_segment_constraint",
    "orca_for_boundary", "orca_solve_closest", "orca_solve_direction", "orca_relax", "orca_obstacle_neighbors",
    "orca_agent_neighbors", "orca_splitmix64", "orca_uniform", "orca_preferred_velocity", "orca_agent_step",
}
"""The exports docs/wasm.md documents, and nothing else."""


def node_missing() -> str | None:
    try:
        node_version()
    except RunnerUnavailable as err:
        return str(err)
    return None


needs_node = pytest.mark.skipif(node_missing() is not None, reason=f"wasm-v8 column: {node_missing()}")


def scenario(name: str):
    return load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")


# ----------------------------------------------------------------------------- the module

def test_module_is_freestanding_with_the_documented_exports() -> None:
    artifact = build_module()
    assert artifact.path.suffix == ".wasm"
    assert module_imports(artifact.path) == []
    assert set(module_exports(artifact.path)) == EXPORTS
    documented = (ROOT / "docs" / "wasm.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in documented for name in EXPORTS)
    assert artifact.path.read_bytes()[:4] == b"\0asm"
    assert artifact.path.stat().st_size < 200_000


def test_module_build_carries_the_determinism_flags_and_is_keyed_by_sources_and_flags() -> None:
    spec = wasm_spec()
    cmd = spec.command_line(Path("orca.wasm"))
    for flag in DETERMINISM_FLAGS + ("-O2", "-DOC_NO_THREADS"):
        assert flag in cmd
    assert "-ffast-math" not in cmd and cmd[cmd.index("-target") + 1] == "wasm32-freestanding"
    # plain SIMD (lane-wise IEEE, the scalar bits) and link-time optimisation, for speed; never
    # relaxed SIMD (host-dependent results) nor contraction
    assert "-msimd128" in cmd and "-flto" in cmd
    assert not {"-mrelaxed-simd", "-ffp-contract=fast", "-ffp-contract=on"} & set(cmd)
    assert cmd[1:4] == ["-m", "ziglang", "cc"]
    # the cache key covers the export layer, the freestanding headers and the flags
    names = {s.name for s in spec.sources}
    assert {"exports.c", "alloc.c", "simulator.c", "driver.c"} <= names
    assert WASM_DIR / "include" in spec.include_dirs
    assert wasm_spec(flags=WASM_FLAGS + ("-DOC_UNUSED",)).key() != spec.key()
    tree = patched_tree((SourcePatch.single("comment", "harness/driver.c", "#include <stdlib.h>", "#include <stdlib.h>\n// x"),))
    assert wasm_spec(source_dir=tree).key() != spec.key()


# ----------------------------------------------------------------------------- both columns pass

@pytest.mark.parametrize("column", ["wasm", pytest.param("wasm-v8", marks=needs_node)])
def test_wasm_column_passes_every_scenario_and_the_vectors(column: str) -> None:
    assert column in DEFAULT_COLUMNS
    scenarios = [s for s in load_suite(ROOT / "scenarios") if not s.slow]
    started = time.monotonic()
    result = run_matrix(scenarios, [column], GOLDENS)
    print(format_table(result), f"{time.monotonic() - started:.1f} s")
    assert len(result.cells) == len(scenarios) + 2  # + the vectors and protocol rows
    for cell in result.cells.values():
        assert cell.status == PASS, (cell.row, cell.reason)
        assert cell.compared > 0, cell.row
    assert result.cells[(VECTORS_ROW, column)].compared > 5000


def test_wasm_v8_column_is_skipped_with_the_reason_without_node(tmp_path: Path) -> None:
    missing = WasmV8Runner(node=str(tmp_path / "no-such-node"))
    result = run_matrix([scenario("head-on-exact")], [missing], GOLDENS)
    cells = list(result.cells.values())
    assert all(c.status == "SKIPPED" and "not found on PATH" in c.reason for c in cells), cells


# ----------------------------------------------------------------------------- report fields

def test_wasmtime_report_fields() -> None:
    runner = WasmRunner()
    info = runner.info()
    data = runner.artifact.path.read_bytes()
    v = info.versions
    assert v["module_sha256"] == hashlib.sha256(data).hexdigest()
    assert int(v["module_size"]) == len(data)
    assert v["engine"].startswith("wasmtime ") and v["engine"].split()[1][0].isdigit()
    assert v["toolchain"].startswith("zig ") and "clang" in v["toolchain"]
    assert "cranelift_nan_canonicalization=False" in v["engine_config"]
    assert "wasm_relaxed_simd=False" in v["engine_config"] and "consume_fuel=True" in v["engine_config"]
    assert "epoch_interruption=False" in v["engine_config"] and v["budget"].startswith("fuel: 1000000 per call")
    assert "wasm_simd=True" in v["engine_config"]
    assert "-ffp-contract=off" in info.flags and "-fno-fast-math" in info.flags and "-O2" in info.flags
    assert "clang" in info.compiler and info.architecture == "wasm32"
    # the module describes its own build
    assert v["module_build"].startswith("Clang ") and "-ffp-contract=off" in v["module_build"]


@needs_node
def test_node_report_fields() -> None:
    runner = WasmV8Runner()
    try:
        info = runner.info()
    finally:
        runner.close()
    node, v8 = node_version()
    data = runner.artifact.path.read_bytes()
    v = info.versions
    assert v["module_sha256"] == hashlib.sha256(data).hexdigest() and int(v["module_size"]) == len(data)
    assert v["engine"] == f"V8 {v8} (Node.js {node})"
    assert v["toolchain"].startswith("zig ") and "-ffp-contract=off" in info.flags
    assert info.name == "orca-c-wasm" and info.architecture == "wasm32"


# ----------------------------------------------------------------------------- traps and runaways

TRAP_AT_STEP_5 = SourcePatch.single("trap", "harness/driver.c", "\t\trun->step += 1;\n",
                             "\t\trun->step += 1;\n\t\tif (run->step == 5 && n == 2) { __builtin_trap(); }\n")
SPIN_AT_STEP_5 = SourcePatch.single("spin", "harness/driver.c", "\t\trun->step += 1;\n",
                             "\t\trun->step += 1;\n\t\tvolatile int spin = run->step == 5 && n == 2;\n"
                             "\t\twhile (spin) { }\n")
"""Broken modules: at step 5 of a two-agent scene, a trap (`unreachable`) or an endless loop."""


def broken_spec(patch: SourcePatch):
    return wasm_spec(name=f"wasm-{patch.name}", source_dir=patched_tree((patch,)))


def test_trap_is_an_error_cell_with_the_trap_message_and_the_suite_goes_on() -> None:
    runner = WasmRunner("wasm:trap", spec=broken_spec(TRAP_AT_STEP_5))
    rows = [scenario("head-on-exact"), scenario("overlap-agents")]
    result = run_matrix(rows, [runner, "wasm"], GOLDENS)
    print(format_table(result))
    trapped = result.cells[("orca/head-on-exact", "wasm:trap")]
    assert trapped.status == ERROR
    assert "wasm trap in orca_run_advance" in trapped.reason and "unreachable" in trapped.reason
    # the same runner goes on in a fresh instance: the next scene and the vectors pass
    assert result.cells[("orca/overlap-agents", "wasm:trap")].status == PASS
    assert result.cells[(VECTORS_ROW, "wasm:trap")].status == PASS
    assert all(result.cells[(row, "wasm")].status == PASS for row in result.rows)


RUNAWAY_REASON = {Metering.FUEL: "fuel exhausted: orca_run_advance (steps 1..256 of 2 agents) used up its budget",
                  Metering.EPOCH: "time budget exhausted: orca_run_advance (steps 1..256 of 2 agents) ran "}


@pytest.mark.parametrize("metering", [Metering.FUEL, Metering.EPOCH], ids=lambda m: m.value)
def test_runaway_module_is_stopped_by_its_budget_instead_of_hanging(metering: Metering) -> None:
    # epoch: 1 s of wall clock per call plus about 0.05 s for this batch's work (a healthy call
    # takes microseconds); fuel: the column's default budget
    runner = WasmRunner(f"wasm:spin-{metering.value}", spec=broken_spec(SPIN_AT_STEP_5), metering=metering,
                        seconds_call=1.0)
    rows = [scenario("head-on-exact"), scenario("overlap-agents")]
    started = time.monotonic()
    result = run_matrix(rows, [runner], GOLDENS, with_vectors=False, with_protocol=False)
    elapsed = time.monotonic() - started
    print(format_table(result), f"{elapsed:.1f} s")
    spun = result.cells[("orca/head-on-exact", runner.id)]
    assert spun.status == ERROR and spun.reason.startswith(RUNAWAY_REASON[metering]), spun.reason
    assert spun.compared == 1  # state 0 stands; the first batch never returned
    # the same runner goes on: the next scene (a fresh store, its deadline set anew) passes
    assert result.cells[("orca/overlap-agents", runner.id)].status == PASS
    assert elapsed < 20.0
    with pytest.raises(BudgetExhausted):  # the outcome is a class, not only a sentence
        list(runner.hashes(scenario("head-on-exact").scene))


def test_epoch_metering_passes_healthy_scenes_and_the_vectors() -> None:
    runner = WasmRunner("wasm:epoch", metering=Metering.EPOCH)
    rows = [scenario("antipodal-circle-100"), scenario("obstacle-field")]
    result = run_matrix(rows, [runner], GOLDENS, with_protocol=False)
    print(format_table(result))
    assert [result.cells[(row, runner.id)].status for row in result.rows] == [PASS] * 3
    versions = runner.info().versions
    assert "consume_fuel=False" in versions["engine_config"] and "epoch_interruption=True" in versions["engine_config"]
    assert versions["budget"].startswith("epoch: 2.0 s per call")
    assert runner._meter.watchdog is not None  # noqa: SLF001 - the watching thread is the runner's own


def test_tiny_fuel_budget_is_an_error_cell_with_the_reason() -> None:
    runner = WasmRunner("wasm:tiny-fuel", fuel_per_agent_step=1, fuel_per_pair=0)
    circle = scenario("antipodal-circle-100")
    result = run_matrix([circle], [runner], GOLDENS, with_vectors=False, with_protocol=False)
    cell = result.cells[(circle.id, runner.id)]
    assert cell.status == ERROR
    assert "fuel exhausted: orca_run_advance (steps 1..256 of 100 agents)" in cell.reason
    with pytest.raises(BudgetExhausted, match="fuel exhausted"):
        list(runner.hashes(circle.scene))
    assert cell.compared == 1  # state 0 was hashed before the first call ran dry


def test_non_finite_state_is_an_error_whatever_the_nan_bits() -> None:
    from conformance.contract.scenario import Scene
    runner = WasmRunner()
    scene = Scene.from_json(BLOW_UP)
    stream = runner.hashes(scene)
    assert len(next(stream)) == 64  # state 0 stands
    with pytest.raises(RunnerError, match="non-finite state at step 1"):
        next(stream)
    with pytest.raises(RunnerError, match="non-finite state at step 1"):
        runner.dump(scene, 3)
    # the preferred velocity of state 0 is a NaN (its bits are the host's: no canonicalisation)
    prefx = runner.dump(scene, 0).agents[0][4]
    assert struct.unpack("<Q", struct.pack("<d", prefx))[0] & 0x7FF8000000000000 == 0x7FF8000000000000


def test_no_golden_vector_expects_a_nan() -> None:
    """Why the wasm column may leave NaN bits to the host: a NaN result of a primitive is a
    failure whatever its payload, because no stored expected result is a NaN."""
    import json
    checked = 0
    for path in sorted((ROOT / "goldens" / "vectors").glob("*.json")):
        family = json.loads(path.read_text())
        for case in family["cases"]:
            for kind, value in zip(family["result"], case["result"]):
                if not kind.startswith("d"):
                    continue
                flat = [value]
                while any(isinstance(v, list) for v in flat):
                    flat = [w for v in flat for w in (v if isinstance(v, list) else [v])]
                for bits in flat:
                    number = int(bits, 16)
                    assert (number >> 52) & 0x7FF != 0x7FF or number & ((1 << 52) - 1) == 0, (path.name, case)
                    checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("column", ["wasm", pytest.param("wasm-v8", marks=needs_node)])
def test_dumps_match_the_c_column(column: str) -> None:
    from conformance.runners.cffi_runner import CffiRunner, c_variants
    scene = scenario("obstacle-field").scene
    native = CffiRunner(c_variants()["c"])
    runner = resolve(column)
    try:
        for step in (0, 1, 250):
            assert runner.dump(scene, step) == native.dump(scene, step)
    finally:
        runner.close()


def test_memory_limit_is_out_of_memory_not_a_crash() -> None:
    runner = WasmRunner("wasm:small-memory", memory_limit=3 * 1024 * 1024)
    circle = scenario("antipodal-circle-300")
    result = run_matrix([circle], [runner], GOLDENS, with_vectors=False, with_protocol=False)
    cell = result.cells[(circle.id, runner.id)]
    assert cell.status == ERROR and "out of memory" in cell.reason, cell.reason


@needs_node
def test_node_port_reports_a_trap_and_a_hang_is_killed() -> None:
    trap = WasmV8Runner("wasm-v8:trap", spec=broken_spec(TRAP_AT_STEP_5))
    spin = WasmV8Runner("wasm-v8:spin", spec=broken_spec(SPIN_AT_STEP_5),
                        limits=Limits(handshake=20.0, reply=3.0, run=30.0))
    rows = [scenario("head-on-exact"), scenario("overlap-agents")]
    started = time.monotonic()
    result = run_matrix(rows, [trap, spin], GOLDENS, with_vectors=False, with_protocol=False)
    print(format_table(result), f"{time.monotonic() - started:.1f} s")
    trapped = result.cells[("orca/head-on-exact", trap.id)]
    assert trapped.status == ERROR and "wasm trap in run: unreachable" in trapped.reason
    assert trapped.compared == 1  # state 0 went out before the batch that trapped
    hung = result.cells[("orca/head-on-exact", spin.id)]
    assert hung.status == ERROR and "no reply to run" in hung.reason
    assert result.cells[("orca/overlap-agents", trap.id)].status == PASS
    assert result.cells[("orca/overlap-agents", spin.id)].status == PASS
    assert time.monotonic() - started < 30.0


# ----------------------------------------------------------------------------- the Node port's protocol

SCENE = {"dt": 0.1, "steps": 2, "perturbation": {"seed": 0, "magnitude": 0.0}, "segments": [],
         "agents": [{"position": [0, 0], "velocity": [0, 0], "radius": 0.5, "max_speed": 1, "neighbor_distance": 5,
                     "max_neighbors": 3, "time_horizon": 2, "time_horizon_obst": 2, "goal_radius": 0.1,
                     "waypoints": [[3, 4]]}]}
ONE = "3ff0000000000000"
BLOW_UP = {**SCENE, "agents": [{**SCENE["agents"][0], "position": [1e308, 0], "max_speed": 1e308,
                                "waypoints": [[-1e308, 0]]}]}
"""d = -2e308 overflows: the preferred velocity is -inf / inf = NaN, state 1 is not finite."""
REQUESTS = [
    {"cmd": "hello", "protocol": 3},
    [1, 2],
    {"nocmd": 1},
    {"cmd": "fly"},
    {"cmd": "run", "steps": -1},
    {"cmd": "run", "scene": 5},
    {"cmd": "run", "scene": {**SCENE, "segments": [[0, 0, 1]]}},
    {"cmd": "run", "scene": {**SCENE, "agents": [{**SCENE["agents"][0], "waypoints": []}]}},
    {"cmd": "run", "scene": {**SCENE, "perturbation": {"seed": 1.5, "magnitude": 0.0}}},
    {"cmd": "run", "scene": SCENE},
    {"cmd": "run", "scene": {**SCENE, "agents": []}, "steps": 1},
    {"cmd": "dump", "scene": SCENE, "step": 2},
    {"cmd": "dump", "step": "x"},
    {"cmd": "run", "scene": BLOW_UP},
    {"cmd": "dump", "scene": BLOW_UP, "step": 3},
    {"cmd": "vectors", "family": 3},
    {"cmd": "vectors", "family": "nope", "cases": []},
    {"cmd": "vectors", "family": "uniform", "cases": 5},
    {"cmd": "vectors", "family": "uniform", "cases": [[1, 2], [3]]},
    {"cmd": "vectors", "family": "uniform", "cases": [[1, 2], [3, "x"]]},
    {"cmd": "vectors", "family": "splitmix64", "cases": [[0, 0], [-1, 5], [2 ** 53 - 1, 2 ** 40 + 3]]},
    {"cmd": "vectors", "family": "relax", "cases": [[[], 1, ONE, 0]]},
    {"cmd": "vectors", "family": "agent_neighbors", "cases": [[3, [ONE], [ONE], ONE, 3]]},
    {"cmd": "vectors", "family": "agent_neighbors", "cases": [[0, [ONE], [], ONE, 3]]},
    {"cmd": "vectors", "family": "solve_closest", "cases": [[[[ONE, "0"]], ONE, ONE, ONE]]},
    {"cmd": "vectors", "family": "for_boundary", "cases": [["bff0000000000000", "bff0000000000000", ONE,
                                                           "bff0000000000000", "3fb999999999999a", ONE],
                                                          ["0000000000000000"] * 4 + ["3fb999999999999a", ONE]]},
    {"cmd": "vectors", "family": "preferred_velocity",
     "cases": [["0000000000000000", "0000000000000000", [], 0] + ["0000000000000000"] * 3 + [0, "0" * 16, 0, 0, 1]]},
]


def session(argv: list[str], requests: list) -> tuple[list[str], int]:
    text = "\n".join(json.dumps(r) for r in requests[:3]) + "\n\n   \n"  # blank lines get no reply
    text += "\n".join(json.dumps(r) for r in requests[3:]) + "\n" + json.dumps({"cmd": "bye"}) + "\n"
    text += json.dumps({"cmd": "hello"}) + "\n"  # after bye: never answered
    done = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60)
    return done.stdout.splitlines(), done.returncode


@needs_node
def test_node_port_answers_like_the_c_cli() -> None:
    """Same requests, same replies (the hello and JSON-syntax messages aside), same exit."""
    from conformance.runners.cli_port import native_cli
    cli = native_cli()
    try:
        cli._prepare()
    except RunnerUnavailable as err:
        pytest.skip(f"no C CLI to compare with: {err}")
    module = build_module().path
    node_lines, node_status = session([shutil.which("node"), str(PORT_SCRIPT), str(module)], REQUESTS)
    cli_lines, cli_status = session([str(cli.artifact.path)], REQUESTS)
    assert node_status == cli_status == 0
    assert len(node_lines) == len(cli_lines) > len(REQUESTS)
    assert node_lines == cli_lines
    hello, = session([shutil.which("node"), str(PORT_SCRIPT), str(module)], [{"cmd": "hello", "protocol": 1}])[0]
    port = json.loads(hello)["port"]
    assert port["module_sha256"] == hashlib.sha256(module.read_bytes()).hexdigest()
    assert port["engine"].startswith("V8 ")


@needs_node
def test_node_port_reports_malformed_json_and_unknown_ids() -> None:
    module = build_module().path
    done = subprocess.run([shutil.which("node"), str(PORT_SCRIPT), str(module)], input="not json\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["error"].startswith("malformed JSON: ")
    assert "orca-wasm: malformed JSON" in done.stderr
    assert resolve("wasm-v8").id == "wasm-v8" and resolve("wasm").id == "wasm"
