"""Finds vector cases inside the census's rounding bands by solving, and proves bands empty.

Contract: ``python -m conformance.selftest.census.band_solver [--write] [--seconds S] [--only TEXT]`` asks
bitwuzla, for every target of band_targets.py (band_targets_lp.py,
band_targets_support.py) and every band kind it lists, for an input of the
target's vector family that puts the site's two operands in that band.  A model is kept only
when the instrumented reference (data/shadow.py) really counts that site and band on it; an
``unsat`` within the bound is kept as the site band's proof that it is empty (solver, encoding,
bound, time), except for a target that encodes a sufficient case only (``Target.proves``
False), whose ``unsat`` is reported as ``no model``; ``unknown`` (out of time) and a model the reference does not confirm are reported
and dropped.  ``--write`` rewrites data/vector_bands.py with what was found and regenerates the
vector files of the families it touched (``vectors.regenerate_all``); the cases are appended after
every existing case of a family, so no stored case moves.  This is the only code that runs the
solver: tests and CI read the committed cases and proofs, never bitwuzla.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ... import shipped
from .band_smt import F, Problem
from .band_targets import TARGETS, Target
from .band_targets_lp import LP_TARGETS
from .band_targets_support import SUPPORT_TARGETS
from ...data import vector_bands
from ...data.shadow import Tally, load_shadow

SOLVER = "bitwuzla"


def _concrete(p: Problem, template):
    """The family's arguments with every input replaced by the model's double."""
    if isinstance(template, F):
        return p.value(template)
    if isinstance(template, list):
        return [_concrete(p, x) for x in template]
    if isinstance(template, tuple):
        return tuple(_concrete(p, x) for x in template)
    return template


def confirmed(family: str, args: list, site: str, kind: str) -> bool:
    """The instrumented reference, run on this case, counts ``site`` in band ``kind``."""
    tally = Tally()
    shadow_vectors = load_shadow(tally)
    fam = shadow_vectors.FAMILY_BY_NAME[family]
    encoded = [shadow_vectors.encode_value(c, v) for c, v in zip(fam.args, args)]
    try:
        fam.reference(*[shadow_vectors.decode_value(c, v) for c, v in zip(fam.args, encoded)])
    except (ArithmeticError, ValueError):
        return False
    return tally.bands.get((site, "vectors", kind), 0) > 0


def solve(target: Target, kind: str, seconds: float) -> dict:
    """One query: {"result", "seconds", and "args" when confirmed}."""
    p = Problem(seconds)
    template, condition = target.encode(p, kind)
    p.assume(condition)
    started = time.perf_counter()
    result = p.check()
    entry = {"site": target.site, "band": kind, "family": target.family, "clause": target.clause,
             "solver": SOLVER, "encoding": target.encoding, "result": result,
             "seconds": round(time.perf_counter() - started, 3)}
    if result == "sat":
        args = _concrete(p, template)
        if confirmed(target.family, args, target.site, kind):
            entry["args"] = args
        else:
            entry["result"] = "unconfirmed"
    elif result == "unsat" and not target.proves:
        entry["result"] = "no model"  # a sufficient case only: no proof
    elif result == "unsat":
        entry["bound"] = "finite binary64 inputs, " + "; ".join(p.boxes) + "; rounding to nearest, ties to even"
    return entry


def run(seconds: float, only: str | None, say) -> list[dict]:
    out = []
    for target in TARGETS + LP_TARGETS + SUPPORT_TARGETS:
        if only and only not in target.site:
            continue
        for kind in target.kinds:
            entry = solve(target, kind, seconds)
            say(f"{entry['result']:<12} {entry['seconds']:7.2f} s  {kind:<12} {target.site}")
            out.append(entry)
    return out


def merged(entries: list[dict]) -> list[dict]:
    """The committed cases and proofs with those of ``entries`` put in place (by site and band)."""
    from ...data import vector_bands
    fresh = {(e["site"], e["band"]) for e in entries}
    kept = [{**c, "result": "sat"} for c in vector_bands.CASES if (c["site"], c["band"]) not in fresh]
    kept += [p for p in vector_bands.PROOFS if (p["site"], p["band"]) not in fresh]
    return kept + entries


def render(entries: list[dict]) -> str:
    """The source of data/vector_bands.py holding ``entries``' cases and proofs."""
    cases = [{k: e[k] for k in ("family", "site", "band", "clause", "solver", "seconds", "args")}
             for e in entries if "args" in e]
    proofs = [{k: e[k] for k in ("site", "band", "solver", "encoding", "bound", "seconds", "result")}
              for e in entries if e["result"] == "unsat"]
    head = (Path(vector_bands.__file__).read_text(encoding="utf-8").split("# --- generated")[0])
    return (head + "# --- generated by python -m conformance.selftest.census.band_solver --write; do not edit below\n\n"
            + "CASES: list[dict] = [\n" + "".join(f"    {c!r},\n" for c in cases) + "]\n\n"
            + "PROOFS: list[dict] = [\n" + "".join(f"    {q!r},\n" for q in proofs) + "]\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.selftest.census.band_solver", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite data/vector_bands.py and the vector files")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit of one query")
    parser.add_argument("--only", help="only the targets whose site contains this text")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    entries = run(args.seconds, args.only, print)
    print(f"band solver: {len(entries)} queries in {time.perf_counter() - started:.1f} s: "
          f"{sum('args' in e for e in entries)} cases, {sum(e['result'] == 'unsat' for e in entries)} proofs")
    if args.write:
        path = Path(vector_bands.__file__)
        path.write_text(render(merged(entries) if args.only else entries), encoding="utf-8")
        from ...data import vectors
        import importlib
        from ...data import vector_bands
        importlib.reload(vector_bands)
        families = sorted({e["family"] for e in entries if "args" in e} | set(vector_bands.families()))
        for name, verdict in vectors.regenerate_all(shipped.root() / "goldens" / "vectors", families):
            print(f"{verdict:<10} vectors/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
