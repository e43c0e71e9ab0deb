"""The hash matrix as pytest items: ``pytest --orca [--orca-runners c,wasm] [--orca-scenarios GLOB]``.

Contract: the plugin is opt-in.  Without ``--orca`` (or any other ``--orca-*`` option) it only
adds its options and a marker, so any other test run is unaffected.  With it, the session gets
one item per cell of the matrix, runner by runner, each row named like the matrix's
``orca/wall-gap[wasm]`` (the primitive vectors as ``vectors[wasm]``, the protocol row as
``protocol[wasm]``), all under the pseudo collector ``orca-conformance`` (node ids
``orca-conformance::orca/wall-gap[wasm]``), marked ``orca``.  A scenario item compares the
runner's hashes with the goldens through ``matrix.compare_scenario`` (the reference runs only to
diagnose a divergence); a vectors item is ``matrix.vector_cell``, a protocol item
``protocol_row.protocol_cell``.  PASS passes; DIVERGED fails with the diagnosis as the whole failure
text (no traceback); ERROR fails with the reason; SKIPPED, and every item of a runner that is
unavailable here, skips with the reason; a NOT PROVIDED vectors row (the port's hello leaves out
some families, all it provides pass) skips with the reason naming them (the plugin has no strict
mode: ``orca-conformance matrix --strict`` is the gate that requires every family).

Runners are created lazily, once per runner id per process (so each pytest-xdist worker has its
own, and items carry only ids and the scenario), and closed at session end.  Bad options (an
unknown runner id, a glob that matches nothing, no suite found) are a collection error of the
``orca-conformance`` collector, shown as one line.

Runner ids come from ``--orca-runners A,B`` (split on commas) and ``--orca-runner ID`` (one id
taken whole, for an ``exec:`` command that contains a comma), both repeatable, in the order
given, as ``orca-conformance matrix --runners``/``--runner`` take them.

Registered through the ``pytest11`` entry point ``orca_conformance``; before that is installed,
load it with ``-p conformance.pytest_plugin`` (not both: pytest refuses to load it twice).  In a
checkout whose own tests are collected too, ``-m orca`` runs the matrix items only::

    pytest --orca -m orca --orca-runners c,wasm --orca-scenarios 'orca/wall-*' -n 4
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # the suite's modules are imported only when the plugin is enabled
    from .judge.matrix import Cell
    from .runners.base import Runner
    from .contract.scenario import Scenario
    from .data.suite import Suite

COLLECTOR_NAME = "orca-conformance"
MARKER = "orca"
_PLUGIN_NAME = "orca-conformance-session"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("orca", "ORCA conformance hash matrix (orca-conformance)")
    group.addoption("--orca", action="store_true", default=False,
                    help="collect the hash matrix (scenarios x runners) as test items")
    group.addoption("--orca-runners", metavar="A,B", dest="orca_runner_ids", action=_RunnerIds, default=None,
                    help="comma-separated runner ids, repeatable (default: the matrix's default columns); "
                         "implies --orca")
    group.addoption("--orca-runner", metavar="ID", dest="orca_runner_ids", action=_RunnerIds, default=None,
                    help="one runner id taken whole, so an exec: command may contain commas; repeatable, "
                         "mixes with --orca-runners in the order given; implies --orca")
    group.addoption("--orca-scenarios", metavar="GLOB", action="append", default=None,
                    help="scenario id glob, repeatable (default: every non-slow scenario); implies --orca")
    group.addoption("--orca-all", action="store_true", default=False,
                    help="also the slow scenarios; implies --orca")
    group.addoption("--orca-suite", metavar="DIR", default=None,
                    help="suite checkout holding scenarios/ and goldens/ (default: as orca-conformance "
                         "finds it); implies --orca")


def enabled(config: pytest.Config) -> bool:
    opt = config.option
    return bool(getattr(opt, "orca", False) or getattr(opt, "orca_runner_ids", None) is not None
                or getattr(opt, "orca_scenarios", None) or getattr(opt, "orca_all", False)
                or getattr(opt, "orca_suite", None))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: an orca-conformance hash-matrix cell (added by --orca)")
    if enabled(config) and not config.pluginmanager.has_plugin(_PLUGIN_NAME):
        config.pluginmanager.register(OrcaSession(config), _PLUGIN_NAME)


def pytest_unconfigure(config: pytest.Config) -> None:
    plugin = config.pluginmanager.get_plugin(_PLUGIN_NAME)
    if plugin is not None:
        plugin.close()
        config.pluginmanager.unregister(plugin, _PLUGIN_NAME)


class _RunnerIds(argparse.Action):
    """``--orca-runners A,B`` (split on commas) and ``--orca-runner ID`` (one id, whole).

    Both add ``(option, id)`` pairs to one list, in the order given on the command line, so
    an error can name the option an id came from.
    """

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        given = list(getattr(namespace, self.dest, None) or [])
        option = self.option_strings[0]
        if option == "--orca-runners":
            given += [(option, r.strip()) for r in values.split(",") if r.strip()]
        else:
            given.append((option, values.strip()))
        setattr(namespace, self.dest, given)


def given_runners(config: pytest.Config) -> list[tuple[str, str]] | None:
    """``(option, id)`` of every runner asked for, in order (duplicate ids dropped); None if none was."""
    given = getattr(config.option, "orca_runner_ids", None)
    if given is None:
        return None
    first: dict[str, str] = {}
    for option, runner_id in given:
        first.setdefault(runner_id, option)
    return [(option, runner_id) for runner_id, option in first.items()]


def runner_ids(config: pytest.Config) -> list[str]:
    """The runner ids asked for, in order (duplicates dropped), or the default columns."""
    given = given_runners(config)
    if given is not None:
        return [runner_id for _, runner_id in given]
    from .runners import default_columns
    return default_columns()


class _Unusable:
    """Why a runner cannot be used in this process: skipped (unavailable) or failed (error)."""

    def __init__(self, skip: bool, reason: str):
        self.skip = skip
        self.reason = reason


class OrcaSession:
    """Per-process state of an enabled run: the suite, the runners, the vectors results."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.suite: Suite | None = None
        self._runners: dict[str, Runner | _Unusable] = {}
        self._vectors: dict[str, tuple[Cell, tuple[str, int] | None]] = {}
        self._protocol: dict[str, Cell] = {}
        self._reference: Runner | None = None

    # -- collection --------------------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        """Add the matrix items before -k/-m/--deselect (and --lf) filter the collection."""
        collector = OrcaCollector.from_parent(session, name=COLLECTOR_NAME, nodeid=COLLECTOR_NAME)
        items.extend(session.genitems(collector))

    # -- runtime -----------------------------------------------------------------------------

    def runner(self, runner_id: str) -> Runner | _Unusable:
        """The runner of an id, created and described once per process."""
        if runner_id not in self._runners:
            from .runners import resolve
            from .selftest.controls.catalogue import register_columns
            register_columns()
            from .runners.base import RunnerError, RunnerUnavailable
            runner = None
            try:
                runner = resolve(runner_id)
                runner.info()
                self._runners[runner_id] = runner
            except RunnerUnavailable as err:
                self._runners[runner_id] = _Unusable(True, f"runner {runner_id} unavailable: {err}")
            except RunnerError as err:
                self._runners[runner_id] = _Unusable(False, err.reason)
            if runner is not None and isinstance(self._runners[runner_id], _Unusable):
                _close_quietly(runner)
        return self._runners[runner_id]

    @property
    def reference(self) -> Runner:
        if self._reference is None:
            from .runners.reference import ReferenceRunner
            self._reference = ReferenceRunner()
        return self._reference

    def vectors(self, runner: Runner) -> tuple[Cell, tuple[str, int] | None]:
        """The vectors cell of a runner, computed once per process."""
        if runner.id not in self._vectors:
            from .judge.matrix import vector_cell
            assert self.suite is not None
            self._vectors[runner.id] = vector_cell(runner, self.suite.goldens_dir / "vectors")
        return self._vectors[runner.id]

    def protocol(self, runner: Runner) -> Cell:
        """The protocol row of a runner, exactly as the matrix computes it, once per process."""
        from .judge.protocol_row import protocol_cell
        if runner.id not in self._protocol:
            self._protocol[runner.id] = protocol_cell(runner)
        return self._protocol[runner.id]

    def compare(self, scenario: Scenario, runner: Runner) -> Cell:
        """One scenario cell, exactly as the matrix computes it."""
        from .judge.matrix import compare_scenario
        assert self.suite is not None
        known = self._vectors.get(runner.id)
        row = self._protocol.get(runner.id)
        # the vectors and protocol rows may have run in another worker, or been deselected: the
        # engine runs them here when a diagnosis needs them, as the matrix would have before this row
        return compare_scenario(scenario, runner, self.suite.goldens_dir, self.reference,
                                known[1] if known else (lambda: self.vectors(runner)[1]),
                                protocol=row.finding if row else (lambda: self.protocol(runner).finding))

    def close(self) -> None:
        runners = [r for r in self._runners.values() if not isinstance(r, _Unusable)]
        if self._reference is not None:
            runners.append(self._reference)
        self._runners.clear()
        self._reference = None
        for runner in runners:
            _close_quietly(runner)

    def pytest_sessionfinish(self) -> None:
        self.close()


def _close_quietly(runner: Any) -> None:
    try:
        runner.close()
    except Exception:  # noqa: BLE001 - closing must not hide the results
        pass


class OrcaCollector(pytest.Collector):
    """The pseudo collector ``orca-conformance``: one item per cell, runner by runner."""

    def collect(self) -> list[pytest.Item]:
        from .errors import InputError
        config = self.config
        state: OrcaSession = config.pluginmanager.get_plugin(_PLUGIN_NAME)
        try:  # the imports too: an installed suite missing files says so in one line (shipped.py)
            from .judge.matrix import PROTOCOL_ROW, VECTORS_ROW
            from .runners import known_ids, resolve
            from .selftest.controls.catalogue import register_columns
            register_columns()
            from .data.suite import Suite
            suite = Suite.locate(config.option.orca_suite)
            scenarios = suite.select(config.option.orca_scenarios or None, config.option.orca_all)
        except InputError as err:
            raise self.CollectError(f"orca-conformance: {err}".replace("--suite DIR", "--orca-suite DIR")) from None
        known = set(known_ids())  # registers the built-in columns (some add default ones) first
        ids = runner_ids(config)
        for option, runner_id in given_runners(config) or []:
            if not runner_id:
                raise self.CollectError(f"orca-conformance: {option}: empty runner id")
            if runner_id not in known:  # exec:, control: and typos, checked as orca-conformance matrix does
                try:
                    _close_quietly(resolve(runner_id))
                except InputError as err:
                    raise self.CollectError(f"orca-conformance: {option}: {err.reason}") from None
        if not ids:
            raise self.CollectError("orca-conformance: --orca-runners names no runner")
        state.suite = suite
        group = config.pluginmanager.hasplugin("xdist")
        items: list[pytest.Item] = []
        for runner_id in ids:
            rows: list[tuple[str, Scenario | None, Path]] = [(VECTORS_ROW, None, suite.goldens_dir / "vectors"),
                                                             (PROTOCOL_ROW, None, suite.goldens_dir)]
            rows += [(s.id, s, Path(s.source) if s.source else suite.scenarios_dir) for s in scenarios]
            for row, scenario, path in rows:
                item = OrcaItem.from_parent(self, name=f"{row}[{runner_id}]", path=path, row=row,
                                            runner_id=runner_id, scenario=scenario)
                item.add_marker(MARKER)
                if group:  # `-n N --dist loadgroup` keeps each runner in one worker
                    item.add_marker(pytest.mark.xdist_group(name=runner_id))
                items.append(item)
        return items


class CellFailed(Exception):
    """A red cell; its text is the whole failure report."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class OrcaItem(pytest.Item):
    """One cell: a scenario (or the vectors or protocol row) on one runner."""

    def __init__(self, *, row: str, runner_id: str, scenario: Scenario | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.row = row
        self.runner_id = runner_id
        self.scenario = scenario

    def runtest(self) -> None:
        from .judge.cell_text import cell_lines
        from .judge.matrix import DIVERGED, ERROR, NOT_PROVIDED, PROTOCOL_ROW, SKIPPED
        state: OrcaSession = self.config.pluginmanager.get_plugin(_PLUGIN_NAME)
        runner = state.runner(self.runner_id)
        if isinstance(runner, _Unusable):
            if runner.skip:
                pytest.skip(runner.reason)
            raise CellFailed(f"ERROR: {runner.reason}")
        if self.row == PROTOCOL_ROW:
            cell = state.protocol(runner)
        elif self.scenario is None:
            cell, _ = state.vectors(runner)
        else:
            cell = state.compare(self.scenario, runner)
        self.user_properties += [("orca_status", cell.short()), ("orca_compared", cell.compared),
                                 ("orca_seconds", round(cell.seconds, 3))]
        if cell.status in (SKIPPED, NOT_PROVIDED):
            pytest.skip(cell.reason)
        if cell.status in (DIVERGED, ERROR):  # the short form; with -v the whole diagnosis too
            lines = cell_lines(cell)
            if self.config.get_verbosity() > 0:
                lines += [f"{cell.status}: {cell.reason}"]
                if cell.diagnosis is not None:
                    lines += [f"  {note}" for note in cell.diagnosis.notes]
            raise CellFailed("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None):  # type: ignore[override]
        if isinstance(excinfo.value, CellFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name
