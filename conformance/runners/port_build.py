"""``orca-conformance build COLUMN --out PATH``: one column's port, built and copied where you want it.

Contract: ``plan(column)`` asks the column's own runner (``runners.resolve``) which build it
makes, so a column and its ``build`` can never disagree: the C CLI (``c:cli``) and the
cross-compiled static CLIs (``<arch>:qemu``) are executables, the in-process C columns (``c``,
``c:O0``, ``c:O3-native``, ``c:zig``) a shared library, ``wasm`` and ``wasm-v8`` the wasm32
module, ``arm64``, ``s390x``, ``i386`` and ``riscv64`` a freestanding ELF, and a
``control:<name>`` that is a build of the C port its deliberately wrong build.  A column with
nothing to compile (``reference``, ``exec:``, a Python control) or an unknown one is an
``InputError`` (one line, exit 2) that lists what can be built.  ``plan(column, sources)``
builds the column from ``sources``, a user's edited copy of ``runners/c``, with the column's
own flags, defines and target (``build.sources.from_tree``; a folder that is not such a copy is an
``InputError``, before anything compiles).

``build_port(plan, out)`` compiles through the one build layer (``conformance/runners/build/layer.py``, the
content-keyed cache; nothing here compiles) and copies the artifact to ``out`` (a file, or a
folder to put the artifact's own name in) atomically, executable for executables and
libraries.  A missing toolchain raises ``CannotBuild``; so does a failing compile, with the
compiler's output.  The ``BuiltPort`` says what was built (compiler, flags, target, SHA-256)
and, for what speaks the protocol, the ``matrix`` command line that gates it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .build.layer import Artifact, BuildFailed, BuildSpec, ToolchainMissing, build, zig_available
from .build.sources import C_DIR
from .. import shipped
from ..errors import InputError, did_you_mean

KINDS = {"executable": "the C CLI port, an executable that speaks docs/protocol.md",
         "shared": "the C port as a shared library, API in runners/c/solver/orca.h and runners/c/harness/driver.h",
         "wasm": "the wasm32 module of the C port, exports in docs/wasm.md",
         "freestanding": "a freestanding static ELF of the C port (no libc), the wasm module's exports, run "
                         "in-process under Unicorn (docs/unicorn.md)"}

KIND_DOCS = {"executable": "protocol.md", "shared": "porting.md", "wasm": "wasm.md", "freestanding": "unicorn.md"}
"""The document of ``docs/`` that says how each kind is driven (``build`` prints its full path:
the checkout's, or the copy a wheel carries)."""

KIND_NAMES = {"executable": "an executable that speaks the protocol", "shared": "a shared library",
              "wasm": "the wasm32 module", "freestanding": "a freestanding ELF (for the Unicorn columns)"}
"""How ``build --help`` names each kind of KINDS."""


class CannotBuild(RuntimeError):
    """The column's toolchain is missing or its compile failed; the message says which."""


@dataclass(frozen=True)
class BuildPlan:
    """What one column compiles: its BuildSpec, and how the artifact is run once copied."""

    column: str
    spec: BuildSpec
    emulator: str | None = None
    """The QEMU user-mode emulator a cross-compiled executable needs on this host (None: native)."""
    missing: str | None = None
    """Why the toolchain is unavailable (zig not installed), known before compiling."""
    sources: Path | None = None
    """The copy of runners/c the port is built from (``--sources``); None: runners/c itself."""

    @property
    def kind(self) -> str:
        if self.spec.output == "executable" and (self.spec.effective_target or "").endswith("-freestanding"):
            return "freestanding"
        return self.spec.output

    def headline(self) -> str:
        """``building c:cli (gcc, host) ...``: printed before a build that may take minutes."""
        tool = "zig cc" if self.spec.toolchain.name == "zig" else self.spec.toolchain.name
        where = f" from {self.sources}" if self.sources else ""
        return f"building {self.column}{where} ({tool}, {self.spec.effective_target or 'host'}) ..."


@dataclass(frozen=True)
class BuiltPort:
    """A built port at the user's path, and how it was made."""

    plan: BuildPlan
    path: Path
    artifact: Artifact
    sha256: str
    size: int

    def run_argv(self) -> list[str] | None:
        """The command that starts the port as a protocol speaker; None for a library."""
        shown = _shown(self.path)
        if self.plan.kind == "executable":
            return ([self.plan.emulator] if self.plan.emulator else []) + [shown]
        if self.plan.kind == "wasm":
            from .wasm_v8 import PORT_SCRIPT
            return ["node", _shown(PORT_SCRIPT), shown]
        return None

    def gate_command(self) -> str:
        """The matrix command line that judges this build."""
        argv = self.run_argv()
        if argv is None and self.plan.sources:
            return f"none here: the column {self.plan.column} builds runners/c, not {self.plan.sources}"
        if argv is None:  # a library is judged in-process, by the column that loads this very build
            return f"orca-conformance matrix --runners {shlex.quote(self.plan.column)}"
        return f"orca-conformance matrix --runner {shlex.quote('exec:' + shlex.join(argv))}"

    def lines(self) -> list[str]:
        """The report printed by ``orca-conformance build``."""
        spec = self.plan.spec
        how = "reused from the cache" if self.artifact.cached else f"compiled in {self.artifact.seconds:.1f} s"
        compiler = self.artifact.compiler
        if spec.toolchain.name == "zig":
            from .wasm_runner import toolchain_text
            compiler = toolchain_text(compiler)
        out = [f"build: {self.plan.column} -> {self.path}: {KINDS[self.plan.kind]}",
               f"  compiler  {compiler}",
               f"  flags     {' '.join(spec.flags)}",
               f"  defines   {' '.join(spec.defines) or '-'}",
               f"  link      {' '.join(spec.link_flags) or '-'}",
               f"  target    {spec.effective_target or 'host'}",
               f"  sources   {self.plan.sources or C_DIR}",
               f"  compile   {shlex.join(spec.command_line(self.path))}",
               f"  sha256    {self.sha256}",
               f"  size      {self.size} bytes",
               f"  cache     {self.artifact.path} ({how})",
               f"  docs      {shipped.root() / 'docs' / KIND_DOCS[self.plan.kind]}"]
        argv = self.run_argv()
        if argv is not None:
            out.append(f"  run       {shlex.join(argv)}   (JSON lines on stdin/stdout)")
        elif self.plan.kind == "freestanding":
            out.append("  load      its PT_LOAD segments into an emulated CPU; call the exports by the "
                       "architecture's calling convention (docs/unicorn.md)")
        else:
            out.append("  load      in-process (cffi, ctypes, dlopen); the functions are declared in runners/c/solver/orca.h and runners/c/harness/driver.h")
        out.append(f"  gate      {self.gate_command()}")
        return out


def _shown(path: Path) -> str:
    """A path as a user types it: relative to the working folder when inside it, with ./ for a bare name."""
    try:
        text = str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
    return text if "/" in text else f"./{text}"


def buildable_columns() -> list[str]:
    """Every registered column id that compiles something, in registry order; then control:<name>."""
    from . import DEFAULT_COLUMNS, known_ids
    ids = list(dict.fromkeys(DEFAULT_COLUMNS + [i for i in known_ids() if not i.endswith(">")]))
    return [i for i in ids if _plan_of(i) is not None] + ["control:<name>"]


def buildable_by_kind() -> dict[str, list[str]]:
    """The columns of ``buildable_columns`` by the kind of port each builds (a key of KINDS),
    in registry order; ``control:<name>`` is left out."""
    by_kind: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for column in buildable_columns()[:-1]:
        found = _plan_of(column)
        if found is not None:
            by_kind[found.kind].append(column)
    return by_kind


def _unknown(column: str, why: str) -> InputError:
    return InputError("command line", "column",
                      f"{why}; can build: {', '.join(buildable_columns())} (see: orca-conformance controls)")


def plan(column: str, sources: Path | None = None) -> BuildPlan:
    """The build of one column (from ``sources``, a copy of runners/c, when given); InputError
    for an unknown column, one with nothing to compile, or ``sources`` that are no such copy."""
    from . import resolve
    column = column.strip()
    if not column:
        raise _unknown(column, "no column given")
    if column.startswith("exec:") or column == "reference":
        raise _unknown(column, f"{column!r} is not built by the suite")
    try:
        resolve(column)
    except InputError as err:
        if column.startswith("control:"):  # the reason names the known controls
            raise InputError("command line", "column", err.reason) from None
        hint = did_you_mean(column, [c for c in buildable_columns() if not c.endswith(">")])
        if hint:
            raise InputError("command line", "column", f"unknown column {column!r}{hint}") from None
        raise _unknown(column, f"unknown column {column!r}") from None
    found = _plan_of(column)
    if found is None:
        raise _unknown(column, f"{column!r} compiles nothing (a Python port)")
    if sources is not None:
        from dataclasses import replace
        from .build.sources import from_tree
        found = replace(found, spec=from_tree(found.spec, sources), sources=sources)
    return found


def _plan_of(column: str) -> BuildPlan | None:
    """The BuildPlan of a known column id, or None when its runner compiles nothing."""
    from . import resolve
    return plan_of_runner(column, resolve(column))


def plan_of_runner(column: str, runner) -> BuildPlan | None:
    """The BuildPlan of a column's runner object (what its first use compiles), or None when it
    compiles nothing; the matrix asks it before running, to say what a first run builds."""
    from .cffi_runner import CffiRunner
    from .cli_port import CliRunner
    from .unicorn_runner import UnicornRunner, elf_spec
    from .wasm_runner import WasmRunner, wasm_spec
    from .wasm_v8 import WasmV8Runner
    if isinstance(runner, CliRunner):
        return BuildPlan(column, runner.spec, runner.emulator, runner.missing)
    if isinstance(runner, CffiRunner):
        missing = zig_available() if runner.variant.toolchain.name == "zig" else None
        return BuildPlan(column, runner.variant.spec(), missing=missing)
    if isinstance(runner, (WasmRunner, WasmV8Runner)):
        return BuildPlan(column, runner.spec or wasm_spec(), missing=zig_available())
    if isinstance(runner, UnicornRunner):
        return BuildPlan(column, runner.spec or elf_spec(runner.arch), missing=zig_available())
    return None


def output_path(chosen: BuildPlan, out: Path) -> Path:
    """The file ``--out`` names: ``out`` itself, or inside it when it is an existing folder (the
    artifact keeps its own name: ``orca-port``, ``liborca.so``, ``orca.wasm``); InputError when
    its folder does not exist."""
    if out.is_dir():
        out = out / chosen.spec.artifact_name()
    if not out.parent.is_dir():
        raise InputError("command line", "--out", f"folder {str(out.parent)!r} does not exist")
    return out


def build_port(chosen: BuildPlan, out: Path) -> BuiltPort:
    """Build through the build layer and copy the artifact to ``output_path(chosen, out)``
    (an existing file is replaced atomically); CannotBuild when the toolchain is missing or the
    compile fails."""
    out = output_path(chosen, out)
    if chosen.missing:
        raise CannotBuild(chosen.missing)
    try:
        artifact = build(chosen.spec)
    except ToolchainMissing as err:
        raise CannotBuild(str(err)) from None
    except BuildFailed as err:
        raise CannotBuild(f"compile failed: {err}") from None
    if chosen.kind == "wasm":
        from .wasm_runner import module_imports
        imports = module_imports(artifact.path)
        if imports:
            raise CannotBuild(f"the module must be freestanding but imports {', '.join(imports)}")
    _copy(artifact.path, out, 0o644 if chosen.kind == "wasm" else 0o755)
    described = artifact.describe()
    return BuiltPort(chosen, out, artifact, described["sha256"], described["size"])


def _copy(source: Path, target: Path, mode: int) -> None:
    """Copy to a temporary name beside the target, then rename: never a half-written port."""
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    try:
        shutil.copyfile(source, temporary)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
