"""The ``wasm`` column: the C port compiled to a freestanding wasm32 module, run by wasmtime.

Contract: ``wasm_spec()`` is the BuildSpec of the module (runners/c/*.c unchanged plus the
export layer and runtime of runners/wasm, Zig's clang from the ``ziglang`` package, the
determinism flags, ``-target wasm32-freestanding``, link-time optimisation); ``build_module()``
builds it through the build layer and refuses a module with imports.  ``WasmRunner`` loads it
into wasmtime with a deterministic configuration (relaxed SIMD off and deterministic, plain
128-bit SIMD on, no threads or other non-deterministic proposals), a bounded memory and a
budget on every call in proportion to its work (``Metering``: wasmtime's fuel by default, or an
epoch deadline kept by watchdog.py's sleeping thread), so a runaway module becomes a
``BudgetExhausted`` ("fuel exhausted ..." or "time budget exhausted ...") and a trap a
``RunnerError`` with the trap message; either way the cell is ERROR and the suite goes on.  Every scene (and every vector family)
runs in a fresh instance, so a trap never leaves state behind.  Exports and memory layout:
docs/wasm.md.
"""

from __future__ import annotations

import platform
import time
from enum import Enum
from functools import lru_cache
from pathlib import Path

from .build.sources import C_DIR, include_dirs, library_sources
from .build.layer import DETERMINISM_FLAGS, ROOT, Artifact, BuildFailed, BuildSpec, ToolchainMissing, build, zig_available, zig_cc
from .base import (BudgetExhausted, CannotStart, OutOfMemory, RunnerError, RunnerInfo,
                   RunnerUnavailable)
from .export_layer import ABI_VERSION, FUEL_CALL, FUEL_PER_AGENT_STEP, FUEL_PER_PAIR, ExportLayerRunner
from .guest_memory import GuestMemory
from .watchdog import Watchdog

WASM_DIR = ROOT / "runners" / "wasm"
WASM_TARGET = "wasm32-freestanding"
WASM_CPU_FLAGS = ("-mcpu=mvp", "-mbulk-memory", "-msign-ext", "-mnontrapping-fptoint", "-mmutable-globals",
                  "-msimd128")
"""Pinned wasm features (not the toolchain's default CPU): MVP plus bulk memory, sign extension,
saturating float-to-int, mutable globals and 128-bit SIMD (lane-wise IEEE operations, each lane
rounded as the scalar instruction is; the compiler pairs only independent operations, never
reassociates without fast math); no relaxed SIMD, no threads."""
WASM_SPEED_FLAGS = ("-flto", "-mllvm", "-inline-threshold=1000")
"""Whole-module optimisation: link-time optimisation across the C files and a higher inlining
threshold.  Fewer wasm calls and loops mean fewer fuel checks; bits unchanged (docs/wasm.md)."""
WASM_FLAGS = DETERMINISM_FLAGS + ("-O2",) + WASM_CPU_FLAGS + WASM_SPEED_FLAGS + ("-g0",)
MODULE_MAX_MEMORY = 1 << 30
"""The module's declared maximum memory (1 GiB); every engine enforces it."""
STACK_BYTES = 1 << 20
WASM_LINK_FLAGS = ("-Wl,--no-entry", f"-Wl,-z,stack-size={STACK_BYTES}", f"-Wl,--max-memory={MODULE_MAX_MEMORY}")
MEMORY_LIMIT = 512 * 1024 * 1024
"""The wasmtime store's memory limit (Store.set_limits): growing past it fails, malloc returns
NULL and the port reports "out of memory".  A 1000-agent scene runs in about 11 MiB (1 MiB of
stack, 1.2 MB of heap, 8 MiB for a batch of states)."""



def wasm_spec(name: str = "wasm", flags: tuple[str, ...] = WASM_FLAGS, source_dir: Path = C_DIR) -> BuildSpec:
    """The module: the C port's library sources (runners/c/solver and harness, or a patched
    copy of that tree) plus runners/wasm/*.c, single-threaded, with the freestanding headers."""
    sources = library_sources(source_dir) + tuple(sorted(WASM_DIR.glob("*.c")))
    return BuildSpec(name=name, toolchain=zig_cc(), sources=sources, flags=flags, output="wasm",
                     target=WASM_TARGET, include_dirs=(*include_dirs(source_dir), WASM_DIR / "include"), link_flags=WASM_LINK_FLAGS,
                     defines=("OC_NO_THREADS", f"OC_FLAGS={' '.join(flags)}"))


def build_module(spec: BuildSpec | None = None) -> Artifact:
    """Build (or reuse) the module; RunnerUnavailable without zig, RunnerError when it fails or imports."""
    reason = zig_available()
    if reason:
        raise RunnerUnavailable(reason)
    try:
        artifact = build(spec or wasm_spec())
    except ToolchainMissing as err:
        raise RunnerUnavailable(f"no wasm toolchain: {err}") from None
    except BuildFailed as err:
        raise CannotStart(f"build failed: {err}") from None
    imports = module_imports(artifact.path)
    if imports:
        raise CannotStart(f"the module must be freestanding but imports {', '.join(imports)}")
    return artifact


def module_imports(path: Path) -> list[str]:
    """``module.name`` of every import of a .wasm file (empty for the freestanding build)."""
    return list(_module_types(str(path), path.stat().st_mtime_ns, path.stat().st_size)[0])


def module_exports(path: Path) -> list[str]:
    """Names of every export of a .wasm file."""
    return list(_module_types(str(path), path.stat().st_mtime_ns, path.stat().st_size)[1])


@lru_cache(maxsize=16)
def _module_types(path: str, mtime_ns: int, size: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    import wasmtime
    try:
        module = wasmtime.Module.from_file(wasmtime.Engine(), path)
    except wasmtime.WasmtimeError as err:
        raise CannotStart(f"not a valid module: {_message(err)}") from None
    return (tuple(f"{i.module}.{i.name}" for i in module.imports), tuple(e.name for e in module.exports))


def wasmtime_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("wasmtime")
    except PackageNotFoundError:
        return "unknown"


ENGINE_CONFIG = {
    # Off: it only fixes the bits of a NaN, and a NaN is a failure whatever its bits (a
    # non-finite state is an error in every port, and no golden vector result is a NaN: a test
    # checks both).  With it on, Cranelift adds a compare and a select after every
    # floating-point instruction: 0.44-0.48 of native instead of 0.83-0.88 (docs/wasm.md).
    "cranelift_nan_canonicalization": False,
    "wasm_relaxed_simd": False,
    "wasm_relaxed_simd_deterministic": True,
    # The module uses plain 128-bit SIMD (-msimd128): lane-wise IEEE operations, the same bits
    # as the scalar ones; relaxed SIMD (host-dependent results) stays off.
    "wasm_simd": True,
    "wasm_threads": False,
    "consume_fuel": True,
    "epoch_interruption": False,
    "cranelift_opt_level": "speed",
}
"""The wasmtime Config (the properties are write-only, so this dict is what the report shows);
the metering entries are Metering's."""


class Metering(Enum):
    """How a call into the module is bounded.

    FUEL (the column's): wasmtime counts instructions; a call gets its budget in units of about
    one instruction and traps when they run out, at the same instruction on every machine.
    EPOCH: the call gets ``seconds_call + units * seconds_per_unit`` of wall clock; the runner's
    watchdog thread (asleep until a call outlives its seconds) increments the engine's epoch and
    the module traps at its next check.  Not deterministic, and measured no faster than fuel in
    wasmtime 50 (docs/wasm.md, Speed).  NONE: no budget, a runaway hangs (benchmarks only)."""

    FUEL = "fuel"
    EPOCH = "epoch"
    NONE = "none"

    def engine_settings(self) -> dict:
        """The Config entries this metering needs."""
        return {"consume_fuel": self is Metering.FUEL, "epoch_interruption": self is Metering.EPOCH}


SECONDS_CALL = 2.0
"""Epoch metering: wall-clock seconds of any call, on top of its work."""
SECONDS_PER_UNIT = 1e-9
"""Epoch metering: seconds per unit of work (the fuel units of export_layer's budgets).  The
module runs about 4.5e9 fuel units a second here and the budgets hold 8 times the worst scene's
units, so a healthy call has over 30 times its time (and at least SECONDS_CALL) before it is
stopped; a runaway one is stopped within SECONDS_CALL + 20 s (MAX_CALL_FUEL)."""


def make_engine(settings: dict | None = None):
    """A wasmtime Engine with ENGINE_CONFIG (or the given settings)."""
    import wasmtime
    config = wasmtime.Config()
    for key, value in (settings or ENGINE_CONFIG).items():
        setattr(config, key, value)
    return wasmtime.Engine(config)


class _Meter:
    """One runner's metering: sets a call's budget before it, stops watching after it, and turns
    the trap of an exhausted budget into BudgetExhausted.  One call at a time (as a column runs)."""

    def __init__(self, metering: Metering, engine, seconds_call: float, seconds_per_unit: float):
        self.metering = metering
        self.engine = engine
        self.seconds_call = seconds_call
        self.seconds_per_unit = seconds_per_unit
        self.watchdog = Watchdog(self.interrupt, name="wasm-epoch") if metering is Metering.EPOCH else None

    def interrupt(self) -> None:
        """The watchdog's stop: the store's deadline is one epoch ahead, so the call traps."""
        self.engine.increment_epoch()

    def seconds(self, units: int) -> float:
        return self.seconds_call + units * self.seconds_per_unit

    def start(self, store, units: int) -> None:
        if self.metering is Metering.FUEL:
            store.set_fuel(units)
        elif self.watchdog is not None:
            store.set_epoch_deadline(1)
            self.watchdog.arm(self.seconds(units))

    def stop(self) -> None:
        if self.watchdog is not None:
            self.watchdog.disarm()

    def failure(self, trap, where: str, units: int, started: float) -> RunnerError:
        """BudgetExhausted for the trap of this metering's budget, else a RunnerError with the trap."""
        from wasmtime import TrapCode
        code = trap.trap_code
        if self.metering is Metering.FUEL and code == TrapCode.OUT_OF_FUEL:
            return BudgetExhausted(f"fuel exhausted: {where} used up its budget of {units:,} units "
                                   f"(a runaway module, or a budget too small for the work)")
        if self.metering is Metering.EPOCH and code == TrapCode.INTERRUPT:
            return BudgetExhausted(f"time budget exhausted: {where} ran {time.monotonic() - started:.1f} s, its "
                                   f"budget is {self.seconds(units):.1f} s (a runaway module, or a host far "
                                   f"slower than expected)")
        return RunnerError(f"wasm trap in {where}: {_message(trap)}")

    def describe(self, runner: "WasmRunner") -> str:
        """The budget, for the report."""
        units = (f"{runner.fuel_call} per call + {runner.fuel_per_agent_step} per agent-step + "
                 f"{runner.fuel_per_pair} per agent-agent or agent-segment pair and step")
        if self.metering is Metering.FUEL:
            return f"fuel: {units}"
        if self.metering is Metering.EPOCH:
            return f"epoch: {self.seconds_call} s per call + {self.seconds_per_unit:.0e} s per unit; units: {units}"
        return "none"


class _Instance(GuestMemory):
    """One instance of the module in its own store: metered calls, memory helpers."""

    def __init__(self, module, memory_limit: int, meter: _Meter):
        import wasmtime
        self._wasmtime = wasmtime
        self.store = wasmtime.Store(meter.engine)
        self.store.set_limits(memory_size=memory_limit)
        self.meter = meter
        if meter.metering is Metering.FUEL:
            self.store.set_fuel(FUEL_CALL)
        try:
            instance = wasmtime.Instance(self.store, module, [])
        except (wasmtime.Trap, wasmtime.WasmtimeError) as err:
            raise CannotStart(f"cannot instantiate the module: {_message(err)}") from None
        self.exports = instance.exports(self.store)
        self.memory = self.exports["memory"]
        self._funcs: dict = {}
        self._scratch = 0
        self._scratch_size = 0
        self.result = self.call("orca_result", FUEL_CALL)

    def call(self, name: str, fuel: int, *args, what: str = ""):
        """Call an export with a budget of ``fuel`` units; a trap or an exhausted budget is a RunnerError."""
        wasmtime = self._wasmtime
        func = self._funcs.get(name)
        if func is None:
            func = self._funcs[name] = self.exports[name]
        started = time.monotonic()
        self.meter.start(self.store, fuel)
        try:
            return func(self.store, *args)
        except wasmtime.Trap as trap:
            raise self.meter.failure(trap, f"{name}{f' ({what})' if what else ''}", fuel, started) from None
        except wasmtime.WasmtimeError as err:
            raise RunnerError(f"wasmtime error in {name}: {_message(err)}") from None
        finally:
            self.meter.stop()

    def alloc(self, size: int) -> int:
        pointer = self.call("orca_alloc", FUEL_CALL, max(1, size))
        if pointer == 0:
            raise OutOfMemory(f"out of memory: cannot allocate {size} bytes in the module "
                              f"({self.memory.data_len(self.store) // 1024} KiB of linear memory in use)")
        return pointer

    def write(self, pointer: int, data: bytes) -> None:
        self.memory.write(self.store, data, pointer)

    def read(self, pointer: int, size: int) -> bytes:
        return bytes(self.memory.read(self.store, pointer, pointer + size))

    def view(self, pointer: int, size: int) -> memoryview:
        """Zero-copy view of linear memory; valid until the next call into the module."""
        if size <= 0:
            return memoryview(b"")
        if pointer + size > self.memory.data_len(self.store):
            raise RunnerError(f"the module returned a buffer outside its memory ({pointer} + {size})")
        return memoryview(self.memory.get_buffer_ptr(self.store, size, pointer)).cast("B")


def _message(err: Exception) -> str:
    text = getattr(err, "message", None) or str(err)
    return " ".join(text.split())[:600]


class WasmRunner(ExportLayerRunner):
    """The module under wasmtime, in-process."""

    def __init__(self, runner_id: str = "wasm", spec: BuildSpec | None = None,
                 fuel_per_agent_step: int = FUEL_PER_AGENT_STEP, fuel_per_pair: int = FUEL_PER_PAIR,
                 memory_limit: int = MEMORY_LIMIT, engine_config: dict | None = None,
                 metering: Metering = Metering.FUEL, seconds_call: float = SECONDS_CALL,
                 seconds_per_unit: float = SECONDS_PER_UNIT):
        """``fuel_per_agent_step``/``fuel_per_pair`` set the step budgets in units (tests make
        them tiny), ``metering`` how they are kept (``seconds_call``/``seconds_per_unit``: the
        wall clock an EPOCH budget gives), ``engine_config`` overrides other entries of
        ENGINE_CONFIG (benchmarks only)."""
        self.id = runner_id
        self.spec = spec
        self.fuel_per_agent_step = fuel_per_agent_step
        self.fuel_per_pair = fuel_per_pair
        self.fuel_call = FUEL_CALL
        self.memory_limit = memory_limit
        self.metering = metering
        self.seconds_call = seconds_call
        self.seconds_per_unit = seconds_per_unit
        self.engine_config = {**ENGINE_CONFIG, **(engine_config or {}), **metering.engine_settings()}
        self.artifact: Artifact | None = None
        self._engine = None
        self._module = None
        self._meter: _Meter | None = None

    def _load(self):
        if self._module is not None:
            return self._engine, self._module
        try:
            import wasmtime
        except ImportError:
            raise RunnerUnavailable("the wasmtime package is not installed (pip install wasmtime)") from None
        self.artifact = build_module(self.spec)
        self._engine = make_engine(self.engine_config)
        self._meter = _Meter(self.metering, self._engine, self.seconds_call, self.seconds_per_unit)
        try:
            self._module = wasmtime.Module.from_file(self._engine, str(self.artifact.path))
        except wasmtime.WasmtimeError as err:
            raise CannotStart(f"wasmtime cannot compile the module: {_message(err)}") from None
        try:
            abi = self._instance().call("orca_abi_version", self.fuel_call)
            if abi != ABI_VERSION:
                raise CannotStart(f"module export layer version {abi}, this runner speaks {ABI_VERSION}")
        except RunnerError:
            self._module = None
            raise
        return self._engine, self._module

    def _instance(self) -> _Instance:
        return _Instance(self._module, self.memory_limit, self._meter)

    def _guest(self) -> _Instance:
        """A fresh instance: every scene and vector family starts from a pristine module."""
        self._load()
        return self._instance()

    def build_info(self) -> str:
        """The module's own build description (compiler and flags), read from its memory."""
        self._load()
        instance = self._instance()
        pointer = instance.call("orca_build_info", self.fuel_call)
        raw = instance.read(pointer, 512)
        return raw.split(b"\0", 1)[0].decode("utf-8", "replace")

    def info(self) -> RunnerInfo:
        self._load()
        described = self.artifact.describe()
        config = ", ".join(f"{k}={v}" for k, v in self.engine_config.items())
        versions = {
            "engine": f"wasmtime {wasmtime_version()} (wasmtime-py, Cranelift)",
            "toolchain": toolchain_text(described["compiler"]),
            "target": WASM_TARGET,
            "module_sha256": described["sha256"],
            "module_size": str(described["size"]),
            "module_build": self.build_info(),
            "engine_config": config,
            "memory_limit": str(self.memory_limit),
            "budget": self._meter.describe(self),
        }
        host = f"{platform.system().lower()}-{platform.machine().lower()}"
        return RunnerInfo(self.id, "orca-c (wasm32, wasmtime)", platform=f"wasm32 (wasmtime on {host})",
                          architecture="wasm32", compiler=toolchain_text(described["compiler"]),
                          flags=" ".join(self.artifact.spec.flags), versions=versions)

def _zig_version() -> str:
    try:
        from importlib.metadata import version
        return version("ziglang")
    except Exception:  # noqa: BLE001 - only for the report
        return "?"


def toolchain_text(compiler: str) -> str:
    """The toolchain for reports: zig's package version and its clang's version line."""
    return f"zig {_zig_version()} cc ({compiler})"


