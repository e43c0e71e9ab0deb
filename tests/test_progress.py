"""The progress bar: percentage, elapsed, ETA, units; lines printed while it runs stay above it."""

from __future__ import annotations

import io
import re

import pytest

from conformance.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_shows_percentage_units_elapsed_and_eta(monkeypatch) -> None:
    clock = iter([0.0, 5.0, 5.0])
    monkeypatch.setattr("conformance.progress.time.monotonic", lambda: next(clock))
    bar = Progress(200, "matrix", unit="agent-steps", stream=Terminal(), width=200)
    bar.done = 50
    text = bar.line()
    assert text == "[######..................]  25%  50/200 agent-steps  0:05 elapsed, ETA 0:15  matrix"


def test_a_note_is_printed_above_the_bar_and_the_bar_comes_back() -> None:
    err, out = Terminal(), io.StringIO()
    with Progress(10, "goldens", stream=err, width=100, tick=0) as bar:
        assert Progress.active is bar
        bar.advance(3)
        bar.note("ok        orca/zero-agents", out)
        assert out.getvalue() == "ok        orca/zero-agents\n"
        assert err.getvalue().endswith("\r\x1b[K\r" + bar.line() + "\x1b[K")  # erased, then drawn again
    assert Progress.active is None
    assert err.getvalue().endswith("\r\x1b[K")  # erased at the end


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
    bar = Progress(1000, "matrix", unit="agent-states", stream=err, clock=now, width=120)
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


class Screen:
    """A terminal ``width`` columns wide: printable characters overwrite at the cursor and wrap at
    the margin (a new line, counted in ``wrapped``), ``\\r`` goes to the line's start, ``\\n`` to a
    new line, ``ESC [ K`` erases from the cursor to the end of the line."""

    def __init__(self, width: int) -> None:
        self.width, self.lines, self.col, self.wrapped, self.writes = width, [[]], 0, 0, []

    def isatty(self) -> bool:
        return True

    def flush(self) -> None:
        pass

    def write(self, text: str) -> None:
        self.writes.append(text)
        i = 0
        while i < len(text):
            if text.startswith("\x1b[K", i):
                del self.lines[-1][self.col:]
                i += 3
                continue
            ch, i = text[i], i + 1
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self.lines.append([])
                self.col = 0
            else:
                assert ch.isprintable(), repr(ch)
                if self.col >= self.width:
                    self.lines.append([])
                    self.col, self.wrapped = 0, self.wrapped + 1
                self.lines[-1][self.col:self.col + 1] = [ch]
                self.col += 1

    @property
    def current(self) -> str:
        return "".join(self.lines[-1])


LABELS = ["s390x:qemu orca/antipodal-circle-300-with-a-label-much-longer-than-any-terminal-is-wide", "c x", "",
          "wasm-v8 orca/wall-gap"]


@pytest.mark.parametrize("width", [40, 80, 200])
def test_the_bar_fits_the_terminal_leaves_no_debris_and_is_erased_at_the_end(width: int) -> None:
    """Redrawn over long and short labels, counts that grow, an ETA that comes and goes, notes in
    between: one line, never wider than width - 1, exactly the last text drawn, gone at the end."""
    screen, now = Screen(width), FakeTime()
    remaining: list[float | None] = [None]
    with Progress(572, "matrix", unit="cells", stream=screen, clock=now, width=width, tick=0,
                  eta=lambda: remaining[0], by_time=True, extra=lambda: "2/7 builds") as bar:
        for i in range(1, 60):
            now.t += 7.5
            remaining[0] = None if i % 11 == 0 else 3600.0 / i
            bar.advance(i % 20, label=LABELS[i % len(LABELS)])
            if i % 9 == 0:
                bar.note(f"built x{i} in 1.0 s")
            drawn = bar.line()
            assert screen.current == drawn, (screen.current, drawn)  # nothing of a longer draw is left
            assert 0 < len(drawn) <= width - 1
            assert "%" in drawn and ("ETA" in drawn or "estimating" in drawn or bar.done == bar.total)
        assert screen.wrapped == 0 and len(screen.lines) == 1 + 59 // 9
    assert screen.current == "" and screen.wrapped == 0
    assert all(len("".join(line)) <= width - 1 for line in screen.lines)
    assert ["".join(line) for line in screen.lines[:-1]] == [f"built x{i} in 1.0 s" for i in range(9, 60, 9)]


def test_the_width_is_read_at_every_draw() -> None:
    """A terminal made narrower between two draws gets a shorter line (and the clear erases the rest)."""
    columns, now = [120], FakeTime()
    screen = Screen(120)
    bar = Progress(50, "matrix orca/a-rather-long-scenario-name", unit="cells", stream=screen, clock=now,
                   width=lambda: columns[0], tick=0)
    bar.advance(5)
    assert len(screen.current) > 60
    columns[0] = screen.width = 40
    now.t = 1.0
    bar.advance(5)
    assert screen.current == bar.line() and len(screen.current) <= 39


def test_the_width_comes_from_columns_when_the_stream_has_no_terminal_size(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "33")
    bar = Progress(50, "matrix", unit="cells", stream=Terminal(), clock=FakeTime())
    bar.done = 7
    assert bar.columns() == 33 and len(bar.line()) <= 32 and "14%" in bar.line()


def test_off_a_terminal_or_on_a_dumb_one_there_is_no_bar_and_no_escape(monkeypatch) -> None:
    plain = io.StringIO()
    with Progress(3, "matrix", stream=plain, tick=0.001) as bar:
        bar.advance(3)
        bar.note("column c: 52 pass (1.8 s)")
    assert plain.getvalue() == "column c: 52 pass (1.8 s)\n"
    monkeypatch.setenv("TERM", "dumb")
    dumb = Terminal()
    with Progress(3, "matrix", stream=dumb) as bar:
        bar.advance(3)
    assert not bar.enabled and dumb.getvalue() == ""


class Ticks:
    """An Event whose ``wait`` times out ``n`` times, then reports it was set."""

    def __init__(self, n: int) -> None:
        self.n = n

    def wait(self, timeout: float) -> bool:
        self.n -= 1
        return self.n < 0

    def is_set(self) -> bool:
        return False

    def set(self) -> None:
        pass


def test_the_bar_is_redrawn_while_nothing_advances() -> None:
    """A long build advances nothing: each tick draws the bar again, with its clock moving."""
    screen, now = Screen(100), FakeTime()
    bar = Progress(10, "matrix", stream=screen, clock=now, width=100, tick=0)  # no thread: the loop is run here
    bar._stop = Ticks(3)
    now.t = 75.0
    with bar:
        bar._ticking()
        assert len([w for w in screen.writes if w.startswith("\r[")]) == 3
        assert "1:15 elapsed" in screen.current
        inner = Progress(5, "goldens", stream=Terminal(), tick=0)
        with inner:
            bar._stop = Ticks(2)
            bar._ticking()  # the inner bar is the one drawn
        assert len([w for w in screen.writes if w.startswith("\r[")]) == 3


def test_by_time_the_percentage_is_the_share_of_the_expected_time_and_never_goes_back() -> None:
    now = FakeTime()
    remaining = [300.0]
    bar = Progress(100, "matrix", unit="cells", stream=Terminal(), clock=now, eta=lambda: remaining[0],
                   by_time=True, width=200)
    now.t = 100.0
    assert "  25%  0/100 cells  1:40 elapsed, ETA 5:00" in bar.line()  # no cell yet: the time tells
    remaining[0] = 900.0  # a slower column than expected: the ETA grows, the percentage stays
    assert "  25%  0/100 cells  1:40 elapsed, ETA 15:00" in bar.line()
    remaining[0] = 0.0
    bar.done = 99
    assert " 99%  99/100 cells" in bar.line()  # not 100 % before the last cell
    bar.done = 100
    assert "100%  100/100 cells" in bar.line()


@pytest.mark.parametrize("width", [40, 80, 200])
def test_red_cells_on_a_terminal_wrap_between_words_never_inside_bits(width, monkeypatch) -> None:
    """A red cell's lines are up to 200 characters (a CI log keeps them whole); a terminal gets
    them broken at spaces, so that a bit pattern is never split by the terminal's own wrap."""
    import io
    from conformance.progress import fit_to_terminal

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setenv("COLUMNS", str(width))
    text = ("DIVERGED 2 cells [control:horizon-swap]: an agent's constraint list differs (breaks agents.inputs)\n"
            "         orca/wall-gap@1 agent 0 velocity.x: 0x3FD1A87B02C0BB94 expected, 0x3FD14B2EBDA01F97 got; "
            "constraint 0 differs in P.y: expected 0x3FD8000000000000, got 0x3FC8000000000000\nshort")
    shown = fit_to_terminal(text, Terminal())
    assert all(len(line) <= width - 1 for line in shown.splitlines()), shown
    assert shown.split() == text.split()  # every word, every bit pattern, whole and in order
    assert (width == 200) == (shown == text)
    assert fit_to_terminal(text, io.StringIO()) == text  # off a terminal: as it is
