"""The census's bands column: data inside every rounding band of every decision, or an argument.

Contract: a site's band kinds come from its syntax (``Site.bands``, data/band_kinds.py).  For each
site and kind, ``band_rows(sites, tally)`` counts how often the vectors and the scenes put the
operands of the decision inside that band and gives the pair a status: ``COVERED`` when both do;
``ARGUED`` when an argument says why that is not needed: a solver's proof that the band is empty
(``vector_bands.PROOFS``, written by selftest/census/band_solver.py), or a reason in prose
(``BAND_ARGUED``: scope ``band``, no input can or need reach it, or scope ``scenes``, no
simulation reaches it, which holds only while the vectors do); otherwise ``VECTORS ONLY``,
``SCENES ONLY`` or ``GAP``, each an open gap exactly like an uncovered boundary.
``band_problems(sites)`` says what is wrong with the arguments themselves (an unknown site or
kind, a kind that does not apply, an unknown scope, a proof contradicted by data).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...data import vector_bands
from ...data.shadow import Site, Tally
from ...errors import InputError
from .band_arguments import BAND_ARGUED, SCOPES

OPEN_STATUSES = ("VECTORS ONLY", "SCENES ONLY", "GAP")


@dataclass
class BandRow:
    """One site and one band kind that applies to it, with its counts and status."""

    site: str
    kind: str
    vectors: int = 0
    scenes: int = 0
    first_scene: str | None = None
    argued: str = ""
    scope: str = ""
    """``band`` or ``scenes`` for a prose argument, ``proof`` for a solver's proof, else empty."""
    proof: dict = field(default_factory=dict)

    @property
    def status(self) -> str:
        if self.vectors and self.scenes:
            return "COVERED"
        if self.scope in ("band", "proof") or (self.scope == "scenes" and self.vectors):
            return "ARGUED"
        return "VECTORS ONLY" if self.vectors else "SCENES ONLY" if self.scenes else "GAP"

    def to_json(self) -> dict:
        out = {"vectors": self.vectors, "scenes": self.scenes, "first_scene": self.first_scene,
               "status": self.status, "argued": self.argued}
        if self.scope:
            out["scope"] = self.scope
        if self.proof:
            out["proof"] = self.proof
        return out


def proofs() -> dict[tuple[str, str], dict]:
    """(site, kind) -> the solver's record of an empty band (vector_bands.PROOFS), validated."""
    out = {}
    file = "conformance/data/vector_bands.py"
    for k, entry in enumerate(vector_bands.PROOFS):
        for key in ("site", "band", "solver", "encoding", "bound", "seconds", "result"):
            if key not in entry:
                raise InputError(file, f"PROOFS[{k}].{key}", "missing (rerun python -m conformance.selftest.census.band_solver)")
        if entry["result"] != "unsat":
            raise InputError(file, f"PROOFS[{k}].result", f"{entry['result']!r} is not a proof (only unsat is)")
        out[(entry["site"], entry["band"])] = entry
    return out


def proof_text(entry: dict) -> str:
    """One sentence of a proof: solver, encoding, bound, time."""
    return (f"{entry['solver']} proves the band empty ({entry['result']} in {entry['seconds']:.2f} s): "
            f"{entry['encoding']}; bound: {entry['bound']}")


def band_rows(sites: list[Site], tally: Tally) -> list[BandRow]:
    """One row per site and applicable band kind, counts summed over the scenes."""
    counts: dict[tuple[str, str], list] = {}
    for (site, source, kind), n in sorted(tally.bands.items()):
        entry = counts.setdefault((site, kind), [0, 0, None])
        if source == "vectors":
            entry[0] += n
        else:
            entry[1] += n
            entry[2] = entry[2] or source
    proved = proofs()
    out = []
    for site in sites:
        for kind in site.bands:
            vectors, scenes, first = counts.get((site.id, kind), [0, 0, None])
            row = BandRow(site.id, kind, vectors, scenes, first)
            if (site.id, kind) in proved:
                row.scope, row.proof = "proof", proved[(site.id, kind)]
                row.argued = proof_text(row.proof)
            elif (site.id, kind) in BAND_ARGUED:
                row.scope, row.argued = BAND_ARGUED[(site.id, kind)]
            out.append(row)
    return out


def band_problems(sites: list[Site], table: list[BandRow] | None = None) -> list[str]:
    """Arguments and proofs that name no site, a kind that does not apply there, an unknown
    scope; with a table, a proof of an empty band that data contradicts."""
    kinds = {s.id: s.bands for s in sites}
    problems = []
    for (site, kind), (scope, reason) in BAND_ARGUED.items():
        where = f"band_arguments.BAND_ARGUED[{site!r}, {kind!r}]"
        if site not in kinds:
            problems.append(f"{where}: no such site")
        elif kind not in kinds[site]:
            problems.append(f"{where}: band {kind!r} does not apply to this site (it has {list(kinds[site])})")
        if scope not in SCOPES:
            problems.append(f"{where}: unknown scope {scope!r} (one of {', '.join(SCOPES)})")
        if len(reason) < 40:
            problems.append(f"{where}: the reason is too short to be an argument")
    for site, kind in proofs():
        if kind not in kinds.get(site, ()):
            problems.append(f"vector_bands.PROOFS: {site} / {kind}: no such site or band")
    for row in table or []:
        if row.scope == "proof" and (row.vectors or row.scenes):
            problems.append(f"{row.site} / {row.kind}: proved empty, yet data sits in it "
                            f"({row.vectors} vectors, {row.scenes} scenes): the encoding is wrong")
    return problems


def totals(table: list[BandRow]) -> Counter:
    """covered, argued with proof, argued in prose, open."""
    out: Counter = Counter()
    for row in table:
        status = row.status
        if status == "ARGUED":
            out["argued (proof)" if row.scope == "proof" else "argued (prose)"] += 1
        else:
            out["covered" if status == "COVERED" else "open"] += 1
    return out


def format_bands(table: list[BandRow]) -> str:
    """Site, band, vectors, scenes, status (the argument under an argued row)."""
    width = max([len("site")] + [len(r.site) for r in table])
    lines = [f"{'site':<{width}}  {'band':<12}  {'vectors':>8}  {'scenes':>9}  status",
             f"{'-' * width}  {'-' * 12}  {'-' * 8}  {'-' * 9}  {'-' * 6}"]
    for r in table:
        lines.append(f"{r.site:<{width}}  {r.kind:<12}  {r.vectors:>8}  {r.scenes:>9}  {r.status}")
        if r.status == "ARGUED":
            lines.append(f"{'':<{width}}  {'':<12}  {'':>8}  {'':>9}  ({r.scope}: {r.argued})")
    t = totals(table)
    lines += ["", f"bands: {len(table)} site bands: " + ", ".join(f"{t[k]} {k}" for k in
                                                                   ("covered", "argued (proof)", "argued (prose)", "open"))]
    return "\n".join(lines)


def committed_problems(listed: dict[str, dict], sites: list[Site]) -> list[str]:
    """Problems of the bands of a committed census: kinds that differ from the syntax's, a band
    neither covered nor argued."""
    problems = []
    for site in sites:
        entry = listed.get(site.id)
        if entry is None:
            continue
        bands = entry.get("bands", {})
        if list(bands) != list(site.bands):
            problems.append(f"{site.id}: the census lists bands {list(bands)}, its syntax gives {list(site.bands)}; "
                            "run: orca-conformance census --write")
            continue
        for kind, band in bands.items():
            if band.get("status") not in ("COVERED", "ARGUED"):
                problems.append(f"{site.id} / band {kind}: {band.get('status')} (vectors {band.get('vectors')}, "
                                f"scenes {band.get('scenes')}): put data in the band (selftest/census/band_solver.py, a scene) "
                                "or argue it in band_arguments.BAND_ARGUED")
    return problems


