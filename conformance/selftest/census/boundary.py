"""Boundary census of the reference: every decision it takes, and the data that sits on it.

Contract: ``find_sites()`` lists every decision site of the reference solver and the driver
(each comparison, each half of a chained comparison, and each sort or selection whose ties are
broken by a key), found in the source by its syntax tree, so a decision added to the reference
joins the census by itself.  ``run_census()`` evaluates the stored vectors and the non-slow
scenarios through an instrumented copy of those modules (a separate package namespace, built by
data/shadow.py; the reference itself is never touched) and counts, per site and per source of
data, how often the two sides of the comparison were exactly equal (``on``) or one ulp apart
(``below``/``above``; for integers: one apart); for a tie site, how often two candidates shared
the key.  This module holds the census's table, its arguments and its committed file.

A site is *covered* when the vectors and the scenes both reach its boundary; otherwise it
needs an argument in ``ARGUED`` (why no data can or need reach it).  The same holds for each
rounding band that applies to a site (bands.py): the vectors and the scenes put data inside
it, or an argument (a solver's proof that it is empty, or prose) says why they need not.  The result is committed as
``docs/census/census.json`` with a digest of everything it was made from; the tests fail when
that file is stale, when a site of the current sources is missing from it, or when a site is
neither covered nor argued.  Which alternative reading of each decision the gate catches, and
where, is the job of the misreading catalogue (``orca-conformance controls``).
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ...data.shadow import FRESH, INSTRUMENTED, SHADOW, Site, Tally, instrumented_tree, load_shadow, source_path
from .bands import OPEN_STATUSES, BandRow, band_problems, band_rows, committed_problems, format_bands

CENSUS_FORMAT = "orca-census/1"
CATEGORIES = ("on", "below", "above")

_GRID = ("the grid is an implementation device (spec note 17): it returns exactly what brute force returns, "
         "and this decision only chooses which candidates it looks at; the agent_neighbors vectors pin its result "
         "on cell boundaries and out-of-range coordinates")
_FOR_BOUNDARY = ("ForBoundary is not used by the step (the step builds constraints from agents and segments only), "
                 "so no scene can reach it; the for_boundary vectors reach the boundary and the catalogue's "
                 "for-boundary-* misreadings are caught there")
_DOMAIN = ("in a simulation the domain test runs only for segments the agent does not overlap, with x = 0; "
           "the candidates that analytically sit on the domain's edge (the legs, n.p = -r) land within rounding "
           "noise of it, seven orders of magnitude inside the 1e-9 tolerance, and any candidate within the band "
           "scores below the winner, so no scene can put n.a + r exactly on tol; the vectors do (r = 3e-9), and "
           "the catalogue settles the readings: domain-test-no-tolerance is caught in "
           "orca/boundary-touching-walls, domain-test-strict and domain-test-rearranged are NO SCENE with a "
           "search over 400,000 set-ups as evidence")
_CLAMP = ("a clamp's strictness cannot change bits: at t == the bound both readings leave t equal to the bound; "
          "the sibling clamps of solve_closest are reached in vectors and scenes")

ARGUED: dict[str, str] = {
    "solver.constraint.for_boundary: ee == 0.0": _FOR_BOUNDARY,
    "solver.constraint.for_boundary: s <= m": _FOR_BOUNDARY,
    "solver.constraint.for_boundary: s >= 1.0 - m": _FOR_BOUNDARY,
    "solver.constraint.for_boundary: d < -BOUNDARY_EPSILON": _FOR_BOUNDARY,
    "solver.linear_program.line_interval: denom > 0.0": (
        "dead boundary: denom == 0 is inside |denom| <= 1e-12, which the parallel test takes first, so this "
        "test only ever sees |denom| > 1e-12 and its strictness cannot matter"),
    "solver.linear_program.solve_direction: t < lower": _CLAMP,
    "solver.linear_program.solve_direction: t > upper": _CLAMP,
    "solver.neighbors.AgentGrid.__init__: self.cell > 0.0": _GRID,
    "solver.neighbors.AgentGrid.__init__: widest / self.cell < EXACT_CELL_LIMIT": _GRID,
    "solver.neighbors.AgentGrid.__init__: self.cell > 0.0 #2": _GRID,
    "solver.neighbors.AgentGrid.neighbors: self.cell <= 0.0": (
        "the cell is max(neighbor_distance) * (1 + 1/1024), zero only when every agent has neighbor_distance 0, "
        "which the twin test neighbor_distance <= 0.0 of the same call already answers the same way (no neighbors)"),
    "solver.neighbors.AgentGrid.neighbors: j != i": (
        "an identity test (the agent is not its own neighbor), not a numeric boundary; its brute-force twin "
        "j == i is exercised by every agent_neighbors vector"),
    "solver.neighbors.agent_neighbors_brute_force: j == i": (
        "an identity test (the agent is not its own neighbor), not a numeric boundary; its grid twin j != i "
        "is exercised by every scene"),
    "solver.neighbors.agent_neighbors_brute_force: d2 < limit": (
        "the brute-force twin of the grid's range test (d2 := ...) < limit, which the scenes reach exactly; "
        "in a simulation the grid answers and calls brute force only for cells too small to index"),
    "solver.neighbors.AgentGrid.neighbors: (d2 := ((x - xi) * (x - xi) + (y - yi) * (y - yi))) < limit": (
        "the grid twin of the brute-force range test d2 < limit, which the agent_neighbors vectors reach "
        "exactly; the vectors evaluate the selection by brute force, the simulation through the grid"),
    "solver.neighbors._smallest: count <= 0": (
        "max_neighbors == 0 reaches this only through the vectors: in a simulation the grid's twin test "
        "max_neighbors <= 0 answers first (no neighbors), and the scenes reach that one"),
    "solver.simulator.Simulator.new_velocity: failed < hard_count": (
        "a statistic only (it counts hard-prefix fallbacks for the behaviour figures); relax makes the "
        "bit-relevant choice with the same test, which the vectors and scenes reach"),
    "solver.obstacle.support_distance: nx * ax + ny * ay + r <= tol_a": _DOMAIN,
    "solver.obstacle.support_distance: nx * bx + ny * by + r <= tol_b": _DOMAIN,
    "solver.fallback.maximize_smallest_distance: hard_count >= count": (
        "unreachable through relax with a real failure index (0 <= failed < count): the hard-prefix branch "
        "relaxes hard_count >= 1 lines with no hard one, the other branch has failed >= hard_count, so count > "
        "hard_count in both; the test only guards a call with no soft constraint (note 11)"),
    "solver.fallback.maximize_smallest_distance: failed < 0": (
        "its boundary is a sub-program that fails at its first line: a hard line there already passed the "
        "closest program, and a first bisector g_k >= g_j contains the current v (g_j(v) < level <= g_k(v)), so "
        "neither can miss the disc on the wrong side; 618,545 fallbacks on random programs (1 minute, seed 5) "
        "and 738,577 sub-programs in the scenes never failed at index 0, while failures at later indices are "
        "reached (fallback-take-infeasible is caught in orca/boundary-fallback)"),
    "contract.driver.run: step == total": (
        "the harness loop's end (state `steps` is the last one hashed), not a decision of the contract: a port "
        "that runs one step too many or too few fails every cell on the number of states"),
}
"""Site id -> why its boundary need not (or cannot) be reached by both vectors and scenes."""


def find_sites() -> list[Site]:
    """Every decision site of the instrumented modules, in module and source order."""
    sites: list[Site] = []
    for module in INSTRUMENTED:
        sites += instrumented_tree(module)[1]
    return sites


# ----------------------------------------------------------------------------- running

@dataclass
class CensusRow:
    """One site with its boundary counts in the vectors and in the scenes."""

    site: Site
    vectors: dict[str, int]
    scenes: dict[str, int]
    first_scene: str | None
    argued: str = ""
    bands: list[BandRow] | None = None
    """The site's rounding bands (bands.py), one row per kind that applies."""

    @property
    def status(self) -> str:
        on_v, on_s = self.vectors["on"] > 0, self.scenes["on"] > 0
        if on_v and on_s:
            return "COVERED"
        if self.argued:
            return "ARGUED"
        return "VECTORS ONLY" if on_v else "SCENES ONLY" if on_s else "GAP"


def run_census(vector_folder: Path, scenarios: Iterable, on_scenario: Callable[[str], None] | None = None) -> Tally:
    """Evaluate every stored vector case and run every given scenario through the shadow."""
    tally = Tally()
    shadow_vectors = load_shadow(tally)
    from ...data.vectors import load_all
    for name, cases in load_all(vector_folder).items():
        family = shadow_vectors.FAMILY_BY_NAME[name]
        for case in cases:
            family.reference(*[shadow_vectors.decode_value(c, v) for c, v in zip(family.args, case["args"])])
    shadow_driver = sys.modules[f"{SHADOW}.contract.driver"]
    for scenario in scenarios:
        if on_scenario is not None:
            on_scenario(scenario.id)
        tally.source = scenario.id
        for _ in shadow_driver.run(scenario.scene):
            pass
    tally.source = "vectors"
    return tally


def rows(sites: list[Site], tally: Tally) -> list[CensusRow]:
    """The census table: one row per site, counts summed over the scenes."""
    out = []
    by_site: dict[str, list[BandRow]] = {}
    for band in band_rows(sites, tally):
        by_site.setdefault(band.site, []).append(band)
    for site in sites:
        vec = {c: tally.counts.get((site.id, "vectors", c), 0) for c in CATEGORIES}
        scenes = {c: 0 for c in CATEGORIES}
        first = None
        for (sid, source, category), n in sorted(tally.counts.items()):
            if sid == site.id and source != "vectors":
                scenes[category] += n
                if category == "on" and first is None:
                    first = source
        out.append(CensusRow(site, vec, scenes, first, ARGUED.get(site.id, ""), by_site.get(site.id, [])))
    return out


def digest(vector_folder: Path, scenarios: Iterable) -> str:
    """What a census depends on: the instrumented sources, the vectors and the scenes."""
    h = hashlib.sha256()
    for module in INSTRUMENTED + FRESH + ("selftest.census.boundary", "data.shadow", "data.band_kinds",
                                          "data.vector_bands", "selftest.census.bands", "selftest.census.band_arguments"):
        h.update(module.encode() + source_path(module).read_bytes())
    for path in sorted(vector_folder.glob("*.json")):
        h.update(path.name.encode() + path.read_bytes())
    for scenario in scenarios:
        h.update(f"{scenario.id}={scenario.fingerprint}".encode())
    return "sha256:" + h.hexdigest()


def to_document(table: list[CensusRow], source_digest: str) -> dict:
    """The committed form (docs/census/census.json)."""
    return {
        "format": CENSUS_FORMAT, "digest": source_digest,
        "sites": [{"id": r.site.id, "module": r.site.module, "function": r.site.function, "line": r.site.line,
                   "kind": r.site.kind, "vectors": r.vectors, "scenes": r.scenes, "first_scene": r.first_scene,
                   "status": r.status, "argued": r.argued,
                   "bands": {b.kind: b.to_json() for b in r.bands or []}} for r in table],
    }


def totals(table: list[CensusRow]) -> Counter:
    return Counter(r.status for r in table)


def format_table(table: list[CensusRow]) -> str:
    """Site, vectors on/below/above, scenes on/below/above, status (and the argument when argued)."""
    width = max([len("site")] + [len(r.site.id) for r in table])
    lines = [f"{'site':<{width}}  {'vectors on/-1/+1':>16}  {'scenes on/-1/+1':>16}  status",
             f"{'-' * width}  {'-' * 16}  {'-' * 16}  {'-' * 6}"]
    for r in table:
        v = "/".join(str(r.vectors[c]) for c in CATEGORIES)
        s = "/".join(str(r.scenes[c]) for c in CATEGORIES)
        lines.append(f"{r.site.id:<{width}}  {v:>16}  {s:>16}  {r.status}")
        if r.status == "ARGUED":
            lines.append(f"{'':<{width}}  {'':>16}  {'':>16}  ({r.argued})")
    t = totals(table)
    lines += ["", format_bands(all_bands(table)), ""]
    lines.append(f"census: {len(table)} sites: " + ", ".join(f"{n} {k.lower()}" for k, n in sorted(t.items())))
    return "\n".join(lines)


def all_bands(table: list[CensusRow]) -> list[BandRow]:
    """Every site's band rows, in site order."""
    return [band for row in table for band in row.bands or []]


def open_bands(table: list[CensusRow]) -> list[BandRow]:
    """Site bands without data in both the vectors and the scenes and without an argument."""
    return [band for band in all_bands(table) if band.status in OPEN_STATUSES]


# ----------------------------------------------------------------------------- the committed census

def census_path(root: Path) -> Path:
    return root / "docs" / "census" / "census.json"


def unresolved(table: list[CensusRow]) -> list[CensusRow]:
    """Sites whose boundary is reached by the vectors or the scenes alone (or by neither) and
    that have no argument: the gaps the census exists to show."""
    return [r for r in table if r.status not in ("COVERED", "ARGUED")]


def check_committed(path: Path, vector_folder: Path, scenarios: list) -> list[str]:
    """Problems of the committed census without running it: missing, stale (its inputs moved
    on), a site of the sources it does not list (or one it lists that is gone), an argument for
    a site that no longer exists, or a site neither covered nor argued."""
    from ...jsonfile import read_json
    if not path.exists():
        return [f"{path}: missing; run: orca-conformance census --write"]
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != CENSUS_FORMAT:
        return [f"{path}: not an {CENSUS_FORMAT} document"]
    problems = []
    if data.get("digest") != digest(vector_folder, scenarios):
        problems.append(f"{path}: stale (the solver, driver, vectors or scenes changed); "
                        "run: orca-conformance census --write")
    listed = {s["id"]: s for s in data.get("sites", [])}
    current = [s.id for s in find_sites()]
    for site_id in current:
        if site_id not in listed:
            problems.append(f"{path}: site not in the census: {site_id}")
    for site_id in listed:
        if site_id not in current:
            problems.append(f"{path}: site no longer in the sources: {site_id}")
    for site_id in ARGUED:
        if site_id not in current:
            problems.append(f"census.ARGUED: argument for a site that does not exist: {site_id}")
    sites = find_sites()
    problems += band_problems(sites) + committed_problems(listed, sites)
    for site_id, entry in listed.items():
        if entry.get("status") not in ("COVERED", "ARGUED"):
            problems.append(f"{site_id}: {entry.get('status')} (vectors on/-1/+1 "
                            f"{'/'.join(str(entry['vectors'][c]) for c in CATEGORIES)}, scenes on/-1/+1 "
                            f"{'/'.join(str(entry['scenes'][c]) for c in CATEGORIES)}): add data on its "
                            "boundary or argue it in census.ARGUED")
    return problems
