"""The ``wasm`` column: the C port compiled to a freestanding wasm32 module, run by wasmtime.

Contract: ``wasm_spec()`` is the BuildSpec of the module (runners/c/*.c unchanged plus the
export layer and runtime of runners/wasm, Zig's clang from the ``ziglang`` package, the
determinism flags, ``-target wasm32-freestanding``); ``build_module()`` builds it through the
build layer and refuses a module with imports.  ``WasmRunner`` loads it into wasmtime with a
deterministic configuration (NaN canonicalisation on, relaxed SIMD off and deterministic, no
SIMD, threads or other non-deterministic proposals), a bounded memory and fuel: every call
into the module gets a fuel budget proportional to its work, so a runaway module becomes a
``RunnerError`` ("fuel exhausted ...") and a trap a ``RunnerError`` with the trap message;
either way the cell is ERROR and the suite goes on.  Every scene (and every vector family)
runs in a fresh instance, so a trap never leaves state behind.  Exports and memory layout:
docs/wasm.md.
"""

from __future__ import annotations

import hashlib
import platform
import struct
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from .. import vectors
from ..build import (C_DIR, DETERMINISM_FLAGS, ROOT, Artifact, BuildFailed, BuildSpec, ToolchainMissing, build,
                     zig_available, zig_cc)
from ..scenario import Scene
from ..state_hash import AGENT_BYTES
from .base import Runner, RunnerError, RunnerInfo, RunnerUnavailable, StateDump
from .cffi_runner import non_finite_reason

WASM_DIR = ROOT / "runners" / "wasm"
WASM_TARGET = "wasm32-freestanding"
WASM_CPU_FLAGS = ("-mcpu=mvp", "-mbulk-memory", "-msign-ext", "-mnontrapping-fptoint", "-mmutable-globals")
"""Pinned wasm features (not the toolchain's default CPU): MVP plus bulk memory, sign extension,
saturating float-to-int and mutable globals; no SIMD, no relaxed SIMD, no threads."""
WASM_FLAGS = DETERMINISM_FLAGS + ("-O2",) + WASM_CPU_FLAGS + ("-g0",)
MODULE_MAX_MEMORY = 1 << 30
"""The module's declared maximum memory (1 GiB); every engine enforces it."""
STACK_BYTES = 1 << 20
WASM_LINK_FLAGS = ("-Wl,--no-entry", f"-Wl,-z,stack-size={STACK_BYTES}", f"-Wl,--max-memory={MODULE_MAX_MEMORY}")
ABI_VERSION = 1

MEMORY_LIMIT = 512 * 1024 * 1024
"""The wasmtime store's memory limit (Store.set_limits): growing past it fails, malloc returns
NULL and the port reports "out of memory".  A 1000-agent scene runs in about 11 MiB (1 MiB of
stack, 1.2 MB of heap, 8 MiB for a batch of states)."""

FUEL_CALL = 1_000_000
"""Fuel of any call, on top of its work (setup, allocation, a grid rebuild)."""
FUEL_PER_AGENT_STEP = 100_000
"""Fuel per agent and step; the suite's scenes use 2,600-13,000 (docs/wasm.md)."""
FUEL_PER_PAIR = 100
"""Fuel per agent-agent and agent-segment pair and step: room for the brute-force scans."""
FUEL_PER_VECTOR_ITEM = 100_000
"""Fuel of one vector case: FUEL_CALL + this * (1 + list elements)^2."""
MAX_CALL_FUEL = 20_000_000_000
"""Batches of steps are cut so that no call gets more than this (a few seconds of work), so a
runaway module is stopped within seconds."""

BATCH_BYTES = 8 * 1024 * 1024
MAX_BATCH_STEPS = 256

OW_BAD_ARGUMENT = -2
OW_OUT_OF_MEMORY = -3


def wasm_spec(name: str = "wasm", flags: tuple[str, ...] = WASM_FLAGS, source_dir: Path = C_DIR) -> BuildSpec:
    """The module: the C port's library sources (runners/c/*.c, or a patched copy of that
    folder) plus runners/wasm/*.c, single-threaded, with the freestanding headers."""
    sources = tuple(sorted(source_dir.glob("*.c"))) + tuple(sorted(WASM_DIR.glob("*.c")))
    return BuildSpec(name=name, toolchain=zig_cc(), sources=sources, flags=flags, output="wasm",
                     target=WASM_TARGET, include_dirs=(source_dir, WASM_DIR / "include"), link_flags=WASM_LINK_FLAGS,
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
        raise RunnerError(f"build failed: {err}") from None
    imports = module_imports(artifact.path)
    if imports:
        raise RunnerError(f"the module must be freestanding but imports {', '.join(imports)}")
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
        raise RunnerError(f"not a valid module: {_message(err)}") from None
    return (tuple(f"{i.module}.{i.name}" for i in module.imports), tuple(e.name for e in module.exports))


def wasmtime_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("wasmtime")
    except PackageNotFoundError:
        return "unknown"


ENGINE_CONFIG = {
    "cranelift_nan_canonicalization": True,
    "wasm_relaxed_simd": False,
    "wasm_relaxed_simd_deterministic": True,
    "wasm_simd": False,
    "wasm_threads": False,
    "consume_fuel": True,
    "cranelift_opt_level": "speed",
}
"""The wasmtime Config (the properties are write-only, so this dict is what the report shows)."""


def make_engine(settings: dict | None = None):
    """A wasmtime Engine with ENGINE_CONFIG (or the given settings)."""
    import wasmtime
    config = wasmtime.Config()
    for key, value in (settings or ENGINE_CONFIG).items():
        setattr(config, key, value)
    return wasmtime.Engine(config)


def _signed64(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


class _Instance:
    """One instance of the module in its own store: calls with fuel, memory helpers."""

    def __init__(self, engine, module, memory_limit: int, fuel: bool = True):
        import wasmtime
        self._wasmtime = wasmtime
        self.store = wasmtime.Store(engine)
        self.store.set_limits(memory_size=memory_limit)
        self.fuel = fuel
        if fuel:
            self.store.set_fuel(FUEL_CALL)
        try:
            instance = wasmtime.Instance(self.store, module, [])
        except (wasmtime.Trap, wasmtime.WasmtimeError) as err:
            raise RunnerError(f"cannot instantiate the module: {_message(err)}") from None
        self.exports = instance.exports(self.store)
        self.memory = self.exports["memory"]
        self._funcs: dict = {}
        self._scratch = 0
        self._scratch_size = 0
        self.result = self.call("orca_result", FUEL_CALL)

    def call(self, name: str, fuel: int, *args, what: str = ""):
        """Call an export with a fuel budget; a trap or exhausted fuel is a RunnerError."""
        wasmtime = self._wasmtime
        func = self._funcs.get(name)
        if func is None:
            func = self._funcs[name] = self.exports[name]
        if self.fuel:
            self.store.set_fuel(fuel)
        try:
            return func(self.store, *args)
        except wasmtime.Trap as trap:
            where = f"{name}{f' ({what})' if what else ''}"
            if trap.trap_code == wasmtime.TrapCode.OUT_OF_FUEL:
                raise RunnerError(f"fuel exhausted: {where} used up its budget of {fuel:,} units "
                                  f"(a runaway module, or a budget too small for the work)") from None
            raise RunnerError(f"wasm trap in {where}: {_message(trap)}") from None
        except wasmtime.WasmtimeError as err:
            raise RunnerError(f"wasmtime error in {name}: {_message(err)}") from None

    def alloc(self, size: int) -> int:
        pointer = self.call("orca_alloc", FUEL_CALL, max(1, size))
        if pointer == 0:
            raise RunnerError(f"out of memory: cannot allocate {size} bytes in the module "
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

    def scratch(self, values, extra: int = 0) -> int:
        """The doubles written into the instance's reusable scratch buffer (grown as needed),
        with ``extra`` bytes free after them; returns the buffer's address."""
        values = list(values)
        size = 8 * len(values) + extra
        if size > self._scratch_size:
            if self._scratch:
                self.call("orca_free", FUEL_CALL, self._scratch)
                self._scratch = 0
            self._scratch_size = max(size, 2 * self._scratch_size, 4096)
            self._scratch = self.alloc(self._scratch_size)
        if values:
            self.write(self._scratch, struct.pack(f"<{len(values)}d", *values))
        return self._scratch

    def put_doubles(self, values) -> int:
        """Allocate and fill an array of doubles; returns its address."""
        values = list(values)
        pointer = self.alloc(8 * len(values))
        if values:
            self.write(pointer, struct.pack(f"<{len(values)}d", *values))
        return pointer

    def results(self, count: int) -> tuple[float, ...]:
        return struct.unpack(f"<{count}d", self.read(self.result, 8 * count))

    def ints(self, pointer: int, count: int) -> list[int]:
        return list(struct.unpack(f"<{count}i", self.read(pointer, 4 * count))) if count > 0 else []


def _message(err: Exception) -> str:
    text = getattr(err, "message", None) or str(err)
    return " ".join(text.split())[:600]


class WasmRunner(Runner):
    """The module under wasmtime, in-process."""

    def __init__(self, runner_id: str = "wasm", spec: BuildSpec | None = None,
                 fuel_per_agent_step: int = FUEL_PER_AGENT_STEP, fuel_per_pair: int = FUEL_PER_PAIR,
                 memory_limit: int = MEMORY_LIMIT, engine_config: dict | None = None):
        """``fuel_per_agent_step``/``fuel_per_pair`` set the step budgets (tests make them tiny),
        ``engine_config`` overrides entries of ENGINE_CONFIG (benchmarks only)."""
        self.id = runner_id
        self.spec = spec
        self.fuel_per_agent_step = fuel_per_agent_step
        self.fuel_per_pair = fuel_per_pair
        self.fuel_call = FUEL_CALL
        self.memory_limit = memory_limit
        self.engine_config = {**ENGINE_CONFIG, **(engine_config or {})}
        self.artifact: Artifact | None = None
        self._engine = None
        self._module = None

    def _load(self):
        if self._module is not None:
            return self._engine, self._module
        try:
            import wasmtime
        except ImportError:
            raise RunnerUnavailable("the wasmtime package is not installed (pip install wasmtime)") from None
        self.artifact = build_module(self.spec)
        self._engine = make_engine(self.engine_config)
        try:
            self._module = wasmtime.Module.from_file(self._engine, str(self.artifact.path))
        except wasmtime.WasmtimeError as err:
            raise RunnerError(f"wasmtime cannot compile the module: {_message(err)}") from None
        try:
            abi = self._instance().call("orca_abi_version", self.fuel_call)
            if abi != ABI_VERSION:
                raise RunnerError(f"module export layer version {abi}, this runner speaks {ABI_VERSION}")
        except RunnerError:
            self._module = None
            raise
        return self._engine, self._module

    def _instance(self) -> _Instance:
        return _Instance(self._engine, self._module, self.memory_limit, self.engine_config["consume_fuel"])

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
            "fuel": f"{self.fuel_call} per call + {self.fuel_per_agent_step} per agent-step "
                    f"+ {self.fuel_per_pair} per agent-agent or agent-segment pair and step",
        }
        host = f"{platform.system().lower()}-{platform.machine().lower()}"
        return RunnerInfo(self.id, "orca-c (wasm32, wasmtime)", platform=f"wasm32 (wasmtime on {host})",
                          architecture="wasm32", compiler=toolchain_text(described["compiler"]),
                          flags=" ".join(self.artifact.spec.flags), versions=versions)

    # ------------------------------------------------------------------ scenes

    def step_fuel(self, scene: Scene) -> int:
        """Fuel of one step: linear in agents, plus the pair term for the brute-force scans."""
        n = len(scene.agents)
        return n * (self.fuel_per_agent_step + self.fuel_per_pair * (n + len(scene.segments)) + 64)

    def batch_steps(self, scene: Scene, stride: int) -> int:
        """Steps per call: at most 256, 8 MiB of states and MAX_CALL_FUEL."""
        by_fuel = MAX_CALL_FUEL // max(1, self.step_fuel(scene))
        return max(1, min(MAX_BATCH_STEPS, BATCH_BYTES // max(1, stride), by_fuel))

    def _advance(self, inst: _Instance, scene: Scene, run: int, done: int, count: int, out: int) -> int:
        what = f"steps {done + 1}..{done + count} of {len(scene.agents)} agents"
        return inst.call("orca_run_advance", self.fuel_call + count * self.step_fuel(scene), run, count, out,
                         what=what)

    def _start(self, scene: Scene) -> tuple[_Instance, int]:
        self._load()
        inst = self._instance()
        n = len(scene.agents)
        setup = self.fuel_call + 10_000 * (n + len(scene.segments))
        handle = inst.call("orca_scene_create", setup, scene.dt, scene.steps, _signed64(scene.seed), scene.magnitude)
        if handle == 0:
            raise RunnerError("out of memory creating the scene")
        for ax, ay, bx, by in scene.segments:
            if inst.call("orca_scene_add_segment", setup, handle, ax, ay, bx, by) < 0:
                raise RunnerError("out of memory adding a segment")
        if n:
            # one call for every agent (calls from Python into wasmtime cost ~0.1 ms each)
            records = [v for a in scene.agents for v in (
                a.position[0], a.position[1], a.velocity[0], a.velocity[1], a.params.radius, a.params.max_speed,
                a.params.neighbor_distance, a.params.time_horizon, a.params.time_horizon_obst, a.goal_radius)]
            counts = [v for a in scene.agents for v in (a.params.max_neighbors, len(a.waypoints))]
            flat = [c for a in scene.agents for w in a.waypoints for c in w]
            records_at = inst.put_doubles(records)
            waypoints_at = inst.put_doubles(flat)
            counts_at = inst.alloc(4 * len(counts))
            inst.write(counts_at, struct.pack(f"<{len(counts)}i", *counts))
            added = inst.call("orca_scene_add_agents", setup + 1_000 * len(flat), handle, records_at, counts_at, n,
                              waypoints_at)
            if added != n:
                raise RunnerError(f"out of memory adding agent {-1 - added}")
            for pointer in (records_at, waypoints_at, counts_at):
                inst.call("orca_free", self.fuel_call, pointer)
        run = inst.call("orca_run_create", setup, handle)
        if run == 0:
            raise RunnerError("out of memory creating the run")
        return inst, run

    def hashes(self, scene: Scene) -> Iterator[str]:
        inst, run = self._start(scene)
        stride = len(scene.agents) * AGENT_BYTES
        state = inst.alloc(max(1, stride))
        inst.call("orca_run_canonical_state", self.fuel_call + 64 * stride, run, state)
        first = inst.read(state, stride)
        if not _finite(first):
            raise RunnerError(non_finite_reason(0, self._rows(inst, scene, run)))
        yield hashlib.sha256(first).hexdigest()
        batch = self.batch_steps(scene, stride)
        buffer = inst.alloc(max(1, batch * stride))
        done = 0
        while done < scene.steps:
            count = min(batch, scene.steps - done)
            bad = self._advance(inst, scene, run, done, count, buffer)
            good = count if bad == 0 else bad - 1
            view = inst.view(buffer, good * stride)  # hashed before the next call into the module
            for k in range(good):
                yield hashlib.sha256(view[k * stride:(k + 1) * stride]).hexdigest()
            if bad:
                # the states before it stand, as in the protocol
                raise RunnerError(non_finite_reason(done + bad, self._rows(inst, scene, run)))
            done += count

    def _rows(self, inst: _Instance, scene: Scene, run: int) -> tuple[tuple[float, ...], ...]:
        """orca_run_dump of the run's current state: 6 values per agent."""
        n = len(scene.agents)
        out = inst.alloc(max(1, 48 * n))
        inst.call("orca_run_dump", self.fuel_call + self.step_fuel(scene), run, out)
        values = struct.unpack(f"<{6 * n}d", inst.read(out, 48 * n))
        return tuple(tuple(values[6 * i:6 * i + 6]) for i in range(n))

    def dump(self, scene: Scene, step: int) -> StateDump:
        """The state after ``step`` steps; the first non-finite state itself can be dumped (its
        NaNs are data for the diagnosis), a step beyond it is a RunnerError."""
        inst, run = self._start(scene)
        batch = self.batch_steps(scene, 0)
        done = 0
        while done < step:
            count = min(batch, step - done)
            bad = self._advance(inst, scene, run, done, count, 0)
            if bad and done + bad < step:
                raise RunnerError(non_finite_reason(done + bad, self._rows(inst, scene, run)))
            done += bad or count
        return StateDump(step, self._rows(inst, scene, run))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ vectors

    def vectors(self, family: str, args: list[list]) -> list[list]:
        self._load()
        fam = vectors.FAMILY_BY_NAME[family]
        call = _PRIMITIVES[family]
        inst = self._instance()
        results = []
        for index, encoded in enumerate(args):
            values = [vectors.decode(c, v) for c, v in zip(fam.args, encoded)]
            items = sum(len(v) for v in values if isinstance(v, list))
            fuel = self.fuel_call + FUEL_PER_VECTOR_ITEM * (1 + items) * (1 + items)
            try:
                out = call(inst, fuel, *values)
            except _BadCase as err:
                raise RunnerError(f"vectors {family}: case {index}, {err}") from None
            results.append([vectors.encode(c, v) for c, v in zip(fam.result, out)])
        return results


def _zig_version() -> str:
    try:
        from importlib.metadata import version
        return version("ziglang")
    except Exception:  # noqa: BLE001 - only for the report
        return "?"


def toolchain_text(compiler: str) -> str:
    """The toolchain for reports: zig's package version and its clang's version line."""
    return f"zig {_zig_version()} cc ({compiler})"


def _finite(state: bytes) -> bool:
    """Every double of canonical bytes finite (exponent bits not all ones)."""
    for k in range(0, len(state), 8):
        if (state[k + 7] & 0x7F) == 0x7F and (state[k + 6] & 0xF0) == 0xF0:
            return False
    return True


class _BadCase(Exception):
    """A vector case whose arguments the export layer refused."""


def _check(code: int, what: str) -> int:
    if code == OW_BAD_ARGUMENT:
        raise _BadCase(what)
    if code == OW_OUT_OF_MEMORY:
        raise RunnerError("out of memory in the module")
    return code


def _rows(inst: _Instance, rows, extra: int = 0) -> int:
    return inst.scratch((v for row in rows for v in row), extra)


def _support(inst, fuel, ax, ay, bx, by, r, tau, xx, xy, overlap):
    inst.call("orca_support_distance", fuel, ax, ay, bx, by, r, tau, xx, xy, int(overlap))
    return inst.results(3)


def _for_boundary(inst, fuel, ax, ay, bx, by, clearance, tau):
    found = inst.call("orca_for_boundary", fuel, ax, ay, bx, by, clearance, tau)
    return (list(inst.results(4)) if found else [],)


def _solve(name):
    def call(inst, fuel, lines, radius, x, y):
        failed = inst.call(name, fuel, _rows(inst, lines), len(lines), radius, x, y)
        return (*inst.results(2), failed)
    return call


def _relax(inst, fuel, lines, hard, radius, failed):
    if not 0 <= hard <= len(lines):
        raise _BadCase("argument 1: hardCount must be in 0 .. len(lines)")
    _check(inst.call("orca_relax", fuel, _rows(inst, lines), len(lines), hard, radius, failed),
           "argument 1: hardCount must be in 0 .. len(lines)")
    return inst.results(2)


def _obstacle_neighbors(inst, fuel, x, y, reach, segments):
    segs = _rows(inst, segments, 4 * len(segments))
    out = segs + 32 * len(segments)
    n = _check(inst.call("orca_obstacle_neighbors", fuel, x, y, reach, segs, len(segments), out), "bad segments")
    return (inst.ints(out, n),)


def _agent_neighbors(inst, fuel, i, xs, ys, nd, max_n):
    if len(xs) != len(ys):
        raise _BadCase("argument 2: xs and ys differ in length")
    if not 0 <= i < len(xs):
        raise _BadCase("argument 0: agent index out of range")
    pos = inst.scratch((c for xy in zip(xs, ys) for c in xy), 4 * len(xs))
    out = pos + 16 * len(xs)
    n = _check(inst.call("orca_agent_neighbors", fuel, i, pos, len(xs), nd, max_n, out),
               "argument 0: agent index out of range")
    return (inst.ints(out, n),)


def _preferred(inst, fuel, px, py, waypoints, k, goal_radius, max_speed, dt, seed, magnitude, step, agent, count):
    if not waypoints:
        raise _BadCase("argument 2: at least one waypoint is needed")
    if not 0 <= k < len(waypoints):
        raise _BadCase("argument 3: waypoint index out of range")
    new_k = _check(inst.call("orca_preferred_velocity", fuel, px, py, _rows(inst, waypoints), len(waypoints), k,
                             goal_radius, max_speed, dt, _signed64(seed), magnitude, step, agent, count),
                   "argument 3: waypoint index out of range")
    return (*inst.results(2), new_k)


def _scalar(name, results):
    def call(inst, fuel, *args):
        inst.call(name, fuel, *args)
        return inst.results(results)
    return call


def _splitmix(inst, fuel, seed, n):
    z = inst.call("orca_splitmix64", fuel, _signed64(seed), _signed64(n))
    return (f"{z & ((1 << 64) - 1):016x}",)


def _uniform(inst, fuel, seed, n):
    inst.call("orca_uniform", fuel, _signed64(seed), _signed64(n))
    return inst.results(1)


def _agent_step(inst, fuel, i, xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, max_ns, taus, tau_obsts,
                segments, dt):
    """One agent's constraint list, hard count and new velocity through orca_agent_step."""
    n = len(xs)
    per_agent = (xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, nds, taus, tau_obsts)
    if len(max_ns) != n or any(len(v) != n for v in per_agent):
        raise _BadCase("the per-agent lists (arguments 1-12) differ in length")
    if not 0 <= i < n:
        raise _BadCase("argument 0: agent index out of range")
    records = [v for k in range(n) for v in (xs[k], ys[k], vxs[k], vys[k], prefxs[k], prefys[k], radii[k],
                                             max_speeds[k], nds[k], taus[k], tau_obsts[k])]
    records_at = inst.scratch(records + [c for s in segments for c in s], 32 * (n + len(segments)) + 4 * n + 4)
    segments_at = records_at + 88 * n
    lines_at = segments_at + 32 * len(segments)
    ints_at = lines_at + 32 * (n + len(segments))
    inst.write(ints_at, struct.pack(f"<{n}i", *max_ns))
    hard_at = ints_at + 4 * n
    count = _check(inst.call("orca_agent_step", fuel, i, records_at, ints_at, n, segments_at, len(segments), dt,
                             lines_at, hard_at), "argument 0: agent index out of range")
    flat = struct.unpack(f"<{4 * count}d", inst.read(lines_at, 32 * count)) if count > 0 else ()
    lines = [tuple(flat[4 * k:4 * k + 4]) for k in range(count)]
    return (lines, inst.ints(hard_at, 1)[0], *inst.results(2))


_PRIMITIVES = {
    "segment_distance_squared": _scalar("orca_segment_distance_squared", 1),
    "support_distance": _support,
    "agent_case_form": _scalar("orca_agent_case_form", 4),
    "agent_constraint": _scalar("orca_agent_constraint", 4),
    "segment_constraint": _scalar("orca_segment_constraint", 4),
    "for_boundary": _for_boundary,
    "solve_closest": _solve("orca_solve_closest"),
    "solve_direction": _solve("orca_solve_direction"),
    "relax": _relax,
    "obstacle_neighbors": _obstacle_neighbors,
    "agent_neighbors": _agent_neighbors,
    "splitmix64": _splitmix,
    "uniform": _uniform,
    "preferred_velocity": _preferred,
    "agent_step": _agent_step,
}
