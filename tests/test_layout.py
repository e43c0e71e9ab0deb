"""The shape of the code: stages that import only downward, small modules and functions, the C
port's two folders, no path hacks."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

from conformance.runners.build.sources import C_DIR, HARNESS, SOLVER, SOLVER_FILES
from conftest import ROOT

PACKAGE = ROOT / "conformance"
STAGES = ("contract", "data", "runners", "judge", "reports", "selftest", "solver")
MAX_MODULE_LINES = 600
"""A smell check, not a design rule: a module holds one concept, and one that outgrows this is
probably holding two."""
MAX_FUNCTION_LINES = 60
MAX_C_FUNCTION_LINES = 100

MIRRORS_THE_TEXT = {
    "conformance/solver/obstacle.py:support_distance":
        "the support-function form, one block per numbered step of the text (steps 1 to 4)",
}
"""Functions longer than the limit because they follow a numbered program of orca-spec.txt."""


def _functions(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.end_lineno - node.lineno + 1


def test_the_import_contracts_hold():
    """pyproject.toml's import-linter contracts: every stage imports only the ones below it, and
    no two modules of a stage import each other in a loop."""
    done = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "4 kept, 0 broken" in done.stdout, done.stdout[-2000:]


def test_every_stage_is_a_documented_package_and_no_module_is_left_beside_them():
    for stage in STAGES:
        init = PACKAGE / stage / "__init__.py"
        assert init.exists(), f"{stage}/ is not a package"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{stage}/__init__.py: no docstring"
    loose = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__", "__main__", "cli", "doctor", "errors", "jsonfile", "progress", "pytest_plugin",
                     "shipped"]
    packages = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    assert packages == sorted(STAGES + ("commands",)), "a package that is neither a stage nor the commands"


def test_no_module_or_function_is_too_long():
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{name}: {lines} lines")
        for function, length in _functions(path):
            if length > MAX_FUNCTION_LINES and f"{name}:{function}" not in MIRRORS_THE_TEXT:
                too_long.append(f"{name}:{function}: {length} lines")
    assert not too_long, "\n".join(too_long)


def test_the_exemptions_are_still_needed():
    for key in MIRRORS_THE_TEXT:
        file, function = key.split(":")
        lengths = dict(_functions(ROOT / file))
        assert lengths.get(function, 0) > MAX_FUNCTION_LINES, f"{key} is short now: drop its exemption"


def test_no_c_function_is_too_long():
    definition = re.compile(r"^[A-Za-z][^;()]*\b(\w+)\([^;]*\)\s*$")
    too_long = []
    for path in sorted((ROOT / "runners").rglob("*.c")):
        start = name = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = definition.match(line)
            if match and start is None:
                start, name = number, match.group(1)
            elif line.startswith("}") and start is not None:
                if number - start + 1 > MAX_C_FUNCTION_LINES:
                    too_long.append(f"{path.relative_to(ROOT)}:{name}: {number - start + 1} lines")
                start = None
    assert not too_long, "\n".join(too_long)


def test_the_c_solver_folder_mirrors_the_python_solver_and_nothing_else():
    assert sorted(p.name for p in (C_DIR / SOLVER).iterdir()) == sorted(SOLVER_FILES)
    python = {p.stem for p in (PACKAGE / "solver").glob("*.py")} - {"__init__"}
    c = {p.split(".")[0] for p in SOLVER_FILES} - {"orca"}
    assert c == python
    harness = {p.stem for p in (C_DIR / HARNESS).glob("*.c")}
    assert harness == {"driver", "scene", "state_hash", "step_threads"}
    assert not list(C_DIR.glob("*.[ch]")), "C sources beside the two folders"


def test_step_threaded_is_declared_once():
    declared = [p.relative_to(C_DIR).as_posix() for p in C_DIR.rglob("*.[ch]")
                if re.search(r"^void oc_Run_StepThreaded\([^)]*\);", p.read_text(encoding="utf-8"), re.M)]
    assert declared == ["harness/step_threads.h"]


def test_the_cffi_declarations_come_from_the_headers():
    from conformance.runners.c_api import CDEF
    exported = set()
    for header in list((C_DIR / SOLVER).glob("*.h")) + list((C_DIR / HARNESS).glob("*.h")):
        exported |= set(re.findall(r"^OC_API [^;(]*?\b(oc_\w+)\(", header.read_text(encoding="utf-8"), re.M))
    declared = set(re.findall(r"\b(oc_\w+)\(", CDEF))
    assert len(exported) > 60 and declared == exported


def test_tools_and_tests_do_not_edit_sys_path():
    offenders = [p.relative_to(ROOT).as_posix() for folder in ("tools", "tests") for p in (ROOT / folder).rglob("*.py")
                 if "sys.path." in p.read_text(encoding="utf-8") and p.name != "test_layout.py"]
    assert not offenders
