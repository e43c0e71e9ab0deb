"""Mutation testing of the C port: how much of the solver do the scenarios and vectors pin down?

Contract: ``generate_mutants()`` makes one-change mutants of the solver sources (arithmetic
operator swaps, comparison flips and strict/non-strict swaps, constant tweaks, swapped operands
of - and /, deleted statements, loop-bound shifts), each with a stable id.  ``run_mutants``
builds each through the build layer in its own process (in parallel, cached by the mutant's
source), runs the primitive vectors and then the scenarios cheapest first against the goldens,
stops at the first divergence, and classifies it: killed (by which vector family or scenario,
at which step), survived, build failure, or timeout/crash.  With ``sanitizer="address"`` or
``"thread"`` each mutant is built with that sanitizer and its worker runs with the runtime
preloaded (``runners.build.sanitizer``); a report is a kill by ``sanitizer:address`` or
``sanitizer:thread`` (its first line in the detail), a signal stays a kill by ``crash``.
``worker_verdict`` is that subprocess pattern for any worker module.  The reviewed equivalents
live in ``equivalents``, the score and report in ``mutation_report``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from ...runners.build.layer import cache_root
from ...runners.build.sources import C_DIR, MUTATED, SOLVER, cached_tree
from ...runners.build.sanitizer import EXIT_STATUS, environment, find_report

KILLED, SURVIVED, BUILD_FAILED, TIMEOUT = "killed", "survived", "build-failed", "timeout"
AT = "mutate-worker: at "
"""The prefix of the line a worker writes on stderr before each vector family and scenario run
(``mutate_worker``), so that a kill by a sanitizer or a crash can say what ran."""


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    line: int
    operator: str
    original: str
    mutated: str

    def diff(self) -> str:
        return f"{self.file}:{self.line}\n- {self.original.strip()}\n+ {self.mutated.strip()}"


_SWAPS = {" + ": " - ", " - ": " + ", " * ": " / ", " / ": " * "}
_COMPARE = {" < ": [" <= ", " > "], " <= ": [" < ", " >= "], " > ": [" >= ", " < "], " >= ": [" > ", " <= "],
            " == ": [" != "], " != ": [" == "]}
_FLOAT = re.compile(r"(?<![\w.])(\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+)(?![\w.])")
_OPERAND = r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|->[A-Za-z_]\w*|\[[^\]]+\])*"
_SWAP_OPERANDS = re.compile(rf"(?<![\w.\]>)])({_OPERAND}) ([-/]) ({_OPERAND})(?![\w.(\[])")
_DECLARATION = re.compile(r"^\s*(const\s+)?(static\s+)?(double|int|bool|float|ocVec2|ocHalfPlane|ocSupport|"
                          r"ocCaseForm|ocSolveResult|ocNeighbor|ocSegment|size_t|uint\d+_t|int\d+_t|unsigned|"
                          r"ocAgentParams|struct|void|return|if|else|for|while|do|case|switch|typedef)\b")


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the lines that hold code: no comments, preprocessor, prototypes."""
    out = []
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if in_block:
            if "*/" in stripped:
                in_block = False
            continue
        if stripped.startswith("/*"):
            in_block = "*/" not in stripped
            continue
        if stripped.startswith("#define") and _FLOAT.search(stripped):
            out.append((number, line))  # constants such as the tolerances
            continue
        if not stripped or stripped.startswith(("//", "#", "///")) or "OC_API" in line or '"' in line:
            continue
        code = line.split("//")[0]
        if code.strip():
            out.append((number, code.rstrip() + line[len(code.rstrip()):][:0]))
    return out


def _replace_at(line: str, start: int, old: str, new: str) -> str:
    return line[:start] + new + line[start + len(old):]


def _line_mutants(file: str, number: int, line: str) -> list[tuple[str, str]]:
    """(operator, mutated line) pairs for one code line."""
    out: list[tuple[str, str]] = []
    for old, new in _SWAPS.items():
        for m in re.finditer(re.escape(old), line):
            out.append(("arithmetic", _replace_at(line, m.start(), old, new)))
    for old, news in _COMPARE.items():
        for m in re.finditer(re.escape(old), line):
            for new in news:  # flips and strict/non-strict swaps alike
                out.append(("comparison", _replace_at(line, m.start(), old, new)))
    for m in _FLOAT.finditer(line):
        literal = m.group(1)
        value = float(literal)
        if value == 0.0:
            continue
        tweaked = repr(value * 10.0) if "e" in literal else repr(value / 2.0)
        out.append(("constant", _replace_at(line, m.start(), literal, tweaked)))
    for m in _SWAP_OPERANDS.finditer(line):
        a, op, b = m.group(1), m.group(2), m.group(3)
        out.append(("operands", line[:m.start()] + f"{b} {op} {a}" + line[m.end():]))
    stripped = line.strip()
    if stripped.startswith("#define"):
        return [(k, m) for k, m in out if k == "constant"]
    if stripped.endswith(";") and not _DECLARATION.match(line) and ("=" in stripped or stripped in ("break;", "continue;")):
        out.append(("delete", ""))
    if stripped.startswith("for (") and ";" in stripped:
        init, cond, *_ = stripped[5:].split(";")
        cm = re.search(r" (<|<=) (.+)$", cond)
        if cm:
            out.append(("loop-bound", line.replace(cond, cond[:cm.start()] + f" {cm.group(1)} {cm.group(2)} - 1", 1)))
        im = re.search(r"= 0$", init.strip())
        if im:
            out.append(("loop-bound", line.replace(init, init.rstrip()[:-1] + "1", 1)))
    return out


def generate_mutants(source_dir: Path = C_DIR) -> list[Mutant]:
    """Every mutant of the solver sources, in file and line order."""
    mutants = []
    for file in MUTATED:
        text = (source_dir / SOLVER / file).read_text()
        lines = text.splitlines()
        for number, _code in _code_lines(text):
            line = lines[number - 1]
            code = line.split("//")[0]
            comment = line[len(code):]
            for k, (operator, mutated) in enumerate(_line_mutants(file, number, code)):
                new_line = mutated + comment if mutated else ""
                if new_line == line:
                    continue
                key = hashlib.sha256(f"{file}\0{number}\0{line}\0{new_line}".encode()).hexdigest()[:10]
                mutants.append(Mutant(f"{file}:{number}:{operator}:{key}", file, number, operator, line, new_line))
    return mutants


def sources_digest(source_dir: Path = C_DIR) -> str:
    """SHA-256 of the production C sources a mutant is made from (solver and harness)."""
    digest = hashlib.sha256()
    for path in sorted(source_dir.rglob("*.[ch]")):
        if "cli" not in path.relative_to(source_dir).parts:
            digest.update(path.relative_to(source_dir).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def apply(mutant: Mutant, source_dir: Path = C_DIR) -> Path:
    """A copy of runners/c with the mutant applied (cached by the mutant and the sources)."""
    import shutil
    key = hashlib.sha256((mutant.id + sources_digest(source_dir)).encode()).hexdigest()[:20]

    def fill(folder: Path) -> None:
        shutil.copytree(source_dir, folder, ignore=shutil.ignore_patterns("*.md", "controls", "variants", "cli"))
        target = folder / SOLVER / mutant.file
        lines = target.read_text().splitlines(keepends=True)
        newline = "\n" if lines[mutant.line - 1].endswith("\n") else ""
        lines[mutant.line - 1] = mutant.mutated + newline
        target.write_text("".join(lines))
    return cached_tree(cache_root() / "mutants" / key, fill)


@dataclass
class Outcome:
    mutant: Mutant
    status: str
    killed_by: str = ""
    step: int | None = None
    seconds: float = 0.0
    detail: str = ""

    def to_json(self) -> dict:
        return {**asdict(self.mutant), "status": self.status, "killed_by": self.killed_by, "step": self.step,
                "seconds": round(self.seconds, 2), "detail": self.detail}


def _verdict_path(mutant: Mutant, root: Path, sanitizer: str | None = None) -> Path:
    from ...reports.report import goldens_digest
    tail = f"\0{sanitizer}" if sanitizer else ""  # the plain verdicts keep their keys
    key = hashlib.sha256(f"{mutant.id}\0{sources_digest()}\0{goldens_digest(root / 'goldens', framed=False)}{tail}".encode())
    return cache_root() / "mutant-verdicts" / f"{key.hexdigest()[:24]}.json"


def run_one(mutant: Mutant, root: Path, timeout: float, *, sanitizer: str | None = None) -> Outcome:
    """Judge one mutant, from the verdict cache when the sources and goldens are unchanged
    (verdicts under a sanitizer are cached apart)."""
    cached = _verdict_path(mutant, root, sanitizer)
    if cached.exists():
        data = json.loads(cached.read_text())
        return Outcome(mutant, data["status"], data["killed_by"], data["step"], data["seconds"], data["detail"])
    outcome = _judge(mutant, root, timeout, sanitizer=sanitizer)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(outcome.to_json()))
    return outcome


SANITIZER_SLOWDOWN = {None: 1.0, "address": 2.0, "thread": 6.0}
"""About how many times longer a verdict takes under each sanitizer, rounded up (measured on the
unmutated sources, docs/mutation/README.md: 1.4 and 5 to 7 times); the default timeout scales with it."""


def default_timeout(sanitizer: str | None = None, plain: float = 30.0) -> float:
    """Seconds per mutant: ``plain`` (enough for a survivor's verdict, about 5 s, two at a time
    on two cores) times the sanitizer's slowdown."""
    return plain * SANITIZER_SLOWDOWN[sanitizer]


def _judge(mutant: Mutant, root: Path, timeout: float, *, sanitizer: str | None = None) -> Outcome:
    """Build and judge one mutant in its own process (with ``sanitizer``, its build and runtime)."""
    tree = apply(mutant)
    found = worker_verdict([str(tree), str(root)], timeout, sanitizer=sanitizer)
    return Outcome(mutant, found["status"], found.get("killed_by", ""), found.get("step"), found["seconds"],
                   found.get("detail", ""))


def worker_verdict(args: list[str], timeout: float, *, sanitizer: str | None = None,
                   module: str = "conformance.selftest.variants.mutate_worker") -> dict:
    """Runs ``python -m module [--sanitize NAME] ARGS`` (with the sanitizer's runtime preloaded)
    and returns its verdict, a dict with ``status`` (killed, survived, build-failed, timeout),
    ``killed_by``, ``step``, ``detail`` and ``seconds``: its own JSON line, else a kill by
    ``sanitizer:NAME`` (a sanitizer's report: its first line, the first frame and what ran), a
    kill by ``crash`` (a signal, caught by a sanitizer or not), or a timeout (no verdict in time,
    or a worker that died without one)."""
    started = time.perf_counter()
    cmd = [sys.executable, "-m", module, *(["--sanitize", sanitizer] if sanitizer else []), *args]
    env = environment(sanitizer) if sanitizer else None
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": TIMEOUT, "detail": f"no verdict within {timeout:.0f} s", "seconds": timeout}
    return {**_classify(done, sanitizer), "seconds": time.perf_counter() - started}


def _classify(done: subprocess.CompletedProcess, sanitizer: str | None) -> dict:
    """A finished worker's verdict (``worker_verdict``), without the seconds."""
    report = find_report(done.stderr) if sanitizer else None
    during = _last_at(done.stderr)
    if report is not None and not report.is_signal:
        return {"status": KILLED, "killed_by": f"sanitizer:{report.sanitizer}",
                "detail": report.detail + (f" during {during}" if during else "")}
    if done.returncode < 0 or report is not None:
        why = report.detail if report is not None else f"signal {-done.returncode}"
        return {"status": KILLED, "killed_by": "crash", "detail": f"the mutant crashed ({why})"}
    if sanitizer and done.returncode == EXIT_STATUS:  # a report in a form find_report does not know
        tail = done.stderr.strip()[-300:]
        return {"status": KILLED, "killed_by": f"sanitizer:{sanitizer}", "detail": f"exit status {EXIT_STATUS}: {tail}"}
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        tail = (done.stderr or done.stdout).strip()[-300:]
        return {"status": TIMEOUT, "detail": f"worker crashed (status {done.returncode}): {tail}"}


def _last_at(stderr: str) -> str:
    """What the worker said it was running last (its ``AT`` lines), or ''."""
    marks = [line[len(AT):] for line in (stderr or "").splitlines() if line.startswith(AT)]
    return marks[-1] if marks else ""


def run_mutants(mutants: list[Mutant], root: Path, jobs: int | None = None, timeout: float = 30.0,
                progress=None, cached: bool = True, *, sanitizer: str | None = None) -> list[Outcome]:
    """Judge every mutant, ``jobs`` processes at a time (default: the number of cores), each
    built with ``sanitizer`` when one is named (``runners.build.sanitizer.SANITIZERS``)."""
    jobs = jobs or os.cpu_count() or 1
    judge = run_one if cached else _judge
    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for outcome in pool.map(lambda m: judge(m, root, timeout, sanitizer=sanitizer), mutants):
            outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
    return outcomes


def id_order(mutant_id: str) -> tuple:
    """Sort key of mutant ids: the solver files in the order of the text, then the line."""
    file, line, *rest = mutant_id.split(":")
    return (MUTATED.index(file) if file in MUTATED else len(MUTATED), int(line), *rest)
