"""The object cache of host builds (conformance/runners/build/objects.py): a patched copy of the tree
recompiles only the files it changed, an object does not depend on where its tree lives, and a
library linked from cached objects has the instructions of the one-command build."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.runners.build import objects
from conformance.runners.build.layer import DETERMINISM_FLAGS, BuildFailed, BuildSpec, build, system_cc
from conformance.runners.build.sources import C_DIR, include_dirs, library_sources


def _tree(where: Path) -> Path:
    for folder in ("solver", "harness"):
        shutil.copytree(C_DIR / folder, where / folder)
    return where


def _spec(tree: Path, flags: tuple[str, ...] = ("-O0",)) -> BuildSpec:
    return BuildSpec(name="objects-test", toolchain=system_cc(), sources=library_sources(tree),
                     flags=DETERMINISM_FLAGS + flags, output="shared", include_dirs=include_dirs(tree),
                     link_flags=("-lm", "-pthread"))


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("ORCA_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "objects"


def _objects(cache: Path) -> set[Path]:
    return set(cache.glob("*/*.o"))


def test_a_patched_copy_recompiles_only_the_file_it_changed(tmp_path: Path, cache: Path) -> None:
    if not objects.per_object(_spec(C_DIR)):
        pytest.skip(f"the host compiler ({system_cc().name}) builds in one command")
    build(_spec(_tree(tmp_path / "a")))
    first = _objects(cache)
    assert len(first) == len(library_sources(C_DIR))
    patched = _tree(tmp_path / "b")
    source = patched / "solver" / "constraint.c"
    source.write_text(source.read_text() + "\n/* a patched copy */\n")
    build(_spec(patched))
    added = _objects(cache) - first
    assert [path.name.split("-")[0] for path in added] == ["constraint"]
    header = patched / "solver" / "vector.h"  # a header: every object that can include it again
    header.write_text(header.read_text() + "\n/* a patched header */\n")
    build(_spec(patched))
    assert len(_objects(cache)) == len(first) + 1 + len(library_sources(C_DIR))


def test_an_object_names_its_file_as_solver_slash_name_wherever_its_tree_lives(tmp_path: Path, cache: Path) -> None:
    spec_a, spec_b = _spec(_tree(tmp_path / "a")), _spec(_tree(tmp_path / "b"))
    if not objects.per_object(spec_a):
        pytest.skip(f"the host compiler ({system_cc().name}) builds in one command")
    simulator = [s for s in spec_a.sources if s.name == "simulator.c"][0]
    assert objects.object_key(spec_a, simulator) == objects.object_key(spec_b, tmp_path / "b" / "solver" / "simulator.c")
    made = objects.link(spec_a, tmp_path / "liborca.so", cache, timeout=300)
    data = [path for path in made if path.name.startswith("simulator-")][0].read_bytes()
    assert b"solver/simulator.c" in data  # its asserts' __FILE__
    assert str(tmp_path).encode() not in data


def _code(library: Path) -> list[str]:
    """The disassembly of ``library``, each instruction's addresses of constants left out."""
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(library)], capture_output=True, text=True,
                             check=True).stdout.splitlines()[3:]
    return [re.sub(r"0x[0-9a-f]+\(%rip\)|#.*$", "", line).strip() for line in listing]


def test_the_object_build_has_the_instructions_of_the_one_command_build(tmp_path: Path, cache: Path,
                                                                         monkeypatch) -> None:
    spec = _spec(C_DIR, ("-O2",))
    if not objects.per_object(spec) or shutil.which("objdump") is None:
        pytest.skip("needs a gcc-dialect host compiler and objdump")
    by_objects = build(spec).path
    monkeypatch.setattr(objects, "per_object", lambda spec: False)
    monkeypatch.setenv("ORCA_CONFORMANCE_CACHE", str(tmp_path / "one-command"))
    in_one = build(spec).path
    assert by_objects != in_one
    code = _code(by_objects)
    assert len(code) > 1000 and code == _code(in_one)  # only the rodata moved (shorter file names)


def test_a_source_that_does_not_compile_is_a_build_failure_naming_it(tmp_path: Path, cache: Path) -> None:
    tree = _tree(tmp_path / "a")
    broken = tree / "solver" / "fallback.c"
    broken.write_text(broken.read_text() + "\nthis is not C;\n")
    with pytest.raises(BuildFailed) as failed:
        build(_spec(tree))
    assert "objects-test: " in str(failed.value) and "fallback.c" in str(failed.value)
    assert "error" in str(failed.value)
    assert not list(cache.glob("*/fallback-*.o")) and not list(cache.glob("*/.compile-*"))
