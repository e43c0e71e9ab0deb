"""``matrix --shard K/N``: one of N deterministic parts of a matrix run, for a CI job matrix.

Contract: the split is by column.  ``parse_shard(text)`` reads ``K/N`` (1 <= K <= N) or raises
``InputError`` naming ``--shard``; ``Shard.columns(ids)`` deals the run's columns, in the order
given, to the shards in turn: shard K runs columns K, K+N, K+2N, ... (1-based), each with every
row, the vectors row included, so that every cell, its diagnosis (which names the column's first
failing primitive) and the column's build are made in exactly one shard, as the unsharded run
makes them.  N larger than the number of columns is bad input (a shard would run nothing).
``Shard.header(ids)`` is what a shard's report adds to its header: ``shard`` ("K/N") and
``run_columns`` (every column of the run, in order), from which ``merge`` puts the shards of
one run back together (``columns_of`` gives any shard's columns again).

Why by column: a column's time is dominated by its engine (a column emulated under Unicorn or
qemu-user takes tens of times as long as a native one, and the first build of a qemu column
takes about a minute: Zig builds the target's C library), and the default order keeps columns of
one engine together, so dealing them in turn spreads the slow emulated columns evenly over the
shards, and each shard builds only its own ports. A split by scenario cannot do better than the
largest scenario: in the default selection orca/antipodal-circle-300 alone is about 60 % of an
emulated column's time, so its shard would still take most of the unsharded time, and every
shard would build every column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputError

SHARD_TEXT = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def columns(self, ids: list[str]) -> list[str]:
        """This shard's columns of the run's ``ids`` (dealt in turn); ``InputError`` when there
        are fewer columns than shards."""
        if self.count > len(ids):
            listing = ", ".join(ids)
            raise InputError("command line", "--shard",
                             f"{self}: {self.count} shards of {len(ids)} column{'s' * (len(ids) != 1)} ({listing}): "
                             "the matrix is split by column, so N may be at most the number of columns")
        return columns_of(ids, self.index, self.count)

    def header(self, ids: list[str]) -> dict:
        """The fields a shard's report header carries (none for 1/1, the whole run)."""
        return {} if self.count == 1 else {"shard": str(self), "run_columns": list(ids)}


def columns_of(ids: list[str], index: int, count: int) -> list[str]:
    """Columns ``index``, ``index + count``, ... (1-based) of ``ids``."""
    return list(ids[index - 1::count])


def parse_shard(text: str) -> Shard:
    """``K/N`` with 1 <= K <= N, as ``--shard`` takes it."""
    match = SHARD_TEXT.fullmatch(text)
    if match is None:
        raise InputError("command line", "--shard", f"{text!r} is not K/N (e.g. 2/3: the second of three shards)")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1:
        raise InputError("command line", "--shard", f"{text!r}: N (the number of shards) must be at least 1")
    if not 1 <= index <= count:
        raise InputError("command line", "--shard", f"{text!r}: K must be from 1 to N (here 1/{count} to {count}/{count})")
    return Shard(index, count)
