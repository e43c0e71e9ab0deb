"""Where a fuzz run's expected hashes come from, and where they are computed: here, or ahead in workers.

Contract: ``Expected`` is the source: the reference, or a column (``column_expected``: only after
the whole committed suite PASSed on it in this run; a scene it cannot run falls back to the
reference); with ``memo`` it remembers scenes by fingerprint (the controls reuse them).
``scene_indices(kinds)`` is the run's order of scene indices (every index whose kind is
chosen, from 0).  ``reference_hashes(scene)`` is the reference's state hashes of a scene, or None
when the reference reaches a non-finite state (the scene is rejected).  ``expected_source``
gives the run its source of expected hashes, asked ``hashes(fs)`` for each scene in index order:

* ``SerialSource``: ``Expected.hashes`` in this process, when it is told (``jobs`` 1) or the
  hashes come from a column (``--expected c``: the reference is not the cost then).
* ``ReferencePool``: ``jobs`` worker processes compute ``reference_hashes(make_scene(seed,
  index).scene)`` for the coming indices, in chunks, a bounded window ahead of the run (and
  no further than ``limit`` scenes plus the rejected ones, when the run counts scenes).  The
  answer for an index is the very list the serial path computes (the reference is a pure
  function of the scene, and the scene of (seed, index)).  Only the reference moves: the
  runners, the comparison, the diagnosis, the shrinking and the reports stay in the calling
  process and see the scenes in index order, so a run is the same run as a serial one: the
  same scenes, the same cells, the same first failing scene, the same shrunk scenario, even
  for a port whose answers depend on what it ran before.  The workers start (fork, on Linux)
  when the pool is made, before the run starts any runner.  A chunk that fails in a worker (an
  exception of the reference, a worker that died) has each of its scenes computed again here
  when its turn comes, where it behaves, and raises, as in a serial run; once the pool is
  broken, the rest of the run is computed here.  The workers ignore SIGINT: Ctrl-C reaches the
  calling process alone, whose ``close`` cancels what is queued and waits for the chunks being
  computed (about 10 ms).
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Iterator

from ...contract.driver import run
from ...contract.scenario import Scene
from ...contract.state_hash import NonFiniteState, state_hash
from ...errors import InputError
from ...judge.matrix import PASS
from ...runners import resolve
from ...runners.base import Runner, RunnerError
from .scenes import FuzzScene, kind_of, make_scene

CHUNK = 4
"""Scenes per task: about 10 ms of reference work, against well under 1 ms of task overhead."""

AHEAD = 4
"""Chunks per worker queued ahead of the run."""

_HERE = ["computed in the calling process"]
"""The answer of a scene whose chunk failed in a worker."""


def scene_indices(kinds: tuple[str, ...]) -> Iterator[int]:
    index = 0
    while True:
        if kind_of(index) in kinds:
            yield index
        index += 1


def reference_hashes(scene: Scene) -> list[str] | None:
    """The reference's hashes, or None when it reaches a non-finite state (the scene is rejected)."""
    try:
        return [state_hash(data) for data in run(scene)]
    except NonFiniteState:
        return None


class Expected:
    """Where expected hashes come from: the reference, or a column shown identical to it."""

    def __init__(self, column: Runner | None = None, memo: bool = False):
        self.column = column
        self.name = "the reference" if column is None else f"{column.id} (identical to the reference on the suite)"
        self.memo: dict[str, list[str] | None] | None = {} if memo else None

    def hashes(self, scene: Scene) -> list[str] | None:
        """The expected hashes (memoized by fingerprint when asked: the controls reuse scenes)."""
        if self.memo is None:
            return self._hashes(scene)
        key = scene.fingerprint()
        if key not in self.memo:
            self.memo[key] = self._hashes(scene)
        return self.memo[key]

    def _hashes(self, scene: Scene) -> list[str] | None:
        if self.column is not None:
            try:
                return list(self.column.hashes(scene))
            except RunnerError:
                pass  # a scene the column cannot run: the reference decides
        return reference_hashes(scene)


def column_expected(column_id: str, suite_scenarios, goldens: Path) -> Expected:
    """The column as the source of expected hashes, after the whole committed suite PASSed on it
    in this run; InputError when it did not (the column cannot stand in for the reference)."""
    from ...judge.matrix import run_matrix
    result = run_matrix(suite_scenarios, [column_id], goldens, with_protocol=False)  # only its hashes stand in
    bad = [c for c in result.cells.values() if c.status != PASS]
    if bad:
        raise InputError("command line", "--expected", f"{column_id} is not identical to the reference on the "
                         f"suite ({bad[0].row}: {bad[0].status} {bad[0].reason[:200]}); use the reference")
    return Expected(resolve(column_id))


class SerialSource:
    """The expected hashes of each scene, computed when asked (``Expected.hashes``)."""

    def __init__(self, expected: Expected):
        self.expected = expected

    def hashes(self, fs: FuzzScene) -> list[str] | None:
        return self.expected.hashes(fs.scene)

    def close(self) -> None:
        pass


def expected_source(expected: Expected, seed: int, kinds: tuple[str, ...], jobs: int, limit: int | None):
    """A ``ReferencePool`` when ``jobs`` > 1 and the reference gives the hashes, else a ``SerialSource``
    (no more workers than chunks of ``limit`` scenes)."""
    if limit is not None:
        jobs = min(jobs, -(-limit // CHUNK))
    if jobs <= 1 or expected.column is not None:
        return SerialSource(expected)
    return ReferencePool(seed, kinds, jobs, limit)


def _chunk_hashes(seed: int, indices: tuple[int, ...]) -> list[list[str] | None]:
    """In a worker: the reference's hashes of the scenes (seed, index)."""
    return [reference_hashes(make_scene(seed, index).scene) for index in indices]


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context():
    """fork where there is one (Linux: a worker starts in about a millisecond, with the modules
    already imported); the platform's default elsewhere."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") and "fork" in methods else None)


class ReferencePool:
    """The reference's hashes of the coming scenes, computed ahead in worker processes."""

    def __init__(self, seed: int, kinds: tuple[str, ...], jobs: int, limit: int | None = None):
        self.seed = seed
        self.jobs = jobs
        self.limit = limit
        self.upcoming = scene_indices(kinds)
        self.queued: deque[tuple[tuple[int, ...], Future]] = deque()
        self.answers: dict[int, list[str] | None] = {}
        self.submitted = 0
        self.rejected = 0
        self.pool: ProcessPoolExecutor | None = ProcessPoolExecutor(jobs, mp_context=_context(),
                                                                    initializer=_ignore_interrupt)
        self._top_up(needed=True)  # the workers start now, before any runner's process or pipe exists

    def hashes(self, fs: FuzzScene) -> list[str] | None:
        """The reference's hashes of ``fs`` (the next scene of the run, or a later one)."""
        while fs.index not in self.answers:
            self._top_up(needed=not self.queued)
            if not self.queued:  # the pool broke: on without it, as serially
                return reference_hashes(fs.scene)
            indices, future = self.queued.popleft()
            try:
                found = future.result()
            except Exception:  # a broken pool or an error in the reference: each scene is redone here
                found = [_HERE] * len(indices)
            self.answers.update(zip(indices, found))
            self.rejected += sum(h is None for h in found)
        answer = self.answers.pop(fs.index)
        for index in [i for i in self.answers if i < fs.index]:
            del self.answers[index]
        self._top_up(needed=False)
        return reference_hashes(fs.scene) if answer is _HERE else answer  # raises here as it would serially

    def _top_up(self, needed: bool) -> None:
        """Queue chunks up to the window (at least one when ``needed``), and not past the limit."""
        while self.pool is not None and len(self.queued) < AHEAD * self.jobs:
            if not needed and self.limit is not None and self.submitted >= self.limit + self.rejected:
                return
            indices = tuple(next(self.upcoming) for _ in range(CHUNK))
            try:
                self.queued.append((indices, self.pool.submit(_chunk_hashes, self.seed, indices)))
            except (RuntimeError, OSError):  # BrokenProcessPool (a worker died), or no process could start:
                self.pool.shutdown(wait=False, cancel_futures=True)  # what is queued fails, the rest is here
                self.pool = None
                return
            self.submitted += CHUNK
            needed = False

    def close(self) -> None:
        """Cancel what is queued, wait for the chunks being computed, end the workers."""
        if self.pool is not None:
            for _, future in self.queued:
                future.cancel()
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
