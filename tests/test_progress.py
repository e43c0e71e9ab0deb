"""The progress bar: percentage, elapsed, ETA, units; lines printed while it runs stay above it."""

from __future__ import annotations

import io
import re

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


class FakeTime:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_no_eta_until_there_is_a_rate() -> None:
    """At least MIN_SECONDS and MIN_SHARE of the units (or MIN_SECONDS_ALONE with some done)."""
    now = FakeTime()
    bar = Progress(10_000, "fuzz", stream=Terminal(), clock=now)
    assert ", estimating  fuzz" in bar.line()
    now.t = 0.5
    bar.advance(5_000)
    assert ", estimating" in bar.line()  # half done in half a second: too soon to say
    bar.done = 1
    now.t = 5.0
    assert ", estimating" in bar.line() and "h" not in bar.line().split("elapsed")[1]  # no 13h52 from one unit
    now.t = 40.0
    assert ", ETA 111h" in bar.line()  # one unit in 40 s: that is a rate
    bar.done = 2_500
    now.t = 10.0
    assert ", ETA 0:30" in bar.line()


def test_the_eta_callback_replaces_the_average_rate() -> None:
    now = FakeTime()
    remaining: list[float | None] = [None]
    bar = Progress(100, "matrix", stream=Terminal(), eta=lambda: remaining[0], clock=now)
    now.t = 60.0
    bar.advance(90)
    assert ", estimating  matrix" in bar.line()
    remaining[0] = 125.0
    assert ", ETA 2:05  matrix" in bar.line()


def test_never_past_the_total() -> None:
    now = FakeTime()
    err = Terminal()
    bar = Progress(1000, "matrix", unit="agent-states", stream=err, clock=now)
    bar.advance(999)
    assert " 99%  999/1000 agent-states" in bar.line()  # not rounded up to 100 % before the end
    bar.advance(121)
    bar.advance(5)
    assert bar.done == 1000
    assert "100%  1000/1000 agent-states  0:00 elapsed  matrix" in bar.line()
    for text in err.getvalue().split("\r"):
        numbers = re.findall(r"(\d+)%\s+(\d+)/(\d+)", text)
        assert all(int(p) <= 100 and int(d) <= int(t) for p, d, t in numbers), text


def test_an_unknown_total_shows_the_count_alone() -> None:
    bar = Progress(0, "fuzz", unit="scenes", stream=Terminal(), clock=FakeTime())
    bar.advance(7)
    assert bar.line().startswith("7 scenes  0:00 elapsed  fuzz")
