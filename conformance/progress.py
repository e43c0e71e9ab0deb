"""A minimal progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    """``with Progress(total, label) as bar: bar.advance()``; silent when not a TTY."""

    def __init__(self, total: int, label: str, stream=None):
        self.total = max(1, total)
        self.label = label
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = 0.0

    def __enter__(self) -> "Progress":
        return self

    def advance(self, count: int = 1, label: str | None = None) -> None:
        self.done += count
        if label is not None:
            self.label = label
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            width = 30
            filled = int(width * min(self.done, self.total) / self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.done}/{self.total} {self.label[:50]:<50}")
            self.stream.flush()

    def __exit__(self, *exc) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()
