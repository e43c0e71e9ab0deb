"""The band search behind an operator variant reviewed equivalent (``operators --search``).

Contract: ``cases_file()`` is band_cases' fixed cases with the reference's results, computed
once and cached (keyed by ``generator_digest()``: the band and off-axis generators and the
reference).  ``search_tree(tree, cases)`` runs one variant tree on them in its own process
(``python -m conformance.selftest.variants.band_search TREE CASES``) and returns a ``SearchResult``: the
cases compared, how many gave other bits, and the first of those (family, index, arguments).
``refresh_search(root, jobs, say)`` searches every reviewed survivor of
docs/operators/equivalent.json that has no proof and no search record for the current C
sources and generator, writes each record there as soon as it is in, says one SEPARATED line
(with the separating case's arguments, to be held by a vector case) per variant the band tells
apart, and returns how many did.  A reviewed variant counts as equivalent only with a proof or a
search that separated nothing (review.Reviewed.status).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from ...runners.build.layer import cache_root
from .band_cases import generator_digest
from .tree import sources_digest, variant_build, variant_tree


@dataclass(frozen=True)
class SearchResult:
    """One variant on the band cases."""

    cases: int
    differ: int
    first: str = ""
    """``family#index`` of the first separating case ("" when none)."""
    args: list | None = None
    """That case's decoded arguments."""

    def to_record(self) -> dict:
        """The ``search`` object of a reviewed entry (with the sources and generator searched)."""
        return {**{k: v for k, v in asdict(self).items() if v is not None}, "sources": sources_digest()[:16],
                "generator": generator_digest()[:16]}


def cases_file() -> Path:
    """The band cases with the reference's results, cached by the generator digest."""
    from ...jsonfile import write_json_atomic
    from .band_cases import band_cases, with_results
    path = cache_root() / "band-search" / f"cases-{generator_digest()[:20]}.json"
    if not path.exists():
        write_json_atomic(path, with_results(band_cases()))
    return path


def search_tree(tree: Path, cases: Path, timeout: float = 300.0) -> SearchResult:
    """The variant tree on the band cases, in its own process (a crash separates it)."""
    cmd = [sys.executable, "-m", "conformance.selftest.variants.band_search", str(tree), str(cases)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return SearchResult(**json.loads(done.stdout.strip().splitlines()[-1]))
    except subprocess.TimeoutExpired:
        return SearchResult(0, 1, f"no answer within {timeout:.0f} s")
    except (IndexError, ValueError):
        return SearchResult(0, 1, f"the variant crashed (status {done.returncode})")


def _run(tree: Path, cases: Path) -> SearchResult:
    """In the worker process: every family of the cases file through the variant's build."""
    from ...data import vectors
    from ...judge.matrix import run_families
    from ...runners.cffi_runner import CffiRunner
    runner = CffiRunner(variant_build(tree))
    compared = differ = 0
    first, args = "", None
    for run in run_families(runner, json.loads(cases.read_text())):
        bad = list(range(len(run.cases))) if run.error is not None else run.bad
        if bad and not first:
            first = f"{run.name}#{bad[0]}"
            family = vectors.FAMILY_BY_NAME[run.name]
            args = [vectors.decode_value(c, v) for c, v in zip(family.args, run.cases[bad[0]]["args"])]
        compared += len(run.cases)
        differ += len(bad)
    return SearchResult(compared, differ, first, args)


def refresh_search(root: Path, jobs: int | None, say: Callable[[str], None]) -> int:
    """Searches every reviewed entry without a proof whose search is missing or stale; the
    number the band separates."""
    from .operators import find_variants, load_operators
    from .review import Reviewed, load_reviewed, save_reviewed
    by_id = {v.id: v for v in find_variants(load_operators())}
    entries = load_reviewed(root)
    todo = [i for i, e in entries.items() if i in by_id and e.proof is None and not e.searched()]
    cases = cases_file()

    def one(i: str) -> SearchResult:
        return search_tree(variant_tree(by_id[i]), cases)

    separated = 0
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for i, found in zip(todo, pool.map(one, todo)):
            e = entries[i]
            entries[i] = Reviewed(i, e.reason, e.evidence, e.proof, found.to_record())
            save_reviewed(root, entries)
            if found.differ:
                separated += 1
                say(f"SEPARATED {i}: {found.differ} of {found.cases} band cases differ, first {found.first} "
                    f"args {found.args!r}")
            else:
                say(f"searched  {i}: {found.cases:,} band cases, none differ")
    say(f"operators --search: {len(todo)} searched, {separated} separated by the band")
    return separated


def main(argv: list[str] | None = None) -> int:
    """``TREE CASES``: one JSON line (a SearchResult) on stdout."""
    args = list(sys.argv[1:] if argv is None else argv)
    print(json.dumps(asdict(_run(Path(args[0]), Path(args[1])))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
