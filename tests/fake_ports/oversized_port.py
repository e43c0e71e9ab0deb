"""A port whose replies are too long, for the reply-limit tests: ``oversized_port.py MODE``.

It answers every request honestly (hashes and dumps from the reference, imported only when a
run or dump needs them, so that the hello comes fast) except for the one reply that MODE names:

  huge-hello   answers hello with one 64 MB line (written in 1 MiB chunks)
  long-name    answers hello with a 1500-character name and version (within the hello limit)
  long-hash    writes a 1 MiB hash line in the middle of a run
  long-dump    answers a dump with 1 MiB of agents (far more than the scene has)
"""

from __future__ import annotations

import json
import sys

from port_loop import serve

MODE = sys.argv[1] if len(sys.argv) > 1 else "huge-hello"
OUT = sys.stdout.buffer
MIB = 1 << 20


def send(obj: dict) -> None:
    OUT.write(json.dumps(obj).encode() + b"\n")
    OUT.flush()


def send_padded(head: str, fill: bytes, total: int, tail: str) -> None:
    """One line: ``head``, ``total`` bytes of ``fill`` in 1 MiB writes, ``tail``, newline.  A
    harness that stops reading kills the port or closes the pipe: both end this process."""
    OUT.write(head.encode())
    chunk = fill * (MIB // len(fill))
    written = 0
    try:
        while written < total:
            OUT.write(chunk[:total - written])
            written += len(chunk)
        OUT.write(tail.encode() + b"\n")
        OUT.flush()
    except BrokenPipeError:
        sys.exit(0)


def hello() -> None:
    if MODE == "huge-hello":
        send_padded('{"protocol": 1, "port": {"name": "', b"x", 64_000_000, '"}}')
        return
    long = MODE == "long-name"
    send({"protocol": 1, "port": {"name": "n" * 1500 if long else f"oversized-{MODE}",
                                  "version": "v" * 1500 if long else "1", "language": "Python"}})


def run(request: dict) -> None:
    from conformance.contract.driver import run as reference_run
    from conformance.contract.scenario import Scene
    from conformance.contract.state_hash import state_hash
    steps = request["steps"]
    for step, data in enumerate(reference_run(Scene.from_json(request["scene"]), steps=steps)):
        if MODE == "long-hash" and step == steps // 2:
            send_padded(f'{{"step": {step}, "hash": "', b"0", MIB, '"}')
            continue
        send({"step": step, "hash": state_hash(data)})
    send({"done": steps})


def dump(request: dict) -> None:
    if MODE == "long-dump":
        row = b'["3ff0000000000000", "3ff0000000000000", "3ff0000000000000", "3ff0000000000000", ' \
              b'"3ff0000000000000", "3ff0000000000000"], '
        send_padded(f'{{"step": {request["step"]}, "agents": [', row, MIB, "[]]}")
        return
    from conformance.contract.float_bits import hexd
    from conformance.contract.scenario import Scene
    from conformance.runners.reference import ReferenceRunner
    state = ReferenceRunner().dump(Scene.from_json(request["scene"]), request["step"])
    send({"step": state.step, "agents": [[hexd(v) for v in row] for row in state.agents]})


def main() -> int:
    return serve({"hello": lambda _: hello(), "run": run, "dump": dump}, "oversized port", send)


if __name__ == "__main__":
    sys.exit(main())
