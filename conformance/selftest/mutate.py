"""Mutation testing of the C port: how much of the solver do the scenarios and vectors pin down?

Contract: ``generate_mutants()`` makes one-change mutants of the solver sources (arithmetic
operator swaps, comparison flips and strict/non-strict swaps, constant tweaks, swapped operands
of - and /, deleted statements, loop-bound shifts), each with a stable id.  ``run_mutants``
builds each through the build layer in its own process (in parallel, cached by the mutant's
source), runs the primitive vectors and then the scenarios cheapest first against the goldens,
stops at the first divergence, and classifies it: killed (by which vector family or scenario,
at which step), survived, build failure, or timeout/crash.  Survivors are checked against the
reviewed list of equivalent mutants (docs/mutation/equivalent.json).
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

from ..contract import schema_files
from ..runners.build import C_DIR, cache_root
from ..errors import InputError
from ..jsonfile import read_json

SOLVER_FILES = ("vector.h", "halfplane.h", "obstacle.h", "obstacle.c", "constraint.h", "constraint.c",
                "linear_program.h", "linear_program.c", "fallback.h", "fallback.c", "neighbors.h", "neighbors.c",
                "simulator.c")
KILLED, SURVIVED, BUILD_FAILED, TIMEOUT = "killed", "survived", "build-failed", "timeout"


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
    for file in SOLVER_FILES:
        text = (source_dir / file).read_text()
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
    """SHA-256 of the production C sources a mutant is made from."""
    digest = hashlib.sha256()
    for path in sorted(source_dir.glob("*.[ch]")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def apply(mutant: Mutant, source_dir: Path = C_DIR) -> Path:
    """A copy of runners/c with the mutant applied (cached by the mutant and the sources)."""
    import shutil
    key = hashlib.sha256((mutant.id + sources_digest(source_dir)).encode()).hexdigest()[:20]
    folder = cache_root() / "mutants" / key
    if (folder / ".complete").exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(source_dir, folder, ignore=shutil.ignore_patterns("*.md", "controls", "variants", "cli"))
    target = folder / mutant.file
    lines = target.read_text().splitlines(keepends=True)
    newline = "\n" if lines[mutant.line - 1].endswith("\n") else ""
    lines[mutant.line - 1] = mutant.mutated + newline
    target.write_text("".join(lines))
    (folder / ".complete").write_text("ok\n")
    return folder


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


def _verdict_path(mutant: Mutant, root: Path) -> Path:
    from ..reports.report import goldens_digest
    key = hashlib.sha256(f"{mutant.id}\0{sources_digest()}\0{goldens_digest(root / 'goldens')}".encode())
    return cache_root() / "mutant-verdicts" / f"{key.hexdigest()[:24]}.json"


def run_one(mutant: Mutant, root: Path, timeout: float) -> Outcome:
    """Judge one mutant, from the verdict cache when the sources and goldens are unchanged."""
    cached = _verdict_path(mutant, root)
    if cached.exists():
        data = json.loads(cached.read_text())
        return Outcome(mutant, data["status"], data["killed_by"], data["step"], data["seconds"], data["detail"])
    outcome = _judge(mutant, root, timeout)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(outcome.to_json()))
    return outcome


def _judge(mutant: Mutant, root: Path, timeout: float) -> Outcome:
    """Build and judge one mutant in its own process."""
    started = time.perf_counter()
    tree = apply(mutant)
    cmd = [sys.executable, "-m", "conformance.mutate_worker", str(tree), str(root)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome(mutant, TIMEOUT, detail=f"no verdict within {timeout:.0f} s", seconds=timeout)
    seconds = time.perf_counter() - started
    if done.returncode < 0:
        return Outcome(mutant, KILLED, "crash", None, seconds, f"the mutant crashed (signal {-done.returncode})")
    try:
        verdict = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        tail = (done.stderr or done.stdout).strip()[-300:]
        return Outcome(mutant, TIMEOUT, detail=f"worker crashed (status {done.returncode}): {tail}", seconds=seconds)
    return Outcome(mutant, verdict["status"], verdict.get("killed_by", ""), verdict.get("step"), seconds,
                   verdict.get("detail", ""))


def run_mutants(mutants: list[Mutant], root: Path, jobs: int | None = None, timeout: float = 30.0,
                progress=None, cached: bool = True) -> list[Outcome]:
    """Judge every mutant, ``jobs`` processes at a time (default: the number of cores)."""
    jobs = jobs or os.cpu_count() or 1
    judge = run_one if cached else _judge
    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for outcome in pool.map(lambda m: judge(m, root, timeout), mutants):
            outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
    return outcomes


EVIDENCE_SEEDS = 12
"""Fresh seeds per primitive family behind an equivalence claim (about 100,000 cases)."""


def evidence_cases(seeds: int = EVIDENCE_SEEDS) -> Path:
    """Seeds 1..seeds of every primitive family with the reference's results, computed once
    and kept in the cache (keyed by the generator and reference sources)."""
    from ..data import vectors
    from ..jsonfile import write_json_atomic
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(str(seeds).encode())
    for path in sorted([package / "data" / "vectors.py", package / "data" / "vector_edges.py",
                        *(package / "solver").glob("*.py")]):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    path = cache_root() / "mutant-evidence" / f"cases-{digest.hexdigest()[:20]}.json"
    if not path.exists():
        cases = {f.name: [c for seed in range(1, seeds + 1) for c in vectors.generate(f.name, seed)]
                 for f in vectors.FAMILIES}
        write_json_atomic(path, cases)
    return path


@dataclass(frozen=True)
class Evidence:
    """A mutant run on fresh primitive inputs: cases given, cases whose bits differed."""

    compared: int
    differ: int
    first: str = ""
    sources: str = ""
    """sources_digest() prefix of the C sources the evidence was taken on."""
    scenarios: int = 0
    """Slow scenarios also run (bulk path), counted in differ when their hashes differ."""

    def holds(self) -> bool:
        return self.compared > 0 and self.differ == 0 and self.sources == sources_digest()[:16]


def gather_evidence(mutant: Mutant, cases: Path, root: Path, timeout: float = 300.0) -> Evidence:
    """Runs the mutant on the fresh cases and the slow scenarios, in its own process."""
    tree = apply(mutant)
    cmd = [sys.executable, "-m", "conformance.mutate_worker", "--evidence", str(tree), str(cases), str(root)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        data = json.loads(done.stdout.strip().splitlines()[-1])
    except subprocess.TimeoutExpired:
        return Evidence(0, 1, f"no answer within {timeout:.0f} s", sources_digest()[:16])
    except (IndexError, ValueError):
        return Evidence(0, 1, f"the mutant crashed (status {done.returncode})", sources_digest()[:16])
    return Evidence(data["compared"], data["differ"], data["first"], sources_digest()[:16], data.get("scenarios", 0))


@dataclass(frozen=True)
class Equivalence:
    """One reviewed entry of docs/mutation/equivalent.json."""

    id: str
    reason: str
    evidence: Evidence | None

    def to_json(self) -> dict:
        out = {"id": self.id, "reason": self.reason}
        if self.evidence is not None:
            out["evidence"] = asdict(self.evidence)
        return out


def read_reviewed(path: Path) -> dict:
    """docs/mutation/equivalent.json, valid against conformance/schemas/equivalent.schema.json
    (InputError naming the file, key path and reason otherwise); empty when there is none."""
    if not path.exists():
        return {"equivalent": [], "gaps": []}
    data = read_json(path)
    found = schema_files.problem("equivalent", data)
    if found:
        raise InputError(str(path), *found)
    return data


def load_equivalent(path: Path) -> dict[str, Equivalence]:
    """The reviewed list: id -> entry (with its evidence, when gathered)."""
    data = read_reviewed(path)
    out = {}
    for entry in data["equivalent"]:
        ev = entry.get("evidence")
        out[entry["id"]] = Equivalence(entry["id"], entry["reason"], Evidence(**ev) if ev else None)
    return out


def load_gap_notes(path: Path) -> dict[str, str]:
    """Reviewed gaps: id -> why no vector or scenario kills the mutant yet."""
    return {entry["id"]: entry["note"] for entry in read_reviewed(path).get("gaps", [])}


def save_equivalent(path: Path, entries: dict[str, Equivalence]) -> None:
    from ..jsonfile import write_json_atomic
    data = read_reviewed(path)
    data["equivalent"] = [entries[k].to_json() for k in sorted(entries, key=_id_order)]
    write_json_atomic(path, data)


def _id_order(mutant_id: str) -> tuple:
    file, line, *rest = mutant_id.split(":")
    return (SOLVER_FILES.index(file) if file in SOLVER_FILES else len(SOLVER_FILES), int(line), *rest)


def score(outcomes: list[Outcome], equivalent: dict[str, Equivalence]) -> dict:
    """Counts and scores; a survivor counts as equivalent only when it is on the reviewed list
    and its evidence holds for the current sources (else it is a gap)."""
    killed = sum(o.status == KILLED for o in outcomes)
    survived = [o for o in outcomes if o.status == SURVIVED]
    gaps = [o for o in survived if not is_equivalent(o.mutant.id, equivalent)]
    return {
        "mutants": len(outcomes), "killed": killed, "survived": len(survived),
        "equivalent": len(survived) - len(gaps), "gaps": len(gaps),
        "build_failed": sum(o.status == BUILD_FAILED for o in outcomes),
        "timeout": sum(o.status == TIMEOUT for o in outcomes),
        "score": killed / max(1, killed + len(survived)),
        "score_non_equivalent": killed / max(1, killed + len(gaps)),
    }


def is_equivalent(mutant_id: str, equivalent: dict[str, Equivalence]) -> bool:
    entry = equivalent.get(mutant_id)
    return entry is not None and entry.evidence is not None and entry.evidence.holds()


def write_report(outcomes: list[Outcome], equivalent: dict[str, Equivalence], folder: Path,
                 seconds: float, gap_notes: dict[str, str] | None = None) -> list[Path]:
    """report.json and report.md: the score, the survivors with their diffs and verdicts."""
    from ..jsonfile import write_json_atomic
    folder.mkdir(parents=True, exist_ok=True)
    summary = score(outcomes, equivalent)
    data = {"summary": {**summary, "seconds": round(seconds, 1)},
            "outcomes": [o.to_json() for o in outcomes]}
    write_json_atomic(folder / "report.json", data)
    lines = ["# Mutation report of the C port", "",
             f"{summary['mutants']} mutants of the solver sources ({', '.join(SOLVER_FILES)}): "
             f"{sum(o.seconds for o in outcomes) / 60:.0f} minutes of judging (one process per mutant; "
             f"this report took {seconds / 60:.1f} minutes of wall time, cached verdicts included).", "",
             "| killed | survived | of which reviewed equivalent | gaps | build failures | timeouts |",
             "|---|---|---|---|---|---|",
             f"| {summary['killed']} | {summary['survived']} | {summary['equivalent']} | {summary['gaps']} | "
             f"{summary['build_failed']} | {summary['timeout']} |", "",
             f"**Score** killed / (killed + survived): {100 * summary['score']:.1f} %; on non-equivalent "
             f"mutants killed / (killed + gaps): **{100 * summary['score_non_equivalent']:.1f} %**.", ""]
    by_killer: dict[str, int] = {}
    for o in outcomes:
        if o.status == KILLED:
            key = o.killed_by.split("#")[0]
            by_killer[key] = by_killer.get(key, 0) + 1
    lines += ["## What kills them", "", "| killed by | mutants |", "|---|---|"]
    lines += [f"| `{k}` | {v} |" for k, v in sorted(by_killer.items(), key=lambda kv: -kv[1])]
    survivors = [o for o in outcomes if o.status == SURVIVED]
    lines += ["", "## Survivors", ""]
    for o in survivors:
        entry = equivalent.get(o.mutant.id)
        verdict = "equivalent" if is_equivalent(o.mutant.id, equivalent) else "GAP"
        lines += [f"### `{o.mutant.id}` — {verdict}", "", "```diff", o.mutant.diff(), "```", ""]
        if verdict == "GAP" and o.mutant.id in (gap_notes or {}):
            lines += [f"Reviewed: {gap_notes[o.mutant.id]}", ""]
        if entry is not None:
            lines += [entry.reason, ""]
            ev = entry.evidence
            if ev is None:
                lines += ["Evidence: not gathered (`orca-conformance mutate --evidence`).", ""]
            else:
                reach = (" (no primitive family calls simulator.c: the scenarios are its evidence)"
                         if o.mutant.file == "simulator.c" else "")
                lines += [f"Evidence: {ev.compared:,} fresh primitive cases{reach} and {ev.scenarios} slow "
                          f"scenario(s), {ev.differ} with other bits" + (f" (first: {ev.first})" if ev.first else "")
                          + ("" if ev.holds() else "; does not hold for the current sources") + "; every "
                          "non-slow scenario identical on the bulk, threaded and per-agent paths.", ""]
    others = [o for o in outcomes if o.status in (BUILD_FAILED, TIMEOUT)]
    if others:
        lines += ["## Build failures and timeouts", ""]
        lines += [f"- `{o.mutant.id}` {o.status}: {o.detail[:160]}" for o in others]
    (folder / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [folder / "report.json", folder / "report.md"]
