"""A difference of one agent's agent_step, as typed values: which constraint, from which
neighbour, what the port's own primitives answered.

Contract: ``ConstraintDifference`` is the first difference between the port's and the
reference's agent_step of one agent (step_comparison.compare_steps makes it; the diagnosis'
searches add what explains it: a reading, the port's neighbour search, its own constraint
primitive).  Where the constraint comes from is a ``Neighbor`` (a ``Side`` and the segment or
agent index), and what the port's primitive answered is a ``PrimitiveAnswer``: decisions read
these values, never the words (``neighbor``, ``primitive``) that reports show.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Side(Enum):
    """Which part of an agent's constraint list a constraint is in."""

    OBSTACLE = "obstacle"
    AGENT = "agent"


@dataclass(frozen=True)
class Neighbor:
    """The segment (``Side.OBSTACLE``) or agent (``Side.AGENT``) a constraint comes from; ``index``
    None for a constraint only the port's list has (its neighbour is not known)."""

    side: Side
    index: int | None = None

    def __str__(self) -> str:
        if self.side is Side.OBSTACLE:
            return "obstacle" if self.index is None else f"obstacle: segment {self.index}"
        return "agent neighbor" if self.index is None else f"agent neighbor {self.index}"

    def brief(self) -> str:
        """"segment s", "obstacle", "agent neighbor j" or "agent neighbor": as a headline names it."""
        return f"segment {self.index}" if self.side is Side.OBSTACLE and self.index is not None else str(self)


class PrimitiveAnswer(Enum):
    """What the port's own constraint primitive answered for a differing constraint's inputs: not
    asked (or no answer); the reference's plane (the port's step feeds it something else); another
    plane (the port's own primitive is wrong)."""

    NOT_ASKED = ""
    REFERENCE_PLANE = "reference-plane"
    WRONG_PLANE = "wrong-plane"


@dataclass
class ConstraintDifference:
    """The first difference between the port's and the reference's ``agent_step`` of one agent."""

    agent: int
    index: int | None
    """Index of the first differing constraint in the list; None when only the velocity differs."""
    source: Neighbor | None = None
    """The segment or agent neighbour the constraint comes from (the reference's, else the port's);
    ``neighbor`` says it in words."""
    field: str = ""
    """P.x, P.y, N.x, N.y, "missing", "extra", velocity.x or velocity.y ("step result" for a
    composition: the list and velocity agree, the port's step does not)."""
    expected: str = ""
    got: str = ""
    reading: str = ""
    """The misreading of the constraint assembly that reproduces the port's list, if one does."""
    reading_clause: str = ""
    """The clause that reading breaks."""
    primitive: str = ""
    """What the port's own constraint primitive answers for this constraint's inputs, if asked, in words."""
    primitive_answer: PrimitiveAnswer = PrimitiveAnswer.NOT_ASKED
    primitive_family: str = ""
    """The same as values (decisions read these, never ``primitive``'s words), and the family asked."""
    neighbors: str = ""
    """How the port's own neighbour primitives disagree with the reference for this agent, if they do."""
    port_neighbors: tuple[str, list, list] | None = None
    """(family, its arguments, the port's answer) when the port's own neighbour primitive disagrees."""
    neighbor_change: str = ""
    """The decisive fact of the port's neighbour list against the reference's, when it differs:
    the counts, the first neighbour missing, extra or moved (step_comparison.neighbor_change)."""
    tie: str = ""
    """"the port breaks a tie otherwise: ..." when its neighbour order differs first at two equal distances."""
    expected_value: float | None = None
    got_value: float | None = None
    """The two doubles behind ``expected`` and ``got`` (a P, N or velocity component), when they are one value each."""

    @property
    def neighbor(self) -> str:
        """"obstacle: segment s" or "agent neighbor j" ("obstacle" or "agent neighbor" for a
        constraint only the port's list has), or "" when there is none."""
        return "" if self.source is None else str(self.source)

    def neighbor_index(self, side: Side) -> int | None:
        """The index of the segment or agent the constraint comes from, when it is on ``side``."""
        return self.source.index if self.source is not None and self.source.side is side else None

    def describe(self) -> str:
        if self.index is None:
            return f"{self.field}: expected {self.expected}, got {self.got}"
        what = f"constraint {self.index} ({self.neighbor})" if self.neighbor else f"constraint {self.index}"
        if self.field in ("missing", "extra"):
            return f"{what} is {self.field} in the port's list ({self.got})"
        return f"{what} differs in {self.field}: expected {self.expected}, got {self.got}"
