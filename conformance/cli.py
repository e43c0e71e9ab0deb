"""The ``orca-conformance`` command: one ``cmd_<verb>`` handler per subcommand.

Contract: a handler parses its arguments, calls the stage that owns the work and prints what
the stage says (through ``_print``, above any progress bar); the work itself is the stages'.
The parser, with every command's help and examples, is ``cli_parser.build_parser`` (also
importable from here); ``HANDLERS`` maps the handler name it stores to the function.
Exit codes: 0 success; 1 the suite ran and found a failure (mismatch, divergence, lint
problem); 2 bad input or usage (one line naming the file, key path and reason).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .cli_parser import UsageError, build_parser
from .errors import InputError, did_you_mean
from .runners.selection import chosen_runners
from .runners.shard import parse_shard
from .data import goldens
from .data.lint import lint_suite
from .progress import Progress, fit_to_terminal
from .contract.scenario import canonical_json, one_line
from .data.suite import Suite
from .jsonfile import writable_file, writable_folder

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
    known = known_ids()
    for column in args.columns:
        if not column.startswith(("exec:", "control:")) and column not in known:
            hint = did_you_mean(column, [k for k in known if not k.endswith(">")]) or f"; known: {', '.join(known)}"
            raise InputError("command line", "doctor", f"unknown column {column!r}{hint}")
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
    """Print the expanded scenario of one id or scenario file (canonical JSON)."""
    suite = Suite.locate(args.suite)
    scenario = suite.scenario(suite.id_of(args.id))
    sys.stdout.write(canonical_json(scenario.expanded()).decode("ascii") + "\n")
    return EXIT_OK


def cmd_goldens_regen(args: argparse.Namespace) -> int:
    """Regenerate goldens from the reference (``goldens.regenerate``); exit 1 when one is refused."""
    suite = Suite.locate(args.suite)
    scenarios, families = goldens.regen_targets(suite, args.ids or [], args.all, args.all or args.frames)
    return _exit(goldens.regenerate(suite, scenarios, families, _print).refused > 0)


def cmd_goldens_check(args: argparse.Namespace) -> int:
    """Re-run the reference and compare with the goldens; fail on any difference."""
    suite = Suite.locate(args.suite)
    return _exit(goldens.check_goldens(suite, suite.select(args.ids, args.all, args.all or args.frames), not args.ids, _print).failed)


def _write_reports(result, suite: Suite, folder: str, header: dict | None = None) -> None:
    """The matrix reports of ``result`` into ``folder``: report.json, junit.xml, matrix.md,
    matrix.html and clauses.html (``cli_help.REPORT_HELP`` names them all); ``header``: fields
    added to the report's header (a shard's)."""
    from .reports.report import write_reports
    from .selftest.clauses.report import write_clause_page
    paths = write_reports(result, suite, Path(folder), header=header)
    for path in paths + [write_clause_page(Path(folder), suite, paths[0])]:
        _print(f"report: {path}")


def cmd_matrix(args: argparse.Namespace) -> int:
    """Every scenario on every runner, compared with the goldens; the suite's main job.  Bad
    input (shard, scenarios, runners, goldens and vectors, the report folder) is found before
    the first build or cell."""
    from .judge.gate import judge_matrix
    from .judge.cell_text import format_table
    from .judge.matrix import run_matrix
    from .runners import default_columns
    shard = parse_shard(args.shard) if args.shard is not None else None  # bad input before anything runs
    if args.spec is not None:
        from .contract.clause_quote import use_text
        _print(use_text(Path(args.spec)))
    suite = Suite.locate(args.suite)
    scenarios = suite.select(args.scenarios or None, args.all, args.all or args.frames)
    ids = default_columns() if args.runner_ids is None else chosen_runners(args.runner_ids)
    goldens.require_readable(suite.goldens_dir, scenarios, with_vectors=not args.no_vectors)
    if args.report:
        writable_folder(args.report, "--report")  # before the first build or cell, not after the run
    header = {}
    if shard is not None:
        header = shard.header(ids)
        ids = shard.columns(ids)
        _print(f"shard {shard}: columns {', '.join(ids)} (of {len(header.get('run_columns', ids))})")
    result = run_matrix(scenarios, ids, suite.goldens_dir, with_vectors=not args.no_vectors, jobs=args.jobs,
                        with_protocol=not args.no_protocol, share=not args.verbose)
    _print(fit_to_terminal(format_table(result, verbose=args.verbose), sys.stdout))
    verdict = judge_matrix(result, len(scenarios), len(ids), args.strict)
    _print(verdict.summary)
    if args.report:
        _write_reports(result, suite, args.report, header)
    if verdict.reason:
        _print(verdict.reason)
    return _exit(verdict.failed)


def cmd_controls(args: argparse.Namespace) -> int:
    """Run the negative controls and the misreading catalogue; each must be caught in a scene."""
    from .selftest.controls.command import choose_controls, run_controls
    suite = Suite.locate(args.suite)
    scenarios = suite.files(False)
    return _exit(run_controls(choose_controls(args.only), scenarios, suite.goldens_dir, _print))


def cmd_text(args: argparse.Namespace) -> int:
    """``spec`` and ``clauses``: the text checked clause by clause, what pins and defends each clause."""
    from .selftest.clauses.report import clauses_report, spec_report
    if args.command == "spec":  # needs no suite unless a clause changed
        return _exit(spec_report(Path(args.file), lambda: Suite.locate(args.suite).files(True), _print))
    return _exit(clauses_report(Suite.locate(args.suite), args.write, args.list, _print))


def cmd_build(args: argparse.Namespace) -> int:
    """Build one column's port (CLI executable, shared library or wasm module) to a chosen path."""
    from .runners.port_build import CannotBuild, build_port, output_path, plan
    chosen = plan(args.column, Path(args.sources) if args.sources else None)
    writable_file(args.out, "--out", folder_ok=True)
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
    from .selftest.census.command import check_census, take_census
    suite = Suite.locate(args.suite)
    return _exit(check_census(suite, _print) if args.check else take_census(suite, args.write, _print))


def cmd_merge(args: argparse.Namespace) -> int:
    """Combine per-platform reports into one matrix (JSON, Markdown, HTML)."""
    from .reports.merge import load_report, merge_reports, write_merged
    writable_folder(args.out, "--out")
    reports = [(str(p), load_report(Path(p))) for p in args.reports]
    merged = merge_reports(reports)
    for note in merged["notes"]:
        print(f"warning: {note}", file=sys.stderr, flush=True)
    for path in write_merged(merged, Path(args.out)):
        _print(f"merged: {path}")
    s = merged["summary"]
    _print(f"merge: {len(reports)} reports, {len(merged['columns'])} columns: {s['PASS']} passed, "
           f"{s['DIVERGED']} diverged, {s['ERROR']} errors, "
           + (f"{s['NOT PROVIDED']} not provided, " if s.get("NOT PROVIDED") else "") + f"{s['SKIPPED']} skipped")
    return _exit(bool(s["DIVERGED"] or s["ERROR"]))


def cmd_render(args: argparse.Namespace) -> int:
    """Draw one scenario's trajectories on one runner."""
    from .reports.render_run import RenderFailed, render_on
    scenario = Suite.locate(args.suite).scenario(args.id)
    out = Path(args.out)
    if out.suffix.lower() not in (".svg", ".png", ".gif"):
        raise InputError("command line", "--out", "the picture must end in .svg, .png or .gif")
    writable_file(out, "--out")
    try:
        frames, runner_id = render_on(scenario, args.runner, out, args.every, args.steps)
    except RenderFailed as err:
        print(f"error: render: {err}", file=sys.stderr)
        return EXIT_FAILED
    _print(f"render: {out} ({frames} frames of {scenario.id} on {runner_id})")
    return EXIT_OK


def cmd_mutate(args: argparse.Namespace) -> int:
    """Mutation testing of the C port against the scenarios and vectors (or --evidence)."""
    from .selftest.variants.mutation_run import score_mutants, select_mutants
    suite = Suite.locate(args.suite)
    if args.evidence and args.sanitize:
        raise InputError("command line", "--sanitize", "not with --evidence (the evidence compares bits only)")
    if args.evidence:
        from .selftest.variants.evidence import refresh_evidence
        return _exit(refresh_evidence(suite.root, args.jobs, _print).failed)
    patterns = [p for group in args.only for p in group.split(",") if p] if args.only else None
    mutants = select_mutants(patterns, args.sample, args.seed)
    if patterns is not None and not mutants:
        raise InputError("command line", "--only", f"no mutant id matches {', '.join(map(repr, patterns))}")
    from .runners.build.sanitizer import unavailable
    reason = unavailable(args.sanitize) if args.sanitize else None
    if reason:
        raise InputError("command line", "--sanitize", reason)
    from .selftest.variants.mutate import default_timeout
    timeout = args.timeout if args.timeout is not None else default_timeout(args.sanitize)
    out = Path(args.out) if args.out else None
    if out is not None:
        writable_folder(out, "--out")
    # fails on survivors nobody has reviewed (a new gap or a stale equivalence claim)
    return _exit(score_mutants(mutants, suite.root, args.jobs, timeout, out, _print, sanitizer=args.sanitize) > 0)


def cmd_operators(args: argparse.Namespace) -> int:
    """Rewrite operators at every site of the C port (conformance/selftest/variants/operator_run.py)."""
    from .selftest.variants import operator_run
    suite = Suite.locate(args.suite)
    if args.evidence:
        from .selftest.variants.evidence import refresh_operator_evidence
        return _exit(refresh_operator_evidence(suite.root, args.jobs, _print) > 0)
    if args.search:
        from .selftest.variants.band_search import refresh_search
        return _exit(refresh_search(suite.root, args.jobs, _print) > 0)
    patterns = [p for group in args.only for p in group.split(",") if p] if args.only else None
    if args.list:
        for v in operator_run.select_variants(patterns, args.sample, args.seed):
            _print(f"{v.id}\n  " + v.diff().replace("\n", "\n  "))
        return EXIT_OK
    from .selftest.variants.operator_command import run_operators
    return _exit(run_operators(suite.root, patterns, args.sample, args.seed, args.jobs, args.timeout,
                                            args.write, args.sanitize, _print))


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Differential testing on seeded random scenes, with shrinking (conformance/selftest/fuzz/campaign.py)."""
    from .selftest.fuzz import campaign as fuzz
    from .selftest.fuzz.command import fuzz_failed, fuzz_runners
    suite = Suite.locate(args.suite)
    kinds = fuzz.parse_kinds(args.kinds)
    seconds = fuzz.parse_duration(args.time) if args.time is not None else None
    if args.count is not None and args.count < 1:
        raise InputError("command line", "--count", "must be at least 1")
    shrink_to = Path(args.shrink_to) if args.shrink_to else None
    for option, folder in (("--shrink-to", shrink_to), ("--report", args.report)):
        if folder:
            writable_folder(folder, option)
    if args.controls and args.protocol:
        raise InputError("command line", "--protocol", "not with --controls (the controls run the scenes only)")
    if args.controls:
        from .selftest.controls.command import choose_controls
        from .selftest.fuzz.command import fuzz_controls
        chosen = choose_controls(args.only)
        return _exit(fuzz_controls(chosen, suite, args.seed, args.count or 30, kinds, shrink_to, _print))
    ids = chosen_runners(args.runner_ids or [])
    result = fuzz_runners(suite, ids, args.seed, args.count, seconds, kinds, args.expected, shrink_to, _print,
                          args.jobs, verbose=args.verbose, protocol=args.protocol, frames=args.frames)
    if args.report:
        _write_reports(result.matrix(), suite, args.report)
    return _exit(fuzz_failed(result, _print))


HANDLERS = {"matrix": cmd_matrix, "controls": cmd_controls, "text": cmd_text, "build": cmd_build,
            "fuzz": cmd_fuzz, "census": cmd_census, "merge": cmd_merge, "render": cmd_render, "mutate": cmd_mutate,
            "operators": cmd_operators,
            "doctor": cmd_doctor, "check": cmd_check, "expand": cmd_expand,
            "goldens regen": cmd_goldens_regen, "goldens check": cmd_goldens_check}
"""The handler of each subcommand, by the name ``cli_parser`` stores in ``args.handler``."""


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's arguments) and run the subcommand; its exit code."""
    try:
        args = build_parser().parse_args(argv)
    except (UsageError, InputError) as err:  # InputError: an installed suite missing files (shipped.py)
        print(f"error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return HANDLERS[args.handler](args)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
