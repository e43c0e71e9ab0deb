"""Runner ids a user can type, and the default columns of the matrix.

``resolve(id)`` turns ``reference``, ``c``, ``c:O0``, ``c:O3-native``, ``c:zig``, ``c:cli``,
``wasm`` (the wasm32 module under wasmtime), ``wasm-v8`` (the same module under Node.js),
``arm64``, ``s390x``, ``i386``, ``riscv64`` (the freestanding build in an emulated CPU,
in-process under Unicorn, on any host), ``arm64:qemu``, ``s390x:qemu``, ``i386:qemu``,
``riscv64:qemu``, ``ppc64le:qemu`` (the CLI cross-compiled as a Linux binary, under
qemu-user unless the host is that architecture: a second engine),
``exec:<command line>``, ``control:<name>`` (a negative control or an entry of the misreading
catalogue: a deliberately wrong port, to see a red report) and the columns later modules
register into a Runner.
"""

from __future__ import annotations

from typing import Callable

from ..errors import InputError, did_you_mean
from .base import Runner, RunnerError, RunnerInfo, RunnerUnavailable, StateDump

DEFAULT_COLUMNS: list[str] = ["c", "c:O0", "c:O3-native", "c:zig", "c:cli", "wasm", "wasm-v8",
                               "arm64", "s390x", "i386", "riscv64"]
"""The default matrix on any host, from the Python dependencies alone (the reference is left
out: the goldens are its output)."""


def default_columns() -> list[str]:
    """The default matrix here: DEFAULT_COLUMNS, then each ``<arch>:qemu`` column that can run on
    this host (its qemu-user emulator is on PATH, or the host is that architecture) and
    ``c:windows`` where Wine is (or on Windows), so that a machine with them also gets the second
    engine and one without them has no SKIPPED column."""
    import shutil
    import sys
    from .cli_port import WINE
    from .cross import TARGETS, runs_here
    extra = [f"{name}:qemu" for name, target in TARGETS.items() if runs_here(target)]
    if sys.platform == "win32" or shutil.which(WINE):
        extra.append("c:windows")
    return list(DEFAULT_COLUMNS) + extra

_FACTORIES: dict[str, Callable[[], Runner]] = {}
_FAMILIES: dict[str, Callable[[str], Runner]] = {}


def register(runner_id: str, factory: Callable[[], Runner]) -> None:
    """Make a column available under an id."""
    _FACTORIES[runner_id] = factory


def register_family(prefix: str, family: Callable[[str], Runner]) -> None:
    """Make a family of columns available under ``<prefix><name>``: ``family(name)`` makes the
    runner or raises InputError.  The layers above the runners add theirs this way (the
    controls register ``control:``), so that nothing here imports upward."""
    _FAMILIES[prefix] = family


def known_ids() -> list[str]:
    _register_builtin()
    return sorted(_FACTORIES) + ["exec:<command>"] + [f"{prefix}<name>" for prefix in _FAMILIES]


def resolve(runner_id: str) -> Runner:
    """The runner for an id; InputError for an unknown id."""
    _register_builtin()
    if runner_id.startswith("exec:"):
        from .exec_runner import ExecRunner
        command = runner_id[len("exec:"):].strip()
        if not command:
            raise InputError("command line", "runners", "exec: needs a command, e.g. exec:./my-port")
        try:
            return ExecRunner(runner_id, command)
        except ValueError as err:  # shlex: an unclosed quote
            raise InputError(runner_id, "command", f"cannot split the command as a shell would: {err}") from None
    for prefix, family in _FAMILIES.items():
        if runner_id.startswith(prefix):
            return family(runner_id[len(prefix):])
    if runner_id not in _FACTORIES:
        hint = did_you_mean(runner_id, list(_FACTORIES))
        raise InputError("command line", "runners",
                         f"unknown runner {runner_id!r}" + (hint or f"; known: {', '.join(known_ids())}"))
    return _FACTORIES[runner_id]()


_BUILTIN_DONE = False


def _register_builtin() -> None:
    global _BUILTIN_DONE
    if _BUILTIN_DONE:
        return
    _BUILTIN_DONE = True
    from .cffi_runner import CffiRunner, c_variants
    from .cli_port import native_cli, windows_cli
    from .reference import ReferenceRunner
    from .wasm_runner import WasmRunner
    from .wasm_v8 import WasmV8Runner
    register("reference", ReferenceRunner)
    register("c:cli", native_cli)
    register("c:windows", windows_cli)
    register("wasm", WasmRunner)
    register("wasm-v8", WasmV8Runner)
    from .cross import TARGETS, cross_runner
    for name, target in TARGETS.items():
        register(f"{name}:qemu", lambda t=target: cross_runner(t))
    for variant_id, variant in c_variants().items():
        register(variant_id, lambda v=variant: CffiRunner(v))
    from .unicorn_runner import unicorn_columns
    for column, factory in unicorn_columns().items():
        register(column, factory)


__all__ = ["DEFAULT_COLUMNS", "default_columns", "Runner", "RunnerError", "RunnerInfo", "RunnerUnavailable", "StateDump",
           "known_ids", "register", "register_family", "resolve"]
