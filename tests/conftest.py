"""Shared fixtures and paths of the test suite.

``ROOT`` is the repository (tests import it: ``from conftest import ROOT``, for module-level
constants and parametrisation); ``repo_suite`` is the suite committed there and ``reference``
one reference runner for the whole session (it holds no state between calls).  ``spec_file`` is
a copy of the normative text for the tests that read it: ``--spec FILE``, else ``$ORCA_SPEC``,
else ``../shared/spec/orca-spec.txt`` beside the clone (where CI lays it); a test that asks for it
skips, with that reason, when none of them names a file (a clone has nothing beside it), and
fails when ``--spec`` or ``$ORCA_SPEC`` names one that is not there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.runners.base import Runner
from conformance.selftest.controls.catalogue import register_columns

register_columns()  # the control:<name> columns, as the CLI registers them

ROOT = Path(__file__).resolve().parent.parent
FAKE_PORT = ROOT / "tests" / "fake_ports" / "fake_port.py"
SIBLING_SPEC = ROOT.parent / "shared" / "spec" / "orca-spec.txt"
"""Where CI lays the text: beside the clone, not in it."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--spec", metavar="FILE", default=None,
                     help="a copy of orca-spec.txt for the tests that read the text (else $ORCA_SPEC, "
                          "else ../shared/spec/orca-spec.txt beside the clone; absent: those tests skip)")


@pytest.fixture(scope="session")
def spec_file(request: pytest.FixtureRequest) -> Path:
    from conformance.contract.spec_text import ENV_VAR, locate
    given = locate(request.config.getoption("--spec"))
    if given is not None and not given.is_file():  # named, so a mistake: never a quiet skip
        pytest.fail(f"--spec or ${ENV_VAR} names {given}, which is not a file", pytrace=False)
    if given is None and not SIBLING_SPEC.is_file():
        pytest.skip(f"no copy of orca-spec.txt: give --spec FILE or ${ENV_VAR} (nothing at {SIBLING_SPEC}, "
                    f"where CI lays it)")
    return given or SIBLING_SPEC


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
