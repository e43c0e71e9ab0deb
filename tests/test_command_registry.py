"""Each command is one object in one module, and the registry is the only list: a command
registered there (and nowhere else) is in ``--help``, has its own ``--help`` with its exit codes
and examples, is dispatched to, and its exit code and bad input are the CLI's."""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import pytest

from conformance import cli, commands
from conformance.commands import COMMANDS, Command, register, unregister
from conformance.errors import InputError

SKIP = ("command", "options")
"""The modules of ``conformance.commands`` that hold no command: the ``Command`` class, the shared options."""


def _toy_run(args: argparse.Namespace) -> int:
    if args.bad:
        raise InputError("command line", "--bad", "the toy refuses")
    print(f"toy ran with {args.code}")
    return args.code


def _toy_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--code", type=int, default=0, help="the exit code to return")
    p.add_argument("--bad", action="store_true", help="raise bad input")


TOY = Command("toy", "a toy command that exits with the code it is given", """
A toy command of the registry's test: it prints the code it is given and exits
with it, or raises bad input with --bad, so that the test sees the CLI dispatch
to a command that only the registry names.""",
              ("orca-conformance toy --code 1",), ok="the code is 0", failed="the code is 1",
              add_arguments=_toy_arguments, run=_toy_run)


@pytest.fixture
def toy():
    """The toy command, registered for one test and dropped after it, whatever the test does."""
    register(TOY)
    try:
        yield TOY
    finally:
        unregister(TOY.name)
    assert TOY not in COMMANDS


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_registered_command_is_in_the_help_and_has_its_own(toy, capsys) -> None:
    code, out, _ = run_help(capsys)
    assert code == 0
    assert "toy" in out and "a toy command that exits with the code it is given" in out
    listed = [line.split()[0] for line in out.split("  COMMAND\n")[1].split("\noptions:")[0].splitlines()
              if line.startswith("    ") and not line.startswith("     ")]
    assert listed == [c.name for c in COMMANDS] and listed[-1] == "toy"
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["toy"]
    text = sub.format_help()
    assert "Exit 0 when the code is 0; 1 when the code is 1; 2 on bad input or usage" in " ".join(text.split())
    assert text.rstrip().endswith("examples:\n  orca-conformance toy --code 1")
    assert "--code CODE" in text


def run_help(capsys) -> tuple[int, str, str]:
    """``orca-conformance --help``: argparse exits 0 after printing it."""
    with pytest.raises(SystemExit) as exited:
        cli.main(["--help"])
    captured = capsys.readouterr()
    return exited.value.code, captured.out, captured.err


@pytest.mark.parametrize("code", [0, 1, 7])
def test_the_cli_dispatches_to_it_and_returns_its_exit_code(toy, capsys, code: int) -> None:
    assert run(capsys, "toy", "--code", str(code)) == (code, f"toy ran with {code}\n", "")


def test_its_bad_input_and_usage_errors_are_the_clis(toy, capsys) -> None:
    assert run(capsys, "toy", "--bad") == (2, "", "error: command line: --bad: the toy refuses\n")
    assert run(capsys, "toy", "--cod", "1") == (2, "", "error: orca-conformance toy: unknown option '--cod'; "
                                                     "did you mean '--code'?\n")
    assert run(capsys, "tyo") == (2, "", "error: unknown command 'tyo'; did you mean 'toy'?\n")


def test_a_group_of_actions_registers_the_same_way(capsys) -> None:
    action = Command("act", "the group's one action", "It runs the toy.", ("orca-conformance toys act",),
                     ok="the code is 0", add_arguments=_toy_arguments, run=_toy_run)
    register(Command("toys", "a toy group", "A group of one action.", ("orca-conformance toys act",),
                     actions=(action,)))
    try:
        assert run(capsys, "toys", "act", "--code", "1") == (1, "toy ran with 1\n", "")
        assert run(capsys, "toys", "atc") == (2, "", "error: unknown command 'toys atc'; did you mean 'toys act'?\n")
    finally:
        unregister("toys")


def test_a_name_is_never_taken_twice_and_a_command_is_whole() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(Command("matrix", "again", "again", ("orca-conformance matrix",), ok="x", run=_toy_run))
    assert [c.name for c in COMMANDS].count("matrix") == 1
    with pytest.raises(ValueError, match="no example"):
        Command("x", "x", "x", (), ok="x", run=_toy_run)
    with pytest.raises(ValueError, match="needs a run"):
        Command("x", "x", "x", ("orca-conformance x",))
    with pytest.raises(ValueError, match="not a run of its own"):
        Command("x", "x", "x", ("orca-conformance x",), run=_toy_run, actions=(TOY,))


def _command_modules() -> dict[str, Command]:
    """Every module of ``conformance.commands`` but the shared ones, with its ``COMMAND``."""
    found = {}
    for info in pkgutil.iter_modules(commands.__path__):
        if info.name not in SKIP:
            found[info.name] = importlib.import_module(f"conformance.commands.{info.name}").COMMAND
    return found


def test_every_command_module_is_registered_once_under_its_own_name() -> None:
    modules = _command_modules()
    assert len(modules) >= 15
    assert sorted(modules.values(), key=lambda c: c.name) == sorted(COMMANDS, key=lambda c: c.name)
    assert all(module == command.name for module, command in modules.items())


def test_every_command_object_has_help_text_exit_codes_and_examples() -> None:
    for group in COMMANDS:
        for command, typed in [(group, group.name)] + [(a, f"{group.name} {a.name}") for a in group.actions]:
            assert command.summary and "\n" not in command.summary, typed
            assert len(command.about.split()) >= 15, typed
            assert command.examples and all(e.startswith("orca-conformance ") for e in command.examples), typed
            assert any(e.startswith(f"orca-conformance {typed}") for e in command.examples), typed
            assert command.epilog.startswith("examples:\n"), typed
            assert bool(command.actions) == (command.run is None), typed
            if command.run is not None:
                text = " ".join(command.description.split())
                assert command.ok and "Exit 0 when" in text and "2 on bad input or usage" in text, typed
