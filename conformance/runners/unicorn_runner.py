"""The ``arm64``, ``s390x``, ``i386`` and ``riscv64`` columns: one freestanding ELF build of the C
port per architecture, run in-process under Unicorn on any host.

Contract: ``elf_spec(arch)`` is the BuildSpec of a static, libc-free ELF executable of the C
port for one architecture: runners/c/*.c unchanged, the wasm build's export layer
(runners/wasm/exports.c) and allocator (runners/wasm/alloc.c through runners/freestanding/
alloc.c, which puts its heap in a region the host maps), the freestanding headers of
runners/wasm/include, Zig's clang, the determinism flags (``-ffp-contract=off``, no fast math)
and ``-O2``.  ``UnicornRunner`` loads its PT_LOAD segments into a Unicorn CPU (conformance/
runners/elf.py reads them), calls the exported functions by the architecture's calling
convention (``Abi``), moves scenes, states and vector data through emulated memory in the
target's byte order, and exposes the same hashes/dump/vectors as the ``wasm`` column (the
vector primitives go through the same exports).  Every call has a wall-clock budget in
proportion to its work (kept by watchdog.py's sleeping thread: counting instructions would
instrument every one of them, and Unicorn's own timeout polls the clock on a thread per
call); running out of it, a fault or a trap is a ``RunnerError`` naming the function, the
address, the faulting instruction's bytes and, for memory faults, the address accessed: the
cell is ERROR and the suite goes on.  Every scene and vector family starts from the image's
pristine .data/.bss, so nothing carries over.  The TLB is filled by the runner (identity, pages
executable only where the code is) and the fault hook covers only the unmapped gaps, so the
guest's stores take QEMU's fast path (2 to 3 times faster than Unicorn's default, where every
page is executable and every store goes through the self-modifying-code check).  docs/unicorn.md.
"""

from __future__ import annotations

import hashlib
import importlib
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .build.sources import C_DIR, include_dirs, library_sources
from .build.layer import DETERMINISM_FLAGS, ROOT, Artifact, BuildFailed, BuildSpec, ToolchainMissing, build, zig_available, zig_cc
from .base import BudgetExhausted, CannotStart, OutOfMemory, RunnerError, RunnerInfo, RunnerUnavailable
from .calling_conventions import ABIS, STACK_BYTES, STACK_TOP, STOP_ADDRESS
from .elf import ElfError, ElfImage, read_elf
from .guest_memory import GuestMemory
from .watchdog import Watchdog
from .export_layer import ABI_VERSION, FUEL_CALL, ExportLayerRunner
from .wasm_runner import WASM_DIR, toolchain_text

FREESTANDING_DIR = ROOT / "runners" / "freestanding"

HEAP_BASE = 0x1000_0000
HEAP_END = 0x3000_0000
"""The heap region (512 MiB, the wasm column's memory limit), mapped by the host up front."""
PAGE = 0x1000

SECONDS_CALL = 2.0
"""Wall-clock budget of any call, on top of its work."""
SECONDS_PER_FUEL = 1.0 / 20_000_000
"""Budget per unit of the wasm column's fuel (about one instruction): room for an emulator 20
times slower than the ~4e8 instructions/s measured here, so a loaded host never cuts a healthy
call; a runaway one is stopped within seconds to minutes."""
MAX_CALL_FUEL = 2_000_000_000
"""Batches of steps are cut so that no call gets more budget than this (100 s + SECONDS_CALL)."""

ELF_FREESTANDING = ("-g0", "-ffreestanding", "-Wno-unknown-attributes")
"""No debug info, freestanding (no libc is assumed); exports.c's wasm-only export_name
attribute is ignored without a warning."""
ELF_FLAGS = DETERMINISM_FLAGS + ("-O2",) + ELF_FREESTANDING
"""The C flags of the columns: the suite's determinism flags, -O2 and the above."""


@dataclass(frozen=True)
class Arch:
    """One emulated architecture: the Zig target, its CPU flags, Unicorn's mode and its ABI."""

    column: str
    target: str
    flags: tuple[str, ...]
    uc_arch: str
    uc_mode: tuple[str, ...]
    abi: str
    cost: float
    """The column's time over the native ``c`` column's (Runner.cost; since the runner fills the
    TLB, issue 44: the 2026-12-02 figures divided by each column's speed-up in the matrix)."""


ARCHES: dict[str, Arch] = {
    "arm64": Arch("arm64", "aarch64-freestanding", ("-mcpu=generic",), "UC_ARCH_ARM64", ("UC_MODE_ARM",),
                  "aapcs64", 16.0),
    "s390x": Arch("s390x", "s390x-freestanding", ("-mcpu=z10",), "UC_ARCH_S390X", ("UC_MODE_BIG_ENDIAN",),
                  "s390x", 24.0),
    "riscv64": Arch("riscv64", "riscv64-freestanding", ("-mcpu=baseline_rv64",), "UC_ARCH_RISCV", ("UC_MODE_RISCV64",),
                    "lp64d", 12.0),
    "i386": Arch("i386", "x86-freestanding", ("-mcpu=pentium4", "-msse2", "-mfpmath=sse"), "UC_ARCH_X86",
                 ("UC_MODE_32",), "cdecl32", 14.0),
}
"""The columns, by id.  ppc64le is missing: Unicorn 2.1's PPC64 is unfinished (its PPC64 mode is
documented as unsupported; the POWER7-10 models either keep MSR.LE or MSR.FP but not both, so
little-endian floating-point code cannot run); ``ppc64le:qemu`` (cross.py) covers it."""


def elf_spec(arch: Arch, name: str | None = None, flags: tuple[str, ...] = ELF_FLAGS,
             source_dir: Path = C_DIR) -> BuildSpec:
    """The freestanding ELF of one architecture (cached by the build layer as ``orca-port``)."""
    chosen = flags + arch.flags
    sources = library_sources(source_dir) + (FREESTANDING_DIR / "alloc.c", WASM_DIR / "exports.c")
    link = ("-T", str(FREESTANDING_DIR / "heap.ld"), "-Wl,--no-gc-sections", "-Wl,--entry=0")
    # the build key hashes the sources and headers; the allocator alloc.c includes and the
    # linker script enter it through this define
    inputs = hashlib.sha256((WASM_DIR / "alloc.c").read_bytes() + (FREESTANDING_DIR / "heap.ld").read_bytes())
    return BuildSpec(name=name or f"unicorn-{arch.column}", toolchain=zig_cc(), sources=sources, flags=chosen,
                     output="executable", target=arch.target, include_dirs=(*include_dirs(source_dir), WASM_DIR / "include"),
                     link_flags=link, defines=("OC_NO_THREADS", f"OW_HEAP_BASE={HEAP_BASE:#x}",
                                               f"OW_HEAP_END={HEAP_END:#x}", f"OW_INPUTS={inputs.hexdigest()[:16]}",
                                               f"OC_FLAGS={' '.join(chosen)}"))


# ---------------------------------------------------------------------- signatures

SIGNATURES: dict[str, tuple[str, str]] = {
    "orca_abi_version": ("", "i"), "orca_build_info": ("", "p"), "orca_alloc": ("i", "p"),
    "orca_free": ("p", ""), "orca_result": ("", "p"), "orca_heap_bytes": ("", "i"),
    "orca_scene_create": ("dild", "p"), "orca_scene_destroy": ("p", ""),
    "orca_scene_add_segment": ("pdddd", "i"), "orca_scene_add_agent": ("pdddddddidddpi", "i"),
    "orca_scene_add_agents": ("pppip", "i"),
    "orca_run_create": ("p", "p"), "orca_run_destroy": ("p", ""), "orca_run_agent_count": ("p", "i"),
    "orca_run_step": ("p", "i"), "orca_run_canonical_state": ("pp", ""), "orca_run_advance": ("pip", "i"),
    "orca_run_dump": ("pp", ""),
    "orca_segment_distance_squared": ("dddd", ""), "orca_support_distance": ("ddddddddi", ""),
    "orca_agent_case_form": ("dddddd", ""), "orca_agent_constraint": ("ddddddddd", ""),
    "orca_segment_constraint": ("ddddddd", ""), "orca_for_boundary": ("dddddd", "i"),
    "orca_solve_closest": ("piddd", "i"), "orca_solve_direction": ("piddd", "i"), "orca_relax": ("piidi", "i"),
    "orca_obstacle_neighbors": ("dddpip", "i"), "orca_agent_neighbors": ("ipidip", "i"),
    "orca_splitmix64": ("ll", "l"), "orca_uniform": ("ll", ""),
    "orca_preferred_velocity": ("ddpiidddldiii", "i"), "orca_agent_step": ("ippipidpp", "i"),
}
"""Every export's (argument types, return type): ``i`` int32, ``l`` 64-bit integer, ``p``
pointer, ``d`` binary64, ``""`` void; the same as the wasm module's (a test compares them)."""


# ---------------------------------------------------------------------- the machine

ADDRESS_END = 1 << 64


def unmapped_gaps(mapped: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """The [begin, end) ranges of the address space outside the mapped ranges given."""
    gaps, start = [], 0
    for begin, end in sorted(mapped):
        if begin > start:
            gaps.append((start, begin))
        start = max(start, end)
    return gaps + ([(start, ADDRESS_END)] if start < ADDRESS_END else [])


class _Machine(GuestMemory):
    """One Unicorn CPU holding the image: calls with budgets, memory helpers in the target's byte order.

    Offers the interface of wasm_runner's instance (call, alloc, write, read, view, scratch,
    put_doubles, results, ints), so the wasm column's vector primitives run unchanged."""

    def __init__(self, arch: Arch, image: ElfImage, seconds_per_fuel: float, fill_tlb: bool = True):
        import unicorn
        self._unicorn = unicorn
        self.arch = arch
        self.image = image
        self.endian = image.endian
        self.seconds_per_fuel = seconds_per_fuel
        consts = importlib.import_module(f"unicorn.{arch.uc_arch.split('_')[-1].lower()}_const")
        mode = 0
        for name in arch.uc_mode:
            mode |= getattr(unicorn, name)
        self.uc = unicorn.Uc(getattr(unicorn, arch.uc_arch), mode)
        self.abi = ABIS[arch.abi](self.uc, consts)
        low = min(s.vaddr for s in image.segments) & ~(PAGE - 1)
        high = max(s.vaddr + s.memsz for s in image.segments)
        self.uc.mem_map(low, (high - low + PAGE - 1) & ~(PAGE - 1), unicorn.UC_PROT_ALL)
        for segment in image.segments:
            self.uc.mem_write(segment.vaddr, segment.data)
        self.uc.mem_map(STACK_TOP - STACK_BYTES, STACK_BYTES + PAGE, unicorn.UC_PROT_READ | unicorn.UC_PROT_WRITE)
        self.uc.mem_map(STOP_ADDRESS, PAGE, unicorn.UC_PROT_ALL)
        self.uc.mem_map(HEAP_BASE, HEAP_END - HEAP_BASE, unicorn.UC_PROT_READ | unicorn.UC_PROT_WRITE)
        self._fault: tuple[str, int] | None = None
        mapped = ((low, high), (STACK_TOP - STACK_BYTES, STACK_TOP + PAGE), (STOP_ADDRESS, STOP_ADDRESS + PAGE),
                  (HEAP_BASE, HEAP_END))
        self._code = ((low, high), (STOP_ADDRESS, STOP_ADDRESS + PAGE))
        # Stores are fast only on a page whose TLB entry is not executable and that no memory
        # hook covers (docs/unicorn.md, "Speed"): the TLB is filled here, executable only where
        # the code is, and the fault hook covers the unmapped gaps only.
        # (fill_tlb False: Unicorn's own TLB, the fault hook over the whole address space: the
        # benchmark's baseline, the runner before issue 44)
        if fill_tlb:
            self.uc.ctl_set_tlb_mode(unicorn.UC_TLB_VIRTUAL)
            self.uc.hook_add(unicorn.UC_HOOK_TLB_FILL, self._on_tlb_fill)
        for begin, end in unmapped_gaps(mapped) if fill_tlb else [(1, 1)]:
            self.uc.hook_add(unicorn.UC_HOOK_MEM_INVALID, self._on_invalid, begin=begin, end=end - 1)
        self.watchdog = Watchdog(self.uc.emu_stop)
        self._addresses = {name: image.symbol(name) for name in SIGNATURES}
        self.reset()

    def _on_tlb_fill(self, uc, address, access, entry, data) -> bool:
        """Identity translation; read and write everywhere, execute where the code is (and on
        any page the guest fetches from: Unicorn's own map then refuses a fetch outside it)."""
        u = self._unicorn
        entry.paddr = address
        code = access == u.UC_MEM_FETCH or any(begin <= address < end for begin, end in self._code)
        entry.perms = u.UC_PROT_ALL if code else u.UC_PROT_READ | u.UC_PROT_WRITE
        return True

    def _on_invalid(self, uc, access, address, size, value, data) -> bool:
        u = self._unicorn
        kind = {u.UC_MEM_READ_UNMAPPED: "read of unmapped", u.UC_MEM_WRITE_UNMAPPED: "write to unmapped",
                u.UC_MEM_FETCH_UNMAPPED: "fetch from unmapped", u.UC_MEM_WRITE_PROT: "write to protected",
                u.UC_MEM_READ_PROT: "read of protected", u.UC_MEM_FETCH_PROT: "fetch from protected"}
        self._fault = (kind.get(access, "invalid access to"), address)
        return False

    def reset(self) -> None:
        """Pristine .data and .bss (the allocator's state included): a fresh program."""
        for segment in self.image.segments:
            if segment.writable:
                self.uc.mem_write(segment.vaddr, segment.data + bytes(segment.memsz - len(segment.data)))
        self._scratch = 0
        self._scratch_size = 0
        self.result = self.call("orca_result", FUEL_CALL)

    def call(self, name: str, fuel: int, *args, what: str = ""):
        """Call an export with a time budget; a fault, a trap or a timeout is a RunnerError."""
        types, returns = SIGNATURES[name]
        if len(args) != len(types):
            raise RunnerError(f"{name} takes {len(types)} arguments, {len(args)} given")
        address = self._addresses[name]
        self.abi.setup(address, types, args, self.endian)
        seconds = SECONDS_CALL + fuel * self.seconds_per_fuel
        where = f"{name}{f' ({what})' if what else ''}"
        self._fault = None
        started = time.monotonic()
        self.watchdog.arm(seconds)
        try:
            self.uc.emu_start(address, STOP_ADDRESS)
        except self._unicorn.UcError as err:
            # Unicorn's s390x does not stop at `until`: it faults on the stop page's zero bytes
            if self.abi.pc() != STOP_ADDRESS:
                raise RunnerError(self._describe_fault(where, err)) from None
        finally:
            self.watchdog.disarm()
        pc = self.abi.pc()
        if pc != STOP_ADDRESS:
            raise BudgetExhausted(f"time budget exhausted: {where} ran {time.monotonic() - started:.1f} s, its budget is "
                              f"{seconds:.1f} s; stopped at {pc:#x} ({self.image.function_at(pc)}) "
                              f"(a runaway port, or a host far slower than expected)")
        if not returns:
            return None
        value = self.abi.result(returns)
        if returns == "i":
            value &= 0xFFFF_FFFF
            return value - (1 << 32) if value >= 1 << 31 else value
        if returns == "p":
            return value & ((1 << (8 * self.abi.pointer_bytes)) - 1)
        if returns == "l":
            value &= (1 << 64) - 1
            return value - (1 << 64) if value >= 1 << 63 else value
        return value

    def _describe_fault(self, where: str, err) -> str:
        pc = self.abi.pc()
        try:
            code = bytes(self.uc.mem_read(pc, 4)).hex(" ")
        except self._unicorn.UcError:
            code = "unreadable"
        text = f"{self.arch.column} fault in {where}: {err} at pc {pc:#x} ({self.image.function_at(pc)}), " \
               f"instruction bytes {code}"
        if self._fault:
            text += f"; {self._fault[0]} memory at {self._fault[1]:#x}"
        return text

    # memory ------------------------------------------------------------

    def alloc(self, size: int) -> int:
        pointer = self.call("orca_alloc", FUEL_CALL, max(1, size))
        if pointer == 0:
            raise OutOfMemory(f"out of memory: cannot allocate {size} bytes in the emulated heap "
                              f"({(HEAP_END - HEAP_BASE) >> 20} MiB)")
        return pointer

    def write(self, pointer: int, data: bytes) -> None:
        self.uc.mem_write(pointer, bytes(data))

    def read(self, pointer: int, size: int) -> bytes:
        try:
            return bytes(self.uc.mem_read(pointer, size)) if size > 0 else b""
        except self._unicorn.UcError:
            raise RunnerError(f"the port returned a buffer outside its memory ({pointer:#x} + {size})") from None

    def view(self, pointer: int, size: int) -> memoryview:
        return memoryview(self.read(pointer, size))


# ---------------------------------------------------------------------- the column

class UnicornRunner(ExportLayerRunner):
    """The freestanding ELF of one architecture under Unicorn, in-process."""

    def __init__(self, arch: Arch, runner_id: str | None = None, spec: BuildSpec | None = None,
                 seconds_per_fuel: float = SECONDS_PER_FUEL, fill_tlb: bool = True):
        """``seconds_per_fuel`` sets the call budgets (tests make it tiny to prove the path);
        ``fill_tlb`` False keeps Unicorn's own TLB, every store on the slow path (the baseline
        of tools/bench_unicorn.py)."""
        self.arch = arch
        self.id = runner_id or arch.column
        self.cost = arch.cost
        self.spec = spec
        self.seconds_per_fuel = seconds_per_fuel
        self.fill_tlb = fill_tlb
        self.artifact: Artifact | None = None
        self.image: ElfImage | None = None
        self._machine: _Machine | None = None

    def _guest(self) -> _Machine:
        """The CPU with the image loaded, .data and .bss pristine."""
        return self._load()

    def _load(self) -> _Machine:
        if self._machine is not None:
            self._machine.reset()
            return self._machine
        try:
            import unicorn  # noqa: F401 - only whether it is installed
        except ImportError:
            raise RunnerUnavailable("the unicorn package is not installed (pip install unicorn)") from None
        reason = zig_available()
        if reason:
            raise RunnerUnavailable(reason)
        try:
            self.artifact = build(self.spec or elf_spec(self.arch))
        except ToolchainMissing as err:
            raise RunnerUnavailable(f"no toolchain: {err}") from None
        except BuildFailed as err:
            raise CannotStart(f"build failed: {err}") from None
        try:
            self.image = read_elf(self.artifact.path.read_bytes())
            machine = _Machine(self.arch, self.image, self.seconds_per_fuel, self.fill_tlb)
        except ElfError as err:
            raise CannotStart(f"cannot load {self.artifact.path.name}: {err}") from None
        abi = machine.call("orca_abi_version", FUEL_CALL)
        if abi != ABI_VERSION:
            raise CannotStart(f"export layer version {abi}, this runner speaks {ABI_VERSION}")
        self._machine = machine
        return machine

    def build_info(self) -> str:
        machine = self._load()
        raw = machine.read(machine.call("orca_build_info", FUEL_CALL), 512)
        return raw.split(b"\0", 1)[0].decode("utf-8", "replace")

    def info(self) -> RunnerInfo:
        self._load()
        from importlib.metadata import version
        described = self.artifact.describe()
        host = f"{platform.system().lower()}-{platform.machine().lower()}"
        versions = {
            "engine": f"unicorn {version('unicorn')} ({self.arch.uc_arch}, {'|'.join(self.arch.uc_mode)})",
            "toolchain": toolchain_text(described["compiler"]),
            "target": self.arch.target, "abi": self.arch.abi,
            "binary_sha256": described["sha256"], "binary_size": str(described["size"]),
            "binary_build": self.build_info(),
            "memory_limit": str(HEAP_END - HEAP_BASE),
            "budget": f"{SECONDS_CALL} s per call + {self.seconds_per_fuel:.2e} s per fuel unit of the wasm column",
        }
        return RunnerInfo(self.id, f"orca-c ({self.arch.target}, unicorn)",
                          platform=f"{self.arch.target.split('-')[0]} (unicorn on {host})",
                          architecture=self.arch.target.split("-")[0], compiler=toolchain_text(described["compiler"]),
                          flags=" ".join(self.artifact.spec.flags), versions=versions)

    def close(self) -> None:
        if self._machine is not None:
            self._machine.watchdog.close()
        self._machine = None


def unicorn_columns() -> dict[str, Callable[[], UnicornRunner]]:
    """Column id -> factory, for the registry."""
    return {name: (lambda a=arch: UnicornRunner(a)) for name, arch in ARCHES.items()}
