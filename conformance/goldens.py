"""Golden files: the reference's per-step hashes and behaviour figures, one file per scenario.

Contract: goldens are produced only by the reference (``regenerate``), written atomically
(temporary file + rename, never half-written), and every change is reported with its first
differing step.  ``check`` re-runs the reference and reports every mismatch, stale
fingerprint, missing golden and orphan golden file.  ``read_golden`` validates the file and
raises ``InputError`` on anything malformed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from . import __version__, schema_files
from .driver import run
from .errors import InputError
from .figures import FigureRecorder
from .jsonfile import read_json, write_json_atomic
from .scenario import Scenario
from .state_hash import state_hash

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
    data = read_json(path)
    found = schema_files.problem("golden", data)  # conformance/schemas/golden.schema.json
    if found:
        raise InputError(file, *found)
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


def golden_files(root: Path) -> list[Path]:
    """Scenario goldens below root (primitive vectors under root/vectors are not scenario goldens)."""
    vectors = root / "vectors"
    return sorted(p for p in root.rglob("*.json") if vectors not in p.parents and not p.name.startswith("."))


def orphans(root: Path, scenario_ids: Iterable[str]) -> list[Path]:
    """Golden files with no scenario."""
    known = {golden_path(root, i).resolve() for i in scenario_ids}
    return [p for p in golden_files(root) if p.resolve() not in known]
