"""Shortening a line of a red cell without cutting a value in two.

Contract: a line is built from ``Piece``s, each with a ``rank``: rank 0 (the bits that differ,
and the words that say which is expected and which got) is never dropped; a piece of a higher
rank (a decimal rendering, an ulp count, a neighbour's name) stands aside for its ``short`` (by
default nothing) when the line is wider than asked, the highest rank first and, within a rank,
the last piece first, until the line fits.  ``fit_pieces`` never cuts inside a piece: when the
rank-0 pieces alone are wider than asked, the line is returned that wide.  ``fit_words`` shortens
free text (a port's stderr, a clause's words) at a space, never inside a word, and marks the cut
with an ellipsis.
"""

from __future__ import annotations

from dataclasses import dataclass

ELLIPSIS = "\u2026"
WIDTH = 200
"""The longest line of a red cell's short form (judge/cell_text.py), its indent included."""
INDENT = "         "
"""The indent of a red cell's second and third lines (under the status)."""


@dataclass(frozen=True)
class Piece:
    """A run of a line's text: kept whole, or replaced whole by ``short`` when the line is too wide."""

    text: str
    rank: int = 0
    """0: never dropped; higher ranks are dropped first."""
    short: str = ""


def fit_pieces(pieces: list[Piece], width: int) -> str:
    """The pieces joined, with the droppable ones replaced by their ``short`` (highest rank first,
    last first within a rank) until the line is at most ``width`` characters or only rank 0 is left."""
    texts = [p.text for p in pieces]
    order = sorted((k for k, p in enumerate(pieces) if p.rank > 0), key=lambda k: (-pieces[k].rank, -k))
    for k in order:
        if sum(map(len, texts)) <= width:
            break
        texts[k] = pieces[k].short
    return "".join(texts)


def fit_words(text: str, width: int) -> str:
    """``text`` when it fits; else its words up to the last space that leaves room for an ellipsis
    (a single word wider than ``width`` is kept whole)."""
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width)
    if cut <= 0:
        end = text.find(" ")
        return text if end < 0 else text[:end] + ELLIPSIS
    return text[:cut].rstrip(" ,;:") + ELLIPSIS
