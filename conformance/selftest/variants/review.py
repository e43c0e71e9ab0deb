"""The review lists of the variant engine: the survivors someone reviewed, and the evidence behind each.

Contract: each generator keeps its list in its own file and schema.  The mutants' is
docs/mutation/equivalent.json (``equivalent.schema.json``): ``load_equivalent(path)`` reads its
entries (``Equivalence``: a reason and, once gathered, random ``Evidence``), ``load_gap_notes``
its reviewed gaps, ``save_equivalent`` writes the entries back in id order; a mutant counts as
equivalent (``is_equivalent``) only when its evidence holds for the current C sources.  The
operators' is docs/operators/equivalent.json (``operator-equivalent.schema.json``):
``load_reviewed(root)`` and ``save_reviewed(root, entries)``; an entry's ``status()`` is
``proved`` when it carries a solver's unsat proof, ``searched`` when the band search aimed at it
(band_search.py) ran on the current C sources and generator and separated nothing, and ``gap``
otherwise: its random evidence is a record only.  Either file, malformed, is an InputError naming
the file, the key path and the reason; a missing file is an empty list.

``evidence_cases()`` is the fresh random inputs an equivalence claim is checked on (seeds 1..12
of every primitive family, with the reference's results, cached); ``gather(tree, cases, root)``
runs one variant's tree on them and on the slow scenarios, in its own process (``worker
--evidence``), and returns the evidence record both lists store.
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
from ...runners.build.sources import MUTATED
from .engine import WORKER
from .tree import sources_digest

EVIDENCE_SEEDS = 12
"""Fresh seeds per primitive family behind an equivalence claim (about 100,000 cases)."""

REVIEWED = Path("docs") / "operators" / "equivalent.json"
"""The operators' review list, relative to the suite root."""

MUTATION_REVIEWED = Path("docs") / "mutation" / "equivalent.json"
"""The mutants' review list, relative to the suite root."""


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


def gather(tree: Path, cases: Path, root: Path, timeout: float = 300.0) -> dict:
    """The evidence record of a variant's tree on the fresh cases and the slow scenarios:
    ``compared``, ``differ``, ``first``, ``sources`` (sources_digest prefix), ``scenarios``; a
    timeout or a crash is one differing case."""
    cmd = [sys.executable, "-m", WORKER, "--evidence", str(tree), str(cases), str(root)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        data = json.loads(done.stdout.strip().splitlines()[-1])
    except subprocess.TimeoutExpired:
        data = {"compared": 0, "differ": 1, "first": f"no answer within {timeout:.0f} s"}
    except (IndexError, ValueError):
        data = {"compared": 0, "differ": 1, "first": f"the variant crashed (status {done.returncode})"}
    return {"compared": data["compared"], "differ": data["differ"], "first": data.get("first", ""),
            "sources": sources_digest()[:16], "scenarios": data.get("scenarios", 0)}


def holds(record: dict | None) -> bool:
    """Whether an evidence record found no differing case on the current C sources."""
    return (record is not None and record["compared"] > 0 and record["differ"] == 0
            and record["sources"] == sources_digest()[:16])


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
        return holds(asdict(self))


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


def read_mutation_list(path: Path) -> dict:
    """docs/mutation/equivalent.json, valid against conformance/schemas/equivalent.schema.json
    (InputError naming the file, key path and reason otherwise); empty when there is none."""
    if not path.exists():
        return {"equivalent": [], "gaps": []}
    return schema_files.read_valid(path, "equivalent")


def load_equivalent(path: Path) -> dict[str, Equivalence]:
    """The mutants' reviewed list: id -> entry (with its evidence, when gathered)."""
    out = {}
    for entry in read_mutation_list(path)["equivalent"]:
        ev = entry.get("evidence")
        out[entry["id"]] = Equivalence(entry["id"], entry["reason"], Evidence(**ev) if ev else None)
    return out


def load_gap_notes(path: Path) -> dict[str, str]:
    """Reviewed gaps: id -> why no vector or scenario kills the mutant yet."""
    return {entry["id"]: entry["note"] for entry in read_mutation_list(path).get("gaps", [])}


def _id_order(mutant_id: str) -> tuple:
    """Sort key of mutant ids: the solver files in the order of the text, then the line."""
    file, line, *rest = mutant_id.split(":")
    return (MUTATED.index(file) if file in MUTATED else len(MUTATED), int(line), *rest)


def save_equivalent(path: Path, entries: dict[str, Equivalence]) -> None:
    """The mutants' reviewed entries written back (the gaps and comment kept), in id order."""
    from ...jsonfile import write_json_atomic
    data = read_mutation_list(path)
    data["equivalent"] = [entries[k].to_json() for k in sorted(entries, key=_id_order)]
    write_json_atomic(path, data)


def is_equivalent(mutant_id: str, equivalent: dict[str, Equivalence]) -> bool:
    entry = equivalent.get(mutant_id)
    return entry is not None and entry.evidence is not None and entry.evidence.holds()


@dataclass(frozen=True)
class Reviewed:
    """One reviewed entry of docs/operators/equivalent.json."""

    id: str
    reason: str
    evidence: dict | None = None
    proof: dict | None = None
    search: dict | None = None
    """The band search's record (band_search.SearchResult.to_record)."""

    def searched(self) -> bool:
        """A band search of the current sources and generator that separated nothing."""
        from .band_cases import generator_digest
        s = self.search
        return (s is not None and s["cases"] > 0 and s["differ"] == 0 and s["sources"] == sources_digest()[:16]
                and s["generator"] == generator_digest()[:16])

    def holds(self) -> bool:
        return holds(self.evidence)

    def status(self) -> str:
        """``proved``, ``searched`` or ``gap`` (verdicts.VariantStatus words)."""
        if self.proof is not None:
            return "proved"
        return "searched" if self.searched() else "gap"

    def to_json(self) -> dict:
        out = {"id": self.id, "reason": self.reason}
        for key in ("evidence", "proof", "search"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


def load_reviewed(root: Path) -> dict[str, Reviewed]:
    """The operators' reviewed list: id -> entry."""
    path = root / REVIEWED
    if not path.exists():
        return {}
    data = schema_files.read_valid(path, "operator-equivalent")
    return {e["id"]: Reviewed(e["id"], e["reason"], e.get("evidence"), e.get("proof"), e.get("search"))
            for e in data["equivalent"]}


OPERATOR_COMMENT = (
    "Reviewed survivors of the operator run (docs/boundaries.md, 'Rewrite operators'): each gives the "
    "reference's bits; evidence is the variant on fresh random primitive inputs and the slow scenarios "
    "(orca-conformance operators --evidence), taken on the C sources named by 'sources', is a record only; "
    "a variant counts as equivalent with a proof (a bit-precise solver query with no model) or a band "
    "search that separated nothing (orca-conformance operators --search: cases aimed at the bands "
    "random inputs miss, selftest/variants/band_cases.py).")


def save_reviewed(root: Path, entries: dict[str, Reviewed]) -> None:
    """The operators' reviewed entries written back, in id order, under the file's comment."""
    from ...jsonfile import write_json_atomic
    write_json_atomic(root / REVIEWED, {"comment": OPERATOR_COMMENT,
                                        "equivalent": [entries[k].to_json() for k in sorted(entries)]})
