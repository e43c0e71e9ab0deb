"""The negative controls as ``orca-conformance controls`` runs them (``fuzz --controls`` is fuzz/command.py).

Contract: ``choose_controls(only)`` is the controls whose name matches any of the
comma-separated names or globs in ``only`` (every control when None), ``InputError`` when
one of them matches no control.  ``run_controls`` runs each on the given scenarios (one progress bar) and says
the table and the summary; it fails when a control is caught in no scenario (a gap of the
suite) or nothing was compared.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Callable

from ...contract.scenario import Scenario
from ...errors import InputError, did_you_mean
from ...progress import Progress
from .catalogue import CONTROLS, Control, format_controls, named_share, run_control, summarize


def choose_controls(only: str | None) -> list[Control]:
    """The controls ``--only`` names (every control when None); InputError when one of its
    names or globs matches no control, with the nearest name when one is near."""
    patterns = [p.strip() for p in (only or "").split(",") if p.strip()]
    names = [c.name for c in CONTROLS]
    for pattern in patterns:
        if not any(fnmatchcase(name, pattern) for name in names):
            hint = did_you_mean(pattern, names) or " (see: orca-conformance controls)"
            raise InputError("command line", "--only", f"no control matches {pattern!r}{hint}")
    if only is not None and not patterns:
        raise InputError("command line", "--only", "names no control")
    return [c for c in CONTROLS if not patterns or any(fnmatchcase(c.name, p) for p in patterns)]


def run_controls(chosen: list[Control], scenarios: list[Scenario], goldens: Path,
                 say: Callable[[str], None]) -> bool:
    """Each control must be caught in a scene; True when the run fails."""
    results = []
    with Progress(len(chosen), "controls") as bar:
        for control in chosen:
            bar.advance(0, label=control.name)
            results.append(run_control(control, scenarios, goldens))
            bar.advance(1)
    say(format_controls(results))
    counts, gaps = summarize(results)
    say("\ncontrols: " + ", ".join(f"{n} {status.lower()}" for status, n in sorted(counts.items())))
    named, declared = named_share(results)
    if declared:
        silent = [r.control.name for r in results if not r.control.cause and not r.control.equivalent
                  and not r.control.no_scene]
        say(f"controls: the cell names the cause in {named} of {declared} caught controls that declare one "
            f"({100 * named // declared} %)" + (f"; none declared by {', '.join(silent)}" if silent else ""))
    if gaps:
        say("controls: not caught in any scenario: " + ", ".join(gaps)
            + " (add a scene that reaches the decision, or argue equivalence in the entry)")
    compared = sum(n for status, n in counts.items() if status != "SKIPPED")
    return bool(gaps or compared == 0)
