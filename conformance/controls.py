"""Negative controls: the mistakes careless ports make, each of which the gate must catch.

Contract: ``CONTROLS`` lists each control with how it is made (a patched or mis-flagged build
of the C port, or a careless Python port from ``careless.py``); ``run_controls`` runs each one
over the scenarios, cheapest first, until a scenario cell is DIVERGED or ERROR, and reports
that scenario, the step and the diagnosis.  A control that passes every scenario is a failure
of the suite itself.  A control whose toolchain or emulator is missing is SKIPPED with the
reason (never counted as caught).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import careless
from .build import C_DIR, system_cc
from .matrix import DIVERGED, ERROR, PASS, SKIPPED, Cell, compare_scenario, vector_cell
from .runners.base import Runner, RunnerError, RunnerUnavailable
from .runners.cffi_runner import CffiRunner, CVariant
from .runners.cross import TARGETS, cross_runner
from .runners.reference import ReferenceRunner
from .scenario import Scenario
from .variants import load_patch, patched_tree

CONTROL_PATCHES = C_DIR / "controls"


@dataclass(frozen=True)
class Control:
    name: str
    mistake: str
    make: Callable[[], Runner]
    has_vectors: bool = True


def _patched(*names: str):
    return patched_tree(tuple(load_patch(CONTROL_PATCHES / f"{n}.json") for n in names))


def _fma_arm64() -> Runner:
    return cross_runner(TARGETS["arm64"], "control:fma-arm64", flags=("-std=c99", "-O2", "-ffp-contract=fast"))


def _fast_math_x64() -> Runner:
    return CffiRunner(CVariant("control:fast-math-x64", system_cc(), ("-std=c99", "-O2", "-ffast-math"),
                               _patched("no-fast-math-guard")))


def _x87_i386() -> Runner:
    return cross_runner(TARGETS["i386"], "control:x87-i386", flags=("-std=c99", "-O2", "-ffp-contract=off"),
                        extra_flags=("-mcpu=i686", "-mno-sse", "-mno-sse2", "-mfpmath=387"),
                        source_dir=_patched("no-x87-guard"))


def _careless(name: str, description: str, simulator: type, label: str) -> Control:
    """A careless Python port (conformance/careless.py): the reference with one mistake."""
    return Control(name, description,
                   lambda: ReferenceRunner(f"control:{name}", simulator, f"careless port: {label}"), has_vectors=False)


CONTROLS: tuple[Control, ...] = (
    Control("fma-arm64", "FMA contraction on arm64 (-ffp-contract=fast: a*b + c fused into fmadd)", _fma_arm64),
    Control("fast-math-x64", "-ffast-math on x86-64", _fast_math_x64),
    Control("x87-i386", "x87 extended precision on i386 (-mcpu=i686, no SSE)", _x87_i386),
    _careless("single-precision", "single-precision state (positions and velocities as float)",
              careless.Float32StateSimulator, "float32 state"),
    _careless("agents-before-obstacles", "agent constraints listed before the obstacle constraints",
              careless.AgentsFirstSimulator, "agents first"),
    _careless("neighbors-by-index", "agent neighbours listed by index instead of by distance",
              careless.NeighborsByIndexSimulator, "neighbours by index"),
    _careless("textbook-ttc", "the simplified time-to-collision projection of orca-textbook.txt",
              careless.TextbookSimulator, "textbook TTC projection"),
)


@dataclass
class ControlResult:
    control: Control
    status: str  # CAUGHT, NOT CAUGHT, SKIPPED
    cell: Cell | None = None
    vectors: Cell | None = None
    reason: str = ""
    seconds: float = 0.0


CAUGHT, NOT_CAUGHT = "CAUGHT", "NOT CAUGHT"


def by_cost(scenarios: list[Scenario]) -> list[Scenario]:
    """Cheapest first (agents x steps), so that a control is caught as early as possible."""
    return sorted(scenarios, key=lambda s: (max(1, len(s.scene.agents)) * s.scene.steps, s.id))


def run_control(control: Control, scenarios: list[Scenario], goldens: Path) -> ControlResult:
    started = time.perf_counter()
    runner = control.make()
    reference = ReferenceRunner()
    try:
        try:
            runner.info()
        except RunnerUnavailable as err:
            return ControlResult(control, SKIPPED, reason=str(err))
        except RunnerError as err:
            return ControlResult(control, CAUGHT, reason=f"the build or start failed: {err.reason}",
                                 seconds=time.perf_counter() - started)
        vectors_cell = None
        failure = None
        if control.has_vectors:
            vectors_cell, failure = vector_cell(runner, goldens / "vectors")
        for scenario in by_cost(scenarios):
            cell = compare_scenario(scenario, runner, goldens, reference, failure)
            if cell.status in (DIVERGED, ERROR):
                return ControlResult(control, CAUGHT, cell, vectors_cell, cell.reason,
                                     time.perf_counter() - started)
        return ControlResult(control, NOT_CAUGHT, None, vectors_cell,
                             f"passed all {len(scenarios)} scenarios", time.perf_counter() - started)
    finally:
        runner.close()


def format_controls(results: list[ControlResult]) -> str:
    lines = [f"{'control':<24} {'result':<11} {'caught by':<28} {'step':>6}  diagnosis",
             f"{'-' * 24} {'-' * 11} {'-' * 28} {'-' * 6}  {'-' * 9}"]
    for r in results:
        where = r.cell.row if r.cell else "-"
        step = str(r.cell.step) if r.cell and r.cell.step is not None else "-"
        lines.append(f"{r.control.name:<24} {r.status:<11} {where:<28} {step:>6}  {r.reason}")
        if r.vectors is not None and r.vectors.status != PASS:
            lines.append(f"{'':<24} {'':<11} {'vectors':<28} {'':>6}  {r.vectors.reason}")
    return "\n".join(lines)
