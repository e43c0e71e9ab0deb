"""The sdist and the wheel carry everything the gate needs (docs/install.md): every scenario,
golden, vector file, misreading, control, C and wasm source and the skeleton port; and the
package unpacked from the wheel, with no checkout around it, finds them, or says in one line
what is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

import conformance
from conftest import ROOT


def _installed(name: str) -> bool:
    """Whether a distribution is installed (by its metadata: the checkout's build/ folder is no
    ``build`` package)."""
    try:
        version(name)
    except PackageNotFoundError:
        return False
    return True


pytestmark = [pytest.mark.heavy,  # an sdist and a wheel built, one installed
              pytest.mark.skipif(not _installed("build"),
                                 reason="PyPI's build is not installed (pip install -e '.[test]' installs it)")]

SHIPPED = ("scenarios/", "goldens/", "runners/", "docs/census/census.json", "docs/mutation/equivalent.json",
           "docs/operators/equivalent.json")
"""What the package reads at run time beside its Python code (setup.py copies the same)."""
DOCUMENTS = ("docs/porting.md", "docs/protocol.md", "docs/spec-notes.md", "docs/install.md")
"""What a port author reads, which the wheel carries too (with every other ``docs/*.md``)."""


def _shipped(name: str) -> bool:
    return name.startswith(SHIPPED) or (name.startswith("docs/") and name.count("/") == 1 and name.endswith(".md"))

BUILT_OUTPUT = (".o", ".obj", ".a", ".so", ".dylib", ".dll", ".exe", ".wasm", ".pyc")


def _checkout_files() -> list[str]:
    """The checkout's files as git sees them: tracked or new, not ignored, still on disk."""
    done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return sorted({name for name in done.stdout.split("\0") if name and (ROOT / name).is_file()})


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    """``python -m build`` (the sdist, then the wheel from it) of a copy of the checkout, so
    that no build folder of the checkout is used or written."""
    top = tmp_path_factory.mktemp("package")
    files = _checkout_files()
    for name in files:
        (top / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, top / "src" / name)
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(top / "dist"), str(top / "src")],
                          cwd=top, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheel, = (top / "dist").glob("*.whl")
    sdist, = (top / "dist").glob("*.tar.gz")
    return {"top": top, "wheel": wheel, "sdist": sdist,
            "shipped": [name for name in files if _shipped(name)]}


def test_the_wheel_carries_every_shipped_file_of_the_checkout_under_conformance_suite(built):
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = wheel.namelist()
        listed = wheel.read("conformance/suite/FILES.txt").decode().splitlines()
        metadata = wheel.read(f"orca_conformance-{conformance.__version__}.dist-info/METADATA").decode()
    suite = sorted(n.removeprefix("conformance/suite/") for n in names if n.startswith("conformance/suite/"))
    assert suite == sorted(built["shipped"] + ["FILES.txt"])
    assert listed == built["shipped"]
    for kind in ("scenarios/orca/", "goldens/orca/", "goldens/vectors/", "runners/c/misreadings/",
                 "runners/c/controls/", "runners/c/solver/", "runners/c/harness/", "runners/c/cli/",
                 "runners/wasm/", "runners/freestanding/", "runners/skeleton-js/"):
        assert any(n.startswith(kind) for n in listed), f"no {kind} in the wheel"
    assert set(DOCUMENTS) <= set(listed), "the port author's documents are not in the wheel"
    assert not [n for n in names if n.endswith(BUILT_OUTPUT)]
    assert f"\nVersion: {conformance.__version__}\n" in metadata  # one version number
    assert "conformance/suite/docs/" in metadata  # the description says where the documents are


def test_the_sdist_carries_the_top_level_folders_as_they_are(built):
    with tarfile.open(built["sdist"]) as sdist:
        names = [n.split("/", 1)[1] for n in sdist.getnames() if "/" in n]
    assert set(built["shipped"]) <= set(names)
    assert {"setup.py", "MANIFEST.in", "pyproject.toml", "README.md", "conformance/shipped.py"} <= set(names)
    assert not [n for n in names if n.endswith(BUILT_OUTPUT) or "/.cache/" in n or n.startswith("build/")]


def _run(unpacked: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m conformance ARGS`` from the unpacked wheel (PYTHONPATH), in ``cwd``."""
    env = {k: v for k, v in os.environ.items() if k != "ORCA_CONFORMANCE_SUITE"}
    env["PYTHONPATH"] = str(unpacked)
    env["ORCA_CONFORMANCE_CACHE"] = str(unpacked.parent / "cache")
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_unpacked_wheel_finds_its_suite_from_an_empty_folder_or_says_what_is_missing(built, tmp_path):
    unpacked, empty = tmp_path / "unpacked", tmp_path / "empty"
    empty.mkdir()
    with zipfile.ZipFile(built["wheel"]) as wheel:
        wheel.extractall(unpacked)
    done = _run(unpacked, empty, "-c", "from conformance import shipped; print(shipped.require())")
    assert done.stdout.strip() == str(unpacked / "conformance" / "suite"), done.stderr
    done = _run(unpacked, empty, "-m", "conformance", "check")
    files = sum(1 for n in built["shipped"] if n.startswith("scenarios/") and n.endswith(".yaml"))
    here = subprocess.run([sys.executable, "-m", "conformance", "check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300).stdout  # the scenario files and their framed variants, as the checkout counts them
    assert files > 40 and here.startswith("check: ") and here.endswith(" scenarios, 0 problems\n"), here
    assert done.returncode == 0 and done.stdout == here, done.stdout + done.stderr  # the wheel has every one
    if shutil.which("cc") or shutil.which("gcc"):
        done = _run(unpacked, empty, "-m", "conformance", "matrix", "--runners", "c", "--scenarios", "orca/head-on-exact")
        assert done.returncode == 0 and "3 passed, 0 failed" in done.stdout, done.stdout[-2000:] + done.stderr
    done = _run(unpacked, empty, "-m", "conformance", "doctor")
    docs = unpacked / "conformance" / "suite" / "docs"
    assert f"documents for a port's author are in {docs}" in done.stdout, done.stdout[-2000:]
    assert (docs / "protocol.md").is_file() and (docs / "porting.md").is_file()
    (unpacked / "conformance" / "suite" / "runners" / "c" / "solver" / "vector.h").unlink()
    for args in (["doctor"], ["check"], ["--version"]):
        done = _run(unpacked, empty, "-m", "conformance", *args)
        assert done.returncode == 2 and done.stdout == "", done.stdout
        assert done.stderr.startswith("error: the installed suite's files are incomplete: 1 missing"), done.stderr
        assert "(suite/runners/c/solver/vector.h)" in done.stderr and "pip install --force-reinstall" in done.stderr
        assert len(done.stderr.splitlines()) == 1
    assert not list(unpacked.rglob("*.o")) and not (unpacked / "conformance" / "suite" / ".cache").exists()
