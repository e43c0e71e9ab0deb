"""The progress bar: percentage, elapsed, ETA, units; lines printed while it runs stay above it."""

from __future__ import annotations

import io

from conformance.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_shows_percentage_units_elapsed_and_eta(monkeypatch) -> None:
    clock = iter([0.0, 5.0, 5.0])
    monkeypatch.setattr("conformance.progress.time.monotonic", lambda: next(clock))
    bar = Progress(200, "matrix", unit="agent-steps", stream=Terminal())
    bar.done = 50
    text = bar.line()
    assert " 25%  50/200 agent-steps  0:05 elapsed, ETA 0:15  matrix" in text


def test_a_note_is_printed_above_the_bar_and_the_bar_comes_back() -> None:
    err, out = Terminal(), io.StringIO()
    with Progress(10, "goldens", stream=err) as bar:
        assert Progress.active is bar
        bar.advance(3)
        bar.note("ok        orca/zero-agents", out)
        assert out.getvalue() == "ok        orca/zero-agents\n"
        assert err.getvalue().endswith(bar.line() + " " * (110 - len(bar.line())))
    assert Progress.active is None


def test_off_a_terminal_nothing_but_the_notes_is_printed() -> None:
    err = io.StringIO()
    with Progress(10, "matrix", stream=err) as bar:
        bar.advance(5)
        bar.note("built c:zig (zig cc, x86_64) in 3.1 s")
    assert err.getvalue() == "built c:zig (zig cc, x86_64) in 3.1 s\n"
