"""A differential fuzz run as ``orca-conformance fuzz --runners ...`` starts it.

Contract: ``fuzz_runners`` first settles the expected hashes (the reference's, or a column's
that must pass the whole committed suite in this run), then runs the seeded scenes on the
runners (one progress bar), saying one line per finding as it comes, one per runner skipped
or broken, and the summary line; it returns the ``FuzzResult``.  ``protocol`` adds the protocol
row's scene checks to each scene (``fuzz --protocol``); ``jobs`` worker processes compute the
reference's hashes ahead (``fuzz --jobs``: the same run as a serial one, see ``expected``);
``frames`` runs each scene that passed again in its frame (``fuzz --frames``, ``frames``).
``fuzz_failed`` says why when nothing was compared, and is True then, or when there is a finding
or a broken runner.  ``fuzz_controls`` runs each negative control on the committed non-slow
scenarios and then under fuzz (``fuzz --controls``), saying one line per control as it
finishes; it fails when fuzzing catches a control that the committed scenarios miss.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ... import __version__
from ...data.suite import Suite
from ...progress import Progress
from ..controls.catalogue import Control
from . import campaign as fuzz


def fuzz_runners(suite: Suite, runner_ids: list[str], seed: int, count: int | None, seconds: float | None,
                 kinds: tuple[str, ...], expected_id: str, shrink_to: Path | None,
                 say: Callable[[str], None], jobs: int = 1, *, verbose: bool = False,
                 protocol: bool = False, frames: bool = False) -> fuzz.FuzzResult:
    expected = fuzz.Expected()
    if expected_id != "reference":
        say(f"fuzz: checking that {expected_id} is identical to the reference on the committed suite ...")
        expected = fuzz.column_expected(expected_id, suite.select(None, False), suite.goldens_dir)
    say(f"fuzz: expected hashes from {expected.name}; suite {__version__}, seed {seed}")
    with Progress(count or 0, "fuzz") as bar:
        result = fuzz.run_fuzz(runner_ids, seed, count, seconds, kinds, expected, suite.goldens_dir / "vectors",
                               shrink_to, on_cell=lambda f: say(fuzz.format_finding(f, verbose)),
                               on_scene=lambda s: bar.advance(1, label=s.id), protocol=protocol, jobs=jobs,
                               frames=frames)
    for runner_id, reason in result.skipped.items():
        say(f"SKIPPED  {runner_id}: {reason}")
    for runner_id, reason in result.broken.items():
        say(f"ERROR    {runner_id}: {reason}")
    say(fuzz.summary_line(result))
    return result


def fuzz_failed(result: fuzz.FuzzResult, say: Callable[[str], None]) -> bool:
    if sum(result.compared.values()) == 0 and not result.findings:
        say("fuzz: nothing was compared (every runner was skipped, or every scene rejected)")
        return True
    return bool(result.findings or result.broken)


def fuzz_controls(chosen: list[Control], suite: Suite, seed: int, count: int, kinds: tuple[str, ...],
                  shrink_to: Path | None, say: Callable[[str], None]) -> bool:
    """Each control on the committed scenarios, then on up to ``count`` fuzz scenes; True when
    fuzzing catches one that the committed scenarios miss (a scenario to add)."""
    say(f"{'control':<32} {'fixed':<12} fuzz (seed {seed}, up to {count} scenes each)")
    rows = fuzz.fuzz_controls(chosen, suite.files(False), suite.goldens_dir, seed, count, kinds, shrink_to,
                              on_result=lambda r: say(fuzz.format_control_fuzz(r)))
    gaps = [r for r in rows if r.points_at_scenario()]
    missed = [r.fixed.control.name for r in rows if r.fuzz is not None and r.caught is None
              and r.fixed.status not in ("CAUGHT", "EQUIVALENT", "NO SCENE")]
    say(f"\nfuzz --controls: {len(rows)} controls, {sum(r.caught is not None for r in rows)} caught by fuzzing; "
        "the committed scenarios miss but fuzzing catches: "
        + (", ".join(f"{r.fixed.control.name} ({r.fixed.status})" for r in gaps) or "none"))
    if missed:
        say("fuzz --controls: missed by both: " + ", ".join(missed))
    return bool(gaps)
