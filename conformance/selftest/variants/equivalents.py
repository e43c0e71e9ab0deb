"""The reviewed equivalent mutants (docs/mutation/equivalent.json) and the evidence behind each.

Contract: ``load_equivalent(path)`` reads the reviewed list (valid against
``equivalent.schema.json``); an entry counts as equivalent (``is_equivalent``) only when its
evidence holds for the current C sources.  ``gather_evidence(mutant, ...)`` runs one mutant in
its own process on fresh primitive inputs (``evidence_cases``: seeds 1..12 of every family, with
the reference's results) and on the slow scenarios, and says how many cases it compared and
whether any differed.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from ... import shipped
from ...contract import schema_files
from ...runners.build.layer import cache_root
from .mutate import Mutant, apply, id_order, sources_digest


EVIDENCE_SEEDS = 12
"""Fresh seeds per primitive family behind an equivalence claim (about 100,000 cases)."""


def evidence_cases(seeds: int = EVIDENCE_SEEDS) -> Path:
    """Seeds 1..seeds of every primitive family with the reference's results, computed once
    and kept in the cache (keyed by the generator and reference sources)."""
    from ...data import vectors
    from ...jsonfile import write_json_atomic
    package = shipped.PACKAGE
    digest = hashlib.sha256(str(seeds).encode())
    for path in sorted([*(package / "data").glob("vector*.py"), *(package / "solver").glob("*.py")]):
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
    cmd = [sys.executable, "-m", "conformance.selftest.variants.mutate_worker", "--evidence", str(tree), str(cases), str(root)]
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
    return schema_files.read_valid(path, "equivalent")


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
    from ...jsonfile import write_json_atomic
    data = read_reviewed(path)
    data["equivalent"] = [entries[k].to_json() for k in sorted(entries, key=id_order)]
    write_json_atomic(path, data)


def is_equivalent(mutant_id: str, equivalent: dict[str, Equivalence]) -> bool:
    entry = equivalent.get(mutant_id)
    return entry is not None and entry.evidence is not None and entry.evidence.holds()
