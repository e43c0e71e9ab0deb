"""The variant engine: every variant judged in a worker process of its own, verdicts cached.

Contract: ``worker_verdict(args, timeout, sanitizer)`` runs ``python -m module [--sanitize NAME]
ARGS`` (with the sanitizer's runtime preloaded, ``runners.build.sanitizer.environment``) and
returns its raw verdict in the engine's words (``verdicts.VariantStatus``) with the ``seconds``
it took: its own JSON line, else a ``crash`` by ``sanitizer:NAME`` (a sanitizer's report: its
first line, the first frame and what ran), a ``crash`` by ``crash`` (a signal, caught by a
sanitizer or not), or a ``timeout`` (no verdict in time, or a worker that died without one).
``judge_all(variants, run, classify)`` builds each variant's tree (``tree.variant_tree``), judges
it with the run's worker profile (``worker.PROFILES``), ``run.jobs`` at a time, from
``run.cache`` when a verdict there still holds (``verdicts.VerdictCache``), and returns
``classify(variant, raw)`` of each, in the given order, telling ``progress`` of each as it comes.
Judging the same variant twice gives the same verdict; the verdict never depends on ``jobs``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from ...runners.build.sanitizer import EXIT_STATUS, environment, find_report
from .tree import variant_tree
from .variant import Variant
from .verdicts import AT, VariantStatus, VerdictCache, legacy

WORKER = "conformance.selftest.variants.worker"
T = TypeVar("T")


@dataclass(frozen=True)
class Run:
    """How a set of variants is judged."""

    root: Path
    """The suite whose scenarios, goldens and vectors judge."""
    profile: str
    """The worker's profile (``variant.MUTATION`` or ``variant.OPERATOR``)."""
    cache: VerdictCache
    key: Callable[[Variant], str]
    """The cache key text of a variant's verdict: what it depends on besides the data digest."""
    data: str
    """The digest of the data the verdicts are judged on (the goldens)."""
    timeout: float = 30.0
    jobs: int | None = None
    sanitizer: str | None = None
    cached: bool = True


def worker_verdict(args: list[str], timeout: float, *, sanitizer: str | None = None,
                   module: str = WORKER) -> dict:
    """The raw verdict of one worker process (the module's contract)."""
    started = time.perf_counter()
    cmd = [sys.executable, "-m", module, *(["--sanitize", sanitizer] if sanitizer else []), *args]
    env = environment(sanitizer) if sanitizer else None
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": VariantStatus.TIMEOUT, "detail": f"no verdict within {timeout:.0f} s", "seconds": timeout}
    return {**classify_exit(done, sanitizer), "seconds": time.perf_counter() - started}


def classify_exit(done: subprocess.CompletedProcess, sanitizer: str | None) -> dict:
    """A finished worker's raw verdict (``worker_verdict``), without the seconds."""
    report = find_report(done.stderr) if sanitizer else None
    during = last_at(done.stderr)
    crash = VariantStatus.CRASH
    if report is not None and not report.is_signal:
        return {"status": crash, "killed_by": f"sanitizer:{report.sanitizer}",
                "detail": report.detail + (f" during {during}" if during else "")}
    if done.returncode < 0 or report is not None:
        why = report.detail if report is not None else f"signal {-done.returncode}"
        return {"status": crash, "killed_by": "crash", "detail": f"the variant crashed ({why})"}
    if sanitizer and done.returncode == EXIT_STATUS:  # a report in a form find_report does not know
        tail = done.stderr.strip()[-300:]
        return {"status": crash, "killed_by": f"sanitizer:{sanitizer}", "detail": f"exit status {EXIT_STATUS}: {tail}"}
    try:
        return legacy(json.loads(done.stdout.strip().splitlines()[-1]))
    except (IndexError, ValueError):
        tail = (done.stderr or done.stdout).strip()[-300:]
        return {"status": VariantStatus.TIMEOUT, "detail": f"worker crashed (status {done.returncode}): {tail}"}


def last_at(stderr: str) -> str:
    """What the worker said it was running last (its ``AT`` lines), or ''."""
    marks = [line[len(AT):] for line in (stderr or "").splitlines() if line.startswith(AT)]
    return marks[-1] if marks else ""


def judge(variant: Variant, run: Run) -> dict:
    """One variant's raw verdict, built and judged afresh (no cache)."""
    tree = variant_tree(variant)
    return worker_verdict([run.profile, str(tree), str(run.root)], run.timeout, sanitizer=run.sanitizer)


def judge_one(variant: Variant, run: Run) -> dict:
    """One variant's raw verdict, from the cache when it still holds (and ``run.cached``)."""
    key = run.key(variant)
    if run.cached:
        found = run.cache.load(key, run.root, run.data)
        if found is not None:
            return found
    raw = judge(variant, run)
    run.cache.store(key, raw, run.root, run.data)
    return raw


def judge_all(variants: list[Variant], run: Run, classify: Callable[[Variant, dict], T],
              progress: Callable[[T], None] | None = None) -> list[T]:
    """Every variant judged and classified, ``run.jobs`` processes at a time (default: the
    number of cores), in the given order."""
    out: list[T] = []
    with ThreadPoolExecutor(max_workers=run.jobs or os.cpu_count() or 1) as pool:
        for found in pool.map(lambda v: classify(v, judge_one(v, run)), variants):
            out.append(found)
            if progress is not None:
                progress(found)
    return out
