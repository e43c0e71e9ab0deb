"""The vector families a runner provides, and the vectors row of a port that lacks some.

Contract: a runner's ``info().provides`` names the vector families it answers (an exec port's
hello, docs/protocol.md#hello; a careless Python port provides none; None: every family).
``provides(runner, family)`` reads it once per runner object and takes a runner whose ``info()``
fails as providing every family (the diagnosis then asks it, and says so when that fails, as
it always did).  Neither the vectors row nor a scenario cell's diagnosis (causes.py,
step_comparison.py, citation.py) asks a family the runner does not provide: ``asked`` splits the
stored families into those to ask and those not provided.  A vectors row whose provided
families all pass but which lacks some is NOT PROVIDED with ``not_provided_reason``; a row in
which a provided family diverges or errs stays DIVERGED or ERROR, and ``tally`` names the
families not provided in its count.  NOT PROVIDED does not fail a run; ``--strict`` fails on it
(judge/gate.py): a gate requires every family.
"""

from __future__ import annotations

import threading
import weakref

from .outcomes import Status

NOT_PROVIDED = Status.NOT_PROVIDED
HELLO = "the port's hello"
AGENT_STEP_NOT_PROVIDED = ("the port does not provide agent_step (its hello), so the constraint assembly and the "
                           "programs could not be told apart from the step's composition")
"""The note of a solver divergence (causes.solver_cause) when agent_step is not provided."""

_known: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def provided(runner) -> frozenset[str] | None:
    """The families ``runner`` answers, None for every family (also when its ``info()`` fails);
    read once per runner object."""
    with _lock:
        try:
            return _known[runner]
        except (KeyError, TypeError):
            pass
    try:
        declared = runner.info().provides
        found = None if declared is None else frozenset(declared)
    except Exception:  # noqa: BLE001 - a runner that cannot say is asked everything, as before
        found = None
    with _lock:
        try:
            _known[runner] = found
        except TypeError:  # not weakly referable: asked again next time
            pass
    return found


def provides(runner, family: str) -> bool:
    """Whether ``runner`` answers ``family`` (True when it cannot say)."""
    found = provided(runner)
    return found is None or family in found


def asked(runner, families: dict[str, list]) -> tuple[dict[str, list], list[str]]:
    """``families`` (name -> cases) split into those ``runner`` provides, in order, and the
    names of the others."""
    found = provided(runner)
    if found is None:
        return families, []
    return ({name: cases for name, cases in families.items() if name in found},
            [name for name in families if name not in found])


def not_provided_reason(missing: list[str], passed: int, total: int) -> str:
    """The reason of a NOT PROVIDED vectors row."""
    return f"not provided ({HELLO}): {', '.join(missing)}; {passed} of {total} families pass"


def tally(passed: list[str], diverged: list[str], errors: list[tuple[str, str]], missing: list[str]) -> str:
    """The families' count of a DIVERGED or ERROR vectors row: how many pass of all, which are
    wrong (when more than one), which erred (when that is not the headline alone), and which
    the port does not provide."""
    total = len(passed) + len(diverged) + len(errors) + len(missing)
    summary = [f"{len(passed)} of {total} families pass"]
    if len(diverged) > 1:
        summary.append("wrong: " + ", ".join(diverged))
    if errors and (diverged or len(errors) > 1):
        summary.append("errors: " + ", ".join(name for name, _ in errors))
    if missing:
        summary.append(f"not provided ({HELLO}): " + ", ".join(missing))
    return "; ".join(summary)
