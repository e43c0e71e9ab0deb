"""The boundary census as ``orca-conformance census`` takes or checks it.

Contract: ``take_census(suite, write, say)`` runs the instrumented reference over the
vectors and the committed non-slow scenarios (one progress bar), says the table (boundaries,
then rounding bands) and its timing, writes ``docs/census/census.json`` only when ``write``,
and fails when a decision site, or a rounding band of one, is neither covered nor argued.  ``check_census(suite, say)`` runs nothing new: it says
each problem of the committed census (stale, incomplete, a site uncovered) and fails on any.
"""

from __future__ import annotations

import time
from typing import Callable

from ...data.suite import Suite
from ...jsonfile import write_json_atomic
from ...progress import Progress
from . import boundary as census


def check_census(suite: Suite, say: Callable[[str], None]) -> bool:
    """The committed census is fresh, complete, every site covered or argued; True when not."""
    scenarios = suite.files(False)
    problems = census.check_committed(census.census_path(suite.root), suite.goldens_dir / "vectors", scenarios)
    for problem in problems:
        say(problem)
    say(f"census check: {len(problems)} problems")
    return bool(problems)


def take_census(suite: Suite, write: bool, say: Callable[[str], None]) -> bool:
    """Takes the census now; True when a site is neither covered nor argued."""
    scenarios = suite.files(False)
    path = census.census_path(suite.root)
    vector_folder = suite.goldens_dir / "vectors"
    sites = census.find_sites()
    started = time.perf_counter()
    with Progress(len(scenarios) + 1, "census") as bar:
        def advance(scenario_id: str) -> None:
            bar.advance(1, label=scenario_id)
        tally = census.run_census(vector_folder, scenarios, on_scenario=advance)
        bar.advance(1)
    table = census.rows(sites, tally)
    say(census.format_table(table))
    say(f"census: vectors and {len(scenarios)} scenarios in {time.perf_counter() - started:.1f} s")
    if write:
        write_json_atomic(path, census.to_document(table, census.digest(vector_folder, scenarios)))
        say(f"census: wrote {path.relative_to(suite.root)}")
    gaps = census.unresolved(table)
    if gaps:
        say(f"census: {len(gaps)} sites neither covered nor argued")
    open_bands = census.open_bands(table)
    for problem in census.band_problems(sites, census.all_bands(table)):
        say(problem)
    if open_bands:
        say(f"census: {len(open_bands)} site bands neither covered nor argued")
    return bool(gaps or open_bands or census.band_problems(sites, census.all_bands(table)))
