"""A clause in the text's own words, when the user has the pinned text beside the suite.

Contract: the suite never ships the words of orca-spec.txt; a red cell prints a clause's
paraphrase marked as one ("in short"), unless a copy of the text is at hand.  ``use_text(path)``
(matrix ``--spec FILE``) chooses a copy for this process; without one, ``$ORCA_SPEC`` names it.
``spec_quotes()`` gives ``SpecQuotes`` only for a copy that ``spec_text.check`` finds to be the
pinned version (byte for byte, or the same text saved with other line ends or trailing white
space), else None.  ``SpecQuotes.quote(clause)`` is the span the clause map records for a clause
of the text, verbatim (lines joined by a space), and only when those characters hash to the
clause's own recorded SHA-256; None otherwise (a note, a porting rule, a span that does not
match).  Nothing here ever returns words that are not the text's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import InputError
from . import spec_text
from .clauses import SPEC, Clause, clause_text, text_lines

_chosen: list[Path] = []
"""The copy ``use_text`` chose for this process (matrix --spec), if any."""


@dataclass(frozen=True)
class SpecQuotes:
    """The pinned text's lines (as the clause map counts them), read from ``path``."""

    lines: tuple[str, ...]
    path: Path

    def quote(self, clause: Clause) -> str | None:
        """The clause's own characters, verbatim, or None (not a clause of the text, or its span
        in this copy is not the pinned one)."""
        if clause.source != SPEC or clause.lines is None or clause.columns is None or not clause.sha256:
            return None
        text = clause_text(list(self.lines), clause)
        if text is None or hashlib.sha256(text.encode("utf-8")).hexdigest() != clause.sha256:
            return None
        return " ".join(line.strip() for line in text.split("\n"))


@lru_cache(maxsize=4)
def load_quotes(path: Path) -> SpecQuotes | None:
    """SpecQuotes of a copy that is the pinned version; None for any other file.  InputError when
    it cannot be read."""
    if not spec_text.check(path).same_text:
        return None
    return SpecQuotes(tuple(text_lines(path.read_bytes())), path)


def use_text(path: Path) -> str:
    """Choose ``path`` as this process's copy of the text; one line saying what red cells will show."""
    _chosen[:] = [path]
    if load_quotes(path) is None:
        return (f"{path}: not the pinned {spec_text.FILE_NAME} (orca-conformance spec {path} says how it "
                "differs): red cells show each clause in short, in the suite's words")
    return f"{path}: the pinned {spec_text.FILE_NAME}: red cells quote each clause of it"


def spec_quotes() -> SpecQuotes | None:
    """The chosen copy's quotes (``use_text``), else ``$ORCA_SPEC``'s, when it is the pinned
    version; None otherwise (no copy, an unreadable file, another version)."""
    path = spec_text.locate(_chosen[0] if _chosen else None)
    if path is None:
        return None
    try:
        return load_quotes(path)
    except InputError:
        return None
