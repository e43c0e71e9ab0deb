"""The variant engine's vocabulary, its verdict cache and its one classification step.

Contract: ``VariantStatus`` is the one set of words for what became of a variant.  A worker's
raw verdict (``engine.worker_verdict``) is one of ``scene`` (a scenario's hashes or cell told it
apart), ``vectors`` (a primitive vector family did), ``crash`` (a signal or a sanitizer's report:
``killed_by`` says ``crash`` or ``sanitizer:NAME``), ``survived``, ``build-failed``, ``timeout``
or ``no-verdict`` (a scenario without a usable golden: the suite, not the variant, is at fault).
``classify`` turns it into the report's status: a survivor becomes ``equivalent``, ``proved``
or ``searched`` when its review list's evidence holds (else ``gap``), and a scene kill whose red
cell names neither a cause of the variant's class nor its component becomes ``miscaused`` (only
when the generator says how a cell names a cause).  Each generator's committed report keeps its
own words (``MUTATION_WORDS``: every kill is ``killed`` and every survivor ``survived``;
``OPERATOR_WORDS``: a crash is a ``scene`` kill); ``legacy`` reads the words cached verdicts
were stored with before.

``VerdictCache`` keeps raw verdicts in one folder of the cache root, keyed by the text a
generator gives (the variant, the sources, the judge, what else the verdict depends on).  An
entry records the data digest it was judged on and holds while that is unchanged, and also when
it is a crash or a scene kill whose own scenario file and golden are unchanged (``killer``): a
scene kill stands when scenarios or vectors are added.  Statuses in ``transient`` are never
stored.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Callable

from ...runners.build.layer import cache_root

AT = "variant-worker: at "
"""The prefix of the line the worker writes on stderr before each vector family and scenario
run, so that a kill by a sanitizer or a crash can say what ran."""


class VariantStatus(StrEnum):
    SCENE = "scene"
    VECTORS = "vectors"
    CRASH = "crash"
    SURVIVED = "survived"
    BUILD_FAILED = "build-failed"
    TIMEOUT = "timeout"
    NO_VERDICT = "no-verdict"
    EQUIVALENT = "equivalent"
    """A survivor whose reviewed random evidence holds (mutants)."""
    SEARCHED = "searched"
    """A survivor a band search aimed at separated nothing (operator variants)."""
    PROVED = "proved"
    """A survivor a solver's proof covers (operator variants)."""
    GAP = "gap"
    MISCAUSED = "miscaused"


KILLS = (VariantStatus.SCENE, VariantStatus.VECTORS, VariantStatus.CRASH, VariantStatus.MISCAUSED)
SURVIVORS = (VariantStatus.SURVIVED, VariantStatus.EQUIVALENT, VariantStatus.SEARCHED, VariantStatus.PROVED,
             VariantStatus.GAP)

MUTATION_WORDS: dict[VariantStatus, str] = {
    **{s: "killed" for s in KILLS}, **{s: "survived" for s in SURVIVORS},
    VariantStatus.BUILD_FAILED: "build-failed", VariantStatus.TIMEOUT: "timeout", VariantStatus.NO_VERDICT: "timeout"}
"""The mutation report's words (docs/mutation/report.json)."""

OPERATOR_WORDS: dict[VariantStatus, str] = {**{s: s.value for s in VariantStatus}, VariantStatus.CRASH: "scene"}
"""The operator report's words (docs/operators/report.json): a crash counts as a scene kill."""


def legacy(raw: dict) -> dict:
    """A raw verdict in the engine's words: ``killed`` (the mutants' old word) becomes scene,
    vectors or crash by its killer, a scene kill marked ``crash`` (the operators' old form) a crash."""
    status, by = raw.get("status"), raw.get("killed_by", "")
    if status == "killed":
        status = (VariantStatus.VECTORS if by.startswith("vector:") else
                  VariantStatus.SCENE if by.startswith("scenario:") else VariantStatus.CRASH)
    elif status == VariantStatus.SCENE and raw.get("crash"):
        status = VariantStatus.CRASH
    return {**raw, "status": VariantStatus(status)}


@dataclass(frozen=True)
class Classified:
    status: VariantStatus
    named: str = ""
    """How a scene kill's cell names the cause: ``class`` or ``component`` ("" otherwise)."""
    detail: str = ""


def classify(raw: dict, survivor: Callable[[], tuple[VariantStatus, str]],
             names_cause: Callable[[str], str] | None = None) -> Classified:
    """The report's status of one raw verdict: ``survivor()`` judges a survivor from the review
    list ((status, why)); ``names_cause(headline)`` says how a scene kill's cell names its cause
    (``class``, ``component`` or "": miscaused), when the generator holds cells to that."""
    status = VariantStatus(raw["status"])
    if status == VariantStatus.SURVIVED:
        found, why = survivor()
        return Classified(found, detail=why)
    if status == VariantStatus.SCENE and names_cause is not None:
        named = names_cause(raw.get("headline", ""))
        return Classified(status if named else VariantStatus.MISCAUSED, named, raw.get("detail", ""))
    return Classified(status, detail=raw.get("detail", ""))


def scene_digest(root: Path, killed_by: str) -> str:
    """The digest of one scenario's file and golden (``killed_by`` is ``scenario:ID[PATH]``)."""
    scenario = killed_by.split(":", 1)[1].split("[")[0]
    digest = hashlib.sha256()
    for path in (root / "scenarios" / f"{scenario}.yaml", root / "goldens" / f"{scenario}.json"):
        digest.update(path.read_bytes() if path.exists() else b"missing")
    return digest.hexdigest()


@dataclass(frozen=True)
class VerdictCache:
    folder: str
    transient: tuple[VariantStatus, ...] = ()

    def path(self, key: str) -> Path:
        return cache_root() / self.folder / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"

    def load(self, key: str, root: Path, data: str) -> dict | None:
        """The cached raw verdict for ``key`` if it still holds for the data digest ``data``."""
        path = self.path(key)
        if not path.exists():
            return None
        entry = legacy(json.loads(path.read_text()))
        if entry.get("data", data) == data or entry["status"] == VariantStatus.CRASH:
            return entry
        if entry["status"] == VariantStatus.SCENE and entry.get("killer") == scene_digest(root, entry["killed_by"]):
            return entry
        return None

    def store(self, key: str, raw: dict, root: Path, data: str) -> None:
        if raw["status"] in self.transient:
            return
        entry = {**raw, "data": data}
        if raw["status"] == VariantStatus.SCENE and raw.get("killed_by", "").startswith("scenario:"):
            entry["killer"] = scene_digest(root, raw["killed_by"])
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(entry))
