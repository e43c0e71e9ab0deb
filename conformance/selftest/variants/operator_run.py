"""The operator run of ``orca-conformance operators``: every rewrite operator at every site, judged.

Contract: ``select_variants(patterns, sample, seed)`` is the variants of the current operator
files and C sources whose id matches a glob (all when None), then a fixed random sample.
``judge_variants`` builds and judges each in its own process (``operator_worker``, in
parallel, verdicts cached by the variant, the sources and the goldens) and classifies it
(``classify``):

* ``scene``: a scene killed it and its red cell names a cause its class declares;
* ``miscaused``: a scene killed it but the cell names another cause (a gap of the diagnosis);
* ``vectors``: only the vectors killed it (no scene reaches the site, or none yet);
* ``equivalent`` / ``proved``: it survived and docs/operators/equivalent.json holds evidence
  for the current sources (fresh random inputs and the slow scenarios, as for mutants) or a
  solver's proof;
* ``gap``: it survived with neither; ``build-failed`` / ``timeout``: the operator or the
  engine is wrong; ``no-verdict``: a scenario has no usable golden (the suite is incomplete).

The run fails on any ``gap``, ``miscaused``, ``build-failed``, ``timeout`` or ``no-verdict``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Callable

from ...runners.build.layer import cache_root
from .mutate import KILLED, sources_digest, worker_verdict
from .operators import Operator, Variant, find_variants, load_operators, operators_digest, variant_tree

SCENE, MISCAUSED, VECTORS, SEARCHED, PROVED, GAP = "scene", "miscaused", "vectors", "searched", "proved", "gap"
BUILD_FAILED, TIMEOUT, NO_VERDICT = "build-failed", "timeout", "no-verdict"
FAILING = (GAP, MISCAUSED, BUILD_FAILED, TIMEOUT, NO_VERDICT)
STATUSES = (SCENE, VECTORS, SEARCHED, PROVED, MISCAUSED, GAP, BUILD_FAILED, TIMEOUT, NO_VERDICT)


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
        return {**asdict(self.variant), "status": self.status, "killed_by": self.killed_by, "step": self.step,
                "headline": self.headline, "named": self.named, "clauses": list(self.clauses), "detail": self.detail,
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
    """What the verdicts depend on: the operator files, the C sources and the goldens of the
    scenario files' own scenes and the vectors (the run never reads a framed variant)."""
    from ...reports.report import goldens_digest
    text = f"{operators_digest()}\0{sources_digest()}\0{goldens_digest(root / 'goldens', framed=False)}"
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def verdict_digest(root: Path) -> str:
    """What one variant's verdict depends on besides its own line, its prelude and the data: the
    C sources and the judge (whose headline the verdict records)."""
    from ... import shipped
    judge = hashlib.sha256()
    for path in sorted((shipped.PACKAGE / "judge").glob("*.py")):
        judge.update(path.read_bytes())  # the red cell's headline is part of the verdict
    return hashlib.sha256(f"{sources_digest()}\0{judge.hexdigest()}".encode()).hexdigest()


def _data_digest(root: Path, killed_by: str = "") -> str:
    """The goldens' digest, or, for a kill by one scenario, the digest of that scenario's file and
    golden: a scene kill stays a kill when other scenarios or vectors are added."""
    if not killed_by.startswith("scenario:"):
        from ...reports.report import goldens_digest
        return goldens_digest(root / "goldens", framed=False)  # the run reads the files' own scenes
    scenario = killed_by.split(":", 1)[1]
    digest = hashlib.sha256()
    for path in (root / "scenarios" / f"{scenario}.yaml", root / "goldens" / f"{scenario}.json"):
        digest.update(path.read_bytes() if path.exists() else b"missing")
    return digest.hexdigest()


def _still_valid(data: dict, root: Path, goldens: str) -> bool:
    """A cached verdict holds for the current data (``goldens``, their digest): the same goldens,
    or a crash, or a scene kill whose scenario and golden are unchanged."""
    if data.get("data") == goldens:
        return True
    return data["status"] == SCENE and (data.get("crash", False) or data.get("killer") == _data_digest(
        root, data.get("killed_by", "")))


def _cache_path(variant: Variant, operator: Operator, digest: str, sanitizer: str | None) -> Path:
    text = f"{variant.id}\0{variant.mutated}\0{operator.prelude}\0{digest}\0{sanitizer}"
    key = hashlib.sha256(text.encode()).hexdigest()[:24]
    return cache_root() / "operator-verdicts" / f"{key}.json"


def _worker(variant: Variant, operator: Operator, root: Path, timeout: float, sanitizer: str | None) -> dict:
    """The operator worker's verdict (started as mutants are, ``mutate.worker_verdict``); a kill
    outside its JSON line (a crash, a sanitizer's report) is a kill in a scene."""
    tree = variant_tree(variant, operator)
    data = worker_verdict([str(tree), str(root)], timeout, sanitizer=sanitizer,
                          module="conformance.selftest.variants.operator_worker")
    if data["status"] == KILLED:
        return {**data, "status": SCENE, "headline": f"the variant crashed ({data['killed_by']})", "crash": True}
    return data


def judge_one(variant: Variant, operator: Operator, root: Path, digest: str, goldens: str, timeout: float,
              sanitizer: str | None = None, cached: bool = True) -> dict:
    """The worker's raw verdict for one variant, from the cache when nothing it depends on changed
    (``_still_valid``: new scenarios and vectors leave a scene kill standing)."""
    path = _cache_path(variant, operator, digest, sanitizer)
    if cached and path.exists():
        data = json.loads(path.read_text())
        if _still_valid(data, root, goldens):
            return data
    data = _worker(variant, operator, root, timeout, sanitizer)
    data["data"] = goldens
    if data["status"] == SCENE:
        data["killer"] = _data_digest(root, data.get("killed_by", ""))
    if data["status"] not in (TIMEOUT, NO_VERDICT):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))
    return data


def classify(variant: Variant, operator: Operator, raw: dict, reviewed: dict) -> Judged:
    """The report's status of one variant from the worker's verdict and the reviewed list."""
    judged = Judged(variant, raw["status"], raw.get("killed_by", ""), raw.get("step"), raw.get("headline", ""),
                    tuple(raw.get("clauses", ())), raw.get("detail", ""), raw.get("seconds", 0.0))
    if raw["status"] == SCENE and not raw.get("crash"):
        judged.named = operator.names_cause(variant.file, judged.headline)
        if not judged.named:
            judged.status = MISCAUSED
            judged.detail = (f"the cell names neither this class's causes ({', '.join(operator.causes)}) nor the "
                             f"part of the solver {variant.file} holds")
    elif raw["status"] == "survived":
        entry = reviewed.get(variant.id)
        judged.status = entry.status() if entry is not None else GAP
        judged.detail = entry.reason if entry is not None else "survived every scene and vector"
    return judged


def judge_variants(variants: list[Variant], root: Path, jobs: int | None, timeout: float,
                   progress: Callable[[Judged], None] | None = None, sanitizer: str | None = None,
                   cached: bool = True) -> list[Judged]:
    """Every variant judged and classified, ``jobs`` processes at a time, in the given order."""
    from .operator_review import load_reviewed
    operators = {o.name: o for o in load_operators()}
    reviewed = load_reviewed(root)
    digest, goldens = verdict_digest(root), _data_digest(root)  # once a run: hashing the goldens reads them all

    def one(v: Variant) -> Judged:
        raw = judge_one(v, operators[v.operator], root, digest, goldens, timeout, sanitizer, cached)
        return classify(v, operators[v.operator], raw, reviewed)

    out = []
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for judged in pool.map(one, variants):
            out.append(judged)
            if progress is not None:
                progress(judged)
    return out

