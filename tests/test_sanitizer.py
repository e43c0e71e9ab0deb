"""Kills that do not depend on luck: mutants built with AddressSanitizer or ThreadSanitizer.

A heap overflow or a data race in a mutant breaks a result only on some runs; under the
sanitizer it is a kill by ``sanitizer:address`` or ``sanitizer:thread`` on every run, and the
unmutated sources still pass every non-slow scenario and vector family (the sanitizers change
no floating-point bit).  About a minute and a half on two cores; skipped only where gcc has no
sanitizer runtime.
"""

from __future__ import annotations

import subprocess

import pytest

from conformance.runners.build.sources import C_DIR
from conformance.runners.build.sanitizer import SANITIZERS, SanitizerUnavailable, compile_flags, environment, find_report, runtime
from conformance.selftest.variants.engine import classify_exit as _classify, worker_verdict
from conformance.selftest.variants.mutate import KILLED, _verdict_path, generate_mutants, run_mutants
from conformance.selftest.variants.tree import variant_build as mutant_variant
from conformance.selftest.variants.verdicts import VariantStatus
from conformance.selftest.variants.worker import THREADED_PATH
from conftest import ROOT

OVERFLOW = "neighbors.c:352:comparison:1dce666fc0"
"""``i <= first + count`` for ``<`` in the grid's per-agent pass: reads the position one past the
agent array (the agent_neighbors vectors size it to the agent count exactly)."""
SPANS = "neighbors.c:224:operands:39d6419b4c"
"""The per-chunk ranges allocated for ``OC_GRID_CHUNK / n + 1`` chunks: the 300-agent circle's
second chunk writes past them. A gap of the plain run (a crash on some runs only)."""
RACE = "simulator.c:345:delete:4ea7cbced5"
"""``gridValid`` never set: every worker of the threaded step rebuilds the shared grid. A gap of
the plain run (one full run killed it, the next did not)."""

ASAN_REPORT = """variant-worker: at vector:agent_neighbors
=================================================================
==2548==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6140000207d0 at pc 0x7f5126bc10a8 bp 0x7ffc sp 0x7ffc
READ of size 8 at 0x6140000207d0 thread T0
    #0 0x7f5126bc10a7 in oc_AgentGrid_CellsTask /cache/mutants/ab/solver/neighbors.c:354
    #1 0x7f5126bc2e93 in oc_AgentGrid_BuildParallel /cache/mutants/ab/solver/neighbors.c:534
"""
TSAN_REPORT = """==================
WARNING: ThreadSanitizer: data race (pid=4524)
  Write of size 4 at 0x7b2000000010 by thread T1:
    #0 oc_AgentGrid_BuildParallel /cache/mutants/cd/solver/neighbors.c:522 (liborca.so+0x6a2b)
"""
SEGV_REPORT = """AddressSanitizer:DEADLY SIGNAL
==77==ERROR: AddressSanitizer: SEGV on unknown address (pc 0x7f5cc22cc737 bp 0x7ffce5b97120 sp 0x7ffce5b97060 T0)
    #0 0x7f5cc22cc737 in oc_AgentGrid_CellFor (/cache/mutant-address-1/liborca.so+0x6737)
"""


def _need(name: str) -> None:
    """Skips when gcc has no runtime of this sanitizer (it answers the bare file name)."""
    try:
        runtime(name)
    except SanitizerUnavailable as err:
        pytest.skip(f"no {name} sanitizer runtime on this host: {err}")


def _mutant(mutant_id: str):
    return next(m for m in generate_mutants() if m.id == mutant_id)


def test_reports_are_read_with_their_first_line_and_frame() -> None:
    asan, tsan, segv = find_report(ASAN_REPORT), find_report(TSAN_REPORT), find_report(SEGV_REPORT)
    assert (asan.sanitizer, asan.kind, asan.is_signal) == ("address", "heap-buffer-overflow", False)
    assert asan.line.startswith("ERROR: AddressSanitizer: heap-buffer-overflow on address")
    assert asan.frame == "#0 oc_AgentGrid_CellsTask neighbors.c:354"
    assert (tsan.sanitizer, tsan.kind, tsan.line) == ("thread", "data", "WARNING: ThreadSanitizer: data race")
    assert tsan.detail == "WARNING: ThreadSanitizer: data race (#0 oc_AgentGrid_BuildParallel neighbors.c:522)"
    assert segv.is_signal and segv.frame == "#0 oc_AgentGrid_CellFor"
    assert find_report("Traceback (most recent call last):\n  ValueError: x\n") is None


def _done(status: int, stderr: str, stdout: str = "") -> subprocess.CompletedProcess:
    return subprocess.CompletedProcess([], status, stdout, stderr)


def test_a_report_is_a_sanitizer_kill_and_a_signal_stays_a_crash() -> None:
    asan = _classify(_done(66, ASAN_REPORT), "address")
    assert (asan["status"], asan["killed_by"]) == (VariantStatus.CRASH, "sanitizer:address")
    assert asan["detail"].endswith("(#0 oc_AgentGrid_CellsTask neighbors.c:354) during vector:agent_neighbors")
    tsan = _classify(_done(66, "variant-worker: at scenario:orca/crossing-blocks[threads=2]\n" + TSAN_REPORT), "thread")
    assert tsan["killed_by"] == "sanitizer:thread" and tsan["detail"].endswith("during scenario:orca/crossing-blocks[threads=2]")
    segv = _classify(_done(66, SEGV_REPORT), "address")
    assert segv["killed_by"] == "crash" and "AddressSanitizer: SEGV" in segv["detail"]
    assert _classify(_done(-11, ""), None) == {"status": VariantStatus.CRASH, "killed_by": "crash",
                                               "detail": "the variant crashed (signal 11)"}
    assert _classify(_done(0, "", '{"status": "survived"}\n'), "thread") == {"status": "survived"}
    assert _classify(_done(66, "something else"), "thread")["killed_by"] == "sanitizer:thread"
    assert _classify(_done(1, "Traceback ..."), "address")["status"] == VariantStatus.TIMEOUT


def test_sanitizer_builds_keep_the_determinism_flags_and_cache_apart() -> None:
    plain = mutant_variant(C_DIR)
    for name in SANITIZERS:
        variant = mutant_variant(C_DIR, name)
        assert variant.flags[:len(plain.flags)] == plain.flags and "-ffp-contract=off" in variant.flags
        assert variant.flags[len(plain.flags):] == compile_flags(name)
        assert variant.spec().name != plain.spec().name
    mutant = generate_mutants()[0]
    keys = {_verdict_path(mutant, ROOT, name) for name in (None, *SANITIZERS)}
    assert len(keys) == 3


@pytest.mark.parametrize("name", SANITIZERS)
def test_the_runtime_is_preloaded_with_its_options(name: str) -> None:
    _need(name)
    env = environment(name, base={"LD_PRELOAD": "/x/libother.so", "PATH": "/bin"})
    assert env["LD_PRELOAD"].split(":") == [str(runtime(name)), "/x/libother.so"]
    options = env["ASAN_OPTIONS" if name == "address" else "TSAN_OPTIONS"]
    assert "halt_on_error=1" in options and "exitcode=66" in options


@pytest.mark.heavy
@pytest.mark.parametrize("name", SANITIZERS)
def test_the_unmutated_sources_survive_under_each_sanitizer(name: str) -> None:
    """No sanitizer changes a bit: every vector family and every non-slow scenario on every run
    path (and, under TSan, the real pool) still matches the goldens, with no report."""
    _need(name)
    found = worker_verdict(["mutation", str(C_DIR), str(ROOT)], 600.0, sanitizer=name)
    assert found["status"] == "survived", found


@pytest.mark.heavy
def test_a_heap_overflow_is_a_kill_by_asan_every_time() -> None:
    _need("address")
    overflow, spans = _mutant(OVERFLOW), _mutant(SPANS)
    outcomes = run_mutants([overflow, overflow, overflow, spans], ROOT, jobs=2, timeout=300.0, cached=False,
                           sanitizer="address")
    for outcome in outcomes:
        assert outcome.status == KILLED and outcome.killed_by == "sanitizer:address", (outcome.mutant.id, outcome)
        assert "AddressSanitizer: heap-buffer-overflow" in outcome.detail
    assert all("neighbors.c:354" in o.detail and "during vector:agent_neighbors" in o.detail for o in outcomes[:3])
    assert "during scenario:orca/antipodal-circle-300" in outcomes[3].detail


@pytest.mark.heavy
def test_a_data_race_in_the_threaded_step_is_a_kill_by_tsan_every_time() -> None:
    _need("thread")
    race = _mutant(RACE)
    outcomes = run_mutants([race, race], ROOT, jobs=2, timeout=600.0, cached=False, sanitizer="thread")
    for outcome in outcomes:
        assert outcome.status == KILLED and outcome.killed_by == "sanitizer:thread", outcome
        assert "ThreadSanitizer: data race" in outcome.detail and THREADED_PATH[0] in outcome.detail


def test_the_mutate_command_takes_a_sanitizer_but_not_with_the_evidence(capsys) -> None:
    from conformance import cli
    args = cli.build_parser().parse_args(["mutate", "--sanitize", "thread", "--only", RACE])
    assert (args.sanitize, args.timeout) == ("thread", None)
    assert cli.build_parser().parse_args(["mutate"]).sanitize is None  # the committed report's verdicts
    assert all(cli.build_parser().parse_args(["mutate", "--sanitize", n]).sanitize == n for n in SANITIZERS)
    assert cli.main(["--suite", str(ROOT), "mutate", "--evidence", "--sanitize", "address"]) == 2
    assert "--sanitize: not with --evidence" in capsys.readouterr().err
