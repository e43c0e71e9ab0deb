"""Why a site band of the census needs no data (or no scene), grouped by reason.

Contract: ``BAND_ARGUED`` maps (census site id, band kind) to (scope, reason).  Scope ``band``:
no input of the primitive can or need put data in that band (the reason says why); scope
``scenes``: no simulation reaches the band, and the vectors must (the census keeps the site band
open while they do not).  A band the solver proved empty needs no entry here: its proof is in
data/vector_bands.py.  ``bands.band_problems`` fails an entry that names no site, a kind
that does not apply to the site, or an unknown scope.
"""

from __future__ import annotations

SCOPES = ("band", "scenes")

_FOR_BOUNDARY = ("ForBoundary is not used by the step (the step builds constraints from agents and segments "
                 "only), so no scene evaluates this decision at all; the for_boundary vectors carry the band")
_SAME_BITS = ("the scenes reach this branch (no admissible candidate) through an overlapping agent pair: the "
              "support form with a == b, whose one candidate wa/|wa| is missing only when x == a/dt exactly; "
              "there wa == wb, so va and vb are the same products of the same numbers, equal bit for bit, sign "
              "included, and no band lies between them.  A segment outside overlap would need every candidate, "
              "the nearest end's radial normal included, refused by the domain test, whose 1e-9 tolerance is "
              "seven orders of magnitude above that normal's rounding (census.ARGUED, the domain test); this is "
              "argued, not proven.  The vectors put va and vb in the band")

_NEAR_PARALLEL = ("a scene would need two constraint lines about 1e-12 rad from parallel (the normals of two agents or "
                  "segments at that angle), with denom = d . m landing within binary32 rounding of +-1e-12; a random "
                  "search over such set-ups did not find one, and nothing shows that no simulation can. The "
                  "solve_closest and relax vectors hold the band (cases the band solver found), so a port that provides "
                  "them fails there; a scenes-only port is not held to this band.  Argued, not proven")
_FALLBACK_PAIR = ("a scene needs the fallback to compare two soft constraints whose normals differ by about 1e-12 "
                  "(mm near 1e-24); a scene with agents 2.4e-13 apart in direction puts mm in the band, but the fallback "
                  "never compares that pair there (the g_j(v) >= level test skips it each time), and no set-up that "
                  "makes it compare them was found.  The relax vectors hold the band.  Argued, not proven")
_TOUCHING_LEGS = ("a scene needs a wall end inside the radius only through rounding (rho2 - r*r a tiny negative) while "
                  "the segment itself does not overlap, at magnitudes binary32 flushes to zero; none was found.  The "
                  "support_distance vectors hold the band.  Argued, not proven")

BAND_ARGUED: dict[tuple[str, str], tuple[str, str]] = {
    ("solver.linear_program.line_interval: -PARALLEL_EPSILON <= denom", "float32"): ("scenes", _NEAR_PARALLEL),
    ("solver.linear_program.line_interval: denom <= PARALLEL_EPSILON", "float32"): ("scenes", _NEAR_PARALLEL),
    ("solver.fallback.maximize_smallest_distance: mm <= PARALLEL_NORMALS", "float32"): ("scenes", _FALLBACK_PAIR),
    ("solver.fallback.maximize_smallest_distance: mm <= PARALLEL_NORMALS", "roots"): ("scenes", _FALLBACK_PAIR),
    ("solver.obstacle._append_legs: ll < 0.0", "float32"): ("scenes", _TOUCHING_LEGS),
    **{(site, kind): ("scenes", _FOR_BOUNDARY)
       for site in ("solver.constraint.for_boundary: ee == 0.0", "solver.constraint.for_boundary: s <= m",
                    "solver.constraint.for_boundary: s >= 1.0 - m",
                    "solver.constraint.for_boundary: d < -BOUNDARY_EPSILON")
       for kind in ("tolerance", "float32")},
    ("solver.obstacle.support_distance: vb < va #2", "tolerance"): ("scenes", _SAME_BITS),
    ("solver.obstacle.support_distance: vb < va #2", "float32"): ("scenes", _SAME_BITS),
    ("solver.obstacle.support_distance: vb < va #2", "signed-zeros"): ("scenes", _SAME_BITS),
}
"""(site, band kind) -> (scope, why)."""
