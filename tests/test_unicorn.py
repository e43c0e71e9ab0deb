"""The Unicorn columns (``arm64``, ``s390x``, ``i386``, ``riscv64``): the freestanding ELF build,
the ELF reader, each calling convention, the matrix, and the budget, fault and bad-file paths.  Every test SKIPs with the
reason when unicorn or zig is missing."""

from __future__ import annotations

import struct
import time

import pytest

from conformance.runners.build.layer import zig_available
from conformance.judge.matrix import PASS, VECTORS_ROW, run_matrix
from conformance.judge.cell_text import format_table
from conformance.runners import resolve
from conformance.runners.base import RunnerError
from conformance.contract.scenario import load_suite
from conftest import ROOT

GOLDENS = ROOT / "goldens"

try:
    import unicorn  # noqa: F401
    _NO_UNICORN = None
except ImportError:
    _NO_UNICORN = "the unicorn package is not installed (pip install unicorn)"

pytestmark = [pytest.mark.skipif(_NO_UNICORN is not None, reason=_NO_UNICORN or ""),
              pytest.mark.skipif(zig_available() is not None, reason=zig_available() or "")]

from conformance.runners import unicorn_runner as U  # noqa: E402  (imports nothing optional)
from conformance.runners.elf import ElfError, read_elf  # noqa: E402

COLUMNS = list(U.ARCHES)
SCENES = ["orca/head-on-exact", "orca/wall-gap", "orca/overlap-wall", "orca/zero-agents"]


@pytest.fixture(scope="module")
def arm64() -> U.UnicornRunner:
    runner = U.UnicornRunner(U.ARCHES["arm64"])
    runner.info()
    return runner


def _scene(scenario_id: str):
    return next(s for s in load_suite(ROOT / "scenarios") if s.id == scenario_id).scene


def test_build_is_freestanding_elf_with_every_export(arm64):
    image = arm64.image
    assert image.machine == "aarch64" and image.bits == 64 and image.endian == "<"
    assert image.entry == 0 and image.segments
    for name in U.SIGNATURES:
        assert name in image.symbols, name
    assert image.symbols["__heap_base"] == U.HEAP_BASE
    assert all(s.vaddr + s.memsz <= U.STOP_ADDRESS for s in image.segments)  # below every host mapping
    flags = arm64.info().flags.split()
    assert "-ffp-contract=off" in flags and "-fno-fast-math" in flags and "-O2" in flags
    assert "-ffp-contract=off" in arm64.build_info()


def test_linker_script_and_runner_agree_on_the_heap():
    text = (U.FREESTANDING_DIR / "heap.ld").read_text()
    assert f"__heap_base = {U.HEAP_BASE:#x};" in text


def test_signatures_match_the_wasm_module():
    """The signature table against the wasm module's export types (the same exports.c)."""
    wasmtime = pytest.importorskip("wasmtime", reason="wasmtime is needed to read the wasm module's types")
    from conformance.runners.wasm_runner import build_module
    module = wasmtime.Module.from_file(wasmtime.Engine(), str(build_module().path))
    kinds = {"i32": "ip", "i64": "l", "f64": "d"}
    exports = {e.name: e.type for e in module.exports if isinstance(e.type, wasmtime.FuncType)}
    for name, (params, returns) in U.SIGNATURES.items():
        ftype = exports[name]
        got = [str(p) for p in ftype.params]
        assert len(got) == len(params), name
        for kind, wasm in zip(params, got):
            assert kind in kinds[wasm], (name, params, got)
        results = [str(r) for r in ftype.results]
        assert (results == []) == (returns == ""), name
        if results:
            assert returns in kinds[results[0]], name
    assert set(U.SIGNATURES) <= set(exports)


@pytest.mark.parametrize("column", COLUMNS)
def test_calls_by_the_calling_convention_match_wasm(column: str):
    """Integer, 64-bit and double arguments, a ninth double (on the stack; in a0 on RISC-V; all
    on the stack on i386), i64 and int results."""
    pytest.importorskip("wasmtime", reason="wasmtime is needed for the wasm side of the comparison")
    from conformance.runners.wasm_runner import WasmRunner
    wasm = WasmRunner()
    wasm._load()
    w = wasm._instance()
    m = U.UnicornRunner(U.ARCHES[column])._load()
    for seed, n in ((0, 0), (-1, 7), (2**62, -5)):
        assert m.call("orca_splitmix64", 10**6, seed, n) == w.call("orca_splitmix64", 10**6, seed, n)
    args = (0.5, -1.25, 0.3, 2.0, 0.25, 1.0 / 3.0, -0.7, 0.9, 1e-3)
    m.call("orca_agent_constraint", 10**6, *args)
    w.call("orca_agent_constraint", 10**6, *args)
    assert [struct.pack("<d", v) for v in m.results(4)] == [struct.pack("<d", v) for v in w.results(4)]
    assert m.call("orca_relax", 10**6, 0, 1, 2, 1.0, 0) == -2  # negative int results come back signed


def test_i386_starts_with_the_floating_point_state_linux_gives_a_process():
    """Unicorn's x86 starts with x87 control word 0 (single precision) and MXCSR 0 (unmasked):
    the column must set what an OS sets, or the x87 control would measure the wrong thing."""
    from unicorn import x86_const
    m = U.UnicornRunner(U.ARCHES["i386"])._load()
    assert m.uc.reg_read(x86_const.UC_X86_REG_FPCW) & 0xFFFF == 0x37F
    assert m.uc.reg_read(x86_const.UC_X86_REG_MXCSR) & 0xFFFF == 0x1F80


@pytest.mark.parametrize("column", COLUMNS)
def test_column_passes_scenes_and_every_vector_family(column: str):
    scenarios = [s for s in load_suite(ROOT / "scenarios") if s.id in SCENES]
    started = time.monotonic()
    result = run_matrix(scenarios, [column], GOLDENS)
    print(format_table(result), f"{time.monotonic() - started:.1f} s")
    assert len(result.cells) == len(scenarios) + 2  # + the vectors and protocol rows
    for cell in result.cells.values():
        assert cell.status == PASS, (cell.row, cell.reason)
    assert result.cells[(VECTORS_ROW, column)].compared > 5000


def test_runaway_call_is_stopped_by_its_budget(monkeypatch):
    monkeypatch.setattr(U, "SECONDS_CALL", 0.0)
    runner = U.UnicornRunner(U.ARCHES["arm64"], seconds_per_fuel=1e-15)
    with pytest.raises(RunnerError) as caught:
        list(runner.hashes(_scene("orca/wall-gap")))
    assert "time budget exhausted" in caught.value.reason and "stopped at 0x" in caught.value.reason


def test_fault_names_function_address_and_instruction(arm64):
    m = arm64._load()
    with pytest.raises(RunnerError) as caught:
        m.call("orca_run_advance", 10**6, 0x8, 1, 0, what="a bogus run")
    reason = caught.value.reason
    assert "fault in orca_run_advance (a bogus run)" in reason
    assert "at pc 0x" in reason and "instruction bytes" in reason and "unmapped memory at 0x" in reason
    # the next scene starts clean
    assert sum(1 for _ in arm64.hashes(_scene("orca/head-on-exact"))) == _scene("orca/head-on-exact").steps + 1


def test_dump_matches_the_reference(arm64):
    scene = _scene("orca/wall-gap")
    reference = resolve("reference").dump(scene, 5)
    assert arm64.dump(scene, 5) == reference


def test_elf_reader_refuses_bad_files(arm64):
    with pytest.raises(ElfError, match="bad magic"):
        read_elf(b"\0" * 64)
    data = bytearray(arm64.artifact.path.read_bytes())
    struct.pack_into("<Q", data, 32, len(data) + 100)  # e_phoff beyond the file
    with pytest.raises(ElfError, match="outside the file"):
        read_elf(bytes(data))


def test_doctor_knows_the_columns():
    from conformance.runners.needs import needs_line
    for column in COLUMNS:
        line = needs_line(column)
        assert "unicorn" in line and "ziglang" in line


def test_the_tlb_is_executable_only_where_the_code_is(arm64):
    """The runner's TLB fill (stores on QEMU's fast path, docs/unicorn.md "Speed"): identity,
    read and write everywhere, execute on the image and the stop page or on a fetch only."""
    import unicorn as uc
    m = arm64._load()

    class Entry:
        paddr = perms = None

    for address, access, executable in [(U.HEAP_BASE + 0x5000, uc.UC_MEM_WRITE, False),
                                        (U.STACK_TOP - 0x100, uc.UC_MEM_READ, False),
                                        (m.image.segments[0].vaddr, uc.UC_MEM_READ, True),
                                        (U.STOP_ADDRESS, uc.UC_MEM_WRITE, True),
                                        (U.HEAP_BASE, uc.UC_MEM_FETCH, True)]:
        entry = Entry()
        assert m._on_tlb_fill(m.uc, address, access, entry, None)
        assert entry.paddr == address and bool(entry.perms & uc.UC_PROT_EXEC) == executable
        assert entry.perms & uc.UC_PROT_WRITE


def test_a_jump_into_the_heap_is_a_fault_not_code(arm64):
    m = arm64._load()
    address = m._addresses["orca_abi_version"]
    m._addresses["orca_abi_version"] = U.HEAP_BASE  # data, mapped without execute permission
    try:
        with pytest.raises(RunnerError, match="fault in orca_abi_version"):
            m.call("orca_abi_version", 1000)
    finally:
        m._addresses["orca_abi_version"] = address
    assert sum(1 for _ in arm64.hashes(_scene("orca/head-on-exact"))) == _scene("orca/head-on-exact").steps + 1


def test_the_fault_hooks_cover_the_gaps_between_the_mapped_ranges():
    assert U.unmapped_gaps(((0x10, 0x20), (0x40, 0x50), (0x20, 0x30))) == [
        (0, 0x10), (0x30, 0x40), (0x50, U.ADDRESS_END)]
    assert U.unmapped_gaps(((0, U.ADDRESS_END),)) == []
