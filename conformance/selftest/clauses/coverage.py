"""Clause coverage: for every rule of the text, what pins it and what defends it.

Contract: ``pieces(suite)`` gathers every piece of the suite that names clauses: census sites
(data/site_clauses.py), vector families (data/family_clauses.py), scenarios (their
``clauses:``), controls and misreadings (their ``clauses``), with ``problems`` listing each
piece that names none.  ``coverage(suite)`` joins them with the committed census into one
``ClauseRow`` per clause of the map, whose status is

* DEFENDED: a control that names it (or a clause it restates, or a clause that cites it as a
  note) fails the gate: caught in a scene, or, where its entry argues that no scene reaches the
  rule, by the vectors row (the tests hold every control to that verdict);
* ARGUED: no control can fail the gate on it, and the map says why (``argued``);
* INFORMATIVE: not a rule a port follows, and served by a piece or a check of the suite;
* OPEN: a normative clause with neither, or any clause that nothing serves.

``orca-conformance clauses`` prints the table and exits 1 while a clause is OPEN.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...contract.clauses import Clause, ClauseMap, clause_map
from ...data.family_clauses import FAMILY_CLAUSES
from ...data.site_clauses import SITE_CLAUSES
from ...data.vectors import FAMILIES
from ...jsonfile import read_json
from ..controls.catalogue import CONTROLS

DEFENDED, ARGUED, INFORMATIVE, OPEN = "DEFENDED", "ARGUED", "INFORMATIVE", "OPEN"


@dataclass
class ClauseRow:
    clause: Clause
    sites: list[str] = field(default_factory=list)
    vector_cases: int = 0
    """Vector cases exactly on the boundary of one of its sites (census)."""
    scene_hits: int = 0
    """Scene evaluations exactly on the boundary of one of its sites (census)."""
    families: list[str] = field(default_factory=list)
    scenarios: list[str] = field(default_factory=list)
    caught: list[str] = field(default_factory=list)
    """Controls that name it and are caught in a scene."""
    vectors_only: list[str] = field(default_factory=list)
    """Controls that name it and that only the vectors can catch (argued: no scene reaches it)."""
    status: str = OPEN

    @property
    def served(self) -> bool:
        return bool(self.sites or self.families or self.scenarios or self.caught or self.vectors_only
                    or self.clause.served_by)


def _census(root: Path) -> dict[str, dict]:
    path = root / "docs" / "census" / "census.json"
    if not path.exists():
        return {}
    return {s["id"]: s for s in read_json(path).get("sites", [])}


def coverage(scenarios: list, root: Path, clauses: ClauseMap | None = None) -> list[ClauseRow]:
    """One row per clause of the map (see the module's contract)."""
    clauses = clauses or clause_map()
    rows = {c.id: ClauseRow(c) for c in clauses.clauses.values()}
    census = _census(root)

    def add(ids, attribute: str, name: str) -> None:
        for clause_id in clauses.expand(tuple(ids)):
            getattr(rows[clause_id], attribute).append(name)
    for site, ids in SITE_CLAUSES.items():
        add(ids, "sites", site)
        entry = census.get(site)
        for clause_id in clauses.expand(ids):
            if entry is not None:
                rows[clause_id].vector_cases += entry["vectors"]["on"]
                rows[clause_id].scene_hits += entry["scenes"]["on"]
    for family, ids in FAMILY_CLAUSES.items():
        add(ids, "families", family)
    for scenario in scenarios:
        add(scenario.clauses, "scenarios", scenario.id)
    for control in CONTROLS:
        if control.equivalent or not control.clauses:
            continue
        add(control.clauses, "vectors_only" if control.no_scene else "caught", control.name)
    for row in rows.values():
        defended = bool(row.caught or row.vectors_only)
        if not row.clause.normative:
            row.status = INFORMATIVE if row.served else OPEN
        elif defended and row.served:
            row.status = DEFENDED
        elif row.clause.argued and row.served:
            row.status = ARGUED
        else:
            row.status = OPEN
    for row in rows.values():  # a clause that only restates others stands or falls with them
        restated = [rows[r].status for r in row.clause.restates]
        if row.status == OPEN and row.served and restated:
            row.status = DEFENDED if DEFENDED in restated else ARGUED if ARGUED in restated else OPEN
    return list(rows.values())


def unnamed_pieces(scenarios: list) -> list[str]:
    """Every piece of the suite that names no clause (each a gap of the map's use)."""
    problems = [f"scenario {s.id}: no clauses" for s in scenarios if not s.clauses]
    problems += [f"control {c.name}: no clauses" for c in CONTROLS if not c.clauses]
    problems += [f"vector family {f.name}: no clauses" for f in FAMILIES if f.name not in FAMILY_CLAUSES]
    from ..census.boundary import find_sites
    problems += [f"census site {s.id}: no clauses" for s in find_sites() if s.id not in SITE_CLAUSES]
    return problems


def format_rows(rows: list[ClauseRow]) -> str:
    """The table: clause, where, sites, vector and scene hits on its boundaries, scenarios,
    controls (in a scene / vectors only), status."""
    width = max(len(r.clause.id) for r in rows)
    lines = [f"{'clause':<{width}}  {'where':<26}  {'sites':>5}  {'vec on':>7}  {'scene on':>8}  {'scenes':>6}  "
             f"{'controls':>8}  status",
             f"{'-' * width}  {'-' * 26}  {'-' * 5}  {'-' * 7}  {'-' * 8}  {'-' * 6}  {'-' * 8}  {'-' * 6}"]
    for r in rows:
        controls = f"{len(r.caught)}/{len(r.vectors_only)}"
        lines.append(f"{r.clause.id:<{width}}  {r.clause.where()[:26]:<26}  {len(r.sites):>5}  {r.vector_cases:>7}  "
                     f"{r.scene_hits:>8}  {len(r.scenarios):>6}  {controls:>8}  {r.status}")
        if r.status == ARGUED:
            lines.append(f"{'':<{width}}  ({r.clause.argued or 'restates ' + ', '.join(r.clause.restates)})")
    return "\n".join(lines)


def totals(rows: list[ClauseRow]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rows:
        out[r.status] = out.get(r.status, 0) + 1
    return out


def to_markdown(rows: list[ClauseRow]) -> str:
    """docs/clauses.md: the same table with the paraphrase and the pieces by name."""
    t = totals(rows)
    normative = [r for r in rows if r.clause.normative]
    out = ["# Clauses: every rule of the text, what pins it and what defends it", "",
           "Generated by `orca-conformance clauses --write` from `conformance/contract/clauses.json`, the "
           "census, the scenarios and the control catalogue; `tests/test_clauses.py` fails when it is stale.", "",
           f"{len(rows)} clauses ({len(normative)} normative): "
           + ", ".join(f"{n} {k.lower()}" for k, n in sorted(t.items())) + ".", "",
           "A clause is DEFENDED when a control that breaks it fails the gate (`controls/vectors-only` counts "
           "them), ARGUED when the map says why no control can, INFORMATIVE when it is not a rule a port follows.",
           "", "| clause | where | says | sites | vector cases on | scene hits on | scenarios | controls | status |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        controls = ", ".join(r.caught + [f"{n} (vectors)" for n in r.vectors_only]) or "-"
        why = r.clause.argued or "restates " + ", ".join(r.clause.restates)
        says = r.clause.says + (f" *Argued:* {why}" if r.status == ARGUED else "")
        out.append(f"| `{r.clause.id}` | {r.clause.where()} | {says} | {len(r.sites)} | {r.vector_cases} | "
                   f"{r.scene_hits} | {len(r.scenarios)} | {controls} | {r.status} |")
    return "\n".join(out) + "\n"


def docs_path(root: Path) -> Path:
    return root / "docs" / "clauses.md"


def dependents(scenarios: list, clauses: ClauseMap | None = None) -> dict[str, dict[str, list[str]]]:
    """clause id -> {"scenarios": [...], "vector families": [...], "census sites": [...],
    "controls": [...]}: what must be looked at again when that clause's words change."""
    clauses = clauses or clause_map()
    out: dict[str, dict[str, list[str]]] = {}

    def add(ids, kind: str, name: str) -> None:
        for clause_id in clauses.expand(tuple(ids)):
            out.setdefault(clause_id, {}).setdefault(kind, []).append(name)
    for scenario in scenarios:
        add(scenario.clauses, "scenarios", scenario.id)
    for family, ids in FAMILY_CLAUSES.items():
        add(ids, "vector families", family)
    for site, ids in SITE_CLAUSES.items():
        add(ids, "census sites", site)
    for control in CONTROLS:
        add(control.clauses, "controls", control.name)
    return out
