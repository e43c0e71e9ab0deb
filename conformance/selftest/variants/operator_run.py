"""The operator run of ``orca-conformance operators``: every rewrite operator at every site, judged.

Contract: ``select_variants(patterns, sample, seed)`` is the variants of the current operator
files and C sources whose id matches a glob (all when None), then a fixed random sample.
``judge_variants`` judges each on the variant engine (``engine.judge_all``, the ``operator``
worker profile: the scenes first, each judged as a matrix cell, then the vectors; verdicts cached
by the variant, its prelude, the C sources and the judge, and a scene kill kept when scenarios
or vectors are added) and classifies it (``verdicts.classify``), in the report's words
(``verdicts.OPERATOR_WORDS``):

* ``scene``: a scene killed it and its red cell names a cause its class declares (or it crashed);
* ``miscaused``: a scene killed it but the cell names another cause (a gap of the diagnosis);
* ``vectors``: only the vectors killed it (no scene reaches the site, or none yet);
* ``searched`` / ``proved``: it survived and docs/operators/equivalent.json holds a band search
  of the current sources that separated nothing, or a solver's proof (``review.Reviewed``);
* ``gap``: it survived with neither; ``build-failed`` / ``timeout``: the operator or the
  engine is wrong; ``no-verdict``: a scenario has no usable golden (the suite is incomplete).

The run fails on any ``gap``, ``miscaused``, ``build-failed``, ``timeout`` or ``no-verdict``.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Callable

from .engine import Run, judge_all
from .operators import Operator, find_variants, load_operators, operators_digest
from .tree import sources_digest
from .variant import OPERATOR, Variant
from .verdicts import OPERATOR_WORDS, VariantStatus, VerdictCache, classify

SCENE, MISCAUSED, VECTORS, SEARCHED, PROVED, GAP = (VariantStatus.SCENE, VariantStatus.MISCAUSED, VariantStatus.VECTORS,
                                                     VariantStatus.SEARCHED, VariantStatus.PROVED, VariantStatus.GAP)
BUILD_FAILED, TIMEOUT, NO_VERDICT = VariantStatus.BUILD_FAILED, VariantStatus.TIMEOUT, VariantStatus.NO_VERDICT
FAILING = (GAP, MISCAUSED, BUILD_FAILED, TIMEOUT, NO_VERDICT)
STATUSES = (SCENE, VECTORS, SEARCHED, PROVED, MISCAUSED, GAP, BUILD_FAILED, TIMEOUT, NO_VERDICT)
"""The operator report's statuses, in its column order."""

CACHE = VerdictCache("operator-verdicts", transient=(TIMEOUT, NO_VERDICT))


@dataclass
class Judged:
    variant: Variant
    status: str
    killed_by: str = ""
    step: int | None = None
    headline: str = ""
    clauses: tuple[str, ...] = ()
    detail: str = ""
    seconds: float = 0.0
    named: str = ""
    """How a scene kill's cell names the cause: ``class``, ``component`` (operators.names_cause)."""

    def to_json(self) -> dict:
        v = self.variant
        return {"id": v.id, "operator": v.operator, "file": v.file, "function": v.function, "line": v.line,
                "original": v.original, "mutated": v.mutated, "status": self.status, "killed_by": self.killed_by,
                "step": self.step, "headline": self.headline, "named": self.named, "clauses": list(self.clauses), "detail": self.detail,
                "seconds": round(self.seconds, 2)}


def select_variants(patterns: list[str] | None, sample: int | None, seed: int,
                    operators: list[Operator] | None = None) -> list[Variant]:
    variants = find_variants(operators if operators is not None else load_operators())
    if patterns is not None:
        variants = [v for v in variants if any(fnmatchcase(v.id, p) for p in patterns)]
    if sample:
        chosen = set(v.id for v in random.Random(seed).sample(variants, min(sample, len(variants))))
        variants = [v for v in variants if v.id in chosen]
    return variants


def run_digest(root: Path) -> str:
    """What the report depends on: the operator files, the C sources, the judge (each scene
    kill's headline, and whether it names the class, is the judge's) and the goldens of the
    scenario files' own scenes and the vectors (the run never reads a framed variant)."""
    from ...reports.report import goldens_digest
    text = f"{operators_digest()}\0{verdict_digest(root)}\0{goldens_digest(root / 'goldens', framed=False)}"
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def verdict_digest(root: Path) -> str:
    """What one variant's verdict depends on besides its own line, its prelude and the data: the
    C sources and the judge (whose headline the verdict records)."""
    from ... import shipped
    judge = hashlib.sha256()
    for path in sorted((shipped.PACKAGE / "judge").glob("*.py")):
        judge.update(path.read_bytes())  # the red cell's headline is part of the verdict
    return hashlib.sha256(f"{sources_digest()}\0{judge.hexdigest()}".encode()).hexdigest()


def _goldens(root: Path) -> str:
    from ...reports.report import goldens_digest
    return goldens_digest(root / "goldens", framed=False)  # the run reads the files' own scenes


def verdict_key(variant: Variant, digest: str, sanitizer: str | None) -> str:
    """The cache key text of a variant's verdict (``digest``: ``verdict_digest``)."""
    return f"{variant.id}\0{variant.mutated}\0{variant.prelude}\0{digest}\0{sanitizer}"


def judged(variant: Variant, operator: Operator, raw: dict, reviewed: dict) -> Judged:
    """The report's line of one variant from the engine's raw verdict and the reviewed list."""
    def survivor() -> tuple[VariantStatus, str]:  # proved, searched or gap (review.Reviewed.status)
        entry = reviewed.get(variant.id)
        if entry is None:
            return GAP, "survived every scene and vector"
        return VariantStatus(entry.status()), entry.reason

    found = classify(raw, survivor, lambda headline: operator.names_cause(variant.file, headline))
    status = VariantStatus(raw["status"])
    headline = raw.get("headline", "") or (f"the variant crashed ({raw.get('killed_by', '')})"
                                           if status == VariantStatus.CRASH else "")
    detail = found.detail
    if found.status == MISCAUSED:
        detail = (f"the cell names neither this class's causes ({', '.join(operator.causes)}) nor the "
                  f"part of the solver {variant.file} holds")
    return Judged(variant, OPERATOR_WORDS[found.status], raw.get("killed_by", ""), raw.get("step"), headline,
                  tuple(raw.get("clauses", ())), detail, raw.get("seconds", 0.0), found.named)


def judge_variants(variants: list[Variant], root: Path, jobs: int | None, timeout: float,
                   progress: Callable[[Judged], None] | None = None, sanitizer: str | None = None,
                   cached: bool = True) -> list[Judged]:
    """Every variant judged and classified, ``jobs`` processes at a time, in the given order."""
    from .review import load_reviewed
    operators = {o.name: o for o in load_operators()}
    reviewed = load_reviewed(root)
    digest = verdict_digest(root)
    run = Run(root, OPERATOR, CACHE, lambda v: verdict_key(v, digest, sanitizer), _goldens(root), timeout, jobs,
              sanitizer, cached)
    return judge_all(variants, run, lambda v, raw: judged(v, operators[v.operator], raw, reviewed), progress)
