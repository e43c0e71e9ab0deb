"""A -ffast-math library loaded in-process must not change the harness's arithmetic
(conformance/runners/fpenv.py). Each check runs in its own process: a failure here must not poison the
floating-point environment of the test session."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT



@pytest.fixture(scope="module")
def fast_math_library(tmp_path_factory) -> Path:
    cc = shutil.which("gcc")
    if cc is None:
        pytest.skip("gcc not found: the crtfastmath start-up code this test loads is GCC's")
    folder = tmp_path_factory.mktemp("fastmath")
    (folder / "answer.c").write_text("int answer(void) { return 42; }\n")
    subprocess.run([cc, "-O2", "-ffast-math", "-shared", "-fPIC", str(folder / "answer.c"), "-o",
                    str(folder / "libanswer.so")], check=True)
    return folder / "libanswer.so"


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return done.stdout.strip()


def test_loading_a_fast_math_library_turns_on_flush_to_zero(fast_math_library: Path) -> None:
    # the hazard itself: without the restore, subnormals vanish in the whole process
    out = _run(f"import cffi; from conformance.runners import fpenv; cffi.FFI().dlopen({str(fast_math_library)!r}); "
               "print(fpenv.is_default())")
    assert out == "False"


def test_the_c_runner_loader_restores_the_environment(fast_math_library: Path) -> None:
    out = _run("from pathlib import Path; from conformance.runners import fpenv; from conformance.runners import c_api; "
               f"c_api.load(Path({str(fast_math_library)!r})); "
               "tiny = fpenv._SMALLEST; print(fpenv.is_default(), tiny * 0.5 > 0.0 or tiny + tiny > tiny)")
    assert out == "True True"
