"""The toolchain fingerprint: which evaluation model reproduces a port's rounding, and its fix.

Contract: ``fingerprint(runs, info)`` takes the formula primitive families a port answered
(``matrix.FamilyRun``: the cases, the port's results and the bad ones) and the port's
``RunnerInfo`` (its hello: compiler, flags, platform), replays every bad case of the formula
families through the reference's formulas under each evaluation model of
``data.arith_models`` and returns a frozen ``Fingerprint``: the model that reproduces the most
of them (its share), or, when no single model reproduces a case, None.  ``evidence`` is what the
hello says about it: ``agrees``, ``contradicts`` or ``silent`` (``HelloEvidence``), with the
words of the hello that decide.  The replay is bounded (``MOST`` cases) and costs well under a
second.  Nothing here reads a message's words: the models are compared by bits.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import Enum

from ..data import vectors
from ..data.arith_models import FORMULA_FAMILIES, FUSED, MODEL_BY_ID, MODELS, Model, formula
from ..runners.base import RunnerInfo

MOST = 64
"""Bad cases replayed at most (the first ones of each family, in turn)."""


class HelloEvidence(str, Enum):
    """What the port's hello says about the model the bits name."""

    AGREES = "agrees"
    CONTRADICTS = "contradicts"
    SILENT = "silent"

    __str__ = str.__str__
    __format__ = str.__format__


@dataclass(frozen=True)
class Fingerprint:
    """``model`` reproduces ``reproduced`` of the ``replayed`` bad cases of the formula primitives
    (every result bit for bit); ``evidence`` and ``hello`` (the flags or compiler that decide)
    say what the port's own hello adds."""

    model: Model
    reproduced: int
    replayed: int
    evidence: HelloEvidence = HelloEvidence.SILENT
    hello: str = ""

    def text(self, whole: bool = False) -> str:
        """One sentence: the model, its share, the hello's word on it, the C and C++ fix (and,
        ``whole``, the other languages' too)."""
        said = {HelloEvidence.AGREES: f"; the hello agrees ({self.hello})",
                HelloEvidence.CONTRADICTS: f"; the hello says otherwise ({self.hello}): check the build that ran",
                HelloEvidence.SILENT: ""}[self.evidence]
        fix = f"{self.model.fix}; {self.model.fixes}" if whole else self.model.fix
        return (f"{self.model.what}: it reproduces {self.reproduced} of {self.replayed} failing formula cases"
                f"{said}; fix: {fix}")

    @property
    def decisive(self) -> bool:
        """Whether it names the slip when the failing cases are not all a matter of rounding (a
        dropped sign of zero is not: -0.0 and 0.0 are not neighbours): only when the port's own
        hello agrees (its flags name the choice).  A share alone is not enough: a misreading with
        a few bad cases can have half of them reproduced by a model by chance (legs-skip-nonstrict
        and segment-far-end-as-b both were, by FMA)."""
        return self.evidence is HelloEvidence.AGREES

    def to_json(self) -> dict:
        return {"model": self.model.id, "reproduced": self.reproduced, "replayed": self.replayed,
                "evidence": str(self.evidence), "hello": self.hello, "fix": self.model.fix,
                "fixes": self.model.fixes}


def _same(want, got) -> bool:
    return len(want) == len(got) and all(struct.pack("<d", float(a)) == struct.pack("<d", float(b))
                                         for a, b in zip(want, got))


def _replayed(runs) -> list[tuple[str, list, list]]:
    """(family, decoded arguments, the port's decoded results) of the bad formula cases, the
    families taken in turn so that one family does not fill ``MOST`` alone."""
    queues = []
    for run in runs:
        if run.name not in FORMULA_FAMILIES or not run.bad or run.results is None or len(run.results) != len(run.cases):
            continue
        fam = vectors.FAMILY_BY_NAME[run.name]
        queue = []
        for index in run.bad:
            try:
                args = [vectors.decode_value(c, v) for c, v in zip(fam.args, run.cases[index]["args"])]
                got = [vectors.decode_value(c, v) for c, v in zip(fam.result, run.results[index])]
            except (IndexError, TypeError, ValueError):
                continue
            queue.append((run.name, args, got))
        queues.append(queue)
    picked = []
    while any(queues) and len(picked) < MOST:
        for queue in queues:
            if queue and len(picked) < MOST:
                picked.append(queue.pop(0))
    return picked


def _reproduces(model: str, cases: list[tuple[str, list, list]]) -> int:
    count = 0
    for family, args, got in cases:
        try:
            count += _same(formula(model, family)(*args), got)
        except (ArithmeticError, ValueError, TypeError):  # OverflowError among them
            continue
    return count


def hello_evidence(model: Model, info: RunnerInfo | None) -> tuple[HelloEvidence, str]:
    """What the hello's flags, compiler and platform say about ``model``."""
    if info is None:
        return HelloEvidence.SILENT, ""
    flags = f" {info.flags} "
    fast = [f for f in ("-ffast-math", "-Ofast", "-funsafe-math-optimizations", "-freciprocal-math",
                        "-fno-signed-zeros", "-fassociative-math") if f" {f} " in flags]
    contract_off = " -ffp-contract=off " in flags
    if model.id in FUSED:
        if contract_off:
            return HelloEvidence.CONTRADICTS, "-ffp-contract=off"
        named = [f for f in info.flags.split() if f.startswith(("-ffp-contract=fast", "-march=", "-mfma", "-mcpu="))]
        return (HelloEvidence.AGREES, f"{' '.join(named)} without -ffp-contract=off") if named else \
            (HelloEvidence.SILENT, "")
    if model.id == "x87":
        x86_32 = info.architecture in ("i386", "i686", "x86") or "i386" in info.platform or "x86-" in flags
        if " -mfpmath=sse " in flags:
            return HelloEvidence.CONTRADICTS, "-mfpmath=sse"
        return (HelloEvidence.AGREES, f"a 32-bit x86 build ({info.platform})") if x86_32 else (HelloEvidence.SILENT, "")
    if fast:
        return HelloEvidence.AGREES, " ".join(fast)
    return HelloEvidence.SILENT, ""


def fingerprint(runs, info: RunnerInfo | None = None) -> Fingerprint | None:
    """The model that reproduces the most bad formula cases (ties: the first of ``MODELS``), or
    None when there is none to replay or no model reproduces any."""
    cases = _replayed(runs)
    if not cases:
        return None
    best, count = None, 0
    for model in MODELS:
        found = _reproduces(model.id, cases)
        if found > count:
            best, count = model, found
    if best is None:
        return None
    evidence, words = hello_evidence(best, info)
    return Fingerprint(best, count, len(cases), evidence, words)


def model(model_id: str) -> Model:
    """A model by its id (``fma-left``...)."""
    return MODEL_BY_ID[model_id]
