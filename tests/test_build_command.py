"""`orca-conformance build COLUMN --out PATH`: a column's port at a path of the user's choosing,
runnable as documented (the C CLI as `exec:`, the module under `node runners/wasm/port.mjs`)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest

from conformance.runners.build.layer import system_cc, zig_available
from conformance.runners.port_build import BuildPlan, plan
from conformance.cli import main
from conformance.runners.wasm_v8 import PORT_SCRIPT
from conftest import ROOT

SMALL = ["--scenarios", "orca/zero-agents", "--scenarios", "orca/head-on-exact"]

needs_cc = pytest.mark.skipif(shutil.which(system_cc().command[0]) is None, reason="no C compiler")
needs_zig = pytest.mark.skipif(zig_available() is not None, reason=f"wasm build: {zig_available()}")
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (the wasm port runs under Node.js)")


def _build(column: str, out: Path, capsys) -> str:
    assert main(["--suite", str(ROOT), "build", column, "--out", str(out)]) == 0
    return capsys.readouterr().out


def _report_names(text: str, path: Path) -> None:
    """The printed report names the compiler, the flags and the SHA-256 of the very file written."""
    assert f"sha256    {hashlib.sha256(path.read_bytes()).hexdigest()}" in text
    docs = next(line.split(None, 1)[1] for line in text.splitlines() if line.strip().startswith("docs "))
    assert Path(docs).is_file(), f"build names a document that is not there: {docs}"
    assert "  compiler  " in text and "-ffp-contract=off" in text


@needs_cc
def test_the_built_cli_passes_a_small_matrix_as_an_exec_port(tmp_path: Path, capsys) -> None:
    out = tmp_path / "orca-port"
    text = _build("c:cli", out, capsys)
    assert os.access(out, os.X_OK)
    _report_names(text, out)
    assert "gate      orca-conformance matrix --runner" in text
    assert main(["--suite", str(ROOT), "matrix", "--runner", f"exec:{out}", *SMALL]) == 0
    table = capsys.readouterr().out
    assert "4 passed, 0 failed, 0 skipped" in table


@needs_zig
@needs_node
def test_the_built_module_is_accepted_by_the_node_port(tmp_path: Path, capsys) -> None:
    out = tmp_path / "orca.wasm"
    text = _build("wasm", out, capsys)
    _report_names(text, out)
    assert "runners/wasm/port.mjs" in text
    assert main(["--suite", str(ROOT), "matrix", "--runner", f"exec:node {PORT_SCRIPT} {out}", *SMALL]) == 0
    assert "4 passed, 0 failed, 0 skipped" in capsys.readouterr().out


@needs_cc
def test_a_folder_as_out_keeps_the_artifact_name_and_the_library_is_the_c_column(tmp_path: Path, capsys) -> None:
    text = _build("c", tmp_path, capsys)
    library = tmp_path / "liborca.so"
    assert library.exists()
    _report_names(text, library)
    assert "gate      orca-conformance matrix --runners c" in text


def test_each_column_builds_what_its_runner_runs() -> None:
    assert plan("c:cli").kind == "executable" and plan("c:cli").spec.target is None
    assert plan("c").kind == plan("c:O0").kind == "shared"
    cross = plan("arm64:qemu")
    assert (cross.kind, cross.spec.target) == ("executable", "aarch64-linux-none")
    assert "-nolibc" in cross.spec.link_flags and "-ffp-contract=off" in cross.spec.flags
    emulated = plan("riscv64")
    assert (emulated.kind, emulated.spec.target) == ("freestanding", "riscv64-freestanding")
    assert plan("wasm").spec == plan("wasm-v8").spec and plan("wasm").kind == "wasm"
    assert "-ffp-contract=fast" in plan("control:fma-arm64").spec.flags


@pytest.mark.parametrize("column", ["nope", "reference", "exec:./my-port", "control:textbook-ttc", "control:nope"])
def test_a_column_that_builds_nothing_is_one_line_and_exit_2(column: str, tmp_path: Path, capsys) -> None:
    assert main(["--suite", str(ROOT), "build", column, "--out", str(tmp_path / "x")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: command line: column: ")
    if not column.startswith("control:"):
        assert "can build: c, c:O0, c:O3-native, c:zig, c:cli, wasm, wasm-v8, arm64, s390x, i386, riscv64" in lines[0]
    assert not (tmp_path / "x").exists()


def test_a_missing_out_folder_is_bad_input_before_any_build(tmp_path: Path, capsys) -> None:
    assert main(["--suite", str(ROOT), "build", "c:cli", "--out", str(tmp_path / "no" / "orca-port")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--out: folder" in captured.err


def test_a_missing_compiler_is_one_line_and_exit_1(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("CC", "no-such-compiler-here")
    assert main(["--suite", str(ROOT), "build", "c:cli", "--out", str(tmp_path / "orca-port")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: build c:cli: no-such-compiler-here not found on PATH"]
    assert not (tmp_path / "orca-port").exists()


def test_the_plan_of_a_zig_column_knows_when_zig_is_missing(monkeypatch) -> None:
    import conformance.runners.port_build as build_command
    monkeypatch.setattr(build_command, "zig_available", lambda: "the ziglang package is not installed")
    chosen = plan("c:zig")
    assert isinstance(chosen, BuildPlan) and chosen.missing == "the ziglang package is not installed"


def _copy_of_runners_c(tmp_path: Path) -> Path:
    copy = tmp_path / "my-c"
    shutil.copytree(ROOT / "runners" / "c", copy, ignore=shutil.ignore_patterns("controls", "misreadings", "operators"))
    return copy


def test_sources_swap_runners_c_and_nothing_else() -> None:
    """The edited copy gets the column's own flags, defines, target and link: only the tree differs."""
    copy = ROOT / "runners" / "c"  # the production tree named as a copy: the same build
    for column in ("c:cli", "c", "arm64:qemu", "wasm"):
        plain, edited = plan(column), plan(column, copy)
        assert edited.spec == plain.spec and edited.sources == copy
    assert "-ffp-contract=off" in plan("c:cli", copy).spec.flags


@needs_cc
def test_a_build_from_sources_is_the_edited_copy(tmp_path: Path, capsys) -> None:
    """A copy of runners/c whose position update moves agents half as far: the port built from
    it diverges at step 1, where the column's own build passes."""
    copy = _copy_of_runners_c(tmp_path)
    simulator = copy / "solver" / "simulator.c"
    text = simulator.read_text()
    assert text.count("oc_Scale(v, job->dt)") == 1
    simulator.write_text(text.replace("oc_Scale(v, job->dt)", "oc_Scale(v, job->dt * 0.5)"))
    out = tmp_path / "orca-port"
    assert main(["--suite", str(ROOT), "build", "c:cli", "--sources", str(copy), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"  sources   {copy}" in text and f"{copy}/solver/simulator.c" in text
    assert "  compile   " in text and "-ffp-contract=off" in text
    row = ["--scenarios", "orca/head-on-exact", "--no-vectors", "--no-protocol"]
    assert main(["--suite", str(ROOT), "matrix", "--runner", f"exec:{out}", *row]) == 1
    table = capsys.readouterr().out
    assert re.search(r"^DIVERGED orca/head-on-exact \[exec:.*\]: step 1,", table, re.M), table


@pytest.mark.parametrize("layout", ["missing", "file", "no solver", "empty cli"])
def test_sources_that_are_no_copy_of_runners_c_are_one_line_and_exit_2(layout: str, tmp_path: Path,
                                                                      capsys, monkeypatch) -> None:
    import conformance.runners.port_build as build_command
    monkeypatch.setattr(build_command, "build", lambda spec: pytest.fail("built from bad sources"))
    copy = tmp_path / "my-c"
    if layout == "file":
        copy.write_text("x")
    elif layout != "missing":
        copy = _copy_of_runners_c(tmp_path)
        if layout == "no solver":
            shutil.rmtree(copy / "solver")
        else:
            for source in (copy / "cli").glob("*.c"):
                source.unlink()
    code = main(["--suite", str(ROOT), "build", "c:cli", "--sources", str(copy), "--out", str(tmp_path / "port")])
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert code == 2 and captured.out == "" and len(lines) == 1 and "Traceback" not in captured.err
    expected = {"missing": f"error: command line: --sources: {str(copy)!r} does not exist",
                "file": f"error: command line: --sources: {str(copy)!r} is not a folder",
                "no solver": f"error: {copy}: solver: no such folder of .c files",
                "empty cli": f"error: {copy}: cli: no such folder of .c files"}[layout]
    assert lines[0].startswith(expected), lines[0]
    assert not (tmp_path / "port").exists()
