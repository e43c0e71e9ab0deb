"""A wall-clock budget for calls into an in-process guest, kept by one sleeping thread.

Contract: ``Watchdog(stop)`` starts a daemon thread that sleeps until a call is armed.
``arm(seconds)`` before the call and ``disarm()`` after it; if the call is still armed when its
seconds are up, the thread calls ``stop()`` (Unicorn's ``emu_stop``, which may be called from
another thread; the caller sees the stop in where the CPU stopped), and again every ``RETRY``
seconds until the call is disarmed: a stop that comes before the emulation has begun is lost
(``emu_stop`` does nothing then), which a tiny budget would otherwise hit.  ``close()`` ends
the thread.  One call at a time per watchdog: ``arm`` replaces the deadline of the call before.

Users: the Unicorn columns (``stop`` is ``emu_stop``) and the wasm column under epoch metering
(``stop`` increments the engine's epoch; the store's deadline is one epoch ahead, so the running
module traps at its next loop header or function entry; docs/wasm.md).

Why not Unicorn's own ``emu_start`` timeout: it starts a thread per call that polls the clock
every few microseconds.  Alone on a machine that costs little, but with two columns running on
two cores the pollers took a third of the CPU time the other column needed (the 300-agent
circle under arm64: 24.0 s beside the i386 column with the timeout, 14.8 s without it).  This
thread waits on a condition variable, so an armed call costs two lock round trips.
"""

from __future__ import annotations

import threading
import time
import weakref
from typing import Callable

RETRY = 0.01
"""Seconds between stops of a call that is still armed after its budget."""


class _Budget:
    """What the watching thread shares with its owner (never the owner itself, so that an
    unclosed CPU can still be collected: the thread ends with it)."""

    def __init__(self) -> None:
        self.wake = threading.Condition()
        self.deadline: float | None = None
        self.closed = False

    def close(self) -> None:
        with self.wake:
            self.closed = True
            self.deadline = None
            self.wake.notify()


class Watchdog:
    """Calls ``stop`` (a bound method, held weakly) when an armed call outlives its budget."""

    def __init__(self, stop: Callable[[], None], name: str = "unicorn-watchdog"):
        """``name`` names the thread (tests find it by name)."""
        self._budget = _Budget()
        weakref.finalize(self, self._budget.close)
        threading.Thread(target=_watch, args=(self._budget, weakref.WeakMethod(stop)), name=name,
                         daemon=True).start()

    def arm(self, seconds: float) -> None:
        """Start the budget of one call."""
        with self._budget.wake:
            self._budget.deadline = time.monotonic() + seconds
            self._budget.wake.notify()

    def disarm(self) -> None:
        """The call returned: nothing to stop."""
        with self._budget.wake:
            self._budget.deadline = None

    def close(self) -> None:
        """End the thread (the CPU is no longer used)."""
        self._budget.close()


def _watch(budget: _Budget, stop: weakref.WeakMethod) -> None:
    with budget.wake:
        while not budget.closed:
            if budget.deadline is None:
                budget.wake.wait()
                continue
            left = budget.deadline - time.monotonic()
            if left > 0:
                budget.wake.wait(left)
                continue
            budget.deadline = time.monotonic() + RETRY  # until disarmed: a stop may come too early
            method = stop()
            if method is not None:
                method()
