"""What a first run builds and how long each build is expected to take: last time's seconds from
the cache's build.txt, else the kind's typical seconds; nothing for a cached or unrunnable column."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conformance.runners import resolve
from conformance.runners.build.layer import BuildSpec, Toolchain, artifact_path
from conformance.runners.build_estimate import TYPICAL_SECONDS, Basis, build_kind, expected, last_seconds, pending_builds
from conformance.runners.reference import ReferenceRunner


def note(root: Path, folder: str, text: str, age: float) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "build.txt").write_text(text)
    os.utime(root / folder / "build.txt", (1_000_000 + age, 1_000_000 + age))


def test_last_time_is_the_newest_build_of_exactly_that_name(tmp_path: Path) -> None:
    note(tmp_path, "c-" + "a" * 20, "gcc ...\ngcc 12\n1.50 s\n", age=10)
    note(tmp_path, "c-" + "b" * 20, "gcc ...\ngcc 12\n2.25 s\n", age=20)  # the newer
    note(tmp_path, "c-cli-" + "c" * 20, "gcc ...\ngcc 12\n9.00 s\n", age=30)  # another name that starts alike
    note(tmp_path, "cross-s390x-qemu-" + "d" * 20, "zig ...\nnot a number\n", age=40)
    assert last_seconds("c", tmp_path) == 2.25
    assert last_seconds("c-cli", tmp_path) == 9.0
    assert last_seconds("cross-s390x-qemu", tmp_path) is None  # unreadable: no figure rather than a wrong one
    assert last_seconds("wasm", tmp_path) is None


ZIG, GCC = Toolchain("zig", ("zig", "cc")), Toolchain("gcc", ("gcc",))


@pytest.mark.parametrize("toolchain, output, target, kind", [
    (GCC, "shared", None, "host compiler"), (ZIG, "shared", None, "zig host"),
    (ZIG, "wasm", "wasm32-freestanding", "zig wasm"), (ZIG, "executable", "s390x-freestanding", "zig freestanding"),
    (ZIG, "executable", "s390x-linux-none", "zig freestanding"),
    (ZIG, "executable", "s390x-linux-musl", "zig static linux"), (ZIG, "executable", "x86_64-windows-gnu", "zig windows")])
def test_each_kind_of_build_has_a_typical_time(toolchain, output, target, kind) -> None:
    spec = BuildSpec("x", toolchain, (), (), output=output, target=target)
    assert build_kind(spec) == kind and TYPICAL_SECONDS[kind] > 0


def test_a_build_that_links_no_c_library_is_of_the_freestanding_kind() -> None:
    from conformance.runners.cli_port import windows_spec
    assert build_kind(windows_spec()) == "zig freestanding"  # c:windows: no MinGW runtime to compile first


def test_the_expected_time_says_where_it_comes_from(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ORCA_CONFORMANCE_CACHE", str(tmp_path))
    spec = BuildSpec("cross-s390x-qemu", ZIG, (), (), output="executable", target="s390x-linux-musl")
    first = expected(spec, "k" * 64)
    assert (first.seconds, first.basis) == (TYPICAL_SECONDS["zig static linux"], Basis.TYPICAL)
    assert first.describe() == f"about {TYPICAL_SECONDS['zig static linux']:.0f} s (typical)"
    note(tmp_path, "cross-s390x-qemu-" + "e" * 20, "zig ...\n97.60 s\n", age=0)
    again = expected(spec, "k" * 64)
    assert (again.seconds, again.basis, again.describe()) == (97.6, Basis.LAST_TIME, "about 98 s (last time here)")


@pytest.mark.skipif(shutil.which("gcc") is None and shutil.which("cc") is None, reason="no C compiler")
def test_a_column_builds_until_its_artifact_is_cached(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ORCA_CONFORMANCE_CACHE", str(tmp_path))
    runner = resolve("c")
    (build,) = pending_builds("c", runner)
    spec = runner.variant.spec()
    assert build.name == "c" and build.key == spec.key() and build.basis is Basis.TYPICAL
    target = artifact_path(spec, build.key)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"")
    assert pending_builds("c", runner) == ()


def test_a_column_that_compiles_nothing_or_cannot_run_here_builds_nothing(monkeypatch) -> None:
    assert pending_builds("reference", ReferenceRunner()) == ()
    monkeypatch.setenv("PATH", "")  # no qemu-user: the column is SKIPPED, nothing is built for it
    assert pending_builds("s390x:qemu", resolve("s390x:qemu")) == ()
