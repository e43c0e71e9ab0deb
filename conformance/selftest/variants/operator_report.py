"""The operator report (docs/operators/report.json and report.md) and its freshness.

Contract: ``write_report(judged, operators, folder, digest, seconds)`` writes, atomically, every
variant's status (operator_run's classes), the counts per operator and the diff, killer and red
cell headline of each; the Markdown lists every variant that no scene killed.  ``freshness(root)``
is None when the committed report was made from the current operator files, C sources and
goldens and covers every current variant, else the reason it is stale.  ``named_share(root)``
is, from the committed report, how many of the variants a scene kills have a red cell that names
the operator's class or its component, per operator: the diagnosis benchmark's rewrite part.
"""

from __future__ import annotations

from pathlib import Path

from .operator_run import FAILING, SCENE, STATUSES, VECTORS, Judged, run_digest
from .operators import Operator, find_variants, load_operators

REPORT_FORMAT = "orca-operators/1"
REPORT_DIR = Path("docs") / "operators"


def counts(judged: list[Judged]) -> dict[str, int]:
    return {s: sum(j.status == s for j in judged) for s in STATUSES}


def _table(judged: list[Judged], operators: list[Operator]) -> list[str]:
    head = ["operator", "class", "band", "sites", *STATUSES]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for op in operators:
        mine = [j for j in judged if j.variant.operator == op.name]
        c = counts(mine)
        lines.append(f"| `{op.name}` | {op.title} | {op.band} | {len(mine)} | " + " | ".join(str(c[s]) for s in STATUSES) + " |")
    total = counts(judged)
    lines.append(f"| **all** | | | {len(judged)} | " + " | ".join(f"**{total[s]}**" for s in STATUSES) + " |")
    return lines


def _markdown(judged: list[Judged], operators: list[Operator], seconds: float) -> str:
    total = counts(judged)
    failing = sum(total[s] for s in FAILING)
    lines = ["# Operator report of the C port", "",
             f"{len(judged)} variants: each rewrite operator of runners/c/operators/ at every site of its kind "
             f"(docs/boundaries.md, 'Rewrite operators'); {failing} gaps. Judging took "
             f"{sum(j.seconds for j in judged) / 60:.0f} minutes of worker time ({seconds / 60:.1f} minutes of wall "
             "time this run, cached verdicts included). Made by `orca-conformance operators --write`.", "",
             "Statuses: **scene** a scene killed it and the red cell names a cause its class declares; **vectors** only "
             "the vectors did; **searched** / **proved** reviewed in docs/operators/equivalent.json with a band search "
             "aimed at it that separated nothing (zeros of both signs, subnormals, values an ulp apart, points on the "
             "radius, off-axis degenerate geometry; `operators --search`) or a solver's proof (random evidence alone "
             "no longer counts); **miscaused** a scene killed it but the cell blamed another cause; **gap** nothing did.",
             "", *_table(judged, operators), "",
             f"Of the {total[SCENE]} scene kills, {sum(j.named == 'class' for j in judged)} cells name the operator's "
             f"class (\"a value rounded to float32\", \"roots compared instead of squares at ...\", a decision read "
             f"otherwise), {sum(j.named == 'component' for j in judged)} the part of the solver that holds the "
             "rewritten line, and the rest are crashes.", ""]
    by_killer: dict[str, int] = {}
    for j in judged:
        if j.status == SCENE:
            by_killer[j.killed_by] = by_killer.get(j.killed_by, 0) + 1
    lines += ["## What kills them in a scene", "", "| scene | variants |", "|---|---|"]
    lines += [f"| `{k}` | {n} |" for k, n in sorted(by_killer.items(), key=lambda kv: (-kv[1], kv[0]))]
    for status, title in ((VECTORS, "Killed by the vectors only"), ("searched", "Equivalent (band search found nothing)"),
                          ("proved", "Equivalent (proved by the solver)"), *((s, s.capitalize()) for s in FAILING)):
        chosen = [j for j in judged if j.status == status]
        if not chosen:
            continue
        lines += ["", f"## {title}", ""]
        for j in chosen:
            why = j.killed_by if status == VECTORS else j.detail
            lines += [f"- `{j.variant.id}` {why}".rstrip(), "  ```diff",
                      *["  " + x for x in j.variant.diff().splitlines()], "  ```"]
            if j.headline:
                lines.append(f"  cell: {j.headline}")
    return "\n".join(lines) + "\n"


def write_report(judged: list[Judged], operators: list[Operator], folder: Path, digest: str,
                 seconds: float) -> list[Path]:
    from ...jsonfile import write_json_atomic, write_text_atomic
    folder.mkdir(parents=True, exist_ok=True)
    data = {"format": REPORT_FORMAT, "digest": digest, "summary": counts(judged),
            "operators": [{"name": o.name, "title": o.title, "band": o.band, "origin": o.origin,
                           "causes": list(o.causes), "counts": counts([j for j in judged if j.variant.operator == o.name])}
                          for o in operators],
            "variants": [j.to_json() for j in judged]}
    write_json_atomic(folder / "report.json", data)
    write_text_atomic(folder / "report.md", _markdown(judged, operators, seconds))
    return [folder / "report.json", folder / "report.md"]


def freshness(root: Path) -> str | None:
    """Why the committed report is stale (None when it is fresh)."""
    from ...jsonfile import read_json
    path = root / REPORT_DIR / "report.json"
    if not path.exists():
        return f"{path} is missing"
    data = read_json(path)
    if data.get("format") != REPORT_FORMAT:
        return f"{path} has format {data.get('format')!r}, not {REPORT_FORMAT}"
    if data.get("digest") != run_digest(root):
        return f"{path} was made from other operator files, C sources or goldens"
    ids = {v["id"] for v in data["variants"]}
    missing = [v.id for v in find_variants(load_operators()) if v.id not in ids]
    if missing:
        return f"{path} lacks {len(missing)} current variants (first: {missing[0]})"
    return None


def named_share(root: Path) -> dict[str, tuple[int, int]] | None:
    """Operator name -> (scene kills whose cell names the class or its component, scene kills), from
    the committed report; a variant that crashes (an out-of-bounds write: its cell is the crash, no
    diagnosis) is not counted.  None when there is no report (a wheel without docs/)."""
    from ...jsonfile import read_json
    path = root / REPORT_DIR / "report.json"
    if not path.exists():
        return None
    share: dict[str, tuple[int, int]] = {}
    for v in read_json(path)["variants"]:
        if v["status"] == str(SCENE) and v["killed_by"] != "crash":
            named, kills = share.get(v["operator"], (0, 0))
            share[v["operator"]] = (named + (v["named"] in ("class", "component")), kills + 1)
    return share
