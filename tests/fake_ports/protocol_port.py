"""A port with one protocol slip for the protocol row's tests: ``protocol_port.py MODE``.

Every hash and dump comes from the reference, so every scenario cell passes; only MODE's slip
differs, and only the protocol row can see it:

  honest                    speaks protocols 1 and 2 (others refused), provides no family
  dump-late                 a dump of step k holds the state after k + 1 steps (its "step" says k)
  dump-previous-preferred   a dump of step k holds the preferred velocities of step k - 1
  ignore-steps              a run gives the scene's own steps, whatever the request's "steps"
  leak                      a run starts each agent with the velocity the same agent index had
                            at the end of the previous run of the process
  unknown-crash             exits with status 3 on a command it does not know
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys

from port_loop import serve

from conformance.contract.driver import run
from conformance.contract.float_bits import hexd
from conformance.contract.scenario import Scene
from conformance.contract.state_hash import decode_state, state_hash
from conformance.runners.reference import ReferenceRunner

MODE = sys.argv[1] if len(sys.argv) > 1 else "honest"
REFERENCE = ReferenceRunner()
LAST_VELOCITIES: list[tuple[float, float]] = []
"""The leak: each agent's velocity at the end of the previous run."""


def send(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def hello(request: dict) -> None:
    version = request.get("protocol")
    if version not in (1, 2):
        send({"error": f"hello: unsupported protocol {version} (this port speaks 1 and 2)"})
        return
    reply = {"protocol": version, "port": {"name": f"protocol-{MODE}", "language": "Python"}}
    if version == 2:
        reply["provides"] = []
    send(reply)


def _leaked(scene: Scene) -> Scene:
    """The scene with the previous run's velocities put in (the leak mode's slip)."""
    agents = [dataclasses.replace(a, velocity=LAST_VELOCITIES[i]) if i < len(LAST_VELOCITIES) else a
              for i, a in enumerate(scene.agents)]
    return dataclasses.replace(scene, agents=tuple(agents))


def do_run(request: dict) -> None:
    scene = Scene.from_json(request["scene"])
    steps = scene.steps if MODE == "ignore-steps" else request["steps"]
    if MODE == "leak":
        scene = _leaked(scene)
    data = b""
    for step, data in enumerate(run(scene, steps=steps)):
        send({"step": step, "hash": state_hash(data)})
    if MODE == "leak":
        LAST_VELOCITIES[:] = [(vx, vy) for _, _, vx, vy in decode_state(data)]
    send({"done": steps})


def do_dump(request: dict) -> None:
    scene, step = Scene.from_json(request["scene"]), request["step"]
    rows = REFERENCE.dump(scene, step + 1 if MODE == "dump-late" else step).agents
    if MODE == "dump-previous-preferred":
        previous = REFERENCE.dump(scene, max(0, step - 1)).agents
        rows = tuple(row[:4] + before[4:] for row, before in zip(rows, previous))
    send({"step": step, "agents": [[hexd(v) for v in row] for row in rows]})


def unknown(request: dict) -> None:
    if MODE == "unknown-crash":
        os._exit(3)
    send({"error": f"unknown command {str(request.get('cmd'))[:64]!r}"})


def main() -> int:
    return serve({"hello": hello, "run": do_run, "dump": do_dump}, "protocol port", send, unknown)


if __name__ == "__main__":
    sys.exit(main())
