"""Where the files the suite ships beside its Python code live (docs/install.md).

Contract: the shipped files are laid out as in the repository: ``scenarios/``, ``goldens/``
(with ``goldens/vectors/``), ``runners/`` (the C, wasm and freestanding sources, the misreading
catalogue, the controls and the rewrite operators, the skeleton port), ``docs/census/census.json``,
``docs/mutation/equivalent.json`` and ``docs/operators/equivalent.json``.  ``root()`` is the
folder that holds them: the checkout
above the package when it has ``runners/c`` (a clone, an editable install), else the
``suite/`` folder a wheel puts inside the package.  It only computes a path, never raises.
``missing()`` lists the files of the wheel's list (``suite/FILES.txt``, written by the build)
that are gone, or the folder or the list itself when that is; a checkout has no list and misses
nothing.  ``require()`` is ``root()``, or ``MissingData`` (an ``InputError``) naming what is
missing and how to get it back.
"""

from __future__ import annotations

from pathlib import Path

from . import __version__
from .errors import InputError

PACKAGE = Path(__file__).resolve().parent
"""The ``conformance`` package folder (its Python sources)."""

WHEEL_SUITE = PACKAGE / "suite"
"""Where a wheel carries the shipped files."""

FILE_LIST = "FILES.txt"
"""The wheel's list of its shipped files, one path relative to ``WHEEL_SUITE`` a line."""

REINSTALL = f"python -m pip install --force-reinstall orca-conformance=={__version__}"
"""How to get the shipped files back (or use a checkout: --suite DIR)."""


def root() -> Path:
    """The checkout when the package sits in one, else the wheel's ``suite/`` folder."""
    checkout = PACKAGE.parent
    if (checkout / "runners" / "c").is_dir():
        return checkout
    return WHEEL_SUITE


def is_checkout() -> bool:
    """Whether the shipped files are a checkout's (not a wheel's copy)."""
    return root() != WHEEL_SUITE


def missing() -> list[str]:
    """The shipped files that are gone, as paths relative to the package (``suite/goldens/...``):
    none for a checkout; ``suite/`` or ``suite/FILES.txt`` alone when the folder or its list is."""
    if is_checkout():
        return []
    if not WHEEL_SUITE.is_dir():
        return ["suite/"]
    try:
        listed = (WHEEL_SUITE / FILE_LIST).read_text(encoding="utf-8").splitlines()
    except OSError:
        return [f"suite/{FILE_LIST}"]
    return [f"suite/{name}" for name in listed if name and not (WHEEL_SUITE / name).is_file()]


class MissingData(InputError):
    """Shipped files are missing: ``str`` (the whole line) names them, the first few, and how to
    get them back."""

    def __init__(self, gone: list[str]):
        shown = ", ".join(gone[:3]) + (f" and {len(gone) - 3} more" if len(gone) > 3 else "")
        super().__init__(str(PACKAGE), "", f"the installed suite's files are incomplete: {len(gone)} missing "
                         f"in {PACKAGE} ({shown}); reinstall them: {REINSTALL}")
        self.args = (self.reason,)


def require() -> Path:
    """``root()``, or ``MissingData`` when files of the wheel's list are gone."""
    gone = missing()
    if gone:
        raise MissingData(gone)
    return root()
