"""Golden files: the reference's per-step hashes and behaviour figures, one file per scenario.

Contract: goldens are produced only by the reference (``regenerate``), written atomically
(temporary file + rename, never half-written), and every change is reported with its first
differing step.  ``golden_status`` is the one decision of whether a scenario's golden is
there, made for this version of the scene (its fingerprint) and under its id; ``orphans`` the
one list of golden files no scenario owns: ``check``, ``goldens check`` and the matrix all ask
them.  ``read_golden`` validates the file and raises ``InputError`` on anything malformed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .. import __version__
from ..contract import schema_files
from ..contract.driver import run
from ..errors import InputError
from .figures import FigureRecorder
from ..jsonfile import read_json, write_json_atomic
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


def golden_files(root: Path) -> list[Path]:
    """Scenario goldens below root (primitive vectors under root/vectors are not scenario goldens)."""
    vectors = root / "vectors"
    return sorted(p for p in root.rglob("*.json") if vectors not in p.parents and not p.name.startswith("."))


def orphans(root: Path, scenario_ids: Iterable[str]) -> list[Path]:
    """Golden files with no scenario."""
    known = {golden_path(root, i).resolve() for i in scenario_ids}
    return [p for p in golden_files(root) if p.resolve() not in known]
