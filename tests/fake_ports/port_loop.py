"""The request loop every fake port shares: one JSON request a line, answered by its handler."""

from __future__ import annotations

import json
import sys
from typing import Callable


def serve(handlers: dict[str, Callable[[dict], None]], name: str, send: Callable[[dict], None],
          unknown: Callable[[dict], None] | None = None) -> int:
    """Answer each request on stdin with ``handlers[cmd]``; ``bye`` (or the end of input) ends the
    loop with 0; a command without a handler goes to ``unknown``, by default the protocol's error
    reply naming ``name``."""
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        cmd = request.get("cmd")
        if cmd == "bye":
            return 0
        if cmd in handlers:
            handlers[cmd](request)
        elif unknown is not None:
            unknown(request)
        else:
            send({"error": f"{name}: {cmd} is not implemented"})
    return 0
