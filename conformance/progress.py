"""Progress on stderr: a one-line bar with percentage, elapsed time and ETA on a terminal; plain lines off it.

Contract: ``with Progress(total, label, unit) as bar``; ``bar.advance(n, label=...)`` moves the
bar; ``bar.note(text)`` prints one line that stays (above the bar on a terminal, as a plain line
elsewhere, so CI logs show what is happening).  ``Progress.active`` is the bar being drawn, if
any: the CLI's printing goes through ``note`` while one is, so that nothing is printed over it.

The bar is drawn only when the stream is a terminal (``isatty``, and ``TERM`` is not ``dumb``):
one line, rewritten in place (``\\r``, the text, then clear-to-end-of-line ``\\x1b[K``, so a
shorter line leaves nothing of a longer one), never longer than the terminal's width less one
(read at every draw: ``width``, else the stream's terminal size, else ``COLUMNS``, else 80), and
erased when the bar ends.  It is redrawn at most ten times a second when it advances, and every
``tick`` seconds when nothing advances (a build, a long cell), so its clock never stands still.
Off a terminal nothing but the notes is written.

Honest numbers: neither the percentage nor ``done/total`` ever passes the total (advancing past it
is capped); a total of 0 means unknown (the count alone, no percentage or ETA).  The ETA reads
"estimating" until there is a rate.  With ``eta`` (a callback giving the remaining seconds or
None, e.g. the matrix's clock) it is the callback's, "ETA >0:40" when the seconds carry a true
``at_least`` (a lower bound).  Without one it is the average rate so far, once MIN_SECONDS have
passed and MIN_SHARE of the units are done (or MIN_SECONDS_ALONE have passed with some done): the
first instants never show an ETA built on nothing.  With ``by_time`` (and ``eta``) the
percentage is the share of the expected wall time behind the bar, elapsed / (elapsed + ETA), so
that the percentage and the ETA tell one story (units that take unequal times, builds that
advance no unit); it never goes back, and reaches 100 % only with the count.  ``extra`` adds a
text after the count (the matrix's "2/7 builds").
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Callable

WIDTH = 24
NARROW = 10
"""The bar's cells: WIDTH, or NARROW when that leaves the label LABEL more characters."""
LABEL = 24
MIN_SECONDS = 2.0
MIN_SHARE = 0.01
MIN_SECONDS_ALONE = 30.0
TICK = 1.0
"""Seconds between redraws while nothing advances."""
CLEAR = "\x1b[K"
"""Erase from the cursor to the end of the line (ECMA-48 EL 0, every terminal since the VT100)."""


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else f"{seconds // 3600}h{seconds // 60 % 60:02d}"


def terminal_width(stream) -> int:
    """The columns of the terminal ``stream`` writes to; else $COLUMNS; else 80."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        pass
    try:
        return int(os.environ.get("COLUMNS", ""))
    except ValueError:
        return 80


def fit_to_terminal(text: str, stream) -> str:
    """``text`` as a terminal of ``stream`` should show it: off a terminal unchanged; on one,
    each line wider than it broken at spaces only (a bit pattern or a number is one word: never
    split), the rest of the line under its own indent.  A single word wider than the terminal
    stays whole on its line."""
    if not getattr(stream, "isatty", lambda: False)():
        return text
    width = terminal_width(stream) - 1
    out: list[str] = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))] or "  "
        while len(line) > width and " " in line[len(indent):width + 1].rstrip():
            cut = line.rstrip()[:width + 1].rfind(" ")
            if cut <= len(indent.rstrip()):
                break
            out.append(line[:cut].rstrip())
            line = indent + line[cut:].lstrip()
        out.append(line)
    return "\n".join(out)


def fit_line(parts: list[str], label: str, width: int) -> str:
    """The first of ``parts``' shortenings that fits in ``width`` characters (each step drops the
    first part, the least important), then as much of ``label`` as fits; cut to ``width`` at worst."""
    for start in range(len(parts)):
        text = "  ".join(parts[start:])
        if len(text) <= width:
            room = width - len(text) - 2
            return text + (f"  {label[:room]}" if label and room >= 4 else "")
    return "  ".join(parts[-1:])[:width]


class Progress:
    """A bar over ``total`` units of work (``unit`` names them, e.g. "cells")."""

    active: "Progress | None" = None

    def __init__(self, total: int, label: str, unit: str = "", stream=None,
                 eta: Callable[[], float | None] | None = None, clock: Callable[[], float] | None = None,
                 width: Callable[[], int] | int | None = None, tick: float = TICK, by_time: bool = False,
                 extra: Callable[[], str] | None = None):
        self.total = max(0, total)
        self.label = label
        self.unit = unit
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = (hasattr(self.stream, "isatty") and self.stream.isatty()
                        and os.environ.get("TERM") != "dumb")
        self.eta = eta
        self.by_time = by_time and eta is not None
        self.extra = extra
        self.width = width
        self.tick = tick
        self._now = clock if clock is not None else time.monotonic
        self.started = self._now()
        self._last = float("-inf")  # the first advance draws
        self._share = 0.0  # the by_time share shown last: it never goes back
        self._drawn = False
        self._lock = threading.RLock()  # matrix columns advance it from their threads
        self._stop = threading.Event()

    def __enter__(self) -> "Progress":
        self._outer = Progress.active
        Progress.active = self
        if self.enabled and self.tick > 0:
            threading.Thread(target=self._ticking, name="progress-tick", daemon=True).start()
        return self

    def _ticking(self) -> None:
        """Redraw every ``tick`` seconds until the bar ends; not while an inner bar is drawn."""
        while not self._stop.wait(self.tick):
            with self._lock:
                if not self._stop.is_set() and Progress.active is self:
                    self._draw()

    def columns(self) -> int:
        """The terminal's width now (``width``: a number or a callable, else the stream's terminal)."""
        width = self.width() if callable(self.width) else self.width
        return max(1, width if width is not None else terminal_width(self.stream))

    def line(self, width: int | None = None) -> str:
        """The bar's text, at most ``width`` - 1 characters (default: the terminal's):
        [####....] 42%  1234/5678 unit  0:12 elapsed, ETA 0:17  label; the parts that do not fit
        go first the bar, then the count, then the elapsed time, and the label is cut."""
        room = (self.columns() if width is None else width) - 1
        elapsed = self._now() - self.started
        unit = f" {self.unit}" if self.unit else ""
        extra = f", {self.extra()}" if self.extra is not None else ""
        if not self.total:
            return fit_line([f"{self.done}{unit}{extra}", f"{_clock(elapsed)} elapsed"], self.label, room)
        done = min(self.done, self.total)
        remaining = self._remaining(done, elapsed)
        share = self._shown_share(done, elapsed, remaining)
        eta = "" if done >= self.total else "estimating" if remaining is None else \
            f"ETA {'>' if getattr(remaining, 'at_least', False) else ''}{_clock(remaining)}"
        clock = f"{_clock(elapsed)} elapsed" + (f", {eta}" if eta else "")
        pct = f"{int(100 * share):3d}%"
        count = f"{done}/{self.total}{unit}{extra}"
        for cells in (WIDTH, NARROW):  # a shorter bar before a label cut short
            filled = int(cells * share)
            parts = [f"[{'#' * filled}{'.' * (cells - filled)}] {pct}", count, clock]
            if len("  ".join(parts)) + 2 + min(len(self.label), LABEL) <= room:
                break
        if room < len("  ".join(parts)):  # narrow: the bar goes first, the percentage and the ETA last
            last = pct.strip() + (f" {eta}" if eta else "")
            parts = [parts[0][:cells + 2], count, f"{_clock(elapsed)} elapsed", last]
        return fit_line(parts, self.label, room)

    def _shown_share(self, done: int, elapsed: float, remaining: float | None) -> float:
        """The share of the work behind the bar: done / total, or with ``by_time`` elapsed /
        (elapsed + remaining), never less than the last one shown, below 1 until the count is done."""
        if done >= self.total:
            return 1.0
        if not self.by_time:
            return min(done / self.total, 0.999)
        if remaining is not None and elapsed + remaining > 0:
            self._share = max(self._share, min(elapsed / (elapsed + remaining), 0.999))
        return self._share

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
        shown = self._drawn
        if self.enabled:
            self._clear()
            self.stream.flush()
        out.write(text + "\n")
        out.flush()
        if self.enabled and (shown or self.done > 0):
            self._draw()

    def _draw(self) -> None:
        self.stream.write("\r" + self.line() + CLEAR)
        self.stream.flush()
        self._drawn = True

    def _clear(self) -> None:
        if self._drawn:
            self.stream.write("\r" + CLEAR)
            self._drawn = False

    def __exit__(self, *exc) -> None:
        self._stop.set()
        with self._lock:
            Progress.active = self._outer
            if self.enabled:
                self._clear()
                self.stream.flush()
