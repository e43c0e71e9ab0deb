"""A port's error reply, decoded once into the failure it reports (docs/protocol.md).

Contract: ``error_reply(request, text)`` is how to build the ``RunnerError`` of an error reply
whose text is ``text`` to ``request`` (a function of the whole reason and the stderr tail, as
``exec_runner``'s ``fail`` takes it): ``NonFinite`` with the step, agent, field and value when
the text is the protocol's non-finite error; ``OutOfMemory`` when the port says it ran out of
memory (the C CLI's words, and most ports'); else ``Refused`` with the request and the text.
This is the one place that reads a port's words; the judge reads the type and its fields.
"""

from __future__ import annotations

import re
from typing import Callable

from .base import NonFinite, OutOfMemory, Refused, RunnerError

NON_FINITE = re.compile(r"non-finite state at step (\d+)(?::? ?\(?agent (\d+),? ([a-z]+\.[xy])(?: is (\S+))?)?")
"""The protocol's error for a NaN or an infinity (docs/protocol.md), with the agent, field and
value when the port names them: decoded here, once, into a ``NonFinite``."""


def error_reply(what: str, error: str) -> Callable[[str, str], RunnerError]:
    """How to build the error of an error reply whose text is ``error``: ``NonFinite`` with its
    step, agent and field when the text is the protocol's non-finite error, ``OutOfMemory`` when
    the port says it ran out of memory (the C CLI's words, and most ports'), else ``Refused``."""
    match = NON_FINITE.search(error)
    if match is None:
        if "out of memory" in error:
            return OutOfMemory
        return lambda text, tail: Refused(text, tail, request=what, message=error)
    step, agent, field, value = match.groups()
    return lambda text, tail: NonFinite(int(step), int(agent) if agent is not None else None, field or "",
                                        value or "", tail, reason=text)
