"""The ports that ship with the suite answer with messages that match the protocol's schemas."""

from __future__ import annotations

import json
import subprocess

import pytest

from conformance.contract.schema_files import validator
from conformance.runners.build.layer import build
from conformance.contract.scenario import load_scenario
from conformance.data.vectors import load_all
from conftest import ROOT


def c_cli() -> list[str]:
    from conformance.runners.cli_port import native_cli
    return [str(build(native_cli().spec).path)]


def node_port() -> list[str]:
    import shutil
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH")
    from conformance.runners.wasm_v8 import WasmV8Runner
    runner = WasmV8Runner()
    runner.info()
    return list(runner.argv)


@pytest.mark.parametrize("port", [c_cli, node_port], ids=["c-cli", "wasm-v8"])
def test_replies_match_the_schemas(port) -> None:
    scene = load_scenario(ROOT / "scenarios" / "orca" / "head-on-perturbed.yaml").scene.to_json()
    cases = load_all(ROOT / "goldens" / "vectors")["agent_case_form"][:5]
    requests = [{"cmd": "hello", "protocol": 1}, {"cmd": "run", "scene": scene, "steps": 4},
                {"cmd": "dump", "scene": scene, "step": 3},
                {"cmd": "vectors", "family": "agent_case_form", "cases": [c["args"] for c in cases]},
                {"cmd": "nonsense"}, {"cmd": "bye"}]
    for request, name in zip(requests, ("hello", "run", "dump", "vectors", None, "bye")):
        if name:
            validator(f"protocol/{name}-request").validate(request)
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(port(), input=text, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    expected = (["hello-reply"] + ["run-step-reply"] * 5 + ["run-done-reply", "dump-reply", "vectors-reply",
                                                             "error-reply"])
    assert len(replies) == len(expected)
    for reply, name in zip(replies, expected):
        validator(f"protocol/{name}").validate(reply)
    assert replies[8]["results"] == [c["result"] for c in cases]


@pytest.mark.parametrize("port", [c_cli, node_port], ids=["c-cli", "wasm-v8"])
def test_both_protocols_are_answered_and_protocol_2_provides_every_family(port) -> None:
    """A hello is answered in the version it asks for: protocol 2 lists every family of the suite
    in ``provides``, protocol 1 has no ``provides``; another version is an error."""
    from conformance.data.vectors import FAMILIES
    requests = [{"cmd": "hello", "protocol": 2}, {"cmd": "hello", "protocol": 1}, {"cmd": "hello", "protocol": 3},
                {"cmd": "bye"}]
    done = subprocess.run(port(), input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    two, one, three = [json.loads(line) for line in done.stdout.splitlines()]
    for reply in (two, one):
        validator("protocol/hello-reply").validate(reply)
    assert two["protocol"] == 2 and two["provides"] == [f.name for f in FAMILIES]
    assert one["protocol"] == 1 and "provides" not in one
    assert three == {"error": "hello: unsupported protocol (this port speaks protocols 1 and 2)"}
