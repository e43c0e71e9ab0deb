"""The normative text the goldens were made against: named exactly, never shipped.

Contract: ``check(path)`` reads a port author's copy of ``orca-spec.txt`` and says whether it is
byte for byte the version this suite was built from (its SHA-256), or, when it is not, whether
it differs only in line endings or trailing white space (the same text, saved differently).
``locate(explicit)`` finds a copy to read: the path given, else ``$ORCA_SPEC``; ``None`` when
neither names one (the suite never guesses a folder of its own: a clone has nothing beside it).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import cannot_read

TITLE = "ORCA solver · onepath docs"
SUBJECT = "RecursiveAI.OnePath.Crowds.Orca"
FILE_NAME = "orca-spec.txt"
SOURCE = "the onepath documentation (plain-text file orca-spec.txt)"
SHA256 = "b39370e1253a61320ac0691abf2dcf9e34710449ed7f3b626f25e9877118e689"
NORMALISED_SHA256 = "b39370e1253a61320ac0691abf2dcf9e34710449ed7f3b626f25e9877118e689"
"""SHA-256 of the text with CRLF/CR turned into LF and trailing white space of each line and of
the file removed (see ``normalise``)."""
ENV_VAR = "ORCA_SPEC"
"""The environment variable that names a copy of the text (for the tests, ``--spec`` also does)."""


@dataclass(frozen=True)
class SpecCheck:
    exact: bool
    same_text: bool
    sha256: str

    def message(self, path: Path) -> str:
        if self.exact:
            return f"{path}: the exact version the goldens were made against (sha256 {self.sha256})"
        if self.same_text:
            return (f"{path}: the same text, saved with other line endings or trailing white space "
                    f"(sha256 {self.sha256}, expected {SHA256})")
        return (f"{path}: NOT the version the goldens were made against: sha256 {self.sha256}, expected {SHA256} "
                f"({TITLE!r}, {SOURCE})")


def normalise(data: bytes) -> bytes:
    """LF line ends, no trailing white space on any line, no trailing blank lines."""
    text = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return b"\n".join(line.rstrip() for line in text.split(b"\n")).rstrip(b"\n")


def check(path: Path) -> SpecCheck:
    """Compare a copy of the text with the pinned version; InputError when it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise cannot_read(path, err) from None
    digest = hashlib.sha256(data).hexdigest()
    same = hashlib.sha256(normalise(data)).hexdigest() == NORMALISED_SHA256
    return SpecCheck(digest == SHA256, digest == SHA256 or same, digest)


def locate(explicit: Path | str | None = None) -> Path | None:
    """The copy of the text to read: ``explicit`` when given, else ``$ORCA_SPEC`` when set and
    not empty, else ``None``.  Only names a path; whether it exists is the caller's question."""
    chosen = explicit or os.environ.get(ENV_VAR) or None
    return Path(chosen).expanduser() if chosen else None
