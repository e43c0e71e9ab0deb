"""A misbehaving port for the exec runner's tests: ``fake_port.py MODE``.

It speaks docs/protocol.md honestly (hashes from the reference) except for the one way of
failing that MODE names, so every test sees exactly one misbehaviour:

  honest           answers everything correctly
  crash            exits with status 3 in the middle of a run
  segfault         kills itself with SIGSEGV in the middle of a run
  hang-hello       never answers the hello
  hang-run         stops answering in the middle of a run (but stays alive)
  flood            writes an endless line without a newline during a run
  garbage          answers a run with lines that are not JSON
  short            returns one state too few, then "done"
  long             returns one state too many
  nan              reports a non-finite state as an error reply
  no-read          never reads stdin after the hello (the harness must not block writing)
  bad-hello        answers the hello with a protocol version the harness does not speak (3)
  protocol-1       a port of protocol 1: answers a hello of any other version with an error
  protocol-2       answers protocol 2 without "provides" (every family)
  wrapper          a wrapped library: protocol 2 with "provides": [], a step that differs from the
                   reference (agent constraints before obstacle ones), dumps, and no vector family
  unknown-family   protocol 2 whose "provides" names a family the suite does not have
  spam-stderr      writes 10 MB to stderr, then crashes
  upper-hash       writes its hashes in upper case (the schema says lower)
  string-step      writes the step number as a string in the middle of a run
  extra-field      adds a key the step reply does not have in the middle of a run
"""

from __future__ import annotations

import json
import os
import signal
import sys

from port_loop import serve
import time

from conformance.contract.driver import run
from conformance.contract.scenario import Scene
from conformance.contract.state_hash import state_hash
from conformance.contract.float_bits import hexd
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.controls.careless import AgentsFirstSimulator

MODE = sys.argv[1] if len(sys.argv) > 1 else "honest"


def send(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def hello(request: dict) -> None:
    if MODE == "hang-hello":
        time.sleep(3600)
    if MODE == "protocol-1" and request.get("protocol") != 1:
        send({"error": "hello: unsupported protocol (this port speaks protocol 1)"})
        return
    reply = {"protocol": {"bad-hello": 3, "protocol-2": 2, "wrapper": 2, "unknown-family": 2}.get(MODE, 1),
             "port": {"name": f"fake-{MODE}", "language": "Python"}}
    if MODE == "wrapper":
        reply["provides"] = []
    if MODE == "unknown-family":
        reply["provides"] = ["segment_distance_squared", "segmnet_constraint", "agent_stepper"]
    send(reply)
    if MODE == "no-read":
        sys.stdin.close()
        time.sleep(3600)


WRAPPED = ReferenceRunner("wrapped", AgentsFirstSimulator)
"""The wrapper's library: a step that lists the agent constraints before the obstacle ones."""


def do_dump(request: dict) -> None:
    dumped = WRAPPED.dump(Scene.from_json(request["scene"]), request["step"])
    send({"step": dumped.step, "agents": [[hexd(v) for v in row] for row in dumped.agents]})


def do_run(request: dict) -> None:
    scene = Scene.from_json(request["scene"])
    if MODE == "wrapper":
        for step, digest in enumerate(WRAPPED.hashes(scene)):
            if step > request["steps"]:
                break
            send({"step": step, "hash": digest})
        send({"done": request["steps"]})
        return
    steps = request["steps"]
    middle = steps // 2
    for step, data in enumerate(run(scene, steps=steps)):
        if step == middle:
            if MODE == "crash":
                os._exit(3)
            if MODE == "segfault":
                os.kill(os.getpid(), signal.SIGSEGV)
            if MODE == "hang-run":
                time.sleep(3600)
            if MODE == "flood":
                chunk = "x" * (1 << 20)
                while True:
                    sys.stdout.write(chunk)
            if MODE == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if MODE == "nan":
                send({"error": f"non-finite state at step {step}"})
                return
            if MODE == "spam-stderr":
                sys.stderr.write("e" * (10 << 20) + "\nlast words before the crash\n")
                sys.stderr.flush()
                os._exit(4)
        if MODE == "short" and step == steps:
            break
        reply = {"step": step, "hash": state_hash(data)}
        if MODE == "upper-hash":
            reply["hash"] = reply["hash"].upper()
        if step == middle and MODE == "string-step":
            reply["step"] = str(step)
        if step == middle and MODE == "extra-field":
            reply["time_ms"] = 3
        send(reply)
    if MODE == "long":
        send({"step": steps + 1, "hash": "0" * 64})
    send({"done": steps})


def main() -> int:
    handlers = {"hello": hello, "run": do_run}
    if MODE == "wrapper":
        handlers["dump"] = do_dump
    return serve(handlers, "fake port", send)


if __name__ == "__main__":
    sys.exit(main())
