"""What ``orca-conformance COMMAND --help`` says: one line for the list of commands, a few
sentences on what the command does and exits with, and examples to copy.

Contract: ``TEXTS`` has one ``Text`` per command as typed after ``orca-conformance`` (``matrix``,
``goldens regen``, ...) and one for the program itself; ``cli_parser`` builds every parser from
it.  Descriptions are wrapped by hand (shown as written); ids that come from a registry are not
listed here but in the parser (``cli_parser``), so that they are never out of date.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass



@dataclass(frozen=True)
class Text:
    """The help of one command."""

    help: str
    """One line, in the list of commands of ``orca-conformance --help``."""
    description: str
    """What it does and what it exits with, shown at the top of its ``--help``."""
    examples: tuple[str, ...]
    """Whole command lines, shown at the end of its ``--help``."""

    def epilog(self) -> str:
        return "examples:\n" + "\n".join(f"  {line}" for line in self.examples)


def _text(help: str, description: str, examples: tuple[str, ...], ok: str, failed: str | None) -> Text:
    """A Text whose description ends with the exit codes: 0 when ``ok``, 1 when ``failed``
    (None: the command never fails), 2 on bad input or usage, the same words for every command."""
    exits = f"Exit 0 when {ok}; " + (f"1 when {failed}; " if failed else "")
    exits += "2 on bad input or usage (one error: line on stderr)."
    return Text(help, description.strip() + "\n\n" + textwrap.fill(exits, 80), examples)


REPORT_HELP = ("write the matrix reports into DIR: report.json, junit.xml, matrix.md, matrix.html "
               "(self-contained, a chart per red cell) and clauses.html (the clauses the red cells break)")
"""``--report DIR`` of ``matrix`` and ``fuzz``: every file that ``cli._write_reports`` writes."""

SHARD_HELP = ("run only shard K of N (1 <= K <= N) for a CI job matrix: the columns, in the order given, are "
              "dealt to the shards in turn (shard K runs columns K, K+N, ...), each with every row, so the slow "
              "emulated columns spread evenly over the shards and each shard builds only its own ports; "
              "'orca-conformance merge' of the N reports is the unsharded report")
"""``matrix --shard K/N`` (``runners.shard`` says why the split is by column)."""

EPILOG = """\
examples:
  orca-conformance matrix                    # every scenario on the default columns
  orca-conformance matrix --runner 'exec:./my-port' --report r/
  orca-conformance doctor                    # what each column needs, what is here
  orca-conformance COMMAND --help            # what a command does and exits with

Exit codes: 0 success; 1 the suite ran and found a failure; 2 bad input or usage
(one line on stderr: error: <file>: <key path>: <reason>)."""

TEXTS: dict[str, Text] = {
    "orca-conformance": Text("", "Bit-for-bit conformance suite for ports of the ORCA crowd solver: every\n"
                                 "scenario's state hashes on every runner, compared with the goldens.", ()),
    "matrix": _text(
        "run the scenarios on the runners and compare with the goldens", """
Run every chosen scenario (the non-slow ones by default) and the primitive
vectors on every chosen runner, and compare each step's state hash, bit for bit,
with the goldens the reference made.  The protocol row asks each runner what the
scenarios never do: runs of fewer steps, dumps, two runs in one process, and (a
port's executable) its hello and an unknown command.  Prints the table of cells,
then each red cell (DIVERGED, ERROR, SKIPPED) with where and why, and a vectors
row NOT PROVIDED when a port answers only some primitive families (its hello).""",
        ("orca-conformance matrix",
         "orca-conformance matrix --runners c,wasm --scenarios 'orca/*circle*'",
         "orca-conformance matrix --runner 'exec:./my-port' --report r/ --strict",
         "orca-conformance matrix --shard 2/3 --report shard-2/   # then: merge shard-*/report.json"),
        ok="every compared cell passed",
        failed="a cell diverged or errored (with --strict: or was skipped), or nothing was compared"),
    "controls": _text(
        "run the negative controls and the misreading catalogue: each must be caught in a scenario", """
Run each negative control (a deliberately wrong build of the C port) and each
entry of the misreading catalogue as a column on the committed non-slow
scenarios: each must diverge in at least one of them, or be argued equivalent.""",
        ("orca-conformance controls", "orca-conformance controls --only 'horizon-*,textbook-ttc'"),
        ok="every control is caught", failed="a control is caught in no scenario (a gap) or nothing was compared"),
    "spec": _text(
        "check a copy of orca-spec.txt against the pinned version, clause by clause", """
Compare your copy of orca-spec.txt with the version the goldens were made
against: first its SHA-256 (the exact version, the same text saved with other
line endings or trailing white space, or another text), then clause by clause
(conformance/contract/clauses.json: each clause in place, moved or changed).
For a changed clause it lists the scenarios, controls and vectors that depend
on it.""",
        ("orca-conformance spec ~/Downloads/orca-spec.txt",),
        ok="the copy is byte for byte the pinned version",
        failed="it differs in any byte (line endings included)"),
    "clauses": _text(
        "every clause of the text: sites, boundary data, scenes, controls", """
Every clause of the text (orca-spec.txt, the spec notes, the porting rules) with
what pins it down: decision sites, boundary data, scenarios, controls; a clause
nothing pins is OPEN.  --write also writes docs/clauses.md; --list only lists
the ids, where they stand and what they say.""",
        ("orca-conformance clauses", "orca-conformance clauses --list"),
        ok="every clause is pinned and every piece of the suite names its clauses (or with --list)",
        failed="a clause is OPEN or a scenario, control or vector family names none"),
    "build": _text(
        "build one column's port (executable, shared library or wasm module) to a path", """
Build one column's port through the suite's own build (content-keyed cache: a
second build is instant) and copy it to --out.  Prints the compiler, flags,
target and SHA-256 of what it built and the matrix command line that gates it.
With --sources DIR it builds your edited copy of runners/c instead, with the
very flags of the column (-std=c99 -ffp-contract=off -fno-fast-math and the
column's own), so the result is what the column would run with your edit; a
DIR that is not such a copy is bad input, before anything compiles.""",
        ("orca-conformance build c:cli --out ./orca-port",
         "orca-conformance build c:cli --sources my-c --out ./orca-port   # an edited copy of runners/c",
         "orca-conformance build wasm --out orca.wasm",
         "orca-conformance build c --out liborca.so"),
        ok="the port was built and copied", failed="the toolchain is missing or the compile failed"),
    "fuzz": _text(
        "differential testing on seeded random scenes, with shrinking", """
Run seeded random scenes (docs/fuzz.md) on the reference, or on a column that
first passes the whole committed suite (--expected), and on every chosen
runner, and compare every state.  Each divergence gets the matrix's diagnosis
and, with --shrink-to, is shrunk to a small scenario with its golden.  With
--protocol, each scene that passes also gets the protocol row's scene checks
(runs of fewer steps, dumps, two runs in one process).  With --controls, runs
the negative controls under fuzz instead.""",
        ("orca-conformance fuzz --runners c --count 200 --seed 7",
         "orca-conformance fuzz --runner 'exec:./my-port' --time 10m --shrink-to found/ --report fuzz-report/",
         "orca-conformance fuzz --runner 'exec:./my-port' --count 50 --protocol",
         "orca-conformance fuzz --controls --only horizon-swap"),
        ok="nothing diverged or errored",
        failed="something did or nothing was compared (with --controls: fuzzing caught a control "
               "the committed scenarios miss)"),
    "census": _text(
        "boundary census: data exactly on every decision of the reference", """
Run the instrumented reference over the vectors and the committed non-slow
scenarios and count, for every decision site of the reference, the data that
fall exactly on its boundary (about 2 minutes).  --write stores the census as
docs/census/census.json; --check runs nothing new and checks the committed one.""",
        ("orca-conformance census --check", "orca-conformance census --write"),
        ok="every decision site is covered or argued (with --check: the census is also fresh and complete)",
        failed="a site is neither covered nor argued, or the committed census is stale"),
    "merge": _text(
        "combine per-platform reports into one matrix", """
Combine the report.json files of several machines (matrix --report) into one
matrix whose columns are <platform>/<runner>, and say per CPU architecture
whether its columns agree.  The reports of one run's shards (matrix --shard K/N)
are first put back together into that run's report; a shard missing is a
warning, two shards that disagree on one cell are bad input.  Refuses reports
made against other goldens; warns when they come from other suite versions.
Writes matrix.json, matrix.md and a self-contained matrix.html into --out.""",
        ("orca-conformance merge linux-x64/report.json linux-arm64/report.json --out merged",
         "orca-conformance merge shard-1/report.json shard-2/report.json shard-3/report.json --out merged"),
        ok="no merged cell diverged or errored", failed="one did"),
    "render": _text(
        "draw a scenario's trajectories (SVG, PNG or animated GIF)", """
Draw one scenario's trajectories as one runner runs them, over the reference's
in grey.  SVG needs nothing; PNG and GIF need the plot extra (Pillow).""",
        ("orca-conformance render orca/wall-gap --out wall.png",
         "orca-conformance render orca/head-on-exact --runner c --out head-on.gif --every 5"),
        ok="the picture was written", failed="the runner or the plotting library failed"),
    "mutate": _text(
        "mutation score of the C port under the scenarios and vectors", """
Mutation testing of the C port: each mutant of runners/c/ (one operator
changed) runs against the scenarios and vectors; a survivor that is not
reviewed equivalent in docs/mutation/equivalent.json is a gap (about 22 minutes
for every mutant).  --evidence instead re-runs the reviewed equivalent mutants
on fresh random primitive inputs and records the result there.""",
        ("orca-conformance mutate --only 'neighbors.c:*' --out mutation/",
         "orca-conformance mutate --sample 50 --seed 3", "orca-conformance mutate --evidence"),
        ok="no unreviewed mutant survives", failed="one does (or --evidence finds a difference)"),
    "operators": _text(
        "rewrite operators at every site of the C port, judged like misreadings", """
Each rewrite operator of runners/c/operators/ (roots for squares, float32
storage, fmin/fmax for explicit selects, tolerances, reassociation, sort keys,
off-by-one, added guards) is applied at every site of its kind; each variant
runs the scenes (its red cell must name a cause its class declares), then the
vectors.  A survivor must be reviewed equivalent in docs/operators/
equivalent.json with evidence or a solver's proof (about 15 minutes for every
variant; --write commits the report, which a test holds fresh).""",
        ("orca-conformance operators --only 'float32:*'", "orca-conformance operators --write",
         "orca-conformance operators --evidence", "orca-conformance operators --list"),
        ok="no variant is a gap, miscaused, a build failure or a timeout",
        failed="one is (or --evidence finds a difference)"),
    "doctor": _text(
        "what every column needs, whether it is here, and how to install it", """
List every column (or the ones named), what it needs (a C compiler, ziglang,
Node.js, qemu-user, Wine, ...), which needs are present here with their
versions, and the command that installs each missing one.  Missing needs are
not a failure: such a column is SKIPPED by the matrix.""",
        ("orca-conformance doctor", "orca-conformance doctor arm64:qemu c:windows"),
        ok="the list is printed, whatever is missing", failed=None),
    "check": _text(
        "lint the suite itself (schema, ids, goldens, orphans)", """
Lint the suite: every scenario file against the schema, ids that match their
paths, goldens present and fresh, every expect: bound met by its golden, the
vector files, no orphans.  Says every problem, however many files are broken
(FAIL lines on stdout, bad files as error: lines on stderr).  --list prints the
scenario ids instead.""",
        ("orca-conformance check", "orca-conformance --suite my-suite check --list"),
        ok="the suite is clean", failed="a lint problem was found or there are no scenarios"),
    "expand": _text(
        "print the expanded scenario of one id or file", """
Print one scenario as a port receives it: every generator expanded into exact
binary64 values, as canonical JSON (sorted keys, no spaces).  Give its id or
its file below the suite's scenarios/ folder (the id is that path without
.yaml); a file outside scenarios/ is bad input.""",
        ("orca-conformance expand orca/head-on-exact",
         "orca-conformance expand scenarios/orca/head-on-exact.yaml"),
        ok="the scenario is printed", failed=None),
    "goldens": Text("regenerate or check the goldens (reference only)", """\
The goldens are the reference's outputs: the state hashes of every scenario
(goldens/<id>.json) and the results of the primitive vectors (goldens/vectors/).
'regen' rewrites them, 'check' re-runs the reference and compares.""",
                    ("orca-conformance goldens check", "orca-conformance goldens regen orca/my-scene")),
    "goldens regen": _text(
        "regenerate goldens from the reference", """
Run the reference on the named scenarios (ids or globs) and vector families
(vectors/FAMILY), or on every non-slow scenario and every family, and write the
goldens that changed.  A scenario's golden is written only when the run meets
the scenario's own expect: bounds; otherwise it is REFUSED.""",
        ("orca-conformance goldens regen orca/my-scene", "orca-conformance goldens regen vectors/relax"),
        ok="every golden was written or already current", failed="a golden was refused"),
    "goldens check": _text(
        "re-run the reference and compare", """
Re-run the reference on the named scenarios (or on every non-slow one, then the
vector files and orphans too) and compare with the committed goldens, bit for
bit.""",
        ("orca-conformance goldens check", "orca-conformance goldens check 'orca/boundary-*'"),
        ok="every golden agrees", failed="one differs, is missing, stale or an orphan"),
}
