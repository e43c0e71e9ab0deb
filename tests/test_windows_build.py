"""The build layer's Windows path: MSVC's flags, the compiler a Windows host gets, and the
``c:windows`` column (the CLI built by Zig for x86_64-windows-gnu with no C runtime, on
runners/freestanding/runtime and kernel32, run under Wine here)."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from conformance.runners.build.layer import DETERMINISM_FLAGS, BuildSpec, FlagUnsupported, Toolchain, build, msvc_flags, system_cc, zig_available
from conformance.runners.cli_port import WINDOWS_LINK, windows_spec

SOURCES = (Path("a.c"), Path("b.c"))


def _msvc_spec(output: str, flags=DETERMINISM_FLAGS + ("-O2",)) -> BuildSpec:
    return BuildSpec("x", Toolchain("msvc", ("cl",)), SOURCES, flags, output=output, include_dirs=(Path("inc"),),
                     link_flags=("-lm",), defines=("OC_NO_THREADS",))


def test_determinism_flags_become_fp_precise():
    assert msvc_flags(DETERMINISM_FLAGS + ("-O2",)) == ["/std:c11", "/fp:precise", "/O2"]
    assert msvc_flags(DETERMINISM_FLAGS + ("-O0",)) == ["/std:c11", "/fp:precise", "/Od"]


@pytest.mark.parametrize("flag", ["-ffast-math", "-march=native", "-ffp-contract=fast", "-mfpmath=387"])
def test_a_flag_msvc_cannot_honour_makes_the_column_skipped_naming_it(flag: str):
    with pytest.raises(FlagUnsupported, match=f"no equivalent of '{flag}'"):
        msvc_flags(DETERMINISM_FLAGS + (flag,))


def test_msvc_command_lines():
    shared = _msvc_spec("shared")
    cmd = shared.command_line(Path("out") / shared.artifact_name())
    assert cmd[:2] == ["cl", "/nologo"] and "/fp:precise" in cmd and "/LD" in cmd
    assert "/DOC_NO_THREADS" in cmd and "/Iinc" in cmd and cmd[-1].endswith("orca.dll")
    assert not any(part.startswith("-") for part in cmd)  # no gcc flag leaks through
    exe = _msvc_spec("executable")
    cmd = exe.command_line(Path(exe.artifact_name()))
    assert "/LD" not in cmd and cmd[-1] == "/Fe:orca-port.exe" and "/link" not in cmd


def test_a_windows_host_gets_msvc_when_present_else_zig_for_windows(monkeypatch, tmp_path):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    chosen = system_cc("win32")
    assert chosen.name == "zig" and chosen.target == "x86_64-windows-gnu"
    spec = BuildSpec("x", chosen, SOURCES, DETERMINISM_FLAGS)
    assert spec.command_line(Path("o"))[4:6] == ["-target", "x86_64-windows-gnu"]
    assert spec.artifact_name() == "orca.dll"
    cl = tmp_path / "cl"
    cl.write_text("#!/bin/sh\n")
    cl.chmod(cl.stat().st_mode | stat.S_IEXEC)
    assert system_cc("win32") == Toolchain("msvc", ("cl",))
    assert system_cc("linux").name != "msvc"


def test_the_windows_column_links_no_c_runtime_and_keeps_its_flags():
    spec = windows_spec()
    assert spec.target == "x86_64-windows-gnu" and spec.link_flags == WINDOWS_LINK and "-nolibc" in spec.link_flags
    assert spec.flags == DETERMINISM_FLAGS + ("-O2",)  # the flags the column always had (and its hello says)
    assert {p.name for p in spec.sources} >= {"start.c", "stdio.c", "numbers.c", "strings.c", "heap.c", "main.c"}
    assert any(p.parent.name == "windows" and p.name == "start.c" for p in spec.sources)


def _imported_dlls(data: bytes) -> list[str]:
    """The DLL names of a PE32+ file's import directory."""
    pe = int.from_bytes(data[0x3C:0x40], "little")
    sections, optional = int.from_bytes(data[pe + 6:pe + 8], "little"), int.from_bytes(data[pe + 20:pe + 22], "little")
    table = pe + 24 + optional
    rows = [data[table + 40 * k:table + 40 * k + 40] for k in range(sections)]

    def offset(rva: int) -> int:
        for row in rows:
            start, size, raw = (int.from_bytes(row[a:a + 4], "little") for a in (12, 8, 20))
            if start <= rva < start + size:
                return rva - start + raw
        raise AssertionError(f"rva {rva:#x} in no section")

    imports = int.from_bytes(data[pe + 24 + 120:pe + 24 + 124], "little")  # data directory 1 (PE32+)
    names, at = [], offset(imports)
    while int.from_bytes(data[at + 12:at + 16], "little"):
        name = offset(int.from_bytes(data[at + 12:at + 16], "little"))
        names.append(data[name:data.index(b"\0", name)].decode())
        at += 20
    return names


@pytest.mark.skipif(zig_available() is not None, reason=zig_available() or "")
def test_zig_builds_a_windows_executable_that_imports_kernel32_only():
    artifact = build(windows_spec())
    data = artifact.path.read_bytes()
    assert artifact.path.name == "orca-port.exe" and data[:2] == b"MZ"
    pe = int.from_bytes(data[0x3C:0x40], "little")
    assert data[pe:pe + 6] == b"PE\0\0\x64\x86"  # PE signature, machine x86-64
    assert int.from_bytes(data[pe + 24 + 68:pe + 24 + 70], "little") == 3  # the console subsystem
    assert [name.lower() for name in _imported_dlls(data)] == ["kernel32.dll"]  # no C runtime (ucrt, msvcrt)


@pytest.mark.skipif(shutil.which("wine") is None, reason="wine is not installed (apt-get install wine64)")
@pytest.mark.skipif(zig_available() is not None, reason=zig_available() or "")
def test_windows_column_passes_under_wine():
    from conformance.judge.matrix import PASS, run_matrix
    from conformance.contract.scenario import load_suite
    root = Path(__file__).resolve().parent.parent
    scenarios = [s for s in load_suite(root / "scenarios") if s.id in ("orca/head-on-exact", "orca/wall-gap")]
    result = run_matrix(scenarios, ["c:windows"], root / "goldens")
    assert len(result.cells) == 4
    for cell in result.cells.values():
        assert cell.status == PASS, (cell.row, cell.reason)
    assert "windows" in result.infos["c:windows"].platform
