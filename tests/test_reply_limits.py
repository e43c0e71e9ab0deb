"""Every reply line of a port has a length limit (docs/protocol.md#limits): a longer one is an
ERROR cell naming the limit and the request, and the harness never holds more than the limit."""

from __future__ import annotations

import io
import json
import os
import sys
import time
import tracemalloc

import pytest

from conformance.contract.float_bits import hexd
from conformance.contract.scenario import load_scenario
from conformance.data import vectors
from conformance.judge.matrix import ERROR, PASS, run_matrix
from conformance.runners import reply_limits
from conformance.runners.base import RunnerError
from conformance.runners.exec_runner import ExecRunner, Limits
from conformance.runners.reference import ReferenceRunner
from conformance.runners.reply_limits import Overlong, read_line
from conftest import ROOT

SCENARIO = load_scenario(ROOT / "scenarios" / "orca" / "head-on-perturbed.yaml")
PORT = ROOT / "tests" / "fake_ports" / "oversized_port.py"
LIMITS = Limits(handshake=15.0, reply=5.0, run=20.0)
PEAK_BYTES = 16 * 1024 * 1024
"""What the harness may allocate while it meets a 64 MB hello (it needs kilobytes; the
unbounded reader held about 200 MB)."""


def oversized(mode: str) -> ExecRunner:
    """The fake port in ``mode``, importing this working tree's suite."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return ExecRunner(f"exec:oversized-{mode}", [sys.executable, str(PORT), mode], LIMITS, env=env)


def cell(runner: ExecRunner):
    result = run_matrix([SCENARIO], [runner], ROOT / "goldens", with_vectors=False, with_protocol=False)
    return result.cells[(SCENARIO.id, runner.id)]


def test_a_64_mb_hello_is_an_error_and_the_harness_holds_kilobytes() -> None:
    runner = oversized("huge-hello")
    started = time.monotonic()
    tracemalloc.start()
    try:
        c = cell(runner)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        runner.close()
    print(f"peak {peak / 1e6:.2f} MB in {time.monotonic() - started:.1f} s")
    assert c.status == ERROR
    assert "reply to hello longer than 4096 bytes (the limit for hello; docs/protocol.md#limits)" in c.reason
    assert len(c.reason) < 2000  # the report does not carry the line
    assert peak < PEAK_BYTES


def test_an_over_long_hash_line_during_run_is_an_error() -> None:
    c = cell(oversized("long-hash"))
    assert c.status == ERROR
    assert ("reply to run (step 150) longer than 1024 bytes (the limit for run lines; docs/protocol.md#limits)"
            in c.reason)
    assert c.compared == 150  # the lines before it were judged


def test_an_over_long_dump_is_an_error_and_an_honest_dump_passes() -> None:
    runner = oversized("long-dump")
    try:
        with pytest.raises(RunnerError, match=r"reply to dump \(step 3\) longer than 1024 bytes "
                                              r"\(the limit for a dump of 2 agents; docs/protocol.md#limits\)"):
            runner.dump(SCENARIO.scene, 3)
    finally:
        runner.close()
    honest = oversized("long-hash")  # answers dumps honestly
    try:
        assert honest.dump(SCENARIO.scene, 3) == ReferenceRunner().dump(SCENARIO.scene, 3)
    finally:
        honest.close()


def test_the_name_and_version_in_reports_are_cut() -> None:
    runner = oversized("long-name")
    try:
        info = runner.info()
    finally:
        runner.close()
    assert info.name == "n" * 200 + "... [1300 more characters cut]"
    assert info.versions["version"] == "v" * 200 + "... [1300 more characters cut]"
    assert cell(oversized("long-name")).status == PASS


@pytest.mark.parametrize("line, limit, expected", [
    (b"abcd\nnext\n", 4, b"abcd"),                 # exactly the limit
    (b"abcde\nnext\n", 4, Overlong(b"abcde")),    # one byte over: only limit + 1 bytes are read
    (b"ab", 4, b"ab"),                            # the last line, without its newline
    (b"", 4, None),                               # end of file
])
def test_read_line_reads_at_most_the_limit_plus_one(line: bytes, limit: int, expected) -> None:
    stream = io.BufferedReader(io.BytesIO(line), buffer_size=8)
    assert read_line(stream, limit) == expected


def test_the_hash_line_size_follows_from_the_protocol() -> None:
    longest = json.dumps({"step": 2 ** 53 - 1, "hash": "f" * 64}, separators=(",", ":"))
    assert reply_limits.HASH_LINE == len(longest) == 99
    assert reply_limits.run_limit().bytes >= 2 * len(json.dumps({"step": 2 ** 53 - 1, "hash": "f" * 64}))


def test_every_golden_vectors_reply_fits_its_limit_twice_over() -> None:
    """The reference's answers, written with spaces after every separator, take at most half
    of each case's bound and of the whole reply's limit."""
    for name, cases in vectors.load_all(ROOT / "goldens" / "vectors").items():
        family = vectors.FAMILY_BY_NAME[name]
        for case in cases:
            assert 2 * len(json.dumps(case["result"])) <= reply_limits.case_bound(family, case["args"]), (name, case)
        reply = json.dumps({"results": [c["result"] for c in cases]})
        assert 2 * len(reply) <= reply_limits.vectors_limit(name, [c["args"] for c in cases]).bytes, name


def test_a_full_neighbor_list_and_a_large_dump_fit() -> None:
    xs = [hexd(float(k)) for k in range(160)]
    case = [0, xs, xs, hexd(1e9), 159]
    full = json.dumps([list(range(1, 160))])
    assert 2 * len(full) <= reply_limits.case_bound(vectors.FAMILY_BY_NAME["agent_neighbors"], case)
    row = [hexd(-1.2345e-300)] * 6
    dump = json.dumps({"step": 2 ** 53 - 1, "agents": [row] * 160})
    assert 2 * len(dump) <= reply_limits.dump_limit(160).bytes


def test_an_unknown_family_still_has_a_finite_limit() -> None:
    limit = reply_limits.vectors_limit("nope", [[1, 2], "not a list"])
    assert reply_limits.ERROR_ROOM <= limit.bytes < 10_000 and limit.request == "vectors nope with 2 cases"


def test_cap_text_says_what_it_cut() -> None:
    assert reply_limits.cap_text("short") == "short"
    assert reply_limits.cap_text("x" * 201) == "x" * 200 + "... [1 more characters cut]"
