"""The one cell engine: a port's stream of state hashes against the expected ones, into a cell.

Contract: ``compare_hashes(stream, expected)`` reads a port's hashes of states 0, 1, ... and
stops at the first that differs from ``expected`` (or the first past its end), at the error that
ends the stream, or at its end; it closes the stream and returns a ``StreamOutcome`` (nothing is
diagnosed).  ``judge_stream(row, scene, expected, runner, reference, vector_failure, protocol=...)`` is a whole
cell: PASS; DIVERGED at the first differing state, with its diagnosis; or ERROR with the
reason (and the port's last stderr lines), diagnosed at its failing step when the run stopped
on a non-finite state (``NonFinite``) or failed mid-run in a way that asking the port again can
explain (``RunnerError.diagnosable``).  ``vector_failure`` is the runner's first failing
primitive (the vectors row's), or a function that computes it when a diagnosis needs it;
``protocol`` likewise the protocol row's typed finding (protocol_finding.py: state that leaks
between runs, a dump that disagrees with a run), which a diagnosis judged from the port's runs
and dumps then says first.  The matrix runs both rows before a column's scenarios and passes
what they found; the pytest plugin and fuzz pass functions that run them when first needed.
``shared``: a column's ``SharedCauses`` (shared_causes.py), so that the dear searches of a
diagnosis run once per cause and column; None gives the cell one of its own (nothing shared
with other cells, but the searches the vectors row's arithmetic makes moot are skipped there
too, so that a cell reads the same through the matrix, the plugin and fuzz); a disabled one
(--verbose) searches every cell in full.  A diagnosis is
never changed: what the rows add (``attach_vector_failure``, ``protocol_finding.say_first``) is a
new Diagnosis (``dataclasses.replace``) that the cell then holds.

Every place that turns a port's hashes into a verdict goes through these two: the matrix and
the pytest plugin (``matrix.compare_scenario``), fuzz's cells and its shrink oracle, the
controls, and the mutation and operator workers; so one failing port reads the same, word for
word, wherever it is judged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence, Union

from ..contract.clauses import Citation
from ..contract.scenario import Scene
from ..runners.base import NonFinite, Runner, RunnerError
from .cause_record import NonFiniteValue
from .cell import DIVERGED, ERROR, PASS, Cell
from .diagnosis import Diagnosis, diagnose, first_failing_dump
from .protocol_finding import FindingSource, say_first
from .hash_encoding import canonical_hash
from .shared_causes import CachedReference, SharedCauses, stateless_driver
from .vector_failure import VectorFailure

FailureSource = Union[VectorFailure, Callable[[], Union[VectorFailure, None]], None]
"""The runner's first failing primitive, or a function giving it (called at most once, and only
when a diagnosis is made), or None when its primitives all pass or were not asked."""


@dataclass(frozen=True)
class StreamOutcome:
    """How a stream of hashes ended against the expected ones.

    ``compared``: the states that matched, in order.  ``diverged``: the first state whose hash
    differs (``reported`` is the port's hash of it), or None.  ``extra``: the port sent more
    states than expected.  ``error``: the error that ended the stream, or None."""

    compared: int
    expected: int
    diverged: int | None = None
    reported: str | None = None
    extra: bool = False
    error: RunnerError | None = None

    @property
    def passed(self) -> bool:
        """Every expected state, and nothing more, each with its expected hash."""
        return (self.diverged is None and not self.extra and self.error is None
                and self.compared == self.expected)

    def first_difference(self) -> int | None:
        """The first state that is not the expected one (a differing hash, or a state past the
        expected ones), else None; an error or a short run is no difference of a state."""
        if self.diverged is not None:
            return self.diverged
        return self.expected if self.extra else None


def compare_hashes(stream: Iterable[str], expected: Sequence[str], on_step: Callable[[], None] | None = None
                   ) -> StreamOutcome:
    """Read ``stream`` against ``expected`` (``on_step`` after each matching state); see the
    module's contract.  Closes the stream, whatever happens."""
    count = 0
    iterator = iter(stream)
    try:
        for step, got in enumerate(iterator):
            if step >= len(expected):
                return StreamOutcome(count, len(expected), extra=True)
            if got != expected[step]:
                return StreamOutcome(count, len(expected), diverged=step, reported=got)
            count += 1
            if on_step is not None:
                on_step()
    except RunnerError as err:
        return StreamOutcome(count, len(expected), error=err)
    finally:
        getattr(stream, "close", lambda: None)()
    return StreamOutcome(count, len(expected))


ROUNDING_CAUSE = ("the floating-point evaluation differs, not the logic: {rounding} differ from the same arguments "
                  "by rounding only, as FMA contraction, x87 extended precision, fast-math or another order of "
                  "operations than the text's would; {cause}")


def attach_vector_failure(diagnosis: Diagnosis, vector_failure: VectorFailure | None) -> Diagnosis:
    """The diagnosis naming the runner's first failing primitive (family, case and decoded case);
    when the primitives differ only by rounding, or the toolchain fingerprint is decisive on its
    own (a dropped sign of zero), its cause says so first: that is the cause to fix (a new
    Diagnosis; ``diagnosis`` itself when there is no failure)."""
    if vector_failure is None:
        return diagnosis
    family, case = vector_failure
    named = replace(diagnosis, vector_family=family, vector_case=case,
                    vector_detail=getattr(vector_failure, "detail", ""))
    rounding = getattr(vector_failure, "rounding", "")
    found = getattr(vector_failure, "fingerprint", None)
    if diagnosis.rounding or not getattr(vector_failure, "arithmetic", ""):
        return named
    cause = diagnosis.found
    at_step = f"at the step: {cause.detail}" if cause.detail else "the step shows it"
    if found is not None:  # the slip by name, and its fix
        said = f"the floating-point evaluation differs: {found.model.what}; fix: {found.model.fix}"
        cause = replace(cause, detail=f"the floating-point evaluation differs, not the logic: "
                        f"{found.text(whole=True)} ({at_step})", headline=said, key=said, fix=found.model.fix)
    else:
        said = "the floating-point evaluation differs, not the logic: the formula primitives differ by rounding only"
        cause = replace(cause, detail=ROUNDING_CAUSE.format(rounding=rounding, cause=at_step), headline=said, key=said)
    citation = Citation("arith.binary64", cause.citation.ids if cause.citation else [])
    return replace(named, found=replace(cause, rounding=rounding, citation=citation))


def with_stderr(err: RunnerError) -> str:
    """The reason, and the port's last stderr lines when it left any (a port that dies at start-up)."""
    tail = " | ".join(line for line in err.stderr_tail.strip().splitlines()[-5:] if line.strip())
    return err.reason + (f" | stderr: {tail[-400:]}" if tail else "")


def _failing_step(cell: Cell, err: RunnerError, scene: Scene, runner: Runner) -> int | None:
    """The step an ERROR is diagnosed at: a non-finite state's; else, after some states matched
    and for an error that asking again can explain, the first step the port cannot dump (the
    hashes may arrive in batches); None when there is none to diagnose."""
    if isinstance(err, NonFinite):
        step = err.step
    elif cell.compared == 0 or not err.diagnosable:
        return None
    else:
        step = first_failing_dump(runner, scene, cell.compared, scene.steps)
    return step if step is not None and 0 < step <= scene.steps else None


def _seed_reference(reference: Runner, scene: Scene, runner: Runner, step: int, expected: Sequence[str]) -> None:
    """Spare a caching reference the replay up to ``step - 1`` where it can: when the port's dump
    of that state hashes to the golden's hash of it, its positions and velocities are the
    reference's, and a driver without state gives the rest (shared_causes.CachedReference.seed)."""
    if not isinstance(reference, CachedReference) or not 0 < step <= len(expected) or not stateless_driver(scene):
        return
    try:
        before = runner.dump(scene, step - 1)
    except RunnerError:
        return
    if canonical_hash(before.agents) == expected[step - 1]:
        reference.seed(scene, step - 1, before.agents)


def _diagnose(cell: Cell, scene: Scene, runner: Runner, reference: Runner, reported: str | None,
              err: RunnerError | None, shared: SharedCauses | None) -> Diagnosis | None:
    """The diagnosis of ``cell.step`` (a divergence, or the failing step of ``err``), or None with
    a note in the reason when the port failed the diagnosis itself."""
    non_finite = NonFiniteValue(err.agent, err.field, err.value) if isinstance(err, NonFinite) else None
    try:
        if shared is not None:
            shared.owner = f"{cell.row}@{cell.step}"
        found = diagnose(scene, cell.step, runner, reference, reported, non_finite=non_finite, shared=shared)
    except RunnerError as failed:
        cell.reason = " | ".join(filter(None, [cell.reason, f"the diagnosis failed: {failed.reason}"]))
        return None
    if isinstance(err, NonFinite) and err.agent is None and found.state is not None:  # the diagnosis names it
        return replace(found, non_finite=NonFiniteValue(found.state.agent, found.state.field))
    return found


def judge_stream(row: str, scene: Scene, expected: Sequence[str], runner: Runner, reference: Runner,
                 vector_failure: FailureSource = None, on_step: Callable[[], None] | None = None,
                 protocol: FindingSource = None, shared: SharedCauses | None = None) -> Cell:
    """One cell of ``runner`` on ``scene`` against the ``expected`` hashes; see the module's contract."""
    started = time.perf_counter()
    cell = Cell(row, runner.id, PASS)
    outcome = compare_hashes(runner.hashes(scene), expected, on_step)
    cell.compared = outcome.compared
    if outcome.diverged is not None:
        cell.status, cell.step = DIVERGED, outcome.diverged
    elif outcome.extra:
        cell.status, cell.reason = ERROR, f"returned more than the {len(expected)} states expected"
    elif outcome.error is not None:
        cell.status, cell.reason, cell.failure = ERROR, with_stderr(outcome.error), outcome.error.reason
        cell.step = _failing_step(cell, outcome.error, scene, runner)
    elif outcome.compared != len(expected):
        cell.status, cell.reason = ERROR, f"returned {outcome.compared} states, expected {len(expected)}"
    if cell.step is not None:
        _seed_reference(reference, scene, runner, cell.step, expected)
        failure = vector_failure() if callable(vector_failure) else vector_failure
        shared = SharedCauses() if shared is None else shared  # a cell alone: its own
        shared.arithmetic = getattr(failure, "arithmetic", "")  # what the vectors row named ends its rounding searches
        cell.diagnosis = _diagnose(cell, scene, runner, reference, outcome.reported, outcome.error, shared)
        if cell.diagnosis is not None:
            cell.diagnosis = attach_vector_failure(cell.diagnosis, failure)
            cell.diagnosis = say_first(cell.diagnosis, protocol() if callable(protocol) else protocol)
            if cell.status == DIVERGED:
                cell.reason = cell.diagnosis.summary()
            elif cell.diagnosis.informative():
                cell.reason += f" | diagnosis: {cell.diagnosis.summary()}"
    cell.seconds = time.perf_counter() - started
    return cell
