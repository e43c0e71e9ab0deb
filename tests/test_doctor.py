"""``orca-conformance doctor`` and the needs line of the matrix's SKIPPED columns."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import doctor
from conformance.runners import needs
from conformance.cli import main
from conformance.judge.matrix import SKIPPED, Cell, MatrixResult
from conformance.judge.cell_text import format_table
from conformance.runners import DEFAULT_COLUMNS


def _hide_qemu(monkeypatch, tmp_path: Path) -> None:
    """PATH without any qemu-*-static (node and the compiler stay reachable through links)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("node", "gcc", "cc", "clang"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(bin_dir))


def test_every_default_column_is_listed_first(capsys):
    assert main(["doctor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = [line.split()[0] for line in lines[1:] if line.strip() and not line.startswith(("doctor:", "  "))]
    assert listed[:len(DEFAULT_COLUMNS)] == DEFAULT_COLUMNS
    assert "reference" in listed and "exec:<command>" in listed and "control:<name>" in listed


def test_missing_qemu_is_named_with_its_install_command(monkeypatch, tmp_path, capsys):
    _hide_qemu(monkeypatch, tmp_path)
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    assert main(["doctor", "arm64:qemu", "s390x:qemu"]) == 0  # missing needs are no failure
    out = capsys.readouterr().out
    assert "qemu-aarch64-static MISSING (apt-get install qemu-user-static)" in out
    assert "qemu-s390x-static MISSING" in out
    assert "doctor: 2 column(s) cannot run here" in out
    assert out.count("apt-get install qemu-user-static") == 3  # two rows, one install line


@pytest.mark.skipif(shutil.which("qemu-aarch64-static") is None, reason="qemu-aarch64-static is not installed here")
def test_present_qemu_shows_its_version(monkeypatch):
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    need = needs.check("qemu:qemu-aarch64-static")
    assert need.present and need.found[0].isdigit(), need


def test_native_host_needs_no_emulator(monkeypatch):
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    assert needs.need_kinds("arm64:qemu") == ("zig",)
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    assert needs.need_kinds("arm64:qemu") == ("zig", "qemu:qemu-aarch64-static")


def test_without_qemu_no_default_column_needs_anything_beyond_pip(monkeypatch, tmp_path):
    """A fresh machine: the default matrix is the Python-only columns, none of which needs qemu,
    and no ``<arch>:qemu`` column joins it (so none can be SKIPPED for want of an emulator)."""
    from conformance.runners import default_columns
    _hide_qemu(monkeypatch, tmp_path)
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    assert default_columns() == DEFAULT_COLUMNS
    for column in DEFAULT_COLUMNS:
        assert not any(kind.startswith("qemu:") for kind in needs.need_kinds(column)), column
    assert {"arm64", "s390x", "i386", "riscv64"} <= set(DEFAULT_COLUMNS)
    assert doctor.where("ppc64le:qemu", default_columns()) == "optional"
    assert needs.need_kinds("control:textbook-ttc") == ()  # a Python port


def test_needs_of_each_kind_of_column():
    assert needs.need_kinds("c") == ("cc",)
    assert needs.need_kinds("c:O3-native") == ("cc",)
    assert needs.need_kinds("wasm") == ("wasmtime", "zig")
    assert needs.need_kinds("wasm-v8") == ("node", "zig")
    assert needs.need_kinds("arm64") == ("zig", "unicorn")
    assert needs.need_kinds("control:x87-i386") == ("zig", "unicorn")
    assert needs.need_kinds("riscv64:qemu") in (("zig", "qemu:qemu-riscv64-static"), ("zig",))
    assert needs.need_kinds("reference") == ()
    assert needs.need_kinds("exec:./port") is None
    assert needs.needs_line("exec:./port") == "needs: your port (the suite cannot check it)"


def test_missing_package_and_old_node(monkeypatch):
    need = needs._package("no-such-package-orca", "pip install no-such-package-orca")
    assert not need.present and need.short() == "no-such-package-orca MISSING (pip install no-such-package-orca)"
    monkeypatch.setenv("PATH", "/nonexistent")
    node = needs.check("node")
    assert not node.present and "apt-get install nodejs" in node.short()


def test_unknown_column_is_bad_usage(capsys):
    assert main(["doctor", "arm65"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "unknown column 'arm65'" in err


def test_skipped_matrix_column_shows_the_needs_line(monkeypatch, tmp_path):
    _hide_qemu(monkeypatch, tmp_path)
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    column = "arm64:qemu"
    cell = Cell("orca/x", column, SKIPPED, reason="qemu-aarch64-static not found (apt-get install qemu-user-static)")
    result = MatrixResult(rows=["orca/x"], runners=[column], cells={("orca/x", column): cell})
    text = format_table(result)
    assert "SKIPPED  arm64:qemu: qemu-aarch64-static not found" in text
    assert "needs: ziglang" in text and "qemu-aarch64-static MISSING (apt-get install qemu-user-static)" in text


def test_command_line_exit_code_without_qemu(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    env = {**os.environ, "PATH": str(bin_dir)}
    done = subprocess.run([sys.executable, "-m", "conformance", "doctor"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "apt-get install" in done.stdout
