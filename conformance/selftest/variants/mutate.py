"""Mutation testing of the C port: how much of the solver do the scenarios and vectors pin down?

Contract: ``generate_mutants()`` makes one-change mutants of the solver sources (arithmetic
operator swaps, comparison flips and strict/non-strict swaps, constant tweaks, swapped operands
of - and /, deleted statements, loop-bound shifts), each a ``Variant`` of the ``mutation``
generator with a stable id ``FILE:LINE:OPERATOR:HASH``.  ``run_mutants`` judges them on the
variant engine (``engine.judge_all``, the ``mutation`` worker profile: the primitive vectors
first, then the scenarios cheapest first on three run paths, stopping at the first divergence;
verdicts cached by the mutant, the C sources and the goldens) and gives each its report line
(``Outcome``) in the mutation report's words: ``killed`` (by which vector family or scenario,
at which step, or by ``crash``), ``survived``, ``build-failed`` or ``timeout``.  With
``sanitizer="address"`` or ``"thread"`` each mutant is built with that sanitizer and its worker
runs with the runtime preloaded (``runners.build.sanitizer``); a report is a kill by
``sanitizer:address`` or ``sanitizer:thread`` (its first line in the detail), a signal stays a
kill by ``crash``.  The reviewed equivalents live in ``review``, the score and report in
``mutation_report``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ...runners.build.sources import C_DIR, MUTATED, SOLVER
from .engine import Run, judge, judge_all
from .tree import sources_digest
from .variant import MUTATION, Variant
from .verdicts import MUTATION_WORDS, VariantStatus, VerdictCache

KILLED, SURVIVED, BUILD_FAILED, TIMEOUT = "killed", "survived", "build-failed", "timeout"
"""The mutation report's words (``verdicts.MUTATION_WORDS`` maps the engine's onto them)."""


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


def generate_mutants(source_dir: Path = C_DIR) -> list[Variant]:
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
                mutants.append(Variant(f"{file}:{number}:{operator}:{key}", MUTATION, operator, file,
                                       f"{SOLVER}/{file}", number, line, new_line))
    return mutants


@dataclass
class Outcome:
    """One mutant's line of the mutation report, in its words (``verdicts.MUTATION_WORDS``)."""

    mutant: Variant
    status: str
    killed_by: str = ""
    step: int | None = None
    seconds: float = 0.0
    detail: str = ""
    verdict: VariantStatus | None = None
    """The engine's word for it (scene, vectors, crash, ...; None when made by hand)."""

    def to_json(self) -> dict:
        m = self.mutant
        return {"id": m.id, "file": m.file, "line": m.line, "operator": m.operator, "original": m.original,
                "mutated": m.mutated, "status": self.status, "killed_by": self.killed_by, "step": self.step,
                "seconds": round(self.seconds, 2), "detail": self.detail}


def outcome(mutant: Variant, raw: dict) -> Outcome:
    """A mutant's report line from the engine's raw verdict (equivalence is the report's)."""
    status = VariantStatus(raw["status"])
    return Outcome(mutant, MUTATION_WORDS[status], raw.get("killed_by", ""), raw.get("step"), raw.get("seconds", 0.0),
                   raw.get("detail", ""), status)


def verdict_key(mutant: Variant, goldens: str, sanitizer: str | None = None) -> str:
    """The cache key text of a mutant's verdict: its id, the C sources and the goldens (verdicts
    under a sanitizer are kept apart; the plain verdicts keep their keys)."""
    tail = f"\0{sanitizer}" if sanitizer else ""
    return f"{mutant.id}\0{sources_digest()}\0{goldens}{tail}"


CACHE = VerdictCache("mutant-verdicts")
"""Every mutant verdict is kept, a timeout too (a mutant that loops stays looping)."""


def goldens_of(root: Path) -> str:
    """The digest of the goldens a mutant is judged on (the scenario files' own scenes and the vectors)."""
    from ...reports.report import goldens_digest
    return goldens_digest(root / "goldens", framed=False)


def _verdict_path(mutant: Variant, root: Path, sanitizer: str | None = None) -> Path:
    return CACHE.path(verdict_key(mutant, goldens_of(root), sanitizer))


SANITIZER_SLOWDOWN = {None: 1.0, "address": 2.0, "thread": 6.0}
"""About how many times longer a verdict takes under each sanitizer, rounded up (measured on the
unmutated sources, docs/mutation/README.md: 1.4 and 5 to 7 times); the default timeout scales with it."""


def default_timeout(sanitizer: str | None = None, plain: float = 30.0) -> float:
    """Seconds per mutant: ``plain`` (enough for a survivor's verdict, about 5 s, two at a time
    on two cores) times the sanitizer's slowdown."""
    return plain * SANITIZER_SLOWDOWN[sanitizer]


def _run(root: Path, timeout: float, jobs: int | None = None, cached: bool = True,
         sanitizer: str | None = None) -> Run:
    goldens = goldens_of(root)
    return Run(root, MUTATION, CACHE, lambda m: verdict_key(m, goldens, sanitizer), goldens, timeout, jobs,
               sanitizer, cached)


def _judge(mutant: Variant, root: Path, timeout: float, *, sanitizer: str | None = None) -> Outcome:
    """Build and judge one mutant in its own process, afresh (with ``sanitizer``, its build and runtime)."""
    return outcome(mutant, judge(mutant, _run(root, timeout, sanitizer=sanitizer)))


def run_mutants(mutants: list[Variant], root: Path, jobs: int | None = None, timeout: float = 30.0,
                progress=None, cached: bool = True, *, sanitizer: str | None = None) -> list[Outcome]:
    """Judge every mutant, ``jobs`` processes at a time (default: the number of cores), each
    built with ``sanitizer`` when one is named (``runners.build.sanitizer.SANITIZERS``)."""
    return judge_all(mutants, _run(root, timeout, jobs, cached, sanitizer), outcome, progress)
