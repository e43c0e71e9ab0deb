"""The ``orca-conformance`` command: one ``cmd_<verb>`` handler per subcommand.

Contract: a handler parses its arguments, calls the stage that owns the work and prints what
the stage says (through ``_print``, above any progress bar); the work itself is the stages'.
Exit codes: 0 success; 1 the suite ran and found a failure (mismatch, divergence, lint
problem); 2 bad input or usage (one line naming the file, key path and reason).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__
from .selftest.controls import register_columns
from .errors import InputError
from .runners.selection import chosen_runners, runner_options
from .data import goldens
from .data.lint import lint_suite
from .progress import Progress
from .contract.scenario import canonical_json, one_line
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


def _exit(failed: bool) -> int:
    return EXIT_FAILED if failed else EXIT_OK


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
    """Lint the suite (``data.lint``): every problem, however many files are broken; bad input as
    one ``error:`` line each on stderr and exit 2, lint problems as ``FAIL`` lines and exit 1."""
    suite = Suite.locate(args.suite)
    if args.list:
        loaded = suite.load()
        for s in loaded.scenarios:
            _print(s.id + ("  (slow)" if s.slow else ""))
        for b in loaded.broken:
            print(f"error: {b.error}", file=sys.stderr, flush=True)
        return EXIT_BAD_INPUT if loaded.broken else EXIT_OK
    lint = lint_suite(suite)
    for p in lint.problems:
        _print("FAIL", p)
    for err in lint.bad_input:
        print(f"error: {one_line(err)}", file=sys.stderr, flush=True)
    _print(lint.summary())
    if lint.bad_input:
        return EXIT_BAD_INPUT
    if not lint.scenarios:
        _print("check: no scenarios found")
        return EXIT_FAILED
    return _exit(bool(lint.problems))


def cmd_expand(args: argparse.Namespace) -> int:
    """Print the expanded scenario of one id (canonical JSON)."""
    scenario = Suite.locate(args.suite).scenario(args.id)
    sys.stdout.write(canonical_json(scenario.expanded()).decode("ascii") + "\n")
    return EXIT_OK


def cmd_goldens_regen(args: argparse.Namespace) -> int:
    """Regenerate goldens from the reference (``goldens.regenerate``); exit 1 when one is refused."""
    suite = Suite.locate(args.suite)
    scenarios, families = goldens.regen_targets(suite, args.ids or [], args.all)
    return _exit(goldens.regenerate(suite, scenarios, families, _print).refused > 0)


def cmd_goldens_check(args: argparse.Namespace) -> int:
    """Re-run the reference and compare with the goldens; fail on any difference."""
    suite = Suite.locate(args.suite)
    return _exit(goldens.check_goldens(suite, suite.select(args.ids, args.all), not args.ids, _print).failed)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def _write_reports(result, suite: Suite, folder: str) -> None:
    """The matrix reports (JSON, JUnit XML, Markdown, HTML) of ``result`` into ``folder``."""
    from .reports.report import write_reports
    from .selftest.clause_report import write_clause_page
    paths = write_reports(result, suite, Path(folder))
    for path in paths + [write_clause_page(Path(folder), suite, paths[0])]:
        _print(f"report: {path}")


def cmd_matrix(args: argparse.Namespace) -> int:
    """Every scenario on every runner, compared with the goldens; the suite's main job."""
    from .judge.gate import judge_matrix
    from .judge.matrix import format_table, run_matrix
    from .runners import default_columns
    suite = Suite.locate(args.suite)
    scenarios = suite.select(args.scenarios or None, args.all)
    ids = default_columns() if args.runner_ids is None else chosen_runners(args.runner_ids)
    result = run_matrix(scenarios, ids, suite.goldens_dir, with_vectors=not args.no_vectors, jobs=args.jobs)
    _print(format_table(result))
    verdict = judge_matrix(result, len(scenarios), len(ids), args.strict)
    _print(verdict.summary)
    if args.report:
        _write_reports(result, suite, args.report)
    if verdict.reason:
        _print(verdict.reason)
    return _exit(verdict.failed)


def cmd_controls(args: argparse.Namespace) -> int:
    """Run the negative controls and the misreading catalogue; each must be caught in a scene."""
    from .selftest.control_runs import choose_controls, run_controls
    suite = Suite.locate(args.suite)
    scenarios = suite.select(None, False)
    return _exit(run_controls(choose_controls(args.only), scenarios, suite.goldens_dir, _print))


def cmd_text(args: argparse.Namespace) -> int:
    """``spec`` and ``clauses``: the text checked clause by clause, what pins and defends each clause."""
    from .selftest.clause_report import clauses_report, spec_report
    if args.command == "spec":  # needs no suite unless a clause changed
        return _exit(spec_report(Path(args.file), lambda: Suite.locate(args.suite).select(None, True), _print))
    return _exit(clauses_report(Suite.locate(args.suite), args.write, args.list, _print))


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
    from .selftest.census_run import check_census, take_census
    suite = Suite.locate(args.suite)
    return _exit(check_census(suite, _print) if args.check else take_census(suite, args.write, _print))


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
    return _exit(bool(s["DIVERGED"] or s["ERROR"]))


def cmd_render(args: argparse.Namespace) -> int:
    """Draw one scenario's trajectories on one runner."""
    from .reports.render_run import RenderFailed, render_on
    scenario = Suite.locate(args.suite).scenario(args.id)
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png", ".gif"):
        raise InputError("command line", "--out", "the picture must end in .svg, .png or .gif")
    try:
        frames, runner_id = render_on(scenario, args.runner, out, args.every, args.steps)
    except RenderFailed as err:
        print(f"error: render: {err}", file=sys.stderr)
        return EXIT_FAILED
    _print(f"render: {out} ({frames} frames of {scenario.id} on {runner_id})")
    return EXIT_OK


def cmd_mutate(args: argparse.Namespace) -> int:
    """Mutation testing of the C port against the scenarios and vectors (or --evidence)."""
    from .selftest.mutation_run import score_mutants, select_mutants
    suite = Suite.locate(args.suite)
    if args.evidence:
        from .selftest.evidence import refresh_evidence
        return _exit(refresh_evidence(suite.root, args.jobs, _print).failed)
    patterns = [p for group in args.only for p in group.split(",") if p] if args.only else None
    mutants = select_mutants(patterns, args.sample, args.seed)
    if patterns is not None and not mutants:
        _print(f"mutate: no mutant id matches {', '.join(patterns)}")
        return EXIT_BAD_INPUT
    out = Path(args.out) if args.out else None
    # fails on survivors nobody has reviewed (a new gap or a stale equivalence claim)
    return _exit(score_mutants(mutants, suite.root, args.jobs, args.timeout, out, _print) > 0)


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Differential testing on seeded random scenes, with shrinking (conformance/selftest/fuzz.py)."""
    from .selftest import fuzz
    from .selftest.fuzz_run import fuzz_failed, fuzz_runners
    suite = Suite.locate(args.suite)
    kinds = fuzz.parse_kinds(args.kinds)
    seconds = fuzz.parse_duration(args.time) if args.time is not None else None
    if args.count is not None and args.count < 1:
        raise InputError("command line", "--count", "must be at least 1")
    shrink_to = Path(args.shrink_to) if args.shrink_to else None
    if args.controls:
        from .selftest.control_runs import choose_controls, fuzz_controls
        chosen = choose_controls(args.only)
        return _exit(fuzz_controls(chosen, suite, args.seed, args.count or 30, kinds, shrink_to, _print))
    ids = chosen_runners(args.runner_ids or [])
    result = fuzz_runners(suite, ids, args.seed, args.count, seconds, kinds, args.expected, shrink_to, _print)
    if args.report:
        _write_reports(result.matrix(), suite, args.report)
    return _exit(fuzz_failed(result, _print))


def _command(sub, name: str, handler, text: str) -> argparse.ArgumentParser:
    """One subcommand: its parser, which runs ``handler``."""
    p = sub.add_parser(name, help=text)
    p.set_defaults(handler=handler)
    return p


def _add_matrix(sub) -> None:
    p = _command(sub, "matrix", cmd_matrix, "run the scenarios on the runners and compare with the goldens")
    runner_options(p, "default: the default columns")
    p.add_argument("--scenarios", metavar="GLOB", action="append",
                   help="scenario id or glob, e.g. 'orca/*circle*' (repeatable; default: all non-slow)")
    p.add_argument("--all", action="store_true", help="include the slow scenarios")
    p.add_argument("--no-vectors", action="store_true", help="skip the primitive-vector row")
    p.add_argument("--strict", action="store_true",
                   help="fail on any SKIPPED cell too (ERROR and DIVERGED always fail): for gates")
    p.add_argument("--report", metavar="DIR", help="write JSON, JUnit XML and Markdown reports into DIR")
    p.add_argument("--jobs", metavar="N", type=positive_int, default=os.cpu_count() or 1,
                   help="columns run at once, in threads (default: the number of CPUs, here %(default)s)")


def _add_controls(sub) -> None:
    """The self-checks against the text: controls, spec, clauses."""
    p = _command(sub, "controls", cmd_controls,
                 "run the negative controls and the misreading catalogue: each must be caught in a scenario")
    p.add_argument("--only", metavar="A,B", help="run only these controls (names or globs, comma-separated)")
    p = _command(sub, "spec", cmd_text, "check a copy of orca-spec.txt against the pinned version, clause by clause")
    p.add_argument("file", metavar="FILE", help="your copy of orca-spec.txt")
    p = _command(sub, "clauses", cmd_text, "every clause of the text: sites, boundary data, scenes, controls")
    p.add_argument("--write", action="store_true", help="also write docs/clauses.md")
    p.add_argument("--list", action="store_true", help="list the clause ids, where they stand, what they say")


def _add_build(sub) -> None:
    p = _command(sub, "build", cmd_build,
                 "build one column's port (executable, shared library or wasm module) to a path")
    p.add_argument("column", metavar="COLUMN",
                   help="c:cli, arm64:qemu, s390x:qemu, i386:qemu, riscv64:qemu, ppc64le:qemu (Linux executables), "
                        "arm64, s390x, i386, riscv64 (freestanding ELF), c, c:O0, c:O3-native, c:zig (shared "
                        "library), wasm, wasm-v8 (module), or control:<name>")
    p.add_argument("--out", required=True, metavar="PATH", help="file to write (or an existing folder)")


def _add_fuzz(sub) -> None:
    p = _command(sub, "fuzz", cmd_fuzz, "differential testing on seeded random scenes, with shrinking")
    runner_options(p, "at least one")
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


def _add_census(sub) -> None:
    p = _command(sub, "census", cmd_census, "boundary census: data exactly on every decision of the reference")
    p.add_argument("--write", action="store_true", help="write docs/census/census.json (the committed census)")
    p.add_argument("--check", action="store_true",
                   help="only check the committed census: fresh, complete, every site covered or argued")


def _add_merge(sub) -> None:
    p = _command(sub, "merge", cmd_merge, "combine per-platform reports into one matrix")
    p.add_argument("reports", nargs="+", metavar="REPORT", help="report.json files from matrix --report")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for matrix.json, matrix.md, matrix.html")


def _add_render(sub) -> None:
    p = _command(sub, "render", cmd_render, "draw a scenario's trajectories (SVG, PNG or animated GIF)")
    p.add_argument("id")
    p.add_argument("--runner", default="reference", help="runner id (default: reference)")
    p.add_argument("--out", required=True, metavar="FILE", help="picture file: .svg, .png or .gif")
    p.add_argument("--every", type=int, help="sample every N steps (default: about 400 frames, 60 for GIF)")
    p.add_argument("--steps", type=int, help="stop after N steps")


def _add_mutate(sub) -> None:
    p = _command(sub, "mutate", cmd_mutate, "mutation score of the C port under the scenarios and vectors")
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


def _add_doctor(sub) -> None:
    p = _command(sub, "doctor", cmd_doctor, "what every column needs, whether it is here, and how to install it")
    p.add_argument("columns", nargs="*", metavar="COLUMN", help="only these column ids (default: every column)")


def _add_check(sub) -> None:
    p = _command(sub, "check", cmd_check, "lint the suite itself (schema, ids, goldens, orphans)")
    p.add_argument("--list", action="store_true", help="print the scenario ids and stop")


def _add_expand(sub) -> None:
    p = _command(sub, "expand", cmd_expand, "print the expanded scenario of one id")
    p.add_argument("id")


def _add_goldens(sub) -> None:
    goldens = sub.add_parser("goldens", help="regenerate or check the goldens (reference only)")
    gsub = goldens.add_subparsers(dest="goldens_command", metavar="ACTION")
    gsub.required = True
    for name, handler, text in (("regen", cmd_goldens_regen, "regenerate goldens from the reference"),
                                ("check", cmd_goldens_check, "re-run the reference and compare")):
        p = gsub.add_parser(name, help=text)
        p.add_argument("ids", nargs="*", help="scenario ids or globs, or vectors/FAMILY (default: all non-slow "
                                              "and every vector family)")
        p.add_argument("--all", action="store_true", help="include the slow scenarios")
        p.set_defaults(handler=handler)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="orca-conformance",
                                     description="Hash-matrix conformance suite for ORCA solver ports.")
    parser.add_argument("--version", action="version", version=f"orca-conformance {__version__}")
    parser.add_argument("--suite", metavar="DIR", help="folder holding scenarios/ and goldens/")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for add in (_add_matrix, _add_controls, _add_build, _add_fuzz, _add_census, _add_merge,
                _add_render, _add_mutate, _add_doctor, _add_check, _add_expand, _add_goldens):
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    register_columns()
    args = build_parser().parse_args(argv)
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
