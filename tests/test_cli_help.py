"""Help and error messages: every command's --help says what it does, what it exits with and an
example; id lists come from the registries; a near miss gets one "did you mean", a far one none;
one wording per error class; the README's example outputs are ignored by git."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance import cli
from conformance.errors import InputError, did_you_mean
from conformance.runners import known_ids
from conformance.runners.port_build import buildable_columns
from conformance.runners.selection import chosen_runners
from conftest import ROOT

REPORT_FILES = ("report.json", "junit.xml", "matrix.md", "matrix.html", "clauses.html")


def commands(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, by the command as typed (``goldens regen``), walking the tree."""
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[prefix + name] = sub
                found.update(commands(sub, prefix + name + " "))
    return found


def help_of(*command: str) -> str:
    """The --help text of a command, unwrapped (one space between words)."""
    parser = cli.build_parser()
    text = commands(parser)[" ".join(command)].format_help() if command else parser.format_help()
    return " ".join(text.split())


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ------------------------------------------------------------------------------------- --help

def test_every_command_has_a_description_with_exit_codes_and_an_example() -> None:
    found = commands(cli.build_parser())
    assert {"matrix", "controls", "spec", "clauses", "build", "fuzz", "census", "merge", "render", "mutate",
            "doctor", "check", "expand", "goldens", "goldens regen", "goldens check"} <= set(found)
    for name, parser in found.items():
        assert parser.description and len(parser.description.split()) >= 15, name
        assert isinstance(parser.formatter_class, type)
        assert issubclass(parser.formatter_class, argparse.RawDescriptionHelpFormatter), name
        lines = (parser.epilog or "").splitlines()
        assert lines and lines[0].startswith("example"), name
        assert any(line.strip().startswith(f"orca-conformance {name}") for line in lines), name
        if name != "goldens":
            assert "Exit 0 when" in parser.description and "2 on bad input" in parser.description, name


def test_every_command_the_parser_stores_is_a_registered_one() -> None:
    from conformance.commands import COMMANDS
    leaves = [a for c in COMMANDS for a in (c.actions or (c,))]
    stored = [p.get_default("chosen") for p in commands(cli.build_parser()).values()]
    assert [c for c in stored if c is not None] == leaves


def test_spec_help_says_what_it_compares_and_its_exit_codes() -> None:
    text = help_of("spec")
    for words in ("SHA-256", "clause by clause", "line endings", "Exit 0 when", "1 when", "2 on bad input"):
        assert words in text


def test_runner_ids_in_the_help_are_every_id_of_the_registry() -> None:
    for command in ("matrix", "fuzz"):
        text = help_of(command)
        missing = [i for i in known_ids() if i not in text]
        assert not missing, (command, missing)
        assert "arm64:qemu" in text and "c:windows" in text and "control:<name>" in text


def test_build_help_names_every_buildable_column() -> None:
    text = help_of("build")
    assert [c for c in buildable_columns() if c not in text] == []
    assert "ppc64le:qemu" in text and "c:windows" in text


def test_ids_are_never_broken_at_a_hyphen() -> None:
    raw = commands(cli.build_parser())["matrix"].format_help()
    assert "c:O3-native" in raw and "wasm-v8" in raw


@pytest.mark.parametrize("command", ["matrix", "fuzz"])
def test_report_help_names_every_file_written(command: str) -> None:
    text = help_of(command)
    assert all(name in text for name in REPORT_FILES), text


def test_report_help_matches_what_a_matrix_report_writes(tmp_path: Path, capsys) -> None:
    code, _, _ = run(capsys, "--suite", str(ROOT), "matrix", "--runners", "reference", "--no-vectors", "--no-protocol",
                     "--scenarios", "orca/zero-agents", "--report", str(tmp_path))
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(REPORT_FILES)


def test_verbose_reaches_the_table(monkeypatch, capsys) -> None:
    from conformance.judge import cell_text
    seen = []
    monkeypatch.setattr(cell_text, "format_table", lambda result, verbose=False: seen.append(verbose) or "table")
    base = ["--suite", str(ROOT), "matrix", "--runners", "reference", "--no-vectors", "--no-protocol", "--scenarios", "orca/zero-agents"]
    assert cli.main(base) == 0 and cli.main(base + ["-v"]) == 0 and cli.main(base + ["--verbose"]) == 0
    assert seen == [False, True, True]


def test_verbose_reaches_the_fuzz_run(monkeypatch) -> None:
    from conformance.selftest.fuzz import command as fuzz_run
    seen = []
    monkeypatch.setattr(fuzz_run, "fuzz_runners",
                        lambda *args, verbose=False, protocol=False, frames=False: seen.append(verbose))
    monkeypatch.setattr(fuzz_run, "fuzz_failed", lambda result, say: False)
    for flag in ([], ["-v"], ["--verbose"]):
        assert cli.main(["--suite", str(ROOT), "fuzz", "--runners", "reference", "--count", "1", *flag]) == 0
    assert seen == [False, True, True]


# ----------------------------------------------------------------------------- did you mean

def test_did_you_mean_suggests_only_a_near_name() -> None:
    assert did_you_mean("matrx", ["matrix", "check"]) == "; did you mean 'matrix'?"
    assert did_you_mean("zzz", ["matrix", "check"]) == ""
    assert did_you_mean("cc", ["c", "wasm", "arm64"]) == "; did you mean 'c'?"
    assert did_you_mean("horizon-swp", ["horizon-swap"], prefix="control:") == "; did you mean 'control:horizon-swap'?"
    # below the folder: a shared 'orca/' never makes ids look alike; a glob by its literal part
    assert did_you_mean("orca/nosuch*", ["orca/touching", "orca/wall-gap"]) == ""
    assert did_you_mean("orca/nosuch", ["orca/touching"]) == ""
    near = did_you_mean("orca/hed-on*", ["orca/head-on-exact", "orca/touching"])
    assert near == "; did you mean 'orca/head-on-exact'?"
    assert did_you_mean("*", ["orca/touching"]) == ""


def test_an_unknown_command_is_one_line_with_the_nearest(capsys) -> None:
    assert run(capsys, "matrx") == (2, "", "error: unknown command 'matrx'; did you mean 'matrix'?\n")
    assert run(capsys, "goldens", "regn") == (2, "", "error: unknown command 'goldens regn'; did you mean "
                                                     "'goldens regen'?\n")
    code, out, err = run(capsys, "qqqq")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("error: unknown command 'qqqq'; known: matrix, ") and "did you mean" not in err


def test_an_unknown_column_runner_or_control_suggests_the_nearest(capsys) -> None:
    code, _, err = run(capsys, "doctor", "cc")
    assert code == 2 and err == "error: command line: doctor: unknown column 'cc'; did you mean 'c'?\n"
    code, _, err = run(capsys, "doctor", "qqqqqq")
    assert code == 2 and "unknown column 'qqqqqq'; known: " in err and "did you mean" not in err
    with pytest.raises(InputError, match=r"unknown runner 'wasm-v9'; did you mean 'wasm-v8'\?$"):
        chosen_runners(["wasm-v9"])
    code, _, err = run(capsys, "--suite", str(ROOT), "controls", "--only", "horizon-swp")
    assert code == 2 and err == ("error: command line: --only: no control matches 'horizon-swp'; "
                                 "did you mean 'horizon-swap'?\n")
    code, _, err = run(capsys, "--suite", str(ROOT), "fuzz", "--controls", "--only", "horizon-swap,nosuch")
    assert code == 2 and "no control matches 'nosuch'" in err and "did you mean" not in err
    code, _, err = run(capsys, "build", "c:clii", "--out", "x")
    assert code == 2 and "unknown column 'c:clii'; did you mean 'c:cli'?" in err


@pytest.mark.parametrize("pattern, hint", [
    ("orca/nosuch*", " (see: orca-conformance check --list)"),
    ("orca/hed-on*", "; did you mean 'orca/head-on-exact'?"),
    ("orca/head-on-exct", "; did you mean 'orca/head-on-exact'?"),
])
def test_a_scenario_glob_that_matches_nothing(capsys, pattern: str, hint: str) -> None:
    code, _, err = run(capsys, "--suite", str(ROOT), "matrix", "--runners", "reference", "--scenarios", pattern)
    assert code == 2 and err == f"error: command line: scenarios: no scenario matches {pattern!r}{hint}\n"


def test_a_misspelt_scenario_key_names_the_file_the_path_and_the_key(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "scenarios" / "orca"
    folder.mkdir(parents=True)
    text = (ROOT / "scenarios" / "orca" / "head-on-exact.yaml").read_text(encoding="utf-8")
    assert "max_speed: 1.0" in text
    path = folder / "head-on-exact.yaml"
    path.write_text(text.replace("max_speed: 1.0", "max_sped: 1.0"), encoding="utf-8")
    code, _, err = run(capsys, "--suite", str(tmp_path), "expand", "orca/head-on-exact")
    assert code == 2
    assert err == f"error: {path}: agent_defaults.max_sped: unknown key 'max_sped'; did you mean 'max_speed'?\n"
    path.write_text(text.replace("dt: 0.1", "dt: 0.1\nqqqqqqq: 1"), encoding="utf-8")
    code, _, err = run(capsys, "--suite", str(tmp_path), "expand", "orca/head-on-exact")
    assert code == 2 and err == f"error: {path}: qqqqqqq: unknown key 'qqqqqqq'\n"
    path.write_text(text.replace("- agent: {position: [5.0", "- agnet: {position: [5.0"), encoding="utf-8")
    code, _, err = run(capsys, "--suite", str(tmp_path), "expand", "orca/head-on-exact")
    assert code == 2 and err == f"error: {path}: agents[1].agnet: unknown key 'agnet'; did you mean 'agent'?\n"


# ------------------------------------------------------------------------------------- expand

def test_expand_takes_a_path_or_an_id(capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    by_id = run(capsys, "expand", "orca/head-on-exact")
    assert by_id[0] == 0 and json.loads(by_id[1])["id"] == "orca/head-on-exact"
    assert run(capsys, "expand", "scenarios/orca/head-on-exact.yaml") == by_id
    assert run(capsys, "expand", str(ROOT / "scenarios" / "orca" / "head-on-exact.yaml")) == by_id


def test_expand_of_a_file_outside_scenarios_is_one_clear_error(tmp_path: Path, capsys) -> None:
    outside = tmp_path / "head-on-exact.yaml"
    shutil.copy(ROOT / "scenarios" / "orca" / "head-on-exact.yaml", outside)
    code, out, err = run(capsys, "--suite", str(ROOT), "expand", str(outside))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"error: command line: id: {str(outside)!r} is not a file below {ROOT / 'scenarios'}")


# ------------------------------------------------------------------------------- one wording

def test_a_file_that_cannot_be_read_is_worded_one_way(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nothing.json"
    for argv in (["spec", str(missing)], ["merge", str(missing), "--out", str(tmp_path / "m")]):
        assert run(capsys, *argv) == (2, "", f"error: cannot read {missing}: No such file or directory\n")


def test_no_other_wording_of_an_unreadable_file_or_of_a_suggestion() -> None:
    other = re.compile(r"(could not|couldn't|can't|can not|unable to|failed to) (read|open)|cannot read:|"
                       r"not found \(", re.IGNORECASE)
    found = []
    for path in sorted((ROOT / "conformance").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.name}: {m.group(0)}" for m in other.finditer(text)]
        if path.name != "errors.py" and "get_close_matches" in text:
            found.append(f"{path.name}: get_close_matches outside errors.did_you_mean")
    assert not found


# ------------------------------------------------------------------------------- .gitignore

def _example_outputs() -> set[str]:
    """What the README's and docs' example commands write into the working folder."""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "ci" / "README.md"]
    values = set()
    for path in texts:
        for m in re.finditer(r"(?:--out|--report|--shrink-to)[ =]+([\w./-]+)", path.read_text(encoding="utf-8")):
            value = m.group(1).rstrip("./").removeprefix("./")
            if value and not value.isupper() and not value.startswith("docs/"):
                values.add(value)
    return values


def test_the_examples_outputs_are_ignored_and_nothing_tracked_is() -> None:
    outputs = _example_outputs()
    assert {"orca-port", "red", "r", "wall.png", "merged", "found", "fuzz-report"} <= outputs
    outputs |= {"orca-port.exe", "report"}
    paths = [p for o in sorted(outputs) for p in (o, f"{o}/x")]  # a file there, or one in a folder there
    done = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True)
    ignored = set(done.stdout.split())
    assert [o for o in sorted(outputs) if o not in ignored and f"{o}/x" not in ignored] == []
    tracked = subprocess.run(["git", "ls-files", "-i", "-c", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True)
    assert tracked.stdout == ""
