"""Negative controls: the mistakes careless ports make, each of which the gate must catch.

Contract: ``CONTROLS`` lists each control with how it is made: a mis-flagged build of the C
port, a careless Python port from ``careless.py``, or one entry of the misreading catalogue
``runners/c/misreadings/`` (a plausible alternative reading of one decision of the text or
of docs/spec-notes.md, as a patch of the C port).  ``run_control`` runs the control's vectors
row, then the scenarios cheapest first until one is DIVERGED, and classifies it:

* CAUGHT: a scenario diverged (scenario, step, diagnosis), so a port that implements only
  ``run`` is judged correctly;
* VECTORS ONLY / ERROR ONLY / NOT CAUGHT: gaps of the suite (a port without the primitive API,
  or one whose crash is blamed on something else, would pass);
* MISCAUSED: a catalogue entry caught in a scene whose red cell's headline does not match the
  cause the entry declares (``cause``), or, for a reading of one decision (strictness, a root for
  a square, a tie, a threshold), explains the port by a stock reading of the constraint assembly
  (a horizon or reach formula mix-up): the cell names the wrong cause even when the clause agrees;
* MISCITED: a catalogue entry caught in a scene whose red cell cites another clause than the
  entry's (a wrong diagnosis is a gap too: the port author would be sent to the wrong rule);
* EQUIVALENT: the entry claims, with an argument, that the reading gives the same bits
  everywhere, and indeed nothing caught it (if something does, the claim is WRONG);
* NO SCENE: the entry argues that no simulation reaches the decision (ForBoundary), and the
  vectors caught it;
* SKIPPED: toolchain or emulator missing (never counted as caught).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from . import careless, contract_slips
from ...runners.build.layer import DETERMINISM_FLAGS, system_cc
from ...runners.build.sources import C_DIR
from ...judge.cell_text import cell_lines
from ...judge.matrix import DIVERGED, ERROR, PASS, SKIPPED, Cell, compare_scenario, vector_cell
from ...judge.protocol_row import protocol_cell
from ...runners.base import Runner, RunnerError, RunnerUnavailable
from ...runners import register_family
from ...runners.needs import COLUMN_NEEDS
from ...errors import InputError, did_you_mean
from ...runners.cffi_runner import CffiRunner, CVariant
from ...runners.cli_port import CliRunner
from ...runners.cross import EMULATED_LIMITS, TARGETS, cross_spec, native
from ...runners.build.layer import zig_available
from ...runners.unicorn_runner import ARCHES, ELF_FREESTANDING, UnicornRunner, elf_spec
from ...runners.reference import ReferenceRunner
from ...contract.scenario import Scenario
from ...contract.clauses import clause_map
from .patches import load_patch, patched_tree, read_patch_data

CONTROL_PATCHES = C_DIR / "controls"
FMA_CAUSE = "fused multiply-add.*fix: .*-ffp-contract=off"
FUSED_SITE_CAUSE = r"fused multiply-add at `pd \* pd \+ radius \* radius` \(`pd \* pd` fused\) in line_interval.*fix: .*no .*fma"
"""The one fused site named: its expression, the product fused, its function, and the fix."""
MISREADINGS = C_DIR / "misreadings"


@dataclass(frozen=True)
class Control:
    name: str
    mistake: str
    make: Callable[[], Runner]
    has_vectors: bool = True
    needs: tuple[str, ...] = ("cc",)
    """What it needs to run (doctor's need kinds): the host compiler for the C port's patches,
    Zig and Unicorn for the emulated builds, nothing for a Python port."""
    site: str = ""
    """The decision of the text it misreads (a census site id, see census.py), if any."""
    kind: str = ""
    equivalent: str = ""
    """Why the reading gives the same bits on every input (the control must then pass everything)."""
    no_scene: str = ""
    """Why no simulation can reach the decision (the vectors must then catch it)."""
    clauses: tuple[str, ...] = ()
    """The clauses of the text (contract/clauses.json) whose rule it breaks: its red cell must cite one."""
    cause: str = ""
    """A regular expression the headline of the cell that catches it in a scene must match."""
    protocol: bool = False
    """A contract slip (contract_slips.py): the protocol row must catch it, its headline and the
    headline of any scenario cell that diverges must match ``cause``."""


def _patched(*names: str):
    return patched_tree(tuple(load_patch(CONTROL_PATCHES / f"{n}.json") for n in names))


def _fma_arm64() -> Runner:
    """The arm64 column's freestanding build with contraction on, under Unicorn (any host)."""
    arch = ARCHES["arm64"]
    flags = ("-std=c99", "-O2", "-ffp-contract=fast") + ELF_FREESTANDING
    return UnicornRunner(arch, "control:fma-arm64", spec=elf_spec(arch, "control-fma-arm64", flags))


def _clang_default_arm64() -> Runner:
    """The arm64 column's freestanding build by Zig's Clang with no -ffp-contract flag and without
    the C port's FP_CONTRACT pragma: Clang's default (-ffp-contract=on) fuses a*b + c within an
    expression, as a port built for arm64 with no flag does."""
    arch = ARCHES["arm64"]
    flags = ("-std=c99", "-O2") + ELF_FREESTANDING
    return UnicornRunner(arch, "control:clang-default-arm64",
                         spec=elf_spec(arch, "control-clang-default-arm64", flags,
                                       source_dir=_patched("no-contract-pragma")))


def _host_build(name: str, *flags: str) -> Callable[[], Runner]:
    """The ``c`` column's library built by the host's compiler with ``flags`` (one toolchain
    choice, or a part of -ffast-math alone) and without the C port's fast-math guard."""
    return lambda: CffiRunner(CVariant(f"control:{name}", system_cc(), ("-std=c99", "-O2") + flags,
                                       _patched("no-fast-math-guard")))


def _x87_i386() -> Runner:
    """The i386 column's freestanding build for a CPU without SSE (x87 arithmetic, whose 80-bit
    intermediates round twice), under Unicorn: its FPU starts as an OS leaves it, in extended
    precision (control word 0x37f)."""
    arch = replace(ARCHES["i386"], flags=("-mcpu=i686", "-mno-sse", "-mno-sse2", "-mfpmath=387"))
    flags = ("-std=c99", "-O2", "-ffp-contract=off") + ELF_FREESTANDING
    return UnicornRunner(arch, "control:x87-i386",
                         spec=elf_spec(arch, "control-x87-i386", flags, source_dir=_patched("no-x87-guard")))


def _x87_i386_qemu() -> Runner:
    """The i386 qemu column's Linux executable for a Pentium Pro (``-mcpu=pentiumpro``: no SSE, so
    x87 arithmetic), under qemu-i386, whose process starts in extended precision as Linux leaves it."""
    target = replace(TARGETS["i386"], column="control-x87-i386", flags=("-mcpu=pentiumpro",))
    runner = CliRunner("control:x87-i386-qemu", cross_spec(target, _patched("no-x87-guard")),
                       emulator=None if native(target) else target.emulator, missing=zig_available(),
                       limits=EMULATED_LIMITS, architecture="x86")
    runner.cost = target.cost
    return runner


def _careless(name: str, description: str, simulator: type, label: str, clauses: tuple[str, ...],
              cause: str) -> Control:
    """A careless Python port (conformance/selftest/controls/careless.py): the reference with one
    mistake, answering agent_step (its only primitive) from its own simulator, so that its cell
    can name the mistake (``cause``) as a port's own primitive lets it."""
    return Control(name, description,
                   lambda: ReferenceRunner(f"control:{name}", simulator, f"careless port: {label}", agent_step=True),
                   has_vectors=False, needs=(), clauses=clauses, cause=cause)


def _misreading(path: Path) -> Control:
    """One catalogue entry: the C port with the patch, built like the ``c`` column."""
    data = read_patch_data(path)
    name = path.stem

    def make() -> Runner:
        tree = patched_tree((load_patch(path),))
        return CffiRunner(CVariant(f"control:{name}", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
    clauses = clause_map().check_ids(data["clauses"], str(path), "clauses") if "clauses" in data else ()
    cause = str(data.get("cause", ""))
    try:
        re.compile(cause)
    except re.error as err:
        raise InputError(str(path), "cause", f"not a regular expression: {err}") from None
    return Control(name, str(data.get("why", "")), make, site=str(data.get("site", "")), kind=str(data.get("kind", "")),
                   equivalent=str(data.get("equivalent", "")), no_scene=str(data.get("scenes", "")), clauses=clauses,
                   cause=cause)


def misreadings(folder: Path = MISREADINGS) -> tuple[Control, ...]:
    """The misreading catalogue, by name."""
    return tuple(_misreading(p) for p in sorted(folder.glob("*.json")))


TOOLCHAIN_CONTROLS: tuple[Control, ...] = (
    Control("fma-arm64", "FMA contraction on arm64 (-ffp-contract=fast: a*b + c fused into fmadd)", _fma_arm64,
            needs=("zig", "unicorn"), clauses=("arith.binary64",), cause=FMA_CAUSE),
    Control("clang-default-arm64", "Clang's default contraction on arm64 (no -ffp-contract flag, no FP_CONTRACT "
            "pragma: a*b + c fused within an expression)", _clang_default_arm64, needs=("zig", "unicorn"),
            clauses=("arith.binary64",), cause=FMA_CAUSE),
    Control("fma-x64", "FMA contraction on x86-64 (-march=haswell -ffp-contract=fast: a*b + c fused into vfmadd, "
            "as -march=native does on a recent CPU)", _host_build("fma-x64", "-march=haswell", "-ffp-contract=fast"),
            needs=("cc", "fma"), clauses=("arith.binary64",), cause=FMA_CAUSE),
    Control("fast-math-x64", "-ffast-math on x86-64", _host_build("fast-math-x64", "-ffast-math"),
            clauses=("arith.binary64",), cause="reciprocal.*fix: no -ffast-math"),
    Control("unsafe-math-x64", "-funsafe-math-optimizations on x86-64 (fast math's value-changing parts)",
            _host_build("unsafe-math-x64", "-funsafe-math-optimizations"), clauses=("arith.binary64",),
            cause="(reciprocal|sign of zero).*fix: no -ffast-math"),
    Control("reciprocal-math-x64", "-freciprocal-math on x86-64 (x / y as x * (1 / y))",
            _host_build("reciprocal-math-x64", "-freciprocal-math"), clauses=("arith.binary64",),
            cause="reciprocal.*fix: .*-freciprocal-math"),
    Control("no-signed-zeros-x64", "-fno-signed-zeros on x86-64 (0 - x as -x, x + 0 as x: a -0.0 becomes 0.0)",
            _host_build("no-signed-zeros-x64", "-fno-signed-zeros"), clauses=("arith.binary64",),
            cause="sign of zero.*fix: .*-fno-signed-zeros"),
    Control("associative-math-x64", "-fassociative-math on x86-64 (with the -fno-signed-zeros and "
            "-fno-trapping-math it needs to act)", _host_build("associative-math-x64", "-fassociative-math",
                                                                "-fno-signed-zeros", "-fno-trapping-math"),
            clauses=("arith.binary64",), cause="(sign of zero|reassociat).*fix: .*-f(no-signed-zeros|associative-math)"),
    Control("x87-i386", "x87 extended precision on i386 (-mcpu=i686, no SSE)", _x87_i386, needs=("zig", "unicorn"),
            clauses=("arith.binary64",), cause="x87 extended precision.*fix: "),
    Control("x87-i386-qemu", "x87 extended precision on i386 (zig cc -target x86-linux -mcpu=pentiumpro), under "
            "qemu-i386", _x87_i386_qemu, needs=("zig", f"qemu:{TARGETS['i386'].emulator}"),
            clauses=("arith.binary64",), cause="x87 extended precision.*fix: "),
    Control("fma-one-site", "one multiply-add fused by hand (fma at the line program's disc, the rest as the text)",
            lambda: CffiRunner(CVariant("control:fma-one-site", system_cc(), DETERMINISM_FLAGS + ("-O2",),
                                        _patched("fma-disc"))),
            clauses=("arith.binary64",), cause=FUSED_SITE_CAUSE),
)
"""One common toolchain choice each, made on the suite's own C port with its guards removed: the
cell that catches one must name the choice (the toolchain fingerprint, judge/fingerprint.py) and
its fix."""

BUILD_CONTROLS: tuple[Control, ...] = TOOLCHAIN_CONTROLS + (
    _careless("single-precision", "single-precision state (positions and velocities as float)",
              careless.Float32StateSimulator, "float32 state", ("arith.state", "arith.binary64"),
              r"the port's (state is|positions are|velocities are) float32"),
    _careless("agents-before-obstacles", "agent constraints listed before the obstacle constraints",
              careless.AgentsFirstSimulator, "agents first", ("neighbors.obstacles", "fallback.hard-prefix"),
              "agent constraints listed before the obstacle constraints"),
    _careless("neighbors-by-index", "agent neighbors listed by index instead of by distance",
              careless.NeighborsByIndexSimulator, "neighbors by index", ("neighbors.agents",),
              "agent neighbors listed by index instead of by distance"),
    # its agent_step reports the reference's constraints (only its velocity rule is the textbook's):
    # what its cell can see is a velocity from the same constraints, which the program computes
    _careless("textbook-ttc", "the simplified time-to-collision projection of orca-textbook.txt",
              careless.TextbookSimulator, "textbook TTC projection",
              ("agents.case-form", "agents.responsibility", "lp.goal"),
              "new velocity differs from the same constraints: the linear program"),
)

def _slip(name: str, mistake: str, runner: type, cause: str, clauses: tuple[str, ...]) -> Control:
    """A contract slip: the reference with one protocol slip, judged by the protocol row."""
    return Control(name, mistake, lambda: runner(f"control:{name}"), has_vectors=False, needs=(), clauses=clauses,
                   cause=cause, protocol=True)


CONTRACT_CONTROLS: tuple[Control, ...] = (
    _slip("state-between-runs", "state kept from one run into the next (each agent starts with the velocity its "
          "index had at the end of the previous run)", contract_slips.LeakingRunner,
          "(state leaks|keeps state) from one run into the next", ("hash.states",)),
    _slip("dump-off-by-one", "a dump of step k holds the state after k + 1 steps", contract_slips.DumpLateRunner,
          r"the dumps check failed: .*one step late", ("dump.preferred",)),
    _slip("short-run", "a run of n steps gives states 0..n-1 (one state short)", contract_slips.ShortRunRunner,
          r"the run-steps check failed: .*gave \d+ states?, not the \d+ asked for", ("hash.states",)),
)
"""The contract slips (issue 42 item 5): the protocol row catches each and names it."""

CONTROLS: tuple[Control, ...] = BUILD_CONTROLS + CONTRACT_CONTROLS + misreadings()


def control_runner(name: str) -> Runner:
    """The runner of ``control:<name>``; InputError for an unknown control."""
    control = next((c for c in CONTROLS if c.name == name), None)
    if control is None:
        names = [c.name for c in CONTROLS]
        hint = did_you_mean(name, names, prefix="control:")
        raise InputError("command line", "runners",
                         f"unknown control {name!r}" + (hint or f"; known: {', '.join(names)}"))
    runner = control.make()
    runner.id = f"control:{name}"
    return runner


def register_columns() -> None:
    """Make every ``control:<name>`` column resolvable and its needs known to the doctor (the
    entry points call this: the runners cannot import the self-tests above them)."""
    register_family("control:", control_runner)
    COLUMN_NEEDS.update({f"control:{c.name}": c.needs for c in CONTROLS})


SLIP_SCENES = 3
"""The cheapest scenes a contract slip runs after the protocol row (a leak shows in the second
scene a process runs; a late dump or a short run in none: the row is what catches them)."""

CAUGHT, NOT_CAUGHT = "CAUGHT", "NOT CAUGHT"
VECTORS_ONLY, ERROR_ONLY = "VECTORS ONLY", "ERROR ONLY"
EQUIVALENT, NO_SCENE, WRONG_CLAIM, MISCITED = "EQUIVALENT", "NO SCENE", "WRONG CLAIM", "MISCITED"
MISCAUSED = "MISCAUSED"
DECISION_KINDS = ("strictness", "sqrt-vs-square", "tie-break", "threshold")
"""Catalogue kinds that read one decision otherwise (the others change a formula, an order or a
parameter, which a stock reading of the assembly may rightly name)."""
GOOD = (CAUGHT, EQUIVALENT, NO_SCENE)
"""The verdicts that are not a gap of the suite (SKIPPED is neither)."""


@dataclass
class ControlResult:
    control: Control
    status: str  # one of the verdicts above, or SKIPPED
    cell: Cell | None = None
    """The scenario cell that caught it (DIVERGED), or the first ERROR cell when none diverged."""
    vectors: Cell | None = None
    reason: str = ""
    seconds: float = 0.0
    scenarios_run: int = 0
    protocol: Cell | None = None
    """The protocol row, for a contract slip."""


def by_cost(scenarios: list[Scenario]) -> list[Scenario]:
    """Cheapest first (agents x steps), so that a control is caught as early as possible."""
    return sorted(scenarios, key=lambda s: (max(1, len(s.scene.agents)) * s.scene.steps, s.id))


def run_control(control: Control, scenarios: list[Scenario], goldens: Path) -> ControlResult:
    """Vectors row, then scenarios cheapest first until one diverges; then the verdict."""
    started = time.perf_counter()
    runner = control.make()
    reference = ReferenceRunner()
    try:
        try:
            runner.info()
        except RunnerUnavailable as err:
            return ControlResult(control, SKIPPED, reason=str(err))
        except RunnerError as err:
            return ControlResult(control, ERROR_ONLY, reason=f"the build or start failed: {err.reason}",
                                 seconds=time.perf_counter() - started)
        vectors_cell = None
        failure = None
        if control.has_vectors:
            vectors_cell, failure = vector_cell(runner, goldens / "vectors")
        row = protocol_cell(runner) if control.protocol else None
        finding = row.finding if row is not None else None
        caught: Cell | None = None
        first_error: Cell | None = None
        run = 0
        for scenario in by_cost(scenarios)[:SLIP_SCENES if control.protocol else None]:
            cell = compare_scenario(scenario, runner, goldens, reference, failure, protocol=finding)
            run += 1
            if cell.status == DIVERGED:
                caught = cell
                break
            if cell.status == ERROR and first_error is None:
                first_error = cell
        result = ControlResult(control, "", caught or first_error, vectors_cell, scenarios_run=run, protocol=row)
        _judge(result, len(scenarios))
        result.seconds = time.perf_counter() - started
        return result
    finally:
        runner.close()


def _judge(result: ControlResult, scenario_count: int) -> None:
    """The verdict from what caught the control and what its entry claims."""
    control, cell = result.control, result.cell
    if control.protocol:
        _judge_slip(result)
        return
    in_scene = cell is not None and cell.status == DIVERGED
    by_vectors = result.vectors is not None and result.vectors.status != PASS
    by_error = cell is not None and cell.status == ERROR
    if control.equivalent:
        if in_scene or by_vectors or by_error:
            result.status = WRONG_CLAIM
            result.reason = "claimed equivalent, but " + _headline(cell if cell is not None else result.vectors)
        else:
            result.status, result.reason = EQUIVALENT, control.equivalent
    elif in_scene:
        result.status, result.reason = CAUGHT, _headline(cell)
        cited = cell.diagnosis.citation if cell.diagnosis is not None else None
        if control.site and (cited is None or not cited.found or cited.primary not in control.clauses):
            result.status = MISCITED
            result.reason = (f"caught, but the cell cites {cited.primary if cited and cited.found else 'no clause'}"
                             f", not the entry's {', '.join(control.clauses)}: {result.reason}")
        stock = cell.diagnosis.constraint.reading if cell.diagnosis and cell.diagnosis.constraint else ""
        headline = cell.diagnosis.headline if cell.diagnosis is not None else ""
        if control.kind in DECISION_KINDS and stock:  # a decision's misreading explained by a formula mix-up
            result.status = MISCAUSED
            result.reason = f"caught, but the cell blames {stock}, not the decision {control.site}: {result.reason}"
        elif control.cause and not re.search(control.cause, headline):
            result.status = MISCAUSED
            result.reason = f"caught, but the cell does not name the entry's cause /{control.cause}/: {result.reason}"
    elif control.no_scene and by_vectors:
        result.status, result.reason = NO_SCENE, control.no_scene
    elif by_error:
        result.status, result.reason = ERROR_ONLY, _headline(cell)
    elif by_vectors:
        result.status = VECTORS_ONLY
        result.reason = f"no scenario diverged (of {scenario_count}); only the vectors row caught it"
    else:
        result.status, result.reason = NOT_CAUGHT, f"passed all {scenario_count} scenarios and the vectors"


def _judge_slip(result: ControlResult) -> None:
    """A contract slip: CAUGHT when the protocol row fails and its headline, and the headline of
    the scenario cell that diverged if one did, name the slip (``cause``); MISCAUSED when one does
    not; NOT CAUGHT when the row passes (the cell shown is then the row's)."""
    control, row, cell = result.control, result.protocol, result.cell
    if row is None or row.status == PASS:
        result.status, result.reason = NOT_CAUGHT, "the protocol row passed"
        return
    said = [_headline(row)] + ([_headline(cell)] if cell is not None and cell.status == DIVERGED else [])
    result.status, result.reason = CAUGHT, said[-1]
    if cell is None or cell.status != DIVERGED:
        result.cell = row
    missed = [words for words in said if not re.search(control.cause, words)]
    if missed:
        result.status = MISCAUSED
        result.reason = f"caught, but a cell does not name the entry's cause /{control.cause}/: {missed[0]}"


def _headline(cell: Cell) -> str:
    """A red cell's headline without its status, row and runner (judge/cell_text.py)."""
    return cell_lines(cell)[0].split("]: ", 1)[-1]


def format_controls(results: list[ControlResult]) -> str:
    """One row per control: verdict, the scenario and step that caught it, vectors, the reason."""
    name_w = max([len("control")] + [len(r.control.name) for r in results])
    where_w = max([len("caught in")] + [len(r.cell.row) for r in results if r.cell is not None])
    lines = [f"{'control':<{name_w}}  {'verdict':<12}  {'caught in':<{where_w}}  {'step':>5}  {'vectors':<8}  reason",
             f"{'-' * name_w}  {'-' * 12}  {'-' * where_w}  {'-' * 5}  {'-' * 8}  {'-' * 6}"]
    for r in results:
        where = r.cell.row if r.cell is not None else "-"
        step = str(r.cell.step) if r.cell is not None and r.cell.step is not None else "-"
        vec = "-" if r.vectors is None else ("pass" if r.vectors.status == PASS else "CAUGHT")
        lines.append(f"{r.control.name:<{name_w}}  {r.status:<12}  {where:<{where_w}}  {step:>5}  {vec:<8}  {r.reason}")
    return "\n".join(lines)


def named_share(results: list[ControlResult]) -> tuple[int, int]:
    """The diagnosis benchmark: of the controls caught in a scene whose entry declares the cause
    its cell must name, how many cells name it (CAUGHT, not MISCAUSED or MISCITED)."""
    judged = [r for r in results if r.control.cause and r.status in (CAUGHT, MISCAUSED, MISCITED)]
    return sum(r.status == CAUGHT for r in judged), len(judged)


def summarize(results: list[ControlResult]) -> tuple[dict[str, int], list[str]]:
    """Counts per verdict, and the names of the controls that are gaps of the suite."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    gaps = [r.control.name for r in results if r.status not in GOOD and r.status != SKIPPED]
    return counts, gaps
