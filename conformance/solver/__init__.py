"""Reference ORCA solver: the normative text (orca-spec.txt) in pure Python, bit for bit.

Modules, one concept each (the C port under runners/c mirrors the names):
vector, halfplane, obstacle (velocity-obstacle geometry), constraint, linear_program,
fallback, neighbors, simulator.
"""

from .simulator import AgentParams, Simulator

__all__ = ["AgentParams", "Simulator"]
