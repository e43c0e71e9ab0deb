"""The ``orca-conformance`` command: one ``cmd_<verb>`` handler per subcommand.

Exit codes: 0 success; 1 the suite ran and found a failure (mismatch, divergence, lint
problem); 2 bad input or usage (one line naming the file, key path and reason).
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
import time
from pathlib import Path

from . import __version__
from .selftest import controls  # noqa: F401  (registers the control:<name> columns)
from .data import vectors
from .errors import InputError
from .data.goldens import OK as GOLDEN_OK
from .data.goldens import (compute_golden, first_difference, golden_path, golden_status, orphans, read_golden, write_golden)
from .contract.expectations import check_expectations
from .progress import Progress
from .contract.scenario import Scenario, canonical_json, one_line
from .data.suite import Suite

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


def _print(*args: object) -> None:
    """A line on stdout; above the progress bar while one is drawn (never over it)."""
    if Progress.active is not None:
        Progress.active.note(" ".join(str(a) for a in args), sys.stdout)
    else:
        print(*args, flush=True)


def cmd_doctor(args: argparse.Namespace) -> int:
    """Every column (or the ones named), its needs, which are present (with versions) and the
    install commands of the missing ones.  Exit 0 whatever is missing; an unknown id is bad input."""
    from .doctor import format_doctor
    from .runners import known_ids
    for column in args.columns:
        if not column.startswith(("exec:", "control:")) and column not in known_ids():
            raise InputError("command line", "doctor", f"unknown column {column!r}; known: {', '.join(known_ids())}")
    text, _ = format_doctor(args.columns or None)
    _print(text)
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    """Lint the suite: schema, unique ids, every scenario has a fresh golden whose figures meet
    the scenario's ``expect:``, no orphans.  Every problem is listed, however many files are
    broken: bad input (a broken scenario, golden or vector file) as one ``error:`` line each
    on stderr and exit 2; lint problems as ``FAIL`` lines and exit 1."""
    suite = Suite.locate(args.suite)
    loaded = suite.load()
    scenarios = list(loaded.scenarios)
    bad_input = [b.error for b in loaded.broken]
    if args.list:
        for s in scenarios:
            _print(s.id + ("  (slow)" if s.slow else ""))
        for err in bad_input:
            print(f"error: {err}", file=sys.stderr, flush=True)
        return EXIT_BAD_INPUT if bad_input else EXIT_OK
    problems = []
    for s in scenarios:
        try:
            status = golden_status(suite.goldens_dir, s)
        except InputError as err:
            bad_input.append(err)
            continue
        if status.kind != GOLDEN_OK:
            problems.append(status.problem(s.id, status.path.relative_to(suite.root)))
        else:
            for violation in check_expectations(s, status.golden.figures):
                problems.append(f"{s.id}: {violation} ({Path(s.source).relative_to(suite.root)}; "
                                "the golden's figures are the reference's: loosen the bound or change the scene)")
    # a broken file's golden is not an orphan: its scenario is still there, only unreadable
    known = [s.id for s in scenarios] + [b.presumed_id for b in loaded.broken]
    for orphan in orphans(suite.goldens_dir, known):
        problems.append(f"{orphan.relative_to(suite.root)}: orphan golden (no scenario has this id)")
    for family in vectors.FAMILIES:
        path = vectors.vector_path(suite.goldens_dir / "vectors", family.name)
        if not path.exists():
            problems.append(f"vectors/{path.name}: missing; run: orca-conformance goldens regen")
        else:
            try:
                vectors.read_vectors(path)
            except InputError as err:
                bad_input.append(err)
    for p in problems:
        _print("FAIL", p)
    for err in bad_input:
        print(f"error: {one_line(err)}", file=sys.stderr, flush=True)
    _print(f"check: {_plural(len(scenarios), 'scenario')}, {_plural(len(problems), 'problem')}"
           + (f", {_plural(len(bad_input), 'broken file')}" if bad_input else ""))
    if bad_input:
        return EXIT_BAD_INPUT
    if not scenarios:
        _print("check: no scenarios found")
        return EXIT_FAILED
    return EXIT_FAILED if problems else EXIT_OK


def cmd_expand(args: argparse.Namespace) -> int:
    """Print the expanded scenario of one id (canonical JSON)."""
    scenario = Suite.locate(args.suite).scenario(args.id)
    sys.stdout.write(canonical_json(scenario.expanded()).decode("ascii") + "\n")
    return EXIT_OK


def _run_reference(scenarios: list[Scenario], suite: Suite):
    total = sum(s.scene.steps + 1 for s in scenarios)
    with Progress(total, "reference") as bar:
        for s in scenarios:
            started = time.perf_counter()
            golden = compute_golden(s, suite.goldens_dir, on_step=lambda _k: bar.advance(label=s.id))
            yield s, golden, time.perf_counter() - started


def cmd_goldens_regen(args: argparse.Namespace) -> int:
    """Regenerate goldens from the reference; atomic writes; report every change.

    A golden whose figures violate its scenario's own ``expect:`` is not written (REFUSED,
    one line per violated bound); the others are, and the command then exits 1.
    """
    suite = Suite.locate(args.suite)
    ids = args.ids or []
    families = [i[len("vectors/"):] for i in ids if i.startswith("vectors/")]
    unknown = [f for f in families if f not in vectors.FAMILY_BY_NAME]
    if unknown:
        raise InputError("command line", "ids", f"no vector family {unknown[0]!r}; known: "
                         + ", ".join(f.name for f in vectors.FAMILIES))
    scenario_ids = [i for i in ids if not i.startswith("vectors/")]
    scenarios = suite.select(scenario_ids, args.all) if scenario_ids or not families else []
    started = time.perf_counter()
    changed = 0
    refused = 0
    for s, golden, seconds in _run_reference(scenarios, suite):
        path = golden_path(suite.goldens_dir, s.id)
        violations = check_expectations(s, golden.figures)
        if violations:
            # a golden is written only for a valid scenario: one whose own expect: the
            # reference meets; the old golden (if any) stays as it was
            refused += 1
            for violation in violations:
                _print(f"{'REFUSED':<10} {s.id}: {violation}; golden not written "
                       f"({Path(s.source).relative_to(suite.root)}: loosen the bound or change the scene)")
            continue
        old = read_golden(path) if path.exists() else None
        if old is None:
            verdict = "new"
        else:
            k = first_difference(old.hashes, golden.hashes)
            if k is None and old.fingerprint == golden.fingerprint and old.figures == golden.figures:
                _print(f"unchanged  {s.id}  ({seconds:.1f} s)")
                continue
            verdict = "changed" + (f" (first differing step {k})" if k is not None else " (fingerprint or figures only)")
        write_golden(golden, path)
        changed += 1
        _print(f"{verdict:<10} {s.id}  ({seconds:.1f} s) -> {path.relative_to(suite.root)}")
    if not ids or families:
        for name, verdict in vectors.regenerate_all(suite.goldens_dir / "vectors", families or None):
            if verdict != "unchanged":
                changed += 1
            _print(f"{verdict:<10} vectors/{name}")
    _print(f"goldens regen: {_plural(len(scenarios), 'scenario')}, {changed} written, "
           + (f"{refused} refused (the reference does not meet their expect:), " if refused else "")
           + f"{time.perf_counter() - started:.1f} s")
    return EXIT_FAILED if refused else EXIT_OK


def cmd_goldens_check(args: argparse.Namespace) -> int:
    """Re-run the reference and compare with the goldens; fail on any difference."""
    suite = Suite.locate(args.suite)
    scenarios = suite.select(args.ids, args.all)
    problems = 0
    compared = 0
    started = time.perf_counter()
    everything = suite.scenarios()
    skipped = [s for s in everything if s.slow and s not in scenarios and not args.ids]
    for s, golden, seconds in _run_reference(scenarios, suite):
        status = golden_status(suite.goldens_dir, s)
        if status.kind != GOLDEN_OK:
            _print(f"{status.kind.upper():<9} {status.problem(s.id, status.path.relative_to(suite.root))}")
            problems += 1
            continue
        k = first_difference(status.golden.hashes, golden.hashes)
        compared += len(golden.hashes)
        if k is not None:
            _print(f"MISMATCH  {s.id}: first differing step {k} ({seconds:.1f} s)")
            problems += 1
        else:
            _print(f"ok        {s.id}  {len(golden.hashes)} states ({seconds:.1f} s)")
    if not args.ids:
        vector_problems = vectors.check_all(suite.goldens_dir / "vectors")
        for problem in vector_problems:
            _print(f"VECTORS   {problem}")
        problems += len(vector_problems)
        if not vector_problems:
            _print(f"ok        vectors: {len(vectors.FAMILIES)} families")
    for s in skipped:
        _print(f"SKIPPED   {s.id}: slow (add --all)")
    if not args.ids:
        for orphan in orphans(suite.goldens_dir, [s.id for s in everything]):
            _print(f"ORPHAN    {orphan.relative_to(suite.root)}")
            problems += 1
    _print(f"goldens check: {len(scenarios)} scenarios, {compared} states compared, "
           f"{problems} problems, {len(skipped)} skipped, {time.perf_counter() - started:.1f} s")
    if compared == 0 and problems == 0:
        _print("goldens check: nothing was compared")
        return EXIT_FAILED
    return EXIT_FAILED if problems else EXIT_OK


def split_runner_list(text: str) -> list[str]:
    """``--runners A,B``: the ids between commas, stripped, blanks dropped.

    A comma always separates ids here; an ``exec:`` command that contains one is given whole
    with ``--runner`` instead.
    """
    return [r.strip() for r in text.split(",") if r.strip()]


def one_runner_id(text: str) -> str:
    """``--runner ID``: one id taken whole (commas included), stripped; never empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("empty runner id")
    return text.strip()


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def cmd_matrix(args: argparse.Namespace) -> int:
    """Every scenario on every runner, compared with the goldens; the suite's main job."""
    from .judge.matrix import format_table, run_matrix
    from .runners import default_columns, resolve
    suite = Suite.locate(args.suite)
    patterns = args.scenarios or None
    scenarios = suite.select(patterns, args.all)
    if args.runner_ids is None:
        runner_ids = default_columns()
    else:
        runner_ids = list(dict.fromkeys(args.runner_ids))  # in the order given, duplicates dropped
        if not runner_ids:
            raise InputError("command line", "runners", "names no runner (--runners A,B or --runner ID)")
        for runner_id in runner_ids:
            resolve(runner_id)  # unknown ids are bad input, before anything runs
    result = run_matrix(scenarios, runner_ids, suite.goldens_dir, with_vectors=not args.no_vectors, jobs=args.jobs)
    _print(format_table(result))
    failed = result.failed()
    skipped = sum(1 for c in result.cells.values() if c.status == "SKIPPED")
    passed = sum(1 for c in result.cells.values() if c.status == "PASS")
    _print(f"\nmatrix: {_plural(len(scenarios), 'scenario')} x {_plural(len(runner_ids), 'runner')}: "
           f"{passed} passed, {len(failed)} failed, {skipped} skipped; {result.compared()} states and vectors "
           f"compared in {result.seconds:.1f} s")
    if args.report:
        from .reports.report import write_reports
        for path in write_reports(result, suite, Path(args.report)):
            _print(f"report: {path}")
    if result.compared() == 0:
        if not result.cells:
            cause = "no scenario selected and no vectors row"
        elif failed:
            cause = "every cell that ran ended in ERROR (see the ERROR lines above)"
        else:
            cause = "every runner was skipped (see the SKIPPED lines above)"
        _print(f"matrix: nothing was compared: {cause}")
        return EXIT_FAILED
    if args.strict and skipped:
        _print(f"matrix: --strict: {_plural(skipped, 'skipped cell')} fail the gate (a gate must not pass on "
               "columns that did not run)")
        return EXIT_FAILED
    return EXIT_FAILED if failed else EXIT_OK


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def cmd_controls(args: argparse.Namespace) -> int:
    """Run the negative controls and the misreading catalogue; each must be caught in a scene."""
    from fnmatch import fnmatchcase

    from .selftest.controls import CONTROLS, format_controls, run_control, summarize
    suite = Suite.locate(args.suite)
    scenarios = suite.select(None, False)
    patterns = [p for p in (args.only or "").split(",") if p]
    chosen = [c for c in CONTROLS if not patterns or any(fnmatchcase(c.name, p) for p in patterns)]
    if not chosen:
        raise InputError("command line", "--only", f"no control matches {args.only!r}")
    results = []
    with Progress(len(chosen), "controls") as bar:
        for control in chosen:
            bar.advance(0, label=control.name)
            results.append(run_control(control, scenarios, suite.goldens_dir))
            bar.advance(1)
    _print(format_controls(results))
    counts, gaps = summarize(results)
    _print("\ncontrols: " + ", ".join(f"{n} {status.lower()}" for status, n in sorted(counts.items())))
    if gaps:
        _print("controls: not caught in any scenario: " + ", ".join(gaps)
               + " (add a scene that reaches the decision, or argue equivalence in the entry)")
    compared = sum(n for status, n in counts.items() if status != "SKIPPED")
    return EXIT_FAILED if gaps or compared == 0 else EXIT_OK


def cmd_spec(args: argparse.Namespace) -> int:
    """Check that a copy of the normative text is the version the goldens were made against."""
    from .contract import spec_text
    path = Path(args.file)
    result = spec_text.check(path)
    _print(result.message(path))
    return EXIT_OK if result.exact else EXIT_FAILED


def cmd_build(args: argparse.Namespace) -> int:
    """Build one column's port (CLI executable, shared library or wasm module) to a chosen path."""
    from .runners.build_command import CannotBuild, build_port, output_path, plan
    chosen = plan(args.column)
    out = output_path(chosen, Path(args.out))
    _print(chosen.headline())
    try:
        built = build_port(chosen, out)
    except CannotBuild as err:
        print(f"error: build {chosen.column}: {err}", file=sys.stderr)
        return EXIT_FAILED
    for line in built.lines():
        _print(line)
    return EXIT_OK


def cmd_census(args: argparse.Namespace) -> int:
    """The boundary census of the reference: data on every decision site, in vectors and scenes."""
    from .selftest import census
    from .jsonfile import write_json_atomic
    suite = Suite.locate(args.suite)
    scenarios = suite.select(None, False)
    path = census.census_path(suite.root)
    vector_folder = suite.goldens_dir / "vectors"
    if args.check:
        problems = census.check_committed(path, vector_folder, scenarios)
        for problem in problems:
            _print(problem)
        _print(f"census check: {len(problems)} problems")
        return EXIT_FAILED if problems else EXIT_OK
    sites = census.find_sites()
    started = time.perf_counter()
    with Progress(len(scenarios) + 1, "census") as bar:
        def advance(scenario_id: str) -> None:
            bar.advance(1, label=scenario_id)
        tally = census.run_census(vector_folder, scenarios, on_scenario=advance)
        bar.advance(1)
    table = census.rows(sites, tally)
    _print(census.format_table(table))
    _print(f"census: vectors and {len(scenarios)} scenarios in {time.perf_counter() - started:.1f} s")
    if args.write:
        write_json_atomic(path, census.to_document(table, census.digest(vector_folder, scenarios)))
        _print(f"census: wrote {path.relative_to(suite.root)}")
    gaps = census.unresolved(table)
    if gaps:
        _print(f"census: {len(gaps)} sites neither covered nor argued")
    return EXIT_FAILED if gaps else EXIT_OK


def cmd_merge(args: argparse.Namespace) -> int:
    """Combine per-platform reports into one matrix (JSON, Markdown, HTML)."""
    from .reports.merge import load_report, merge_reports, write_merged
    reports = [(str(p), load_report(Path(p))) for p in args.reports]
    merged = merge_reports(reports)
    for path in write_merged(merged, Path(args.out)):
        _print(f"merged: {path}")
    s = merged["summary"]
    _print(f"merge: {len(reports)} reports, {len(merged['columns'])} columns: {s['PASS']} passed, "
           f"{s['DIVERGED']} diverged, {s['ERROR']} errors, {s['SKIPPED']} skipped")
    return EXIT_FAILED if s["DIVERGED"] or s["ERROR"] else EXIT_OK


def cmd_render(args: argparse.Namespace) -> int:
    """Draw one scenario's trajectories on one runner."""
    from .reports.drawing import PlotUnavailable
    from .reports.render import render
    from .runners import resolve
    from .runners.base import RunnerError, RunnerUnavailable
    suite = Suite.locate(args.suite)
    scenario = suite.scenario(args.id)
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png", ".gif"):
        raise InputError("command line", "--out", "the picture must end in .svg, .png or .gif")
    runner = resolve(args.runner)
    try:
        frames = render(scenario, runner, out, args.every, args.steps)
    except (RunnerError, RunnerUnavailable, PlotUnavailable) as err:
        print(f"error: render: {err}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        runner.close()
    _print(f"render: {out} ({frames} frames of {scenario.id} on {runner.id})")
    return EXIT_OK


def cmd_mutate(args: argparse.Namespace) -> int:
    """Mutation testing of the C port against the scenarios and vectors."""
    import random as _random
    from .selftest.mutate import (SURVIVED, generate_mutants, is_equivalent, load_equivalent, load_gap_notes, run_mutants, score, write_report)
    suite = Suite.locate(args.suite)
    if args.evidence:
        return _mutate_evidence(suite, args.jobs)
    mutants = generate_mutants()
    if args.only:
        patterns = [p for group in args.only for p in group.split(",") if p]
        mutants = [m for m in mutants if any(fnmatch.fnmatchcase(m.id, p) for p in patterns)]
        if not mutants:
            _print(f"mutate: no mutant id matches {', '.join(patterns)}")
            return EXIT_BAD_INPUT
    if args.sample:
        mutants = sorted(_random.Random(args.seed).sample(mutants, min(args.sample, len(mutants))), key=lambda m: m.id)
    reviewed_path = suite.root / "docs" / "mutation" / "equivalent.json"
    equivalent = load_equivalent(reviewed_path)
    started = time.perf_counter()
    with Progress(len(mutants), "mutants") as bar:
        outcomes = run_mutants(mutants, suite.root, args.jobs, args.timeout,
                               progress=lambda o: bar.advance(1, label=f"{o.status} {o.mutant.id}"))
    seconds = time.perf_counter() - started
    summary = score(outcomes, equivalent)
    reviewed = load_gap_notes(reviewed_path)
    unreviewed = 0
    for o in outcomes:
        if o.status == SURVIVED and not is_equivalent(o.mutant.id, equivalent):
            tag = "GAP" if o.mutant.id in reviewed else "UNREVIEWED"
            unreviewed += o.mutant.id not in reviewed
            _print(f"{tag:<10}{o.mutant.diff()}".replace("\n", "\n          "))
    if args.out:
        for path in write_report(outcomes, equivalent, Path(args.out), seconds, reviewed):
            _print(f"report: {path}")
    _print(f"mutate: {summary['mutants']} mutants, {summary['killed']} killed, {summary['survived']} survived "
           f"({summary['equivalent']} reviewed equivalent, {summary['gaps']} gaps, {unreviewed} of them unreviewed), "
           f"{summary['build_failed']} build failures, {summary['timeout']} timeouts; score "
           f"{100 * summary['score']:.1f} %, on non-equivalent mutants {100 * summary['score_non_equivalent']:.1f} %; "
           f"{seconds:.0f} s")
    # fails on survivors nobody has reviewed (a new gap or a stale equivalence claim)
    return EXIT_FAILED if unreviewed else EXIT_OK


def _mutate_evidence(suite: Suite, jobs: int | None) -> int:
    """Gathers the evidence of every reviewed equivalent mutant whose evidence is missing or was
    taken on other C sources, and writes it into docs/mutation/equivalent.json."""
    import dataclasses
    from concurrent.futures import ThreadPoolExecutor
    from .selftest.mutate import (evidence_cases, gather_evidence, generate_mutants, load_equivalent, save_equivalent)
    path = suite.root / "docs" / "mutation" / "equivalent.json"
    entries = load_equivalent(path)
    by_id = {m.id: m for m in generate_mutants()}
    unknown = sorted(set(entries) - set(by_id))
    for mutant_id in unknown:
        _print(f"STALE     {mutant_id}: no such mutant of the current sources (review it again)")
    todo = [by_id[i] for i in entries if i in by_id and not (entries[i].evidence and entries[i].evidence.holds())]
    started = time.perf_counter()
    cases = evidence_cases()
    contradicted = 0
    with Progress(len(todo), "mutants") as bar, ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for mutant, ev in zip(todo, pool.map(lambda m: gather_evidence(m, cases, suite.root), todo)):
            entries[mutant.id] = dataclasses.replace(entries[mutant.id], evidence=ev)
            save_equivalent(path, entries)
            bar.advance(1, label=mutant.id)
            if not ev.holds():
                contradicted += 1
                _print(f"NOT EQUIVALENT {mutant.id}: {ev.differ} of {ev.compared} cases differ ({ev.first})")
    _print(f"mutate --evidence: {len(todo)} gathered, {contradicted} contradicted, {len(unknown)} stale; "
           f"{time.perf_counter() - started:.0f} s")
    return EXIT_FAILED if contradicted or unknown else EXIT_OK


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Differential testing on seeded random scenes, with shrinking (conformance/fuzz.py)."""
    from fnmatch import fnmatchcase

    from .selftest import fuzz
    from .runners import resolve
    suite = Suite.locate(args.suite)
    kinds = fuzz.parse_kinds(args.kinds)
    seconds = fuzz.parse_duration(args.time) if args.time is not None else None
    if args.count is not None and args.count < 1:
        raise InputError("command line", "--count", "must be at least 1")
    shrink_to = Path(args.shrink_to) if args.shrink_to else None
    if args.controls:
        from .selftest.controls import CONTROLS
        patterns = [p for p in (args.only or "").split(",") if p]
        chosen = [c for c in CONTROLS if not patterns or any(fnmatchcase(c.name, p) for p in patterns)]
        if not chosen:
            raise InputError("command line", "--only", f"no control matches {args.only!r}")
        _print(f"{'control':<32} {'fixed':<12} fuzz (seed {args.seed}, up to {args.count or 30} scenes each)")
        rows = fuzz.fuzz_controls(chosen, suite.select(None, False), suite.goldens_dir, args.seed,
                                  args.count or 30, kinds, shrink_to, on_result=lambda r: _print(fuzz.format_control_fuzz(r)))
        gaps = [r for r in rows if r.points_at_scenario()]
        missed = [r.fixed.control.name for r in rows if r.fuzz is not None and r.caught is None
                  and r.fixed.status not in ("CAUGHT", "EQUIVALENT", "NO SCENE")]
        _print(f"\nfuzz --controls: {len(rows)} controls, {sum(r.caught is not None for r in rows)} caught by fuzzing; "
               "the committed scenarios miss but fuzzing catches: "
               + (", ".join(f"{r.fixed.control.name} ({r.fixed.status})" for r in gaps) or "none"))
        if missed:
            _print("fuzz --controls: missed by both: " + ", ".join(missed))
        return EXIT_FAILED if gaps else EXIT_OK
    runner_ids = list(dict.fromkeys(args.runner_ids or []))
    if not runner_ids:
        raise InputError("command line", "runners", "names no runner (--runners A,B or --runner ID)")
    for runner_id in runner_ids:
        resolve(runner_id)  # unknown ids are bad input, before anything runs
    expected = fuzz.Expected()
    if args.expected != "reference":
        _print(f"fuzz: checking that {args.expected} is identical to the reference on the committed suite ...")
        expected = fuzz.column_expected(args.expected, suite.select(None, False), suite.goldens_dir)
    _print(f"fuzz: expected hashes from {expected.name}; suite {__version__}, seed {args.seed}")
    with Progress(args.count or 0, "fuzz") as bar:
        result = fuzz.run_fuzz(runner_ids, args.seed, args.count, seconds, kinds, expected,
                               suite.goldens_dir / "vectors", shrink_to,
                               on_cell=lambda f: _print(fuzz.format_finding(f)),
                               on_scene=lambda s: bar.advance(1, label=s.id))
    for runner_id, reason in result.skipped.items():
        _print(f"SKIPPED  {runner_id}: {reason}")
    for runner_id, reason in result.broken.items():
        _print(f"ERROR    {runner_id}: {reason}")
    _print(fuzz.summary_line(result))
    if args.report:
        from .reports.report import write_reports
        for path in write_reports(result.matrix(), suite, Path(args.report)):
            _print(f"report: {path}")
    if sum(result.compared.values()) == 0 and not result.findings:
        _print("fuzz: nothing was compared (every runner was skipped, or every scene rejected)")
        return EXIT_FAILED
    return EXIT_FAILED if result.findings or result.broken else EXIT_OK


def _runner_options(p: argparse.ArgumentParser, default: str) -> None:
    """--runners A,B and --runner ID (both repeatable, into ``runner_ids``), with the ids in the help."""
    from .runners import DEFAULT_COLUMNS
    ids = ", ".join(DEFAULT_COLUMNS + ["reference", "exec:<command>", "control:<name>"])
    p.add_argument("--runners", metavar="A,B", dest="runner_ids", action="extend", type=split_runner_list,
                   help=f"runner ids, comma-separated (repeatable; {default}): {ids}")
    p.add_argument("--runner", metavar="ID", dest="runner_ids", action="append", type=one_runner_id,
                   help="one runner id taken whole, so an exec: command may contain commas, e.g. "
                        "'exec:./my-port --x=a,b' (repeatable; mixes with --runners, columns in the order given)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="orca-conformance",
                                     description="Hash-matrix conformance suite for ORCA solver ports.")
    parser.add_argument("--version", action="version", version=f"orca-conformance {__version__}")
    parser.add_argument("--suite", metavar="DIR", help="folder holding scenarios/ and goldens/")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("matrix", help="run the scenarios on the runners and compare with the goldens")
    _runner_options(p, "default: the default columns")
    p.add_argument("--scenarios", metavar="GLOB", action="append",
                   help="scenario id or glob, e.g. 'orca/*circle*' (repeatable; default: all non-slow)")
    p.add_argument("--all", action="store_true", help="include the slow scenarios")
    p.add_argument("--no-vectors", action="store_true", help="skip the primitive-vector row")
    p.add_argument("--strict", action="store_true",
                   help="fail on any SKIPPED cell too (ERROR and DIVERGED always fail): for gates")
    p.add_argument("--report", metavar="DIR", help="write JSON, JUnit XML and Markdown reports into DIR")
    p.add_argument("--jobs", metavar="N", type=positive_int, default=os.cpu_count() or 1,
                   help="columns run at once, in threads (default: the number of CPUs, here %(default)s)")
    p.set_defaults(handler=cmd_matrix)

    p = sub.add_parser("controls", help="run the negative controls and the misreading catalogue: each must be "
                                        "caught in a scenario")
    p.add_argument("--only", metavar="A,B", help="run only these controls (names or globs, comma-separated)")
    p.set_defaults(handler=cmd_controls)

    p = sub.add_parser("spec", help="check that a copy of orca-spec.txt is the version the goldens were made against")
    p.add_argument("file", metavar="FILE", help="your copy of orca-spec.txt")
    p.set_defaults(handler=cmd_spec)

    p = sub.add_parser("build", help="build one column's port (executable, shared library or wasm module) to a path")
    p.add_argument("column", metavar="COLUMN",
                   help="c:cli, arm64:qemu, s390x:qemu, i386:qemu, riscv64:qemu, ppc64le:qemu (Linux executables), "
                        "arm64, s390x, i386, riscv64 (freestanding ELF), c, c:O0, c:O3-native, c:zig (shared "
                        "library), wasm, wasm-v8 (module), or control:<name>")
    p.add_argument("--out", required=True, metavar="PATH", help="file to write (or an existing folder)")
    p.set_defaults(handler=cmd_build)

    p = sub.add_parser("fuzz", help="differential testing on seeded random scenes, with shrinking")
    _runner_options(p, "at least one")
    p.add_argument("--seed", type=int, default=0, help="seed of the scenes (default 0)")
    amount = p.add_mutually_exclusive_group()
    amount.add_argument("--count", type=int, help="number of scenes (default 100; 30 per control with --controls)")
    amount.add_argument("--time", metavar="T", help="run for a duration: 90s, 10m, 1h")
    p.add_argument("--kinds", metavar="A,B", action="append", help="scene kinds (default: all; see docs/fuzz.md)")
    p.add_argument("--expected", metavar="ID", default="reference",
                   help="source of expected hashes: the reference (default) or a column that must first pass "
                        "the whole committed suite in this run, e.g. c")
    p.add_argument("--shrink-to", metavar="DIR",
                   help="shrink each divergence; write DIR/scenarios/fuzz/*.yaml and DIR/goldens/fuzz/*.json")
    p.add_argument("--report", metavar="DIR", help="write the matrix reports (failing scenes and a summary row)")
    p.add_argument("--controls", action="store_true",
                   help="run the negative controls and the misreading catalogue under fuzz instead")
    p.add_argument("--only", metavar="A,B", help="with --controls: only these controls (names or globs)")
    p.set_defaults(handler=cmd_fuzz)

    p = sub.add_parser("census", help="boundary census: data exactly on every decision of the reference")
    p.add_argument("--write", action="store_true", help="write docs/census/census.json (the committed census)")
    p.add_argument("--check", action="store_true",
                   help="only check the committed census: fresh, complete, every site covered or argued")
    p.set_defaults(handler=cmd_census)

    p = sub.add_parser("merge", help="combine per-platform reports into one matrix")
    p.add_argument("reports", nargs="+", metavar="REPORT", help="report.json files from matrix --report")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for matrix.json, matrix.md, matrix.html")
    p.set_defaults(handler=cmd_merge)

    p = sub.add_parser("render", help="draw a scenario's trajectories (SVG, PNG or animated GIF)")
    p.add_argument("id")
    p.add_argument("--runner", default="reference", help="runner id (default: reference)")
    p.add_argument("--out", required=True, metavar="FILE", help="picture file: .svg, .png or .gif")
    p.add_argument("--every", type=int, help="sample every N steps (default: about 400 frames, 60 for GIF)")
    p.add_argument("--steps", type=int, help="stop after N steps")
    p.set_defaults(handler=cmd_render)

    p = sub.add_parser("mutate", help="mutation score of the C port under the scenarios and vectors")
    p.add_argument("--jobs", type=int, help="parallel mutants (default: the number of cores)")
    p.add_argument("--sample", type=int, help="a fixed random sample of N mutants")
    p.add_argument("--evidence", action="store_true",
                   help="run the reviewed equivalent mutants (docs/mutation/equivalent.json) on fresh random "
                        "primitive inputs and record the result there")
    p.add_argument("--only", metavar="GLOB", action="append",
                   help="only the mutants whose id matches (e.g. 'neighbors.c:*'; repeatable, comma-separated)")
    p.add_argument("--seed", type=int, default=1, help="seed of the sample")
    p.add_argument("--timeout", type=float, default=30.0,
                   help="seconds per mutant (a surviving mutant needs about 5; hung ones are timeouts)")
    p.add_argument("--out", metavar="DIR", help="write report.json and report.md into DIR")
    p.set_defaults(handler=cmd_mutate)

    p = sub.add_parser("doctor", help="what every column needs, whether it is here, and how to install it")
    p.add_argument("columns", nargs="*", metavar="COLUMN", help="only these column ids (default: every column)")
    p.set_defaults(handler=cmd_doctor)

    p = sub.add_parser("check", help="lint the suite itself (schema, ids, goldens, orphans)")
    p.add_argument("--list", action="store_true", help="print the scenario ids and stop")
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("expand", help="print the expanded scenario of one id")
    p.add_argument("id")
    p.set_defaults(handler=cmd_expand)

    goldens = sub.add_parser("goldens", help="regenerate or check the goldens (reference only)")
    gsub = goldens.add_subparsers(dest="goldens_command", metavar="ACTION")
    gsub.required = True
    for name, handler, text in (("regen", cmd_goldens_regen, "regenerate goldens from the reference"),
                                ("check", cmd_goldens_check, "re-run the reference and compare")):
        p = gsub.add_parser(name, help=text)
        p.add_argument("ids", nargs="*", help="scenario ids or globs, or vectors/FAMILY (default: all non-slow and every vector family)")
        p.add_argument("--all", action="store_true", help="include the slow scenarios")
        p.set_defaults(handler=handler)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
