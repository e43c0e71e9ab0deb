"""Progress on stderr: a bar with percentage, elapsed time and ETA on a terminal; plain lines off it.

Contract: ``with Progress(total, label, unit) as bar``; ``bar.advance(n, label=...)`` moves the
bar (drawn only when stderr is a terminal, at most ten times a second); ``bar.note(text)``
prints one line that stays (above the bar on a terminal, as a plain line elsewhere, so CI logs
show what is happening).  ``Progress.active`` is the bar being drawn, if any: the CLI's printing
goes through ``note`` while one is, so that nothing is printed over the bar.
"""

from __future__ import annotations

import sys
import threading
import time

WIDTH = 24


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else f"{seconds // 3600}h{seconds // 60 % 60:02d}"


class Progress:
    """A bar over ``total`` units of work (``unit`` names them, e.g. "agent-steps")."""

    active: "Progress | None" = None

    def __init__(self, total: int, label: str, unit: str = "", stream=None):
        self.total = max(1, total)
        self.label = label
        self.unit = unit
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.started = time.monotonic()
        self._last = 0.0
        self._drawn = False
        self._lock = threading.RLock()  # matrix columns advance it from their threads

    def __enter__(self) -> "Progress":
        self._outer = Progress.active
        Progress.active = self
        return self

    def line(self) -> str:
        """The bar's text: [####....]  42%  1234/5678 unit  0:12 elapsed, ETA 0:17  label."""
        fraction = min(self.done, self.total) / self.total
        filled = int(WIDTH * fraction)
        elapsed = time.monotonic() - self.started
        eta = f", ETA {_clock(elapsed * (1 - fraction) / fraction)}" if 0 < fraction < 1 and elapsed > 1 else ""
        unit = f" {self.unit}" if self.unit else ""
        return (f"[{'#' * filled}{'.' * (WIDTH - filled)}] {100 * fraction:3.0f}%  {self.done}/{self.total}{unit}  "
                f"{_clock(elapsed)} elapsed{eta}  {self.label[:40]}")

    def advance(self, count: int = 1, label: str | None = None) -> None:
        with self._lock:
            self._advance(count, label)

    def _advance(self, count: int, label: str | None) -> None:
        self.done += count
        if label is not None:
            self.label = label
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
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
