"""A differential fuzz run as ``orca-conformance fuzz --runners ...`` starts it.

Contract: ``fuzz_runners`` first settles the expected hashes (the reference's, or a column's
that must pass the whole committed suite in this run), then runs the seeded scenes on the
runners (one progress bar), saying one line per finding as it comes, one per runner skipped
or broken, and the summary line; it returns the ``FuzzResult``.  ``protocol`` adds the protocol
row's scene checks to each scene (``fuzz --protocol``); ``jobs`` worker processes compute the
reference's hashes ahead (``fuzz --jobs``: the same run as a serial one, see ``fuzz_expected``);
``frames`` runs each scene that passed again in its frame (``fuzz --frames``, ``fuzz_frames``).
``fuzz_failed`` says why when nothing was compared, and is True then, or when there is a finding
or a broken runner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .. import __version__
from ..data.suite import Suite
from ..progress import Progress
from . import fuzz


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
