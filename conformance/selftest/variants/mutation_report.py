"""The mutation report: the score and every survivor with its diff and verdict.

Contract: ``score(outcomes, equivalent)`` counts killed, survived, reviewed-equivalent and gap
mutants (a survivor is equivalent only when its reviewed evidence holds);
``write_report`` writes report.json and report.md into a folder, atomically.
"""

from __future__ import annotations

from pathlib import Path

from .review import Equivalence, is_equivalent
from ...runners.build.sources import MUTATED
from .mutate import BUILD_FAILED, KILLED, SURVIVED, TIMEOUT, Outcome


def score(outcomes: list[Outcome], equivalent: dict[str, Equivalence]) -> dict:
    """Counts and scores; a survivor counts as equivalent only when it is on the reviewed list
    and its evidence holds for the current sources (else it is a gap)."""
    killed = sum(o.status == KILLED for o in outcomes)
    survived = [o for o in outcomes if o.status == SURVIVED]
    gaps = [o for o in survived if not is_equivalent(o.mutant.id, equivalent)]
    return {
        "mutants": len(outcomes), "killed": killed, "survived": len(survived),
        "equivalent": len(survived) - len(gaps), "gaps": len(gaps),
        "build_failed": sum(o.status == BUILD_FAILED for o in outcomes),
        "timeout": sum(o.status == TIMEOUT for o in outcomes),
        "score": killed / max(1, killed + len(survived)),
        "score_non_equivalent": killed / max(1, killed + len(gaps)),
    }


def write_report(outcomes: list[Outcome], equivalent: dict[str, Equivalence], folder: Path,
                 seconds: float, gap_notes: dict[str, str] | None = None) -> list[Path]:
    """report.json and report.md: the score, the survivors with their diffs and verdicts."""
    from ...jsonfile import write_json_atomic
    folder.mkdir(parents=True, exist_ok=True)
    summary = score(outcomes, equivalent)
    data = {"summary": {**summary, "seconds": round(seconds, 1)},
            "outcomes": [o.to_json() for o in outcomes]}
    write_json_atomic(folder / "report.json", data)
    lines = ["# Mutation report of the C port", "",
             f"{summary['mutants']} mutants of the solver sources ({', '.join(MUTATED)}): "
             f"{sum(o.seconds for o in outcomes) / 60:.0f} minutes of judging (one process per mutant; "
             f"this report took {seconds / 60:.1f} minutes of wall time, cached verdicts included).", "",
             "| killed | survived | of which reviewed equivalent | gaps | build failures | timeouts |",
             "|---|---|---|---|---|---|",
             f"| {summary['killed']} | {summary['survived']} | {summary['equivalent']} | {summary['gaps']} | "
             f"{summary['build_failed']} | {summary['timeout']} |", "",
             f"**Score** killed / (killed + survived): {100 * summary['score']:.1f} %; on non-equivalent "
             f"mutants killed / (killed + gaps): **{100 * summary['score_non_equivalent']:.1f} %**.", ""]
    by_killer: dict[str, int] = {}
    for o in outcomes:
        if o.status == KILLED:
            key = o.killed_by.split("#")[0]
            by_killer[key] = by_killer.get(key, 0) + 1
    lines += ["## What kills them", "", "| killed by | mutants |", "|---|---|"]
    lines += [f"| `{k}` | {v} |" for k, v in sorted(by_killer.items(), key=lambda kv: -kv[1])]
    survivors = [o for o in outcomes if o.status == SURVIVED]
    lines += ["", "## Survivors", ""]
    for o in survivors:
        entry = equivalent.get(o.mutant.id)
        verdict = "equivalent" if is_equivalent(o.mutant.id, equivalent) else "GAP"
        lines += [f"### `{o.mutant.id}` — {verdict}", "", "```diff", o.mutant.diff(), "```", ""]
        if verdict == "GAP" and o.mutant.id in (gap_notes or {}):
            lines += [f"Reviewed: {gap_notes[o.mutant.id]}", ""]
        if entry is not None:
            lines += [entry.reason, ""]
            ev = entry.evidence
            if ev is None:
                lines += ["Evidence: not gathered (`orca-conformance mutate --evidence`).", ""]
            else:
                reach = (" (no primitive family calls simulator.c: the scenarios are its evidence)"
                         if o.mutant.file == "simulator.c" else "")
                lines += [f"Evidence: {ev.compared:,} fresh primitive cases{reach} and {ev.scenarios} slow "
                          f"scenario(s), {ev.differ} with other bits" + (f" (first: {ev.first})" if ev.first else "")
                          + ("" if ev.holds() else "; does not hold for the current sources") + "; every "
                          "non-slow scenario identical on the bulk, threaded and per-agent paths.", ""]
    others = [o for o in outcomes if o.status in (BUILD_FAILED, TIMEOUT)]
    if others:
        lines += ["## Build failures and timeouts", ""]
        lines += [f"- `{o.mutant.id}` {o.status}: {o.detail[:160]}" for o in others]
    (folder / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [folder / "report.json", folder / "report.md"]
