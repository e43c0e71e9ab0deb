"""Golden files: the reference's per-step hashes and behaviour figures, one file per scenario.

Contract: goldens are produced only by the reference (``regenerate``), written atomically
(temporary file + rename, never half-written), and every change is reported with its first
differing step; a golden whose figures break its scenario's own ``expect:`` is refused (not
written, the old one stays).  ``check_goldens`` re-runs the reference and reports every
scenario whose golden is missing, stale, under another id or differs, and (for the whole
suite) the vector files and orphans; it fails on any, or when nothing was compared.  Both
say one line per item and a summary through the ``say`` given, in the order of the scenarios
given, whether the reference runs in one process or in ``jobs`` worker processes (None: every
core; reference_pool.py); the files are read and written in this process only.
``golden_status`` is the one decision of whether a scenario's golden is there, made for this
version of the scene (its fingerprint) and under its id; ``orphans`` the one list of golden
files no scenario owns: ``check``, ``goldens check`` and the matrix all ask them.
``read_golden`` validates the file and raises ``InputError`` on anything malformed;
``require_readable`` reads what a matrix run will, before it starts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .. import __version__
from ..contract import schema_files
from ..contract.driver import run
from ..contract.expectations import check_expectations
from ..errors import InputError, did_you_mean
from . import vectors
from .figures import FigureRecorder
from .suite import Suite
from ..jsonfile import write_json_atomic
from .reference_pool import reference_goldens
from ..contract.scenario import Scenario
from ..contract.state_hash import state_hash

GOLDEN_FORMAT = "orca-golden/1"


@dataclass(frozen=True)
class Golden:
    """Parsed golden file."""

    id: str
    fingerprint: str
    steps: int
    hashes: tuple[str, ...]
    figures: dict
    path: str

    def to_json(self) -> dict:
        return {
            "format": GOLDEN_FORMAT,
            "id": self.id,
            "fingerprint": self.fingerprint,
            "suite_version": __version__,
            "steps": self.steps,
            "final_state_hash": self.hashes[-1],
            "figures": self.figures,
            "hashes": list(self.hashes),
        }


def golden_path(root: Path, scenario_id: str) -> Path:
    return root / (scenario_id + ".json")


def compute_golden(scenario: Scenario, root: Path,
                   on_step: Callable[[int], None] | None = None) -> Golden:
    """Run the reference over the whole scenario and collect hashes and figures."""
    recorder = FigureRecorder(scenario.scene)
    hashes = []
    for step, data in enumerate(run(scenario.scene, observer=recorder)):
        hashes.append(state_hash(data))
        if on_step is not None:
            on_step(step)
    return Golden(scenario.id, scenario.fingerprint, scenario.scene.steps, tuple(hashes),
                  recorder.figures(), str(golden_path(root, scenario.id)))


def read_golden(path: Path) -> Golden:
    """Load and validate one golden file."""
    file = str(path)
    data = schema_files.read_valid(path, "golden")
    hashes = data["hashes"]
    if len(hashes) != data["steps"] + 1:
        raise InputError(file, "hashes", f"{len(hashes)} hashes for {data['steps']} steps (want steps + 1)")
    if hashes[-1] != data["final_state_hash"]:
        raise InputError(file, "final_state_hash", "is not the last of the hashes")
    return Golden(data["id"], data["fingerprint"], data["steps"], tuple(hashes), data["figures"], file)


def write_golden(golden: Golden, path: Path) -> None:
    """Atomic write of a golden file."""
    write_json_atomic(path, golden.to_json())


def first_difference(a: Iterable[str], b: Iterable[str]) -> int | None:
    """Index of the first differing hash (a length difference counts), or None."""
    a = list(a)
    b = list(b)
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return k
    if len(a) != len(b):
        return min(len(a), len(b))
    return None


OK, MISSING, STALE, WRONG_ID = "ok", "missing", "stale", "wrong-id"


@dataclass(frozen=True)
class GoldenStatus:
    """A scenario's golden: OK (there and fresh), MISSING, STALE (made for another version of
    the scene) or WRONG_ID (the file names another scenario); the parsed golden unless missing."""

    kind: str
    path: Path
    golden: Golden | None

    def problem(self, scenario_id: str, shown: Path) -> str:
        """The one sentence that says what is wrong (``shown`` is the path as printed); empty for OK."""
        regen = f"run: orca-conformance goldens regen {scenario_id}"
        if self.kind == MISSING:
            return f"{scenario_id}: no golden ({shown}); {regen}"
        if self.kind == STALE:
            return (f"{scenario_id}: golden is stale (made for another version of the scene: fingerprint "
                    f"{self.golden.fingerprint[:19]}...); {regen}")
        if self.kind == WRONG_ID:
            return f"{shown}: id {self.golden.id!r} does not match the scenario {scenario_id!r}"
        return ""


def golden_status(root: Path, scenario: Scenario) -> GoldenStatus:
    """Whether ``scenario`` has a fresh golden under ``root``; InputError for a malformed file."""
    path = golden_path(root, scenario.id)
    if not path.exists():
        return GoldenStatus(MISSING, path, None)
    golden = read_golden(path)
    if golden.id != scenario.id:
        return GoldenStatus(WRONG_ID, path, golden)
    if golden.fingerprint != scenario.fingerprint:
        return GoldenStatus(STALE, path, golden)
    return GoldenStatus(OK, path, golden)


def require_readable(root: Path, scenarios: Iterable[Scenario], with_vectors: bool) -> None:
    """What a matrix run will read, read before its first build or cell: each scenario's golden
    that exists, and (``with_vectors``) every vector file.  InputError for the first malformed
    or missing vector file or malformed golden; a missing, stale or misnamed golden is no bad
    input (its cell says so) and passes."""
    for scenario in scenarios:
        golden_status(root, scenario)
    if with_vectors:
        vectors.load_all(root / "vectors")  # cached by the file's stat: the run reads it again for free


def golden_files(root: Path) -> list[Path]:
    """Scenario goldens below root (primitive vectors under root/vectors are not scenario goldens)."""
    vectors = root / "vectors"
    return sorted(p for p in root.rglob("*.json") if vectors not in p.parents and not p.name.startswith("."))


def orphans(root: Path, scenario_ids: Iterable[str]) -> list[Path]:
    """Golden files with no scenario."""
    known = {golden_path(root, i).resolve() for i in scenario_ids}
    return [p for p in golden_files(root) if p.resolve() not in known]


def run_reference(scenarios: list[Scenario], root: Path,
                  jobs: int | None = None) -> Iterator[tuple[Scenario, Golden, float]]:
    """Each scenario's golden as the reference computes it now, with its seconds (one progress
    bar), in the order given; in ``jobs`` processes (None: every core), the dearest first."""
    return reference_goldens(scenarios, root, compute_golden, jobs)


def regen_targets(suite: Suite, ids: list[str], include_slow: bool,
                  include_frames: bool | None = None) -> tuple[list[Scenario], list[str] | None]:
    """What ``goldens regen IDS`` asks for: the scenarios named by id or glob (every non-slow one
    and the default matrix's framed variants, ``include_frames``: every variant, when no id is given, none when only vector families are) and the families named as
    vectors/FAMILY (None: every family, when no id is given).  InputError for an unknown family."""
    families = [i[len("vectors/"):] for i in ids if i.startswith("vectors/")]
    unknown = [f for f in families if f not in vectors.FAMILY_BY_NAME]
    if unknown:
        names = [f.name for f in vectors.FAMILIES]
        hint = did_you_mean(unknown[0], names, prefix="vectors/")
        raise InputError("command line", "ids",
                         f"unknown vector family {unknown[0]!r}" + (hint or f"; known: {', '.join(names)}"))
    scenario_ids = [i for i in ids if not i.startswith("vectors/")]
    scenarios = suite.select(scenario_ids, include_slow, include_frames) if scenario_ids or not families else []
    return scenarios, (families if ids else None)


@dataclass(frozen=True)
class Regenerated:
    """What ``regenerate`` did: scenarios run, files written, goldens refused, seconds."""

    scenarios: int
    written: int
    refused: int
    seconds: float

    def summary(self) -> str:
        count = f"{self.scenarios} scenario" + ("" if self.scenarios == 1 else "s")
        return (f"goldens regen: {count}, {self.written} written, "
                + (f"{self.refused} refused (the reference does not meet their expect:), " if self.refused else "")
                + f"{self.seconds:.1f} s")


def regenerate(suite: Suite, scenarios: list[Scenario], families: list[str] | None,
               say: Callable[[str], None], jobs: int | None = None) -> Regenerated:
    """Writes the goldens of ``scenarios`` that changed, and the vector files of ``families``
    (None: every family; empty: none); one line per scenario and family, then the summary."""
    started = time.perf_counter()
    written = refused = 0
    for s, golden, seconds in run_reference(scenarios, suite.goldens_dir, jobs):
        path = golden_path(suite.goldens_dir, s.id)
        violations = check_expectations(s, golden.figures)
        if violations:
            # a golden is written only for a valid scenario: one whose own expect: the
            # reference meets; the old golden (if any) stays as it was
            refused += 1
            for violation in violations:
                say(f"{'REFUSED':<10} {s.id}: {violation}; golden not written "
                    f"({Path(s.source).relative_to(suite.root)}: loosen the bound or change the scene)")
            continue
        verdict = _write_if_changed(golden, path)
        if verdict is None:
            say(f"unchanged  {s.id}  ({seconds:.1f} s)")
            continue
        written += 1
        say(f"{verdict:<10} {s.id}  ({seconds:.1f} s) -> {path.relative_to(suite.root)}")
    if families is None or families:
        for name, verdict in vectors.regenerate_all(suite.goldens_dir / "vectors", families):
            if verdict != "unchanged":
                written += 1
            say(f"{verdict:<10} vectors/{name}")
    done = Regenerated(len(scenarios), written, refused, time.perf_counter() - started)
    say(done.summary())
    return done


def _write_if_changed(golden: Golden, path: Path) -> str | None:
    """Writes ``golden`` unless the file holds the same; "new", "changed (...)", or None."""
    old = read_golden(path) if path.exists() else None
    if old is None:
        verdict = "new"
    else:
        k = first_difference(old.hashes, golden.hashes)
        if k is None and old.fingerprint == golden.fingerprint and old.figures == golden.figures:
            return None
        verdict = "changed" + (f" (first differing step {k})" if k is not None else " (fingerprint or figures only)")
    write_golden(golden, path)
    return verdict


@dataclass(frozen=True)
class Checked:
    """What ``check_goldens`` found: scenarios run, states compared, problems, slow ones left out."""

    scenarios: int
    compared: int
    problems: int
    skipped: int
    seconds: float

    def summary(self) -> str:
        return (f"goldens check: {self.scenarios} scenarios, {self.compared} states compared, "
                f"{self.problems} problems, {self.skipped} skipped, {self.seconds:.1f} s")

    @property
    def failed(self) -> bool:
        """A problem, or nothing compared at all (a check that checked nothing fails)."""
        return bool(self.problems) or self.compared == 0


def check_goldens(suite: Suite, scenarios: list[Scenario], whole: bool, say: Callable[[str], None],
                  jobs: int | None = None) -> Checked:
    """Re-runs the reference on ``scenarios`` and compares with their goldens; with ``whole``
    (no ids asked for) also the vector files, the slow scenarios left out, and the orphans.
    One line per scenario and problem, then the summary."""
    started = time.perf_counter()
    everything = suite.scenarios()
    skipped = [s for s in everything if s.slow and s not in scenarios] if whole else []
    chosen = {s.id for s in scenarios}
    unframed = [s for s in everything if s.frame and s.id not in chosen] if whole else []
    problems = compared = 0
    for s, golden, seconds in run_reference(scenarios, suite.goldens_dir, jobs):
        status = golden_status(suite.goldens_dir, s)
        if status.kind != OK:
            say(f"{status.kind.upper():<9} {status.problem(s.id, status.path.relative_to(suite.root))}")
            problems += 1
            continue
        k = first_difference(status.golden.hashes, golden.hashes)
        compared += len(golden.hashes)
        if k is not None:
            say(f"MISMATCH  {s.id}: first differing step {k} ({seconds:.1f} s)")
            problems += 1
        else:
            say(f"ok        {s.id}  {len(golden.hashes)} states ({seconds:.1f} s)")
    if whole:
        vector_problems = vectors.check_all(suite.goldens_dir / "vectors")
        for problem in vector_problems:
            say(f"VECTORS   {problem}")
        if not vector_problems:
            say(f"ok        vectors: {len(vectors.FAMILIES)} families")
        for s in skipped:
            say(f"SKIPPED   {s.id}: slow (add --all)")
        if unframed:
            say(f"SKIPPED   {len(unframed)} framed variants outside the default matrix (add --frames)")
        found = orphans(suite.goldens_dir, [s.id for s in everything])
        for orphan in found:
            say(f"ORPHAN    {orphan.relative_to(suite.root)}")
        problems += len(vector_problems) + len(found)
    checked = Checked(len(scenarios), compared, problems, len(skipped) + len(unframed), time.perf_counter() - started)
    say(checked.summary())
    if compared == 0 and problems == 0:
        say("goldens check: nothing was compared")
    return checked
