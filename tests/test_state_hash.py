"""Canonical state bytes and hashes."""

import hashlib

import pytest

from conformance.contract.state_hash import NonFiniteState, canonical_bytes, decode_state, state_hash


def test_layout_is_interleaved_little_endian() -> None:
    data = canonical_bytes([1.0], [2.0], [-0.0], [0.5])
    assert data.hex() == "000000000000f03f" + "0000000000000040" + "0000000000000080" + "000000000000e03f"
    assert decode_state(data) == [(1.0, 2.0, -0.0, 0.5)]


def test_signed_zero_changes_the_hash() -> None:
    assert state_hash(canonical_bytes([0.0], [0.0], [0.0], [0.0])) != \
        state_hash(canonical_bytes([0.0], [0.0], [-0.0], [0.0]))


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_is_a_failure(bad: float) -> None:
    with pytest.raises(NonFiniteState) as info:
        canonical_bytes([0.0, 1.0], [0.0, 1.0], [0.0, bad], [0.0, 0.0])
    assert info.value.agent == 1 and info.value.field == "velocity.x"


def test_zero_agents_hash_the_empty_string() -> None:
    assert state_hash(canonical_bytes([], [], [], [])) == hashlib.sha256(b"").hexdigest()
