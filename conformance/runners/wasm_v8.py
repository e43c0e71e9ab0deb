"""The ``wasm-v8`` column: the same .wasm file as ``wasm``, run by Node.js's WebAssembly engine.

Contract: ``WasmV8Runner`` builds the module through the build layer (runners/wasm_runner's
``wasm_spec``), then drives ``node runners/wasm/port.mjs <module.wasm>`` as an exec port: the
Node script speaks docs/protocol.md, so every limit, timeout and error path of the ``exec:``
runner applies (a trap is an error reply; a hang is killed at the harness's timeout).  Without
``node`` on PATH (or with a Node.js too old for the module: BigInt-to-i64 needs 16+) the column
is SKIPPED with the reason.  V8 compiles the module with its own tiers (Liftoff, then
TurboFan), independently of Cranelift: that second compilation is what the column checks.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache

from .build.layer import ROOT, BuildSpec
from .base import RunnerError, RunnerInfo, RunnerUnavailable
from .exec_runner import ExecRunner, Limits
from .wasm_runner import WASM_TARGET, build_module, toolchain_text

PORT_SCRIPT = ROOT / "runners" / "wasm" / "port.mjs"
MIN_NODE_MAJOR = 16


@lru_cache(maxsize=None)
def node_version(node: str = "node") -> tuple[str, str]:
    """(node version, V8 version) of a node executable; RunnerUnavailable when unusable."""
    path = shutil.which(node)
    if path is None:
        raise RunnerUnavailable(f"{node} not found on PATH (install Node.js {MIN_NODE_MAJOR}+ for the wasm-v8 column)")
    try:
        out = subprocess.run([path, "-p", "process.version + ' ' + process.versions.v8"], capture_output=True,
                             text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise RunnerUnavailable(f"{node} cannot run: {err}") from None
    fields = out.stdout.split()
    if out.returncode != 0 or len(fields) != 2:
        raise RunnerUnavailable(f"{node} cannot run: {(out.stderr or out.stdout).strip()[:200]}")
    match = re.match(r"v(\d+)", fields[0])
    if match is None or int(match.group(1)) < MIN_NODE_MAJOR:
        raise RunnerUnavailable(f"Node.js {fields[0]} is too old for the wasm-v8 column (need {MIN_NODE_MAJOR}+)")
    return fields[0], fields[1]


class WasmV8Runner(ExecRunner):
    """Builds the module, then speaks the protocol to ``node port.mjs module.wasm``."""

    def __init__(self, runner_id: str = "wasm-v8", spec: BuildSpec | None = None, node: str = "node",
                 limits: Limits = Limits()):
        super().__init__(runner_id, [], limits)
        self.spec = spec
        self.node = node
        self.artifact = None

    def _prepare(self) -> None:
        if self.artifact is not None:
            return
        version, v8 = node_version(self.node)
        artifact = build_module(self.spec)
        self.argv = [shutil.which(self.node) or self.node, str(PORT_SCRIPT), str(artifact.path)]
        described = artifact.describe()
        toolchain = toolchain_text(described["compiler"])
        self.extra = {"compiler": toolchain, "flags": described["flags"], "architecture": "wasm32",
                      "versions": {"engine": f"V8 {v8} (Node.js {version})", "toolchain": toolchain,
                                   "target": WASM_TARGET, "module_sha256": described["sha256"],
                                   "module_size": described["size"], "port_script": str(PORT_SCRIPT.relative_to(ROOT))}}
        self.artifact = artifact

    def info(self) -> RunnerInfo:
        info = super().info()
        loaded = (self._hello or {}).get("module_sha256")
        if loaded != self.extra["versions"]["module_sha256"]:
            raise RunnerError(f"the Node port loaded module {loaded}, not the one built")
        return info
