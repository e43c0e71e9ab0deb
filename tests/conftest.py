"""Shared fixtures and paths of the test suite.

``ROOT`` is the repository (tests import it: ``from conftest import ROOT``, for module-level
constants and parametrisation); ``repo_suite`` is the suite committed there and ``reference``
one reference runner for the whole session (it holds no state between calls).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.runners.base import Runner
from conformance.selftest.controls import register_columns

register_columns()  # the control:<name> columns, as the CLI registers them

ROOT = Path(__file__).resolve().parent.parent
FAKE_PORT = ROOT / "tests" / "fake_ports" / "fake_port.py"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def repo_suite():
    from conformance.data.suite import Suite
    return Suite(ROOT)


@pytest.fixture(scope="session")
def reference():
    from conformance.runners.reference import ReferenceRunner
    return ReferenceRunner()


class Delegating(Runner):
    """A port that is ``inner`` in every request; a test overrides the one it changes (a wrapped
    library answering a primitive in another form, say)."""

    def __init__(self, inner: Runner, prefix: str):
        self.inner = inner
        self.id = f"{prefix}:{inner.id}"

    def info(self):
        return self.inner.info()

    def hashes(self, scene, steps=None):
        return self.inner.hashes(scene, steps)

    def dump(self, scene, step):
        return self.inner.dump(scene, step)

    def vectors(self, family, args):
        return self.inner.vectors(family, args)

    def close(self):
        self.inner.close()
