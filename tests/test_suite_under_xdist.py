"""The README's test command runs on every core (``-n auto``, pytest-xdist): the outcome of each
test must not depend on that.

What could make it depend: state a test leaves in its process for the next one (caches, the
traced shadow of the citation, registries) and state on disk that two processes share (the build
cache, the cached source trees of variants, the census and clause files they read).  This test
runs the test files that touch those serially and on two workers, in fresh processes, and
compares test by test: the same tests, each with the same outcome and the same skip reason.
The whole suite was compared the same way when the command moved to xdist (docs/results.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.heavy  # the shared-state files run twice, serially and on two workers

SHARED_STATE = ("test_census.py", "test_first_decision.py", "test_foreign_diagnosis.py", "test_build_lock.py",
                "test_clauses.py")
"""Files whose tests share in-process state (census runs, the citation's shadow, clause maps) or
on-disk state (the build cache and its lock)."""


def outcomes(report: Path) -> dict[str, tuple[str, str]]:
    """JUnit XML -> {test id: (outcome, skip or failure message)}."""
    found = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        verdict = next((child for child in case if child.tag in ("failure", "error", "skipped")), None)
        found[f"{case.get('classname')}::{case.get('name')}"] = (
            verdict.tag if verdict is not None else "passed", verdict.get("message", "") if verdict is not None else "")
    return found


def run(tmp_path: Path, name: str, *extra: str) -> dict[str, tuple[str, str]]:
    report = tmp_path / f"{name}.xml"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra,
                           f"--junitxml={report}", *(str(ROOT / "tests" / f) for f in SHARED_STATE)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert report.exists(), done.stdout[-2000:] + done.stderr[-2000:]
    return outcomes(report)


def test_each_test_has_its_serial_outcome_on_two_workers(tmp_path: Path) -> None:
    serial = run(tmp_path, "serial", "-p", "no:xdist")
    parallel = run(tmp_path, "parallel", "-n", "2")
    passed = [t for t, (outcome, _) in serial.items() if outcome == "passed"]
    assert len(passed) >= 20, f"only {len(passed)} tests passed: the comparison would say little"
    # a skip is an outcome like any other here, as long as it says why (a clone with no copy of
    # the text beside it skips the tests that read it); a failure or an error never is
    unexplained = {t: o for t, o in serial.items() if o[0] != "passed" and not (o[0] == "skipped" and o[1].strip())}
    assert not unexplained, unexplained
    assert parallel == serial
