"""Primitive conformance vectors: inputs and the reference's outputs, as exact bits.

Contract: every family is one entry point of the solver or the driver (docs/protocol.md lists
the argument and result layouts), and one record of data/vector_family.py (``FAMILIES``, the
registry, and ``FAMILY_BY_NAME``, its live index, are re-exported here).  ``generate(family)``
makes the family's cases with the record's makers (fixed-seed random inputs plus hand-picked
edges: ties, parallel lines, tolerance boundaries, overlap, the hard-prefix fallback,
ForBoundary's cut-offs; vector_random.py draws the inputs that need no result of the reference,
vector_edges.py and vector_boundaries.py the edges) and evaluates them on the reference; the
files ``goldens/vectors/<family>.json`` hold them; ``compare`` says which cases a runner got
wrong.  Doubles travel as 16 hex digits of their bit pattern, so no decimal conversion is
involved.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Sequence

from ..contract import schema_files
from ..errors import InputError, cannot_read, did_you_mean
from ..contract.float_bits import hexd, unhexd
from .family import Family  # noqa: F401  (re-exported: callers name vectors.Family)
from .family import version as registry_version
from .vector_family import FAMILIES, FAMILY_BY_NAME

VECTOR_FORMAT = "orca-vectors/1"


# Type codes of arguments and results: d double, i int, d4* list of 4-double rows,
# d2* list of pairs, d* list of doubles, i* list of ints, s a string passed as it is.
def encode_value(code: str, value):
    if code == "s":
        return value
    if code == "d":
        return hexd(value)
    if code == "i":
        return int(value)
    if code == "d*":
        return [hexd(v) for v in value]
    if code == "i*":
        return [int(v) for v in value]
    if code in ("d2*", "d4*"):
        return [[hexd(v) for v in row] for row in value]
    raise ValueError(code)


def decode_value(code: str, value):
    if code == "s":
        return value
    if code == "d":
        return unhexd(value)
    if code == "i":
        return int(value)
    if code == "d*":
        return [unhexd(v) for v in value]
    if code == "i*":
        return [int(v) for v in value]
    if code in ("d2*", "d4*"):
        return [tuple(unhexd(v) for v in row) for row in value]
    raise ValueError(code)


def raw_cases(name: str, seed: int | None = None) -> list[list]:
    """Fixed-seed cases of one family (the stored vectors use the family's name as the seed;
    other seeds give fresh random cases of the same kinds, e.g. for mutation evidence)."""
    tag = f"orca-vectors/{name}" if seed is None else f"orca-vectors/{name}/{seed}"
    return FAMILY_BY_NAME[name].cases(random.Random(tag))


def generate(name: str, seed: int | None = None) -> list[dict]:
    """The family's cases with encoded args and the reference's encoded result."""
    family = FAMILY_BY_NAME[name]
    out = []
    for raw in raw_cases(name, seed):
        args = [encode_value(c, v) for c, v in zip(family.args, raw)]
        out.append({"args": args, "result": evaluate_reference(family, args)})
    return out


def evaluate_reference(family: Family, encoded_args: list) -> list:
    values = [decode_value(c, v) for c, v in zip(family.args, encoded_args)]
    result = family.reference(*values)
    return [encode_value(c, v) for c, v in zip(family.result, result)]


# ----------------------------------------------------------------------------- files

def vector_path(folder: Path, name: str) -> Path:
    return folder / f"{name}.json"


def to_document(name: str, cases: list[dict]) -> dict:
    family = FAMILY_BY_NAME[name]
    return {"format": VECTOR_FORMAT, "family": name, "args": list(family.args),
            "result": list(family.result), "cases": cases}


_READ: dict[tuple[str, int, int, int], tuple[str, list[dict]]] = {}
"""Vector files already read and validated, by (path, mtime, size, the registry's version): the schema check costs six
times the parse (0.18 s for the 15 files), and the matrix, controls and fuzz read them per
column, per control and per runner."""


def read_vectors(path: Path) -> tuple[str, list[dict]]:
    """(family name, cases) of one vector file, validated; read once per process while the file
    is unchanged, so the cases are shared: callers read them and never change them."""
    try:
        stat = path.stat()
    except OSError as err:
        raise cannot_read(path, err) from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, registry_version())
    if key not in _READ:
        _READ[key] = _read_vectors(path)
    return _READ[key]


def _read_vectors(path: Path) -> tuple[str, list[dict]]:
    file = str(path)
    data = schema_files.read_valid(path, "vectors")
    name = data["family"]
    if name not in FAMILY_BY_NAME:
        raise InputError(file, "family", f"unknown vector family {name!r}{did_you_mean(name, list(FAMILY_BY_NAME))}")
    family = FAMILY_BY_NAME[name]
    for key, codes in (("args", family.args), ("result", family.result)):
        if tuple(data[key]) != codes:
            raise InputError(file, key, f"type codes {data[key]} are not the family's {list(codes)}")
    return name, data["cases"]


def load_all(folder: Path) -> dict[str, list[dict]]:
    """Every family's cases, in registry order; a missing file is an error."""
    out = {}
    for family in FAMILIES:
        path = vector_path(folder, family.name)
        if not path.exists():
            raise InputError(str(path), "", "missing vector file (orca-conformance goldens regen)")
        name, cases = read_vectors(path)
        if name != family.name:
            raise InputError(str(path), "family", f"file holds {name!r}")
        out[name] = cases
    return out


def compare(cases: Sequence[dict], results: Sequence[list]) -> list[int]:
    """Indices of the cases whose result differs from the expected one (bit for bit)."""
    if len(results) != len(cases):
        return list(range(len(cases)))
    return [k for k, (case, got) in enumerate(zip(cases, results)) if case["result"] != got]


def replay_reference(folder: Path) -> tuple[int, int]:
    """Re-evaluate every stored case on the reference (used by coverage): (cases, mismatches)."""
    total = bad = 0
    for name, cases in load_all(folder).items():
        family = FAMILY_BY_NAME[name]
        total += len(cases)
        bad += sum(evaluate_reference(family, case["args"]) != case["result"] for case in cases)
    return total, bad


def regenerate_all(folder: Path, names: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """Write every family's file, or the named ones (atomically, only when it changed);
    (family, verdict) pairs."""
    from ..jsonfile import write_json_atomic
    report = []
    for family in FAMILIES:
        if names is not None and family.name not in names:
            continue
        path = vector_path(folder, family.name)
        document = to_document(family.name, generate(family.name))
        if path.exists():
            old = json.loads(path.read_text(encoding="utf-8"))
            if old == document:
                report.append((family.name, "unchanged"))
                continue
            first = next((k for k, (a, b) in enumerate(zip(old.get("cases", []), document["cases"])) if a != b),
                         min(len(old.get("cases", [])), len(document["cases"])))
            verdict = f"changed (first differing case {first})"
        else:
            verdict = "new"
        write_json_atomic(path, document)
        report.append((family.name, verdict))
    return report


def check_all(folder: Path) -> list[str]:
    """Problems of the stored vectors against the reference: missing files, changed inputs
    (the generator moved on), or results the reference no longer produces."""
    problems = []
    for family in FAMILIES:
        path = vector_path(folder, family.name)
        if not path.exists():
            problems.append(f"{family.name}: missing {path.name}")
            continue
        name, cases = read_vectors(path)
        fresh = generate(family.name)
        if [c["args"] for c in cases] != [c["args"] for c in fresh]:
            problems.append(f"{family.name}: stored inputs differ from the generator's (regenerate)")
            continue
        bad = compare(cases, [c["result"] for c in fresh])
        if bad:
            problems.append(f"{family.name}: the reference now differs on {len(bad)} cases, first case {bad[0]}")
    known = {vector_path(folder, f.name).name for f in FAMILIES}
    for path in sorted(folder.glob("*.json")):
        if path.name not in known:
            problems.append(f"{path.name}: orphan vector file (no such family)")
    return problems
