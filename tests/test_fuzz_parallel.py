"""``fuzz --jobs``: the reference's hashes computed ahead in worker processes give the same run as
a serial one (conformance/selftest/fuzz/expected.py): the same scenes, cells, first finding and
shrunk scenario; a crashing port is still an ERROR cell; an interrupt ends the workers."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.judge.matrix import DIVERGED
from conformance.selftest.fuzz import campaign as fuzz, expected as fuzz_expected
from conformance.selftest.fuzz.scenes import KINDS, make_scene
from conftest import FAKE_PORT, ROOT

VECTORS = ROOT / "goldens" / "vectors"


def _run(jobs: int, **options) -> fuzz.FuzzResult:
    runners = options.pop("runners", ["c"])
    return fuzz.run_fuzz(runners, options.pop("seed", 0), options.pop("count", 24), None,
                         options.pop("kinds", KINDS), fuzz.Expected(), VECTORS, jobs=jobs, **options)


def _outcome(result: fuzz.FuzzResult) -> tuple:
    findings = [(f.scene.id, f.cell.runner, f.cell.status, f.cell.step, f.cell.reason,
                 f.shrunk.scene.fingerprint() if f.shrunk else None, f.shrunk.tries if f.shrunk else None,
                 [p.read_bytes() for p in f.files]) for f in result.findings]
    cells = {key: (c.status, c.step, c.reason, c.compared) for key, c in result.matrix().cells.items()}
    return result.scenes, result.rejected, result.passed, result.compared, result.broken, findings, cells


def test_the_pool_gives_the_serial_hashes_in_order() -> None:
    pool = fuzz_expected.ReferencePool(5, ("walls", "bands"), jobs=2, limit=6)
    try:
        indices = fuzz_expected.scene_indices(("walls", "bands"))
        for _ in range(10):  # past the limit too: it only bounds the work queued ahead
            fs = make_scene(5, next(indices))
            assert pool.hashes(fs) == fuzz_expected.reference_hashes(fs.scene)
    finally:
        pool.close()
    assert pool.pool is None


def test_a_worker_that_dies_changes_no_answer() -> None:
    pool = fuzz_expected.ReferencePool(2, KINDS, jobs=2)
    try:
        first = make_scene(2, 0)
        assert pool.hashes(first) == fuzz_expected.reference_hashes(first.scene)
        os.kill(next(iter(pool.pool._processes)), signal.SIGKILL)  # the pool breaks
        for index in range(1, 3 * fuzz_expected.CHUNK * fuzz_expected.AHEAD):
            fs = make_scene(2, index)
            assert pool.hashes(fs) == fuzz_expected.reference_hashes(fs.scene), index
        assert pool.pool is None  # on without the workers
    finally:
        pool.close()


def test_a_planted_port_gives_the_same_first_finding_and_shrunk_scene(tmp_path: Path) -> None:
    runs = [_run(jobs, runners=["control:obstacles-by-index"], seed=1, count=100, stop_at_divergence=True,
                 shrink_to=tmp_path / f"jobs{jobs}", shrink_seconds=30.0) for jobs in (1, 2)]
    serial, parallel = (_outcome(r) for r in runs)
    assert serial == parallel and [r.workers for r in runs] == [0, 2]
    first = runs[0].findings[0]
    assert first.cell.status == DIVERGED and first.shrunk is not None and runs[0].scenes < 100


def test_a_counted_run_with_a_planted_port_beside_c_is_the_same_run() -> None:
    runners = ["c", "control:neighbor-ties-higher-index"]
    serial, parallel = (_outcome(_run(jobs, runners=runners, seed=1, count=30)) for jobs in (1, 2))
    assert serial == parallel
    assert serial[0] == 30 and serial[2]["c"] == 30


def test_a_crashing_port_is_an_error_cell_and_the_run_goes_on() -> None:
    from conformance.runners.exec_runner import ExecRunner, Limits
    limits = Limits(handshake=5.0, reply=5.0, run=20.0, line_bytes=4 * 1024 * 1024)
    crash = ExecRunner("exec:fake-crash", [sys.executable, str(FAKE_PORT), "crash"], limits)
    result = _run(2, runners=[crash, "c"], count=8)
    assert result.workers == 2
    assert [f.cell.status for f in result.findings] == ["ERROR"] * fuzz.MAX_ERRORS_IN_A_ROW
    assert all(f.cell.runner == "exec:fake-crash" and f.cell.reason for f in result.findings)
    assert "exec:fake-crash" in result.broken and result.passed["c"] == 8


def test_an_error_of_the_reference_comes_at_the_same_scene(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = make_scene(0, 6).scene.fingerprint()
    real = fuzz_expected.reference_hashes

    def failing(scene):
        if scene.fingerprint() == bad:
            raise ZeroDivisionError("float division by zero")
        return real(scene)

    monkeypatch.setattr(fuzz_expected, "reference_hashes", failing)  # the forked workers inherit it
    for jobs in (1, 2):
        seen: list[int] = []
        with pytest.raises(ZeroDivisionError):
            _run(jobs, count=20, on_scene=lambda fs: seen.append(fs.index))
        assert seen == list(range(7)), jobs


def test_an_interrupt_stops_the_run_and_its_workers() -> None:
    seen = []

    def interrupt(fs) -> None:
        seen.append(fs.index)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(2, count=50, on_scene=interrupt)
    assert seen == [0, 1, 2, 3, 4]
    assert multiprocessing.active_children() == []


def test_the_command_line_takes_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    for jobs in ("1", "2"):
        assert main(["fuzz", "--runners", "c", "--count", "6", "--jobs", jobs]) == 0
        assert "6 scenes" in capsys.readouterr().out
    assert main(["fuzz", "--runners", "c", "--count", "6", "--jobs", "0"]) == 2
    assert "--jobs: 0 is less than 1" in capsys.readouterr().err
