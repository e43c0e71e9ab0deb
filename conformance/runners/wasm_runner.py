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
import struct
from pathlib import Path
from typing import Iterator

from .. import vectors
from ..build import (C_DIR, DETERMINISM_FLAGS, ROOT, Artifact, BuildFailed, BuildSpec, ToolchainMissing, build,
                     c_sources, zig_available, zig_cc)
from ..scenario import Scene
from ..state_hash import AGENT_BYTES
from .base import Runner, RunnerError, RunnerInfo, RunnerUnavailable, StateDump

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
NULL and the port reports "out of memory" (a 1000-agent scene needs about 2 MiB)."""

FUEL_CALL = 1_000_000
"""Fuel of any call, on top of its work (setup, allocation, the grid rebuild)."""
FUEL_PER_AGENT_STEP = 200_000
"""Fuel per agent per step; the suite's scenes take 1,000-12,000 (see docs/wasm.md)."""
FUEL_PER_PAIR = 400
"""Fuel per agent pair or agent-segment pair per step: the brute-force neighbour scan."""
FUEL_PER_VECTOR_ITEM = 100_000
"""Fuel of one vector case per list element (lines, segments, positions, waypoints)."""

BATCH_BYTES = 8 * 1024 * 1024
MAX_BATCH_STEPS = 256

OW_BAD_ARGUMENT = -2
OW_OUT_OF_MEMORY = -3


def wasm_spec(name: str = "wasm", flags: tuple[str, ...] = WASM_FLAGS) -> BuildSpec:
    """The module: the C port's library sources plus runners/wasm/*.c, single-threaded."""
    sources = c_sources(tuple(sorted(WASM_DIR.glob("*.c"))))
    return BuildSpec(name=name, toolchain=zig_cc(), sources=sources, flags=flags, output="wasm",
                     target=WASM_TARGET, include_dirs=(C_DIR, WASM_DIR / "include"), link_flags=WASM_LINK_FLAGS,
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
    import wasmtime
    module = wasmtime.Module.from_file(wasmtime.Engine(), str(path))
    return [f"{i.module}.{i.name}" for i in module.imports]


def module_exports(path: Path) -> list[str]:
    import wasmtime
    module = wasmtime.Module.from_file(wasmtime.Engine(), str(path))
    return [e.name for e in module.exports]


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


def make_engine():
    import wasmtime
    config = wasmtime.Config()
    for key, value in ENGINE_CONFIG.items():
        setattr(config, key, value)
    return wasmtime.Engine(config)


def _signed64(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


class _Instance:
    """One instance of the module in its own store: calls with fuel, memory helpers."""

    def __init__(self, engine, module, memory_limit: int, runner_id: str):
        import wasmtime
        self._wasmtime = wasmtime
        self.store = wasmtime.Store(engine)
        self.store.set_limits(memory_size=memory_limit)
        self.runner_id = runner_id
        self.store.set_fuel(FUEL_CALL)
        try:
            instance = wasmtime.Instance(self.store, module, [])
        except (wasmtime.Trap, wasmtime.WasmtimeError) as err:
            raise RunnerError(f"cannot instantiate the module: {_message(err)}") from None
        self.exports = instance.exports(self.store)
        self.memory = self.exports["memory"]
        self._funcs: dict = {}
        self.result = self.call("orca_result", FUEL_CALL)

    def call(self, name: str, fuel: int, *args):
        """Call an export with a fuel budget; a trap or exhausted fuel is a RunnerError."""
        wasmtime = self._wasmtime
        func = self._funcs.get(name)
        if func is None:
            func = self._funcs[name] = self.exports[name]
        self.store.set_fuel(fuel)
        try:
            return func(self.store, *args)
        except wasmtime.Trap as trap:
            if trap.trap_code == wasmtime.TrapCode.OUT_OF_FUEL:
                raise RunnerError(f"fuel exhausted in {name}: the call used up its budget of {fuel} units "
                                  f"(runaway module?)") from None
            raise RunnerError(f"wasm trap in {name}: {_message(trap)}") from None
        except wasmtime.WasmtimeError as err:
            raise RunnerError(f"wasmtime error in {name}: {_message(err)}") from None

    def alloc(self, size: int) -> int:
        pointer = self.call("orca_alloc", FUEL_CALL, max(1, size))
        if pointer == 0:
            raise RunnerError(f"out of memory: cannot allocate {size} bytes in the module "
                              f"(memory limit {self.memory_limit_text()})")
        return pointer

    def memory_limit_text(self) -> str:
        return f"{self.memory.data_len(self.store) // (1024 * 1024)} MiB in use"

    def write(self, pointer: int, data: bytes) -> None:
        self.memory.write(self.store, data, pointer)

    def read(self, pointer: int, size: int) -> bytes:
        return bytes(self.memory.read(self.store, pointer, pointer + size))

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

    def __init__(self, runner_id: str = "wasm", spec: BuildSpec | None = None, fuel_per_agent_step: int = FUEL_PER_AGENT_STEP,
                 fuel_call: int = FUEL_CALL, memory_limit: int = MEMORY_LIMIT):
        self.id = runner_id
        self.spec = spec
        self.fuel_per_agent_step = fuel_per_agent_step
        self.fuel_call = fuel_call
        self.memory_limit = memory_limit
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
        self._engine = make_engine()
        try:
            self._module = wasmtime.Module.from_file(self._engine, str(self.artifact.path))
        except wasmtime.WasmtimeError as err:
            raise RunnerError(f"wasmtime cannot compile the module: {_message(err)}") from None
        instance = self._instance()
        abi = instance.call("orca_abi_version", self.fuel_call)
        if abi != ABI_VERSION:
            raise RunnerError(f"module export layer version {abi}, this runner speaks {ABI_VERSION}")
        return self._engine, self._module

    def _instance(self) -> _Instance:
        engine, module = self._engine, self._module
        return _Instance(engine, module, self.memory_limit, self.id)

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
        config = ", ".join(f"{k}={v}" for k, v in ENGINE_CONFIG.items())
        versions = {
            "engine": f"wasmtime {wasmtime_version()} (wasmtime-py, Cranelift)",
            "toolchain": f"zig {_zig_version()} cc ({described['compiler']})",
            "target": WASM_TARGET,
            "module_sha256": described["sha256"],
            "module_size": described["size"],
            "module_build": self.build_info(),
            "engine_config": config,
            "memory_limit": self.memory_limit,
            "fuel": f"{self.fuel_call} per call + {self.fuel_per_agent_step} per agent-step "
                    f"+ {FUEL_PER_PAIR} per agent or segment pair and step",
        }
        return RunnerInfo(self.id, "orca-c (wasm32, wasmtime)", platform=f"wasm32 on {RunnerInfo('', '').platform}",
                          architecture="wasm32", compiler=f"zig cc {described['compiler']}",
                          flags=" ".join(self.artifact.spec.flags), versions=versions)

    # ------------------------------------------------------------------ scenes

    def step_fuel(self, scene: Scene, steps: int) -> int:
        """Budget of ``steps`` steps of a scene: linear in agents, plus the pair terms."""
        n = len(scene.agents)
        per_step = n * (self.fuel_per_agent_step + FUEL_PER_PAIR * (n + len(scene.segments))) + n * 64
        return self.fuel_call + steps * per_step

    def _start(self, scene: Scene) -> tuple[_Instance, int]:
        self._load()
        inst = self._instance()
        n = len(scene.agents)
        setup = self.fuel_call + 10_000 * (n + len(scene.segments)) + 1_000 * sum(len(a.waypoints) for a in scene.agents)
        handle = inst.call("orca_scene_create", setup, scene.dt, scene.steps, _signed64(scene.seed), scene.magnitude)
        if handle == 0:
            raise RunnerError("out of memory creating the scene")
        for ax, ay, bx, by in scene.segments:
            if inst.call("orca_scene_add_segment", setup, handle, ax, ay, bx, by) < 0:
                raise RunnerError("out of memory adding a segment")
        for agent in scene.agents:
            p = agent.params
            waypoints = inst.put_doubles(c for w in agent.waypoints for c in w)
            index = inst.call("orca_scene_add_agent", setup, handle, agent.position[0], agent.position[1],
                              agent.velocity[0], agent.velocity[1], p.radius, p.max_speed, p.neighbor_distance,
                              p.max_neighbors, p.time_horizon, p.time_horizon_obst, agent.goal_radius, waypoints,
                              len(agent.waypoints))
            inst.call("orca_free", self.fuel_call, waypoints)
            if index < 0:
                raise RunnerError("out of memory adding an agent")
        run = inst.call("orca_run_create", setup + 100 * n * n, handle)
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
            raise RunnerError("non-finite state at step 0")
        yield hashlib.sha256(first).hexdigest()
        batch = max(1, min(MAX_BATCH_STEPS, BATCH_BYTES // max(1, stride)))
        buffer = inst.alloc(max(1, batch * stride))
        done = 0
        while done < scene.steps:
            count = min(batch, scene.steps - done)
            bad = inst.call("orca_run_advance", self.step_fuel(scene, count), run, count, buffer)
            good = count if bad == 0 else bad - 1
            view = memoryview(inst.read(buffer, good * stride))
            for k in range(good):
                yield hashlib.sha256(view[k * stride:(k + 1) * stride]).hexdigest()
            if bad:
                raise RunnerError(f"non-finite state at step {done + bad}")
            done += count

    def dump(self, scene: Scene, step: int) -> StateDump:
        inst, run = self._start(scene)
        n = len(scene.agents)
        done = 0
        while done < step:
            count = min(MAX_BATCH_STEPS, step - done)
            bad = inst.call("orca_run_advance", self.step_fuel(scene, count), run, count, 0)
            if bad:
                raise RunnerError(f"non-finite state at step {done + bad}")
            done += count
        out = inst.alloc(max(1, 48 * n))
        inst.call("orca_run_dump", self.step_fuel(scene, 1), run, out)
        values = struct.unpack(f"<{6 * n}d", inst.read(out, 48 * n))
        return StateDump(step, tuple(tuple(values[6 * i:6 * i + 6]) for i in range(n)))  # type: ignore[arg-type]

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
                raise RunnerError(f"vectors {family}: case {index}: {err}") from None
            results.append([vectors.encode(c, v) for c, v in zip(fam.result, out)])
        return results


def _zig_version() -> str:
    try:
        from importlib.metadata import version
        return version("ziglang")
    except Exception:  # noqa: BLE001 - only for the report
        return "?"


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


def _rows(inst: _Instance, rows) -> int:
    return inst.put_doubles(v for row in rows for v in row)


def _support(inst, fuel, ax, ay, bx, by, r, tau, xx, xy, overlap):
    inst.call("orca_support_distance", fuel, ax, ay, bx, by, r, tau, xx, xy, int(overlap))
    return inst.results(3)


def _for_boundary(inst, fuel, ax, ay, bx, by, clearance, tau):
    found = inst.call("orca_for_boundary", fuel, ax, ay, bx, by, clearance, tau)
    return (list(inst.results(4)) if found else [],)


def _solve(name):
    def call(inst, fuel, lines, radius, x, y):
        planes = _rows(inst, lines)
        failed = inst.call(name, fuel, planes, len(lines), radius, x, y)
        inst.call("orca_free", FUEL_CALL, planes)
        return (*inst.results(2), failed)
    return call


def _relax(inst, fuel, lines, hard, radius, failed):
    planes = _rows(inst, lines)
    _check(inst.call("orca_relax", fuel, planes, len(lines), hard, radius, failed),
           "argument 1: hardCount must be in 0 .. len(lines)")
    inst.call("orca_free", FUEL_CALL, planes)
    return inst.results(2)


def _obstacle_neighbors(inst, fuel, x, y, reach, segments):
    segs = _rows(inst, segments)
    out = inst.alloc(4 * len(segments))
    n = _check(inst.call("orca_obstacle_neighbors", fuel, x, y, reach, segs, len(segments), out), "bad segments")
    found = inst.ints(out, n)
    inst.call("orca_free", FUEL_CALL, segs)
    inst.call("orca_free", FUEL_CALL, out)
    return (found,)


def _agent_neighbors(inst, fuel, i, xs, ys, nd, max_n):
    if len(xs) != len(ys):
        raise _BadCase("argument 2: xs and ys differ in length")
    pos = inst.put_doubles(c for xy in zip(xs, ys) for c in xy)
    out = inst.alloc(4 * len(xs))
    n = _check(inst.call("orca_agent_neighbors", fuel, i, pos, len(xs), nd, max_n, out),
               "argument 0: agent index out of range")
    found = inst.ints(out, n)
    inst.call("orca_free", FUEL_CALL, pos)
    inst.call("orca_free", FUEL_CALL, out)
    return (found,)


def _preferred(inst, fuel, px, py, waypoints, k, goal_radius, max_speed, dt, seed, magnitude, step, agent, count):
    wps = _rows(inst, waypoints)
    new_k = _check(inst.call("orca_preferred_velocity", fuel, px, py, wps, len(waypoints), k, goal_radius, max_speed,
                             dt, _signed64(seed), magnitude, step, agent, count),
                   "at least one waypoint is needed and k must index one")
    inst.call("orca_free", FUEL_CALL, wps)
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
}
