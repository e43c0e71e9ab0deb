"""Progress on stderr: a bar with percentage, elapsed time and ETA on a terminal; plain lines off it.

Contract: ``with Progress(total, label, unit) as bar``; ``bar.advance(n, label=...)`` moves the
bar (drawn only when stderr is a terminal, at most ten times a second); ``bar.note(text)``
prints one line that stays (above the bar on a terminal, as a plain line elsewhere, so CI logs
show what is happening).  ``Progress.active`` is the bar being drawn, if any: the CLI's printing
goes through ``note`` while one is, so that nothing is printed over the bar.

Honest numbers: neither the percentage nor ``done/total`` ever passes the total (advancing past it
is capped); a total of 0 means unknown (the count alone, no percentage or ETA).  The ETA reads
"estimating" until there is a rate.  With ``eta`` (a callback giving the remaining seconds or
None, e.g. the matrix's clock, which measures each column) it is the callback's, "ETA >0:40" when
the seconds carry a true ``at_least`` (a lower bound).  Without one it is the average rate so far,
once MIN_SECONDS have passed and MIN_SHARE of the units are done (or MIN_SECONDS_ALONE have passed
with some done): the first instants never show an ETA built on nothing.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable

WIDTH = 24
MIN_SECONDS = 2.0
MIN_SHARE = 0.01
MIN_SECONDS_ALONE = 30.0


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else f"{seconds // 3600}h{seconds // 60 % 60:02d}"


class Progress:
    """A bar over ``total`` units of work (``unit`` names them, e.g. "agent-steps")."""

    active: "Progress | None" = None

    def __init__(self, total: int, label: str, unit: str = "", stream=None,
                 eta: Callable[[], float | None] | None = None, clock: Callable[[], float] | None = None):
        self.total = max(0, total)
        self.label = label
        self.unit = unit
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.eta = eta
        self._now = clock if clock is not None else time.monotonic
        self.started = self._now()
        self._last = 0.0
        self._drawn = False
        self._lock = threading.RLock()  # matrix columns advance it from their threads

    def __enter__(self) -> "Progress":
        self._outer = Progress.active
        Progress.active = self
        return self

    def line(self) -> str:
        """The bar's text: [####....]  42%  1234/5678 unit  0:12 elapsed, ETA 0:17  label."""
        elapsed = self._now() - self.started
        unit = f" {self.unit}" if self.unit else ""
        if not self.total:
            return f"{self.done}{unit}  {_clock(elapsed)} elapsed  {self.label[:40]}"
        done = min(self.done, self.total)
        filled = int(WIDTH * done / self.total)
        remaining = self._remaining(done, elapsed)
        eta = "" if done >= self.total else ", estimating" if remaining is None else \
            f", ETA {'>' if getattr(remaining, 'at_least', False) else ''}{_clock(remaining)}"
        return (f"[{'#' * filled}{'.' * (WIDTH - filled)}] {100 * done // self.total:3d}%  {done}/{self.total}{unit}  "
                f"{_clock(elapsed)} elapsed{eta}  {self.label[:40]}")

    def _remaining(self, done: int, elapsed: float) -> float | None:
        """Seconds left: the callback's, else the average rate's once it means something."""
        if self.eta is not None:
            remaining = self.eta()
            return None if remaining is None else remaining if remaining >= 0 else 0.0
        if done <= 0 or elapsed < MIN_SECONDS or (done < MIN_SHARE * self.total and elapsed < MIN_SECONDS_ALONE):
            return None
        return elapsed * (self.total - done) / done

    def advance(self, count: int = 1, label: str | None = None) -> None:
        with self._lock:
            self._advance(count, label)

    def _advance(self, count: int, label: str | None) -> None:
        self.done += max(0, count)
        if self.total:
            self.done = min(self.done, self.total)
        if label is not None:
            self.label = label
        now = self._now()
        if self.enabled and (now - self._last > 0.1 or (self.total and self.done >= self.total)):
            self._last = now
            self._draw()

    def note(self, text: str, out=None) -> None:
        """A line that stays (on ``out``, default the bar's stream): above the bar on a terminal."""
        with self._lock:
            self._note(text, out)

    def _note(self, text: str, out) -> None:
        out = self.stream if out is None else out
        if self.enabled:
            self._clear()
            self.stream.flush()
        out.write(text + "\n")
        out.flush()
        if self.enabled and self.done > 0:
            self._draw()

    def _draw(self) -> None:
        text = self.line()
        self.stream.write("\r" + text + " " * max(0, 110 - len(text)))
        self.stream.flush()
        self._drawn = True

    def _clear(self) -> None:
        if self._drawn:
            self.stream.write("\r" + " " * 110 + "\r")
            self._drawn = False

    def __exit__(self, *exc) -> None:
        Progress.active = self._outer
        if self.enabled:
            self._clear()
            self.stream.flush()
