"""Canonical state bytes and the per-step SHA-256.

Contract: the canonical bytes of a state are, for every agent in index order, position.x,
position.y, velocity.x, velocity.y, each as an IEEE binary64 in little-endian byte order
(-0.0 and +0.0 differ; no padding, no header; zero agents give zero bytes).  A NaN or an
infinity anywhere is itself a failure (``NonFiniteState``), never hashed.  The hash of a
step is the lowercase hex SHA-256 of its canonical bytes; step 0 is the initial state.
"""

from __future__ import annotations

import hashlib
import math
import struct
from typing import Sequence

AGENT_BYTES = 32
"""Four little-endian binary64 per agent."""


class NonFiniteState(ValueError):
    """A state value is NaN or infinite."""

    def __init__(self, agent: int, field: str, value: float):
        self.agent = agent
        self.field = field
        self.value = value
        super().__init__(f"agent {agent} {field} is {value!r}")


FIELDS = ("position.x", "position.y", "velocity.x", "velocity.y")


def canonical_bytes(px: Sequence[float], py: Sequence[float],
                    vx: Sequence[float], vy: Sequence[float]) -> bytes:
    """Interleaved px, py, vx, vy per agent, little-endian binary64."""
    n = len(px)
    values = [0.0] * (4 * n)
    values[0::4] = px
    values[1::4] = py
    values[2::4] = vx
    values[3::4] = vy
    check_finite(values)
    return struct.pack(f"<{4 * n}d", *values)


def check_finite(values: Sequence[float]) -> None:
    """Raise NonFiniteState for the first NaN or infinity (values interleaved per agent)."""
    if all(map(math.isfinite, values)):  # the common case, without a Python-level loop
        return
    for k, value in enumerate(values):
        if not math.isfinite(value):
            raise NonFiniteState(k // 4, FIELDS[k % 4], value)


def state_hash(data: bytes) -> str:
    """Lowercase hex SHA-256 of canonical state bytes."""
    return hashlib.sha256(data).hexdigest()


def decode_state(data: bytes) -> list[tuple[float, float, float, float]]:
    """Canonical bytes back to (px, py, vx, vy) per agent."""
    if len(data) % AGENT_BYTES:
        raise ValueError(f"canonical state of {len(data)} bytes is not a multiple of {AGENT_BYTES}")
    flat = struct.unpack(f"<{len(data) // 8}d", data)
    return [tuple(flat[k:k + 4]) for k in range(0, len(flat), 4)]  # type: ignore[misc]
